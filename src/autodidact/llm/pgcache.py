"""The call cache and the usage ledger on the team backend: one cache and one ledger for a team.

Why (docs/team.md, "Cache and ledger"): with the PostgreSQL backend, a reply one member's run paid
for is served to every other member's identical request (the key is the canonical request, the
same on every machine: llm/cache.py), and every call is recorded in one table, so ``autodidact
usage --team`` shows what the whole team spent. The run's own caps (``[budget] max_*``) hold per
run; the team's (``team_max_*``, :class:`PgTeamBudget`) hold over every process of every member.
The local ``usage_ledger.jsonl`` is still written: the files stay the truth of what this
knowledge base spent. Writes are synchronous here (a server round trip, not a commit on
a local disk, which is why the SQLite cache has a writer thread).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from autodidact.config import BudgetSettings
from autodidact.errors import TeamBudgetExceeded
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
CREATE TABLE IF NOT EXISTS ad_usage_totals (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    tokens BIGINT NOT NULL,
    cost DOUBLE PRECISION NOT NULL
);
DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM ad_usage_totals) THEN
        INSERT INTO ad_usage_totals (id, tokens, cost)
        SELECT 1, coalesce(sum((entry->>'input_tokens')::bigint + (entry->>'output_tokens')::bigint), 0),
               coalesce(sum((entry->>'cost_usd')::float8), 0)
        FROM ad_usage;
    END IF;
END $$;
CREATE TABLE IF NOT EXISTS ad_budget_holds (
    id BIGSERIAL PRIMARY KEY,
    pid INTEGER NOT NULL,
    tokens BIGINT NOT NULL,
    cost DOUBLE PRECISION NOT NULL,
    task TEXT NOT NULL,
    created TIMESTAMPTZ NOT NULL DEFAULT now()
);
"""
# ad_usage_totals: the sum of every ad_usage row, kept in the statement that inserts the row, so the
# team budget reads one row instead of the whole ledger. ad_budget_holds: the estimates of calls in
# flight, each held by the server process of its connection (pid); a hold whose connection is gone
# (its process killed, its network lost) is dropped by the next reservation.

T = TypeVar("T")


class _Connection:
    """One lazily opened connection, used under a lock; a failure becomes one DatabaseError line."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: psycopg.Connection[tuple[object, ...]] | None = None
        self._lock = threading.Lock()

    def run(self, sql: str, params: tuple[object, ...]) -> list[tuple[object, ...]]:
        def one(conn: psycopg.Connection[tuple[object, ...]]) -> list[tuple[object, ...]]:
            cur = conn.execute(sql.encode(), params)
            return cur.fetchall() if cur.description is not None else []

        return self.transaction(one)

    def transaction(self, work: Callable[[psycopg.Connection[tuple[object, ...]]], T]) -> T:
        """``work(conn)`` in one transaction (rolled back when it raises)."""
        import psycopg

        with self._lock:
            try:
                if self._conn is None:
                    self._conn = pg.connect(self.url, schema=[SCHEMA])
                with self._conn.transaction():
                    return work(self._conn)
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
        self._db.run(
            "WITH row AS (INSERT INTO ad_usage (kb, entry) VALUES (%s, %s) RETURNING 1) "
            "UPDATE ad_usage_totals SET tokens = tokens + %s, cost = cost + %s WHERE id = 1",
            (self.name, json.dumps(data), entry.input_tokens + entry.output_tokens, entry.cost_usd),
        )

    def close(self) -> None:
        super().close()
        self._db.close()


class PgTeamBudget:
    """The team's caps (``[budget] team_max_tokens`` / ``team_max_cost``) over every call any member
    recorded on the server, and the estimates of every call in flight.

    Why on the server: each run's own guard (llm/budget.py) sees only its process, so two members'
    runs each under their cap could together pass the team's. A reservation is one transaction under
    an advisory lock: what the team spent, plus what calls in flight hold, plus this estimate, against
    the caps; then the estimate is held until the call is settled (docs/team.md, "Cache and ledger")."""

    def __init__(self, url: str, budget: BudgetSettings) -> None:
        self._db = _Connection(url)
        self.max_tokens = budget.team_max_tokens
        self.max_cost = budget.team_max_cost

    def __str__(self) -> str:
        caps = [f"${self.max_cost:g}" if self.max_cost is not None else "", f"{self.max_tokens} tokens" if
                self.max_tokens is not None else ""]  # fmt: skip
        return "team budget " + " and ".join(c for c in caps if c)

    def spent(self) -> tuple[int, float]:
        """(tokens, cost) the team recorded on the server."""
        rows = self._db.run("SELECT tokens, cost FROM ad_usage_totals WHERE id = 1", ())
        return (int(str(rows[0][0])), float(str(rows[0][1]))) if rows else (0, 0.0)

    def reserve(self, tokens: int, cost: float, *, task: str) -> int:
        """Hold an estimate for one call, or raise :class:`TeamBudgetExceeded` if it would pass a team cap."""

        def hold(conn: psycopg.Connection[tuple[object, ...]]) -> int:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (pg.advisory_key("team-budget"),))
            conn.execute(
                "DELETE FROM ad_budget_holds h WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = h.pid)"
            )
            row = conn.execute(
                "SELECT t.tokens, t.cost, coalesce(sum(h.tokens), 0)::bigint, coalesce(sum(h.cost), 0)::float8 "
                "FROM ad_usage_totals t LEFT JOIN ad_budget_holds h ON true WHERE t.id = 1 GROUP BY t.tokens, t.cost"
            ).fetchone()
            spent_tokens, spent_cost, held_tokens, held_cost = (
                (int(str(row[0])), float(str(row[1])), int(str(row[2])), float(str(row[3])))
                if row
                else (0, 0.0, 0, 0.0)
            )
            if self.max_tokens is not None and spent_tokens + held_tokens + tokens > self.max_tokens:
                raise TeamBudgetExceeded(
                    f"team budget: the next model call (task {task}, up to ~{tokens} tokens) would pass "
                    f"team_max_tokens {self.max_tokens} ({spent_tokens} spent by the team, {held_tokens} held by "
                    "calls in flight); stopped before it",
                    hint="raise [budget] team_max_tokens (or AUTODIDACT_TEAM_MAX_TOKENS); `autodidact usage --team` "
                    "shows what the team spent; finished steps are kept",
                )
            if self.max_cost is not None and spent_cost + held_cost + cost > self.max_cost:
                raise TeamBudgetExceeded(
                    f"team budget: the next model call (task {task}, up to ~${cost:.4f}) would pass "
                    f"team_max_cost {self.max_cost:g} USD (${spent_cost:.4f} spent by the team, ${held_cost:.4f} "
                    "held by calls in flight); stopped before it",
                    hint="raise [budget] team_max_cost (or AUTODIDACT_TEAM_MAX_COST); `autodidact usage --team` "
                    "shows what the team spent; finished steps are kept",
                )
            got = conn.execute(
                "INSERT INTO ad_budget_holds (pid, tokens, cost, task) VALUES (pg_backend_pid(), %s, %s, %s) "
                "RETURNING id",
                (tokens, cost, task),
            ).fetchone()
            assert got is not None
            return int(str(got[0]))

        return self._db.transaction(hold)

    def release(self, hold: int) -> None:
        """Drop a call's estimate (the ledger holds what it spent by now)."""
        self._db.run("DELETE FROM ad_budget_holds WHERE id = %s", (hold,))

    def close(self) -> None:
        """Close the connection; its holds end with it."""
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
