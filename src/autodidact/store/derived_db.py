"""The derived SQLite file ``.autodidact/index.sqlite``: full-text index, url→snapshot, call cache.

Why one file: everything in it can be rebuilt from the knowledge base's files, so it is a cache,
not a source of truth. Each feature registers its own ``CREATE ... IF NOT EXISTS`` schema through
:func:`connect`, keeping this module free of domain knowledge.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path

log = logging.getLogger(__name__)

INDEX_DIRNAME = ".autodidact"
INDEX_FILENAME = "index.sqlite"


def index_path(root: Path) -> Path:
    """Where the index lives for a knowledge base or report folder."""
    return Path(root) / INDEX_DIRNAME / INDEX_FILENAME


def connect(db_path: Path, schema: Iterable[str] = ()) -> sqlite3.Connection:
    """Open (creating) the SQLite file in WAL mode and apply each idempotent DDL statement.

    A file SQLite cannot read (flipped bytes, a garbage header) is set aside as
    ``index.sqlite.corrupt`` and a new, empty one is made: the file is derived, so its owner
    rebuilds what it needs (docs/hardening.md, "A corrupt index"). A warning says so.
    """
    conn, _ = connect_derived(db_path, schema)
    return conn


def connect_derived(db_path: Path, schema: Iterable[str] = ()) -> tuple[sqlite3.Connection, bool]:
    """:func:`connect`, and whether a corrupt file had to be set aside (the caller rebuilds)."""
    db_path = Path(db_path)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    ddl = list(schema)
    try:
        return _open(db_path, ddl), False
    except sqlite3.DatabaseError as exc:
        if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
            raise
        aside = set_aside(db_path)
        log.warning("%s could not be read (%s); set aside as %s and made anew", db_path, exc, aside.name)
        return _open(db_path, ddl), True


def set_aside(db_path: Path) -> Path:
    """Move an unreadable database (and its WAL files) to ``<name>.corrupt``; returns the new path."""
    aside = db_path.with_name(db_path.name + ".corrupt")
    if db_path.exists():
        db_path.replace(aside)
    for suffix in ("-wal", "-shm"):
        db_path.with_name(db_path.name + suffix).unlink(missing_ok=True)
    return aside


def check_database(db_path: Path) -> str | None:
    """None when SQLite reads the file and ``PRAGMA quick_check`` is ``ok``; else what is wrong."""
    try:
        conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=30)
        try:
            rows = conn.execute("PRAGMA quick_check").fetchall()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    problems = [str(r[0]) for r in rows if str(r[0]).lower() != "ok"]
    return "; ".join(problems[:3]) or None


def _open(db_path: Path, schema: list[str]) -> sqlite3.Connection:
    conn = sqlite3.connect(db_path, timeout=30, check_same_thread=False)
    try:
        # Switching to WAL takes a lock that the busy timeout does not wait for ("database is
        # locked" when another connection is open): switch only a file that is not in WAL yet, and
        # wait a little if another writer is making the same switch right now.
        for attempt in range(50):
            try:
                if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                    conn.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == 49:
                    raise
                time.sleep(0.1)
        conn.execute("PRAGMA synchronous=NORMAL")
        for ddl in schema:
            conn.executescript(ddl)
    except sqlite3.DatabaseError:
        conn.close()
        raise
    return conn
