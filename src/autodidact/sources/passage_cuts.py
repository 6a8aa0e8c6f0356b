"""A document cut into the passages every index backend stores (docs/sections.md).

Why a module of its own: the cut is a pure function of a document's text and title, and the
SQLite index keeps each document's cut beside its rows so that ``index rebuild`` need not work
it out again (sources/analysis_cache.py, docs/architecture.md "Rebuilding the index"). The cut
is split in two for that: :func:`cut_spans` (the costly part: sections, reference entries,
options, chunk boundaries, heading lines) and :func:`bodies` (the searched bodies, sliced
from the text by those spans). :func:`cut_passages` is both, as every caller had it.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from autodidact.sources.options import entry_at, option_entries
from autodidact.sources.passages import chunk_spans, entry_heads
from autodidact.text.sections import boundary_lines, split_sections


@dataclass(frozen=True)
class PassageCut:
    """One passage of a document as every index backend stores it (docs/sections.md).

    ``body`` is the searched text (the passage without its section's heading lines);
    ``section_terms`` the searched section column (the section's title, and the name of the
    reference entry the passage stands in when its text does not say it)."""

    start: int
    end: int
    section: str
    section_start: int
    section_end: int
    body: str
    section_terms: str


# (start, end, section, section start, section end, section terms): a PassageCut without its body
CutSpan = tuple[int, int, str, int, int, str]
# (start, end) of a section's heading lines, which a passage's searched body leaves out
Openers = list[tuple[int, int]]


def cut_spans(text: str, title: str) -> tuple[Openers, list[CutSpan]]:
    """The heading lines of one document and its passages' spans, in order: never across a
    section, ~300–800 characters.

    The entry a passage stands in and the heading lines before it are found by bisection, not by a
    scan of the document's (issue 18, docs/architecture.md "Adding many documents")."""
    openers = boundary_lines(text)
    out: list[CutSpan] = []
    for sec in split_sections(text, title):
        name = sec.title if sec.title != title else ""  # the document's title is its own column
        body = text[sec.start : sec.end]
        heads = entry_heads(body)
        head_starts = [at for at, _ in heads]
        options = option_entries(body)
        for s, e in chunk_spans(body):
            start, end = sec.start + s, sec.start + e
            # a passage inside a reference entry, below its signature, is searchable by its name
            k = bisect.bisect_left(head_starts, s)
            entry = heads[k - 1][1] if k and heads[k - 1][1] not in text[start:end] else ""
            # and one inside an option's description by the option line ("‘--in-place[=SUFFIX]’")
            option = entry_at(options, s)
            if option is not None and option.start < s and not entry:
                entry = " ".join(option.head.split())
            # the words of the camelCase names of the entries it holds: "assertEqual" is searched as
            # "assert Equal" too, so "assertions" (stem "assert") finds unittest's assert methods
            inside = heads[k : bisect.bisect_left(head_starts, e)]
            parts = " ".join(_camel_words(n) for n in {entry, *(n for _, n in inside)} if n and _CAMEL.search(n))
            terms = f"{name} {entry}" if entry else name
            out.append((start, end, name, sec.start, sec.end, f"{terms} {parts}" if parts else terms))
    return openers, out


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _camel_words(name: str) -> str:
    """ "assertEqual" → "assert Equal"; "getLogger" → "get Logger"."""
    return _CAMEL.sub(" ", name)


def cuts_from(text: str, openers: Openers, spans: list[CutSpan]) -> list[PassageCut]:
    """The passages of ``text`` at ``spans``, each body without the heading lines inside it."""
    return [
        PassageCut(*span[:5], body, span[5]) for span, body in zip(spans, bodies(text, openers, spans), strict=True)
    ]


def bodies(text: str, openers: Openers, spans: list[CutSpan]) -> list[str]:
    """The searched body of each passage at ``spans``: its text without the heading lines inside it
    (what the index's rows need, without a PassageCut per passage)."""
    opener_ends = [e for _, e in openers]
    bisect_right = bisect.bisect_right
    # the heading lines before a passage end before it
    return [_without(text, s[0], s[1], openers, bisect_right(opener_ends, s[0])) for s in spans]


def cut_passages(text: str, title: str) -> list[PassageCut]:
    """The passages of one document, in order: never across a section, ~300–800 characters."""
    return cuts_from(text, *cut_spans(text, title))


def _without(text: str, start: int, end: int, spans: Openers, first: int = 0) -> str:
    """``text[start:end]`` with the given spans (section heading lines, in order, not overlapping)
    left out; ``first``: the index of the first span that ends after ``start``, when known."""
    parts: list[str] = []
    pos = start
    for i in range(first, len(spans)):  # not spans[first:]: a copy per passage
        s, e = spans[i]
        if s >= end:
            break
        if e <= pos:
            continue
        parts.append(text[pos:s])
        pos = max(pos, e)
    parts.append(text[pos:end])
    return " ".join(parts)
