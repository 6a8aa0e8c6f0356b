"""Stopping a run on purpose: fault-injection points and Ctrl+C at safe points.

Why: "crash anywhere, resume exactly" (docs/architecture.md principle 4) is only a promise if it is
tested at every boundary. ``AUTODIDACT_CRASH_AT=<point>`` makes the process exit *hard*
(``os._exit``: no cleanup, no finally blocks, like ``kill -9``) when execution reaches the named
point. Points are named ``r<N>.<step>.<when>`` — step is questions, research, compile, check or
state; when is ``before`` (nothing of the step written yet) or ``written`` (the step's output is
on disk but its done-flag is not) — plus ``r<N>.research.q<k>`` after key question k and
``r<N>.research.raw<k>`` after the k-th raw file of the round, and ``r<N>.state.settled`` after
the user's questions were settled in the inbox but before the state write. ``AUTODIDACT_CRASH_AT`` may name
several points separated by commas; the first one reached fires.

SIGINT/SIGTERM only set a flag; the loop checks it at the same safe points and raises
:class:`~autodidact.errors.Interrupted` with one line saying how to resume. A second Ctrl+C
falls back to Python's default (immediate KeyboardInterrupt) for a user who really means it.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import TypeAlias

from autodidact.config import env
from autodidact.errors import Interrupted

# What signal.getsignal returns and signal.signal takes back: a handler, SIG_DFL/SIG_IGN, or None.
SignalHandler: TypeAlias = Callable[[int, FrameType | None], object] | int | signal.Handlers | None

CRASH_ENV = "AUTODIDACT_CRASH_AT"
CRASH_EXIT_CODE = 86
STEPS = ("questions", "research", "compile", "check", "state")


def crash_points_for_round(round_n: int, questions: int = 0, raw_files: int = 0) -> list[str]:
    """Every named point of one round, in the order a run reaches them."""
    points: list[str] = []
    for step in STEPS:
        points.append(f"r{round_n}.{step}.before")
        if step == "research":
            points += [f"r{round_n}.research.q{k}" for k in range(1, questions + 1)]
            points += [f"r{round_n}.research.raw{k}" for k in range(1, raw_files + 1)]
        if step == "state":
            points.append(f"r{round_n}.state.settled")
        points.append(f"r{round_n}.{step}.written")
    return points


class Control:
    """Crash points and the stop flag, shared by every step of a run."""

    def __init__(self, resume_hint: str = "run the same command again to resume") -> None:
        raw = env(CRASH_ENV) or ""
        self.crash_at = {p.strip() for p in raw.split(",") if p.strip()}
        self.resume_hint = resume_hint
        self.stop_requested = False
        self.signal_name = ""
        self._previous: dict[int, SignalHandler] = {}

    def point(self, name: str) -> None:
        """A named boundary: exit hard if it is the injected crash point."""
        if name in self.crash_at:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(CRASH_EXIT_CODE)

    def safe_point(self, where: str) -> None:
        """A place where stopping leaves nothing half-done: honour a pending Ctrl+C here."""
        if self.stop_requested:
            raise Interrupted(f"stopped by {self.signal_name or 'request'} {where}", hint=self.resume_hint)

    def request_stop(self, name: str = "request") -> None:
        """Ask the run to stop at its next safe point (what the signal handler does)."""
        self.stop_requested = True
        self.signal_name = name

    # -- signals ---------------------------------------------------------------------------
    def install_signal_handlers(self) -> Callable[[], None]:
        """Route SIGINT/SIGTERM to :meth:`request_stop`; returns a function restoring the old handlers."""
        if threading.current_thread() is not threading.main_thread():
            return lambda: None

        def handler(signum: int, frame: FrameType | None) -> None:
            name = signal.Signals(signum).name
            if self.stop_requested and signum == signal.SIGINT:
                signal.signal(signal.SIGINT, signal.default_int_handler)
                raise KeyboardInterrupt
            self.request_stop(name)

        for sig in (signal.SIGINT, signal.SIGTERM):
            self._previous[sig] = signal.getsignal(sig)
            signal.signal(sig, handler)

        def restore() -> None:
            for sig, old in self._previous.items():
                signal.signal(sig, old)
            self._previous.clear()

        return restore
