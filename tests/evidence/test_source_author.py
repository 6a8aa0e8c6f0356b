"""A web page's author reaches the evidence source and the references (evidence/collect.py,
evidence/assemble.py, report/references.py; docs/writing.md "References")."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from types import SimpleNamespace

from autodidact.evidence.collect import Collector
from autodidact.sources.extract import extract_bytes
from autodidact.store.derived_db import index_path

PAGE = b"""<html><head><title>Reentrant locks</title><meta name="author" content="Ada Lovelace">
<meta name="date" content="2024-05-01"></head><body><article><h1>Reentrant locks</h1>
<p>A reentrant lock must be released by the thread that acquired it, once for each acquisition.</p>
<p>Once a thread has acquired a reentrant lock, the same thread may acquire it again without blocking.</p>
</article></body></html>"""


async def _fetch(url: str) -> SimpleNamespace:
    return SimpleNamespace(extracted=extract_bytes(PAGE, media_type="text/html", url=url))


def _read(report: Path) -> tuple[str | None, str | None]:
    async def go() -> tuple[str | None, str | None]:
        collector = Collector(report, None, providers=[object()], fetch_document=_fetch)
        try:
            doc = await collector.read_web("https://example.org/locks", "locks")
            await collector.flush()
            assert doc is not None
            return doc.author, doc.published_at
        finally:
            collector.close()

    return asyncio.run(go())


def test_a_pages_author_is_kept_and_read_again_from_the_cache(tmp_path: Path) -> None:
    report = tmp_path / "rep"
    # A cache written before authors were kept: the column is added, nothing is lost.
    index_path(report).parent.mkdir(parents=True)
    with sqlite3.connect(index_path(report)) as db:
        db.execute(
            "CREATE TABLE evidence_doc_meta (snapshot_ref TEXT PRIMARY KEY, url TEXT NOT NULL, "
            "title TEXT NOT NULL, published_at TEXT, media_type TEXT)"
        )
    assert _read(report) == ("Ada Lovelace", "2024-05-01")
    assert _read(report) == ("Ada Lovelace", "2024-05-01")  # the second read comes from the snapshot store


def test_a_local_documents_author_and_date_reach_the_evidence_sources(tmp_path: Path) -> None:
    """A corpus page's own metadata is kept at ingest (the index's manifest line) and cited with
    the claim, as a fetched page's is: a report's references name who wrote it and when."""
    import json

    from autodidact.config import Settings
    from autodidact.evidence.agent import gather
    from autodidact.evidence.payload import parse_payload
    from autodidact.llm.runtime import Runtime
    from autodidact.sources.ingest import index_corpus
    from autodidact.sources.passage_index import manifest_entries

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "locks.html").write_bytes(PAGE)
    (corpus / "plain.md").write_text("# Queues\n\nA queue hands items from producers to consumers.\n", "utf-8")
    report = tmp_path / "rep"
    index_corpus(report, [corpus], name="manual")
    lines = {str(e["title"]): e for e in manifest_entries(report)}
    assert lines["Reentrant locks"]["author"] == "Ada Lovelace"
    assert lines["Reentrant locks"]["published_at"] == "2024-05-01"
    assert "author" not in lines["Queues"]  # a file with no metadata gets no empty field
    payload = {
        "query": "reentrant locks", "language": "en", "name": "locks", "description": "reentrant locks",
        "key_questions": [{"id": "kq1", "text": "What happens when a thread acquires a reentrant lock again?"}],
        "focus": "", "context_from_briefing": "", "sources": [{"category": "local", "description": "corpus"}],
        "depth": "skim", "report_dir": str(report), "dimension_id": "d1", "mode": "initial",
    }  # fmt: skip
    result = asyncio.run(gather(parse_payload(payload), runtime=Runtime(), settings=Settings()))
    evidence = json.loads(result.path.read_text("utf-8"))
    cited = [s for s in evidence["sources"] if "locks" in s["url"]]
    assert cited and cited[0]["author"] == "Ada Lovelace" and cited[0]["published_at"] == "2024-05-01"
