"""``validate_plan``: every docs/contracts.md §2 check on plan.json, each with its own rule code.

Why on plain dicts: a plan may be hand-edited or written by another tool; a pydantic parse would
stop at the first bad field with a message no script can act on. Here each check appends an
error with a stable code, so ``autodidact plan validate`` reports everything wrong at once.

Rule table (documented in README "## Reports"):

======  ==============================================================================
P000    (CLI only) the file is unreadable or not JSON: exit 2
P001    plan is not a JSON object, or a required top-level field is missing / has the wrong type
P002    3-8 dimensions
P003    dimension id not ``d<N>`` or not unique
P004    2-5 key questions per dimension
P005    duplicate key question within a dimension
P006    3-6 seed queries per dimension
P007    research_goal blank
P008    scope field blank (objects, time_range, region, audience_or_use, exclusions, assumptions)
P009    report_shape.sections empty or blank
P010    report_shape.mandatory_elements empty or blank
P011    report_shape.style blank
P012    completion_criteria empty or blank
P013    set(depends_on) differs from the ids in dependency_inputs
P014    dimension depends on itself
P015    dependency on a dimension that does not exist
P016    dependency cycle (the cycle's path is in ``cycle``)
P017    execution_order does not list every dimension id exactly once
P018    execution_order puts a dimension before one of its upstreams
P019    scope_rule filler or shorter than 16 characters
P020    an ``owns`` topic owned by two dimensions
P021    dimension field blank or invalid (name, description, method, expected_output, focus,
        depth, status, search_strategy.source_types / freshness_requirement / sufficiency,
        scope_ownership.owns >= 1)
P022    dependency_inputs entry invalid (needed_for enum, consume = key_findings, one per upstream)
P023    report_shape.format_basis empty or an entry incomplete
======  ==============================================================================
"""

from __future__ import annotations

import json
import re
from collections.abc import Sized
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict, Unpack, cast

from autodidact.errors import InputError
from autodidact.evidence.rules_items import RuleDetails, RuleError
from autodidact.jsontypes import JSONObject
from autodidact.plan.models import DEPTH_VALUES, NEEDED_FOR_VALUES, STATUS_VALUES

RULES: dict[str, str] = {
    "P001": "plan is a JSON object with every required top-level field",
    "P002": "3-8 dimensions",
    "P003": "dimension ids d1... unique",
    "P004": "2-5 key questions per dimension",
    "P005": "key questions unique within a dimension",
    "P006": "3-6 seed queries per dimension",
    "P007": "research_goal non-blank",
    "P008": "scope fields non-blank",
    "P009": "report_shape.sections non-blank",
    "P010": "report_shape.mandatory_elements non-blank",
    "P011": "report_shape.style non-blank",
    "P012": "completion_criteria non-blank",
    "P013": "set(depends_on) equals the dependency_inputs ids",
    "P014": "no self dependency",
    "P015": "no dependency on a missing dimension",
    "P016": "no dependency cycle",
    "P017": "execution_order covers every id once",
    "P018": "execution_order puts upstreams first",
    "P019": "scope_rule specific (>= 16 characters, not filler)",
    "P020": "no owns topic owned twice",
    "P021": "dimension fields non-blank and valid",
    "P022": "dependency_inputs entries valid",
    "P023": "report_shape.format_basis has at least one complete entry",
}

DIM_ID = re.compile(r"^d[1-9]\d*$")  # d1, d2, … (ids start at d1)
MIN_SCOPE_RULE = 16
# Phrases that say nothing about *how* upstream findings change the search.
FILLER_RULES = (
    "参考上游结果",
    "参考上游",
    "参考上游维度",
    "使用上游结果",
    "根据上游结果",
    "依据上游结果调整",
    "see upstream",
    "use upstream results",
    "refer to upstream",
    "based on upstream findings",
    "use upstream findings",
    "consume upstream key findings",
    "tbd",
    "n/a",
)


class PlanOutput(TypedDict):
    """What ``autodidact plan validate`` prints."""

    ok: bool
    errors: list[RuleError]
    stats: JSONObject


@dataclass
class PlanReport:
    """Validation outcome: ``ok``, the error list (each with ``rule``) and counts."""

    ok: bool
    errors: list[RuleError] = field(default_factory=list)
    stats: JSONObject = field(default_factory=dict)

    def as_dict(self) -> PlanOutput:
        """The JSON printed by ``autodidact plan validate``."""
        return {"ok": self.ok, "errors": self.errors, "stats": self.stats}

    @property
    def rules(self) -> set[str]:
        """The rule codes that failed."""
        return {e["rule"] for e in self.errors}


def load_plan_json(path: Path) -> JSONObject:
    """Read plan.json; unreadable or bad JSON is an :class:`InputError` (exit 2)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read plan ({exc})", hint="pass the path of a plan.json") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: invalid JSON at line {exc.lineno}: {exc.msg}", hint="fix the JSON") from None
    except RecursionError:
        raise InputError(f"{path}: JSON nested too deeply to be a plan", hint="fix the JSON") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: plan.json must be a JSON object", hint="the top level is {...}")
    return data


def _blank(value: object) -> bool:
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, list):
        return not value or any(not isinstance(v, str) or not v.strip() for v in value)
    return True


def is_filler_rule(rule: str) -> bool:
    """True when a scope_rule is too short or only a generic "use the upstream" phrase."""
    text = " ".join(str(rule).split())
    if len(re.sub(r"\s", "", text)) < MIN_SCOPE_RULE:  # characters, not padding
        return True
    stripped = re.sub(r"[\s。.,，;；:：!！]+$", "", text).lower()
    return stripped in FILLER_RULES


class _Checker:
    def __init__(self, plan: JSONObject) -> None:
        self.plan = plan
        self.errors: list[RuleError] = []

    def add(self, rule: str, message: str, **details: Unpack[RuleDetails]) -> None:
        self.errors.append({"rule": rule, "severity": "error", "message": message, **details})

    def top_level(self) -> bool:
        expected: dict[str, type] = {
            "research_goal": str,
            "scope": dict,
            "report_shape": dict,
            "completion_criteria": list,
            "dimensions": list,
            "execution_order": list,
        }
        ok = True
        for key, kind in expected.items():
            if not isinstance(self.plan.get(key), kind):
                self.add("P001", f"{key}: missing or not a {kind.__name__}", path=key)
                ok = ok and key not in {"dimensions"}
        return ok

    def header(self) -> None:
        p = self.plan
        if isinstance(goal := p.get("research_goal"), str) and not goal.strip():
            self.add("P007", "research_goal is blank", path="research_goal")
        scope = p.get("scope")
        if isinstance(scope, dict):
            for key in ("objects", "time_range", "region", "audience_or_use", "exclusions", "assumptions"):
                if _blank(scope.get(key)):
                    self.add("P008", f"scope.{key} is missing or blank", path=f"scope.{key}")
        shape = p.get("report_shape")
        if isinstance(shape, dict):
            for key, rule in (("sections", "P009"), ("mandatory_elements", "P010"), ("style", "P011")):
                if _blank(shape.get(key)):
                    self.add(rule, f"report_shape.{key} is missing or blank", path=f"report_shape.{key}")
            basis = shape.get("format_basis")
            for i, entry in enumerate(basis if isinstance(basis, list) else []):
                fields = ("type", "name", "credibility_reason", "what_extracted")
                if not isinstance(entry, dict) or any(_blank(entry.get(f)) for f in fields):
                    self.add("P023", f"report_shape.format_basis[{i}] lacks a field", path=f"format_basis[{i}]")
            if not isinstance(basis, list) or not basis:
                self.add("P023", "report_shape.format_basis is empty", path="report_shape.format_basis")
        if isinstance(p.get("completion_criteria"), list) and _blank(p["completion_criteria"]):
            self.add("P012", "completion_criteria is empty or has a blank entry", path="completion_criteria")

    def dimensions(self) -> tuple[list[JSONObject], dict[str, list[str]]]:
        listed = self.plan.get("dimensions", [])
        raw = listed if isinstance(listed, list) else []  # top_level() found a list before this runs
        dims = [d for d in raw if isinstance(d, dict)]
        if len(dims) != len(raw):
            self.add("P001", "every dimension must be an object", path="dimensions")
        if not 3 <= len(raw) <= 8:
            self.add("P002", f"{len(raw)} dimensions; a plan has 3-8", count=len(raw))
        seen: set[str] = set()
        graph: dict[str, list[str]] = {}
        owners: dict[str, str] = {}
        for i, dim in enumerate(dims):
            did = dim.get("id")
            where = did if isinstance(did, str) else f"dimensions[{i}]"
            if not isinstance(did, str) or not DIM_ID.match(did):
                self.add("P003", f"{where}: id {did!r} is not d<N>", dimension_id=where)
            elif did in seen:
                self.add("P003", f"{did}: duplicate dimension id", dimension_id=did)
            else:
                seen.add(did)
            self._dimension_fields(dim, where)
            self._questions(dim, where)
            deps = self._dependencies(dim, where)
            if isinstance(did, str):
                graph.setdefault(did, deps)
            ownership = dim.get("scope_ownership")
            owns = ownership.get("owns") if isinstance(ownership, dict) else None
            for topic in owns if isinstance(owns, list) else []:
                key = " ".join(str(topic).split()).lower()
                if key in owners and owners[key] != where:
                    self.add(
                        "P020",
                        f"{where}: owns {topic!r}, already owned by {owners[key]}",
                        dimension_id=where,
                        owned_by=owners[key],
                    )
                else:
                    owners.setdefault(key, where)
        return dims, graph

    def _dimension_fields(self, dim: JSONObject, where: str) -> None:
        for key in ("name", "description", "method", "expected_output", "focus"):
            if _blank(dim.get(key)):
                self.add("P021", f"{where}: {key} is missing or blank", dimension_id=where, path=key)
        if dim.get("depth", "moderate") not in DEPTH_VALUES:
            self.add("P021", f"{where}: depth {dim.get('depth')!r} not in {DEPTH_VALUES}", dimension_id=where)
        if dim.get("status", "pending") not in STATUS_VALUES:
            self.add("P021", f"{where}: status {dim.get('status')!r} not in {STATUS_VALUES}", dimension_id=where)
        strategy = dim.get("search_strategy")
        if not isinstance(strategy, dict):
            self.add("P021", f"{where}: search_strategy missing", dimension_id=where, path="search_strategy")
            strategy = {}
        for key in ("source_types", "freshness_requirement", "sufficiency"):
            if _blank(strategy.get(key)):
                self.add("P021", f"{where}: search_strategy.{key} is blank", dimension_id=where, path=key)
        ownership = dim.get("scope_ownership")
        if not isinstance(ownership, dict) or _blank(ownership.get("owns")):
            self.add("P021", f"{where}: scope_ownership.owns needs >= 1 topic", dimension_id=where, path="owns")

    def _questions(self, dim: JSONObject, where: str) -> None:
        kqs = dim.get("key_questions")
        kqs = kqs if isinstance(kqs, list) else []
        if not 2 <= len(kqs) <= 5:
            self.add("P004", f"{where}: {len(kqs)} key questions; need 2-5", dimension_id=where, count=len(kqs))
        norm = [" ".join(str(q).split()).lower() for q in kqs]
        dupes = sorted({q for q in norm if norm.count(q) > 1})
        if dupes:
            self.add("P005", f"{where}: duplicate key question {dupes[0]!r}", dimension_id=where)
        if any(not q for q in norm):
            self.add("P004", f"{where}: blank key question", dimension_id=where)
        strategy = dim.get("search_strategy")
        queries = strategy.get("seed_queries") if isinstance(strategy, dict) else None
        queries = queries if isinstance(queries, list) else []
        if not 3 <= len(queries) <= 6 or _blank(queries):
            self.add("P006", f"{where}: {len(queries)} seed queries; need 3-6 non-blank", dimension_id=where)

    def _dependencies(self, dim: JSONObject, where: str) -> list[str]:
        deps_raw = dim.get("depends_on", [])
        deps = [d for d in deps_raw if isinstance(d, str)] if isinstance(deps_raw, list) else []
        inputs = dim.get("dependency_inputs", [])
        inputs = inputs if isinstance(inputs, list) else []
        input_ids: set[str] = set()
        for j, item in enumerate(inputs):
            if not isinstance(item, dict):
                self.add("P022", f"{where}: dependency_inputs[{j}] is not an object", dimension_id=where)
                continue
            if str(item.get("dimension_id")) in input_ids:
                self.add("P022", f"{where}: two dependency_inputs for {item.get('dimension_id')}", dimension_id=where)
            input_ids.add(str(item.get("dimension_id")))
            if item.get("needed_for") not in NEEDED_FOR_VALUES:
                self.add(
                    "P022",
                    f"{where}: dependency_inputs[{j}].needed_for {item.get('needed_for')!r} not in {NEEDED_FOR_VALUES}",
                    dimension_id=where,
                )
            if item.get("consume", "key_findings") != "key_findings":
                self.add("P022", f"{where}: dependency_inputs[{j}].consume must be key_findings", dimension_id=where)
            rule = item.get("scope_rule")
            if not isinstance(rule, str) or is_filler_rule(rule):
                self.add(
                    "P019",
                    f"{where}: dependency_inputs[{j}].scope_rule {rule!r} is filler or under {MIN_SCOPE_RULE} chars",
                    dimension_id=where,
                    hint="say which upstream findings change which part of this search",
                )
        if set(deps) != input_ids:
            self.add(
                "P013",
                f"{where}: depends_on {sorted(set(deps))} differs from dependency_inputs ids {sorted(input_ids)}",
                dimension_id=where,
            )
        if where in deps:
            self.add("P014", f"{where}: depends on itself", dimension_id=where)
        return deps

    def graph_rules(self, graph: dict[str, list[str]]) -> None:
        for did, deps in graph.items():
            for dep in deps:
                if dep != did and dep not in graph:
                    self.add("P015", f"{did}: depends on missing dimension {dep!r}", dimension_id=did, missing=dep)
        cycle = find_cycle(graph)
        if cycle:
            self.add("P016", "dependency cycle: " + " -> ".join(cycle), cycle=cycle)
        listed = self.plan.get("execution_order")
        if not isinstance(listed, list):
            return
        # an item that is no id at all ([[]], 3) is reported as unknown, never hashed
        order = [x for x in listed if isinstance(x, str)]
        ids = list(graph)
        dupes = sorted({x for x in order if order.count(x) > 1}, key=str)
        missing = [x for x in ids if x not in order]
        unknown = [x for x in order if x not in graph] + [repr(x) for x in listed if not isinstance(x, str)]
        if dupes or missing or unknown:
            self.add(
                "P017",
                f"execution_order must list every id once (missing {missing}, duplicated {dupes}, unknown {unknown})",
                missing=missing,
                duplicated=dupes,
                unknown=unknown,
            )
        position = {x: i for i, x in reversed(list(enumerate(order)))}
        for did, deps in graph.items():
            for dep in deps:
                if dep in position and did in position and position[dep] > position[did]:
                    self.add("P018", f"execution_order: {did} comes before its upstream {dep}", dimension_id=did)


def find_cycle(graph: dict[str, list[str]]) -> list[str] | None:
    """A dependency cycle as a path that returns to its start (``[d1, d2, d1]``), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for dep in graph.get(node, []):
            if dep == node or dep not in graph:
                continue  # self and missing dependencies have their own rules
            if state.get(dep) == 1:
                return [*stack[stack.index(dep) :], dep]
            if dep not in state:
                found = visit(dep)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in graph:
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def validate_plan(data: JSONObject | Path | str) -> PlanReport:
    """Check a plan (dict, or a path to plan.json) against every docs/contracts.md §2 rule."""
    plan = load_plan_json(Path(data)) if isinstance(data, (str, Path)) else data
    checker = _Checker(plan if isinstance(plan, dict) else {})
    if not isinstance(plan, dict):
        checker.add("P001", "plan is not a JSON object")
        return PlanReport(ok=False, errors=checker.errors, stats={})
    dims_ok = checker.top_level()
    checker.header()
    dims: list[JSONObject] = []
    graph: dict[str, list[str]] = {}
    if dims_ok:
        dims, graph = checker.dimensions()
        checker.graph_rules(graph)
    if not checker.errors:
        _model_rules(plan, checker)
    stats: JSONObject = {
        "dimensions": len(dims),
        # len of whatever the file holds there, as always (P004 reports a key_questions that is no list)
        "key_questions": sum(len(cast(Sized, d.get("key_questions") or [])) for d in dims),
        "dependencies": sum(len(v) for v in graph.values()),
        "waves": _wave_count(graph) if not any(e["rule"] in {"P015", "P016"} for e in checker.errors) else None,
    }
    return PlanReport(ok=not checker.errors, errors=checker.errors, stats=stats)


def _model_rules(plan: JSONObject, checker: _Checker) -> None:
    """What the pipeline's own :class:`~autodidact.plan.models.Plan` refuses, the validator refuses:
    one definition, so ``plan validate`` never passes a plan the report step then rejects
    (``sources[0].category = {}`` did). Dimension fields are P021, the rest P001."""
    from pydantic import ValidationError

    from autodidact.plan.models import Plan

    try:
        Plan.model_validate(plan)
    except ValidationError as exc:
        for err in exc.errors()[:5]:
            loc = ".".join(str(p) for p in err["loc"])
            rule = "P021" if loc.startswith("dimensions") else "P001"
            checker.add(rule, f"{loc}: {err['msg']}", path=loc)


def _wave_count(graph: dict[str, list[str]]) -> int:
    level: dict[str, int] = {}

    def depth(node: str) -> int:
        if node not in level:
            level[node] = 1 + max((depth(d) for d in graph.get(node, []) if d != node and d in graph), default=0)
        return level[node]

    return max((depth(n) for n in graph), default=0)
