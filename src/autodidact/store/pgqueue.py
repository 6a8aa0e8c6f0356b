"""A work queue in a PostgreSQL table: ``FOR UPDATE SKIP LOCKED`` claims, leases that expire.

Why this shape (docs/team.md, "The queue"): any number of ``autodidact worker`` processes, on any
machine, claim one job at a time without blocking each other (``SKIP LOCKED``). A claim is a lease
with a deadline the worker keeps pushing back while it works (a heartbeat); a worker that dies
stops pushing, its lease runs out and the next claim takes the job again. A job may name jobs
that must settle first (``after``), so a report's downstream dimension waits for its upstreams.
Jobs are idempotent by design — a dimension's evidence file is written atomically — so a job
done twice (a lease lost to a slow worker) gives the same result. No domain knowledge here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from autodidact.store import pg

if TYPE_CHECKING:
    import psycopg

SCHEMA = """
CREATE TABLE IF NOT EXISTS ad_queue (
    id BIGSERIAL PRIMARY KEY,
    job TEXT NOT NULL UNIQUE,
    batch TEXT NOT NULL,
    payload JSONB NOT NULL,
    after TEXT[] NOT NULL DEFAULT '{}',
    state TEXT NOT NULL DEFAULT 'queued',
    lease_until TIMESTAMPTZ,
    worker TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    updated TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS ad_queue_batch ON ad_queue (batch);
CREATE INDEX IF NOT EXISTS ad_queue_open ON ad_queue (id) WHERE state IN ('queued', 'running');
ALTER TABLE ad_queue ADD COLUMN IF NOT EXISTS result JSONB;
"""

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"

_CLAIM = """
UPDATE ad_queue SET state = 'running', worker = %(worker)s, attempts = attempts + 1, error = NULL,
       lease_until = now() + make_interval(secs => %(lease)s), updated = now()
WHERE id = (
    SELECT q.id FROM ad_queue q
    WHERE (q.state = 'queued' OR (q.state = 'running' AND q.lease_until < now()))
      AND NOT EXISTS (SELECT 1 FROM ad_queue d WHERE d.job = ANY(q.after) AND d.state NOT IN ('done', 'failed'))
    ORDER BY q.id
    FOR UPDATE SKIP LOCKED
    LIMIT 1
)
RETURNING id, job, batch, payload, attempts
"""


@dataclass(frozen=True)
class Job:
    """A claimed job: its row id, unique name, batch (one report), payload and how often it was claimed."""

    id: int
    job: str
    batch: str
    payload: dict[str, object]
    attempts: int


@dataclass(frozen=True)
class JobState:
    """One job's state as the enqueuer sees it while waiting."""

    job: str
    state: str
    error: str | None
    attempts: int
    worker: str | None


class Queue:
    """The queue on one server; every method opens nothing new (one connection per object)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: psycopg.Connection[tuple[object, ...]] | None = None

    @property
    def conn(self) -> psycopg.Connection[tuple[object, ...]]:
        if self._conn is None:
            self._conn = pg.connect(self.url, schema=[SCHEMA])
        return self._conn

    def _run(self, sql: str, params: dict[str, object] | tuple[object, ...]) -> list[tuple[object, ...]]:
        import psycopg

        try:
            cur = self.conn.execute(sql.encode(), params)
            return cur.fetchall() if cur.description is not None else []
        except psycopg.Error as exc:
            self.close()
            raise pg.failed(self.url, exc) from None

    def enqueue(self, job: str, batch: str, payload: dict[str, object], after: list[str]) -> None:
        """Add a job, or put a settled one back in the queue (a rerun retries a failed dimension).

        A job still queued or running (another enqueuer's, or a live worker's) is left as it is."""
        self._run(
            "INSERT INTO ad_queue (job, batch, payload, after) VALUES (%(job)s, %(batch)s, %(payload)s, %(after)s) "
            "ON CONFLICT (job) DO UPDATE SET state = 'queued', payload = excluded.payload, after = excluded.after, "
            "lease_until = NULL, worker = NULL, error = NULL, result = NULL, updated = now() "
            "WHERE ad_queue.state IN ('done', 'failed')",
            {"job": job, "batch": batch, "payload": json.dumps(payload), "after": after},
        )

    def claim(self, worker: str, lease_seconds: float) -> Job | None:
        """Take the next job whose ``after`` jobs have settled (or whose lease ran out), or None."""
        rows = self._run(_CLAIM, {"worker": worker, "lease": lease_seconds})
        if not rows:
            return None
        row = rows[0]
        payload = row[3] if isinstance(row[3], dict) else json.loads(str(row[3]))
        return Job(id=int(str(row[0])), job=str(row[1]), batch=str(row[2]), payload=payload, attempts=int(str(row[4])))

    def renew(self, job_id: int, worker: str, lease_seconds: float) -> bool:
        """Push the lease back; False when the job is no longer this worker's (its lease was lost)."""
        rows = self._run(
            "UPDATE ad_queue SET lease_until = now() + make_interval(secs => %s), updated = now() "
            "WHERE id = %s AND worker = %s AND state = 'running' RETURNING id",
            (lease_seconds, job_id, worker),
        )
        return bool(rows)

    def finish(
        self, job_id: int, worker: str, error: str | None = None, result: dict[str, object] | None = None
    ) -> None:
        """Settle a job as done (``error`` None) or failed, with what it produced (``result``, for the
        enqueuer to read); ignored when another worker holds it now."""
        self._run(
            "UPDATE ad_queue SET state = %s, error = %s, result = %s, lease_until = NULL, updated = now() "
            "WHERE id = %s AND worker = %s AND state = 'running'",
            (DONE if error is None else FAILED, error, None if result is None else json.dumps(result), job_id, worker),
        )

    def results(self, batch: str) -> dict[str, object]:
        """The result each settled job of a batch left, by job name (jobs without one left out)."""
        rows = self._run("SELECT job, result FROM ad_queue WHERE batch = %s AND result IS NOT NULL", (batch,))
        return {str(r[0]): r[1] if not isinstance(r[1], str) else json.loads(r[1]) for r in rows}

    def release(self, job_id: int, worker: str) -> None:
        """Give a job back unfinished (a worker stopped by the person): claimable again at once."""
        self._run(
            "UPDATE ad_queue SET state = 'queued', worker = NULL, lease_until = NULL, updated = now() "
            "WHERE id = %s AND worker = %s AND state = 'running'",
            (job_id, worker),
        )

    def states(self, batch: str) -> list[JobState]:
        """Every job of a batch, in the order enqueued."""
        rows = self._run(
            "SELECT job, state, error, attempts, worker FROM ad_queue WHERE batch = %s ORDER BY id", (batch,)
        )
        return [
            JobState(
                str(r[0]),
                str(r[1]),
                None if r[2] is None else str(r[2]),
                int(str(r[3])),
                None if r[4] is None else str(r[4]),
            )
            for r in rows
        ]

    def close(self) -> None:
        """Close the connection (reopened on next use)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:  # a dead server: nothing left to close
                pass


def _text(value: object) -> str | None:
    return None if value is None else str(value)
