"""Cross-file rules: the upstream contract (V007–V009) and the snapshot checks (V035–V037).

Why separate: these rules look beyond the file itself — at ``plan.json``, at the upstream
dimensions' evidence and at the bytes in ``source_cache`` — and they are what makes "every claim
quotes bytes that were really read" checkable by anyone holding the report folder.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TypedDict, cast

from autodidact.errors import AutodidactError
from autodidact.evidence.models import CLAIM_ID_RE, DIMENSION_RE, NEEDED_FOR, SNAPSHOT_REF_RE
from autodidact.evidence.rules_items import Issues, is_text, show
from autodidact.jsontypes import JSONObject, JSONValue
from autodidact.sources.snapshots import CACHE_DIRNAME, SnapshotStore, quote_in_text

_DIM = re.compile(DIMENSION_RE)
_CLAIM_ID = re.compile(CLAIM_ID_RE)
_REF = re.compile(SNAPSHOT_REF_RE)


class Consumption(TypedDict):
    """An ``upstream_usage`` entry that passed V007: the fields the V008 checks read are known to hold."""

    dimension_id: str
    needed_for: str
    consumed_claim_ids: list[str]


def check_upstream_shape(usage: JSONValue, dimension_id: str | None, version: str, issues: Issues) -> list[Consumption]:
    """V007: ``upstream_usage`` is required in 1.2 and every entry has the consumption shape."""
    if usage is None and version != "1.2":
        return []
    if not isinstance(usage, list):
        issues.add("V007", "upstream_usage must be an array ([] without dependencies)", "upstream_usage")
        return []
    good: list[Consumption] = []
    seen: set[str] = set()
    for i, entry in enumerate(usage):
        where = f"upstream_usage[{i}]"
        if not isinstance(entry, dict):
            issues.add("V007", f"{where} is not an object", where)
            continue
        dim = entry.get("dimension_id")
        ok = True
        if not isinstance(dim, str) or not _DIM.match(dim):
            issues.add("V007", f"{where}.dimension_id {show(dim)} does not match {DIMENSION_RE}", where)
            ok = False
        elif dim == dimension_id:
            issues.add("V007", f"{where}.dimension_id {dim!r} is this dimension itself", where)
            ok = False
        elif dim in seen:
            issues.add("V007", f"{where}: more than one entry for upstream {dim}", where)
            ok = False
        else:
            seen.add(dim)
        if entry.get("needed_for") not in NEEDED_FOR:
            issues.add("V007", f"{where}.needed_for {show(entry.get('needed_for'))} is not one of {NEEDED_FOR}", where)
            ok = False
        ids = entry.get("consumed_claim_ids")
        if not isinstance(ids, list) or not ids:
            issues.add("V007", f"{where}.consumed_claim_ids must be a non-empty array", where)
            ok = False
        else:
            for cid in ids:
                if not isinstance(cid, str) or not _CLAIM_ID.match(cid):
                    issues.add("V007", f"{where}.consumed_claim_ids has {show(cid)}, not a claim id", where)
                    ok = False
                elif isinstance(dim, str) and not cid.startswith(f"{dim}."):
                    issues.add("V007", f"{where}.consumed_claim_ids has {cid!r}, not a claim of {dim}", where)
                    ok = False
        for key in ("scope_changes", "skipped_searches"):
            value = entry.get(key)
            if not isinstance(value, list) or not value or not all(is_text(v) for v in value):
                issues.add("V007", f"{where}.{key} must be a non-empty array of non-blank strings", where)
                ok = False
        if ok:  # dimension_id is a string and consumed_claim_ids a list of claim ids: checked above
            good.append(cast(Consumption, entry))
    return good


def _plan_dimension(plan: JSONValue, dimension_id: str | None) -> JSONObject | None:
    dims = plan.get("dimensions") if isinstance(plan, dict) else None
    if not isinstance(dims, list):
        return None
    for dim in dims:
        if isinstance(dim, dict) and dim.get("id") == dimension_id:
            return dim
    return None


def check_contract(
    usage: list[Consumption],
    raw_usage: JSONValue,
    dimension_id: str | None,
    mode: str,
    plan: JSONObject | None,
    upstream: JSONObject | None,
    issues: Issues,
) -> None:
    """V008: quick has no usage; usage equals the plan's dependency_inputs; consumed claims are real."""
    if mode == "quick" and isinstance(raw_usage, list) and raw_usage:
        issues.add("V008", "quick mode must have an empty upstream_usage", "upstream_usage")
    given = upstream is not None  # --upstream-evidence was passed (possibly not for every upstream)
    upstream = upstream or {}
    if plan is not None:
        dim = _plan_dimension(plan, dimension_id)
        if dim is None:
            issues.add("V008", f"dimension {dimension_id!r} is not in the plan's dimensions", "dimension_id")
        else:
            inputs = dim.get("dependency_inputs")
            if not isinstance(inputs, list):
                # A plan dimension states its inputs, even none ([]); a missing field is not "none".
                issues.add("V008", f"plan dimension {dimension_id} has no dependency_inputs list", "dimension_id")
                inputs = []
            expected = {
                (d.get("dimension_id"), d.get("needed_for"))
                for d in inputs
                if isinstance(d, dict)
                and isinstance(d.get("dimension_id"), str)
                and isinstance(d.get("needed_for"), str)
            }
            actual = {(u["dimension_id"], u["needed_for"]) for u in usage}
            if isinstance(raw_usage, list) and len(raw_usage) == len(usage) and actual != expected:
                missing = sorted(expected - actual)
                extra = sorted(actual - expected)
                issues.add(
                    "V008",
                    f"upstream_usage does not match the plan's dependency_inputs (missing {missing}, extra {extra})",
                    "upstream_usage",
                )
            for dep_id, _ in sorted(expected):
                if dep_id not in upstream:
                    issues.add(
                        "V008",
                        f"dimension {dimension_id} depends on {dep_id}: pass its evidence with --upstream-evidence",
                        "upstream_usage",
                    )
    for entry in usage:
        up = upstream.get(entry["dimension_id"])
        if up is None:
            if given and plan is None and entry["consumed_claim_ids"]:
                issues.add(
                    "V008",
                    f"claims consumed from {entry['dimension_id']} cannot be checked: "
                    "pass its evidence with --upstream-evidence",
                    "upstream_usage",
                )
            continue
        claims = up.get("claims") if isinstance(up, dict) else None
        findings = up.get("key_findings") if isinstance(up, dict) else None
        have = {c.get("id") for c in claims if isinstance(c, dict)} if isinstance(claims, list) else set()
        cited: set[str] = set()
        for kf in findings if isinstance(findings, list) else []:
            ids = kf.get("claim_ids") if isinstance(kf, dict) else None
            if isinstance(ids, list):
                cited.update(i for i in ids if isinstance(i, str))
        for cid in entry["consumed_claim_ids"]:
            if cid not in have:
                issues.add("V008", f"consumed claim {cid} does not exist in upstream {entry['dimension_id']}", "")
            elif cid not in cited:
                issues.add("V008", f"consumed claim {cid} is not cited by any key finding of upstream", "")


def check_mode(mode: str, expected_mode: str | None, plan: JSONObject | None, issues: Issues) -> None:
    """V009: the mode the controller dispatched, and no planned evidence in quick mode."""
    if expected_mode is not None and mode != expected_mode:
        issues.add("V009", f"mode is {mode!r} but {expected_mode!r} was expected", "mode")
    if plan is not None and mode == "quick":
        issues.add("V009", "quick evidence is never checked against a plan (--plan given with mode quick)", "mode")


def resolve_cache_dir(path: Path) -> Path:
    """Accept either the ``source_cache`` folder itself or the report/KB folder that holds it."""
    path = Path(path)
    if path.name != CACHE_DIRNAME and (path / CACHE_DIRNAME).is_dir():
        return path / CACHE_DIRNAME
    return path


def check_snapshots(
    claims: list[JSONValue],
    sources: dict[str, JSONObject],
    source_cache: Path | None,
    version: str,
    issues: Issues,
) -> set[str]:
    """V035–V037: every ref verifies for its source's URL; direct/numeric snippets occur in it."""
    refs: set[str] = set()
    for claim in claims:
        evidence = claim.get("evidence") if isinstance(claim, dict) else None
        for item in evidence if isinstance(evidence, list) else []:
            ref = item.get("snapshot_ref") if isinstance(item, dict) else None
            if isinstance(ref, str) and _REF.match(ref):
                refs.add(ref)
    if source_cache is None:
        if version == "1.2":
            issues.add("V037", "schema 1.2 must be checked with --source-cache (only 1.1 may skip it)", "")
        return refs
    store = SnapshotStore(resolve_cache_dir(source_cache))
    texts: dict[tuple[str, str | None], str | None] = {}
    for i, claim in enumerate(claims):
        evidence = claim.get("evidence") if isinstance(claim, dict) else None
        for j, item in enumerate(evidence if isinstance(evidence, list) else []):
            if not isinstance(item, dict):
                continue
            ref = item.get("snapshot_ref")
            if not isinstance(ref, str) or not _REF.match(ref):
                continue  # V034 already reported it
            where = f"claims[{i}].evidence[{j}]"
            source_id = item.get("source_id")
            src = sources.get(source_id) if isinstance(source_id, str) else None
            given_url = src.get("url") if src is not None else None
            url = given_url if is_text(given_url) else None
            key = (ref, url)
            if key not in texts:
                try:
                    texts[key] = store.read(ref, url)
                except AutodidactError as exc:
                    texts[key] = None
                    issues.add("V035", f"{where}.snapshot_ref: {exc.message}", f"{where}.snapshot_ref")
                except OSError as exc:
                    texts[key] = None
                    issues.add("V035", f"{where}.snapshot_ref cannot be read: {exc}", f"{where}.snapshot_ref")
            text = texts[key]
            snippet = item.get("snippet")
            if text is None or item.get("quote_type") not in ("direct", "numeric") or not isinstance(snippet, str):
                continue
            if not quote_in_text(snippet, text):
                issues.add(
                    "V036",
                    f"{where}.snippet is not found in its snapshot: {show(snippet, 80)}",
                    f"{where}.snippet",
                )
    return refs
