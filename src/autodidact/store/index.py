"""The derived SQLite file ``.autodidact/index.sqlite``: full-text index, url→snapshot, call cache.

Why one file: everything in it can be rebuilt from the knowledge base's files, so it is a cache,
not a source of truth. Each feature registers its own ``CREATE ... IF NOT EXISTS`` schema through
:func:`connect`, keeping this module free of domain knowledge.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

INDEX_DIRNAME = ".autodidact"
INDEX_FILENAME = "index.sqlite"


def index_path(root: Path) -> Path:
    """Where the index lives for a knowledge base or report folder."""
    return Path(root) / INDEX_DIRNAME / INDEX_FILENAME


def connect(db_path: Path, schema: Iterable[str] = ()) -> sqlite3.Connection:
    """Open (creating) the SQLite file in WAL mode and apply each idempotent DDL statement."""
    db_path = Path(db_path)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(db_path, timeout=30, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    for ddl in schema:
        conn.executescript(ddl)
    return conn
