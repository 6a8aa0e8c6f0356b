"""A web page's author reaches the evidence source and the references (evidence/collect.py,
evidence/assemble.py, report/references.py; docs/writing.md "References")."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from types import SimpleNamespace

from autodidact.evidence.collect import Collector
from autodidact.sources.extract import extract_bytes
from autodidact.store.index import index_path

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
