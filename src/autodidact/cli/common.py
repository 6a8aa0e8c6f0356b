"""Options and renderers shared by the command modules."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, Unpack, cast

import typer

if TYPE_CHECKING:
    from rich.console import Console

KB_HELP = "Knowledge-base folder (default: $AUTODIDACT_KB, else the current folder)."


# The width a console writes at when its stream is not a terminal (a file, a pipe, CI): rich would
# hard-wrap at 80 columns, which breaks paths, URLs and long lines that a reader greps or a tool parses.
PIPED_WIDTH = 100_000


class _ConsoleOptions(TypedDict, total=False):
    """The rich ``Console`` options this module's consoles are made with."""

    stderr: bool
    highlight: bool


class _LazyConsole:
    """A rich ``Console`` made on first use: importing rich costs ~20 ms, and ``--help`` never prints here.

    Off a terminal it neither wraps nor crops (:data:`PIPED_WIDTH`, soft wrap): a line written to a
    file is the line the program said."""

    def __init__(self, **options: Unpack[_ConsoleOptions]) -> None:
        self._options = options
        self._console: Console | None = None

    def real(self) -> Console:
        """The ``Console`` itself (for code that needs the object, such as a rich ``Progress``)."""
        if self._console is None:
            from rich.console import Console

            console = Console(**self._options)
            if not console.is_terminal and "width" not in self._options:
                console = Console(**self._options, width=PIPED_WIDTH, soft_wrap=True)
            self._console = console
        return self._console

    def __getattr__(self, name: str) -> object:
        return getattr(self.real(), name)


def real_console(console: Console) -> Console:
    """The rich ``Console`` behind ``console`` (made now if it is one of this module's lazy consoles)."""
    return console.real() if isinstance(console, _LazyConsole) else console


console = cast("Console", _LazyConsole(stderr=True, highlight=False))
"""Progress and human messages go to stderr, so stdout stays clean for JSON and file output."""

out = cast("Console", _LazyConsole(highlight=False))
"""What a command was asked to show (``status``'s report) goes to stdout, so it can be piped."""


def kb_option() -> Any:  # typer.Option() is typed Any: it stands for the parameter's default
    """``--kb DIR`` with the shared help text."""
    return typer.Option(None, "--kb", help=KB_HELP, file_okay=False)


JSON_HELP = "Print the result as JSON on stdout and nothing else there (progress and messages go to stderr)."


def json_option() -> Any:  # typer.Option() is typed Any (see kb_option)
    """``--json`` with the shared help text."""
    return typer.Option(False, "--json", help=JSON_HELP)


def emit_json(data: object) -> None:
    """Print JSON for scripts on stdout (anything ``json.dumps`` takes: a model's dump, a TypedDict, a list)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def warn(message: str) -> None:
    """A one-line warning on stderr."""
    console.print(f"[yellow]warning:[/yellow] {message}")


def rel(path: Path, root: Path) -> str:
    """Path relative to ``root`` when inside it, for short messages."""
    try:
        return str(Path(path).resolve().relative_to(Path(root).resolve()))
    except ValueError:
        return str(path)
