"""The call cache: a repeated request is answered from ``.autodidact/index.sqlite``, not the network.

Why keyed on the canonical request: the same provider, model, messages, schema, temperature and
max tokens must give the same key on every machine and run, so a resumed or repeated run costs
nothing and replays byte-for-byte. Only reply text and usage numbers are stored — never a header,
a key or anything from the environment. The table is derived data: deleting it only costs money.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from autodidact.llm.base import Completion, Request, Usage
from autodidact.store.hashing import hash_json
from autodidact.store.index import connect

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
    canonical: dict[str, Any] = {
        "provider": provider,
        "model": model,
        "messages": [{"role": m["role"], "content": m["content"]} for m in request.messages],
        "schema": request.schema,
        "temperature": request.temperature,
        "max_tokens": request.max_tokens,
    }
    return "sha256:" + hash_json(canonical)


class CallCache:
    """Get/put completions by request key; opens the database on first use."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = Path(db_path)
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = connect(self.db_path, [SCHEMA])
        return self._conn

    def get(self, key: str) -> Completion | None:
        """The cached completion for ``key``, or None."""
        with self._lock:
            row = (
                self._db()
                .execute(
                    "SELECT text, input_tokens, output_tokens, model, finish_reason FROM llm_cache WHERE key = ?",
                    (key,),
                )
                .fetchone()
            )
        if row is None:
            return None
        return Completion(text=row[0], usage=Usage(row[1], row[2]), model=row[3], finish_reason=row[4])

    def put(self, key: str, provider: str, model: str, task: str, completion: Completion) -> None:
        """Store a completion (last write wins)."""
        with self._lock:
            conn = self._db()
            conn.execute(
                "INSERT OR REPLACE INTO llm_cache VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    provider,
                    model,
                    task,
                    completion.text,
                    completion.usage.input_tokens,
                    completion.usage.output_tokens,
                    completion.finish_reason,
                    time.time(),
                ),
            )
            conn.commit()

    def delete(self, *keys: str) -> None:
        """Forget completions (a reply that failed its task must not be served again)."""
        with self._lock:
            conn = self._db()
            conn.executemany("DELETE FROM llm_cache WHERE key = ?", [(k,) for k in keys])
            conn.commit()

    def count(self) -> int:
        """Number of cached calls."""
        with self._lock:
            return int(self._db().execute("SELECT COUNT(*) FROM llm_cache").fetchone()[0])

    def close(self) -> None:
        """Close the connection (reopened on next use)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
