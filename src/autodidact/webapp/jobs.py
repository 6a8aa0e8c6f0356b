"""The one background research the web app runs on its knowledge base.

Why one slot: a knowledge base has a single writer (docs/architecture.md), so the page keeps the
job it started to read its progress (server-sent events) and to stop it at a safe point; starting
again with no topic resumes exactly where the files say.
"""

from __future__ import annotations

import threading
from pathlib import Path

from autodidact.api.research import ResearchJob, start_research
from autodidact.errors import InputError
from autodidact.jsontypes import JSONObject

STOP_WAIT_SECONDS = 20.0


class ResearchSlot:
    """Starts, reads and stops the app's research job (thread-safe: handlers run in worker threads)."""

    def __init__(self, kb_root: Path) -> None:
        self.kb_root = kb_root
        self._job: ResearchJob | None = None
        self._lock = threading.Lock()

    def start(self, topic: str | None, *, max_rounds: int | None, corpus: list[Path]) -> None:
        """Start (``topic``) or resume (``None``) the research; refused while this app's run goes on."""
        with self._lock:
            if self._job is not None and self._job.running:
                raise InputError("a research is already running on this knowledge base", hint="stop it first")
            self._job = start_research(topic, kb=self.kb_root, corpus=corpus, max_rounds=max_rounds)

    @property
    def running(self) -> bool:
        """True while this app's research thread runs."""
        with self._lock:
            return self._job is not None and self._job.running

    def progress(self) -> JSONObject | None:
        """The job's progress as JSON-ready data, or None when this app has not started one."""
        with self._lock:
            job = self._job
        return job.progress().as_dict() if job is not None else None

    def stop(self) -> bool:
        """Ask the run to stop at its next safe point; False when nothing runs."""
        with self._lock:
            job = self._job
        if job is None or not job.running:
            return False
        job.stop()
        return True

    def shutdown(self) -> None:
        """On server exit: stop a running job at a safe point so the files stay resumable."""
        with self._lock:
            job = self._job
        if job is not None and job.running:
            job.stop()
            job.wait(STOP_WAIT_SECONDS)
