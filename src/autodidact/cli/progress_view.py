"""The terminal's rendering of :class:`autodidact.progress.Progress`: a bar with a count and an ETA.

Why a bar only on a terminal: a person watching ``add`` of hundreds of files wants to see how far
it is and how long is left, not a scrolling line per file; a log or a pipe wants plain lines it
can grep. On a terminal the per-item messages stay quiet and warnings print above the bar; off a
terminal every message is one line, as before.
"""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TaskID, TextColumn, TimeRemainingColumn
from rich.progress import Progress as RichProgress

from autodidact.cli.common import real_console
from autodidact.progress import NullProgress


class ConsoleProgress(NullProgress):
    """Renders progress on ``console``; use it as a context manager around the operation."""

    def __init__(self, console: Console, what: str) -> None:
        self.console, self.what = real_console(console), what
        self.bar: RichProgress | None = None
        self.task: TaskID | None = None

    def __enter__(self) -> ConsoleProgress:
        if self.console.is_terminal:
            self.bar = RichProgress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                TextColumn("{task.fields[label]}"), console=self.console, transient=True,
            )  # fmt: skip
            self.bar.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self.bar is not None:
            self.bar.stop()

    def advance(self, done: int, total: int | None = None, label: str = "") -> None:
        if self.bar is None:
            return
        if self.task is None:
            self.task = self.bar.add_task(self.what, total=total, label=label)
        self.bar.update(self.task, completed=done, total=total, label=label)

    def message(self, text: str) -> None:
        if self.bar is None:
            self.console.print(f"  {text}")

    def warning(self, text: str) -> None:
        self.console.print(f"[yellow]warning:[/yellow] {text}")
