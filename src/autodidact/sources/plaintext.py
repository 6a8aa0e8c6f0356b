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
from collections.abc import Callable

# Capital words at the left margin: "NAME", "MODULE REFERENCE", "SEE ALSO", "EXIT STATUS".
_CAPS_HEADING = re.compile(r"^[A-Z][A-Z0-9]+(?:[ _-][A-Z0-9]+){0,4}[ \t]*$")
_BAR = re.compile(r"^([ \t]*)\|(?=[ \t]|$)")
# A comment gutter down a block of text: pydoc shows a package's ``__init__`` comments as its
# DESCRIPTION ("    # This package is intended to duplicate the functionality (and much of" /
# "    # the API) of threading.py but uses processes instead of threads."); every "#" line read as a
# heading and cut the sentence in two, so the one line that says what the package is was never quoted.
_HASH = re.compile(r"^([ \t]*)#(?=[ \t]|$)")
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


def _hash_runs(lines: list[str]) -> set[int]:
    """Lines in runs of at least three comment-gutter lines ("# text", a bare "#")."""
    return _runs(lines, lambda line: _HASH.match(line) is not None)


def _bar_runs(lines: list[str]) -> set[int]:
    """Lines in runs of at least three margin-bar lines that are not table rows.

    A table row ends with its bar ("| a | b |"), or starts at the margin with several; a margin bar
    is followed by text that may hold a bar of its own ("     |      events -- bitwise mask of
    EVENT_READ|EVENT_WRITE"): counted as a table row, such a line broke pydoc's run of bars, and the
    rest of the entry kept its bars in every quote."""
    return _runs(lines, lambda line: _BAR.match(line) is not None and not _table_row(line))


def _table_row(line: str) -> bool:
    bars = line.count("|")
    return bars >= 2 and (line.rstrip().endswith("|") or (bars >= 3 and line.startswith("|")))


def _runs(lines: list[str], marked: Callable[[str], bool]) -> set[int]:
    out: set[int] = set()
    run: list[int] = []
    for i, line in enumerate([*lines, ""]):
        if marked(line):
            run.append(i)
            continue
        if len(run) >= _MIN_BAR_RUN:
            out.update(run)
        run = []
    return out


# pydoc's entry for one class inside CLASSES: "    class Condition(builtins.object)" followed by
# its margin-barred body. Each becomes a section of its own ("### class Condition"), so a question
# about Condition reads Condition's documentation, not the first part of a 60-class listing.
# An alias names the class it stands for: "    SocketType = class socket(builtins.object)" is class
# socket's entry (before, socket's methods were filed under the class listed above it, SocketKind).
_CLASS_ENTRY = re.compile(r"^ {4}(?:[A-Za-z_]\w* = )?class (?P<name>[A-Za-z_]\w*)\b[^|]*$")


# pydoc repeats, in every subclass, the documentation of each member it inherits ("Methods
# inherited from Handler:" … up to the next dashed rule) and lists the class's method resolution
# order. The base class's own section already says it; repeated, one docstring line ("Otherwise,
# use the default formatter for the module.") stood in every handler's section and answered five
# questions about formatters. Those blocks are left out.
_RULE = re.compile(r"^[ \t]*\|[ \t]+-{10,}[ \t]*$")
_INHERITED = re.compile(r"^[ \t]*\|[ \t]+[A-Z][\w ]* inherited from (?P<base>[\w.]+):[ \t]*$")
_MRO = re.compile(r"^[ \t]*\|[ \t]+Method resolution order:[ \t]*$")


def _inherited_blocks(lines: list[str], bars: set[int]) -> set[int]:
    """Lines of pydoc's inherited-member blocks and method-resolution-order lists (see above)."""
    out: set[int] = set()
    # Only a base class the page documents itself says it already: "inherited from
    # multiprocessing.process.BaseProcess" on the multiprocessing page is the only place `exitcode`
    # is documented there, and dropping it lost the answer to "what is a process's exit code?".
    # A base the page does not document is kept once, where it first appears, and left out after.
    documented = {m.group("name") for line in lines if (m := _CLASS_ENTRY.match(line))}
    # … and only from the page's own package: "inherited from collections.abc.MutableMapping" on
    # the configparser page is dict machinery ("D.get(k[,d]) -> D[k] if k in D, else d") that
    # crowded out ConfigParser.get's own entry.
    own = _page_package(lines)
    seen: set[str] = set()
    i = 0
    while i < len(lines):
        line = lines[i]
        inherited = _INHERITED.match(lines[i + 1]) if i + 1 < len(lines) else None
        header = lines[i + 1].strip(" \t|") if inherited else ""
        base = inherited.group("base").rsplit(".", 1)[-1] if inherited else ""
        full = inherited.group("base") if inherited else ""
        ours = "." not in full or (bool(own) and full.startswith(own + "."))  # a bare name is this module's
        first = bool(inherited) and ours and base not in documented and header not in seen
        seen.add(header)
        if i in bars and _RULE.match(line) and i + 1 in bars and inherited and not first:
            j = i + 1
            while j < len(lines) and j in bars and not (j > i + 1 and _RULE.match(lines[j])):
                j += 1
            out.update(range(i, j))
            i = j
            continue
        if i in bars and _MRO.match(line):
            j = i + 1
            while j < len(lines) and j in bars and lines[j].strip(" \t|"):
                j += 1
            out.update(range(i, j))
            i = j
            continue
        i += 1
    return out


_PAGE = re.compile(
    r"^Python Library Documentation: (?:module|package) (?P<name>[\w.]+)|^NAME\n\s+(?P<name2>[\w.]+)", re.M
)


def _page_package(lines: list[str]) -> str:
    """The top-level package a pydoc page documents ("multiprocessing"), or "" for other text."""
    found = _PAGE.search("\n".join(lines[:12]))
    name = (found.group("name") or found.group("name2")) if found else ""
    return name.split(".", 1)[0]


def _module_reference(lines: list[str]) -> set[int]:
    """The lines of a pydoc page's MODULE REFERENCE section: a link and the notice that the page is
    generated ("When in doubt, consult the module reference …"), on every page. Across three pages
    the index calls it furniture (docs/text.md); on a one-page corpus it was quoted eight times."""
    if not _page_package(lines):
        return set()
    start = next((i for i, line in enumerate(lines) if line.strip() == "MODULE REFERENCE"), None)
    if start is None:
        return set()
    end = next((j for j in range(start + 1, len(lines)) if _is_heading(lines, j)), len(lines))
    return set(range(start, end))


# An info file (Texinfo's output, what `info sed` reads): its nodes begin after a \x1f line with
# "File: sed.info,  Node: Overview,  Next: …"; its furniture is the makeinfo banner, the directory
# entry, menus ("* Overview:: Features of Wget.") and the tag table.
_INFO_MARK = re.compile(r"\x1f|^This is [\w.+-]+\.info, produced by makeinfo|^File: [\w.+-]+\.info,\s+Node:", re.M)
_INFO_NODE = re.compile(r"^File: [\w.+-]+\.info,\s+Node: ([^,\n]+)")
_INFO_FURNITURE = re.compile(
    r"^(?:\x1f.*|This is [\w.+-]+\.info, produced by makeinfo.*|INFO-DIR-SECTION.*|START-INFO-DIR-ENTRY.*|"
    r"END-INFO-DIR-ENTRY.*|\* Menu:.*|\* [^:\n]+::.*|\* [^:\n]+: \([\w.+-]+\).*|Tag Table:.*|End Tag Table.*|"
    r"Indirect:.*|[\w.+-]+\.info-\d+: \d+\s*|Node: [^\n]*\x7f\d+|Ref: [^\n]*\x7f\d+|"
    # an index node's entries ("* - and Unix rm:   rm invocation.   (line 113)", wrapped or not) and
    # its marker; any line a menu or index opens with "* " at the margin ("* NAME: NODE.")
    r"\s+\(line\s+\d+\)\s*|[\x00\x08]*\[index[\x00\x08]*\]\s*|\* [^\n]+?:\s+\S.*)$"
)
# A split manual's first file is little more than its tag table: "Tag Table:" (or "Indirect:"),
# "Node: NAME\x7fOFFSET" lines, "End Tag Table", then "Local Variables: … End:".
_INFO_TABLE = re.compile(r"^(?:Tag Table:|Local Variables:)\s*$")
_INFO_TABLE_END = re.compile(r"^(?:End Tag Table|End:)\s*$")
# A manual page's running header and footer: "FIND(1)  General Commands Manual  FIND(1)".
_MAN_RUNNING = re.compile(
    r"^\s*([A-Z][A-Z0-9_.-]*)\((\d\w*)\)\s.*\s\1\(\2\)\s*$"  # the header: the name at both margins
    r"|^(?:\S.*)?\s{10,}[A-Z][A-Z0-9_.-]*\(\d\w*\)\s*$"  # the footer: the name at the right margin
)


# The numbered title a Texinfo node prints under its "File:" line, underlined by its level's
# character: "21.1.1 Time conversion specifiers" over a row of "-".
_INFO_TITLE = re.compile(r"^(\d+(?:\.\d+)*)\.?[ \t]+(\S.*?)\s*$")
_INFO_UNDERLINE = re.compile(r"^([*=\-.])\1{2,}\s*$")


def _info_title(lines: list[str], node: int) -> tuple[str, int]:
    """The numbered title of the info node whose "File:" line is ``lines[node]`` ("21.1. ‘date’:
    Print or set system date and time") and the index of its underline; ("", node) when the node has
    no numbered title (the Top node, an index, an appendix).

    Why: a node's name says nothing of where it stands ("Time conversion specifiers", "Options for
    date"); its number does. With it a section's heading places it in its chapter as a numbered
    HTML manual's does (docs/sections.md, "Numbered sections"), so the sections of one tool in a
    manual of many ("21.1.x", under "21.1 ‘date’") are known as that tool's own. A chapter's
    number ("21 System context") gets the dot a numbered heading carries, so it reads as a number.
    """
    j = node + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    if j + 1 >= len(lines) or not _INFO_UNDERLINE.match(lines[j + 1]):
        return "", node
    found = _INFO_TITLE.match(lines[j])
    if found is None:
        return "", node
    return f"{found.group(1)}. {found.group(2)}", j + 1


def _without_page_furniture(lines: list[str]) -> list[str]:
    """The lines of an info file or a manual page without what every page of it carries: each info
    node's "File: …, Node: …" line becomes the node's ``##`` heading, and the banner, menus and tag
    table go; a manual page's running header and footer go.

    Why: a trial over sed's, wget's and find's manuals quoted "This is sed.info, produced by makeinfo
    version 6.8dev from sed.texi.", "INFO-DIR-SECTION Network applications START-INFO-DIR-ENTRY" and
    "FIND(1) General Commands Manual FIND(1)" as findings, and cited sections as "(16/40)".
    """
    info = bool(_INFO_MARK.search("\n".join(lines[:400])))
    out: list[str] = []
    skip = -1
    for i, line in enumerate(lines):
        if i <= skip:
            continue
        if info and _INFO_TABLE.match(line):
            # the tag table to its end, and Emacs's trailer: by now the cleaning took out the \x7f
            # between a node's name and its offset ("Node: Security Summary273712")
            # (no end line: only the opening line goes, never the rest of the manual)
            end = next((j for j in range(i + 1, len(lines)) if _INFO_TABLE_END.match(lines[j])), i)
            skip = end
            continue
        if info:
            node = _INFO_NODE.match(line)
            if node is not None:
                title, skip = _info_title(lines, i)
                out += ["", f"## {title or node.group(1).strip()}", ""]
                continue
            if _INFO_FURNITURE.match(line):
                continue
        if _MAN_RUNNING.match(line):
            continue
        out.append(line)
    return out


def readable_plain(text: str) -> str:
    """``text`` with man-page headings as ``## Heading`` lines, pydoc's class entries as
    ``### class Name`` sections, margin bars blanked, and an info file's or a manual page's furniture
    left out (its info nodes as ``## Node`` headings)."""
    lines = _without_page_furniture(text.split("\n"))
    bars = _bar_runs(lines)
    hashes = _hash_runs(lines)
    inherited = _inherited_blocks(lines, bars) | _module_reference(lines)
    out: list[str] = []
    for i, line in enumerate(lines):
        if i in inherited:
            continue
        entry = _CLASS_ENTRY.match(line) if i + 1 in bars else None
        if i in bars:
            line = _BAR.sub(lambda m: m.group(1) + " ", line, count=1)
        elif i in hashes:
            line = _HASH.sub(lambda m: m.group(1) + " ", line, count=1)
        elif entry is not None:
            line = f"\n### class {entry.group('name')}\n\n{line}"
        elif _is_heading(lines, i):
            words = line.strip().replace("_", " ")
            # The blank line below ends the heading's sentence, as after an HTML heading.
            line = "## " + words[:1] + words[1:].lower() + "\n"
        out.append(line)
    return "\n".join(out)
