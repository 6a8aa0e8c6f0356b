"""Page furniture: a sentence on many pages of a corpus is never quoted (text/furniture.py,
sources/passage_index.py src_common, evidence/extract_task.py quotable_sentences; docs/text.md)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from autodidact.config import Settings
from autodidact.evidence.agent import GatherResult, gather
from autodidact.evidence.payload import parse_payload
from autodidact.sources.passage_index import LocalIndex
from autodidact.sources.snapshots import SnapshotStore, local_url
from autodidact.store.derived_db import index_path
from autodidact.text.furniture import is_furniture, sentence_key, sentence_keys

from .conftest import make_payload

NOTICE = (
    "The following documentation about logging handlers is automatically generated from the source "
    "files and may be incomplete."
)
PAGES = {
    "handlers.txt": f"{NOTICE}\n\nA stream handler sends logging output to streams such as sys.stdout.\n",
    "files.txt": f"{NOTICE}\n\nA file handler sends logging output to a disk file that it opens.\n",
    "sockets.txt": f"{NOTICE}\n\nA socket handler sends logging output to a network socket.\n",
    "memory.txt": "A memory handler buffers logging records in memory and flushes them to a target handler.\n",
}


def run(payload: dict[str, Any]) -> GatherResult:
    from autodidact.llm.runtime import Runtime

    return asyncio.run(gather(parse_payload(payload), runtime=Runtime(), settings=Settings()))


def test_sentence_keys_ignore_case_and_spacing_and_skip_short_sentences() -> None:
    assert sentence_key("The  Quick\nbrown fox") == sentence_key("the quick brown fox")
    assert sentence_keys("See also.\n\nNote the end.") == set()  # too short to be worth counting
    assert sentence_keys(NOTICE) == {sentence_key(NOTICE)}
    furniture = frozenset({sentence_key(NOTICE)})
    assert is_furniture(NOTICE.upper(), furniture)
    # a quote that joined the notice to its neighbour is still furniture
    assert is_furniture(NOTICE + " A stream handler sends output.", furniture)
    assert not is_furniture("A stream handler sends logging output to streams.", furniture)


def _index(root: Path, pages: dict[str, str]) -> LocalIndex:
    store = SnapshotStore.for_folder(root)
    index = LocalIndex(root)
    for name, text in pages.items():
        snap, _ = store.store(local_url("corpus/pydoc", name), text)
        index.add_document(snap, text, "", "corpus")
    return index


def test_the_index_counts_documents_per_sentence(tmp_path: Path) -> None:
    two = dict(list(PAGES.items())[:2])
    index = _index(tmp_path / "two", two)
    assert index.furniture() == frozenset()  # two pages sharing a sentence may both quote it
    index.close()
    index = _index(tmp_path / "all", PAGES)
    assert index.furniture() == frozenset({sentence_key(NOTICE)})
    index.rebuild()
    assert index.furniture() == frozenset({sentence_key(NOTICE)})
    index.close()


def test_an_index_written_before_the_counts_is_rebuilt_on_opening(tmp_path: Path) -> None:
    _index(tmp_path, PAGES).close()
    conn = sqlite3.connect(index_path(tmp_path))
    with conn:
        conn.execute("DELETE FROM src_common")  # what an index of an older version holds
    conn.close()
    index = LocalIndex(tmp_path)
    assert index.furniture() == frozenset({sentence_key(NOTICE)})
    index.close()


def test_the_extractor_never_quotes_the_notice_every_page_carries(tmp_path: Path) -> None:
    from autodidact.sources.ingest import index_corpus

    corpus = tmp_path / "pydoc"
    corpus.mkdir()
    for name, text in PAGES.items():
        (corpus / name).write_text(text, encoding="utf-8")
    report = tmp_path / "report"
    index_corpus(report, [corpus], name="pydoc")
    # The notice shares more words with the question than any page's own sentence does.
    kqs = [{"id": "kq1", "text": "Which documentation about logging handlers is generated from the source files?"}]
    ev = run(make_payload(report, key_questions=kqs, name="logging handlers")).evidence.to_json()
    quotes = [e["snippet"] for c in ev["claims"] for e in c["evidence"]]
    assert quotes, "the pages' own sentences still answer"
    assert not any("automatically generated" in q for q in quotes)


def test_a_sentence_one_document_repeats_under_every_entry_is_furniture(tmp_path: Path) -> None:
    """pydoc's "See help(type(self)) for accurate signature." stands under every class without a
    docstring; a one-page corpus has no second page to show it is a template's."""
    boiler = "Initialize self.  See help(type(self)) for accurate signature."
    entry = "class C{i}\n    C{i}(x)\n\n    {boiler}\n\n    C{i} does thing number {i} well.\n\n"
    page = "".join(entry.format(i=i, boiler=boiler) for i in range(6))
    index = _index(tmp_path, {"one.txt": page})
    furniture = index.furniture()
    assert is_furniture(boiler, furniture)
    assert not is_furniture("C1 does thing number 1 well.", furniture)
    index.close()
    twice = "".join(f"    {boiler}\n\n    Entry {i} says something else entirely.\n\n" for i in range(2))
    index = _index(tmp_path / "b", {"one.txt": twice})
    assert not index.furniture()  # said twice is not a template
    index.close()
