"""Step budgets: a step (one dimension's evidence, one round's questions, compile or check) may
spend at most N model calls and T seconds; the rest of it runs on the offline engine.

Why per step and not per run: a run-wide cap stops the run, while a weak model that is merely
slow should still finish every step — each with the model's work where it had time and the
offline engine's where it did not (docs/models.md, "Step budgets"). Why a context variable: steps
run as concurrent asyncio tasks (the dimensions of a report, the questions of a round); a task
started inside a step inherits it, so every call it makes is counted against that step and no
other, without threading a budget object through every signature.

Why check before a call, with an estimate: like the token and cost caps (``llm/budget.py``), a
time budget checked after the call has already been passed by one slow call. A call is not started
when the step's elapsed time plus the expected length of that call (the mean of this run's calls of
the same task, else its reply limit at the measured speed) would pass the budget.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field


@dataclass
class Step:
    """One step's allowance and what it has used so far."""

    name: str
    max_calls: int | None
    max_seconds: float | None
    calls: int = 0
    started: float = field(default_factory=time.monotonic)
    announced: bool = False  # the "budget spent" notice is printed once per step

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def spent(self, expected_seconds: float) -> str | None:
        """Why the next call may not start, or None when it may."""
        if self.max_calls is not None and self.calls >= self.max_calls:
            return f"{self.name}: model budget spent ({self.calls} calls, the step's limit is {self.max_calls})"
        if self.max_seconds is not None:
            elapsed = self.elapsed()
            if elapsed + expected_seconds > self.max_seconds:
                expected = f" + ~{expected_seconds:.0f} s for the next call" if expected_seconds else ""
                return (
                    f"{self.name}: model budget spent ({elapsed:.0f} s{expected}, "
                    f"the step's limit is {self.max_seconds:g} s)"
                )
        return None


_CURRENT: ContextVar[Step | None] = ContextVar("autodidact_step", default=None)


def current_step() -> Step | None:
    """The step the running code is part of, if any."""
    return _CURRENT.get()


@contextmanager
def step_scope(name: str, max_calls: int | None, max_seconds: float | None) -> Iterator[Step]:
    """Count the model calls made inside this block (and tasks it starts) against one budget.

    A step inside a step keeps the outer one: the outer budget is what the user sees as one step.
    """
    outer = _CURRENT.get()
    if outer is not None:
        yield outer
        return
    step = Step(name, max_calls, max_seconds)
    token = _CURRENT.set(step)
    try:
        yield step
    finally:
        _CURRENT.reset(token)
