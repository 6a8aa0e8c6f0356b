"""One progress protocol for every long operation: ingest, evidence, a report, a research run.

Why one: the core never prints (docs/architecture.md, "The core never prints"), so each long
operation reports through an object its caller hands in. There used to be four shapes (a
callable for ``add``, an evidence reporter called through ``getattr``, a report reporter called
through ``getattr``, the loop's reporter), so a renderer had to know which operation it watched.
Now every operation speaks :class:`Progress`; the report and the loop add their own events on top
(``report.pipeline.ReportProgress``, ``loop.progress.Reporter``). The CLI renders it; a web page or
an MCP server renders the same events. Every method has a no-op default in :class:`NullProgress`,
so a renderer implements only what it shows (the callback pattern of STORM's handler).
Standard library only (the bottom layer).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

# Labels of ``advance`` events a renderer may recognise: dimensions of a report settled (done,
# reused, skipped or failed), and key questions of an evidence run answered.
DIMENSIONS_LABEL = "dimensions"
KEY_QUESTIONS_LABEL = "key questions"


class Progress(Protocol):
    """What a long operation tells whoever watches it."""

    def stage(self, name: str, detail: str = "") -> None:
        """A named part of the operation began ("plan", "evidence", "indexing")."""

    def advance(self, done: int, total: int | None = None, label: str = "") -> None:
        """``done`` of ``total`` items are finished (``total`` None when unknown): a bar, a count, an ETA."""

    def message(self, text: str) -> None:
        """A line worth showing."""

    def warning(self, text: str) -> None:
        """Something the user should know; the operation continues."""


class NullProgress:
    """Shows nothing; subclass it and override what you render."""

    def stage(self, name: str, detail: str = "") -> None:
        pass

    def advance(self, done: int, total: int | None = None, label: str = "") -> None:
        pass

    def message(self, text: str) -> None:
        pass

    def warning(self, text: str) -> None:
        pass


class Prefixed(NullProgress):
    """Forwards to ``inner`` with ``prefix`` in front of every text (a report dimension's lines)."""

    def __init__(self, inner: Progress, prefix: str) -> None:
        self.inner, self.prefix = inner, prefix

    def stage(self, name: str, detail: str = "") -> None:
        self.inner.stage(name, f"{self.prefix}: {detail}" if detail else self.prefix)

    def advance(self, done: int, total: int | None = None, label: str = "") -> None:
        self.inner.advance(done, total, f"{self.prefix}: {label}" if label else self.prefix)

    def message(self, text: str) -> None:
        self.inner.message(f"{self.prefix}: {text}")

    def warning(self, text: str) -> None:
        self.inner.warning(f"{self.prefix}: {text}")


@dataclass
class RecordingProgress(NullProgress):
    """Keeps every event as ``(kind, text)``, for tests and for summaries of what happened."""

    events: list[tuple[str, str]] = field(default_factory=list)

    def stage(self, name: str, detail: str = "") -> None:
        self.events.append(("stage", f"{name} {detail}".strip()))

    def advance(self, done: int, total: int | None = None, label: str = "") -> None:
        self.events.append(("advance", f"{done}/{total if total is not None else '?'} {label}".strip()))

    def message(self, text: str) -> None:
        self.events.append(("message", text))

    def warning(self, text: str) -> None:
        self.events.append(("warning", text))

    @property
    def warnings(self) -> list[str]:
        """The warnings, in order."""
        return [text for kind, text in self.events if kind == "warning"]
