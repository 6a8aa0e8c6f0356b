"""Report workers on the team backend: two worker processes, one killed mid-dimension, give exactly
the report a single process gives (docs/team.md, "Workers")."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from autodidact.store.batch import CRASH_ENV, CRASH_EXIT_CODE
from autodidact.testing.corpora import write_pydoc_module_corpus

REQUEST = "How do I read CSV files and parse JSON in Python?"


def _files(folder: Path) -> dict[str, str]:
    """What a report run leaves a reader: report.md and each dimension's evidence and sub-report."""
    names = ["report.md", *(str(p.relative_to(folder)) for p in sorted((folder / "sub_reports").iterdir()))]
    return {name: (folder / name).read_text(encoding="utf-8") for name in names}


def _job_rows(url: str) -> list[tuple[str, str, int]]:
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT job, state, attempts FROM ad_queue ORDER BY id").fetchall()
    return [(str(r[0]), str(r[1]), int(r[2])) for r in rows]


def test_a_killed_worker_loses_nothing_and_the_report_equals_a_single_process_run(
    tmp_path: Path, pg_url: str, team_env, run_cli, spawn_cli
) -> None:
    corpus = tmp_path / "corpus"
    write_pydoc_module_corpus(corpus, ["json", "csv", "queue"])
    env = team_env(pg_url)
    single = run_cli("report", REQUEST, "--corpus", "corpus", "--report-dir", "single", cwd=tmp_path, env=env)
    assert single.returncode == 0, single.stderr[-2000:]

    coordinator = spawn_cli(
        "report", REQUEST, "--corpus", "corpus", "--report-dir", "multi", "--workers", cwd=tmp_path, env=env
    )
    # Worker A dies (exits hard, as kill -9 would leave it) right after claiming its first dimension.
    doomed = spawn_cli("worker", "--lease", "3", cwd=tmp_path, env=team_env(pg_url, **{CRASH_ENV: "worker-claimed:1"}))
    assert doomed.wait(timeout=600) == CRASH_EXIT_CODE, doomed.stderr.read() if doomed.stderr else ""
    claimed = [job for job, state, _ in _job_rows(pg_url) if state == "running"]
    assert len(claimed) == 1  # its lease is still on the table; nobody settles that dimension for it
    survivor = spawn_cli("worker", "--lease", "3", "--idle-exit", "10", cwd=tmp_path, env=env)
    _out, err = coordinator.communicate(timeout=900)
    assert coordinator.returncode == 0, err[-2000:]
    survivor.communicate(timeout=120)
    assert survivor.returncode == 0

    rows = {job: (state, attempts) for job, state, attempts in _job_rows(pg_url)}
    assert rows[claimed[0]] == ("done", 2)  # the dead worker's dimension, redone after its lease ran out
    assert all(state == "done" for state, _ in rows.values()) and len(rows) >= 2
    assert _files(tmp_path / "multi") == _files(tmp_path / "single")


def test_report_workers_without_a_server_is_refused_in_one_line(tmp_path: Path, team_env, run_cli) -> None:
    done = run_cli("report", REQUEST, "--report-dir", "rep", "--workers", cwd=tmp_path, env=team_env(None))
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == "error: --workers needs the team backend (a PostgreSQL server)"
    assert "Traceback" not in done.stderr and not (tmp_path / "rep").exists()


def test_a_worker_with_a_bad_url_names_it_without_its_password(tmp_path: Path, team_env, run_cli) -> None:
    done = run_cli("worker", "--database", "mysql://me:hunter2@db/x", cwd=tmp_path, env=team_env(None))
    assert done.returncode == 2 and "hunter2" not in done.stderr + done.stdout
    assert "is not a postgresql:// URL" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.usefixtures("pg_server")
def test_a_lease_that_runs_out_goes_to_the_next_worker_and_after_waits_for_upstreams(pg_url: str) -> None:
    from autodidact.store.pgqueue import Queue

    queue = Queue(pg_url)
    queue.enqueue("b/one", "b", {"n": 1}, [])
    queue.enqueue("b/two", "b", {"n": 2}, ["b/one"])
    first = queue.claim("w1", lease_seconds=1)
    assert first is not None and first.job == "b/one"
    assert queue.claim("w2", lease_seconds=30) is None  # b/one is leased, b/two waits for it
    deadline = time.monotonic() + 60
    again = None
    while again is None and time.monotonic() < deadline:
        time.sleep(0.5)
        again = queue.claim("w2", lease_seconds=30)
    assert again is not None and again.job == "b/one" and again.attempts == 2
    queue.finish(first.id, "w1")  # the old holder's late word counts for nothing
    assert [s.state for s in queue.states("b")] == ["running", "queued"]
    queue.finish(again.id, "w2")
    nxt = queue.claim("w2", lease_seconds=30)
    assert nxt is not None and nxt.job == "b/two"
    queue.release(nxt.id, "w2")  # a worker stopped by its person gives the job back at once
    back = queue.claim("w3", lease_seconds=30)
    assert back is not None and back.job == "b/two" and back.attempts == 2
    queue.close()
