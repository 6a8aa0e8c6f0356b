"""Sentences that rest on claims: the offline writer, the drop rules, the support check.

Why here and not in the model: a sentence in a report or a wiki answer is only as good as the claims
under it. A writer — the offline one or a model (``evidence/write_task.py``) — proposes sentences,
each with the ids of the claims it rests on; this module decides which are written. A sentence
citing no claim, or an id it was not given, is dropped; so is one whose content words its claims'
quotes do not cover (numbers must appear verbatim). Markers are rendered from the kept ids by the
report's citer or the wiki's, never typed by the writer (docs/writing.md).

The offline writer turns each claim into one plain sentence: the attribution the evidence agent
puts in a claim ("According to Debian package management: …") is dropped, since the marker names
the source, and a claim whose sentence another claim of the same question already says is dropped.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from autodidact.evidence.models import Claim
from autodidact.text.support import DEFAULT_SUPPORT, numbers_hold, support

# The attribution evidence/extract_task.claim_text writes before a quoted sentence.
_ATTRIBUTION = re.compile(r"^(?:According to [^:\n]{1,100}?:\s+|据《[^》\n]{1,100}》[：:]\s*|据来源[：:]\s*)")
_SPACE = re.compile(r"\s+")

# Drop reasons, as counted in the report footer and the ledger-side summary.
NO_CLAIM = "no claim ids"
UNKNOWN_CLAIM = "claim id not given"
UNSUPPORTED = "not supported by its quotes"
JUDGED_UNSUPPORTED = "judged unsupported"
REPEATED = "repeats another sentence"


@dataclass(frozen=True)
class Sentence:
    """One sentence to write and the claims it rests on."""

    text: str
    claim_ids: tuple[str, ...]


@dataclass
class Written:
    """What a writer produced for one block, after the drop rules."""

    sentences: list[Sentence]
    dropped: Counter[str] = field(default_factory=Counter)
    engine: str = "offline"


class Stated(Protocol):
    """What the offline writer reads of a claim: its id and its statement (a :class:`Claim`, or a
    writer's view of one, ``write_task.ClaimIn``)."""

    @property
    def id(self) -> str: ...

    @property
    def text(self) -> str: ...


def plain(claim_text: str) -> str:
    """A claim's statement without the source attribution the marker already gives."""
    return _ATTRIBUTION.sub("", claim_text.strip(), count=1).strip()


def quotes_of(claim: Claim) -> list[str]:
    """The verbatim snippets a claim's evidence quotes."""
    return [item.snippet for item in claim.evidence if item.snippet]


def _key(text: str) -> str:
    return _SPACE.sub(" ", re.sub(r"[`*_\"'“”‘’]", "", text)).strip().casefold().rstrip(".。")


_CELL_SPLIT = re.compile(r"(?<!\\)\|")


def row_sentence(text: str) -> str:
    """A quoted table row read as a sentence: "`dpkg -L` name | list contents of a package |" →
    "`dpkg -L` name: list contents of a package"; other text unchanged."""
    if len(_CELL_SPLIT.findall(text)) < 2:
        return text
    cells = [c.strip() for c in _CELL_SPLIT.split(text) if c.strip()]
    if len(cells) < 2:
        return text
    return f"{cells[0]}: {'; '.join(cells[1:])}"


def offline_sentences(claims: Sequence[Stated]) -> list[Sentence]:
    """One plain sentence per claim, in the given order, without sentences another one already says."""
    out: list[Sentence] = []
    keys: list[str] = []
    for claim in claims:
        text = row_sentence(plain(claim.text))
        key = _key(text)
        if not key or any(key in k for k in keys):
            continue
        # A longer sentence that says an earlier one and more replaces it.
        longer = [i for i, k in enumerate(keys) if k in key]
        for i in reversed(longer):
            del out[i], keys[i]
        out.append(Sentence(text, (claim.id,)))
        keys.append(key)
    return out


def admit(
    proposed: Iterable[tuple[str, list[str]]],
    quotes: Mapping[str, Sequence[str]],
    threshold: float = DEFAULT_SUPPORT,
) -> Written:
    """The proposed sentences that cite given claims and are supported by their quotes; the rest counted.

    ``quotes`` maps each given claim id to the quotes it rests on (:func:`quotes_of` for a claim;
    a wiki answer's quote is its own claim)."""
    written = Written([], Counter(), engine="model")
    seen: set[str] = set()
    for text, ids in proposed:
        text = " ".join(text.split())
        if not text:
            continue
        if not ids:
            written.dropped[NO_CLAIM] += 1
            continue
        if any(i not in quotes for i in ids):
            written.dropped[UNKNOWN_CLAIM] += 1
            continue
        under = [q for i in ids for q in quotes[i]]
        if support(text, under) < threshold or not numbers_hold(text, under):
            written.dropped[UNSUPPORTED] += 1
            continue
        key = _key(text)
        if key in seen:
            written.dropped[REPEATED] += 1
            continue
        seen.add(key)
        written.sentences.append(Sentence(text, tuple(dict.fromkeys(ids))))
    return written
