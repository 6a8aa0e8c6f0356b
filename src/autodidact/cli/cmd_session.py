"""``autodidact session append|check|recover|snapshot|seal SESSION_DIR``: the debate event store.

Every command prints JSON with a ``status`` (OK | INCONSISTENT | CORRUPT_EVENT_LOG | REVISION_CONFLICT |
PROJECTION_ERROR | NOT_FOUND | INPUT_ERROR) and exits 0 (ok), 1 (inconsistent) or 2 (input error).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from autodidact.cli.common import console, emit_json

if TYPE_CHECKING:
    from autodidact.debate.store import SessionStore

STATUS_EXIT = {
    "OK": 0,
    "INCONSISTENT": 1,
    "CORRUPT_EVENT_LOG": 1,
    "REVISION_CONFLICT": 1,
    "PROJECTION_ERROR": 1,
    "NOT_FOUND": 2,
    "INPUT_ERROR": 2,
}


def _store_call(fn: Callable[[], dict[str, object]]) -> None:
    """Run a store operation and print its JSON with a status; exit by the status."""
    from autodidact.debate.session import ProjectionError
    from autodidact.debate.store import CorruptEventLog, RevisionConflict
    from autodidact.errors import AutodidactError, IntegrityError, NotFoundError

    try:
        result = fn()
    except CorruptEventLog as exc:
        result = {"status": "CORRUPT_EVENT_LOG", "line": exc.line, "torn_tail": exc.torn_tail, "message": exc.message}
    except RevisionConflict as exc:
        result = {"status": "REVISION_CONFLICT", "message": exc.message}
    except ProjectionError as exc:
        result = {"status": "PROJECTION_ERROR", "message": exc.message}
    except NotFoundError as exc:
        result = {"status": "NOT_FOUND", "message": exc.message}
    except IntegrityError as exc:
        result = {"status": "INCONSISTENT", "message": exc.message}
    except AutodidactError as exc:
        result = {"status": "INPUT_ERROR", "message": exc.message}
    emit_json(result)
    raise typer.Exit(STATUS_EXIT[str(result["status"])])


def register(app: typer.Typer) -> None:
    """Add the ``session`` group."""
    session = typer.Typer(help="The debate event store: append, check, recover, snapshot, seal.", no_args_is_help=True)
    app.add_typer(session, name="session")

    def store_for(folder: Path) -> SessionStore:
        from autodidact.debate.store import SessionStore

        store = SessionStore(folder)
        store.require()
        return store

    @session.command("append")
    def append_cmd(
        session_dir: Path = typer.Argument(..., help="A session folder."),
        event_json: str = typer.Option(..., "--event-json", help="One event as JSON (seq/id/time filled if absent)."),
    ) -> None:
        """Append one event (idempotent by event_id; refused while the log has a torn tail).

        Example: autodidact session append DIR --event-json '{"type":"PAUSED","actor":"moderator",
        "execution_kind":"SYSTEM","payload":{}}'
        """

        def run() -> dict[str, object]:
            from autodidact.debate.events import make_event
            from autodidact.errors import InputError

            store = store_for(session_dir)
            try:
                data = json.loads(event_json)
            except ValueError as exc:
                raise InputError(f"--event-json is not JSON: {exc}") from None
            if not isinstance(data, dict):
                raise InputError("--event-json must be an object")
            events = store.events()
            if "event_id" not in data:
                try:
                    data = make_event(
                        data.get("session_id") or events[0]["session_id"],
                        int(data.get("seq") or len(events) + 1),
                        str(data.get("type")),
                        actor=str(data.get("actor", "system")),
                        execution_kind=str(data.get("execution_kind", "SYSTEM")),
                        payload=data.get("payload") or {},
                        created_at=data.get("created_at"),
                    )
                except ValueError as exc:
                    raise InputError(f"invalid event: {str(exc).splitlines()[0]}") from None
            appended = store.append(data)
            return {"status": "OK", "appended": appended, "event_id": data["event_id"], "seq": data["seq"]}

        _store_call(run)

    @session.command("check")
    def check_cmd(session_dir: Path = typer.Argument(..., help="A session folder.")) -> None:
        """Report divergences: no checkpoint, changed prefix, state ≠ replay, torn or quarantined tail.

        Example: autodidact session check my-kb/debates/20261202-idea-1a2b
        """

        def run() -> dict[str, object]:
            problems = store_for(session_dir).check()
            return {"status": "INCONSISTENT" if problems else "OK", "divergences": problems}

        _store_call(run)

    @session.command("recover")
    def recover_cmd(session_dir: Path = typer.Argument(..., help="A session folder.")) -> None:
        """Quarantine a torn last line, replay, re-snapshot, and print a ≤10-line briefing.

        Example: autodidact session recover my-kb/debates/20261202-idea-1a2b
        """

        def run() -> dict[str, object]:
            from autodidact.debate.render import briefing, budget_line

            result = store_for(session_dir).recover()
            state = result["session"]
            lines = briefing(state, budget_line(state)) if state is not None else []
            for line in lines:
                console.print(line, soft_wrap=True, markup=False, highlight=False)
            return {
                "status": "OK",
                "quarantined": result["quarantined"],
                "snapshot_rewritten": result["snapshot_rewritten"],
                "events": result["events"],
                "briefing": lines,
            }

        _store_call(run)

    @session.command("snapshot")
    def snapshot_cmd(
        session_dir: Path = typer.Argument(..., help="A session folder."),
        expected_revision: int = typer.Option(..., "--expected-revision", help="The revision you read (N)."),
    ) -> None:
        """Write the replayed state as revision N+1; refuse when session.json is not at N.

        Example: autodidact session snapshot DIR --expected-revision 3
        """

        def run() -> dict[str, object]:
            return {"status": "OK", "revision": store_for(session_dir).snapshot(expected_revision)}

        _store_call(run)

    @session.command("seal")
    def seal_cmd(session_dir: Path = typer.Argument(..., help="A session folder.")) -> None:
        """Write checkpoint.json only when session.json equals the replay of all events.

        Example: autodidact session seal my-kb/debates/20261202-idea-1a2b
        """

        def run() -> dict[str, object]:
            return {"status": "OK", "checkpoint": store_for(session_dir).seal()}

        _store_call(run)
