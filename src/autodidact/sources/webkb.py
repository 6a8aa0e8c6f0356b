"""Fetch a web page into a knowledge base: snapshot, readable raw file, full-text index.

Why one function: the CLI (``autodidact fetch``) and the research loop both turn a URL into the
same three things, in the same order, so a crash between steps leaves nothing a re-run cannot
finish: the snapshot is content-addressed (storing it again is a no-op), the raw file is skipped
when one with the same slug and URL exists, and indexing the same snapshot twice is harmless.
A URL already stored (a raw file whose snapshot verifies) is not fetched again.

The caller holds the knowledge base's writer lock.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from autodidact.errors import AutodidactError, InputError
from autodidact.kb import KnowledgeBase
from autodidact.sources.snapshots import Snapshot, SnapshotStore, normalize_url

if TYPE_CHECKING:
    from autodidact.sources.fetch import Fetcher

UNRATED = "待评估"

# Domain rules: (suffix, quality, note). The first matching suffix wins; anything else is 待评估.
DOMAIN_RULES: tuple[tuple[str, str, str], ...] = (
    (".gov", "高", "government domain (official primary source)"),
    (".gov.cn", "高", "government domain (official primary source)"),
    (".gov.uk", "高", "government domain (official primary source)"),
    (".int", "高", "international organisation domain"),
    (".edu", "中", "academic domain; check the author and date"),
    (".edu.cn", "中", "academic domain; check the author and date"),
    (".ac.uk", "中", "academic domain; check the author and date"),
    ("docs.python.org", "高", "official Python documentation"),
    ("rfc-editor.org", "高", "official RFC text"),
    ("ietf.org", "高", "IETF standards body"),
    ("w3.org", "高", "W3C standards body"),
    ("arxiv.org", "中", "preprint server: not peer-reviewed"),
    ("wikipedia.org", "中", "encyclopedia: tertiary source, follow its citations"),
)


def domain_quality(url: str) -> tuple[str, str]:
    """(质量评分, 质量说明) from the host alone; unknown hosts are 待评估 (to be rated)."""
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    for suffix, quality, note in DOMAIN_RULES:
        bare = suffix.lstrip(".")
        if host == bare or host.endswith("." + bare):
            return quality, note
    return UNRATED, "not rated yet (no domain rule matched)"


def _stored(kb: KnowledgeBase, url: str) -> tuple[Path, Snapshot] | None:
    """A raw file for this URL whose snapshot verifies, if any."""
    from autodidact.sources.rawfiles import list_raw_files, parse_raw_file

    try:
        wanted = normalize_url(url)
    except InputError:
        return None
    store = SnapshotStore(kb.source_cache)
    if not store.cache_dir.is_dir() or not store.lookup(url):
        return None
    for path in list_raw_files(kb.raw):
        try:
            rf = parse_raw_file(path)
            if not rf.url or normalize_url(rf.url) != wanted or not rf.snapshot_ref:
                continue
            return path, store.verify(rf.snapshot_ref, url=url)
        except AutodidactError:
            continue
    return None


async def fetch_to_kb(
    kb: KnowledgeBase, url: str, fetcher: Fetcher, question_ids: Iterable[str] = ()
) -> tuple[Path, Snapshot]:
    """Fetch ``url`` (unless stored), extract, snapshot, write ``raw/``, index as kind ``web``."""
    from autodidact.sources.passage_index import open_index
    from autodidact.sources.rawfiles import RawFile, write_raw_file

    existing = _stored(kb, url)
    if existing is not None:
        return existing
    document = await fetcher.fetch_document(url)
    text = document.extracted.text
    source_url = document.final_url
    snapshot, _ = SnapshotStore(kb.source_cache).store(source_url, text)
    quality, note = domain_quality(source_url)
    title = " ".join((document.extracted.title or "").split()) or source_url
    today = date.today().isoformat()
    rf = RawFile(
        filename="",
        title=title,
        url=source_url,
        fetched_date=today,
        question_ids=list(question_ids),
        quality=quality,
        quality_note=note,
        snapshot_ref=snapshot.snapshot_ref,
        body=text,
        language=kb.language(),
    )
    path, _ = write_raw_file(kb.raw, rf, date=today)
    with open_index(kb.root) as index:
        index.add_document(snapshot, text, title, "web", raw_file=path.name)
    return path, snapshot
