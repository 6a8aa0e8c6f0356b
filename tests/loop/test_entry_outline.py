"""The reference entries a facet's answer needs by name become "What does X do?" questions
(sources/entry_outline.py, questions/candidates.entry_candidates; docs/questions.md, "Entry questions")."""

from __future__ import annotations

from pathlib import Path

import pytest

from autodidact.kb import init_kb
from autodidact.questions.candidates import ENTRIES_PER_FACET, entry_candidates, entry_question
from autodidact.questions.generate import select_questions
from autodidact.questions.models import EntryRef, HistoryItem, QuestionerInputs
from autodidact.sources.entry_outline import facet_entries, name_words, section_entries
from autodidact.sources.ingest import index_corpus
from autodidact.testing.corpora import write_pydoc_module_corpus

UNITTEST = "How do I write and run unit tests with unittest: test cases, assertions, setUp/tearDown and skipping tests?"


@pytest.fixture(scope="module")
def unittest_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """unittest's pydoc page among other module pages that name it (unittest.mock, doctest)."""
    corpus = tmp_path_factory.mktemp("modules")
    write_pydoc_module_corpus(corpus, ["unittest", "unittest.mock", "doctest", "glob", "socket"])
    kb, _ = init_kb(tmp_path_factory.mktemp("kb") / "kb", topic=UNITTEST, lang="en")
    index_corpus(kb.root, [corpus], name="modules")
    return kb.root


def test_each_facet_gets_the_entries_its_words_name(unittest_kb: Path) -> None:
    found: dict[str, list[str]] = {}
    qualified: set[str] = set()
    for entry in facet_entries(unittest_kb, [UNITTEST], "en"):
        found.setdefault(entry.facet, []).append(entry.name.rsplit(".", 1)[-1])
        qualified.add(f"{entry.place}:{entry.name}")
    # each is asked with its owner: "expand" alone was answered from textwrap's page, not re's; a
    # module's function with its module as a place
    assert {":TestCase.assertRaises", "unittest:skipIf"} <= qualified
    # "assertions" is answered by the assert methods, "skipping tests" by skip() and skipIf()
    assert {"assertEqual", "assertRaises"} <= set(found["assertions"])
    assert {"skip", "skipIf"} <= set(found["skipping tests"])
    assert "setUp" in found["setUp/tearDown"]
    # the subject's own page, not the pages that name it in passing: mock's assert_called_with is
    # not a unit test's assertion here while unittest's own page lists assert methods
    assert not any(name.startswith("assert_") for name in found["assertions"])
    # an entry goes to one facet; no facet gets more than its share
    names = [n for ns in found.values() for n in ns]
    assert len(names) == len(set(names))
    assert all(len(ns) <= 4 for ns in found.values())


def test_no_index_no_entries(tmp_path: Path) -> None:
    assert facet_entries(tmp_path, [UNITTEST], "en") == []


def test_entries_of_the_three_manual_forms() -> None:
    pydoc = (
        "     |  assertRaises(self, expected_exception, *args, **kwargs)\n"
        "     |      Fail unless an exception of class expected_exception is raised\n"
        "     |      by the callable when invoked with specified positional and\n"
    )
    info = "‘-m’\n‘--mirror’\n     Turn on options suitable for mirroring.  This option turns on\n     recursion.\n"
    texinfo = (
        " -- Test: -name pattern\n -- Test: -iname pattern\n"
        "     True if the base of the file name matches shell pattern PATTERN.\n"
    )
    got = {f.name: f for text in (pydoc, info, texinfo) for f in section_entries(text)}
    assert set(got) == {"assertRaises", "--mirror", "-name"}  # -iname is defined with -name: one entry
    assert got["assertRaises"].description.startswith("Fail unless an exception of class expected_exception")
    assert got["--mirror"].description == "Turn on options suitable for mirroring"  # its first sentence
    assert "base of the file name" in got["-name"].description
    assert {"assert", "raises"} <= name_words("assertRaises")
    assert {"no", "parent"} <= name_words("--no-parent")


def _inputs(entries: list[EntryRef], asked: list[str] | None = None) -> QuestionerInputs:
    return QuestionerInputs(
        topic=UNITTEST,
        round=2,
        language="en",
        entries=entries,
        history=[HistoryItem(id=f"r1q{i + 1}", text=t) for i, t in enumerate(asked or [])],
    )


ENTRIES = [
    EntryRef(facet="assertions", name="assertEqual"),
    EntryRef(facet="assertions", name="assertRaises"),
    EntryRef(facet="assertions", name="assertTrue"),
    EntryRef(facet="skipping tests", name="skip"),
    EntryRef(facet="skipping tests", name="skipIf"),
]


def test_entry_questions_take_turns_across_facets_and_skip_what_was_asked() -> None:
    got = [(c.facet, c.text) for c in entry_candidates(_inputs(ENTRIES, ["What does assertEqual do?"]))]
    assert got == [
        ("assertions", "What does assertRaises do?"),
        ("skipping tests", "What does skip do?"),
        ("assertions", "What does assertTrue do?"),
        ("skipping tests", "What does skipIf do?"),
    ]
    assert sum(1 for f, _ in got if f == "assertions") == ENTRIES_PER_FACET
    assert entry_question("--mirror", "zh") == "--mirror 是什么？"  # as the round writes it (tidy)
    assert entry_question("wait", "en", "concurrent.futures") == "What does wait do in concurrent.futures?"
    assert entry_question("sub", "zh", "re") == "re 中的 sub 是什么？"


def test_entry_questions_survive_the_filters_though_they_name_no_word_of_the_topic() -> None:
    # "What does assertRaises do?" shares no key term with the topic; it was found for a facet
    chosen = select_questions(_inputs(ENTRIES), entry_candidates(_inputs(ENTRIES)))
    texts = [q.text for q in chosen.questions]
    assert "What does assertRaises do?" in texts and "What does skipIf do?" in texts
    assert not chosen.off_topic_questions
    facets = {q.text: q.facet for q in chosen.questions}
    assert facets["What does skipIf do?"] == "skipping tests"


def test_a_chinese_rounds_entry_questions_are_not_dropped_as_off_topic() -> None:
    """A Chinese round writes 「setLevel 是什么？」 (tidy), and the untidied 「setLevel是什么？」 no longer
    matched the entries found, so every entry question of a Chinese topic was dropped as off topic."""
    topic = "如何用 logging 模块记录日志：日志级别、处理器和格式化器？"
    entries = [EntryRef(facet="日志级别", name="setLevel"), EntryRef(facet="处理器", name="FileHandler")]
    inputs = QuestionerInputs(topic=topic, round=2, language="zh", entries=entries)
    chosen = select_questions(inputs, entry_candidates(inputs))
    assert {q.text for q in chosen.questions} >= {"setLevel 是什么？", "FileHandler 是什么？"}
    assert not chosen.off_topic_questions


MANUAL = """# coreutils

## 5.3. ‘split’: Split a file into pieces

‘split’ creates output files containing consecutive or interleaved sections of INPUT.

‘-l LINES’
‘--lines=LINES’
     Put LINES lines of INPUT into each output file.  The lines are counted as they are read.

‘-a LENGTH’
‘--suffix-length=LENGTH’
     Use suffixes of length LENGTH.  The suffix names each output file.

## 6.1. ‘wc’: Print newline, word, and byte counts

‘wc’ counts the lines, words and bytes of each file.

‘-L’
‘--max-line-length’
     Print only the maximum display widths of the lines.  Tabs count to the next stop.

‘-l’
‘--lines’
     Print only the newline counts of the lines of each file.
"""


def test_options_in_a_manual_of_many_tools_are_the_asked_tools_own(tmp_path: Path) -> None:
    """Over coreutils, a topic on split asked about ls's --quote-name and wc's --max-line-length, and
    the answer quoted split's --suffix-length for wc's option (a fresh-eyes trial). An option is
    asked with its tool, and only from the tool's own sections."""
    corpus = tmp_path / "docs"
    corpus.mkdir()
    (corpus / "coreutils.md").write_text(MANUAL, "utf-8")
    topic = "How do I split a file into pieces with split: splitting by lines, naming the output files?"
    kb, _ = init_kb(tmp_path / "kb", topic=topic, lang="en")
    index_corpus(kb.root, [corpus], name="docs")
    names = {e.name for e in facet_entries(kb.root, [topic], "en")}
    assert "split --lines" in names
    assert not any("max-line-length" in n or n == "--lines" or n.startswith("wc") for n in names)


def test_a_chinese_subject_done_with_a_tool_keeps_to_its_pages(tmp_path: Path) -> None:
    """「如何用 datetime 处理日期和时间」 names no module but is done with one (its tool): before, every
    page's entries were read, and 「typing 中的 create_model 是什么？」 was asked (a fresh-eyes trial)."""
    corpus = tmp_path / "modules"
    corpus.mkdir()
    write_pydoc_module_corpus(corpus, ["datetime", "typing", "weakref", "string"])
    topic = "如何用 datetime 处理日期和时间：创建日期对象、格式化和解析日期字符串？"
    kb, _ = init_kb(tmp_path / "kb", topic=topic, lang="zh")
    index_corpus(kb.root, [corpus], name="modules")
    documents = {e.document for e in facet_entries(kb.root, [topic], "zh")}
    assert documents == {"datetime"}, documents
