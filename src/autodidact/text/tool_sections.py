"""A tool's own sections in a manual of many tools (coreutils' date, sort and ls; busybox).

Why: "how to display dates with the date command" over coreutils' manual took "String tests",
"stat invocation" and "Formatting the file names" as its facets' sections and quoted them: the
manual's title names no tool, so nothing kept the research to date's pages. A numbered manual
places each tool's pages under one heading that names it ("21.1. ‘date’: Print or set system date
and time", then "21.1.1. Time conversion specifiers" …): those numbers are the tool's family, and
a section in one of them is the tool's own (docs/evidence.md, "A tool's own sections").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from autodidact.text.sections import SEPARATOR
from autodidact.text.tokens import terms

_NUMBER = re.compile(r"^\s*((?:\d+\.)*\d+)\.?\s+(.*)$")


def _numbered(heading: str) -> tuple[str, str] | None:
    """(number, words) of a numbered heading (the last step of a section path), or None."""
    found = _NUMBER.match(heading.split(SEPARATOR.strip())[-1])
    return (found.group(1), found.group(2)) if found else None


def _as_name(words: str, tool: str) -> bool:
    """Whether a heading's words name ``tool`` as a program: quoted or set as code (‘date’,
    `date`, "date"), first ("date invocation", "date: print the date"), or called a command."""
    t = re.escape(tool)
    return bool(
        re.search(rf"[‘'`\"“]{t}[’'`\"”]", words)
        or re.match(rf"{t}\b", words)
        or re.search(rf"\b{t}\s+(?:command|tool|utility|program)\b", words, re.I)
    )


def tool_families(headings: Iterable[str], tools: list[str]) -> frozenset[str]:
    """The numbers of the numbered headings that name one of ``tools``: {"21.1", "29"} of coreutils
    for ["date"] ("21.1. ‘date’: Print or set system date and time", "29. Date input formats").

    Only a document with a heading that names a tool as a program (:func:`_as_name`) has them:
    find's manual has a "Date input formats" chapter too, but no section of date's own, and its
    copy is not the one a research on the date command reads first."""
    wanted = {t for tool in tools for t in terms(tool)}
    out: set[str] = set()
    named = False
    for heading in headings:
        numbered = _numbered(heading)
        if numbered is not None and wanted & set(terms(numbered[1])):
            out.add(numbered[0])
            named = named or any(_as_name(numbered[1], tool) for tool in tools)
    return frozenset(out) if named else frozenset()


def in_families(heading: str, families: frozenset[str]) -> bool:
    """Whether the heading's number is one of ``families`` or under one ("21.1.6" under "21.1")."""
    numbered = _numbered(heading)
    if numbered is None:
        return False
    number = numbered[0]
    return any(number == f or number.startswith(f + ".") for f in families)
