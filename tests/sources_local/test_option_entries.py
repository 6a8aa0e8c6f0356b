"""A manual's option entries: each sentence of an option's description is about that option
(sources/options.py; docs/evidence.md "Option entries")."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from autodidact.sources.options import entry_at, option_entries

SED = Path("/usr/share/info/sed.info.gz")

MAN_PAGE = """GREP(1)                     General Commands Manual                    GREP(1)

OPTIONS
       -i, --ignore-case
              Ignore case distinctions in patterns and input data.

              Characters that differ only in case match each other.

       -A NUM, --after-context=NUM
              Print NUM lines of trailing context after matching lines.

       --color[=WHEN]
              Surround the matched strings with escape sequences.

   A paragraph of prose at the section's indent ends the last entry.
       -rw-r--r-- 1 root root 12 notes.txt
"""


def test_man_page_entries_run_from_their_option_line_to_the_next_line_at_its_indent() -> None:
    entries = option_entries(MAN_PAGE)
    assert [e.names for e in entries] == [("-i", "--ignore-case"), ("-A", "--after-context"), ("--color",)]
    second_paragraph = MAN_PAGE.index("Characters that differ")
    found = entry_at(entries, second_paragraph)
    assert found is not None and found.names == ("-i", "--ignore-case")
    assert entry_at(entries, MAN_PAGE.index("A paragraph of prose")) is None
    assert entry_at(entries, MAN_PAGE.index("-rw-r--r--")) is None  # a listing line is no option


def test_a_list_of_dashes_or_prose_is_no_entry() -> None:
    text = "Options:\n- first item\n- second item\n\n-1 is a number\n    indented prose below it\n"
    assert option_entries(text) == []  # "-1 is a number" is a sentence, not an option line
    assert option_entries("Plain prose with no options at all.\n    Indented.\n") == []


def _sed_text() -> str:
    from autodidact.sources.extract import extract_bytes

    if not SED.is_file():
        pytest.skip("sed's Info manual is not installed (/usr/share/info/sed.info.gz)")
    return extract_bytes(SED.read_bytes(), filename=SED.name).text


def test_seds_in_place_option_is_one_entry_with_its_later_paragraphs() -> None:
    text = _sed_text()
    entries = option_entries(text)
    backup = text.index("If no extension is supplied, the original file is overwritten")
    found = entry_at(entries, backup)
    assert found is not None and found.names == ("-i", "--in-place")
    assert "SUFFIX" in found.head
    assert any(e.names == ("-n", "--quiet", "--silent") for e in entries)
    assert all(not n.startswith("-FILE") for e in entries for n in e.names)  # "SCRIPT-FILE" is an argument


def test_a_passage_deep_in_an_option_entry_is_found_by_the_options_name(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    manual = (
        "This is demo.info, produced by makeinfo version 6.8 from demo.texi.\n\n"
        "\x1f\nFile: demo.info,  Node: Options,  Up: Top\n\n"
        "‘-i[SUFFIX]’\n‘--in-place[=SUFFIX]’\n"
        "     This option specifies that files are to be edited where they are.\n\n"
        + "".join(f"     Filler paragraph {n} says something long about unrelated matters here.\n\n" for n in range(14))
        + "     If no extension is supplied, the original file is overwritten without a copy.\n\n"
        "‘-n’\n     By default, every line is printed.\n"
    )
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "demo.info.gz").write_bytes(gzip.compress(manual.encode()))
    kb = tmp_path / "kb"
    assert cli("init", str(kb)).exit_code == 0
    assert cli("add", str(docs), "--kb", str(kb)).exit_code == 0
    hits = json.loads(cli("search", "in-place extension supplied", "--kb", str(kb), "--json").stdout)
    assert hits and "If no extension is supplied" in hits[0]["text"]


ENTRIES = (
    "‘-i[SUFFIX]’\n‘--in-place[=SUFFIX]’\n"
    "     This option specifies that files are to be edited by a temporary file.\n\n"
    "     The extension, if supplied, is used to make a backup copy of the old file.\n\n"
    "‘-n’\n‘--quiet’\n"
    "     Another option, whose description mentions a backup of the script only.\n"
)


def test_a_sentence_in_an_options_description_answers_a_question_about_the_option() -> None:
    """ "The extension, if supplied, is used to make a backup copy" never says "in place"; its
    entry's option lines do, and it answers. The same word in another option's entry does not."""
    from ..evidence.conftest import offline_quotes

    quotes = offline_quotes("How do I keep a backup when editing files in place?", [("sed", ENTRIES)])
    assert any("used to make a backup copy" in q for q in quotes), quotes
    assert not any("backup of the script" in q for q in quotes)


def test_a_question_naming_an_option_as_code_is_answered_from_its_description() -> None:
    """A question that writes "--in-place" keeps only sentences naming it; the sentences of the
    option's description name it by their entry."""
    from ..evidence.conftest import offline_quotes

    filler = "".join(f"     Step {n} of the edit writes the next line out.\n\n" for n in range(1, 6))
    long_entry = ENTRIES.replace("     The extension,", filler + "     The extension,")
    quotes = offline_quotes("What does sed --in-place do with the extension?", [("sed", long_entry)])
    assert quotes == ["The extension, if supplied, is used to make a backup copy of the old file."]


FIND_TESTS = """ -- Test: -name pattern
 -- Test: -iname pattern
     True if the base of the file name (the path with the leading
     directories removed) matches shell pattern PATTERN.  For '-iname',
     the match is case-insensitive.

     As an example, to find Texinfo source files in '/usr/local/doc':

          find /usr/local/doc -name '*.texi'

 -- Test: -mtime n
     True if the file's data was last modified N*24 hours ago.
"""


def test_a_texinfo_definition_of_an_option_is_an_option_entry() -> None:
    """find's manual defines its tests as " -- Test: -name pattern" with the body below: read as no
    entry, "find -name 是什么？" was answered with find's examples, never with what -name is."""
    from autodidact.sources.options import option_entries

    entries = option_entries(FIND_TESTS)
    assert [e.names for e in entries] == [("-name", "-iname"), ("-mtime",)]
    assert FIND_TESTS[entries[0].body_start :].lstrip().startswith("True if the base of the file name")
    assert "find /usr/local/doc" in FIND_TESTS[entries[0].body_start : entries[0].end]


def test_an_options_first_sentence_answers_what_it_is_before_its_examples() -> None:
    from autodidact.evidence.focus import literals

    from ..evidence.conftest import offline_quotes

    assert literals("find -name 是什么？") == ["-name"] and literals("What does wget -np do?") == ["-np"]
    assert literals("What is a well-known re-entrant lock?") == ["re-entrant"]  # no option
    quotes = offline_quotes("What does find -name do?", [("Base Name Patterns", FIND_TESTS)])
    assert quotes and "True if the base of the file name" in quotes[0], quotes
