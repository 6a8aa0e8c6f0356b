"""Small, valid evidence models for tests: a claim or a file from the few fields a test cares about.

Why: evidence is typed past the file's edge (docs/evidence.md, "Evidence in code"), so a test
that hands a consumer evidence hands it an :class:`EvidenceFile`. These builders fill every
field the test does not name with a valid value, so a test still reads as its point.
"""

from __future__ import annotations

from collections.abc import Iterable

from autodidact.evidence.models import Claim, EvidenceFile, EvidenceItem, KeyFinding, Source

REF = "source_cache/" + "0" * 64 + "/" + "1" * 64 + ".md"


def item(snippet: str, source_id: str = "s1", **fields: object) -> EvidenceItem:
    """One piece of evidence (a direct quote unless ``quote_type`` says otherwise)."""
    quote_type = fields.pop("quote_type", "direct")
    return EvidenceItem.model_validate({"source_id": source_id, "snippet": snippet, "quote_type": quote_type, **fields})


def claim(
    claim_id: str = "d1.c1",
    text: str = "A statement the test needs.",
    *,
    kq: str | None = "kq1",
    evidence: Iterable[EvidenceItem] = (),
    snippets: Iterable[str] = (),
    source_id: str = "s1",
    **fields: object,
) -> Claim:
    """A claim; its evidence is ``evidence``, else one direct quote per snippet from ``source_id``."""
    items = list(evidence) or [item(s, source_id) for s in snippets] or [item(text, source_id)]
    return Claim.model_validate(
        {
            "id": claim_id,
            "text": text,
            "kind": fields.pop("kind", "factual"),
            "polarity": fields.pop("polarity", "neutral"),
            "topic_tag": fields.pop("topic_tag", "test"),
            "answers_key_question": kq,
            "evidence": items,
            **fields,
        }
    )


def source(source_id: str = "s1", url: str = "https://example.org/page", **fields: object) -> Source:
    """A source (primary unless ``quality`` says otherwise; its title is its URL unless given)."""
    title, quality = fields.pop("title", url), fields.pop("quality", "primary")
    return Source.model_validate({"id": source_id, "url": url, "title": title, "quality": quality, **fields})


def evidence_file(claims: Iterable[Claim], sources: Iterable[Source], **fields: object) -> EvidenceFile:
    """A file holding ``claims`` and ``sources``; one key finding citing the first claim unless given."""
    claims, sources = list(claims), list(sources)
    findings = fields.pop("key_findings", None)
    if findings is None:
        findings = [KeyFinding(finding="The finding a test needs.", claim_ids=[claims[0].id])] if claims else []
    return EvidenceFile.model_validate(
        {
            "dimension_id": fields.pop("dimension_id", "d1"),
            "headline": fields.pop("headline", "A headline for a test"),
            "key_findings": findings,
            "claims": claims,
            "sources": sources,
            **fields,
        }
    )
