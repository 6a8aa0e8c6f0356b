"""A one-line live status under a long command's output: a spinner, where the run is, the model wait.

Why: a research round or a report can sit for minutes inside one step while a model thinks; step
lines alone look like a hang. On a terminal the last line spins and says where the run is (round
2/5 · step 2 research · key questions 3/7) and, while a request is out, that it waits for the
model. Lines printed meanwhile appear above it. Off a terminal (a log, a pipe, CI) nothing is
drawn: the command's plain lines are the whole record, as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.live import Live
from rich.spinner import Spinner
from rich.text import Text

from autodidact.cli.common import real_console

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

    from autodidact.llm.runtime import Runtime


class LiveStatus:
    """The status line; ``parts`` are joined with `` · ``. Start and stop it around the run."""

    def __init__(self, console: Console, runtime: Runtime | None = None, *, zh: bool = False) -> None:
        self.console = real_console(console)
        self.runtime = runtime
        self.zh = zh
        self.parts: dict[str, str] = {}
        self.spinner = Spinner("dots")
        self.live: Live | None = None

    @property
    def shown(self) -> bool:
        """Whether a line is drawn (a terminal) — callers print plain progress lines otherwise."""
        return self.console.is_terminal

    def start(self) -> None:
        if self.live is None and self.shown:
            self.live = Live(self, console=self.console, refresh_per_second=8, transient=True)
            self.live.start()

    def stop(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None

    def set(self, key: str, text: str | None) -> None:
        """Set (or, with None, drop) one part of the line; parts keep the order they were first set in."""
        if text is None:
            self.parts.pop(key, None)
        else:
            self.parts[key] = text

    def text(self) -> str:
        """The line as it reads now (without the spinner)."""
        parts = list(self.parts.values())
        waiting = self.runtime.calls_in_flight if self.runtime is not None else 0
        if waiting:
            if self.zh:
                parts.append(f"等待模型回复（{waiting} 个请求）")
            else:
                parts.append(f"waiting for the model ({waiting} call{'s' if waiting > 1 else ''})")
        return " · ".join(parts)

    def __rich__(self) -> RenderableType:
        self.spinner.update(text=Text(self.text(), style="dim", no_wrap=True, overflow="ellipsis"))
        return self.spinner
