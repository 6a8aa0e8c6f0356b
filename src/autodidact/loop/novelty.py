"""What a round added: claims with a quote never seen before, and sources never used before.

Why: the stall rule (docs/contracts.md §1.6, docs/loop.md) stops a run whose rounds no longer add
anything, and a user question stays pending only while its rounds keep finding new evidence.
Both read these numbers, so they are computed from files alone — the rounds' evidence
(``outputs/rounds/round_K_evidence.json``) and the raw files' headers — and a round end repeated
after a crash gets the same numbers as a clean run.

A quote is compared after the project's one quote-matching normalisation (NFC, whitespace runs
collapsed, :func:`autodidact.sources.snapshots.normalize_text`) and case folding, so re-flowed
or re-cased copies of the same sentence do not count as new.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autodidact.errors import IntegrityError
from autodidact.sources.snapshots import normalize_text


@dataclass(frozen=True)
class RoundNovelty:
    """The round's new claims (in all and per key question ``kqN``) and new sources."""

    new_claims: int
    new_sources: int
    new_claims_by_kq: dict[str, int] = field(default_factory=dict)


def quote_key(text: str) -> str:
    """The comparison key of a quote."""
    return normalize_text(text).casefold()


def claim_quotes(claim: dict[str, Any]) -> set[str]:
    """The keys of a claim's quotes (its evidence snippets)."""
    out: set[str] = set()
    for ev in claim.get("evidence") or []:
        if isinstance(ev, dict) and str(ev.get("snippet") or "").strip():
            out.add(quote_key(str(ev["snippet"])))
    return out


def read_evidence(path: Path) -> dict[str, Any]:
    """A round's evidence file; a round without one (research found nothing) is empty."""
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise IntegrityError(
            f"{path.name} cannot be read ({exc})",
            hint="restore the file, or delete it and the round's research step runs again",
        ) from None
    return data if isinstance(data, dict) else {}


def _claims(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in data.get("claims") or [] if isinstance(c, dict)]


def _urls(data: dict[str, Any]) -> set[str]:
    return {str(s.get("url")) for s in data.get("sources") or [] if isinstance(s, dict) and s.get("url")}


def round_novelty(
    earlier: Iterable[dict[str, Any]], current: dict[str, Any], round_sources: Iterable[str]
) -> RoundNovelty:
    """Compare this round's evidence with every earlier round's.

    A claim is new when at least one of its quotes was never quoted before (earlier rounds, or an
    earlier claim of this round — two claims quoting one new sentence are one new claim's worth,
    so the second is not counted). A source is new when its URL was never cited in earlier
    evidence, or when the user gave the round a raw file for it (``round_sources``: those files'
    URLs, or their names when they have none).
    """
    seen: set[str] = set()
    old_urls: set[str] = set()
    for data in earlier:
        for claim in _claims(data):
            seen |= claim_quotes(claim)
        old_urls |= _urls(data)
    new_claims = 0
    by_kq: dict[str, int] = {}
    for claim in _claims(current):
        quotes = claim_quotes(claim)
        if quotes - seen:
            new_claims += 1
            kq = str(claim.get("answers_key_question") or "")
            if kq:
                by_kq[kq] = by_kq.get(kq, 0) + 1
        seen |= quotes
    sources = (_urls(current) - old_urls) | set(round_sources)
    return RoundNovelty(new_claims=new_claims, new_sources=len(sources), new_claims_by_kq=by_kq)
