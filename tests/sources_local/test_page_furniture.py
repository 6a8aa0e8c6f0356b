"""An info file's and a manual page's furniture is no content; an info node is a section
(sources/plaintext.py, docs/sections.md "Plain text")."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from autodidact.sources.plaintext import readable_plain

INFO = (
    "This is demo.info, produced by makeinfo version 6.8 from demo.texi.\n\n"
    "INFO-DIR-SECTION Text creation and manipulation\nSTART-INFO-DIR-ENTRY\n"
    "* demo: (demo).                 Demo editor.\nEND-INFO-DIR-ENTRY\n\n"
    "\x1f\nFile: demo.info,  Node: Overview,  Next: Invoking,  Prev: Top,  Up: Top\n\n"
    "1 Overview\n**********\n\nThe -i option edits files in place.\n\n"
    "* Menu:\n\n* Invoking::      How to run it.\n\n"
    "\x1f\nFile: demo.info,  Node: Invoking,  Prev: Overview,  Up: Top\n\n"
    "A suffix makes a backup copy of the file, each ‘*’ replaced by its name.\n\n"
    "\x1f\nTag Table:\nNode: Overview\x7f312\nNode: Invoking\x7f540\n\x1f\nEnd Tag Table\n"
)


def test_an_info_sections_number_places_it_in_its_chapter() -> None:
    """coreutils' "Time conversion specifiers" is 21.1.1, under "21.1 ‘date’: …": the number is what
    tells a section of date's from one of sort's in a manual of many tools."""
    node = "\x1f\nFile: cu.info,  Node: {name},  Up: {up}\n\n{title}\n{rule}\n\n{body}\n\n"
    text = readable_plain(
        "This is cu.info, produced by makeinfo version 6.8 from cu.texi.\n\n"
        + node.format(
            name="date invocation",
            up="System context",
            title="21.1 ‘date’: Print or set system date",
            rule="=" * 38,
            body="The ‘date’ command displays the date and time.",
        )
        + node.format(
            name="Time conversion specifiers",
            up="date invocation",
            title="21.1.1 Time conversion specifiers",
            rule="-" * 33,
            body="‘%H’ hour (‘00’...‘23’)",
        )
        + node.format(name="Top", up="(dir)", title="Not a title", rule="", body="Top text.")
    )
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == ["## 21.1. ‘date’: Print or set system date", "## 21.1.1. Time conversion specifiers", "## Top"]
    assert "Not a title" in text  # no underline below it: a line of the node's text


def test_an_info_files_nodes_are_sections_and_its_furniture_goes() -> None:
    text = readable_plain(INFO)
    # a node with a numbered title is headed by it (and the title is not repeated); one without by its name
    assert "## 1. Overview" in text and "## Invoking" in text
    assert "**********" not in text and "\n1 Overview" not in text
    assert "The -i option edits files in place." in text and "each ‘*’ replaced by its name" in text
    for furniture in (
        "makeinfo",
        "INFO-DIR-SECTION",
        "START-INFO-DIR-ENTRY",
        "* Menu:",
        "Invoking::",
        "Tag Table",
        "\x1f",
    ):
        assert furniture not in text, furniture


def test_an_info_files_index_and_menus_go() -> None:
    """The index node of coreutils' manual is 190,000 characters of "* - and Unix rm:  rm
    invocation.  (line 113)": quoted as findings they read "- and Unix rm: rm invocation."."""
    index = (
        "\x1f\nFile: demo.info,  Node: Concept index,  Prev: Invoking,  Up: Top\n\n"
        "Index\n*****\n\n\x00\x08[index\x00\x08]\n* Menu:\n\n"
        "* - and Unix rm:                         rm invocation.       (line 113)\n"
        "* -, removing files beginning with:      rm invocation.       (line 101)\n"
        "* access timestamp, printing or sorting files by: Sorting the output.\n"
        "                                                              (line  12)\n"
        "* Overview: Overview.                   What it is.\n"
    )
    text = readable_plain(INFO.replace("\x1f\nTag Table:", index + "\x1f\nTag Table:"))
    assert "## Concept index" in text and "The -i option edits files in place." in text
    for furniture in ("Unix rm", "removing files", "access timestamp", "(line", "[index", "What it is"):
        assert furniture not in text, furniture


def test_a_manual_pages_running_header_and_footer_go() -> None:
    page = (
        "FIND(1)                     General Commands Manual                    FIND(1)\n\nNAME\n"
        "       find - search for files in a directory hierarchy\n\n"
        "                                                                       FIND(1)\n"
    )
    text = readable_plain(page)
    assert "General Commands Manual" not in text and "FIND(1)" not in text
    assert "find - search for files in a directory hierarchy" in text
    prose = "See find(1) for more.\n"
    assert readable_plain(prose) == prose  # a reference in a sentence is no running header


def test_text_without_such_marks_is_unchanged_by_them() -> None:
    text = "* Overview:: is how a reST note may start.\n\nSome prose follows here.\n"
    assert "* Overview::" in readable_plain(text)  # not an info file: its lines are kept


@pytest.mark.skipif(not Path("/usr/share/info/sed.info.gz").is_file(), reason="sed's info manual is not installed")
def test_seds_own_info_manual_reads_as_sections_of_prose() -> None:
    text = readable_plain(gzip.decompress(Path("/usr/share/info/sed.info.gz").read_bytes()).decode("utf-8"))
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert "## 2.1. Overview" in headings and len(headings) > 20
    assert "produced by makeinfo" not in text and "INFO-DIR-SECTION" not in text and "\x1f" not in text


def test_a_split_manuals_parts_read_through_extraction() -> None:
    """Read the way `add` reads them (cleaned of control characters first): the first file of a
    split manual was its tag table ("Node: Security Summary273712", the \\x7f gone), cited as a
    document; the part holding the index was refused as binary data for its NUL-marked entries."""
    from autodidact.sources.extract import extract_bytes

    first = (
        INFO.split("\x1f\nFile:")[0] + "\x1f\nIndirect:\ndemo.info-1: 1201\n" + INFO[INFO.index("\x1f\nTag Table") :]
    )
    first = first.replace("\n\nINFO-DIR", "\n\nThis manual documents demo 1.0.\n\nINFO-DIR", 1)
    first += "\x1f\nLocal Variables:\ncoding: utf-8\nEnd:\n"
    text = extract_bytes(gzip.compress(first.encode("utf-8")), filename="demo.info.gz").text
    assert "Node:" not in text and "Tag Table" not in text and "coding: utf-8" not in text
    index = (
        "\x1f\nFile: demo.info,  Node: Index,  Prev: Invoking,  Up: Top\n\nIndex\n*****\n\n\x00\x08[index\x00\x08]\n"
    )
    index += "* Menu:\n\n* -i option:                             Overview.             (line 6)\n"
    part = INFO.split("\x1f\nFile:")[0] + index
    text = extract_bytes(part.encode("utf-8"), filename="demo.info-2").text
    assert "## Index" in text and "\x00" not in text and "(line 6)" not in text


@pytest.mark.skipif(not Path("/usr/share/info/find.info.gz").is_file(), reason="find's info manual is not installed")
def test_finds_split_manual_is_read_part_by_part() -> None:
    from autodidact.sources.extract import extract_bytes

    pointer = extract_bytes(Path("/usr/share/info/find.info.gz").read_bytes(), filename="find.info.gz").text
    assert "Node:" not in pointer and len(pointer) < 2000
    for part in sorted(Path("/usr/share/info").glob("find.info-*.gz")):
        assert extract_bytes(part.read_bytes(), filename=part.name).text  # none refused
