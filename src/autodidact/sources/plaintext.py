"""Plain text as the rest of the pipeline reads it: man-page headings and margin bars made plain.

Why: plain-text documentation (``pydoc`` output, manual pages, RFC-like notes) marks its
structure with conventions markdown does not know. A heading is a line of capitals at the left
margin with an indented body below (``DESCRIPTION``, ``CLASSES``, ``FUNCTIONS``); read as text,
the heading was glued to the first sentence below it ("DESCRIPTION Logging package for Python")
and the document had no sections. ``pydoc`` also draws a bar down the left of each class body
(``     |  Handler instances dispatch…``); a line that starts with ``|`` reads as a table row, so
every line of those paragraphs ended a sentence. This module turns such headings into ``##``
headings (in sentence case) and blanks the bars, so sections, sentences and quotes come out as
they do for HTML and markdown (docs/sections.md, "Plain text").
"""

from __future__ import annotations

import re

# Capital words at the left margin: "NAME", "MODULE REFERENCE", "SEE ALSO", "EXIT STATUS".
_CAPS_HEADING = re.compile(r"^[A-Z][A-Z0-9]+(?:[ _-][A-Z0-9]+){0,4}[ \t]*$")
_BAR = re.compile(r"^([ \t]*)\|(?=[ \t]|$)")
_MIN_BAR_RUN = 3


def _indented(line: str) -> bool:
    return line[:1] in (" ", "\t") and bool(line.strip())


def _is_heading(lines: list[str], i: int) -> bool:
    """A capitals line with a blank (or nothing) above it and an indented line below."""
    if not _CAPS_HEADING.match(lines[i]) or sum(ch.isalpha() for ch in lines[i]) < 3:
        return False
    if i > 0 and lines[i - 1].strip():
        return False
    below = next((ln for ln in lines[i + 1 :] if ln.strip()), "")
    return _indented(below)


def _bar_runs(lines: list[str]) -> set[int]:
    """Lines in runs of at least three margin-bar lines that are not table rows (one bar only)."""
    out: set[int] = set()
    run: list[int] = []
    for i, line in enumerate([*lines, ""]):
        if _BAR.match(line) and line.count("|") == 1:
            run.append(i)
            continue
        if len(run) >= _MIN_BAR_RUN:
            out.update(run)
        run = []
    return out


# pydoc's entry for one class inside CLASSES: "    class Condition(builtins.object)" followed by
# its margin-barred body. Each becomes a section of its own ("### class Condition"), so a question
# about Condition reads Condition's documentation, not the first part of a 60-class listing.
_CLASS_ENTRY = re.compile(r"^ {4}class (?P<name>[A-Za-z_]\w*)\b[^|]*$")


def readable_plain(text: str) -> str:
    """``text`` with man-page headings as ``## Heading`` lines, pydoc's class entries as
    ``### class Name`` sections, and margin bars blanked."""
    lines = text.split("\n")
    bars = _bar_runs(lines)
    out: list[str] = []
    for i, line in enumerate(lines):
        entry = _CLASS_ENTRY.match(line) if i + 1 in bars else None
        if i in bars:
            line = _BAR.sub(lambda m: m.group(1) + " ", line, count=1)
        elif entry is not None:
            line = f"\n### class {entry.group('name')}\n\n{line}"
        elif _is_heading(lines, i):
            words = line.strip().replace("_", " ")
            # The blank line below ends the heading's sentence, as after an HTML heading.
            line = "## " + words[:1] + words[1:].lower() + "\n"
        out.append(line)
    return "\n".join(out)
