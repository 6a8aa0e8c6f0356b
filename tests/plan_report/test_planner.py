"""The planner: offline plans pass validation for many request types and both languages; model path."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from autodidact.errors import ModelOutputInvalid
from autodidact.llm.runtime import Runtime
from autodidact.plan.offline import offline_plan
from autodidact.plan.planner import create_plan
from autodidact.plan.validate import validate_plan
from autodidact.testing.scripted import ScriptedModel

REQUESTS = [
    ("Compare asyncio and threading for I/O-bound Python programs", "comparison", "en"),
    ("How does the Python import system work?", "technical", "en"),
    ("The history of Python exception handling since 2000", "timeline", "en"),
    ("Please write a detailed report about the electric vehicle market in China", "industry", "en"),
    ("An overview of the Python standard library", "panorama", "en"),
    ("Why did the service outage happen? Investigate the root cause", "investigation", "en"),
    ("Analyse the EU AI Act regulation and its compliance duties", "policy", "en"),
    ("请写一份关于Python生成器工作原理的报告", "technical", "zh"),
    ("asyncio 与 threading 对比，用于选择网络爬虫的并发方案", "comparison", "zh"),
    ("近5年中国新能源汽车市场调研", "industry", "zh"),
    ("Python 异常处理的发展历程", "timeline", "zh"),
    ("数据安全法政策解读", "policy", "zh"),
]

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize(("request_text", "kind", "lang"), REQUESTS)
def test_offline_plan_is_valid_typed_and_in_the_request_language(request_text: str, kind: str, lang: str) -> None:
    plan = create_plan(request_text, Runtime())
    report = validate_plan(plan.to_json())
    assert report.ok, report.errors
    assert plan.report_shape.report_type == kind
    assert plan.language == lang
    assert 3 <= len(plan.dimensions) <= 8
    # natural-language fields are written in the request's language
    for text in [plan.research_goal, plan.report_shape.sections[0], plan.dimensions[0].key_questions[0]]:
        assert bool(CJK.search(text)) == (lang == "zh"), text
    # a wave never holds a dimension together with one of its upstreams
    waves = plan.waves()
    level = {d: i for i, wave in enumerate(waves) for d in wave}
    for dim in plan.dimensions:
        assert all(level[up] < level[dim.id] for up in dim.depends_on)


def test_request_terms_drive_queries_and_objects() -> None:
    plan = offline_plan("Compare asyncio and threading for I/O-bound Python programs", "en")
    assert plan.scope.objects == ["asyncio", "threading"]
    names = [d.name for d in plan.dimensions]
    assert any(n.startswith("asyncio") for n in names) and any(n.startswith("threading") for n in names)
    # one profile per candidate, each consuming the criteria dimension
    d1 = plan.dimensions[0].id
    profiles = [d for d in plan.dimensions if d.name.split(":")[0] in {"asyncio", "threading"}]
    assert all(p.depends_on == [d1] and p.dependency_inputs[0].needed_for == "entity_selection" for p in profiles)
    queries = [q for d in plan.dimensions for q in d.search_strategy.seed_queries]
    assert all(3 <= len(d.search_strategy.seed_queries) <= 6 for d in plan.dimensions)
    assert sum("asyncio" in q for q in queries) >= 4
    assert plan.scope.audience_or_use == "I/O-bound Python programs"


def test_unknown_scope_is_explicit_and_freshness_follows_topic() -> None:
    tech = offline_plan("How does the Python import system work?", "en")
    assert set(tech.scope.unknowns) == {"time range", "region", "audience or use"}
    assert tech.scope.time_range.startswith("Unknown")
    market = offline_plan("Please write a detailed report about the electric vehicle market in China", "en")
    assert market.scope.region == "China"
    assert "region" not in market.scope.unknowns
    assert all(d.search_strategy.freshness_requirement.startswith("Required") for d in market.dimensions)
    definitions = tech.dimensions[0]
    assert definitions.search_strategy.freshness_requirement.startswith("Not required")
    zh = offline_plan("近5年中国新能源汽车市场调研", "zh")
    assert zh.scope.time_range == "近5年" and zh.scope.region == "中国"
    assert all(d.search_strategy.freshness_requirement.startswith("必须") for d in zh.dimensions)


def test_user_structure_is_kept_as_sections() -> None:
    plan = offline_plan("Report on Python descriptors\nSections:\n- Background\n- Mechanism\n- Examples", "en")
    assert plan.report_shape.sections == ["Background", "Mechanism", "Examples"]
    assert plan.report_shape.format_basis[0].name == "User-specified structure"
    assert validate_plan(plan.to_json()).ok


def _model_plan(request: str, **changes: Any) -> dict[str, Any]:
    data = offline_plan(request, "en").to_json()
    data["research_goal"] = "Model-written goal for the generator report."
    data.update(changes)
    return data


def test_model_path_sends_request_as_data_and_normalises() -> None:
    request = "Write a report on Python generators"
    reply = _model_plan(request, execution_order=["d4", "d3", "d2", "d1"])
    for dim in reply["dimensions"]:
        dim["status"] = "done"
    model = ScriptedModel([json.dumps(reply)])
    plan = create_plan(request, Runtime(model))
    assert plan.research_goal == "Model-written goal for the generator report."
    assert all(d.status == "pending" for d in plan.dimensions)
    assert validate_plan(plan.to_json()).ok  # the order was repaired, upstreams first
    assert len(model.requests) == 1
    sent = model.requests[0]
    assert sent.task == "plan.create"
    user = next(m["content"] for m in sent.messages if m["role"] == "user")
    assert "<<DATA" in user and request in user
    assert "Catalogue entry 'technical'" in user


def test_model_plan_failing_rules_gets_one_repair_then_fails() -> None:
    request = "Write a report on Python generators"
    bad = _model_plan(request)
    bad["dimensions"][0]["key_questions"] = ["Only one?"]
    good = _model_plan(request)
    model = ScriptedModel([json.dumps(bad), json.dumps(good)])
    assert validate_plan(create_plan(request, Runtime(model)).to_json()).ok
    assert len(model.requests) == 2
    repair = next(m["content"] for m in model.requests[1].messages if m["role"] == "user")
    assert "P004" in repair

    model = ScriptedModel([json.dumps(bad), json.dumps(bad)])
    with pytest.raises(ModelOutputInvalid, match="P004"):
        create_plan(request, Runtime(model))


def test_cli_plan_create_writes_request_and_plan(tmp_path: Path, cli: Any) -> None:
    out = tmp_path / "rep"
    request_file = tmp_path / "req.md"
    request_file.write_text("Python 生成器的工作原理\n", encoding="utf-8")
    result = cli("plan", "create", str(request_file), "--report-dir", str(out))
    assert result.exit_code == 0, result.output
    assert (out / "request.md").read_text(encoding="utf-8").strip() == "Python 生成器的工作原理"
    plan = json.loads((out / "plan.json").read_text(encoding="utf-8"))
    assert plan["language"] == "zh" and validate_plan(plan).ok
    again = cli("plan", "create", str(request_file), "--report-dir", str(out))
    assert again.exit_code == 2  # refuses to overwrite without --force
    assert cli("plan", "create", "   ", "--report-dir", str(tmp_path / "x")).exit_code == 2


def test_catalogue_and_archetypes_are_complete_in_both_languages() -> None:
    from autodidact.plan.archetypes import ARCHETYPES
    from autodidact.plan.catalogue import CATALOGUE

    assert set(CATALOGUE) == {"panorama", "comparison", "investigation", "timeline", "industry", "policy", "technical"}
    for entry in CATALOGUE.values():
        for field in (entry.label, entry.style):
            assert field["en"].strip() and CJK.search(field["zh"])
        for lists in (entry.sections, entry.mandatory_elements, entry.keywords):
            assert lists["en"] and lists["zh"]
        assert entry.basis and all(b.name["zh"] and b.what_extracted["en"] for b in entry.basis)
        assert all(a in ARCHETYPES for a in entry.archetypes)
    for arch in ARCHETYPES.values():
        kqs = arch.key_questions
        assert 2 <= len(kqs["en"]) <= 5 and len(kqs["zh"]) == len(kqs["en"])
        assert 3 <= len(arch.seed_queries["en"]) <= 6 and 3 <= len(arch.seed_queries["zh"]) <= 6
        for up in arch.upstream:
            assert up.archetype in ARCHETYPES and len(up.scope_rule["zh"]) >= 16 and len(up.scope_rule["en"]) >= 16
