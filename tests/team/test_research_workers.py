"""A research round's key questions through the team backend's queue: two worker processes, one
killed right after its claim, give exactly the knowledge base a single process gives (docs/team.md,
"Research questions")."""

from __future__ import annotations

from pathlib import Path

from autodidact.store.batch import CRASH_ENV, CRASH_EXIT_CODE
from autodidact.testing.corpora import write_pydoc_module_corpus

TOPIC = "How do I read CSV files and parse JSON in Python?"


def _files(kb: Path) -> dict[str, str]:
    """What a round leaves a reader: its questions and evidence, the raw files and the wiki."""
    paths = [*sorted((kb / "outputs" / "rounds").glob("round_*_evidence.json")), *sorted((kb / "raw").iterdir()),
             *sorted((kb / "wiki").rglob("*.md"))]  # fmt: skip
    return {str(p.relative_to(kb)): p.read_text(encoding="utf-8") for p in paths if p.is_file()}


def _kept_by_job(url: str) -> dict[str, int]:
    """How many verified claims each question's job handed back to the round's process."""
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT job, result FROM ad_queue ORDER BY id").fetchall()
    return {str(r[0]): len(r[1]["kept"]) for r in rows if isinstance(r[1], dict)}


def _job_rows(url: str) -> list[tuple[str, str, int]]:
    import psycopg

    with psycopg.connect(url) as conn:
        made = conn.execute("SELECT to_regclass('ad_queue')").fetchone()
        if made is None or made[0] is None:
            return []  # nothing was ever queued on this server
        rows = conn.execute("SELECT job, state, attempts FROM ad_queue ORDER BY id").fetchall()
    return [(str(r[0]), str(r[1]), int(r[2])) for r in rows]


def test_a_killed_worker_loses_no_question_and_the_round_equals_a_single_process_run(
    tmp_path: Path, pg_url: str, team_env, run_cli, spawn_cli
) -> None:
    corpus = tmp_path / "corpus"
    write_pydoc_module_corpus(corpus, ["json", "csv", "queue"])
    env = team_env(pg_url)
    args = ("--corpus", "corpus", "--max-rounds", "1")
    single = run_cli("research", TOPIC, "--kb", "single", *args, cwd=tmp_path, env=env)
    assert single.returncode == 0, single.stderr[-2000:]
    assert not _job_rows(pg_url)  # without --workers nothing is queued

    coordinator = spawn_cli("research", TOPIC, "--kb", "multi", *args, "--workers", cwd=tmp_path, env=env)
    # Worker A dies (exits hard, as kill -9 would leave it) right after claiming its first question.
    doomed = spawn_cli("worker", "--lease", "3", cwd=tmp_path, env=team_env(pg_url, **{CRASH_ENV: "worker-claimed:1"}))
    assert doomed.wait(timeout=600) == CRASH_EXIT_CODE, doomed.stderr.read() if doomed.stderr else ""
    claimed = [job for job, state, _ in _job_rows(pg_url) if state == "running"]
    assert len(claimed) == 1  # its lease is still on the table; nobody settles that question for it
    survivor = spawn_cli("worker", "--lease", "3", "--idle-exit", "10", cwd=tmp_path, env=env)
    _out, err = coordinator.communicate(timeout=900)
    assert coordinator.returncode == 0, err[-2000:]
    survivor.communicate(timeout=120)
    assert survivor.returncode == 0

    rows = {job: (state, attempts) for job, state, attempts in _job_rows(pg_url)}
    assert rows[claimed[0]] == ("done", 2)  # the dead worker's question, redone after its lease ran out
    assert len(rows) >= 2 and all(state == "done" for state, _ in rows.values())
    assert all(job.startswith("research:") and "round_1_evidence.json/kq" in job for job in rows)
    kept = _kept_by_job(pg_url)
    assert set(kept) == set(rows) and sum(kept.values()) > 0  # the round assembled the workers' claims
    multi, alone = _files(tmp_path / "multi"), _files(tmp_path / "single")
    assert "outputs/rounds/round_1_evidence.json" in alone
    assert multi == alone


def test_research_workers_without_a_server_is_refused_in_one_line(tmp_path: Path, team_env, run_cli) -> None:
    done = run_cli("research", TOPIC, "--kb", "kb", "--workers", cwd=tmp_path, env=team_env(None))
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == "error: --workers needs the team backend (a PostgreSQL server)"
    assert "Traceback" not in done.stderr and not (tmp_path / "kb").exists()


def test_a_question_whose_knowledge_base_a_worker_cannot_reach_fails_with_the_reason(tmp_path: Path) -> None:
    from autodidact.evidence.delegated import KIND, run_question_job

    error, result = run_question_job({"kind": KIND, "kb_root": str(tmp_path / "elsewhere"), "kq": "kq1"})
    assert result is None and error is not None
    assert error.endswith("is not a knowledge base here (is it on a file system shared with this machine?)")
