"""A person's files the topic is not about are searched, not compiled whole (docs/loop.md).

Why: twenty-three module pages added before a research on unittest became twenty-three articles
("This article collects the key points about abc …"), and 75–85% of the wiki's citations quoted
pages the topic never named. A file about the topic is still compiled and asked about.
"""

from __future__ import annotations

import json
import pydoc
from collections.abc import Callable
from pathlib import Path

from autodidact.config import load_settings
from autodidact.kb import open_kb
from autodidact.llm.runtime import Runtime
from autodidact.loop.progress import RecordingReporter
from autodidact.loop.runner import research_sync
from autodidact.loop.state import load_state
from autodidact.sources.topic_files import files_about
from autodidact.wiki.common.articles import wiki_files

UNITTEST_TOPIC = "How do I write unit tests with unittest: test cases, setUp/tearDown and skipping tests?"
MODULES = ["unittest", "abc", "base64", "copy", "fnmatch", "glob", "hmac", "secrets", "uuid", "weakref"]


def _pages(raw: Path) -> list[str]:
    """The modules' pydoc pages, as `python -m pydoc NAME > NAME.txt` writes them."""
    names = []
    for module in MODULES:
        name = f"2026-12-07_{module}.txt"
        (raw / name).write_text(pydoc.render_doc(module, renderer=pydoc.plaintext), "utf-8")
        names.append(name)
    return names


def test_only_the_pages_the_topic_names_are_about_it(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    raw.mkdir()
    names = _pages(raw)
    assert files_about(tmp_path, raw, names, [UNITTEST_TOPIC], "en") == ["2026-12-07_unittest.txt"]
    assert files_about(tmp_path, raw, names, ["How do I encode bytes as base64 text?"], "en") == [
        "2026-12-07_base64.txt"
    ]
    # a note names the topic in a heading, not its title
    (raw / "notes.md").write_text("# My notes\n\n## Skipping tests\n\nMark them with a decorator.\n", "utf-8")
    assert files_about(tmp_path, raw, [*names, "notes.md"], [UNITTEST_TOPIC], "en")[-1] == "notes.md"
    assert files_about(tmp_path, raw, names, [""], "en") == names  # no topic: every file


def test_the_loop_compiles_the_file_about_the_topic_and_searches_the_rest(fresh_kb: Callable[[str], Path]) -> None:
    root = fresh_kb("kb")
    names = _pages(root / "raw")
    reporter = RecordingReporter()
    kb = open_kb(root)
    research_sync(
        kb, topic=UNITTEST_TOPIC, runtime=Runtime(), settings=load_settings(root), reporter=reporter, max_rounds=1
    )
    progress = json.loads((root / "outputs/rounds/round_1_progress.json").read_text("utf-8"))
    assert progress["material_raw_files"] == [n for n in names if "unittest" not in n]
    cited = {s for f in wiki_files(root / "wiki") for s in f.article.sources}
    assert "2026-12-07_unittest.txt" in cited  # compiled whole, as a person's file always was
    assert not cited & set(progress["material_raw_files"]) - _quoted(root)
    questions = (root / "outputs/rounds/round_1_questions.json").read_text("utf-8")
    assert "base64" not in questions and "“unittest”" in questions
    state = load_state(kb)
    assert state is not None and set(names) <= set(state.all_raw_files_processed)  # no "new material" next round
    notes = [text for kind, text in reporter.events if kind == "message" and "not about the topic" in str(text)]
    assert notes and "9 new file(s)" in str(notes[0])


def _quoted(root: Path) -> set[str]:
    """The raw files the round's evidence quoted: a searched page may answer a question."""
    evidence = json.loads((root / "outputs/rounds/round_1_evidence.json").read_text("utf-8"))
    return {Path(s["url"]).name for s in evidence["sources"]}


def test_a_topic_naming_its_module_is_not_about_pages_that_share_only_its_common_words(tmp_path: Path) -> None:
    """ "parsing files and strings" made urllib.parse's and html.parser's pages articles of a topic on
    xml.etree.ElementTree (a second fresh-eyes trial)."""
    raw = tmp_path / "raw"
    raw.mkdir()
    names = []
    for module in ["xml.etree.ElementTree", "html.parser", "urllib.parse", "email.message", "unicodedata", "io"]:
        name = f"2026-12-07_{module}.txt"
        (raw / name).write_text(pydoc.render_doc(module, renderer=pydoc.plaintext), "utf-8")
        names.append(name)
    topic = (
        "How do I parse, search and modify XML with xml.etree.ElementTree: parsing files and strings, "
        "finding elements with XPath, reading attributes, and writing the tree back?"
    )
    assert files_about(tmp_path, raw, names, [topic], "en") == ["2026-12-07_xml.etree.ElementTree.txt"]


def test_a_facets_words_must_stand_in_one_heading(tmp_path: Path) -> None:
    """A manual of a hundred headings says "show", "context" and "lines" somewhere among them;
    diffutils' manual became an article of a topic on grep's "showing context lines" (a fresh-eyes
    trial: 15 of 136 citations quoted diff's bug-report section)."""
    raw = tmp_path / "raw"
    raw.mkdir()
    body = "The comparison of two files is described here at some length, line by line. " * 8
    (raw / "diff.md").write_text(
        f"# diffutils\n\n## Showing Differences Side by Side\n\n{body}\n\n## Context Format\n\n{body}\n\n"
        f"## Incomplete Lines\n\n{body}\n",
        "utf-8",
    )
    (raw / "grep.md").write_text("# grep\n\n## Context Line Control\n\nText.\n", "utf-8")
    (raw / "notes.md").write_text("# My notes\n\n## Showing context lines\n\nText.\n", "utf-8")
    topic = "How do I search files with grep: case-insensitive matching and showing context lines?"
    assert files_about(tmp_path, raw, ["diff.md", "grep.md", "notes.md"], [topic], "en") == ["grep.md", "notes.md"]
