"""Per-item rules of the evidence validator: sources, claims, evidence, key findings, writing context.

Why raw dicts: a hand-edited or model-written file can hold any JSON at any place. Every check
here tests the type first, so a wrong type becomes its rule code (V010, V020, V030, ...) and the
validator never raises. Each function appends to a shared :class:`Issues` list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict, TypeGuard

from autodidact.evidence.models import (
    CLAIM_ID_RE,
    CONTEXT_ID_RE,
    CONTEXT_KINDS,
    DATE_RE,
    KINDS,
    KQ_RE,
    POLARITIES,
    QUALITIES,
    QUOTE_TYPES,
    SNAPSHOT_REF_RE,
    SOURCE_ID_RE,
    TOPIC_TAG_RE,
)
from autodidact.jsontypes import JSONObject, JSONValue
from autodidact.sources.snapshots import shown_url

_CLAIM_ID = re.compile(CLAIM_ID_RE)
_CONTEXT_ID = re.compile(CONTEXT_ID_RE)
_SOURCE_ID = re.compile(SOURCE_ID_RE)
_TOPIC = re.compile(TOPIC_TAG_RE)
_KQ = re.compile(KQ_RE)
_DATE = re.compile(DATE_RE)
_REF = re.compile(SNAPSHOT_REF_RE)


class RuleError(TypedDict):
    """One finding of a validator (docs/contracts.md §3.3): its rule code, a message, and where.

    The evidence validator's V-codes name a ``path`` in the file; the plan validator's P-codes name
    a ``dimension_id`` and, for some rules, what was counted, missing or cyclic."""

    rule: str
    severity: str
    message: str
    path: NotRequired[str]
    dimension_id: NotRequired[str]
    count: NotRequired[int]
    missing: NotRequired[str | list[str]]
    duplicated: NotRequired[list[str]]
    unknown: NotRequired[list[str]]
    cycle: NotRequired[list[str]]
    hint: NotRequired[str]
    owned_by: NotRequired[str]


class RuleDetails(TypedDict, total=False):
    """What a plan rule adds to its finding (``_Checker.add``'s keywords, in the order given)."""

    path: str
    dimension_id: str
    count: int
    missing: str | list[str]
    duplicated: list[str]
    unknown: list[str]
    cycle: list[str]
    hint: str
    owned_by: str


@dataclass
class Issues:
    """The errors found so far, each with its rule code and where it is."""

    items: list[RuleError] = field(default_factory=list)

    def add(self, rule: str, message: str, path: str = "") -> None:
        """Record one error."""
        entry: RuleError = {"rule": rule, "severity": "error", "message": message}
        if path:
            entry["path"] = path
        self.items.append(entry)

    def rules(self) -> set[str]:
        """Every rule code found."""
        return {i["rule"] for i in self.items}


def is_text(value: object) -> TypeGuard[str]:
    """A string that is not blank."""
    return isinstance(value, str) and bool(value.strip())


def text_len_ok(value: object, lo: int, hi: int) -> bool:
    """A string of ``lo``..``hi`` code points (Python ``len``) that is not blank."""
    return is_text(value) and lo <= len(value) <= hi


def show(value: object, limit: int = 60) -> str:
    """A short printable form of a bad value for messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_sources(sources: list[JSONValue], issues: Issues) -> dict[str, JSONObject]:
    """V010–V017; returns the sources by id (first occurrence, objects only)."""
    by_id: dict[str, JSONObject] = {}
    for i, src in enumerate(sources):
        where = f"sources[{i}]"
        if not isinstance(src, dict):
            issues.add("V010", f"{where} is not an object", where)
            continue
        sid = src.get("id")
        if not isinstance(sid, str) or not _SOURCE_ID.match(sid):
            issues.add("V011", f"{where}.id {show(sid)} does not match {SOURCE_ID_RE}", f"{where}.id")
        elif sid in by_id:
            issues.add("V012", f"{where}.id {sid!r} is a duplicate", f"{where}.id")
        else:
            by_id[sid] = src
        url = src.get("url")
        if not isinstance(url, str) or not url.strip():
            issues.add("V013", f"{where}.url is missing or empty", f"{where}.url")
        elif not _valid_http_url(url):
            issues.add(
                "V014",
                f"{where}.url {show(shown_url(url))} is not a valid http(s) URL (host, no credentials)",
                f"{where}.url",
            )
        if not is_text(src.get("title")):
            issues.add("V015", f"{where}.title is missing or empty", f"{where}.title")
        if src.get("quality") not in QUALITIES:
            issues.add("V016", f"{where}.quality {show(src.get('quality'))} is not one of {QUALITIES}", where)
        if "published_at" in src and src["published_at"] is not None:
            pub = src["published_at"]
            if not isinstance(pub, str) or not _DATE.match(pub):
                issues.add("V017", f"{where}.published_at {show(pub)} is not YYYY[-MM[-DD]]", where)
    return by_id


def _valid_http_url(url: str) -> bool:
    """V014 is the snapshot normal form (docs/contracts.md §3.1): http(s), a host that is valid
    IDNA, no user information, no whitespace or control characters. A URL that normal form
    refuses could never be stored as a snapshot, and one with credentials must never be shown."""
    from autodidact.errors import InputError
    from autodidact.sources.snapshots import normalize_url

    if url != url.strip():
        return False
    try:
        normalize_url(url)
    except InputError:
        return False
    return True


def check_claims(
    claims: list[JSONValue],
    dimension_id: str | None,
    sources: dict[str, JSONObject],
    mode: str,
    version: str,
    issues: Issues,
) -> dict[str, JSONObject]:
    """V020–V034 and V040–V041; returns the claims by id (objects with a valid id only)."""
    by_id: dict[str, JSONObject] = {}
    quick = mode == "quick"
    for i, claim in enumerate(claims):
        where = f"claims[{i}]"
        if not isinstance(claim, dict):
            issues.add("V020", f"{where} is not an object", where)
            continue
        cid = claim.get("id")
        if not isinstance(cid, str) or not _CLAIM_ID.match(cid):
            issues.add("V021", f"{where}.id {show(cid)} does not match {CLAIM_ID_RE}", f"{where}.id")
        elif cid in by_id:
            issues.add("V022", f"{where}.id {cid!r} is a duplicate", f"{where}.id")
        else:
            by_id[cid] = claim
            if dimension_id is not None and not cid.startswith(f"{dimension_id}."):
                issues.add("V023", f"{where}.id {cid!r} does not start with '{dimension_id}.'", f"{where}.id")
        if not text_len_ok(claim.get("text"), 5, 500):
            issues.add("V024", f"{where}.text must be a string of 5-500 characters", f"{where}.text")
        kind = claim.get("kind")
        if kind not in KINDS:
            issues.add("V025", f"{where}.kind {show(kind)} is not one of {KINDS}", f"{where}.kind")
        if claim.get("polarity") not in POLARITIES:
            issues.add("V026", f"{where}.polarity {show(claim.get('polarity'))} is not one of {POLARITIES}", where)
        tag = claim.get("topic_tag")
        if not isinstance(tag, str) or not _TOPIC.match(tag):
            issues.add("V027", f"{where}.topic_tag {show(tag)} does not match {TOPIC_TAG_RE}", f"{where}.topic_tag")
        kq = claim.get("answers_key_question")
        if kq is not None and (not isinstance(kq, str) or not _KQ.match(kq)):
            issues.add("V028", f"{where}.answers_key_question {show(kq)} is neither null nor kqN", where)
        evidence = claim.get("evidence")
        if not isinstance(evidence, list) or not evidence:
            issues.add("V029", f"{where}.evidence must be a non-empty array", f"{where}.evidence")
            continue
        good = _check_evidence_list(evidence, where, sources, version, issues)
        _check_kind_rules(kind, good, sources, quick, where, issues)
    return by_id


def _check_evidence_list(
    evidence: list[JSONValue], where: str, sources: dict[str, JSONObject], version: str, issues: Issues
) -> list[JSONObject]:
    good = []
    for j, item in enumerate(evidence):
        at = f"{where}.evidence[{j}]"
        if not isinstance(item, dict):
            issues.add("V030", f"{at} is not an object", at)
            continue
        good.append(item)
        sid = item.get("source_id")
        if not isinstance(sid, str) or sid not in sources:
            issues.add("V031", f"{at}.source_id {show(sid)} is not an id in sources[]", f"{at}.source_id")
        if not is_text(item.get("snippet")):
            issues.add("V032", f"{at}.snippet is missing or blank", f"{at}.snippet")
        if item.get("quote_type") not in QUOTE_TYPES:
            issues.add("V033", f"{at}.quote_type {show(item.get('quote_type'))} is not one of {QUOTE_TYPES}", at)
        ref = item.get("snapshot_ref")
        required = version == "1.2" or "snapshot_ref" in item
        if required and (not isinstance(ref, str) or not _REF.match(ref)):
            issues.add(
                "V034",
                f"{at}.snapshot_ref {show(ref)} is missing or not source_cache/<64 hex>/<64 hex>.md",
                f"{at}.snapshot_ref",
            )
    return good


def _check_kind_rules(
    kind: JSONValue,
    evidence: list[JSONObject],
    sources: dict[str, JSONObject],
    quick: bool,
    where: str,
    issues: Issues,
) -> None:
    source_ids = [e.get("source_id") for e in evidence if isinstance(e.get("source_id"), str)]
    if kind == "factual" and not quick:
        strong = [s for s in source_ids if s in sources and sources[s].get("quality") in ("primary", "secondary")]
        if not strong:
            issues.add("V040", f"{where} is factual but none of its sources is primary or secondary", where)
    if kind == "interpretive":
        need = 1 if quick else 2
        if len(evidence) < need or len(set(source_ids)) < need:
            issues.add("V041", f"{where} is interpretive and needs evidence from {need} distinct sources", where)


def check_key_findings(findings: list[JSONValue], claim_ids: set[str], issues: Issues) -> None:
    """V050–V053."""
    for i, kf in enumerate(findings):
        where = f"key_findings[{i}]"
        if not isinstance(kf, dict):
            issues.add("V050", f"{where} is not an object", where)
            continue
        if not text_len_ok(kf.get("finding"), 10, 300):
            issues.add("V051", f"{where}.finding must be a string of 10-300 characters", f"{where}.finding")
        ids = kf.get("claim_ids")
        if not isinstance(ids, list) or not ids:
            issues.add("V052", f"{where}.claim_ids must be a non-empty array", f"{where}.claim_ids")
            continue
        for j, cid in enumerate(ids):
            if not isinstance(cid, str) or cid not in claim_ids:
                issues.add("V053", f"{where}.claim_ids[{j}] {show(cid)} is not a claim id of this file", where)


def check_writing_context(entries: JSONValue, dimension_id: str | None, source_ids: set[str], issues: Issues) -> None:
    """V060–V066 (``writing_context`` is optional)."""
    if not isinstance(entries, list):
        issues.add("V060", "writing_context must be an array of objects", "writing_context")
        return
    seen: set[str] = set()
    for i, wc in enumerate(entries):
        where = f"writing_context[{i}]"
        if not isinstance(wc, dict):
            issues.add("V060", f"{where} is not an object", where)
            continue
        wid = wc.get("id")
        if not isinstance(wid, str) or not _CONTEXT_ID.match(wid):
            issues.add("V061", f"{where}.id {show(wid)} does not match {CONTEXT_ID_RE}", f"{where}.id")
        elif dimension_id is not None and not wid.startswith(f"{dimension_id}."):
            issues.add("V061", f"{where}.id {wid!r} does not belong to dimension {dimension_id}", f"{where}.id")
        elif wid in seen:
            issues.add("V061", f"{where}.id {wid!r} is a duplicate", f"{where}.id")
        else:
            seen.add(wid)
        if wc.get("kind") not in CONTEXT_KINDS:
            issues.add("V062", f"{where}.kind {show(wc.get('kind'))} is not one of {CONTEXT_KINDS}", where)
        if not text_len_ok(wc.get("text"), 10, 500):
            issues.add("V063", f"{where}.text must be a string of 10-500 characters", f"{where}.text")
        if not text_len_ok(wc.get("use"), 10, 300):
            issues.add("V064", f"{where}.use must be a string of 10-300 characters", f"{where}.use")
        sids = wc.get("source_ids", [])
        if (
            not isinstance(sids, list)
            or not all(isinstance(s, str) and s in source_ids for s in sids)
            or len(set(sids)) != len(sids)
        ):
            issues.add("V065", f"{where}.source_ids must be a de-duplicated array of ids in sources[]", where)
        kqs = wc.get("applies_to", [])
        if (
            not isinstance(kqs, list)
            or not all(isinstance(k, str) and _KQ.match(k) for k in kqs)
            or len(set(kqs)) != len(kqs)
        ):
            issues.add("V066", f"{where}.applies_to must be a de-duplicated array of kqN ids", where)
