"""The evidence.json validator (docs/contracts.md §3.3): one rule code per check, never a crash.

Why this is the gate: the research agent runs exactly this function before it writes, the report
pipeline runs it before it cites, and a person runs it from the CLI. An invalid evidence file is
never written. Rule codes are compatible with the original seed validator; V000 is ours (the top
level is not a JSON object, or the file cannot be read).

Order: version, dimension, headline and mode first; an empty ``claims`` (V004) or ``sources``
(V005) stops there, as in the original. Then items, key findings, writing context, the upstream
contract, and — with a source cache — the bytes behind every quote.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from autodidact.errors import InputError, NotFoundError
from autodidact.evidence.models import DIMENSION_RE, MODES, READABLE_VERSIONS
from autodidact.evidence.rules_contract import (
    check_contract,
    check_mode,
    check_snapshots,
    check_upstream_shape,
)
from autodidact.evidence.rules_items import (
    Issues,
    RuleError,
    check_claims,
    check_key_findings,
    check_sources,
    check_writing_context,
    show,
    text_len_ok,
)
from autodidact.jsontypes import JSONObject, JSONValue

_DIM = re.compile(DIMENSION_RE)

RULES: dict[str, str] = {
    "V000": "file unreadable, not JSON (exit 2) or top level not an object",
    "V001": "schema_version is 1.2 (or 1.1; --require-version pins it)",
    "V002": "dimension_id matches ^d\\d+$",
    "V003": "headline is 5-200 characters",
    "V004": "claims is a non-empty array (stops validation)",
    "V005": "sources is a non-empty array (stops validation)",
    "V006": "key_findings count: 2-6 (initial/supplement), 1-3 (quick)",
    "V007": "upstream_usage shape",
    "V008": "upstream contract: plan dependency_inputs, real cited upstream claims, none in quick",
    "V009": "expected mode; no --plan with quick",
    "V010": "source is an object",
    "V011": "source id pattern",
    "V012": "source id unique",
    "V013": "source url present",
    "V014": "source url is http(s) with a host",
    "V015": "source title present",
    "V016": "source quality enum",
    "V017": "source published_at YYYY[-MM[-DD]]",
    "V018": "mode enum",
    "V020": "claim is an object",
    "V021": "claim id pattern",
    "V022": "claim id unique",
    "V023": "claim id prefixed by the dimension",
    "V024": "claim text 5-500 characters",
    "V025": "claim kind enum",
    "V026": "claim polarity enum",
    "V027": "claim topic_tag pattern",
    "V028": "answers_key_question null or kqN",
    "V029": "claim has evidence",
    "V030": "evidence is an object",
    "V031": "evidence source_id in sources",
    "V032": "evidence snippet non-blank",
    "V033": "evidence quote_type enum",
    "V034": "evidence snapshot_ref present (1.2) and well formed",
    "V035": "snapshot verifies and belongs to the source URL",
    "V036": "direct/numeric snippet found in its snapshot",
    "V037": "1.2 checked with a source cache",
    "V040": "factual claim has a primary/secondary source (not in quick)",
    "V041": "interpretive claim has 2 distinct sources (1 in quick)",
    "V050": "key finding is an object",
    "V051": "finding is 10-300 characters",
    "V052": "finding claim_ids non-empty",
    "V053": "finding claim_ids exist in this file",
    "V060": "writing_context is an array of objects",
    "V061": "writing_context id pattern, dimension, unique",
    "V062": "writing_context kind enum",
    "V063": "writing_context text 10-500 characters",
    "V064": "writing_context use 10-300 characters",
    "V065": "writing_context source_ids de-duplicated and in sources",
    "V066": "writing_context applies_to de-duplicated kqN",
}


class ValidationOutput(TypedDict, total=False):
    """What ``autodidact evidence validate`` prints (docs/contracts.md §3.3): errors only when not ok."""

    ok: bool
    errors: list[RuleError]
    stats: JSONObject


@dataclass
class ValidationReport:
    """The verdict: ``ok``, the errors (rule, severity, message, path) and the stats."""

    ok: bool
    errors: list[RuleError] = field(default_factory=list)
    stats: JSONObject = field(default_factory=dict)

    def to_json(self) -> ValidationOutput:
        """docs/contracts.md §3.3 output."""
        if self.ok:
            return {"ok": True, "stats": self.stats}
        return {"ok": False, "errors": self.errors, "stats": self.stats}

    def rules(self) -> set[str]:
        """Every rule code that failed."""
        return {e["rule"] for e in self.errors}

    def summary(self, limit: int = 5) -> str:
        """One line listing the first errors, for exceptions and logs."""
        shown = "; ".join(f"{e['rule']} {e['message']}" for e in self.errors[:limit])
        more = len(self.errors) - limit
        return shown + (f"; and {more} more" if more > 0 else "")


def read_json_file(path: Path, what: str = "evidence file") -> JSONValue:
    """Read JSON or raise an exit-2 error naming the file."""
    path = Path(path)
    if path.is_dir():
        raise InputError(f"{what} {path} is a folder, not a file", hint="pass the .json file itself")
    if not path.is_file():
        raise NotFoundError(f"{what} {path} does not exist")
    try:
        data: JSONValue = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{what} {path}: cannot read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{what} {path}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise InputError(f"{what} {path}: JSON nested too deeply to read") from None
    return data


def validate_evidence(
    data_or_path: JSONValue | Path,
    *,
    source_cache: Path | None = None,
    plan: JSONObject | None = None,
    expected_mode: str | None = None,
    require_version: str | None = None,
    upstream: JSONObject | None = None,
) -> ValidationReport:
    """Check evidence (a dict, or a path to read) against every rule of docs/contracts.md §3.3.

    ``upstream`` maps an upstream dimension id to that dimension's evidence dict. Reading a path
    may raise :class:`InputError`/:class:`NotFoundError` (exit 2); the checks themselves never raise.
    """
    data = read_json_file(Path(data_or_path)) if isinstance(data_or_path, str | Path) else data_or_path
    issues = Issues()
    if not isinstance(data, dict):
        issues.add("V000", f"the top level must be a JSON object, got {type(data).__name__}")
        return ValidationReport(False, issues.items, {})
    version = data.get("schema_version")
    if version not in READABLE_VERSIONS:
        issues.add("V001", f"schema_version {show(version)} is not one of {READABLE_VERSIONS}", "schema_version")
    elif require_version is not None and version != require_version:
        issues.add("V001", f"schema_version is {version!r} but {require_version!r} is required", "schema_version")
    version_s = version if isinstance(version, str) else "1.2"
    dim = data.get("dimension_id")
    dimension_id = dim if isinstance(dim, str) and _DIM.match(dim) else None
    if dimension_id is None:
        issues.add("V002", f"dimension_id {show(dim)} does not match {DIMENSION_RE}", "dimension_id")
    if not text_len_ok(data.get("headline"), 5, 200):
        issues.add("V003", "headline must be a string of 5-200 characters", "headline")
    raw_mode = data.get("mode", "initial")
    if raw_mode not in MODES:
        issues.add("V018", f"mode {show(raw_mode)} is not one of {MODES}", "mode")
    mode = raw_mode if raw_mode in MODES else "initial"
    claims, sources = data.get("claims"), data.get("sources")
    if not isinstance(claims, list) or not claims:
        issues.add("V004", "claims must be a non-empty array", "claims")
    if not isinstance(sources, list) or not sources:
        issues.add("V005", "sources must be a non-empty array", "sources")
    if not isinstance(claims, list) or not claims or not isinstance(sources, list) or not sources:
        return ValidationReport(False, issues.items, {})

    findings = data.get("key_findings")
    lo, hi = (1, 3) if mode == "quick" else (2, 6)
    if not isinstance(findings, list) or not lo <= len(findings) <= hi:
        count = len(findings) if isinstance(findings, list) else show(findings)
        issues.add("V006", f"key_findings must hold {lo}-{hi} entries in {mode} mode, got {count}", "key_findings")
    usage = check_upstream_shape(data.get("upstream_usage"), dimension_id, version_s, issues)
    check_contract(usage, data.get("upstream_usage"), dimension_id, mode, plan, upstream, issues)
    check_mode(mode, expected_mode, plan, issues)
    by_source = check_sources(sources, issues)
    by_claim = check_claims(claims, dimension_id, by_source, mode, version_s, issues)
    if isinstance(findings, list):
        check_key_findings(findings, set(by_claim), issues)
    if "writing_context" in data and data["writing_context"] is not None:
        check_writing_context(data["writing_context"], dimension_id, set(by_source), issues)
    refs = check_snapshots(claims, by_source, source_cache, version_s, issues)
    stats = _stats(data, claims, sources, findings, refs, mode)
    return ValidationReport(not issues.items, issues.items, stats)


def _stats(
    data: JSONObject, claims: list[JSONValue], sources: list[JSONValue], findings: JSONValue, refs: set[str], mode: str
) -> JSONObject:
    objs = [c for c in claims if isinstance(c, dict)]
    kqs = sorted(
        {kq for c in objs if isinstance(kq := c.get("answers_key_question"), str)},
        key=lambda k: (len(k), k),
    )
    quotes = Counter(
        str(e.get("quote_type"))
        for c in objs
        if isinstance(items := c.get("evidence"), list)
        for e in items
        if isinstance(e, dict)
    )
    wc = data.get("writing_context")
    usage = data.get("upstream_usage")
    return {
        "schema_version": data.get("schema_version"),
        "dimension_id": data.get("dimension_id"),
        "mode": mode,
        "claims": len(claims),
        "sources": len(sources),
        "key_findings": len(findings) if isinstance(findings, list) else 0,
        "snapshot_refs": len(refs),
        "key_questions_answered": list(kqs),
        "extra_findings": sum(1 for c in objs if c.get("answers_key_question") is None),
        "kind_distribution": dict(sorted(Counter(str(c.get("kind")) for c in objs).items())),
        "polarity_distribution": dict(sorted(Counter(str(c.get("polarity")) for c in objs).items())),
        "quote_type_distribution": dict(sorted(quotes.items())),
        "quality_distribution": dict(
            sorted(Counter(str(s.get("quality")) for s in sources if isinstance(s, dict)).items())
        ),
        "writing_context": len(wc) if isinstance(wc, list) else 0,
        "upstream_usage": len(usage) if isinstance(usage, list) else 0,
    }


def load_upstream(paths: list[Path]) -> JSONObject:
    """Read upstream evidence files into ``{dimension_id: evidence}`` (exit-2 errors if unreadable)."""
    out: JSONObject = {}
    for path in paths:
        data = read_json_file(Path(path), "upstream evidence")
        dim = data.get("dimension_id") if isinstance(data, dict) else None
        if not isinstance(dim, str):
            raise InputError(f"upstream evidence {path} has no dimension_id", hint="pass evidence.json files")
        out[dim] = data
    return out
