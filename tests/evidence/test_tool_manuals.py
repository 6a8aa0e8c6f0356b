"""Several tools' manuals in one corpus: a topic done "with grep" reads grep's own manual, and a
manual's FAQ heading is no answer (evidence/agent.about_subject, text/topic.subject_tools;
docs/evidence.md)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from autodidact.config import Settings
from autodidact.evidence.agent import gather
from autodidact.evidence.payload import parse_payload
from autodidact.llm.runtime import Runtime
from autodidact.text.topic import subject_names, subject_tools

from .conftest import make_payload, offline_quotes

GREP = """# grep

## Matching Control

‘-i’
‘--ignore-case’
     Ignore case distinctions in patterns and input data, so that characters that differ only
     in case match each other.
"""

FIND = """# find

## Case-insensitive name matching

‘-iname PATTERN’
     Like -name, but the match is case-insensitive, so that case distinctions in the name are ignored.
     Combine find with grep to search the files it finds for a pattern.
"""


def test_the_tools_a_task_is_done_with_are_its_names() -> None:
    assert subject_tools("searching files with grep") == ["grep"]
    assert subject_tools("making and applying patches with diff and patch") == ["diff", "patch"]
    assert subject_tools("running external commands in Python with subprocess") == ["subprocess"]
    assert subject_tools("reading CSV files with Python's csv module") == []  # the kind word names it
    assert subject_tools("configuring networks with Debian") == []  # a capitalised name is no page to keep to
    assert subject_tools("displaying dates with the date command") == ["date"]
    assert subject_tools("editing a file with the ed line editor") == ["ed"]
    assert subject_tools("working with the filesystem") == []  # "the" names a tool only before "command", "tool" …
    # 「如何用 gzip 压缩和解压文件」: the subject opens with the tool (a trial's run cited wget's manual)
    assert subject_tools("gzip 文件压缩和解压") == ["gzip"]
    assert subject_tools("Debian 软件包管理") == []
    # 「如何用 find …，并用 sed …」: the subject lists both tools, and both name its pages
    assert subject_tools("find 和 sed") == ["find", "sed"]
    assert subject_names("find 和 sed") == ["find", "sed"]
    assert subject_names("Debian 软件包管理") == ["Debian"]
    # the tool a Chinese task is done with is what its pages name (a study of datetime read typing's)
    assert subject_names("datetime 日期和时间处理") == ["datetime"]


def _gathered(tmp_path: Path, manuals: dict[str, str], question: str, name: str, query: str) -> list[str]:
    """The quotes the offline research agent gathers for ``question`` over the ``manuals`` corpus."""
    from autodidact.sources.ingest import index_corpus

    corpus = tmp_path / "manuals"
    corpus.mkdir()
    for file, text in manuals.items():
        (corpus / file).write_text(text, encoding="utf-8")
    report = tmp_path / "report"
    index_corpus(report, [corpus], name="manuals")
    payload = make_payload(report, key_questions=[{"id": "kq1", "text": question}], name=name, query=query)
    result = asyncio.run(gather(parse_payload(payload), runtime=Runtime(), settings=Settings()))
    return [e.snippet for c in result.evidence.claims for e in c.evidence]


def test_a_topic_done_with_a_tool_reads_the_tools_own_manual(tmp_path: Path) -> None:
    quotes = _gathered(
        tmp_path,
        {"grep.md": GREP, "find.md": FIND},  # find's manual writes "grep" too
        "How do I ignore case distinctions when matching?",
        "grep",
        "How do I search files with grep: case-insensitive matching?",
    )
    assert quotes and all("-iname" not in q and "Like -name" not in q for q in quotes), quotes
    assert any("Ignore case distinctions in patterns" in q for q in quotes)


def test_a_question_in_the_manual_is_not_its_answer() -> None:
    faq = (
        "  5. How do I output context around the matching lines?\n\n"
        "‘-A NUM’\n‘--after-context=NUM’\n     Print NUM lines of trailing context after matching lines.\n\n"
        "‘-B NUM’\n‘--before-context=NUM’\n     Print NUM lines of leading context before matching lines.\n"
    )
    quotes = offline_quotes("How do I print context lines around each match?", [("grep", faq)])
    assert quotes and not any(q.rstrip().endswith("?") for q in quotes)
    assert any("trailing context" in q for q in quotes)


def test_the_outline_of_a_topic_done_with_grep_keeps_to_greps_manual(tmp_path: Path) -> None:
    """Over grep's, find's and sed's Info manuals, "case-insensitive and whole-word matching" found
    find's "Base Name Patterns", locate's invocation and sed's "Regexp Addresses" as its sections."""
    import pytest

    from autodidact.sources.ingest import index_corpus
    from autodidact.sources.outline import facet_outline

    manuals = [Path(f"/usr/share/info/{m}.gz") for m in ("grep.info", "find.info-1", "sed.info")]
    if not all(m.is_file() for m in manuals):
        pytest.skip("the GNU Info manuals of grep, find and sed are not installed")
    index_corpus(tmp_path, manuals, name="info")
    topic = "How do I search files with grep: case-insensitive and whole-word matching, context lines?"
    outline = facet_outline(tmp_path, [topic], "en")
    headings = {e.heading for e in outline}
    assert "Matching Control" in headings and "Context Line Control" in headings
    assert not headings & {"Base Name Patterns", "Invoking locate", "Regexp Addresses", "Concept Index"}


COREUTILS = """# coreutils

## 14.3. ‘stat’: Report file or file system status

‘-c FORMAT’
‘--format=FORMAT’
     Use FORMAT rather than the default format. The format string is printed with a newline
     after it, and its conversion specifiers start with a percent sign.

## 21. System context

This section describes commands that print or change system-wide information.

## 21.1. ‘date’: Print or set system date and time

If given an argument that starts with a plus sign, date prints the current date and time in the
format defined by that argument. Except for conversion specifiers, characters in the format
string are printed unchanged.

## 21.1.1. Time conversion specifiers

‘%H’
     hour (00...23); the format string conversion specifier for the hour.
"""


def test_a_manual_of_many_tools_answers_from_the_tools_own_sections(tmp_path: Path) -> None:
    """coreutils names no tool in its title: "stat"'s --format entry answered date's format strings
    (docs/evidence.md, "A tool's own sections")."""
    from autodidact.text.tool_sections import in_families, tool_families

    headings = [line[3:] for line in COREUTILS.splitlines() if line.startswith("## ")]
    families = tool_families(headings, ["date"])
    assert families == {"21.1"}
    assert [h for h in headings if in_families(h, families)] == headings[2:]
    # a manual that names date only as a word (find's "Date input formats") is not date's own
    assert tool_families(["6. Date input formats", "6.1. General date syntax"], ["date"]) == set()
    assert tool_families(["6. Date input formats", "7.1. date invocation"], ["date"]) == {"6", "7.1"}
    quotes = _gathered(
        tmp_path,
        {"coreutils.md": COREUTILS},
        "How is a format string with conversion specifiers printed?",
        "date",
        "How do I display dates with the date command: format strings and conversion specifiers?",
    )
    assert quotes and not any("Use FORMAT rather than the default" in q or "percent sign" in q for q in quotes), quotes
    assert any("printed unchanged" in q or "hour (00...23)" in q for q in quotes), quotes


def test_the_outline_of_the_date_command_keeps_to_dates_sections_of_coreutils(tmp_path: Path) -> None:
    """Over coreutils' Info manual, 「以 + 开头的格式字符串」 took "String tests", "stat invocation" and
    "Formatting the file names" as its sections."""
    import pytest

    from autodidact.sources.ingest import index_corpus
    from autodidact.sources.outline import facet_outline

    manual = Path("/usr/share/info/coreutils.info.gz")
    if not manual.is_file():
        pytest.skip("coreutils' Info manual is not installed")
    index_corpus(tmp_path, [manual], name="info")
    topic = "How do I display dates with the date command: format strings, conversion specifiers, UTC?"
    headings = {e.heading for e in facet_outline(tmp_path, [topic], "en")}
    assert headings, "no section found"
    assert not headings & {
        "String tests",
        "stat invocation",
        "Formatting the file names",
        "‘stat’: Report file or file system status",
    }
    assert any("date" in h.lower() or "conversion specifiers" in h.lower() for h in headings), headings
    assert not any(tool in h for h in headings for tool in ("‘printf’", "‘numfmt’", "‘od’", "‘stat’")), headings
    # Asked in Chinese: the glossary's words reach date's sections (searched deeper than dd's
    # "Convert and copy a file"), and a section goes to the facet its heading names most words of.
    zh = "如何用 date 命令显示日期：常用转换说明符（%Y、%m、%d），以及把日期转换成自 Epoch 以来的秒数？"
    found = {(e.facet, e.heading) for e in facet_outline(tmp_path, [zh], "zh")}
    assert ("常用转换说明符(%Y、%m、%d)", "Time conversion specifiers") in found, found


def test_a_word_in_a_list_of_quoted_names_is_not_what_the_sentence_is_about() -> None:
    """The demo answered "the working mechanism of Python generators" with the __future__ features'
    list, where "generators" is one of eight quoted names."""
    future = (
        'The list includes "absolute_import", "division", "generators", "generator_stop", "unicode_literals",'
        ' "print_function", "nested_scopes" and "with_statement". They are all redundant because they are'
        " always enabled, and only kept for backwards compatibility."
    )
    yielding = (
        "When a generator function is called, it returns an iterator known as a generator. That generator"
        " then controls the execution of the generator function."
    )
    question = "What are the core components and the working mechanism of Python generators?"
    assert not any("absolute_import" in q for q in offline_quotes(question, [("Future statements", future)]))
    quotes = offline_quotes(question, [("Future statements", future), ("Yield expressions", yielding)])
    assert any("returns an iterator known as a generator" in q for q in quotes), quotes


def test_the_entry_of_the_option_named_by_the_question_answers_it() -> None:
    """Over GnuPG's manual "How do I export and import public keys?" quoted '--export-ssh-key' and
    '--export-secret-keys', never '--export' itself: every entry there says "export" and "keys"."""
    import gzip

    import pytest

    manual = Path("/usr/share/info/gnupg.info-1.gz")
    text = gzip.decompress(manual.read_bytes()).decode("utf-8") if manual.is_file() else ""
    at = text.find("\n'--export'\n")
    if at < 0:
        pytest.skip("GnuPG's Info manual (with its '--export' entry) is not installed")
    commands = text[max(0, at - 6000) : at + 3000]
    quotes = offline_quotes("How do I export and import public keys?", [("Commands", commands)])
    assert any("mail those keys" in q or "exported keys are written" in q for q in quotes), quotes


def test_a_chinese_chain_of_tool_tasks_finds_each_tools_own_sections(tmp_path: Path) -> None:
    """「如何用 find 按名称和修改时间查找文件，并用 sed 批量替换文本？」 over GNU manuals found none of sed's
    sections: "find sed" searched together gave sixty hits of sed's manual and none of find's, the
    glossary's English words without "sed" found ed's "Substitute command", and 「修改」's three
    English words outweighed the rest of the facet (a fresh-eyes trial)."""
    import pytest

    from autodidact.sources.ingest import index_corpus
    from autodidact.sources.outline import facet_outline

    manuals = [Path("/usr/share/info") / n for n in ("sed.info.gz", "find.info.gz", "find.info-1.gz", "ed.info.gz")]
    if not all(m.is_file() for m in manuals):
        pytest.skip("sed's, find's and ed's Info manuals are not installed")
    index_corpus(tmp_path, manuals, name="info")
    topic = "如何用 find 按名称和修改时间查找文件，并用 sed 批量替换文本？"
    found = [(e.facet, e.heading) for e in facet_outline(tmp_path, [topic], "zh")]
    assert ("用 sed 批量替换文本", "The ‘s’ Command") in found, found
    assert any(f == "用 find 按名称和修改时间查找文件" and "Name" in h for f, h in found), found
    assert not any("Substitute command" in h for _f, h in found)  # ed's


WGET_ENTRY = """‘-m’
‘--mirror’
     Turn on options suitable for mirroring.  This option turns on
     recursion and time-stamping, sets infinite recursion depth and
     keeps FTP directory listings.

‘-p’
‘--page-requisites’
     This option causes Wget to download all the files that are
     necessary to properly display a given HTML page.
"""

WGET_TIP = """• If you wish Wget to keep a mirror of a page (or FTP subdirectories), use
     ‘--mirror’ (‘-m’), which is the shorthand for ‘-r -l inf -N’.  You can put Wget
     in the crontab file asking it to recheck a site each Sunday.
"""


def test_the_asked_options_own_entry_defines_it() -> None:
    """Asked "What does --mirror do?", the extractor quoted only a usage tip naming the option: the
    entry's first sentence opens with its option lines, and was tied to no entry (a fresh-eyes
    trial over wget's manual; docs/evidence.md, "Option entries")."""
    from .conftest import offline_quotes

    quotes = offline_quotes("What does --mirror do?", [("Advanced Usage", WGET_TIP), ("Recursive Options", WGET_ENTRY)])
    assert quotes and quotes[0].startswith("‘-m’ ‘--mirror’ Turn on options suitable for mirroring.")
    assert not any("page-requisites" in q for q in quotes)


WGET_MANUAL = (
    "# wget\n\n## Very Advanced Usage\n\n"
    + WGET_TIP
    + "\n   Mirroring such a site requires Wget to send the same cookies your\n"
    "browser sends when mirroring; when mirroring a remote site, mirror it weekly.\n\n"
    "## Time-Stamping\n\nOne of the most important aspects of mirroring information from the Internet\n"
    "is updating your archives; a mirror is kept current by time-stamping.\n\n"
    + "".join(
        f"## Mirroring Notes {n}\n\nA mirror of a site made by Wget in mirroring mode keeps the mirror's pages\n"
        f"as the mirrored site has them; mirroring {n} such sites, check each mirror weekly, since a\n"
        "mirror that is not refreshed stops being a mirror of the site it mirrors.\n\n"
        for n in range(1, 7)
    )
    + "## Recursive Retrieval Options\n\n"
    "‘-r’\n‘--recursive’\n     Turn on recursive retrieving.\n\n"
    "‘-l DEPTH’\n‘--level=DEPTH’\n     Set the maximum number of subdirectories that Wget will recurse into\n"
    "     to DEPTH.\n\n"
    "‘--delete-after’\n     This option tells Wget to delete every single file it downloads,\n"
    "     after having done so.\n\n" + WGET_ENTRY
)


def test_a_question_naming_an_option_reads_that_options_entry(tmp_path: Path) -> None:
    """Search ranks the passages that say "mirror" most above the entry of ‘--mirror’, whose
    description says it once; the agent read only those and quoted a usage tip (docs/evidence.md,
    "Reference entries")."""
    quotes = _gathered(
        tmp_path,
        {"wget.md": WGET_MANUAL},
        "What does --mirror do?",
        "wget",
        "How do I download files with wget: mirroring a site?",
    )
    assert any(q.startswith("‘-m’ ‘--mirror’ Turn on options suitable for mirroring.") for q in quotes), quotes


def test_a_tools_own_manual_is_searched_by_name_when_another_outranks_it(tmp_path: Path) -> None:
    """Over grep's and diff's manuals, "How do I show context lines?" found only diff's passages
    (its context format says the question's words throughout) and the grep study quoted diff. The
    question is searched again with the tool's name, and grep's own manual answers."""
    diff = "# diffutils\n\n" + "".join(
        f"## Context Format {n}\n\nThe context output format shows context lines around the lines that "
        f"differ; to show {n} context lines, give the number of context lines to show.\n\n"
        for n in range(1, 13)
    )
    grep = (
        "# grep\n\n## Context Line Control\n\n“Context lines” are non-matching lines that are near a matching"
        " line.\n\n‘-A NUM’\n‘--after-context=NUM’\n     Print NUM lines of trailing context after matching"
        " lines.\n\n## Usage\n\nThe grep command searches files for lines that match a pattern. grep prints"
        " each matching line.\n"
    )
    quotes = _gathered(
        tmp_path,
        {"diffutils.md": diff, "grep.md": grep},
        "How do I show context lines?",
        "grep",
        "How do I search files with grep: showing context lines?",
    )
    assert quotes and not any("differ" in q for q in quotes), quotes
    assert any("trailing context" in q or "near a matching line" in q for q in quotes)


def test_an_option_of_two_words_is_read_from_its_entry(tmp_path: Path) -> None:
    """ "What does grep --after-context do?" has one head ("context"): the entry's long name has two
    words, and the entry was not read until the question's literal named it."""
    grep = "# grep\n\n" + "".join(
        f"## Notes {n}\n\nWhen grep stops after NUM selected lines, it outputs any trailing context lines; "
        f"context lines after a match are shown {n} times.\n\n"
        for n in range(1, 8)
    )
    grep += (
        "## Context Line Control\n\n‘-A NUM’\n‘--after-context=NUM’\n     Print NUM lines of trailing context"
        " after matching lines.\n\n‘-B NUM’\n‘--before-context=NUM’\n     Print NUM lines of leading context"
        " before matching lines.\n"
    )
    quotes = _gathered(
        tmp_path, {"grep.md": grep}, "What does grep --after-context do?", "grep", "How do I search files with grep?"
    )
    assert quotes and quotes[0].startswith("‘-A NUM’ ‘--after-context=NUM’ Print NUM lines of trailing context")
