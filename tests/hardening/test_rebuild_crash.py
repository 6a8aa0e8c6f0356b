"""`index rebuild` killed before it commits leaves the index it started from (issue 18).

A rebuild drops the index's tables, fills them again and makes the passages' index in one
transaction (docs/architecture.md, "Rebuilding the index"). The child process is killed hard
(``os._exit``) at the ``rebuilt`` point: every row written, the commit not yet made. The index
must then hold exactly what it held, answer every query as before, and ``verify`` must hold; a
rebuild run again must give the same index.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from autodidact.sources.passage_index import LocalIndex
from autodidact.store.batch import CRASH_ENV, CRASH_EXIT_CODE

from .conftest import assert_verified, run_cli

QUERIES = ["yield expression", "with statement context manager", "try finally", "lambda"]


def _state(root: Path) -> dict[str, object]:
    conn = sqlite3.connect(root / ".autodidact" / "index.sqlite")
    try:
        tables = {
            t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("src_documents", "src_passages", "src_common", "src_analysis")
        }
        indexes = sorted(r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='index'"))
    finally:
        conn.close()
    with LocalIndex(root) as index:
        found = {q: [(h.snapshot_ref, h.start, h.score) for h in index.search(q, 5)] for q in QUERIES}
    return {"tables": tables, "indexes": indexes, "search": found}


def test_a_rebuild_killed_before_its_commit_leaves_the_index_whole(fresh_kb: Callable[..., Path]) -> None:
    kb = fresh_kb()
    before = _state(kb)
    assert all(before["search"].values())  # type: ignore[union-attr]
    died = run_cli("index", "rebuild", "--kb", str(kb), env={CRASH_ENV: "rebuilt:1"})
    assert died.returncode == CRASH_EXIT_CODE, died.stderr[-2000:]
    assert _state(kb) == before
    assert_verified(kb)
    done = run_cli("index", "rebuild", "--kb", str(kb))
    assert done.returncode == 0, done.stderr[-2000:]
    assert _state(kb)["search"] == before["search"]
    assert_verified(kb)
