"""Running a research from Python: in the foreground (:func:`research`) or in a thread (:func:`start_research`).

Why a thread and not a process for the background: the run's progress events arrive as calls on
a reporter, so a thread can keep them as numbers (round, step, key question k of n) that a
notebook or the MCP server reads at any time; stopping is the loop's own safe-point flag
(:class:`~autodidact.loop.control.Control`), so a stopped run resumes exactly (docs/architecture.md
principle 4). If the process dies instead, the files still resume: nothing depends on the thread.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from autodidact.api.knowledge import KBPath
from autodidact.api.runtime_setup import check_engine_args, run_coroutine, runtime_for, settings_for
from autodidact.errors import AutodidactError, InputError, Interrupted, LockedError, NotFoundError

if TYPE_CHECKING:
    from autodidact.jsontypes import JSONObject
    from autodidact.kb import KnowledgeBase
    from autodidact.loop.control import Control
    from autodidact.loop.progress import CounterValue, Reporter, StepInfo
    from autodidact.loop.runner import RunResult

RECENT_LINES = 30
# The background jobs of this process by knowledge base: a second start on one is refused at once.
_RUNNING: dict[Path, ResearchJob] = {}
_RUNNING_LOCK = threading.Lock()


@dataclass(frozen=True)
class _Prepared:
    knowledge: KnowledgeBase
    corpus: list[Path]


class _RunArgs(TypedDict):
    """The run's settings as :func:`research` and :func:`start_research` take them (checked by ``_prepare``)."""

    max_rounds: int | None
    background: str | None
    model: str | None
    fallback: str | None
    max_cost: float | None
    max_tokens: int | None


def _whole(value: object, name: str, least: int) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < least):
        raise InputError(f"{name}={value!r} is not a whole number of at least {least}")


def _prepare(
    topic: str | None,
    kb: KBPath,
    corpus: Sequence[KBPath],
    run_args: _RunArgs,
) -> _Prepared:
    """Check every argument, then create the knowledge base if needed: bad input leaves nothing behind."""
    from autodidact.kb import init_kb, is_kb, open_kb

    if topic is not None and (not isinstance(topic, str) or not topic.strip()):
        raise InputError("the research topic is empty", hint='give one, e.g. research("How does X work?", kb=...)')
    _whole(run_args.get("max_rounds"), "max_rounds", 1)
    _whole(run_args.get("max_tokens"), "max_tokens", 0)
    cost = run_args.get("max_cost")
    if cost is not None and (isinstance(cost, bool) or not isinstance(cost, int | float) or cost < 0):
        raise InputError(f"max_cost={cost!r} is not a cost in USD of 0 or more")
    model, fallback = run_args.get("model"), run_args.get("fallback")
    paths = [Path(p) for p in corpus]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise NotFoundError(f"corpus path {missing[0]} does not exist", hint="check the corpus paths")
    check_engine_args(model, fallback)
    root = Path(kb)
    if not is_kb(root):
        if not topic:
            open_kb(root)  # the clear "not a knowledge base" error
        init_kb(root, topic=topic)
    return _Prepared(open_kb(root), paths)


async def _run(
    prepared: _Prepared,
    topic: str | None,
    *,
    max_rounds: int | None,
    background: str | None,
    model: str | None,
    fallback: str | None,
    max_cost: float | None,
    max_tokens: int | None,
    progress: Reporter | None,
    control: Control | None,
) -> RunResult:
    from autodidact.loop.runner import research as run_research

    root = prepared.knowledge.root
    settings = settings_for(root, model=model, fallback=fallback, max_cost=max_cost, max_tokens=max_tokens)
    runtime = runtime_for(settings, root, model=model)
    return await run_research(
        prepared.knowledge,
        topic=topic,
        runtime=runtime,
        settings=settings,
        max_rounds=max_rounds,
        background=background,
        corpus=prepared.corpus,
        reporter=progress,
        control=control,
    )


def research(
    topic: str | None = None,
    *,
    kb: KBPath,
    corpus: Sequence[KBPath] = (),
    max_rounds: int | None = None,
    background: str | None = None,
    model: str | None = None,
    fallback: str | None = None,
    max_cost: float | None = None,
    max_tokens: int | None = None,
    progress: Reporter | None = None,
) -> RunResult:
    """Research ``topic`` in rounds until more rounds stop adding value (``autodidact research``).

    Creates the knowledge base ``kb`` if needed; ``topic=None`` resumes it, and a new topic on an
    existing one is appended as an extension. ``corpus`` names files or folders to search offline.
    ``model`` is ``provider:name`` or ``"offline"`` (default: settings, else the offline engine).
    Ctrl+C in the main thread stops at the next safe point (:class:`~autodidact.errors.Interrupted`);
    calling again resumes. ``progress`` receives the loop's events (:mod:`autodidact.loop.progress`).
    """
    from autodidact.loop.control import Control

    args: _RunArgs = {
        "max_rounds": max_rounds, "background": background, "model": model, "fallback": fallback,
        "max_cost": max_cost, "max_tokens": max_tokens,
    }  # fmt: skip
    prepared = _prepare(topic, kb, corpus, args)
    control = Control(resume_hint=f"resume with: autodidact.research(kb={str(prepared.knowledge.root)!r})")
    restore = control.install_signal_handlers()  # a no-op outside the main thread
    try:
        return run_coroutine(_run(prepared, topic, progress=progress, control=control, **args))
    finally:
        restore()


# -- in the background ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ResearchProgress:
    """A snapshot of a background research: what a progress bar or a status tool shows.

    ``state`` is ``running``, ``finished`` (``result`` set), ``stopped`` (a stop was asked and
    honoured at a safe point; resume by starting again) or ``failed`` (``error`` says why).
    ``questions_done`` of ``questions`` counts the current round's key questions researched.
    """

    state: str
    kb: Path
    topic: str | None
    round: int | None
    max_rounds: int | None
    step: str | None
    steps_done: list[str]
    questions: int | None
    questions_done: int
    elapsed_seconds: float
    recent: list[str]
    warnings: list[str]
    result: RunResult | None = None
    error: str | None = None

    def as_dict(self) -> JSONObject:
        """JSON-ready (the MCP server's ``research_progress`` answer)."""
        data: JSONObject = {
            "state": self.state, "kb": str(self.kb), "topic": self.topic, "round": self.round,
            "max_rounds": self.max_rounds, "step": self.step, "steps_done": list(self.steps_done),
            "questions": self.questions, "questions_done": self.questions_done,
            "elapsed_seconds": round(self.elapsed_seconds, 1), "recent": list(self.recent),
            "warnings": list(self.warnings), "error": self.error, "result": None,
        }  # fmt: skip
        if self.result is not None:
            r = self.result
            data["result"] = {
                "status": r.status, "rounds": r.rounds, "reason": r.reason, "summary": r.summary,
                "stopped_by": r.stopped_by, "warnings": list(r.warnings),
            }  # fmt: skip
        return data


class _JobReporter:
    """Keeps a research's events as numbers and a few recent lines, under a lock (read from other threads)."""

    def __init__(self, inner: Reporter | None) -> None:
        self.lock = threading.Lock()
        self.inner = inner
        self.topic: str | None = None
        self.round: int | None = None
        self.max_rounds: int | None = None
        self.step: str | None = None
        self.steps_done: list[str] = []
        self.questions: int | None = None
        self.questions_done = 0
        self.recent: deque[str] = deque(maxlen=RECENT_LINES)
        self.warnings: list[str] = []

    def _line(self, text: str) -> None:
        for line in text.strip().splitlines():
            if line.strip():
                self.recent.append(line.rstrip())

    # Progress
    def stage(self, name: str, detail: str = "") -> None:
        with self.lock:
            self._line(f"{name} {detail}".strip())
        if self.inner is not None:
            self.inner.stage(name, detail)

    def advance(self, done: int, total: int | None = None, label: str = "") -> None:
        if self.inner is not None:
            self.inner.advance(done, total, label)

    def message(self, text: str) -> None:
        with self.lock:
            self._line(text)
        if self.inner is not None:
            self.inner.message(text)

    def warning(self, text: str) -> None:
        with self.lock:
            self.warnings.append(text)
            self._line(f"warning: {text}")
        if self.inner is not None:
            self.inner.warning(text)

    # Reporter
    def run_started(self, *, topic: str, kb_root: str, resumed_round: int | None, max_rounds: int) -> None:
        with self.lock:
            self.topic, self.max_rounds = topic, max_rounds
            self._line(f"research: {topic}" + (f" (continuing round {resumed_round})" if resumed_round else ""))
        if self.inner is not None:
            self.inner.run_started(topic=topic, kb_root=kb_root, resumed_round=resumed_round, max_rounds=max_rounds)

    def round_started(self, round_n: int, max_rounds: int) -> None:
        with self.lock:
            self.round, self.max_rounds = round_n, max_rounds
            self.step, self.steps_done, self.questions, self.questions_done = None, [], None, 0
            self._line(f"round {round_n} of at most {max_rounds}")
        if self.inner is not None:
            self.inner.round_started(round_n, max_rounds)

    def step_started(self, round_n: int, step: str) -> None:
        with self.lock:
            self.step = step
            self._line(f"round {round_n}: {step}")
        if self.inner is not None:
            self.inner.step_started(round_n, step)

    def step_skipped(self, round_n: int, step: str) -> None:
        with self.lock:
            self.steps_done.append(step)
        if self.inner is not None:
            self.inner.step_skipped(round_n, step)

    def step_done(self, round_n: int, step: str, info: StepInfo) -> None:
        with self.lock:
            self.steps_done.append(step)
            if step == "questions":
                count = info.get("questions")
                self.questions = int(count) if isinstance(count, int | float | str) and count else 0
            if step == "research" and self.questions is not None:
                self.questions_done = self.questions
            if step == "state":
                self._line(f"round {round_n}: decision {info.get('decision')}: {info.get('reason')}")
        if self.inner is not None:
            self.inner.step_done(round_n, step, info)

    def progress(self, round_n: int, **counters: CounterValue) -> None:
        with self.lock:
            head = counters.get("key_question")
            if isinstance(head, str) and head[2:].isdigit():
                self.questions_done = max(self.questions_done, int(head[2:]))
            answered = counters.get("key_questions_done")
            if isinstance(answered, int):  # counted as each key question finishes (in any order)
                self.questions_done = max(self.questions_done, answered)
            detail = counters.get("detail")
            if head and isinstance(detail, str):
                self._line(detail)
        if self.inner is not None:
            self.inner.progress(round_n, **counters)

    def run_finished(self, result: RunResult) -> None:
        if self.inner is not None:
            self.inner.run_finished(result)


class ResearchJob:
    """A research running in a daemon thread; read :meth:`progress`, :meth:`wait` for it, :meth:`stop` it.

    A daemon thread, so a process that exits does not wait for the run: the run is left as a crash
    would leave it, and the next start resumes it.
    """

    def __init__(
        self, prepared: _Prepared, topic: str | None, run_args: _RunArgs, progress: Reporter | None = None
    ) -> None:
        from autodidact.loop.control import Control

        self.kb = prepared.knowledge.root
        self._control = Control(resume_hint="start the research again to resume")
        self._reporter = _JobReporter(progress)
        self._started = time.monotonic()
        self._finished: float | None = None
        self._result: RunResult | None = None
        self._error: str | None = None
        self._stopped = False
        self._thread = threading.Thread(
            target=self._main, args=(prepared, topic, run_args), name=f"autodidact-research:{self.kb.name}", daemon=True
        )
        self._thread.start()

    def _main(self, prepared: _Prepared, topic: str | None, run_args: _RunArgs) -> None:
        try:
            self._result = asyncio.run(
                _run(prepared, topic, progress=self._reporter, control=self._control, **run_args)
            )
        except Interrupted as exc:
            self._stopped = True
            self._error = f"{exc.message} ({exc.hint})" if exc.hint else exc.message
        except AutodidactError as exc:
            self._error = f"{exc.message} (hint: {exc.hint})" if exc.hint else exc.message
        except Exception as exc:  # a bug: kept for the caller to see rather than lost in a thread
            self._error = f"{type(exc).__name__}: {exc}"
        finally:
            self._finished = time.monotonic()

    @property
    def running(self) -> bool:
        """True until the run ends (finished, stopped or failed)."""
        return self._thread.is_alive()

    def stop(self) -> None:
        """Ask the run to stop at its next safe point; :meth:`wait` for it. Resuming continues exactly."""
        self._control.request_stop("stop request")

    def wait(self, timeout: float | None = None) -> ResearchProgress:
        """Block until the run ends or ``timeout`` seconds pass; returns the progress then."""
        self._thread.join(timeout)
        return self.progress()

    def result(self) -> RunResult:
        """The finished run's result; raises what stopped it otherwise (waits for the run first)."""
        self._thread.join()
        if self._result is None:
            raise AutodidactError(self._error or "the research did not finish")
        return self._result

    def progress(self) -> ResearchProgress:
        """Where the run is now (safe to call from any thread, at any time)."""
        alive = self._thread.is_alive()
        if alive:
            state = "running"
        elif self._result is not None:
            state = "finished"
        else:
            state = "stopped" if self._stopped else "failed"
        end = self._finished if self._finished is not None and not alive else time.monotonic()
        rep = self._reporter
        with rep.lock:
            return ResearchProgress(
                state=state, kb=self.kb, topic=rep.topic, round=rep.round, max_rounds=rep.max_rounds,
                step=rep.step, steps_done=list(rep.steps_done), questions=rep.questions,
                questions_done=rep.questions_done, elapsed_seconds=end - self._started, recent=list(rep.recent),
                warnings=list(rep.warnings), result=self._result, error=None if alive else self._error,
            )  # fmt: skip


def start_research(
    topic: str | None = None,
    *,
    kb: KBPath,
    corpus: Sequence[KBPath] = (),
    max_rounds: int | None = None,
    background: str | None = None,
    model: str | None = None,
    fallback: str | None = None,
    max_cost: float | None = None,
    max_tokens: int | None = None,
    progress: Reporter | None = None,
) -> ResearchJob:
    """:func:`research` in a background thread; returns at once with a :class:`ResearchJob`.

    The arguments are checked and the knowledge base is created before this returns, and a
    knowledge base another run is writing is refused here (:class:`~autodidact.errors.LockedError`),
    so an error in what you passed is raised, not found later in the job.
    """
    args: _RunArgs = {
        "max_rounds": max_rounds, "background": background, "model": model, "fallback": fallback,
        "max_cost": max_cost, "max_tokens": max_tokens,
    }  # fmt: skip
    prepared = _prepare(topic, kb, corpus, args)
    root = prepared.knowledge.root
    with _RUNNING_LOCK:
        running = _RUNNING.get(root)
        if running is not None and running.running:  # its thread may not hold the writer lock yet
            raise LockedError(
                f"knowledge base {root} is being researched by this process",
                hint="wait for that job (job.wait()) or stop it (job.stop())",
            )
        with prepared.knowledge.lock():  # held by another process: refused now, with its pid
            pass
        job = ResearchJob(prepared, topic, args, progress)
        _RUNNING[root] = job
    return job
