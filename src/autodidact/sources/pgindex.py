"""The passage index on the team backend: PostgreSQL ``tsvector`` + GIN, ranked by BM25 in SQL.

Why these choices (docs/team.md, "The index"):

- Terms are the SQLite index's own: its FTS5 tokenizer (``porter unicode61 remove_diacritics 2``)
  over the same shadow text, CJK runs as bigrams (sources/pgterms.py), written into a ``tsvector``
  as already-made lexemes, so PostgreSQL's parsers and dictionaries never re-cut them. With the
  same terms, BM25 and tiers, both backends find the same passages.
- Each lexeme's positions carry its column as the weight label: A body, B the document's title,
  C the section (and reference-entry name). The GIN index finds the passages holding every term.
- Ranking is BM25 as SQLite FTS5 computes it (k1 = 1.2, b = 0.75, column weights 1.0/0.4/0.4,
  idf = ln((N − n + 0.5)/(n + 0.5))): ``ts_rank`` has no idf, so a rare word would count no more than
  a common one, and the team backend would rank differently from the embedded default.
- The same search tiers as :class:`~autodidact.sources.passage_index.LocalIndex`: all terms, then without
  the terms found nowhere, then the rarer terms OR-ed; ties ordered by (ref, offset).

Rows of every knowledge base share the tables, keyed by the folder's name in the shared database
(``kb.team_backend``). Like the SQLite file this is derived data: :meth:`PgIndex.rebuild` recreates
it from the files, and a fresh server is filled from them on first use.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from autodidact.errors import InputError
from autodidact.sources.passage_cuts import cut_passages
from autodidact.sources.passage_index import (
    KINDS,
    MANIFEST_NAME,
    DocumentInfo,
    DocumentInput,
    Passage,
    rebuild_inputs,
    tiered_search,
    title_from_text,
)
from autodidact.sources.passages import highlight
from autodidact.sources.pgterms import query_lexemes, tsquery, tsvector_text
from autodidact.sources.snapshots import Snapshot, SnapshotStore
from autodidact.store import jsonl, pg
from autodidact.store.batch import crash_point
from autodidact.store.derived_db import INDEX_DIRNAME
from autodidact.store.hashing import sha256_text
from autodidact.text.furniture import FURNITURE_DOCS, sentence_weights

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger(__name__)

K1 = 1.2
B = 0.75
WEIGHTS = {"A": 1.0, "B": 0.4, "C": 0.4}  # body, document title, section: as LocalIndex's _BM25_WEIGHTS

SCHEMA = [
    """
    CREATE TABLE IF NOT EXISTS ad_documents (
        kb TEXT NOT NULL,
        snapshot_ref TEXT NOT NULL,
        url TEXT NOT NULL,
        title TEXT NOT NULL,
        kind TEXT NOT NULL,
        raw_file TEXT,
        PRIMARY KEY (kb, snapshot_ref)
    );
    CREATE INDEX IF NOT EXISTS ad_documents_url ON ad_documents (kb, url);
    CREATE INDEX IF NOT EXISTS ad_documents_title ON ad_documents (kb, title);
    CREATE TABLE IF NOT EXISTS ad_passages (
        id BIGSERIAL PRIMARY KEY,
        kb TEXT NOT NULL,
        snapshot_ref TEXT NOT NULL,
        start INTEGER NOT NULL,
        "end" INTEGER NOT NULL,
        text TEXT NOT NULL,
        section TEXT NOT NULL,
        section_start INTEGER NOT NULL,
        section_end INTEGER NOT NULL,
        ntok INTEGER NOT NULL,
        tsv TSVECTOR NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ad_passages_ref ON ad_passages (kb, snapshot_ref, start);
    CREATE INDEX IF NOT EXISTS ad_passages_tsv ON ad_passages USING GIN (tsv);
    CREATE TABLE IF NOT EXISTS ad_common (
        kb TEXT NOT NULL,
        sentence TEXT NOT NULL,
        docs INTEGER NOT NULL,
        PRIMARY KEY (kb, sentence)
    );
    CREATE TABLE IF NOT EXISTS ad_index_stats (
        kb TEXT PRIMARY KEY,
        passages BIGINT NOT NULL,
        tokens BIGINT NOT NULL
    );
    ALTER TABLE ad_index_stats ADD COLUMN IF NOT EXISTS terms INTEGER NOT NULL DEFAULT 1;
    """
]
# How the rows' lexemes were cut (sources/pgterms.py): 1 the text layer's terms, 2 the SQLite
# index's FTS5 tokens. A knowledge base whose rows were cut otherwise is rebuilt on first use.
TERMS = 2

# BM25 over the candidates the GIN index finds; q holds each query term, whether it is a prefix
# (a lone CJK character), and its idf. A lexeme asked for twice ("expressions expression") counts
# twice, as two FTS5 phrases do.
_RANK_SQL = """
WITH q AS (
    SELECT * FROM unnest(%(terms)s::text[], %(prefix)s::boolean[], %(idf)s::float8[])
        WITH ORDINALITY AS q(term, prefix, idf, n)
), cand AS (
    SELECT p.id, p.snapshot_ref, p.start, p.ntok, p.tsv FROM ad_passages p
    {kind_join}
    WHERE p.kb = %(kb)s AND p.tsv @@ %(tsq)s::tsquery
)
SELECT * FROM (
    SELECT c.id,
           -sum(t.idf * t.tf * {k1p1} / (t.tf + {k1} * (1 - {b} + {b} * c.ntok / %(avgdl)s::float8))) AS s,
           c.snapshot_ref, c.start
    FROM cand c
    CROSS JOIN LATERAL (
        SELECT q.n, q.idf, sum((SELECT sum(CASE w WHEN 'A' THEN {wa} WHEN 'B' THEN {wb} ELSE {wc} END)
                                FROM unnest(u.weights) AS w)) AS tf
        FROM unnest(c.tsv) AS u
        JOIN q ON CASE WHEN q.prefix THEN starts_with(u.lexeme, q.term) ELSE u.lexeme = q.term END
        GROUP BY q.n, q.idf
    ) t
    GROUP BY c.id, c.snapshot_ref, c.start
) r
ORDER BY round(r.s::numeric, 9), r.snapshot_ref, r.start
LIMIT %(limit)s
"""


def _rank_sql(with_kinds: bool) -> str:
    kind_join = (
        "JOIN ad_documents d ON d.kb = p.kb AND d.snapshot_ref = p.snapshot_ref AND d.kind = ANY(%(kinds)s)"
        if with_kinds
        else ""
    )
    return _RANK_SQL.format(
        kind_join=kind_join, k1=K1, k1p1=K1 + 1, b=B, wa=WEIGHTS["A"], wb=WEIGHTS["B"], wc=WEIGHTS["C"]
    )


class PgIndex:
    """The passage index of one knowledge base or report folder on a PostgreSQL server.

    The same methods and answers as :class:`~autodidact.sources.passage_index.LocalIndex`; the documents'
    manifest (``.autodidact/documents.jsonl``) is still written in the folder, so the files stay
    the truth."""

    def __init__(self, root: Path, url: str, name: str) -> None:
        self.root = Path(root)
        self.url = url
        self.name = name
        self.manifest_path = self.root / INDEX_DIRNAME / MANIFEST_NAME
        self.store = SnapshotStore.for_folder(self.root)
        self._conn: psycopg.Connection[tuple[object, ...]] | None = None
        self._lock = threading.RLock()
        self._manifest_refs: set[str] | None = None
        self._df: dict[tuple[str, bool], int] = {}

    @property
    def conn(self) -> psycopg.Connection[tuple[object, ...]]:
        if self._conn is None:
            self._conn = pg.connect(self.url, schema=SCHEMA)
            with self._guard():
                empty = self._conn.execute("SELECT 1 FROM ad_documents WHERE kb = %s LIMIT 1", (self.name,))
                listed = self.manifest_path.is_file() and self.manifest_path.stat().st_size > 0
                cut = self._conn.execute("SELECT terms FROM ad_index_stats WHERE kb = %s", (self.name,)).fetchone()
                if (empty.fetchone() is None and listed and self.store.refs()) or (cut and cut[0] != TERMS):
                    # A new server (or a new member's first use) meets documents the manifest lists,
                    # or the rows were cut into terms as an older version cut them.
                    with self._lock:
                        self.rebuild()
        return self._conn

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        """A server that fails mid-run becomes one :class:`~autodidact.errors.DatabaseError` line."""
        import psycopg

        try:
            yield
        except psycopg.Error as exc:
            self._drop_connection()
            raise pg.failed(self.url, exc) from None

    def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def close(self) -> None:
        """Close the connection (reopened on next use)."""
        with self._lock:
            self._drop_connection()

    def __enter__(self) -> PgIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -----------------------------------------------------------------------------

    def has_document(self, snapshot_ref: str) -> bool:
        """True when this snapshot is already indexed."""
        with self._lock, self._guard():
            row = self.conn.execute(
                "SELECT 1 FROM ad_documents WHERE kb = %s AND snapshot_ref = %s", (self.name, snapshot_ref)
            ).fetchone()
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
        """Index one snapshot's text (idempotent: returns False if it was already indexed)."""
        meta = {k: v for k, v in (("author", author), ("published_at", published_at)) if v}
        extra = {snapshot.snapshot_ref: meta} if meta else None
        return self.add_documents([(snapshot, text, title, kind, raw_file)], record=record, extra=extra) == 1

    def add_documents(
        self, items: Iterable[DocumentInput], *, record: bool = True, extra: dict[str, dict[str, str]] | None = None
    ) -> int:
        """Index many snapshots in one transaction; returns how many were new."""
        return len(self.index_documents(items, record=record, extra=extra))

    def index_documents(
        self,
        items: Iterable[DocumentInput],
        *,
        record: bool = True,
        extra: dict[str, dict[str, str]] | None = None,
        mend: bool = False,
    ) -> set[str]:
        """:meth:`add_documents`, returning the refs that were new. Committed on the server first,
        then the manifest lines are appended (the order LocalIndex keeps, docs/architecture.md)."""
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
        with self._lock, self._guard():
            conn = self.conn
            with conn.transaction():
                for snapshot, text, title, kind, raw_file in prepared:
                    ref = snapshot.snapshot_ref
                    entry: dict[str, object] = {"snapshot_ref": ref, "title": title, "kind": kind, "raw_file": raw_file}
                    entry.update((extra or {}).get(ref, {}))
                    if ref in new or self.has_document(ref):
                        if mend and record and ref not in new and not self._listed(ref):
                            added.append(entry)
                        continue
                    self._insert(conn, ref, snapshot.normalized_url, text, title, kind, raw_file)
                    new.add(ref)
                    added.append(entry)
            self._df.clear()
        if record and added:
            crash_point("indexed")
            jsonl.append_many(self.manifest_path, added)
            if self._manifest_refs is not None:
                self._manifest_refs.update(str(e["snapshot_ref"]) for e in added)
        return new

    def _listed(self, ref: str) -> bool:
        if self._manifest_refs is None:
            self._manifest_refs = {
                str(e["snapshot_ref"]) for e in jsonl.read(self.manifest_path) if isinstance(e.get("snapshot_ref"), str)
            }
        return ref in self._manifest_refs

    def _insert(
        self,
        conn: psycopg.Connection[tuple[object, ...]],
        ref: str,
        url: str,
        text: str,
        title: str,
        kind: str,
        raw_file: str | None,
    ) -> None:
        kb = self.name
        conn.execute(
            "INSERT INTO ad_documents (kb, snapshot_ref, url, title, kind, raw_file) VALUES (%s,%s,%s,%s,%s,%s)",
            (kb, ref, url, title, kind, raw_file),
        )
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO ad_common (kb, sentence, docs) VALUES (%s, %s, %s) "
                "ON CONFLICT (kb, sentence) DO UPDATE SET docs = ad_common.docs + excluded.docs",
                [(kb, s, n) for s, n in sorted(sentence_weights(text).items())],
            )
        tokens = 0
        cuts = cut_passages(text, title)
        with (
            conn.cursor() as cur,
            cur.copy(
                'COPY ad_passages (kb, snapshot_ref, start, "end", text, section, section_start, section_end, '
                "ntok, tsv) FROM STDIN"
            ) as copy,
        ):
            for cut in cuts:
                tsv, ntok = tsvector_text(cut.body, title, cut.section_terms)
                tokens += ntok
                copy.write_row(
                    (kb, ref, cut.start, cut.end, text[cut.start : cut.end], cut.section, cut.section_start,
                     cut.section_end, ntok, tsv)
                )  # fmt: skip
        conn.execute(
            "INSERT INTO ad_index_stats (kb, passages, tokens, terms) VALUES (%s, %s, %s, %s) ON CONFLICT (kb) "
            "DO UPDATE SET passages = ad_index_stats.passages + excluded.passages, "
            "tokens = ad_index_stats.tokens + excluded.tokens",
            (kb, len(cuts), tokens, TERMS),
        )

    def rebuild(self, *, fresh: bool = False) -> int:
        """Recreate this folder's rows from the snapshots, raw/ headers and the manifest. Every
        document is analysed again whatever ``fresh`` says: this backend keeps no stored analyses."""
        count = 0
        with self._lock, self._guard():
            conn = self.conn if self._conn is not None else pg.connect(self.url, schema=SCHEMA)
            self._conn = conn
            with conn.transaction():
                for table in ("ad_passages", "ad_documents", "ad_common", "ad_index_stats"):
                    conn.execute(f"DELETE FROM {table} WHERE kb = %s".encode(), (self.name,))
                for snap, text, title, kind, raw_file in rebuild_inputs(self.root, self.store, self.manifest_path):
                    count += 1
                    self._insert(conn, snap.snapshot_ref, snap.normalized_url, text, title, kind, raw_file)
            self._df.clear()
        return count

    # -- reading -----------------------------------------------------------------------------

    def _rows(self, sql: str, params: tuple[object, ...]) -> list[tuple[object, ...]]:
        with self._lock, self._guard():
            return self.conn.execute(sql.encode(), params).fetchall()

    def documents(self, url: str | None = None) -> list[DocumentInfo]:
        """Indexed documents (of one normalised URL if given), sorted by ref."""
        cols = "SELECT snapshot_ref, url, title, kind, raw_file FROM ad_documents WHERE kb = %s"
        if url is None:
            rows = self._rows(cols + " ORDER BY snapshot_ref", (self.name,))
        else:
            from autodidact.sources.snapshots import normalize_url

            rows = self._rows(cols + " AND url = %s ORDER BY snapshot_ref", (self.name, normalize_url(url)))
        return [
            DocumentInfo(str(r[0]), str(r[1]), str(r[2]), str(r[3]), None if r[4] is None else str(r[4])) for r in rows
        ]

    def documents_with_section(self, section: str) -> int:
        """How many documents have a section called ``section`` (any of its parts, "Classes (2/3)")."""
        like = section.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + " (%/%)"
        rows = self._rows(
            "SELECT count(DISTINCT snapshot_ref) FROM ad_passages WHERE kb = %s AND (section = %s "
            "OR section LIKE %s ESCAPE '\\')",
            (self.name, section, like),
        )
        return int(str(rows[0][0]))

    def section_count(self, title: str) -> int:
        """How many distinct sections the documents titled ``title`` have."""
        rows = self._rows(
            "SELECT count(DISTINCT p.section) FROM ad_passages p JOIN ad_documents d ON d.kb = p.kb "
            "AND d.snapshot_ref = p.snapshot_ref WHERE p.kb = %s AND d.title = %s",
            (self.name, title),
        )
        return int(str(rows[0][0]))

    def sections_of(self, title: str) -> list[tuple[str, str]]:
        """(section, snapshot_ref) of every distinct section of the documents titled ``title``."""
        rows = self._rows(
            "SELECT p.section, p.snapshot_ref FROM ad_passages p JOIN ad_documents d ON d.kb = p.kb "
            "AND d.snapshot_ref = p.snapshot_ref WHERE p.kb = %s AND d.title = %s "
            "GROUP BY p.snapshot_ref, p.section ORDER BY p.snapshot_ref, min(p.start)",
            (self.name, title),
        )
        return [(str(r[0]), str(r[1])) for r in rows if r[0]]

    def section_names(self) -> list[str]:
        """Every distinct section path in the index."""
        rows = self._rows("SELECT DISTINCT section FROM ad_passages WHERE kb = %s AND section != ''", (self.name,))
        return [str(r[0]) for r in rows]

    def section_text(self, snapshot_ref: str, section: str) -> str:
        """The text of one section of a document (its passages in order)."""
        rows = self._rows(
            "SELECT text FROM ad_passages WHERE kb = %s AND snapshot_ref = %s AND section = %s ORDER BY start",
            (self.name, snapshot_ref, section),
        )
        return "\n".join(str(r[0]) for r in rows)

    def stats(self) -> dict[str, int]:
        """Counts of documents and passages."""
        docs = self._rows("SELECT count(*) FROM ad_documents WHERE kb = %s", (self.name,))
        passages = self._rows("SELECT count(*) FROM ad_passages WHERE kb = %s", (self.name,))
        return {"documents": int(str(docs[0][0])), "passages": int(str(passages[0][0]))}

    def furniture(self) -> frozenset[str]:
        """Keys of the sentences that stand in FURNITURE_DOCS or more documents (text/furniture.py)."""
        rows = self._rows("SELECT sentence FROM ad_common WHERE kb = %s AND docs >= %s", (self.name, FURNITURE_DOCS))
        return frozenset(str(r[0]) for r in rows)

    def _totals(self) -> tuple[int, float]:
        """(passages, average passage length in terms) of this folder."""
        rows = self._rows("SELECT passages, tokens FROM ad_index_stats WHERE kb = %s", (self.name,))
        if not rows:
            return 0, 1.0
        n, tokens = int(str(rows[0][0])), int(str(rows[0][1]))
        return n, (tokens / n if n else 1.0) or 1.0

    def _tier_frequencies(self, items: list[tuple[str, bool]]) -> list[int]:
        """Passages holding each term, as LocalIndex counts them for its tiers: a prefix term (a lone
        ideograph) is taken as common, whatever it matches."""
        total = self._totals()[0]
        return [total if prefix else n for (_, prefix), n in zip(items, self._frequencies(items), strict=True)]

    def _frequencies(self, items: list[tuple[str, bool]]) -> list[int]:
        """Passages holding each term (the GIN index counts them; remembered until the next write)."""
        missing = [t for t in items if t not in self._df]
        for item in missing:
            rows = self._rows(
                "SELECT count(*) FROM ad_passages WHERE kb = %s AND tsv @@ %s::tsquery",
                (self.name, tsquery([item], "&")),
            )
            self._df[item] = int(str(rows[0][0]))
        return [self._df[t] for t in items]

    def _ranked(
        self, items: list[tuple[str, bool]], op: str, k: int, kinds: tuple[str, ...] | None
    ) -> list[tuple[int, float, str, int]]:
        """(id, score, ref, start) of the ``k`` best passages matching the terms joined by ``op``."""
        import math

        total, avgdl = self._totals()
        dfs = self._frequencies(items)
        idf = [max(math.log((total - n + 0.5) / (n + 0.5)), 1e-6) if total else 1e-6 for n in dfs]
        params: dict[str, object] = {
            "terms": [t for t, _ in items],
            "prefix": [p for _, p in items],
            "idf": idf,
            "kb": self.name,
            "tsq": tsquery(items, op),
            "avgdl": avgdl,
            "limit": k,
            "kinds": list(kinds or ()),
        }
        with self._lock, self._guard():
            rows = self.conn.execute(_rank_sql(bool(kinds)).encode(), params).fetchall()
        return [(int(str(r[0])), float(str(r[1])), str(r[2]), int(str(r[3]))) for r in rows]

    def _passages(
        self, ranked: list[tuple[int, float, str, int]], query: str, full: int | None = None
    ) -> list[Passage]:
        if not ranked:
            return []
        rows = self._rows(
            'SELECT p.id, p.snapshot_ref, d.url, d.title, p.text, p.start, p."end", d.raw_file, d.kind, '
            "p.section, p.section_start, p.section_end FROM ad_passages p JOIN ad_documents d "
            "ON d.kb = p.kb AND d.snapshot_ref = p.snapshot_ref WHERE p.id = ANY(%s)",
            ([r[0] for r in ranked],),
        )
        found = {int(str(r[0])): r[1:] for r in rows}
        out = []
        for n, (pid, score, _, _) in enumerate(ranked):
            ref, url, title, text, start, end, raw_file, kind, section, sec_start, sec_end = found[pid]
            out.append(
                Passage(
                    snapshot_ref=str(ref),
                    url=str(url),
                    title=str(title),
                    text=str(text),
                    start=int(str(start)),
                    end=int(str(end)),
                    score=round(-float(score), 6),
                    raw_file=None if raw_file is None else str(raw_file),
                    kind=str(kind),
                    highlight=highlight(str(text), query),
                    section=str(section),
                    section_start=int(str(sec_start)),
                    section_end=int(str(sec_end)),
                    all_terms=full is None or n < full,
                )
            )
        return out

    def search(self, query: str, k: int = 10, kinds: tuple[str, ...] | None = None) -> list[Passage]:
        """The ``k`` best passages for free text ``query`` (any text is safe), best first; the
        tiers of LocalIndex.search: all terms, then without unknown terms, then rarer terms OR-ed."""
        if k <= 0:
            return []
        items = query_lexemes(query or "")
        if not items:
            return []
        rows, full = tiered_search(
            items,
            k,
            lambda ts, every, n: self._ranked(ts, "&" if every else "|", n, kinds),
            self._tier_frequencies,
            lambda: self._totals()[0],
        )
        return self._passages(rows, query, full)
