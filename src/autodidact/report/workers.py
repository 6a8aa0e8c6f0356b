"""A report's dimensions through the team backend's queue: ``report --workers`` and ``autodidact worker``
(which also takes a research round's key questions: evidence/delegated.py).

Why (docs/team.md, "Workers"): a report's dimensions are independent jobs once their upstreams are
done, so processes on several machines can gather them at once. ``report --workers`` plans as
usual, then enqueues every dimension whose evidence is not already valid (with its upstreams as
``after``), waits until each has settled, checks every evidence file itself (the same validation
gate as a single-process run) and composes. A worker claims one dimension, gathers its evidence
into the report folder (which every worker reaches: a shared file system) and settles the job.

A killed worker loses nothing: its lease runs out and another worker redoes the dimension from the
start; the evidence file is written atomically, so a half-done attempt leaves nothing behind, and
with the same engine the result equals a single-process run. Workers never write ``plan.json``:
the enqueuer, the folder's one writer, records each dimension's status.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from autodidact.errors import AutodidactError
from autodidact.kb import store_id
from autodidact.plan.models import Dimension
from autodidact.progress import DIMENSIONS_LABEL
from autodidact.report.folder import ReportPaths
from autodidact.report.pipeline import NullReporter, _existing_plan, _Run
from autodidact.store.batch import crash_point
from autodidact.store.pgqueue import DONE, FAILED, QUEUED, RUNNING, Job, JobState, Queue

DEFAULT_LEASE_SECONDS = 60.0
POLL_SECONDS = 1.0


def batch_name(paths: ReportPaths) -> str:
    """The queue batch of one report folder: its id, the same from every machine."""
    return "report:" + store_id(paths.root)


def job_name(batch: str, dim_id: str) -> str:
    return f"{batch}/{dim_id}"


async def dispatch(run: _Run, order: list[Dimension], url: str, poll: float = POLL_SECONDS) -> None:
    """Enqueue the dimensions still to do, wait for the workers, record each one's outcome."""
    queue = Queue(url)
    batch = batch_name(run.paths)
    pending: list[Dimension] = []
    try:
        for dim in order:
            ok, _stats, _ = run.check(dim)
            if ok:
                run.set_status(dim.id, "done")
                run.result.reused.append(dim.id)
                run.reporter.dimension_skipped(dim.id, "evidence already valid")
                run.finished += 1
                continue
            payload: dict[str, object] = {
                "report_dir": str(run.paths.root),
                "dimension": dim.id,
                "request": run.request,
                "mode": run.mode,
                "kb_root": None if run.kb_root is None else str(run.kb_root),
                "model": run.settings.llm.model,
            }
            after = [job_name(batch, u) for u in run.upstreams(dim)]
            await asyncio.to_thread(queue.enqueue, job_name(batch, dim.id), batch, payload, after)
            run.set_status(dim.id, "running")
            pending.append(dim)
        run.reporter.advance(run.finished, len(order), DIMENSIONS_LABEL)
        if pending:
            run.reporter.stage("evidence", f"{len(pending)} dimension(s) queued for workers on {_server(url)}")
        states = await _wait(queue, batch, [job_name(batch, d.id) for d in pending], run, len(order), poll)
    finally:
        queue.close()
    for dim in pending:
        state = states[job_name(batch, dim.id)]
        ok, stats, why = run.check(dim)  # the enqueuer's own validation gate, as in-process
        if ok:
            run.set_status(dim.id, "done")
            run.result.ran.append(dim.id)
            run.reporter.dimension_done(dim.id, stats)
        else:
            run.set_status(dim.id, "failed")
            run.result.failed[dim.id] = state.error or why
            run.reporter.warning(f"{dim.id}: failed: {state.error or why}")


def _server(url: str) -> str:
    from autodidact.store.pg import mask_url

    return mask_url(url)


async def _wait(queue: Queue, batch: str, jobs: list[str], run: _Run, total: int, poll: float) -> dict[str, JobState]:
    settled_before = run.finished
    while True:
        states = {s.job: s for s in await asyncio.to_thread(queue.states, batch)}
        open_jobs = [j for j in jobs if states[j].state in (QUEUED, RUNNING)]
        run.reporter.advance(settled_before + len(jobs) - len(open_jobs), total, DIMENSIONS_LABEL)
        if not open_jobs:
            return states
        await asyncio.sleep(poll)


# -- the worker ------------------------------------------------------------------------------------


def worker_name() -> str:
    """``host:pid``: who holds a lease, as the queue table shows it."""
    return f"{socket.gethostname()}:{os.getpid()}"


class _Heartbeat:
    """Pushes a job's lease back every third of its length, on a connection of its own."""

    def __init__(self, url: str, job: Job, worker: str, lease: float) -> None:
        self.queue = Queue(url)
        self.job, self.worker, self.lease = job, worker, lease
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name="autodidact-lease", daemon=True)

    def _beat(self) -> None:
        while not self._stop.wait(self.lease / 3):
            try:
                if not self.queue.renew(self.job.id, self.worker, self.lease):
                    return  # the lease was lost: the result is still written, another may redo it
            except AutodidactError:
                return  # the server is gone: the main loop meets the same error and says so

    def __enter__(self) -> _Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        self.queue.close()


def work(
    url: str,
    *,
    lease: float = DEFAULT_LEASE_SECONDS,
    idle_exit: float | None = None,
    max_jobs: int | None = None,
    say: Callable[[str], None] = lambda _line: None,
) -> int:
    """Claim and run dimensions until stopped (or idle for ``idle_exit`` seconds); returns jobs settled."""
    queue = Queue(url)
    me = worker_name()
    settled = 0
    idle_since = time.monotonic()
    try:
        while max_jobs is None or settled < max_jobs:
            job = queue.claim(me, lease)
            if job is None:
                if idle_exit is not None and time.monotonic() - idle_since >= idle_exit:
                    break
                time.sleep(POLL_SECONDS)
                continue
            say(f"claimed {job.job} (attempt {job.attempts})")
            crash_point("worker-claimed")
            try:
                with _Heartbeat(url, job, me, lease):
                    error, result = _run_any(job.payload)
            except BaseException:  # stopped (Ctrl-C) or a bug: the job goes back now, not when its lease ends
                with contextlib.suppress(AutodidactError):
                    queue.release(job.id, me)
                raise
            crash_point("worker-gathered")
            queue.finish(job.id, me, error, result)
            say(f"{'done' if error is None else 'failed'}: {job.job}" + (f": {error}" if error else ""))
            settled += 1
            idle_since = time.monotonic()
    finally:
        queue.close()
    return settled


def _run_any(payload: Mapping[str, object]) -> tuple[str | None, dict[str, object] | None]:
    """A report dimension, or a research round's key question (evidence/delegated.py)."""
    from autodidact.evidence.delegated import KIND, run_question_job

    if payload.get("kind") == KIND:
        error, result = run_question_job(payload)
        return error, None if result is None else dict(result)
    return run_job(payload), None


def run_job(payload: Mapping[str, object]) -> str | None:
    """Gather one dimension's evidence into its report folder; None when it is valid, else why not."""
    from autodidact.config import load_settings
    from autodidact.llm.registry import build_runtime

    paths = ReportPaths(Path(str(payload["report_dir"])))
    kb_root = Path(str(payload["kb_root"])) if payload.get("kb_root") else None
    try:
        plan = _existing_plan(paths)
        if plan is None:
            return f"{paths.plan} is missing (is the report folder shared with this machine?)"
        settings = load_settings(kb_root, {"llm.model": payload.get("model")})
        runtime = build_runtime(settings, kb_root if kb_root is not None else paths.root)
        run = WorkerRun(
            paths, plan, str(payload["request"]), str(payload["mode"]),
            {"runtime": runtime, "settings": settings, "kb_root": kb_root, "reporter": NullReporter()},
        )  # fmt: skip
        dim = plan.dimension(str(payload["dimension"]))
        for up in run.upstreams(dim):
            ok, _, why = run.check(plan.dimension(up))
            if not ok:
                return f"upstream {up} has no valid evidence ({why})"
        asyncio.run(run.research(dim))
    except AutodidactError as exc:
        return exc.message
    return run.result.failed.get(dim.id)


class WorkerRun(_Run):
    """A run of one dimension inside a worker: plan.json is the enqueuer's to write."""

    def set_status(self, dim_id: str, status: str) -> None:
        pass


__all__ = ["DONE", "FAILED", "batch_name", "dispatch", "job_name", "run_job", "work"]
