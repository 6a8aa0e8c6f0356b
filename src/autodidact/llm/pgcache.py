"""The call cache and the usage ledger on the team backend: one cache and one ledger for a team.

Why (docs/team.md, "Cache and ledger"): with the PostgreSQL backend, a reply one member's run paid
for is served to every other member's identical request (the key is the canonical request, the
same on every machine: llm/cache.py), and every call is recorded in one table, so ``autodidact
usage --team`` shows what the whole team spent (the caps of ``[budget]`` still hold per run).
The local ``usage_ledger.jsonl`` is still written: the files stay the truth of what this
knowledge base spent. Writes are synchronous here (a server round trip, not a commit on
a local disk, which is why the SQLite cache has a writer thread).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from autodidact.llm.base import Completion, Usage
from autodidact.llm.ledger import Ledger, LedgerEntry, Totals, UsageTotals
from autodidact.store import pg

if TYPE_CHECKING:
    import psycopg

SCHEMA = """
CREATE TABLE IF NOT EXISTS ad_llm_cache (
    key TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    task TEXT NOT NULL,
    text TEXT NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    finish_reason TEXT,
    created DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS ad_usage (
    id BIGSERIAL PRIMARY KEY,
    kb TEXT NOT NULL,
    entry JSONB NOT NULL,
    recorded TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS ad_usage_kb ON ad_usage (kb);
"""


class _Connection:
    """One lazily opened connection, used under a lock; a failure becomes one DatabaseError line."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: psycopg.Connection[tuple[object, ...]] | None = None
        self._lock = threading.Lock()

    def run(self, sql: str, params: tuple[object, ...]) -> list[tuple[object, ...]]:
        import psycopg

        with self._lock:
            try:
                if self._conn is None:
                    self._conn = pg.connect(self.url, schema=[SCHEMA])
                cur = self._conn.execute(sql.encode(), params)
                return cur.fetchall() if cur.description is not None else []
            except psycopg.Error as exc:
                self._close()
                raise pg.failed(self.url, exc) from None

    def _close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:  # a dead server: nothing left to close
                pass

    def close(self) -> None:
        with self._lock:
            self._close()


class PgCallCache:
    """:class:`~autodidact.llm.cache.CallCache`'s methods over the shared ``ad_llm_cache`` table."""

    def __init__(self, url: str) -> None:
        self._db = _Connection(url)

    def get(self, key: str) -> Completion | None:
        """The cached completion for ``key``, or None."""
        rows = self._db.run(
            "SELECT text, input_tokens, output_tokens, model, finish_reason FROM ad_llm_cache WHERE key = %s", (key,)
        )
        if not rows:
            return None
        text, tin, tout, model, finish = rows[0]
        return Completion(
            text=str(text),
            usage=Usage(int(str(tin)), int(str(tout))),
            model=str(model),
            finish_reason=None if finish is None else str(finish),
        )

    def put(self, key: str, provider: str, model: str, task: str, completion: Completion) -> None:
        """Store a completion (last write wins)."""
        self._db.run(
            "INSERT INTO ad_llm_cache VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (key) DO UPDATE SET "
            "text = excluded.text, input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens, "
            "finish_reason = excluded.finish_reason, created = excluded.created",
            (key, provider, model, task, completion.text, completion.usage.input_tokens,
             completion.usage.output_tokens, completion.finish_reason, time.time()),
        )  # fmt: skip

    def delete(self, *keys: str) -> None:
        """Forget completions (a reply that failed its task must not be served again)."""
        self._db.run("DELETE FROM ad_llm_cache WHERE key = ANY(%s)", (list(keys),))

    def flush(self, timeout: float = 30.0) -> None:
        """Nothing is pending: every write above is committed when it returns."""

    def count(self) -> int:
        """Number of cached calls (the team's)."""
        return int(str(self._db.run("SELECT count(*) FROM ad_llm_cache", ())[0][0]))

    def close(self) -> None:
        """Close the connection (reopened on next use)."""
        self._db.close()


class PgLedger(Ledger):
    """The JSONL ledger of the folder, and each call also in the team's ``ad_usage`` table."""

    def __init__(self, path: Path | None, url: str, name: str) -> None:
        super().__init__(path)
        self._db = _Connection(url)
        self.name = name

    def record(self, entry: LedgerEntry) -> None:
        """Append to the file (and this run's totals), then to the team's table."""
        super().record(entry)
        data = {k: v for k, v in entry.__dict__.items()}
        if not data["ts"]:
            data["ts"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        self._db.run("INSERT INTO ad_usage (kb, entry) VALUES (%s, %s)", (self.name, json.dumps(data)))

    def close(self) -> None:
        super().close()
        self._db.close()


def team_totals(url: str) -> UsageTotals:
    """Totals over every call the team ever recorded on the server (every knowledge base)."""
    db = _Connection(url)
    try:
        rows = db.run("SELECT entry FROM ad_usage ORDER BY id", ())
    finally:
        db.close()
    totals = Totals()
    for (entry,) in rows:
        totals.add(entry if isinstance(entry, dict) else json.loads(str(entry)))
    return totals.as_dict()
