"""Single-writer locks that hold across machines: PostgreSQL session advisory locks.

Why: the ``fcntl`` lock of store/lock.py holds between processes of one machine, not across
machines nor on most network file systems. With the team backend, the knowledge base's writer
lock and a report folder's lock are also taken on the server, keyed by a name every checkout
shares (docs/team.md, "Locks"). The server releases a session lock when its connection ends, so
a killed holder (or a lost network) never leaves a knowledge base locked.
"""

from __future__ import annotations

import contextlib
from datetime import datetime
from types import TracebackType
from typing import TYPE_CHECKING

from autodidact.errors import LockedError
from autodidact.store import pg

if TYPE_CHECKING:
    import psycopg


class AdvisoryLock:
    """Exclusive, non-blocking lock on ``name`` in the server at ``url``; a context manager."""

    def __init__(self, url: str, name: str, what: str = "knowledge base") -> None:
        self.url = url
        self.name = name
        self.what = what
        self.key = pg.advisory_key(f"lock:{what}:{name}")
        self._conn: psycopg.Connection[tuple[object, ...]] | None = None

    def acquire(self) -> None:
        """Take the lock or raise :class:`LockedError` naming the holder (program, pid, host)."""
        import psycopg

        conn = pg.connect(self.url)
        try:
            row = conn.execute("SELECT pg_try_advisory_lock(%s)", (self.key,)).fetchone()
            if row is None or not row[0]:
                holder = self._holder(conn)
                raise LockedError(
                    f"{self.what} {self.name!r} in use by {holder} (PostgreSQL lock at {pg.mask_url(self.url)})",
                    hint="wait for that run to finish, or stop it; the server frees the lock when it ends",
                )
        except psycopg.Error as exc:
            conn.close()
            raise pg.failed(self.url, exc) from None
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    def _holder(self, conn: psycopg.Connection[tuple[object, ...]]) -> str:
        unsigned = self.key & 0xFFFFFFFFFFFFFFFF
        row = conn.execute(
            "SELECT a.application_name, a.backend_start FROM pg_locks l "
            "JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted "
            "AND l.classid = %s AND l.objid = %s AND l.objsubid = 1 LIMIT 1",
            (unsigned >> 32, unsigned & 0xFFFFFFFF),
        ).fetchone()
        if row is None:
            return "another process"
        name = str(row[0] or "another process")
        started = row[1]
        since = started.strftime("%Y-%m-%dT%H:%M:%S%z") if isinstance(started, datetime) else "?"
        return f"{name} since {since}"

    @property
    def held(self) -> bool:
        """Whether this object holds the lock and its connection still answers."""
        if self._conn is None:
            return False
        try:
            self._conn.execute("SELECT 1")
        except Exception:  # a lost connection has lost the lock with it
            return False
        return True

    def release(self) -> None:
        """Release (idempotent); closing the connection frees the lock even if the unlock fails."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        with contextlib.suppress(Exception):
            conn.execute("SELECT pg_advisory_unlock(%s)", (self.key,))
        with contextlib.suppress(Exception):
            conn.close()

    def __enter__(self) -> AdvisoryLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
