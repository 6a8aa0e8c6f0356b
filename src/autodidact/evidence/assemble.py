"""Turning verified claims into evidence.json: ids, sources, admissibility, supplement merging.

Why a separate step: numbering (``d1.c1``… continuing in supplement mode), stable source ids (the
same URL keeps its id), and the kind rules (a factual claim needs a primary or secondary source,
an interpretive one two distinct sources) are bookkeeping that must be right every time, whatever
engine extracted the claims. A claim that cannot meet its kind's rule is re-kinded when the
evidence allows it, otherwise dropped and counted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from autodidact.evidence.collect import Doc
from autodidact.evidence.kq_research import KQResult
from autodidact.evidence.models import Claim, EvidenceFile, EvidenceItem, Kind, Source
from autodidact.sources.snapshots import is_local_url, normalize_url

_NON_ID = re.compile(r"[^a-z0-9]+")
_NUM = re.compile(r"\.(?:c|w)(\d+)$")


@dataclass
class Assembly:
    """Claims and sources ready for the file, plus bookkeeping for the result."""

    claims: list[Claim] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)
    dropped_weak: int = 0
    docs_by_source: dict[str, Doc] = field(default_factory=dict)


def source_id_for(url: str) -> str:
    """A readable id from the URL (same URL → same id): host words plus the last path segment."""
    parts = urlsplit(url)
    segments = [unquote(s) for s in parts.path.split("/") if s]
    if is_local_url(url):
        words = segments[1:2] + segments[-1:] if len(segments) > 2 else segments[-2:]
    else:
        host = [w for w in (parts.hostname or "").split(".") if w not in {"www", "com", "org", "net", "cn", "io"}]
        words = host[:2] + segments[-1:]
    base = _NON_ID.sub("_", "_".join(words).lower().rsplit(".", 1)[0] if words else "").strip("_")
    if not base or not base[0].isalpha():
        base = "src_" + base if base else "src"
    return base[:48].rstrip("_")


def next_number(ids: list[str]) -> int:
    """1 + the highest ``.cN``/``.wN`` number among ``ids`` (1 when none)."""
    nums = [int(m.group(1)) for i in ids if isinstance(i, str) and (m := _NUM.search(i))]
    return max(nums, default=0) + 1


def assemble(
    dimension_id: str,
    results: list[KQResult],
    previous: EvidenceFile | None,
    mode: str,
) -> Assembly:
    """Claims (numbered, admissible) and the sources they cite, merged with a previous file if any."""
    out = Assembly()
    prev_claims = list(previous.claims) if previous else []
    prev_sources = list(previous.sources) if previous else []
    by_url: dict[str, Source] = {}
    for src in prev_sources:
        try:
            by_url[normalize_url(src.url)] = src
        except Exception:  # a previous file passed the validator; be tolerant anyway
            continue
    used_ids = {s.id for s in prev_sources}
    seen_quotes = {tuple(" ".join(e.snippet.split()) for e in c.evidence) for c in prev_claims}
    new_sources: list[Source] = []
    n = next_number([c.id for c in prev_claims])
    quick = mode == "quick"
    for result in results:
        taken = 0
        for kept in result.kept:
            claim = kept.claim
            key = tuple(" ".join(q.snippet.split()) for q in claim.quotes)
            if key in seen_quotes:
                continue
            cap = getattr(result, "cap", None)
            if cap is not None and taken >= cap:
                break  # the rest were spares, for quotes an earlier question had already taken
            distinct = {normalize_url(d.url) for d in kept.docs}
            strong = any(d.quality in ("primary", "secondary") for d in kept.docs)
            kind: Kind | None = claim.kind
            if kind == "factual" and not strong and not quick:
                kind = "interpretive" if len(distinct) >= 2 else None
            if kind == "interpretive" and len(distinct) < (1 if quick else 2):
                kind = "factual" if (strong or quick) else None
            if kind is None:
                out.dropped_weak += 1
                continue
            seen_quotes.add(key)
            taken += 1
            evidence = []
            for quote, doc in zip(claim.quotes, kept.docs, strict=True):
                sid = _source_for(doc, by_url, used_ids, new_sources, doc.section_label(quote.snippet))
                out.docs_by_source[sid] = doc
                evidence.append(
                    EvidenceItem(
                        source_id=sid, snippet=quote.snippet, quote_type=quote.quote_type, snapshot_ref=doc.snapshot_ref
                    )
                )
            out.claims.append(
                Claim(
                    id=f"{dimension_id}.c{n}",
                    text=claim.text,
                    kind=kind,
                    polarity=claim.polarity,
                    topic_tag=claim.topic_tag,
                    answers_key_question=result.kq_id,
                    evidence=evidence,
                )
            )
            n += 1
    out.claims = prev_claims + out.claims
    out.sources = prev_sources + new_sources
    return out


def _source_for(doc: Doc, by_url: dict[str, Source], used_ids: set[str], new_sources: list[Source], title: str) -> str:
    """The source id for ``doc`` (one per URL), entered with ``title`` — the section of the first
    quote that cites it (``Doc › Section``) — when it is new."""
    key = normalize_url(doc.url)
    if key in by_url:
        return by_url[key].id
    base = source_id_for(doc.url)
    sid, k = base, 2
    while sid in used_ids:
        sid, k = f"{base}_{k}", k + 1
    used_ids.add(sid)
    entry = Source(
        id=sid,
        url=doc.url,
        title=title.strip() or doc.url,
        quality=doc.quality,
        published_at=doc.published_at or None,
        author=doc.author or None,
    )
    by_url[key] = entry
    new_sources.append(entry)
    return sid
