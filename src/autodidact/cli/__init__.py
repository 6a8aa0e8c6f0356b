"""The ``autodidact`` command: parse, call, render. Thin on purpose.

Each ``cli/cmd_*.py`` module defines ``register(app)`` and is discovered here, so every area of
the program adds its commands without editing a shared file. Expected failures
(:class:`~autodidact.errors.AutodidactError`) print one line plus a hint and exit with their code;
anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from typing import Any

import typer
from typer._click.core import Context as ClickContext  # typer vendors click
from typer.core import TyperGroup

from autodidact import __version__
from autodidact.errors import AutodidactError, InputError, KBError


def print_error(exc: AutodidactError) -> None:
    """One line of error, one line of hint, on stderr."""
    message = " ".join(str(exc.message).split()) or type(exc).__name__
    typer.echo(f"error: {message}", err=True)
    if exc.hint:
        typer.echo(f"hint: {exc.hint}", err=True)


# The order `autodidact --help` lists commands in: the main job first, plumbing last.
HELP_ORDER = (
    "research", "ask", "status", "report", "worker", "debate", "serve", "init", "add", "search", "fetch", "websearch",
    "wiki", "gather", "plan", "questions", "evidence", "verify", "doctor", "usage", "index", "snapshot", "session",
)  # fmt: skip


class AppGroup(TyperGroup):
    """Top-level group that turns expected errors into one line and an exit code."""

    def list_commands(self, ctx: ClickContext) -> list[str]:
        names = super().list_commands(ctx)
        rank = {name: i for i, name in enumerate(HELP_ORDER)}
        return sorted(names, key=lambda n: (rank.get(n, len(rank)), n))

    def invoke(self, ctx: ClickContext) -> Any:  # click's Group.invoke returns Any (a command's own value)
        try:
            return super().invoke(ctx)
        except AutodidactError as exc:
            print_error(exc)
            raise typer.Exit(exc.exit_code) from None
        except Exception as exc:
            env_error = environment_error(exc)
            if env_error is None:
                raise
            print_error(env_error)
            raise typer.Exit(env_error.exit_code) from None


_DISK_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.EACCES, errno.EPERM}
_PATH_ERRNOS = {errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.ENAMETOOLONG, errno.ELOOP}
_SQLITE_DISK = ("disk", "full", "readonly", "read-only", "unable to open")


def environment_error(exc: BaseException) -> AutodidactError | None:
    """A full disk, a read-only folder or an I/O error is the machine's state, not a bug: say so in one line.

    Every write is atomic (temp file + rename) and every step records itself only when done, so
    the hint can promise that re-running after fixing the cause resumes without loss.
    """
    hint = "free disk space or fix the folder's permissions, then run the same command again (work done is kept)"
    if isinstance(exc, OSError) and exc.errno in _DISK_ERRNOS:
        where = f" ({exc.filename})" if exc.filename else ""
        return KBError(f"file system error: {exc.strerror or exc}{where}", hint=hint)
    if isinstance(exc, OSError) and exc.errno in _PATH_ERRNOS and exc.filename:
        # A folder that cannot hold files (/proc/self, a path through a file): the path is wrong.
        return InputError(
            f"cannot use {exc.filename}: {exc.strerror or exc}", hint="give a folder you can create files in"
        )
    if isinstance(exc, RecursionError):  # e.g. JSON nested 100 000 deep: hostile or broken input, not a bug
        return InputError("an input file is nested too deeply to read", hint="check the files this command reads")
    cls = type(exc)
    if cls.__module__ == "sqlite3" and cls.__name__ == "OperationalError":
        text = str(exc)
        if any(word in text.lower() for word in _SQLITE_DISK):
            return KBError(f"the index database cannot be written: {text}", hint=hint)
    return None


app = typer.Typer(
    cls=AppGroup,
    name="autodidact",
    help=(
        "Autonomous, resumable, evidence-grounded research over a knowledge-base folder.\n\n"
        "Runs offline by default (no key, no network): set --model or AUTODIDACT_MODEL to use a model."
    ),
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"autodidact {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version."),
) -> None:
    """Autodidact research engine."""
    _show_library_warnings()


def _show_library_warnings() -> None:
    """Warnings the library logs (an index set aside and rebuilt) reach stderr as ``warning: …``."""
    import logging

    class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
        """Writes to whatever ``sys.stderr`` is at the time (a test runner swaps it per command)."""

        autodidact_cli = True

        def emit(self, record: logging.LogRecord) -> None:
            self.stream = sys.stderr
            super().emit(record)

    logger = logging.getLogger("autodidact")
    if not any(getattr(h, "autodidact_cli", False) for h in logger.handlers):
        handler = _Stderr(sys.stderr)
        handler.setFormatter(logging.Formatter("warning: %(message)s"))
        handler.setLevel(logging.WARNING)
        logger.addHandler(handler)
        logger.propagate = False


def _discover() -> None:
    # A directory listing, not pkgutil (importing pkgutil is a measurable part of `--help`).
    names = {
        entry[: -len(".py")]
        for folder in sys.modules[__name__].__path__
        for entry in os.listdir(folder)
        if entry.startswith("cmd_") and entry.endswith(".py")
    }
    for name in sorted(names):
        module = importlib.import_module(f"{__name__}.{name}")
        module.register(app)


_discover()


def main() -> None:
    """Console-script entry point."""
    app()
