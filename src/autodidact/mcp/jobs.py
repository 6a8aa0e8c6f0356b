"""The one background research an MCP server runs on its knowledge base.

Why one slot: a knowledge base has a single writer (docs/architecture.md, "The knowledge-base
folder"), so a second research on it could only be refused; keeping the job here lets
``research_progress`` answer from the running thread's numbers, and lets the server stop the run
at a safe point when the client goes away (the next ``research_start`` resumes it exactly).
"""

from __future__ import annotations

import threading
from pathlib import Path

from autodidact.api.research import ResearchJob, start_research
from autodidact.errors import InputError
from autodidact.jsontypes import JSONObject

STOP_WAIT_SECONDS = 20.0


class ResearchSlot:
    """Starts, reads and stops the server's research job (thread-safe: tools run in worker threads)."""

    def __init__(self, kb_root: Path) -> None:
        self.kb_root = kb_root
        self._job: ResearchJob | None = None
        self._lock = threading.Lock()

    def start(
        self, topic: str | None, *, max_rounds: int | None, background: str | None, corpus: list[Path]
    ) -> JSONObject:
        """Start or resume the research; refused while this server's run is still going."""
        with self._lock:
            if self._job is not None and self._job.running:
                raise InputError(
                    "a research is already running on this knowledge base",
                    hint="read research_progress, or call research_stop first",
                )
            self._job = start_research(
                topic, kb=self.kb_root, corpus=corpus, max_rounds=max_rounds, background=background
            )
            return self._job.progress().as_dict()

    def progress(self) -> JSONObject | None:
        """The job's progress, or None when this server has not started one."""
        with self._lock:
            job = self._job
        return job.progress().as_dict() if job is not None else None

    def stop(self, wait: float = 0.0) -> JSONObject | None:
        """Ask the run to stop at its next safe point (and wait up to ``wait`` seconds for it)."""
        with self._lock:
            job = self._job
        if job is None:
            return None
        job.stop()
        return job.wait(wait).as_dict() if wait > 0 else job.progress().as_dict()

    def shutdown(self) -> None:
        """On server exit: stop a running job at a safe point so the files stay resumable."""
        self.stop(wait=STOP_WAIT_SECONDS)
