"""Options and renderers shared by the command modules."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

KB_HELP = "Knowledge-base folder (default: $AUTODIDACT_KB, else the current folder)."

console = Console(stderr=True, highlight=False)
"""Progress and human messages go to stderr, so stdout stays clean for JSON and file output."""

out = Console(highlight=False)
"""What a command was asked to show (``status``'s report) goes to stdout, so it can be piped."""


def kb_option() -> Any:
    """``--kb DIR`` with the shared help text."""
    return typer.Option(None, "--kb", help=KB_HELP, file_okay=False)


def emit_json(data: Any) -> None:
    """Print JSON for scripts on stdout."""
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
