"""Sections of a long document: offsets into its text, from headings or PDF page markers.

Why: a book chapter is not one source. Retrieval, citation and raw excerpts all work on the part
of a document that is about one thing — "2.7.3. Tweaking candidate version", not "Chapter 2".
A :class:`Section` is only a title, a level and ``[start, end)`` offsets into the document's
text; the text itself stays whole (snapshots are immutable and quotes verify against them), and
``text[section.start:section.end]`` is the section. Every character of the text belongs to
exactly one section, in order, so any offset (a passage, a quote) has one section.

Where boundaries come from (docs/sections.md):

* markdown ATX headings ``#``, ``##``, ``###`` at the start of a line — the extractor writes HTML
  h1–h3 this way. Not every ``#`` line is a heading: lines inside fenced code, indented lines,
  ``#`` lines glued to the line before them (a shell session: ``# apt-get install …``), and text
  that reads as a command (``# cd /usr/share/doc``, ``# sort a | uniq``) are body text;
* ``[page N]`` lines, which the PDF extractor puts before each page's text (a document that
  starts with ``[page 1]`` is split by pages only).

Then sizes are evened out: a section with almost no body (a heading directly followed by a
sub-heading) is merged with the next one, and a very long one is cut at paragraph breaks into
parts titled ``Title (1/3)``, ``Title (2/3)``… A document without any boundary is one section.
Standard library only (this is the L0 text layer).
"""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from dataclasses import dataclass

SEPARATOR = " › "
MAX_SECTION_CHARS = 6000
MIN_SECTION_CHARS = 80

_ATX = re.compile(r"^(#{1,3})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_PAGE = re.compile(r"^\[page (\d+)\][ \t]*$")
_PROMPT_NEXT = re.compile(r"^(?:\$|%|#|\\#)\s")
_SHELL_OPERATOR = re.compile(r"\||&&|>>|\d?>\s*\S|<\s|\$\(|\\")
_SHELL_ARG = re.compile(r"\s(?:--?[A-Za-z0-9]|[/~]\S|\$\w|\./)")
_COMMAND_WORD = re.compile(r"^[a-z][a-z0-9._+-]*$")
_TECH_WORD = re.compile(r"[a-z][-._][a-z0-9]|[a-z]\d|\d[a-z]")
_PARA_BREAK = re.compile(r"\n[ \t]*\n")
_LINE_BREAK = re.compile(r"\n")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class Section:
    """One section of a document: ``text[start:end]``; ``level`` 1–3 for headings, 0 for none."""

    title: str
    level: int
    start: int
    end: int

    def text_of(self, text: str) -> str:
        """This section's text within the document ``text`` it was split from."""
        return text[self.start : self.end]


@dataclass(frozen=True)
class Heading:
    """A line that opens a section: its level, title and the offsets of the line itself."""

    level: int
    title: str
    start: int
    end: int


def heading_like(title: str) -> bool:
    """Whether the text after ``#`` reads as a heading rather than a shell command or a comment.

    A heading has letters; a command has operators (``|``, ``>``, ``&&``), options (``-a``),
    path arguments (``/usr``, ``~/x``) or is a run of lowercase technical words
    (``apt-get dist-upgrade``, ``sort ls1.txt``). ``# "except" clause`` and ``# __slots__`` are
    headings; ``# cd /usr/share/doc`` is not.
    """
    title = title.strip()
    if not any(ch.isalpha() for ch in title):
        return False
    if title[0] in "$/~|<>\\" or _SHELL_OPERATOR.search(title):
        return False
    words = title.split()
    if _COMMAND_WORD.match(words[0]) and _SHELL_ARG.search(title):
        return False
    return not (len(words) >= 2 and all(_COMMAND_WORD.match(w) for w in words) and _TECH_WORD.search(title))


# The permalink a documentation generator puts after each heading ("More on Lists¶", Sphinx;
# "🔗" in some themes): not part of the heading a reader names.
_PERMALINK = re.compile(r"\s*[¶🔗]\s*")


def clean_title(title: str) -> str:
    """A heading's text as a plain title: emphasis and code marks and escapes removed, one line."""
    title = re.sub(r"\\([\\`*_{}\[\]()#+\-.!<>|])", r"\1", title)
    title = re.sub(r"(\*\*|`)", "", title)  # not "__": it is part of names like __slots__
    return " ".join(_PERMALINK.sub(" ", title).split())


# "Chapter 2.", "第 2 章", "2.7.3.", "2.1", "3." — not a bare number ("2024 annual report").
_NUMBERING = re.compile(r"^\s*(?:chapter\s+\d+\.?|第\s*\d+\s*章|\d+(?:\.\d+)+\.?|\d+\.)\s+", re.I)
_PART = re.compile(r"\s*\(\d+/\d+\)$")


def bare_heading(title: str) -> str:
    """A section's heading as a reader names it: the last part of ``Chapter › Section``, without
    its numbering ("2.7.3. ") or part counter (" (2/3)"). "Tweaking candidate version" is what a
    question about that section quotes, and what finds the section again (docs/questions.md).
    """
    last = _PERMALINK.sub(" ", title.split(SEPARATOR.strip())[-1]).strip()
    return _NUMBERING.sub("", _PART.sub("", last)).strip(" .:：")


def section_named(sections: list[Section], heading: str) -> list[Section]:
    """The sections (all parts of a cut one) whose bare heading is ``heading``, case-insensitive."""
    want = " ".join(heading.split()).casefold()
    return [s for s in sections if " ".join(bare_heading(s.title).split()).casefold() == want]


# Heading and fence lines found in the whole text at once (issue 18: a loop over every line of
# every document was a tenth of indexing it); per line they are :data:`_ATX` and :data:`_FENCE`.
_ATX_LINE = re.compile(r"^(#{1,3})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$", re.M)
_FENCE_LINE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$", re.M)


def _fenced_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each fenced code block, from its opening line's start to its closing
    line's end, in order.

    A fence that is never closed is not a fence: a stray ```` ``` ```` line (an extractor's
    inline code split over lines) must not swallow the rest of the document.
    """
    if "```" not in text and "~~~" not in text:
        return []
    fences = list(_FENCE_LINE.finditer(text))
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(fences):
        mark = fences[i].group(1)
        close = next(
            (
                j
                for j in range(i + 1, len(fences))
                if (m := fences[j]).group(1)[0] == mark[0] and len(m.group(1)) >= len(mark) and not m.group(2).strip()
            ),
            None,
        )
        if close is None:
            i += 1
            continue
        spans.append((fences[i].start(), fences[close].end()))
        i = close + 1
    return spans


def headings(text: str) -> list[Heading]:
    """The ATX heading lines (levels 1–3) of ``text`` that open sections, in order."""
    return list(_headings(text))


@functools.lru_cache(maxsize=2)
def _headings(text: str) -> tuple[Heading, ...]:
    """:func:`headings`, kept for the last two texts: the index asks for the sections and the
    boundary lines of one document in a row, and each needs its headings (issue 18).

    A ``#`` line is a heading when it is not fenced code, stands after a blank line or another
    heading (not after a fenced line), reads as a heading and is not glued to a prompt line."""
    out: list[Heading] = []
    fenced = _fenced_spans(text)
    fence_starts = [s for s, _ in fenced]

    def in_fence(pos: int) -> bool:
        k = bisect.bisect_right(fence_starts, pos) - 1
        return k >= 0 and pos <= fenced[k][1]

    last_end = -2  # where the last heading's line ends
    for match in _ATX_LINE.finditer(text):
        start, end = match.span()
        if fenced and in_fence(start):
            continue
        if start and last_end != start - 1:  # not right after a heading: the line before must be blank
            before = text.rfind("\n", 0, start - 1) + 1
            if text[before : start - 1].strip() or (fenced and in_fence(before)):
                continue
        stop = text.find("\n", end + 1)
        nxt = text[end + 1 : stop if stop >= 0 else len(text)] if end < len(text) else ""
        title = clean_title(match.group(2))
        if title and heading_like(match.group(2)) and not _glued_prompt(nxt):
            out.append(Heading(len(match.group(1)), title, start, end))
            last_end = end
    return tuple(out)


def _glued_prompt(next_line: str) -> bool:
    """A ``#`` line directly followed by a prompt line (``$ make``) is part of a shell session."""
    if not _PROMPT_NEXT.match(next_line):
        return False
    match = _ATX.match(next_line)
    return not (match and heading_like(match.group(2)))


def page_markers(text: str) -> list[tuple[int, int, int]]:
    """(page number, line start, line end) of the ``[page N]`` lines of a PDF's text, or [] for other text."""
    if not _PAGE.match(text.lstrip().split("\n", 1)[0]):
        return []
    out: list[tuple[int, int, int]] = []
    pos = 0
    for line in text.split("\n"):
        match = _PAGE.match(line)
        if match:
            out.append((int(match.group(1)), pos, pos + len(line)))
        pos += len(line) + 1
    return out


def _is_chinese(text: str) -> bool:
    sample = text[:4000]
    letters = sum(map(str.isalpha, sample))
    return bool(letters) and len(_CJK.findall(sample)) / letters >= 0.2


def page_title(first: int, last: int, chinese: bool) -> str:
    """``page 3`` / ``pages 3–5``, or ``第 3 页`` / ``第 3–5 页``."""
    span = str(first) if first == last else f"{first}–{last}"
    if chinese:
        return f"第 {span} 页"
    return f"page {span}" if first == last else f"pages {span}"


@dataclass
class _Draft:
    title: str
    level: int
    start: int
    end: int
    body: int  # characters of body text (not counting the heading line)
    pages: tuple[int, int] | None = None


def _raw_sections(text: str, title: str) -> list[_Draft]:
    markers = page_markers(text)
    drafts: list[_Draft] = []
    if markers:
        if markers[0][1] > 0:
            drafts.append(_Draft(title, 0, 0, markers[0][1], len(text[: markers[0][1]].strip())))
        for n, (page, start, line_end) in enumerate(markers):
            end = markers[n + 1][1] if n + 1 < len(markers) else len(text)
            drafts.append(_Draft("", 1, start, end, len(text[line_end:end].strip()), (page, page)))
        return drafts
    found = headings(text)
    if not found or found[0].start > 0:
        first_end = found[0].start if found else len(text)
        drafts.append(_Draft(title, 0, 0, first_end, len(text[:first_end].strip())))
    for n, head in enumerate(found):
        end = found[n + 1].start if n + 1 < len(found) else len(text)
        drafts.append(_Draft(head.title, head.level, head.start, end, len(text[head.end : end].strip())))
    return drafts


def _merge_small(drafts: list[_Draft], min_chars: int) -> list[_Draft]:
    """Merge each section with almost no body into the next (the last one into the previous)."""
    out: list[_Draft] = []
    carry: _Draft | None = None
    for draft in drafts:
        if carry is not None:
            draft = _join(carry, draft)
            carry = None
        if draft.body < min_chars:
            carry = draft
        else:
            out.append(draft)
    if carry is not None:
        if out:
            out[-1] = _join(out[-1], carry)
        else:
            out.append(carry)
    return out


def _join(a: _Draft, b: _Draft) -> _Draft:
    """One section spanning ``a`` then ``b``; it keeps the title of the one with more body."""
    lead = b if b.body > a.body else a
    pages = (a.pages[0], b.pages[1]) if a.pages and b.pages else None
    return _Draft(lead.title, lead.level, a.start, b.end, a.body + b.body, pages)


def _best_break(text: str, lo: int, hi: int, goal: int) -> int:
    """The paragraph break (else line break) in ``(lo, hi]`` nearest ``goal``; -1 if none."""
    for pattern in (_PARA_BREAK, _LINE_BREAK):
        found = [m.end() for m in pattern.finditer(text, lo, hi) if lo < m.end() <= hi]
        if found:
            return min(found, key=lambda p: (abs(p - goal), p))
    return -1


def _cut_points(text: str, start: int, end: int, max_chars: int) -> list[int]:
    """Offsets inside ``[start, end)`` where a long section is cut, so no part exceeds ``max_chars``.

    Each cut is a paragraph break (else a line break, else a hard cut) late in the next
    ``max_chars``; the last two parts share what is left evenly, so none is a scrap.
    """
    cuts: list[int] = []
    lo = start
    while end - lo > max_chars:
        rest = end - lo
        goal = lo + rest // 2 if rest <= 2 * max_chars else lo + max_chars
        cut = _best_break(text, lo + max_chars // 4, lo + max_chars, goal)
        cut = cut if cut > lo else lo + max_chars
        cuts.append(cut)
        lo = cut
    return cuts


def _split_large(text: str, drafts: list[_Draft], max_chars: int) -> list[_Draft]:
    out: list[_Draft] = []
    for d in drafts:
        if d.end - d.start <= max_chars:
            out.append(d)
            continue
        bounds = [d.start, *_cut_points(text, d.start, d.end, max_chars), d.end]
        n = len(bounds) - 1
        for k in range(n):
            s, e = bounds[k], bounds[k + 1]
            out.append(_Draft(f"{d.title} ({k + 1}/{n})".strip(), d.level, s, e, len(text[s:e].strip()), d.pages))
    return out


def split_sections(
    text: str, title: str = "", *, max_chars: int = MAX_SECTION_CHARS, min_chars: int = MIN_SECTION_CHARS
) -> list[Section]:
    """The sections of ``text``, covering it end to end in order; ``title`` names untitled text.

    ``title`` (the document's title) is used for text before the first heading and for a
    document without headings. Deterministic: the same text always gives the same sections.
    """
    if not text:
        return [Section(title, 0, 0, 0)]
    drafts = _merge_small(_raw_sections(text, title), min_chars)
    paged = [d for d in drafts if d.pages is not None]
    chinese = bool(paged) and _is_chinese(text)  # only page titles need the language
    for d in paged:
        assert d.pages is not None
        d.title = page_title(d.pages[0], d.pages[1], chinese)
    drafts = _split_large(text, drafts, max(max_chars, 2 * min_chars))
    return [Section(d.title, d.level, d.start, d.end) for d in drafts]


def boundary_lines(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every line that opens a section: headings, or a PDF's page markers.

    The search index leaves these lines out of a passage's body, since it indexes the section
    title on its own; a heading counted twice would outweigh the text under it.
    """
    markers = page_markers(text)
    if markers:
        return [(start, end) for _, start, end in markers]
    return [(h.start, h.end) for h in headings(text)]


def section_at(sections: list[Section], offset: int) -> Section:
    """The section holding character ``offset`` (the last one for an offset past the end)."""
    starts = [s.start for s in sections]
    i = bisect.bisect_right(starts, offset) - 1
    return sections[max(0, min(i, len(sections) - 1))]


def label(doc_title: str, section_title: str) -> str:
    """``Doc title › Section title``; just the document's title when the section adds nothing."""
    doc = " ".join(doc_title.split())
    sec = " ".join(section_title.split())
    if not sec or sec == doc:
        return doc or sec
    if not doc:
        return sec
    return f"{doc}{SEPARATOR}{sec}"


class QuoteLocator:
    """Finds where a quote stands in a text under the quote-matching rule (NFC, whitespace collapsed).

    Why: evidence quotes are checked against snapshots after normalising whitespace, so the quote
    "a  b" matches "a\\nb". To know *which section* holds a quote, its offsets in the original text
    are needed; this keeps the map from the normalised text back to the original once per text.
    A text that is not NFC is searched as is (its offsets would not map back); extraction always
    writes NFC.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        chars: list[str] = []
        where: list[int] = []
        in_space = True  # leading whitespace is dropped, as ``" ".join(text.split())`` does
        for i, ch in enumerate(text):
            if ch.isspace():
                if not in_space:
                    chars.append(" ")
                    where.append(i)
                in_space = True
            else:
                chars.append(ch)
                where.append(i)
                in_space = False
        self._flat = "".join(chars)
        self._where = where
        self._nfc = unicodedata.is_normalized("NFC", text)

    def find(self, quote: str, start: int = 0) -> tuple[int, int] | None:
        """``(start, end)`` offsets in the text of the first match at or after ``start``, or None."""
        needle = " ".join((unicodedata.normalize("NFC", quote) if self._nfc else quote).split())
        if not needle:
            return None
        flat_start = bisect.bisect_left(self._where, start)
        k = self._flat.find(needle, flat_start)
        if k < 0:
            return None
        return self._where[k], self._where[k + len(needle) - 1] + 1
