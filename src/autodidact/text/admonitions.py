"""Where a document flags a passage itself: notes, warnings, cautions, tips (docs/evidence.md).

Why: a manual's author marks the few things a reader must not miss — "you need to use CP932 as
the encoding name instead of shift-JIS", "Due to the precarious circumstances under which
__del__() methods are invoked…". A section's key points are chosen by how much a sentence shares
with the rest of the section, and a note, being about the exception, shares little: it was the
one thing left out. The marks differ by where the text came from, and all of them are found here:

- a DocBook admonition as trafilatura renders it, a two-column table whose header is the label
  (``|  | 注意 |`` / ``|  | Note |``), the note in the rows under it;
- a label on its own line, the note indented under it (Python's reference, ``Note:`` then a
  blank line and an indented paragraph);
- a label opening a paragraph (``Note: If an object … was marshalled …`` in ``pydoc`` pages,
  ``**Warning:** …`` in markdown), the note running to the paragraph's end;
- a markdown blockquote that opens with the label (``> **Note**``, ``> [!WARNING]``).
"""

from __future__ import annotations

import re

_EN = r"note|notes|warning|caution|important|tip|attention|danger"
_ZH = r"注意|注|警告|小心|重要|提示|技巧"
_LABEL = rf"(?:\*\*|__)?(?:{_EN}|{_ZH})(?:\*\*|__)?"

# "|  | 注意 |", "| | Warning |": the header row of a DocBook admonition's table
_TABLE_LABEL = re.compile(rf"^\|\s*\|\s*{_LABEL}\s*[:：]?\s*\|\s*$", re.I)
_TABLE_SEPARATOR = re.compile(r"^\|[\s|:-]*\|\s*$")
_TABLE_ROW = re.compile(r"^\|")  # a row; a passage cut inside the note leaves its last row unclosed
# "Note:" alone on its line (Python's reference) or "**Note**"
_LABEL_LINE = re.compile(rf"^([ \t]*){_LABEL}\s*[:：]?\s*$", re.I)
# "Note: If an object …", "**Warning:** never …", "注意：…"
_LABEL_OPENS = re.compile(rf"^[ \t]*{_LABEL}\s*[:：]\s*(?:\*\*)?\s*\S", re.I)
# "> **Note**", "> [!WARNING]", "> Note: …"
_QUOTE_OPENS = re.compile(rf"^>\s*(?:\[!(?:{_EN})\]|{_LABEL}(?:\s*[:：]|\s*$))", re.I)


def admonition_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of every flagged note in ``text``, in order."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        end = _note_end(lines, i)
        if end > i:
            spans.append((starts[i], starts[end]))
            i = end
        else:
            i += 1
    return spans


def _note_end(lines: list[str], i: int) -> int:
    """The index of the first line after the note that starts at line ``i``; ``i`` if none does."""
    line = lines[i].rstrip("\r\n")
    if _TABLE_LABEL.match(line):
        j = i + 1
        if j < len(lines) and _TABLE_SEPARATOR.match(lines[j].rstrip("\r\n")):
            j += 1
        while j < len(lines) and _TABLE_ROW.match(lines[j].rstrip("\r\n")):
            j += 1
        return j
    if _QUOTE_OPENS.match(line):
        j = i + 1
        while j < len(lines) and lines[j].startswith(">"):
            j += 1
        return j
    label = _LABEL_LINE.match(line)
    if label:
        return _indented_block_end(lines, i, len(label.group(1).expandtabs()))
    if _LABEL_OPENS.match(line):
        j = i + 1
        while j < len(lines) and lines[j].strip():
            j += 1
        return j
    return i


def _indented_block_end(lines: list[str], i: int, indent: int) -> int:
    """After a label line: the blank lines, then every line indented deeper than the label."""
    j = i + 1
    last = i
    while j < len(lines):
        line = lines[j].rstrip("\r\n")
        if line.strip():
            if len(line.expandtabs()) - len(line.expandtabs().lstrip()) <= indent:
                break
            last = j
        j += 1
    return last + 1 if last > i else i


def in_admonition(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether the text at [start, end) lies inside one of the spans."""
    return any(s <= start and end <= e for s, e in spans)
