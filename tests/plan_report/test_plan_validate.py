"""validate_plan: a valid plan passes; each rule code has a fixture that fails with exactly that code."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autodidact.plan.validate import RULES, validate_plan


def test_valid_plan_passes(plan: dict[str, Any]) -> None:
    report = validate_plan(plan)
    assert report.ok, report.errors
    assert report.stats["dimensions"] == 3
    assert report.stats["waves"] == 2


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(p: dict[str, Any]) -> None:
        node: Any = p
        parts = path.split(".")
        for part in parts[:-1]:
            node = node[int(part)] if part.isdigit() else node[part]
        last = parts[-1]
        if value is _DELETE:
            del node[last]
        else:
            node[int(last) if last.isdigit() else last] = value

    return apply


_DELETE = object()


def _two_dims(p: dict[str, Any]) -> None:
    p["dimensions"] = p["dimensions"][:2]
    p["execution_order"] = ["d1", "d2"]


def _dup_id(p: dict[str, Any]) -> None:
    p["dimensions"][2]["id"] = "d1"
    p["dimensions"][2]["scope_ownership"]["owns"] = ["topic 3"]
    p["execution_order"] = ["d1", "d2"]


def _self_dep(p: dict[str, Any]) -> None:
    d3 = p["dimensions"][2]
    d3["depends_on"] = ["d3"]
    d3["dependency_inputs"] = [dict(p["dimensions"][1]["dependency_inputs"][0], dimension_id="d3")]


def _missing_dep(p: dict[str, Any]) -> None:
    d3 = p["dimensions"][2]
    d3["depends_on"] = ["d9"]
    d3["dependency_inputs"] = [dict(p["dimensions"][1]["dependency_inputs"][0], dimension_id="d9")]


def _mismatch(p: dict[str, Any]) -> None:
    p["dimensions"][2]["depends_on"] = ["d1"]
    p["execution_order"] = ["d1", "d2", "d3"]


def _missing_order(p: dict[str, Any]) -> None:
    p["execution_order"] = ["d1", "d2"]


def _wrong_order(p: dict[str, Any]) -> None:
    p["execution_order"] = ["d2", "d1", "d3"]


def _filler_rule(p: dict[str, Any]) -> None:
    p["dimensions"][1]["dependency_inputs"][0]["scope_rule"] = "参考上游结果"


def _generic_english_rule(p: dict[str, Any]) -> None:
    p["dimensions"][1]["dependency_inputs"][0]["scope_rule"] = "Use upstream results."


def _owned_twice(p: dict[str, Any]) -> None:
    p["dimensions"][2]["scope_ownership"]["owns"] = ["Topic 1"]


def _bad_needed_for(p: dict[str, Any]) -> None:
    p["dimensions"][1]["dependency_inputs"][0]["needed_for"] = "background"


CASES: dict[str, Callable[[dict[str, Any]], None]] = {
    "P001": _set("dimensions", _DELETE),
    "P002": _two_dims,
    "P003": _dup_id,
    "P004": _set("dimensions.0.key_questions", ["Only one question?"]),
    "P005": _set("dimensions.0.key_questions", ["Same question?", "same  question?"]),
    "P006": _set("dimensions.0.search_strategy.seed_queries", ["one", "two"]),
    "P007": _set("research_goal", "   "),
    "P008": _set("scope.region", ""),
    "P009": _set("report_shape.sections", []),
    "P010": _set("report_shape.mandatory_elements", [" "]),
    "P011": _set("report_shape.style", ""),
    "P012": _set("completion_criteria", []),
    "P013": _mismatch,
    "P014": _self_dep,
    "P015": _missing_dep,
    "P017": _missing_order,
    "P018": _wrong_order,
    "P019": _filler_rule,
    "P020": _owned_twice,
    "P021": _set("dimensions.1.method", ""),
    "P022": _bad_needed_for,
    "P023": _set("report_shape.format_basis", []),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_rule_fails_with_its_code(plan: dict[str, Any], code: str) -> None:
    CASES[code](plan)
    report = validate_plan(plan)
    assert not report.ok
    assert report.rules == {code}, report.errors


def test_every_rule_code_has_a_fixture() -> None:
    assert set(RULES) == set(CASES) | {"P016"}


def test_generic_english_scope_rule_is_filler(plan: dict[str, Any]) -> None:
    _generic_english_rule(plan)
    assert validate_plan(plan).rules == {"P019"}


def test_cycle_is_reported_with_its_path(plan: dict[str, Any]) -> None:
    dims = plan["dimensions"]
    rule = "Only the entities listed in the upstream findings are searched."
    for dim, dep in ((dims[0], "d3"), (dims[2], "d2")):
        dim["depends_on"] = [dep]
        dim["dependency_inputs"] = [
            {"dimension_id": dep, "needed_for": "entity_selection", "consume": "key_findings", "scope_rule": rule}
        ]
    report = validate_plan(plan)
    cycles = [e for e in report.errors if e["rule"] == "P016"]
    assert len(cycles) == 1
    path = cycles[0]["cycle"]
    assert path[0] == path[-1] and set(path) == {"d1", "d2", "d3"} and len(path) == 4
    # the path follows real edges: each node depends on the next
    deps = {d["id"]: d["depends_on"] for d in dims}
    assert all(path[i + 1] in deps[path[i]] for i in range(3))
    assert " -> ".join(path) in cycles[0]["message"]


def test_not_an_object_and_paths(tmp_path: Path, plan: dict[str, Any]) -> None:
    assert validate_plan({"x": 1}).rules == {"P001"}
    good = tmp_path / "plan.json"
    good.write_text(json.dumps(plan), encoding="utf-8")
    assert validate_plan(good).ok


def test_cli_exit_codes(tmp_path: Path, plan: dict[str, Any], cli: Any) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(plan), encoding="utf-8")
    result = cli("plan", "validate", str(good))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["ok"] is True

    plan["dimensions"][0]["key_questions"] = ["one?"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(plan), encoding="utf-8")
    result = cli("plan", "validate", str(bad))
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["ok"] is False and out["errors"][0]["rule"] == "P004"

    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    assert cli("plan", "validate", str(broken)).exit_code == 2
    assert cli("plan", "validate", str(tmp_path / "missing.json")).exit_code == 2


def test_what_the_pipelines_plan_model_refuses_the_validator_refuses(
    plan: dict[str, Any], tmp_path: Path, cli: Any
) -> None:
    # issue 13 item 15: `sources[0].category = {}` passed `plan validate`, then the report step failed
    plan["dimensions"][0]["sources"] = [{"category": {}, "description": "official docs"}]
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan), encoding="utf-8")
    result = cli("plan", "validate", str(path))
    assert result.exit_code == 1
    errors = json.loads(result.stdout)["errors"]
    assert {e["rule"] for e in errors} == {"P021"} and "sources.0.category" in errors[0]["message"]


def test_dimension_ids_start_at_d1(plan: dict[str, Any]) -> None:
    old = plan["dimensions"][0]["id"]
    plan["dimensions"][0]["id"] = "d0"
    plan["execution_order"] = ["d0" if d == old else d for d in plan["execution_order"]]
    assert "P003" in validate_plan(plan).rules


def test_a_scope_rule_padded_with_spaces_is_still_too_short(plan: dict[str, Any]) -> None:
    dim = next(d for d in plan["dimensions"] if d.get("dependency_inputs"))
    dim["dependency_inputs"][0]["scope_rule"] = "use d1 a b c d e f"  # 18 with spaces, 12 characters
    assert validate_plan(plan).rules == {"P019"}
