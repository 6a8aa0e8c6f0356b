"""The call cache: a repeated request is answered from ``.autodidact/index.sqlite``, not the network.

Why keyed on the canonical request: the same provider, model, messages, schema, temperature and
max tokens must give the same key on every machine and run, so a resumed or repeated run costs
nothing and replays byte-for-byte. Only reply text and usage numbers are stored — never a header,
a key or anything from the environment. The table is derived data: deleting it only costs money.
"""

from __future__ import annotations

import atexit
import queue
import sqlite3
import threading
import time
import weakref
from pathlib import Path
from typing import NamedTuple

from autodidact.jsontypes import JSONObject
from autodidact.llm.base import Completion, Request, Usage
from autodidact.store.derived_db import connect
from autodidact.store.hashing import hash_json

SCHEMA = """
CREATE TABLE IF NOT EXISTS llm_cache (
    key TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    task TEXT NOT NULL,
    text TEXT NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    finish_reason TEXT,
    created REAL NOT NULL
);
"""


def request_key(provider: str, model: str, request: Request) -> str:
    """sha256 of the canonical request: what the server sees, nothing more."""
    canonical: JSONObject = {
        "provider": provider,
        "model": model,
        "messages": [{"role": m["role"], "content": m["content"]} for m in request.messages],
        "schema": request.schema,
        "temperature": request.temperature,
        "max_tokens": request.max_tokens,
    }
    return "sha256:" + hash_json(canonical)


WRITER_IDLE_SECONDS = 2.0


class _Row(NamedTuple):
    """One ``llm_cache`` row, in the table's column order (``SCHEMA``): the writer inserts it as is."""

    key: str
    provider: str
    model: str
    task: str
    text: str
    input_tokens: int
    output_tokens: int
    finish_reason: str | None
    created: float


class _Delete(NamedTuple):
    """Keys whose rows the writer deletes."""

    keys: tuple[str, ...]


class CallCache:
    """Get/put completions by request key; opens the database on first use.

    Writes go through one background writer thread, so a call does not wait for the SQLite commit
    (~0.1 ms, as much as the rest of the layer together); a write still pending is served from
    memory, and :meth:`flush` (run by :meth:`close` and at interpreter exit) waits for the writer.
    A process killed mid-run loses at most the replies of its last few milliseconds, which a re-run
    simply asks for again.
    """

    def __init__(self, db_path: Path) -> None:
        self.db_path = Path(db_path)
        self._conn: sqlite3.Connection | None = None
        self._db_lock = threading.Lock()  # the connection
        self._lock = threading.Lock()  # the pending maps
        self._pending: dict[str, _Row] = {}
        self._deleting: set[str] = set()
        self._queue: queue.SimpleQueue[_Row | _Delete | None] = queue.SimpleQueue()  # None: stop
        self._writer: threading.Thread | None = None
        self._idle = threading.Condition(self._lock)
        self._queued = 0

    @classmethod
    def shared(cls, db_path: Path) -> CallCache:
        """The one cache object per database file in this process, so every runtime on a knowledge
        base sees the others' pending writes."""
        key = str(Path(db_path).resolve())
        with _SHARED_LOCK:
            cache = _SHARED.get(key)
            if cache is None:
                cache = _SHARED[key] = cls(db_path)
            return cache

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = connect(self.db_path, [SCHEMA])
        return self._conn

    def get(self, key: str) -> Completion | None:
        """The cached completion for ``key``, or None."""
        with self._lock:
            if key in self._deleting:
                return None
            row = self._pending.get(key)
        if row is not None:  # not yet committed
            return Completion(
                text=row.text,
                usage=Usage(row.input_tokens, row.output_tokens),
                model=row.model,
                finish_reason=row.finish_reason,
            )
        with self._db_lock:
            found = (
                self._db()
                .execute(
                    "SELECT text, input_tokens, output_tokens, model, finish_reason FROM llm_cache WHERE key = ?",
                    (key,),
                )
                .fetchone()
            )
        if found is None:
            return None
        return Completion(text=found[0], usage=Usage(found[1], found[2]), model=found[3], finish_reason=found[4])

    def put(self, key: str, provider: str, model: str, task: str, completion: Completion) -> None:
        """Store a completion (last write wins); committed by the writer thread."""
        row = _Row(
            key,
            provider,
            model,
            task,
            completion.text,
            completion.usage.input_tokens,
            completion.usage.output_tokens,
            completion.finish_reason,
            time.time(),
        )
        with self._lock:
            self._pending[key] = row
            self._deleting.discard(key)
            self._enqueue(row)

    def delete(self, *keys: str) -> None:
        """Forget completions (a reply that failed its task must not be served again)."""
        with self._lock:
            for key in keys:
                self._pending.pop(key, None)
                self._deleting.add(key)
            self._enqueue(_Delete(keys))

    def _enqueue(self, op: _Row | _Delete) -> None:
        # called with self._lock held
        self._queued += 1
        self._queue.put(op)
        if self._writer is None or not self._writer.is_alive():
            self._writer = threading.Thread(target=self._write_loop, name="autodidact-call-cache", daemon=True)
            self._writer.start()
            _LIVE.add(self)

    def _write_loop(self) -> None:
        while True:
            try:
                op = self._queue.get(timeout=WRITER_IDLE_SECONDS)
            except queue.Empty:
                with self._lock:  # idle: end the thread; the next put starts a new one
                    if self._queued == 0 and self._writer is threading.current_thread():
                        self._writer = None
                        return
                continue
            if op is None:
                return
            batch: list[_Row | _Delete] = [op]
            while True:  # take whatever else is waiting: one commit for the lot
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                batch.append(more)
            with self._db_lock:
                conn = self._db()
                for item in batch:
                    if isinstance(item, _Row):
                        conn.execute("INSERT OR REPLACE INTO llm_cache VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", item)
                    else:
                        conn.executemany("DELETE FROM llm_cache WHERE key = ?", [(k,) for k in item.keys])
                conn.commit()
            with self._lock:
                for item in batch:
                    if isinstance(item, _Row):
                        if self._pending.get(item.key) is item:  # not replaced by a newer put meanwhile
                            del self._pending[item.key]
                    else:
                        for key in item.keys:
                            if key not in self._pending:
                                self._deleting.discard(key)
                self._queued -= len(batch)
                if self._queued == 0:
                    self._idle.notify_all()

    def flush(self, timeout: float = 30.0) -> None:
        """Wait until every put and delete is committed."""
        with self._lock:
            self._idle.wait_for(lambda: self._queued == 0, timeout=timeout)

    def count(self) -> int:
        """Number of cached calls."""
        self.flush()
        with self._db_lock:
            return int(self._db().execute("SELECT COUNT(*) FROM llm_cache").fetchone()[0])

    def close(self) -> None:
        """Commit what is pending, stop the writer and close the connection (reopened on next use)."""
        self.flush()
        with self._lock:
            writer, self._writer = self._writer, None
            if writer is not None:
                self._queue.put(None)
        if writer is not None:
            writer.join(timeout=5)
        with self._db_lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


_LIVE: weakref.WeakSet[CallCache] = weakref.WeakSet()
_SHARED: weakref.WeakValueDictionary[str, CallCache] = weakref.WeakValueDictionary()
_SHARED_LOCK = threading.Lock()


@atexit.register
def _flush_all() -> None:
    for cache in list(_LIVE):
        try:
            cache.flush(timeout=5)
        except Exception:  # never fail interpreter exit
            pass
