"""Local full-text search over every snapshot: SQLite FTS5, BM25, Chinese and English.

Why: the offline engine and the research agent both need "which passages of the sources I already
hold answer this?" without a network or a model. Each snapshot is cut into passages (~300–800
characters) whose offsets point back into the snapshot text, so ``passage.text ==
snapshot_text[start:end]`` and a quote taken from a hit verifies against the snapshot.

Passages never cross a section boundary (autodidact.text.sections, docs/sections.md): each one
records its section's title and offsets, the section title is a searched column of its own (a
passage under "2.7.3. Tweaking candidate version" matches "candidate version" even when its body
says only "Pin-Priority"), and every hit names its section.

The index is a cache: :meth:`LocalIndex.rebuild` recreates it from the files alone — the snapshots
in ``source_cache/``, the headers of ``raw/`` files, and ``.autodidact/documents.jsonl`` (one line
per indexed document: title, kind, raw file) when present. Results are ordered by (score, snapshot
ref, offset), never by insertion order, so a rebuilt index answers exactly as the incremental one.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar
from urllib.parse import unquote, urlsplit

from autodidact.errors import InputError
from autodidact.jsontypes import JSONObject
from autodidact.sources.analysis_cache import Analysis, analysis_key, analysis_version, decode, encode
from autodidact.sources.passage_cuts import bodies, cut_spans
from autodidact.sources.passages import fts_term, highlight, may_have_cjk, query_terms, segment
from autodidact.sources.rawfiles import document_part, list_raw_files, parse_raw_file
from autodidact.sources.snapshots import Snapshot, SnapshotStore, is_local_url
from autodidact.store import jsonl
from autodidact.store.batch import crash_point
from autodidact.store.derived_db import INDEX_DIRNAME, connect_derived, index_path, set_aside
from autodidact.store.filememo import FileMemo
from autodidact.store.hashing import sha256_text
from autodidact.text.furniture import FURNITURE_DOCS, sentence_weights
from autodidact.text.sections import label

log = logging.getLogger(__name__)

MANIFEST_NAME = "documents.jsonl"
KINDS = ("raw", "corpus", "web")
# Title matches count, but less than body matches: every passage of a document shares its title,
# every passage of a section its section title (which says more about the passage than the
# document's title does).
_BM25_WEIGHTS = (1.0, 0.4, 0.4)
_H1 = re.compile(r"^#\s+(.+?)\s*#*\s*$")
_TOKENIZER = "porter unicode61 remove_diacritics 2"
# OR fallback: terms in more than this share of passages (and more than _OR_MIN_DF) are left out.
_OR_MAX_SHARE = 0.05
_OR_MIN_DF = 500
# Rows fetched past k, so equal scores at the cut are ordered by (ref, offset) without a re-query.
_TIE_MARGIN = 200

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
    CREATE INDEX IF NOT EXISTS src_documents_title ON src_documents(title);
    CREATE TABLE IF NOT EXISTS src_passages (
        id INTEGER PRIMARY KEY,
        snapshot_ref TEXT NOT NULL,
        start INTEGER NOT NULL,
        "end" INTEGER NOT NULL,
        text TEXT NOT NULL,
        section TEXT NOT NULL,
        section_start INTEGER NOT NULL,
        section_end INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS src_passages_ref ON src_passages(snapshot_ref);
    CREATE TABLE IF NOT EXISTS src_analysis (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL,
        version TEXT NOT NULL,
        data TEXT NOT NULL
    );
    CREATE VIRTUAL TABLE IF NOT EXISTS src_fts USING fts5(
        body, title, section, content='', tokenize='porter unicode61 remove_diacritics 2'
    );
    CREATE VIRTUAL TABLE IF NOT EXISTS src_vocab USING fts5vocab(src_fts, 'row');
    CREATE TABLE IF NOT EXISTS src_common (
        sentence TEXT PRIMARY KEY,
        docs INTEGER NOT NULL
    ) WITHOUT ROWID;
    """
]
_WRITE_CACHE_KIB = -65536  # a rebuild's page cache: 64 MiB (negative: KiB, SQLite's convention)
_PASSAGES_BY_REF = "CREATE INDEX IF NOT EXISTS src_passages_ref ON src_passages(snapshot_ref)"
# The row of src_common that says its counts cover every indexed document (an index written
# before the table existed lacks it and is rebuilt).
_COUNTED = "counted"
_DROP = (
    "DROP TABLE IF EXISTS src_vocab; DROP TABLE IF EXISTS src_fts; DROP TABLE IF EXISTS src_common; "
    "DROP TABLE IF EXISTS src_passages; DROP TABLE IF EXISTS src_documents;"
)


DocumentInput = tuple[Snapshot, str, str, str, "str | None"]


@dataclass(frozen=True)
class Passage:
    """One search hit: a span of a snapshot with its document's identity and its section.

    ``section`` is the title of the section holding the passage ("" when the document's title
    already names it: a document without headings); ``section_start``/``section_end`` are the
    section's offsets in the snapshot text.
    """

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
    section: str = ""
    section_start: int = 0
    section_end: int = 0
    # False when the passage holds only some of the query's words (the relaxed tiers of ``search``,
    # listed after every passage holding all of them, so their scores are not in order with those)
    all_terms: bool = True

    @property
    def label(self) -> str:
        """``Doc title › Section title`` (just the document's title when there is no section)."""
        return label(self.title, self.section)


@dataclass(frozen=True)
class DocumentInfo:
    """One indexed document (a snapshot) and where it came from."""

    snapshot_ref: str
    url: str
    title: str
    kind: str
    raw_file: str | None


class PassageIndex(Protocol):
    """What every index backend answers: :class:`LocalIndex` (SQLite, the default) and
    :class:`~autodidact.sources.pgindex.PgIndex` (the team backend, docs/team.md)."""

    root: Path

    def has_document(self, snapshot_ref: str) -> bool: ...

    def add_document(
        self,
        snapshot: Snapshot,
        text: str,
        title: str,
        kind: str,
        raw_file: str | None = None,
        *,
        record: bool = True,
        author: str | None = None,
        published_at: str | None = None,
    ) -> bool: ...

    def add_documents(
        self, items: Iterable[DocumentInput], *, record: bool = True, extra: dict[str, dict[str, str]] | None = None
    ) -> int: ...

    def index_documents(
        self,
        items: Iterable[DocumentInput],
        *,
        record: bool = True,
        extra: dict[str, dict[str, str]] | None = None,
        mend: bool = False,
    ) -> set[str]: ...

    def rebuild(self, *, fresh: bool = False) -> int: ...

    def documents(self, url: str | None = None) -> list[DocumentInfo]: ...

    def documents_with_section(self, section: str) -> int: ...

    def section_count(self, title: str) -> int: ...

    def sections_of(self, title: str) -> list[tuple[str, str]]: ...

    def section_names(self) -> list[str]: ...

    def section_text(self, snapshot_ref: str, section: str) -> str: ...

    def stats(self) -> dict[str, int]: ...

    def furniture(self) -> frozenset[str]: ...

    def search(self, query: str, k: int = 10, kinds: tuple[str, ...] | None = None) -> list[Passage]: ...

    def close(self) -> None: ...

    def __enter__(self) -> PassageIndex: ...

    def __exit__(self, *exc: object) -> None: ...


def has_index(root: Path) -> bool:
    """Whether a folder has an index to search: its SQLite file, or (with the team backend) a
    manifest of indexed documents — the server's rows are not a file here."""
    if index_path(root).is_file():
        return True
    from autodidact.kb import team_backend

    return (Path(root) / INDEX_DIRNAME / MANIFEST_NAME).is_file() and team_backend(Path(root)) is not None


def open_index(root: Path) -> PassageIndex:
    """The index of a knowledge base or report folder: SQLite in ``.autodidact/`` by default, the
    team's PostgreSQL server when one is configured (``AUTODIDACT_DATABASE_URL`` or ``[store]``)."""
    from autodidact.kb import team_backend

    team = team_backend(Path(root))
    if team is None:
        return LocalIndex(root)
    from autodidact.sources.pgindex import PgIndex

    return PgIndex(root, team.url, team.name)


def title_from_text(text: str, url: str) -> str:
    """A document title derived from the files alone: the first H1, else the URL's last part."""
    for line in text.split("\n", 60)[:60]:
        match = _H1.match(line)
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
        self._manifest_refs: set[str] | None = None

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            conn, reset = connect_derived(self.db_path, SCHEMA)
            columns = {row[1] for row in conn.execute("PRAGMA table_info(src_passages)")}
            self._conn = conn
            # An index written before sections, or one that was corrupt and set aside: rebuilt
            # from the files (docs/hardening.md, "A corrupt index").
            # Empty while the manifest lists indexed documents: the file was deleted or replaced.
            lost = (
                not reset
                and conn.execute("SELECT 1 FROM src_documents LIMIT 1").fetchone() is None
                and self.manifest_path.is_file()
                and self.manifest_path.stat().st_size > 0
            )
            uncounted = (
                conn.execute("SELECT 1 FROM src_common WHERE sentence=?", (_COUNTED,)).fetchone() is None
                and conn.execute("SELECT 1 FROM src_documents LIMIT 1").fetchone() is not None
            )
            if "section" not in columns or uncounted or ((reset or lost) and self.store.refs()):
                if lost:
                    log.warning("%s holds no documents but %s lists some: rebuilding it", self.db_path, MANIFEST_NAME)
                with self._lock:
                    self.rebuild()
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
        author: str | None = None,
        published_at: str | None = None,
    ) -> bool:
        """Index one snapshot's text (idempotent: returns False if it was already indexed).

        ``author`` and ``published_at`` (what the document's own metadata says) go to the manifest
        line, where the evidence agent finds them for the report's references (docs/writing.md, "References")."""
        meta = {k: v for k, v in (("author", author), ("published_at", published_at)) if v}
        extra = {snapshot.snapshot_ref: meta} if meta else None
        return self.add_documents([(snapshot, text, title, kind, raw_file)], record=record, extra=extra) == 1

    def add_documents(
        self, items: Iterable[DocumentInput], *, record: bool = True, extra: dict[str, dict[str, str]] | None = None
    ) -> int:
        """Index many snapshots in one transaction (much faster than one at a time); returns how many were new.

        Each item is ``(snapshot, text, title, kind, raw_file)``; already indexed snapshots are skipped.
        ``extra``: more fields of a snapshot's manifest line (its author and date), by snapshot ref.
        """
        return len(self.index_documents(items, record=record, extra=extra))

    def index_documents(
        self,
        items: Iterable[DocumentInput],
        *,
        record: bool = True,
        extra: dict[str, dict[str, str]] | None = None,
        mend: bool = False,
    ) -> set[str]:
        """:meth:`add_documents`, returning the refs of the documents that were new to the index.

        Durable in this order (docs/architecture.md, "Adding many documents"): the transaction is
        committed with the WAL fsynced (``synchronous=FULL`` for this commit), and only then are
        the manifest lines appended, in one write and one fsync. So the manifest never lists a
        document the index lacks; a process killed between the two leaves documents indexed but
        unlisted, and with ``mend`` (the next ``add`` of them) their missing lines are appended.
        """
        prepared = []
        for snapshot, text, title, kind, raw_file in items:
            if kind not in KINDS:
                raise InputError(f"unknown document kind {kind!r}", hint=f"use one of {', '.join(KINDS)}")
            if sha256_text(text) != snapshot.content_hash:
                raise InputError(f"text given for {snapshot.snapshot_ref} is not the snapshot's text")
            clean_title = " ".join(str(title or "").split()) or title_from_text(text, snapshot.normalized_url)
            prepared.append((snapshot, text, clean_title, kind, raw_file))
        added: list[dict[str, object]] = []
        new: set[str] = set()
        with self._lock:
            conn = self.conn
            if record:
                conn.execute("PRAGMA synchronous=FULL")
            try:
                with _bulk_writes(conn), conn:
                    rows = _Rows(conn)
                    for snapshot, text, title, kind, raw_file in prepared:
                        entry: dict[str, object] = {
                            "snapshot_ref": snapshot.snapshot_ref,
                            "title": title,
                            "kind": kind,
                            "raw_file": raw_file,
                        }
                        entry.update((extra or {}).get(snapshot.snapshot_ref, {}))
                        if snapshot.snapshot_ref in new or self.has_document(snapshot.snapshot_ref):
                            ref = snapshot.snapshot_ref
                            if mend and record and ref not in new and not self._listed(ref):
                                added.append(entry)  # indexed by a run killed before its manifest lines
                            continue
                        rows.add(
                            snapshot.snapshot_ref,
                            snapshot.normalized_url,
                            text,
                            title,
                            kind,
                            raw_file,
                            snapshot.content_hash,
                        )
                        new.add(snapshot.snapshot_ref)
                        added.append(entry)
                    rows.flush()
            finally:
                if record:
                    conn.execute("PRAGMA synchronous=NORMAL")
            if record and added:
                crash_point("indexed")
                jsonl.append_many(self.manifest_path, added)
                if self._manifest_refs is not None:
                    self._manifest_refs.update(str(e["snapshot_ref"]) for e in added)
        return new

    def _listed(self, ref: str) -> bool:
        """Whether the manifest lists ``ref`` (read once per index object, when first asked)."""
        if self._manifest_refs is None:
            self._manifest_refs = {
                str(e["snapshot_ref"]) for e in jsonl.read(self.manifest_path) if isinstance(e.get("snapshot_ref"), str)
            }
        return ref in self._manifest_refs

    def rebuild(self, *, fresh: bool = False) -> int:
        """Recreate the index from the snapshots, raw/ headers and the manifest; returns documents indexed.

        One transaction: a rebuild killed half way leaves the index it started from. A document's
        stored analysis is reused when its text, title and the analysis code are the same
        (sources/analysis_cache.py); ``fresh`` analyses every document again. The passages' index
        by snapshot is made after they are all in, in one sorted pass (docs/architecture.md,
        "Rebuilding the index")."""
        count = 0
        with self._lock:
            conn = self.conn
            with _bulk_writes(conn), conn:
                # one by one inside the transaction (executescript would commit after each part)
                if conn.in_transaction:  # left open by an earlier statement: ended, as executescript would
                    conn.commit()
                conn.execute("BEGIN")
                for statement in [*_DROP.split(";"), *SCHEMA[0].split(";")]:
                    if statement.strip():
                        conn.execute(statement)
                conn.execute("DROP INDEX src_passages_ref")
                if fresh:
                    conn.execute("DELETE FROM src_analysis")
                else:  # analyses made by other code will never be reused: their rows go
                    conn.execute("DELETE FROM src_analysis WHERE version != ?", (analysis_version(),))
                rows = _Rows(conn, reuse=not fresh)
                for snap, text, title, kind, raw_file in rebuild_inputs(self.root, self.store, self.manifest_path):
                    count += 1
                    rows.add(snap.snapshot_ref, snap.normalized_url, text, title, kind, raw_file, snap.content_hash)
                rows.flush()
                conn.execute(_PASSAGES_BY_REF)
                crash_point("rebuilt")
        return count

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

    def documents_with_section(self, section: str) -> int:
        """How many documents have a section called ``section`` (any of its parts, "Classes (2/3)")."""
        like = section.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + " (%/%)"
        with self._lock:
            row = self.conn.execute(
                "SELECT count(DISTINCT snapshot_ref) FROM src_passages WHERE section = ? OR section LIKE ? ESCAPE '\\'",
                (section, like),
            ).fetchone()
        return int(row[0])

    def section_count(self, title: str) -> int:
        """How many distinct sections the documents titled ``title`` have (a chapter has many, a
        one-topic page one or two)."""
        with self._lock:
            row = self.conn.execute(
                "SELECT count(DISTINCT p.section) FROM src_passages p JOIN src_documents d"
                " ON d.snapshot_ref = p.snapshot_ref WHERE d.title = ?",
                (title,),
            ).fetchone()
        return int(row[0])

    def sections_of(self, title: str) -> list[tuple[str, str]]:
        """(section, snapshot_ref) of every distinct section of the documents titled ``title``, in
        the order they start (parts of a cut section, "Classes (2/3)", each once as written)."""
        with self._lock:
            rows = self.conn.execute(
                "SELECT p.section, p.snapshot_ref FROM src_passages p JOIN src_documents d"
                " ON d.snapshot_ref = p.snapshot_ref WHERE d.title = ?"
                " GROUP BY p.snapshot_ref, p.section ORDER BY p.snapshot_ref, min(p.start)",
                (title,),
            ).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows if r[0]]

    def section_names(self) -> list[str]:
        """Every distinct section path in the index (for how often a word names a section)."""
        with self._lock:
            rows = self.conn.execute("SELECT DISTINCT section FROM src_passages WHERE section != ''").fetchall()
        return [str(r[0]) for r in rows]

    def section_text(self, snapshot_ref: str, section: str) -> str:
        """The text of one section of a document (its passages in order; the whole document when
        ``section`` is "", a document without headings)."""
        with self._lock:
            rows = self.conn.execute(
                "SELECT text FROM src_passages WHERE snapshot_ref = ? AND section = ? ORDER BY start",
                (snapshot_ref, section),
            ).fetchall()
        return "\n".join(str(r[0]) for r in rows)

    def stats(self) -> dict[str, int]:
        """Counts of documents and passages."""
        with self._lock:
            docs = self.conn.execute("SELECT count(*) FROM src_documents").fetchone()[0]
            passages = self.conn.execute("SELECT count(*) FROM src_passages").fetchone()[0]
        return {"documents": int(docs), "passages": int(passages)}

    def furniture(self) -> frozenset[str]:
        """Keys of the sentences that stand in FURNITURE_DOCS or more documents (text/furniture.py)."""
        with self._lock:
            rows = self.conn.execute(
                "SELECT sentence FROM src_common WHERE docs >= ? AND sentence != ?", (FURNITURE_DOCS, _COUNTED)
            ).fetchall()
        return frozenset(str(r[0]) for r in rows)

    def _term_frequencies(self, terms: list[tuple[str, bool]]) -> list[int]:
        """Passages containing each query term (after the index's own tokenizer and stemmer)."""
        conn = self.conn
        conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.src_stem USING fts5(x, tokenize='{_TOKENIZER}')")
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.src_stem_v USING fts5vocab(temp, src_stem, 'instance')")
        conn.execute("DELETE FROM temp.src_stem")
        conn.executemany(
            "INSERT INTO temp.src_stem(rowid, x) VALUES (?, ?)", [(i, t) for i, (t, _) in enumerate(terms)]
        )
        stems: dict[int, list[str]] = {}
        for term, doc in conn.execute("SELECT term, doc FROM temp.src_stem_v ORDER BY doc, offset"):
            stems.setdefault(int(doc), []).append(term)
        total = self._passage_count()
        out = []
        for i, (_, is_cjk) in enumerate(terms):
            tokens = stems.get(i, [])
            if is_cjk and len(terms[i][0]) == 1:
                out.append(total)  # a prefix term: assume common
            elif len(tokens) != 1:
                out.append(total if tokens else 0)
            else:
                row = conn.execute("SELECT doc FROM src_vocab WHERE term = ?", (tokens[0],)).fetchone()
                out.append(int(row[0]) if row else 0)
        return out

    def _passage_count(self) -> int:
        row = self.conn.execute("SELECT max(id) FROM src_passages").fetchone()
        return int(row[0] or 0)

    def _query(self, expr: str, limit: int, kinds: tuple[str, ...] | None) -> list[tuple[int, float, str, int]]:
        """(passage id, bm25, ref, start) of the ``limit`` best matches; no passage text yet."""
        weights = ", ".join(str(w) for w in _BM25_WEIGHTS)
        ranked = f"SELECT rowid AS id, bm25(src_fts, {weights}) AS s FROM src_fts "
        params: list[object] = [expr]
        if kinds:  # filter before ranking's LIMIT, so a rare kind is not crowded out
            sql = (
                f"SELECT r.id, r.s, p.snapshot_ref, p.start FROM ({ranked} WHERE src_fts MATCH ?) r "
                "JOIN src_passages p ON p.id = r.id JOIN src_documents d ON d.snapshot_ref = p.snapshot_ref "
                f"WHERE d.kind IN ({','.join('?' * len(kinds))}) ORDER BY r.s LIMIT ?"
            )
            params.extend(kinds)
        else:  # rank inside FTS5 first, then look up only the top rows
            sql = (
                f"SELECT r.id, r.s, p.snapshot_ref, p.start FROM ({ranked} WHERE src_fts MATCH ? ORDER BY s LIMIT ?) r "
                "JOIN src_passages p ON p.id = r.id"
            )
        params.append(limit)
        try:
            return self.conn.execute(sql, params).fetchall()
        except sqlite3.OperationalError:
            return []  # a query the FTS grammar still rejects finds nothing rather than crashing

    def _ranked(self, expr: str, k: int, kinds: tuple[str, ...] | None) -> list[tuple[int, float, str, int]]:
        """Top ``k`` by (score, ref, start); fetches past ties so the order never depends on rowids."""
        limit = k + _TIE_MARGIN
        while True:
            rows = self._query(expr, limit, kinds)
            rows.sort(key=lambda r: (round(r[1], 9), r[2], r[3]))
            if len(rows) < limit or round(rows[-1][1], 9) != round(rows[min(k, len(rows)) - 1][1], 9):
                return rows[:k]
            limit *= 4

    def _passages(
        self, ranked: list[tuple[int, float, str, int]], query: str, full: int | None = None
    ) -> list[Passage]:
        """The rows as passages; rows after the first ``full`` hold only some of the query's words."""
        if not ranked:
            return []
        ids = [r[0] for r in ranked]
        found = {
            row[0]: row[1:]
            for row in self.conn.execute(
                'SELECT p.id, p.snapshot_ref, d.url, d.title, p.text, p.start, p."end", d.raw_file, d.kind, '
                "p.section, p.section_start, p.section_end "
                "FROM src_passages p JOIN src_documents d ON d.snapshot_ref = p.snapshot_ref "
                f"WHERE p.id IN ({','.join('?' * len(ids))})",
                ids,
            )
        }
        out = []
        for n, (pid, score, _, _) in enumerate(ranked):
            ref, url, title, text, start, end, raw_file, kind, section, sec_start, sec_end = found[pid]
            out.append(
                Passage(
                    snapshot_ref=ref,
                    url=url,
                    title=title,
                    text=text,
                    start=start,
                    end=end,
                    score=round(-float(score), 6),
                    raw_file=raw_file,
                    kind=kind,
                    highlight=highlight(text, query),
                    section=section,
                    section_start=sec_start,
                    section_end=sec_end,
                    all_terms=full is None or n < full,
                )
            )
        return out

    def search(self, query: str, k: int = 10, kinds: tuple[str, ...] | None = None) -> list[Passage]:
        """The ``k`` best passages for free text ``query`` (any text is safe), best first.

        All terms must match; if that gives fewer than ``k`` passages, terms found nowhere (typos)
        are dropped and the rest AND-ed, then the rarer terms are OR-ed to fill up.
        Very common terms are left out of the OR: they would make the query scan most of the
        index while adding little to the ranking.
        """
        if k <= 0:
            return []
        terms = query_terms(query or "")
        if not terms:
            return []
        try:
            return self._search(query, terms, k, kinds)
        except sqlite3.DatabaseError as exc:  # damaged inside ("malformed"): set aside, rebuilt, asked again
            if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                raise
            self.recover(str(exc))
            return self._search(query, terms, k, kinds)

    def recover(self, why: str) -> None:
        """Set an unreadable index aside and rebuild it from the snapshots (docs/hardening.md)."""
        with self._lock:
            self.close()
            aside = set_aside(self.db_path)
            log.warning("%s could not be read (%s); set aside as %s and rebuilt", self.db_path, why, aside.name)
            _ = self.conn  # a new, empty index: rebuilt from the files on opening

    def _search(
        self, query: str, terms: list[tuple[str, bool]], k: int, kinds: tuple[str, ...] | None
    ) -> list[Passage]:
        with self._lock:
            rows, full = tiered_search(
                terms,
                k,
                lambda ts, every, n: self._ranked(
                    (" AND " if every else " OR ").join(fts_term(*t) for t in ts), n, kinds
                ),
                self._term_frequencies,
                self._passage_count,
            )
            return self._passages(rows, query, full)


@contextmanager
def _bulk_writes(conn: sqlite3.Connection) -> Iterator[None]:
    """The connection set for one large transaction, and set back after it.

    A page cache that holds the transaction's pages (64 MiB), so none is spilled to the log and
    written there again; and freed pages not zeroed (``secure_delete`` is on in Debian's SQLite,
    which made a rebuild's DROP write the whole old index to the log once more): they are reused
    at once by the new rows, and the text they held is in the snapshots anyway
    (docs/architecture.md, "Rebuilding the index")."""
    secure = int(conn.execute("PRAGMA secure_delete").fetchone()[0])
    cache = int(conn.execute("PRAGMA cache_size").fetchone()[0])
    conn.execute("PRAGMA secure_delete=FAST")
    conn.execute(f"PRAGMA cache_size={_WRITE_CACHE_KIB}")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA secure_delete={secure}")
        conn.execute(f"PRAGMA cache_size={cache}")


class _Rows:
    """The rows of documents being indexed, written to the tables a few hundred documents at a time.

    Why: a document's rows went in as three statements of their own, and its ~150 sentence counts
    as upserts of random keys. Gathered over many documents, each table takes one ``executemany``
    and every sentence key one upsert, in key order, with its counts summed first (issue 18,
    docs/architecture.md "Adding many documents"). The rows are exactly what one document at a time
    wrote: the same passage ids, in document order, and the same counts.

    Each document's analysis (its passages' spans and sentence keys) is stored beside its rows;
    with ``reuse`` (a rebuild), a stored analysis of the same text, title and code is taken instead
    of analysing the text again (sources/analysis_cache.py).
    """

    FLUSH_DOCUMENTS = 256

    def __init__(self, conn: sqlite3.Connection, *, reuse: bool = False) -> None:
        self.conn = conn
        self.reuse = reuse
        self.version = analysis_version()
        row = conn.execute("SELECT max(id) FROM src_passages").fetchone()
        self.next_id = int(row[0] or 0) + 1
        self.documents: list[tuple[str, str, str, str, str | None]] = []
        self.passages: list[tuple[int, str, int, int, str, str, int, int]] = []
        self.fts: list[tuple[int, str, str, str]] = []
        self.common: dict[str, int] = {}
        self.analyses: list[tuple[int, str, str, str]] = []

    def add(
        self, ref: str, url: str, text: str, title: str, kind: str, raw_file: str | None, content_hash: str
    ) -> None:
        """One document's rows: its line, its passages (each with its section) and its sentences."""
        self.documents.append((ref, url, title, kind, raw_file))
        weights, openers, spans = self._analysis(text, title, content_hash)
        common = self.common
        for key, weight in weights.items():
            common[key] = common.get(key, 0) + weight
        title_seg = segment(title)
        # No CJK run in the text: no passage body (pieces of the text) has one, and segment() would
        # give each back as it is (one scan of the document instead of one per passage).
        plain = not may_have_cjk(text)
        next_id = self.next_id
        passages, fts = self.passages, self.fts
        for (start, end, section, sec_start, sec_end, terms), body in zip(
            spans, bodies(text, openers, spans), strict=True
        ):
            passages.append((next_id, ref, start, end, text[start:end], section, sec_start, sec_end))
            fts.append((next_id, body if plain else segment(body), title_seg, segment(terms)))
            next_id += 1
        self.next_id = next_id
        if len(self.documents) >= self.FLUSH_DOCUMENTS:
            self.flush()

    def _analysis(self, text: str, title: str, content_hash: str) -> Analysis:
        """The document's stored analysis when it is reusable, else a fresh one (then stored)."""
        row_id, key = analysis_key(content_hash, title)
        if self.reuse:
            row = self.conn.execute("SELECT key, version, data FROM src_analysis WHERE id=?", (row_id,)).fetchone()
            found = decode(str(row[2])) if row is not None and row[0] == key and row[1] == self.version else None
            size = len(text)
            if (
                found is not None
                and all(0 <= s[0] <= s[1] <= size for s in found[2])
                and all(0 <= s <= e <= size for s, e in found[1])
            ):
                return found
        openers, spans = cut_spans(text, title)
        analysis = (sentence_weights(text), openers, spans)
        self.analyses.append((row_id, key, self.version, encode(analysis)))
        return analysis

    def flush(self) -> None:
        """Write the gathered rows (inside the caller's transaction)."""
        if not self.documents:
            return
        conn = self.conn
        conn.executemany(
            "INSERT INTO src_documents(snapshot_ref, url, title, kind, raw_file) VALUES (?,?,?,?,?)", self.documents
        )
        conn.execute("INSERT OR IGNORE INTO src_common(sentence, docs) VALUES (?, 0)", (_COUNTED,))
        conn.executemany(
            "INSERT INTO src_common(sentence, docs) VALUES (?, ?) "
            "ON CONFLICT(sentence) DO UPDATE SET docs = docs + excluded.docs",
            sorted(self.common.items()),
        )
        # ids given here (what INTEGER PRIMARY KEY would give), so both tables take one executemany
        conn.executemany(
            'INSERT INTO src_passages(id, snapshot_ref, start, "end", text, section, section_start, section_end) '
            "VALUES (?,?,?,?,?,?,?,?)",
            self.passages,
        )
        conn.executemany("INSERT INTO src_fts(rowid, body, title, section) VALUES (?,?,?,?)", self.fts)
        conn.executemany("INSERT OR REPLACE INTO src_analysis(id, key, version, data) VALUES (?,?,?,?)", self.analyses)
        self.documents, self.passages, self.fts, self.common, self.analyses = [], [], [], {}, []


def rebuild_inputs(root: Path, store: SnapshotStore, manifest_path: Path) -> Iterator[DocumentInput]:
    """Every snapshot with the title, kind and raw file the files alone give it (for a rebuild).

    The manifest's line wins; else the raw file's header names it; else the text's own H1 or URL."""
    manifest: dict[str, JSONObject] = {}
    if manifest_path.is_file():
        for entry in jsonl.read(manifest_path):
            ref = entry.get("snapshot_ref")
            if isinstance(ref, str):
                manifest[ref] = entry
    # ref → (file, title, title names a section); read only if a snapshot is missing from the manifest
    raw_by_ref: dict[str, tuple[str, str, bool]] | None = None
    for snap, text in store.iter_texts():  # one read of each file, verified
        meta = manifest.get(snap.snapshot_ref)
        if meta is None and raw_by_ref is None:
            raw_by_ref = _raw_titles(root)
        raw = raw_by_ref.get(snap.snapshot_ref) if raw_by_ref is not None else None
        raw_file: str | None
        if meta is not None:
            title = str(meta.get("title") or "")
            kind = str(meta.get("kind") or kind_for_url(snap.normalized_url))
            raw_val = meta.get("raw_file")
            raw_file = str(raw_val) if raw_val else None
        elif raw is not None:
            raw_file, title, excerpt = raw
            title = document_part(title, text) if excerpt else title
            kind = kind_for_url(snap.normalized_url)
        else:
            raw_file, title, kind = None, "", kind_for_url(snap.normalized_url)
        title = " ".join(title.split()) or title_from_text(text, snap.normalized_url)
        yield snap, text, title, kind, raw_file


def _raw_titles(root: Path) -> dict[str, tuple[str, str, bool]]:
    """(raw file, title, whether the title names a section) by snapshot ref, from raw/ headers."""
    found: dict[str, tuple[str, str, bool]] = {}
    for path in list_raw_files(Path(root) / "raw"):
        try:
            rf = parse_raw_file(path)
        except Exception:  # an unreadable raw file cannot name a snapshot; skip it
            continue
        if rf.snapshot_ref:
            found.setdefault(rf.snapshot_ref, (rf.filename, rf.title, rf.excerpt is not None))
    return found


Row = tuple[int, float, str, int]  # (passage id, score, snapshot ref, start): a ranked passage
T = TypeVar("T")


def tiered_search(
    terms: list[T],
    k: int,
    ranked: Callable[[list[T], bool, int], list[Row]],
    frequencies: Callable[[list[T]], list[int]],
    passage_count: Callable[[], int],
) -> tuple[list[Row], int | None]:
    """The ``k`` best rows for the query's terms, and how many of them hold every term (None: all).

    Every backend searches in the same tiers (``ranked(terms, every, limit)`` ranks the passages
    holding every term, or any): all terms; if that gives fewer than ``k``, the terms found nowhere
    (typos) dropped and the rest all required; then the rarer terms, any of them, to fill up. Very
    common terms are left out of that last tier: they would make the query scan most of the index
    while adding little to the ranking.
    """
    rows = ranked(terms, True, k)
    if len(rows) >= k or len(terms) == 1:
        return rows, None
    full = len(rows)
    dfs = frequencies(terms)
    present = [(t, df) for t, df in zip(terms, dfs, strict=True) if df > 0]
    if 0 < len(present) < len(terms):  # drop terms found nowhere (typos), AND the rest
        seen = {r[0] for r in rows}
        rows += [r for r in ranked([t for t, _ in present], True, k) if r[0] not in seen][: k - len(rows)]
    if len(rows) < k and len(present) > 1:
        common = max(_OR_MIN_DF, int(_OR_MAX_SHARE * passage_count()))
        by_rarity = sorted(present, key=lambda item: item[1])
        rare = [t for t, df in by_rarity if df <= common] or [by_rarity[0][0]]
        seen = {r[0] for r in rows}
        extra = [r for r in ranked(rare, False, k + len(rows)) if r[0] not in seen]
        rows += extra[: k - len(rows)]
    return rows, full


_MANIFEST_META: FileMemo[dict[str, dict[str, str]]] = FileMemo()


def manifest_meta(root: Path) -> dict[str, dict[str, str]]:
    """Author and date by snapshot ref, as the manifest recorded them at ingest; read once per
    content of the manifest (it grows with every document indexed). Shared: read, never edit."""
    path = Path(root) / INDEX_DIRNAME / MANIFEST_NAME
    if not path.is_file():
        return {}

    def parse(data: bytes, _digest: str) -> dict[str, dict[str, str]]:
        found: dict[str, dict[str, str]] = {}
        for entry in jsonl.records(data, path):
            meta = {k: str(entry[k]) for k in ("author", "published_at") if entry.get(k)}
            if meta:
                found[str(entry.get("snapshot_ref"))] = meta
        return found

    return _MANIFEST_META.get(path, parse)[1]


def manifest_entries(root: Path) -> list[dict[str, object]]:
    """The manifest lines of a folder (for tools, tests and the evidence agent's source metadata)."""
    path = Path(root) / INDEX_DIRNAME / MANIFEST_NAME
    if not path.is_file():
        return []
    return [json.loads(json.dumps(e)) for e in jsonl.read(path) if isinstance(e, dict)]
