"""How the loop tells the outside world what it is doing, without printing (T20).

The loop's events extend the one progress protocol of :mod:`autodidact.progress`.

Why a protocol: the core runs under the CLI (rich live display), under tests (a list that records
events) and under benchmarks (nothing). STORM's callback handler is the model: every method has a
no-op default, so a reporter implements only what it shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypedDict

from autodidact.progress import NullProgress, Progress

if TYPE_CHECKING:
    from autodidact.llm.ledger import UsageTotals
    from autodidact.loop.runner import RunResult


class StepInfo(TypedDict, total=False):
    """A finished step's counters, as the CLI and the API show them (each step sends its own keys)."""

    questions: int  # questions
    overlap: float | None
    raw_files: int  # research
    dropped: int
    claims: int
    sources: int
    new_claims: int | None
    new_sources: int | None
    usage: UsageTotals
    topics: int  # compile
    # state: the round's TerminationCheck (loop/state.py), field for field
    audit_issues_count: int
    pending_user_questions: int
    new_raw_files: int
    overlap_ratio: float | None
    decision: str
    reason: str
    stopped_by: str | None
    unread_sections: int | None


# A counter inside a step: a count, a line of text (the key question, a detail), or not known yet.
CounterValue = int | float | str | None

STEP_NAMES = {
    "questions": "Step 1: questions",
    "research": "Step 2: research",
    "compile": "Step 3: wiki compile",
    "check": "Step 4: wiki check",
    "state": "Step 5-6: state + termination",
}


class Reporter(Progress, Protocol):
    """Progress events of a research run: :class:`autodidact.progress.Progress` plus rounds and steps."""

    def run_started(self, *, topic: str, kb_root: str, resumed_round: int | None, max_rounds: int) -> None:
        """The run begins (``resumed_round`` is set when a round in flight is continued)."""

    def round_started(self, round_n: int, max_rounds: int) -> None:
        """``## 第 N 轮 / 最多 M 轮``."""

    def step_started(self, round_n: int, step: str) -> None:
        """A step begins (``step`` is a key of :data:`STEP_NAMES`)."""

    def step_skipped(self, round_n: int, step: str) -> None:
        """A step already done before an interruption is skipped."""

    def step_done(self, round_n: int, step: str, info: StepInfo) -> None:
        """A step finished; ``info`` carries its counters (questions, sources, claims, ...)."""

    def progress(self, round_n: int, **counters: CounterValue) -> None:
        """Counters inside a step (key question k of n, sources fetched, cost so far)."""

    def message(self, text: str) -> None:
        """A block of text worth showing (the questioner's round summary)."""

    def warning(self, text: str) -> None:
        """Something the user should know; the run continues."""

    def run_finished(self, result: RunResult) -> None:
        """The run ended (terminated, paused by max rounds, or already complete)."""


class NullReporter(NullProgress):
    """Shows nothing."""

    def run_started(self, *, topic: str, kb_root: str, resumed_round: int | None, max_rounds: int) -> None:
        pass

    def round_started(self, round_n: int, max_rounds: int) -> None:
        pass

    def step_started(self, round_n: int, step: str) -> None:
        pass

    def step_skipped(self, round_n: int, step: str) -> None:
        pass

    def step_done(self, round_n: int, step: str, info: StepInfo) -> None:
        pass

    def progress(self, round_n: int, **counters: CounterValue) -> None:
        pass

    def message(self, text: str) -> None:
        pass

    def warning(self, text: str) -> None:
        pass

    def run_finished(self, result: RunResult) -> None:
        pass


@dataclass
class RecordingReporter(NullReporter):
    """Records every event as ``(name, payload)`` — for tests and for the final summary's warnings."""

    events: list[tuple[str, object]] = field(default_factory=list)

    def round_started(self, round_n: int, max_rounds: int) -> None:
        self.events.append(("round_started", round_n))

    def step_started(self, round_n: int, step: str) -> None:
        self.events.append(("step_started", (round_n, step)))

    def step_skipped(self, round_n: int, step: str) -> None:
        self.events.append(("step_skipped", (round_n, step)))

    def step_done(self, round_n: int, step: str, info: StepInfo) -> None:
        self.events.append(("step_done", (round_n, step, dict(info))))

    def message(self, text: str) -> None:
        self.events.append(("message", text))

    def warning(self, text: str) -> None:
        self.events.append(("warning", text))

    def run_finished(self, result: RunResult) -> None:
        self.events.append(("run_finished", result))
