"""A manual's option entries: the option lines and the indented description under them (docs/evidence.md).

Why: a command's manual documents each option once, by its name on a line of its own, and then
describes it for paragraphs without naming it again. GNU Info manuals write

    ‘-i[SUFFIX]’
    ‘--in-place[=SUFFIX]’
         This option specifies that files are to be edited in-place. …
         … The extension, if supplied, is used to modify the name of the old file before
         renaming the temporary file, thereby making a backup copy.

and a man page rendered as text writes ``-i, --ignore-case`` with the description indented below.
Read sentence by sentence, "thereby making a backup copy" says nothing of editing in place, and a
passage cut from the middle of the entry does not say which option it describes: a question about
keeping a backup when sed edits in place found neither. Each sentence of an entry's body is about
its option, so the option line's words (``in-place``, ``SUFFIX``) go with it — into the search
index's section column and into the extractor's scoring.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# one option as a manual writes it: -i, --in-place[=SUFFIX], -U LINES, --width=COLUMNS, -?
_OPTION = r"-{1,2}[A-Za-z0-9?][\w.+-]*(?:\[=?[^\]\n]*\]|=[^\s,’'`\]]+|[ \t][A-Z][A-Z0-9_-]*)?"
# an Info head line: one quoted option, or several separated by commas ("‘-y’, ‘--yes’")
_QUOTED = rf"[‘'`]{_OPTION}[’'`]"
_INFO_HEAD = re.compile(rf"(?P<indent>[ \t]*){_QUOTED}(?:,[ \t]*{_QUOTED})*[ \t]*")
# a man page's head line: "-i, --ignore-case", "--color[=WHEN]", "-A NUM, --after-context=NUM"
_MAN_HEAD = re.compile(rf"(?P<indent>[ \t]*){_OPTION}(?:,[ \t]*{_OPTION})*[ \t]*")
# a Texinfo definition of an option-like name, as find's manual writes its tests and actions:
# " -- Test: -name pattern", " -- Action: -exec command ;" (the body is indented below)
_TEXINFO_HEAD = re.compile(rf"(?P<indent> )-- [A-Z][A-Za-z ]*: {_OPTION}(?:[ \t][^\n]*)?")
_ANY_HEAD = re.compile(r"^[ \t]*[‘'`]?-{1,2}[A-Za-z0-9?]|^ -- [A-Z][A-Za-z ]*: -", re.M)
_NAME = re.compile(r"(?<![\w-])-{1,2}[A-Za-z0-9?][\w.+-]*")  # not "-FILE" of "SCRIPT-FILE"


@dataclass(frozen=True)
class OptionEntry:
    """One documented option: where its head lines start, where its body starts and ends, its
    option names ("-i", "--in-place") and the head lines as written (their words describe it)."""

    start: int
    body_start: int
    end: int
    names: tuple[str, ...]
    head: str


def option_entries(text: str) -> list[OptionEntry]:
    """Every option entry of ``text``, in order: one or more head lines, then a body indented deeper
    than they are, up to the first line that is not (blank lines inside the body are its own)."""
    if not _ANY_HEAD.search(text):
        return []  # most documents document no option: one scan instead of a match per line
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    out: list[OptionEntry] = []
    i = 0
    while i < len(lines):
        indent = _head_indent(lines[i])
        if indent is None:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and _head_indent(lines[j]) == indent:
            j += 1
        body = _body_end(lines, j, indent)
        if body == j:
            i = j
            continue
        head = "".join(lines[i:j])
        out.append(OptionEntry(starts[i], starts[j], starts[body], option_names(head), head))
        i = body
    return out


def option_names(head: str) -> tuple[str, ...]:
    """The options option lines name, as written: ("-i", "--in-place") of "‘-i[SUFFIX]’ ‘--in-place[=SUFFIX]’"."""
    return tuple(dict.fromkeys(m.group(0) for m in _NAME.finditer(head)))


def _head_indent(line: str) -> int | None:
    """The indentation of an option head line, or None when the line is no head."""
    text = line.rstrip("\r\n")
    found = _INFO_HEAD.fullmatch(text) or _MAN_HEAD.fullmatch(text) or _TEXINFO_HEAD.fullmatch(text)
    return len(found.group("indent").expandtabs()) if found else None


def _body_end(lines: list[str], j: int, indent: int) -> int:
    """The index of the line after the body that starts at ``j``; ``j`` when nothing is indented
    deeper than the head (a list of options with no description is no entry)."""
    last = j
    k = j
    while k < len(lines):
        line = lines[k].rstrip("\r\n")
        if line.strip():
            if len(line.expandtabs()) - len(line.expandtabs().lstrip()) <= indent:
                break
            last = k + 1
        k += 1
    return last


def entry_at(entries: list[OptionEntry], offset: int) -> OptionEntry | None:
    """The entry whose body holds ``offset``, if any (``entries`` in order, as returned above)."""
    lo, hi = 0, len(entries)
    while lo < hi:
        mid = (lo + hi) // 2
        if entries[mid].body_start <= offset:
            lo = mid + 1
        else:
            hi = mid
    if lo and entries[lo - 1].body_start <= offset < entries[lo - 1].end:
        return entries[lo - 1]
    return None
