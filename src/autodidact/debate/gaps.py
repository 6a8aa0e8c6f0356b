"""Evidence gaps: propose → the person confirms the scope → dispatch → import under the alignment rule.

Why a fingerprint: the person authorises a precise piece of research (this question, this scope,
this target, this budget), not "go and look things up". The fingerprint hashes exactly those four
after whitespace and punctuation are normalised away, so re-wording the same scope keeps the
confirmation and any real change invalidates it. Nothing is dispatched before a CONFIRMED approval
made by a user event whose fingerprint equals the gap's current one.

Why the alignment rule: a returned record is VERIFIED only when its verbatim quote and location
support the proposition itself; the co-occurrence of entities or keywords stays UNRESOLVED, and
CONTEXT / BOUNDARY / CHALLENGE records are never VERIFIED.
"""

from __future__ import annotations

import asyncio
import importlib
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, NotRequired, TypedDict

from autodidact.debate.templates import excerpt
from autodidact.errors import AutodidactError
from autodidact.jsontypes import JSONMapping, JSONObject
from autodidact.store.hashing import hash_json

if TYPE_CHECKING:
    from autodidact.config import Settings
    from autodidact.debate.session import Session
    from autodidact.evidence.models import EvidenceFile
    from autodidact.llm.runtime import Runtime

TARGET = "research_agent"
DEFAULT_BUDGET = "quick"
NEVER_VERIFIED = frozenset({"CONTEXT", "BOUNDARY", "CHALLENGE"})


def normalize(text: str) -> str:
    """NFKC, lowercase, without whitespace or punctuation: the fingerprint's view of text."""
    text = unicodedata.normalize("NFKC", text or "").lower()
    return "".join(ch for ch in text if not unicodedata.category(ch).startswith(("P", "Z", "C", "S")))


def fingerprint(question: str, scope: str, target: str, budget: str) -> str:
    return hash_json([normalize(question), normalize(scope), normalize(target), normalize(budget)])[:16]


class EvidenceLink(TypedDict):
    """One evidence-file claim as an idea's evidence link (``EVIDENCE_IMPORTED``'s ``links``)."""

    claim_id: str
    claim: str
    relation: str
    verbatim_quote: str
    quote_type: str
    location: str | None
    snapshot_ref: str | None
    alignment: NotRequired[str]


class DispatchResult(TypedDict):
    """What a dispatched gap came back with: ``evidence`` is the :class:`EvidenceFile` written, or None."""

    status: str
    evidence: EvidenceFile | None
    path: str | None
    note: str


def _text(gap: JSONMapping, key: str) -> str:
    value = gap.get(key, "")
    if not isinstance(value, str):  # a gap's words are strings; anything else never had a fingerprint
        raise TypeError(f"gap {key} is not a string: {value!r}")
    return value


def gap_fingerprint(gap: JSONMapping) -> str:
    return fingerprint(_text(gap, "question"), _text(gap, "scope"), _text(gap, "target"), _text(gap, "budget"))


def propose(session: Session, *, premise: str, lang: str, gap_type: str = "SEARCH_GAP") -> JSONObject:
    """A gap request for the premise in doubt (approval PENDING)."""
    idea = session.idea()
    zh = lang == "zh"
    claim = excerpt(premise, 60)
    question = f"有没有直接证据支持或反驳：{claim}" if zh else f"Is there direct evidence for or against: {claim}"
    gap: JSONObject = {
        "gap_id": f"g{len(session.gap_requests) + 1}",
        "idea_id": idea.idea_id,
        "idea_version": idea.current.version,
        "gap_type": gap_type,
        "question": question,
        "reason": (
            "该前提最终须由外部经验事实决定，概念讨论无法替代"
            if zh
            else "this premise can only be settled by external empirical facts, not by more discussion"
        ),
        "decision_impact": (
            "若证据支持，前提记为有证据；若反驳，命题需修改；若无法回答，前提保持待核实"
            if zh
            else "support marks the premise as evidenced; refutation forces a revision; no answer keeps it unverified"
        ),
        "blocking": "RECORDED",
        "scope": "知识库中的已有资料" if zh else "the sources already in the knowledge base",
        "target": TARGET,
        "budget": DEFAULT_BUDGET,
    }
    gap["fingerprint"] = gap_fingerprint(gap)
    return gap


def with_scope(gap: JSONMapping, scope: str) -> JSONObject:
    """The same gap with a new scope and its new fingerprint (approval handled by the projection)."""
    changed = {k: v for k, v in gap.items() if k not in {"approval", "execution_status", "result_refs"}}
    changed["scope"] = scope
    changed["fingerprint"] = gap_fingerprint(changed)
    return changed


def may_dispatch(gap: JSONMapping) -> bool:
    """CONFIRMED by a user event, for exactly the current scope."""
    approval = gap.get("approval") or {}
    if not isinstance(approval, dict):
        raise AttributeError(f"gap approval is not an object: {approval!r}")
    return (
        approval.get("status") == "CONFIRMED"
        and approval.get("confirmed_by") == "USER"
        and approval.get("scope_fingerprint") == gap_fingerprint(gap)
    )


def alignment(link: EvidenceLink, proposition: str) -> str:
    """VERIFIED only when a verbatim quote with a location contains the proposition's own claim."""
    if link.get("relation") in NEVER_VERIFIED:
        return "UNRESOLVED"
    quote, location = link.get("verbatim_quote") or "", link.get("location") or ""
    if link.get("relation") != "SUPPORT" or not quote or not location or link.get("quote_type") != "direct":
        return "UNRESOLVED"
    core = normalize(proposition)
    return "VERIFIED" if core and core in normalize(quote) else "UNRESOLVED"


def links_from_evidence(evidence: EvidenceFile | None, proposition: str) -> list[EvidenceLink]:
    """Evidence-file claims as idea evidence links, each with its relation and alignment (none
    when the research wrote no file)."""
    links = []
    for claim in evidence.claims if evidence is not None else []:
        relation = {"support": "SUPPORT", "refute": "CHALLENGE"}.get(claim.polarity, "CONTEXT")
        if relation == "SUPPORT" and claim.kind in {"interpretive", "projective"}:
            relation = "BOUNDARY"
        for item in claim.evidence[:1]:
            link: EvidenceLink = {
                "claim_id": claim.id,
                "claim": claim.text,
                "relation": relation,
                "verbatim_quote": item.snippet,
                "quote_type": item.quote_type,
                "location": item.snapshot_ref,
                "snapshot_ref": item.snapshot_ref,
            }
            link["alignment"] = alignment(link, proposition)
            links.append(link)
    return links


def impact(links: list[EvidenceLink], lang: str) -> str:
    """Support / weaken / bound / cannot answer, stated from the aligned links."""
    verified = sum(1 for link in links if link["alignment"] == "VERIFIED")
    challenge = sum(1 for link in links if link["relation"] == "CHALLENGE")
    other = len(links) - verified - challenge
    zh = lang == "zh"
    if not links:
        return (
            "查证未找到可用记录：无法回答，前提保持待核实。"
            if zh
            else "No usable record found: cannot answer; the premise stays unverified."
        )
    if verified:
        kind = "支持" if zh else "supports"
    elif challenge:
        kind = "削弱（待核实）" if zh else "weakens (to be checked)"
    else:
        kind = "限定或无法回答" if zh else "bounds it or cannot answer"
    if zh:
        return (
            f"回流 {len(links)} 条记录：逐字核实支持 {verified} 条，挑战 {challenge} 条，"
            f"背景/边界 {other} 条；影响：{kind}。"
        )
    return (
        f"{len(links)} records returned: {verified} verbatim-verified support, {challenge} challenge, "
        f"{other} context/boundary; impact: {kind}."
    )


def dispatch(
    gap: JSONMapping, *, lang: str, runtime: Runtime, settings: Settings | None, kb_root: Path | None, out_dir: Path
) -> DispatchResult:
    """Run the research agent on the confirmed scope; returns ``{"status", "evidence", "path", "note"}``
    (``evidence``: the :class:`EvidenceFile` written, or None).

    Only the gap's question and scope are sent: never the private conversation.
    """
    if not may_dispatch(gap):
        raise PermissionError(f"gap {gap.get('gap_id')} is not confirmed for its current scope")
    try:
        agent = importlib.import_module("autodidact.evidence.agent")
        payload_mod = importlib.import_module("autodidact.evidence.payload")
    except ImportError:
        return {"status": "UNAVAILABLE", "evidence": None, "path": None, "note": "research agent not installed"}
    from autodidact.llm.runtime import or_offline

    runtime = or_offline(runtime)
    if settings is None:
        from autodidact.config import load_settings

        settings = load_settings(kb_root)
    payload = payload_mod.Payload(
        query=gap["question"],
        language=lang,
        name=gap["gap_id"],
        description=gap["question"],
        key_questions=[{"id": "kq1", "text": gap["question"]}],
        focus=gap["scope"],
        sources=[{"category": "local", "description": gap["scope"]}],
        depth="skim",
        scope_ownership={"owns": [gap["scope"]]},
        report_dir=str(out_dir),
        dimension_id="d1",
        mode="quick",
    )
    try:
        result = asyncio.run(
            agent.gather(payload, runtime=runtime, settings=settings, kb_root=kb_root, out=out_dir / "evidence.json")
        )
    except AutodidactError as exc:  # the agent's failure is recorded, never fatal to the conversation
        return {"status": "NO_RESULT", "evidence": None, "path": None, "note": exc.message[:300]}
    return {"status": "DONE", "evidence": result.evidence, "path": str(result.path), "note": ""}
