"""Local full-text search over every snapshot: SQLite FTS5, BM25, Chinese and English.

Why: the offline engine and the research agent both need "which passages of the sources I already
hold answer this?" without a network or a model. Each snapshot is cut into passages (~300–800
characters) whose offsets point back into the snapshot text, so ``passage.text ==
snapshot_text[start:end]`` and a quote taken from a hit verifies against the snapshot.

The index is a cache: :meth:`LocalIndex.rebuild` recreates it from the files alone — the snapshots
in ``source_cache/``, the headers of ``raw/`` files, and ``.autodidact/documents.jsonl`` (one line
per indexed document: title, kind, raw file) when present. Results are ordered by (score, snapshot
ref, offset), never by insertion order, so a rebuilt index answers exactly as the incremental one.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from autodidact.errors import InputError
from autodidact.sources.passages import chunk_spans, highlight, match_expressions, segment
from autodidact.sources.rawfiles import list_raw_files, parse_raw_file
from autodidact.sources.snapshots import Snapshot, SnapshotStore, is_local_url
from autodidact.store import jsonl
from autodidact.store.hashing import sha256_text
from autodidact.store.index import INDEX_DIRNAME, connect, index_path

MANIFEST_NAME = "documents.jsonl"
KINDS = ("raw", "corpus", "web")
# Title matches count, but less than body matches: every passage of a document shares its title.
_BM25_WEIGHTS = (1.0, 0.4)

SCHEMA = [
    """
    CREATE TABLE IF NOT EXISTS src_documents (
        snapshot_ref TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        title TEXT NOT NULL,
        kind TEXT NOT NULL,
        raw_file TEXT
    );
    CREATE INDEX IF NOT EXISTS src_documents_url ON src_documents(url);
    CREATE TABLE IF NOT EXISTS src_passages (
        id INTEGER PRIMARY KEY,
        snapshot_ref TEXT NOT NULL,
        start INTEGER NOT NULL,
        "end" INTEGER NOT NULL,
        text TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS src_passages_ref ON src_passages(snapshot_ref);
    CREATE VIRTUAL TABLE IF NOT EXISTS src_fts USING fts5(
        body, title, content='', tokenize='porter unicode61 remove_diacritics 2'
    );
    """
]
_DROP = "DROP TABLE IF EXISTS src_fts; DROP TABLE IF EXISTS src_passages; DROP TABLE IF EXISTS src_documents;"


@dataclass(frozen=True)
class Passage:
    """One search hit: a span of a snapshot with its document's identity."""

    snapshot_ref: str
    url: str
    title: str
    text: str
    start: int
    end: int
    score: float
    raw_file: str | None
    kind: str
    highlight: str


@dataclass(frozen=True)
class DocumentInfo:
    """One indexed document (a snapshot) and where it came from."""

    snapshot_ref: str
    url: str
    title: str
    kind: str
    raw_file: str | None


def title_from_text(text: str, url: str) -> str:
    """A document title derived from the files alone: the first H1, else the URL's last part."""
    for line in text.split("\n", 60)[:60]:
        match = re.match(r"^#\s+(.+?)\s*#*\s*$", line)
        if match:
            return " ".join(match.group(1).split())
    path = unquote(urlsplit(url).path).rstrip("/")
    name = path.rsplit("/", 1)[-1] if path else ""
    return (name.rsplit(".", 1)[0] if "." in name else name) or url


def kind_for_url(url: str) -> str:
    """``corpus`` or ``raw`` for local documents (by their portable URL), else ``web``."""
    if is_local_url(url):
        path = urlsplit(url).path
        return "corpus" if path.startswith("/corpus/") else "raw"
    return "web"


class LocalIndex:
    """The passage index of one knowledge base or report folder."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.db_path = index_path(self.root)
        self.manifest_path = self.root / INDEX_DIRNAME / MANIFEST_NAME
        self.store = SnapshotStore.for_folder(self.root)
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.RLock()

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = connect(self.db_path, SCHEMA)
        return self._conn

    def close(self) -> None:
        """Close the database connection (reopened on next use)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> LocalIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -----------------------------------------------------------------------------

    def has_document(self, snapshot_ref: str) -> bool:
        """True when this snapshot is already indexed."""
        with self._lock:
            row = self.conn.execute("SELECT 1 FROM src_documents WHERE snapshot_ref=?", (snapshot_ref,)).fetchone()
        return row is not None

    def add_document(
        self,
        snapshot: Snapshot,
        text: str,
        title: str,
        kind: str,
        raw_file: str | None = None,
        *,
        record: bool = True,
    ) -> bool:
        """Index one snapshot's text (idempotent: returns False if it was already indexed)."""
        if kind not in KINDS:
            raise InputError(f"unknown document kind {kind!r}", hint=f"use one of {', '.join(KINDS)}")
        if sha256_text(text) != snapshot.content_hash:
            raise InputError(f"text given for {snapshot.snapshot_ref} is not the snapshot's text")
        title = " ".join(str(title or "").split()) or title_from_text(text, snapshot.normalized_url)
        with self._lock:
            conn = self.conn
            if self.has_document(snapshot.snapshot_ref):
                return False
            with conn:
                self._insert(conn, snapshot.snapshot_ref, snapshot.normalized_url, text, title, kind, raw_file)
            if record:
                jsonl.append(
                    self.manifest_path,
                    {"snapshot_ref": snapshot.snapshot_ref, "title": title, "kind": kind, "raw_file": raw_file},
                )
        return True

    @staticmethod
    def _insert(
        conn: sqlite3.Connection, ref: str, url: str, text: str, title: str, kind: str, raw_file: str | None
    ) -> None:
        conn.execute(
            "INSERT INTO src_documents(snapshot_ref, url, title, kind, raw_file) VALUES (?,?,?,?,?)",
            (ref, url, title, kind, raw_file),
        )
        title_seg = segment(title)
        for start, end in chunk_spans(text):
            cur = conn.execute(
                'INSERT INTO src_passages(snapshot_ref, start, "end", text) VALUES (?,?,?,?)',
                (ref, start, end, text[start:end]),
            )
            conn.execute(
                "INSERT INTO src_fts(rowid, body, title) VALUES (?,?,?)",
                (cur.lastrowid, segment(text[start:end]), title_seg),
            )

    def rebuild(self) -> int:
        """Recreate the index from the snapshots, raw/ headers and the manifest; returns documents indexed."""
        manifest: dict[str, dict[str, object]] = {}
        if self.manifest_path.is_file():
            for entry in jsonl.read(self.manifest_path):
                if isinstance(entry, dict) and isinstance(entry.get("snapshot_ref"), str):
                    manifest[entry["snapshot_ref"]] = entry
        raw_by_ref: dict[str, tuple[str, str]] = {}
        for path in list_raw_files(self.root / "raw"):
            try:
                rf = parse_raw_file(path)
            except Exception:  # an unreadable raw file cannot name a snapshot; skip it
                continue
            if rf.snapshot_ref:
                raw_by_ref.setdefault(rf.snapshot_ref, (rf.filename, rf.title))
        snapshots = self.store.iter_all()
        with self._lock:
            conn = self.conn
            with conn:
                conn.executescript(_DROP)
                for ddl in SCHEMA:
                    conn.executescript(ddl)
            with conn:
                for snap in snapshots:
                    text = self.store.read(snap.snapshot_ref)
                    meta = manifest.get(snap.snapshot_ref)
                    raw = raw_by_ref.get(snap.snapshot_ref)
                    if meta is not None:
                        title = str(meta.get("title") or "")
                        kind = str(meta.get("kind") or kind_for_url(snap.normalized_url))
                        raw_val = meta.get("raw_file")
                        raw_file = str(raw_val) if raw_val else None
                    elif raw is not None:
                        raw_file, title = raw
                        kind = kind_for_url(snap.normalized_url)
                    else:
                        raw_file, title, kind = None, "", kind_for_url(snap.normalized_url)
                    title = " ".join(title.split()) or title_from_text(text, snap.normalized_url)
                    self._insert(conn, snap.snapshot_ref, snap.normalized_url, text, title, kind, raw_file)
        return len(snapshots)

    # -- reading -----------------------------------------------------------------------------

    def documents(self, url: str | None = None) -> list[DocumentInfo]:
        """Indexed documents (of one normalised URL if given), sorted by ref."""
        with self._lock:
            if url is None:
                rows = self.conn.execute(
                    "SELECT snapshot_ref, url, title, kind, raw_file FROM src_documents ORDER BY snapshot_ref"
                ).fetchall()
            else:
                from autodidact.sources.snapshots import normalize_url

                rows = self.conn.execute(
                    "SELECT snapshot_ref, url, title, kind, raw_file FROM src_documents WHERE url=? "
                    "ORDER BY snapshot_ref",
                    (normalize_url(url),),
                ).fetchall()
        return [DocumentInfo(*row) for row in rows]

    def stats(self) -> dict[str, int]:
        """Counts of documents and passages."""
        with self._lock:
            docs = self.conn.execute("SELECT count(*) FROM src_documents").fetchone()[0]
            passages = self.conn.execute("SELECT count(*) FROM src_passages").fetchone()[0]
        return {"documents": int(docs), "passages": int(passages)}

    def _query(self, expr: str, limit: int, kinds: tuple[str, ...] | None) -> list[tuple]:
        sql = (
            'SELECT p.snapshot_ref, d.url, d.title, p.text, p.start, p."end", '
            f"bm25(src_fts, {_BM25_WEIGHTS[0]}, {_BM25_WEIGHTS[1]}) AS s, d.raw_file, d.kind "
            "FROM src_fts JOIN src_passages p ON p.id = src_fts.rowid "
            "JOIN src_documents d ON d.snapshot_ref = p.snapshot_ref "
            "WHERE src_fts MATCH ?"
        )
        params: list[object] = [expr]
        if kinds:
            sql += f" AND d.kind IN ({','.join('?' * len(kinds))})"
            params.extend(kinds)
        sql += " ORDER BY s LIMIT ?"
        params.append(limit)
        try:
            return self.conn.execute(sql, params).fetchall()
        except sqlite3.OperationalError:
            return []  # a query the FTS grammar still rejects finds nothing rather than crashing

    def _ranked(self, expr: str, k: int, kinds: tuple[str, ...] | None) -> list[tuple]:
        """Top ``k`` by (score, ref, start); fetches past ties so the order never depends on rowids."""
        limit = k + 20
        while True:
            rows = self._query(expr, limit, kinds)
            rows.sort(key=lambda r: (round(r[6], 9), r[0], r[4]))
            if len(rows) < limit or round(rows[-1][6], 9) != round(rows[min(k, len(rows)) - 1][6], 9):
                return rows[:k]
            limit *= 4

    def search(self, query: str, k: int = 10, kinds: tuple[str, ...] | None = None) -> list[Passage]:
        """The ``k`` best passages for free text ``query`` (any text is safe), best first."""
        if k <= 0:
            return []
        all_terms, any_term = match_expressions(query or "")
        if all_terms is None or any_term is None:
            return []
        with self._lock:
            rows = self._ranked(all_terms, k, kinds)
            if len(rows) < k and any_term != all_terms:
                seen = {(r[0], r[4]) for r in rows}
                extra = [r for r in self._ranked(any_term, k + len(rows), kinds) if (r[0], r[4]) not in seen]
                rows += extra[: k - len(rows)]
        return [
            Passage(
                snapshot_ref=r[0],
                url=r[1],
                title=r[2],
                text=r[3],
                start=r[4],
                end=r[5],
                score=round(-float(r[6]), 6),
                raw_file=r[7],
                kind=r[8],
                highlight=highlight(r[3], query),
            )
            for r in rows
        ]


def manifest_entries(root: Path) -> list[dict[str, object]]:
    """The manifest lines of a folder (for tools and tests)."""
    path = Path(root) / INDEX_DIRNAME / MANIFEST_NAME
    if not path.is_file():
        return []
    return [json.loads(json.dumps(e)) for e in jsonl.read(path) if isinstance(e, dict)]
