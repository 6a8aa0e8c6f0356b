"""A question that names a documented entry reads that entry, and what its body says counts as an
answer about it (docs/evidence.md, "Reference entries").

Why: asked "What is meant by mkstemp in Python's tempfile module?", the evidence agent was given
the module's description (it repeats "Python", "tempfile" and "module") and kept no claim; the
entry's body ("The return value is a pair (fd, name) …") never writes the name it documents.
"""

from __future__ import annotations

from pathlib import Path

from autodidact.evidence.collect import Doc
from autodidact.evidence.kq_research import _entry_spans

PAGE = (
    "Python Library Documentation: module tempfile\n\n"
    "DESCRIPTION\n    This module creates temporary files. Ex: tempfile.mkstemp() returns a pair.\n\n"
    "FUNCTIONS\n"
    "    mkdtemp(suffix=None, prefix=None, dir=None)\n"
    "        User-callable function to create and return a unique temporary directory.\n\n"
    "    mkstemp(suffix=None, prefix=None, dir=None, text=False)\n"
    "        User-callable function to create and return a unique temporary file.\n"
    "        The return value is a pair (fd, name) where fd is the file descriptor.\n\n"
    "        Caller is responsible for deleting the file when done with it.\n"
)


def test_the_entry_a_question_names_is_read_from_its_signature() -> None:
    doc = Doc("file:///tempfile.txt", "tempfile", "corpus", "ref", PAGE, "primary", "")
    spans = _entry_spans(doc, {"mkstemp"})
    assert len(spans) == 1
    read = PAGE[spans[0][0] : spans[0][1]]
    assert read.lstrip().startswith("mkstemp(") and "pair (fd, name)" in read and "mkdtemp" not in read
    assert _entry_spans(doc, {"tempfil"}) == []  # a word of the page is no entry
    assert _entry_spans(doc, set()) == []


def test_a_quote_from_an_entrys_body_is_about_that_entry(tmp_path: Path) -> None:
    from autodidact.wiki.compile.answers import RawLocator

    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "tempfile-functions.md").write_text(
        "# tempfile › Functions\n\n> 来源: file:///tempfile.txt\n\n" + PAGE.split("FUNCTIONS\n", 1)[1], "utf-8"
    )
    locator = RawLocator(raw)
    assert locator.entry("tempfile-functions.md", "The return value is a pair (fd, name)") == "mkstemp"
    assert locator.entry("tempfile-functions.md", "create and return a unique temporary directory") == "mkdtemp"
    assert locator.entry("tempfile-functions.md", "not in the file at all") == ""


def test_an_inherited_entry_printed_again_under_a_subclass_is_read_once(tmp_path: Path) -> None:
    """pydoc prints Thread's ``run()`` and its *target* paragraph again under Timer: read twice, they
    took the slots of the passage that answers how a thread is given its work."""
    from autodidact.evidence.collect import best_spans, opening
    from autodidact.testing.corpora import write_pydoc_module_corpus

    page = write_pydoc_module_corpus(tmp_path, ["threading"])[0]
    text = page.read_text(encoding="utf-8")
    doc = Doc(page.as_uri(), "threading", "corpus", "ref", text, "primary", "")
    entries = _entry_spans(doc, {"run"})
    assert text.count("run(self)\n") >= 2  # the page prints the entry under Thread and again under Timer
    assert len(entries) == 1 and "Method representing the thread's activity." in text[entries[0][0] : entries[0][1]]
    top, _ = best_spans(doc, [["target", "run"]], limit=4)
    openings = [opening(text[s:e]) for s, e in top]
    assert len(set(openings)) == len(openings) == 4
    assert any(o.startswith("class Thread(builtins.object)") for o in openings)


def test_other_members_entries_do_not_answer_for_the_asked_one(tmp_path: Path) -> None:
    """Asked "How do I start a thread?", the entries after start() ("ident  Thread identifier … or
    None if it has not been started.") share "start" and "thread" and came first; what start() goes
    on to say answers."""
    from autodidact.sources.plaintext import readable_plain
    from autodidact.testing.corpora import write_pydoc_module_corpus

    from .conftest import offline_quotes

    text = readable_plain(write_pydoc_module_corpus(tmp_path, ["threading"])[0].read_text(encoding="utf-8"))
    start = text.index("start(self)")
    end = text.index("\n", text.index("started", text.index("native_id", start)))
    quotes = offline_quotes("How do I start a thread?", [("threading", text[start - 200 : end + 1])])
    assert quotes[0].startswith("start(self)")
    assert any("It arranges for the object's run() method to be invoked" in q for q in quotes)
    assert not any(q.startswith(("ident", "native_id")) for q in quotes)
