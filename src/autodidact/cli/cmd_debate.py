"""``autodidact debate ...`` (Socratic idea sessions) and ``autodidact session ...`` (the event store).

Thin on purpose: the engine in ``autodidact.debate`` does the work; this module resolves the
session folder, builds the runtime, reads answers from the terminal (EOF or Ctrl+C pauses cleanly)
and prints turns on stdout. Store commands print JSON with a status and exit 0 (ok), 1
(inconsistent) or 2 (input error).
"""

from __future__ import annotations

import json
import secrets
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import typer

from autodidact.cli.common import console, emit_json, kb_option
from autodidact.cli.engine_opts import model_option

STATUS_EXIT = {
    "OK": 0,
    "INCONSISTENT": 1,
    "CORRUPT_EVENT_LOG": 1,
    "REVISION_CONFLICT": 1,
    "PROJECTION_ERROR": 1,
    "NOT_FOUND": 2,
    "INPUT_ERROR": 2,
}


def _out(text: str) -> None:
    sys.stdout.write(text.rstrip("\n") + "\n")
    sys.stdout.flush()


def _roots(kb: Path | None) -> tuple[Path, Path | None]:
    """``(debates folder, kb root or None)``: sessions live in ``<kb>/debates/``."""
    from autodidact.kb import is_kb, resolve_root

    root = resolve_root(kb).resolve()
    if not root.is_dir():
        from autodidact.errors import NotFoundError

        raise NotFoundError(f"folder {root} does not exist", hint=f"run: autodidact init {root}")
    return root / "debates", (root if is_kb(root) else None)


def _session_dir(kb: Path | None, session: str) -> tuple[Path, Path | None]:
    from autodidact.errors import NotFoundError
    from autodidact.store.paths import safe_join, safe_name

    debates, kb_root = _roots(kb)
    folder = safe_join(debates, safe_name(session, "session id"))
    if not (folder / "events.jsonl").is_file():
        raise NotFoundError(f"no debate session {session!r} in {debates}", hint="list them with: ls <kb>/debates")
    return folder, kb_root


def _engine(folder: Path, kb_root: Path | None, model: str | None) -> Any:
    from autodidact.cli.engine_opts import load_run_settings, make_runtime
    from autodidact.debate.engine import Engine

    settings = load_run_settings(kb_root, model)
    runtime = make_runtime(kb_root, model, settings=settings)
    return Engine(folder, runtime=None if runtime.is_offline else runtime, settings=settings, kb_root=kb_root)


def _show(engine: Any, events: list[dict[str, Any]], as_json: bool) -> None:
    from autodidact.debate.render import render_events, turn_json

    session = engine.session
    if as_json:
        emit_json(turn_json(session, events))
        return
    text = render_events(events, session.language)
    if text:
        _out(text)


def _continue_hint(folder: Path, lang: str) -> str:
    kb = folder.parent.parent
    if lang == "zh":
        return (
            f'已暂停。继续：autodidact debate --kb {kb}，或 autodidact debate reply {folder.name} "你的回答" --kb {kb}'
        )
    return (
        f'Paused. Continue with: autodidact debate --kb {kb}  or  autodidact debate reply {folder.name} "..." --kb {kb}'
    )


def _read_line() -> str | None:
    """One answer from stdin; None on EOF."""
    if sys.stdin.isatty():
        console.print("[bold cyan]>[/bold cyan] ", end="")
    line = sys.stdin.readline()
    if line == "":
        return None
    return line.rstrip("\n")


def _interactive(folder: Path, engine: Any, first: list[dict[str, Any]] | None = None) -> None:
    """The terminal conversation: answer, see the next turn, until closed; EOF/Ctrl+C pause."""
    try:
        if first is not None:
            _show(engine, first, False)
        _converse(engine)
    except KeyboardInterrupt:
        engine.pause("interrupt")
    session = engine.session
    if session.state == "CLOSED":
        console.print("会话已关闭" if session.language == "zh" else "session closed")
    elif session.state == "PAUSED":
        console.print(_continue_hint(folder, session.language), soft_wrap=True)


def _converse(engine: Any) -> None:
    from autodidact.errors import InputError

    engine.load()
    while engine.session.state != "CLOSED":
        line = _read_line()
        if line is None:
            engine.pause("eof")
            return
        if not line.strip():
            continue
        try:
            events = engine.reply(line)
        except InputError as exc:
            console.print(f"{exc.message} {exc.hint or ''}", soft_wrap=True, markup=False)
            continue
        _show(engine, events, False)
        if engine.session.state == "PAUSED":
            return


def _new_session_id(prompt: str) -> str:
    from autodidact.store.paths import slugify

    day = datetime.now(UTC).strftime("%Y%m%d")
    return f"{day}-{slugify(prompt, max_len=24, fallback='idea')}-{secrets.token_hex(2)}"


def _latest_open(debates: Path) -> Path:
    from autodidact.errors import NotFoundError

    candidates = []
    for events in debates.glob("*/events.jsonl"):
        snapshot = events.parent / "session.json"
        try:
            state = json.loads(snapshot.read_text("utf-8")).get("state")
        except (OSError, ValueError):
            state = None
        if state != "CLOSED":
            candidates.append((events.stat().st_mtime, events.parent))
    if not candidates:
        raise NotFoundError(f"no open debate session in {debates}", hint='start one: autodidact debate start "IDEA"')
    return max(candidates)[1]


def register(app: typer.Typer) -> None:
    """Add the ``debate`` and ``session`` groups."""
    debate = typer.Typer(
        help="Socratic idea sessions: one focus question per turn, you answer every round.",
        invoke_without_command=True,
    )
    app.add_typer(debate, name="debate")

    @debate.callback()
    def debate_root(
        ctx: typer.Context,
        kb: Path | None = kb_option(),
        model: str | None = model_option(),
    ) -> None:
        """Without a subcommand: continue the latest open session in the terminal.

        Example: autodidact debate --kb my-kb
        """
        if ctx.invoked_subcommand is not None:
            return
        from autodidact.debate.render import briefing

        debates, kb_root = _roots(kb)
        folder = _latest_open(debates)
        engine = _engine(folder, kb_root, model)
        engine.resume()
        engine.load()
        console.print("\n".join(briefing(engine.session, _budget_line(engine.session))), soft_wrap=True)
        _interactive(folder, engine)

    @debate.command("start")
    def start_cmd(
        prompt: str = typer.Argument(..., help="An intuition, observation or claim to discuss."),
        kb: Path | None = kb_option(),
        depth: str | None = typer.Option(None, "--depth", help="quick | standard | deep (else asked once)."),
        model: str | None = model_option(),
        no_input: bool = typer.Option(False, "--no-input", help="Print the first turn and exit (continue with reply)."),
        as_json: bool = typer.Option(False, "--json", help="With --no-input: print the turn as JSON."),
        session_id: str | None = typer.Option(None, "--session-id", help="Use this id instead of a generated one."),
    ) -> None:
        """Start a session and talk in the terminal (answers from stdin; EOF or Ctrl+C pauses).

        Example: autodidact debate start "我发现用AI写代码之后反而更累了" --kb my-kb --depth quick
        """
        from autodidact.store.paths import safe_join, safe_name

        debates, kb_root = _roots(kb)
        sid = safe_name(session_id, "session id") if session_id else _new_session_id(prompt)
        folder = safe_join(debates, sid)
        engine = _engine(folder, kb_root, model)
        events = engine.start(prompt, depth=depth)
        if no_input:
            _show(engine, events, as_json)
            if not as_json:
                console.print(f"session: {sid}")
            return
        console.print(f"session: {sid}")
        _interactive(folder, engine, events)

    @debate.command("reply")
    def reply_cmd(
        session: str = typer.Argument(..., help="Session id (a folder under <kb>/debates/)."),
        answer: str = typer.Argument(..., help="Your answer, verbatim."),
        kb: Path | None = kb_option(),
        model: str | None = model_option(),
        as_json: bool = typer.Option(False, "--json", help="Print the turn as JSON."),
    ) -> None:
        """Answer the open question and print the next turn (non-interactive).

        Example: autodidact debate reply 20261202-idea-1a2b "我说的是认知上的疲劳" --kb my-kb
        """
        folder, kb_root = _session_dir(kb, session)
        engine = _engine(folder, kb_root, model)
        events = engine.reply(answer)
        _show(engine, events, as_json)

    @debate.command("show")
    def show_cmd(
        session: str = typer.Argument(..., help="Session id."),
        kb: Path | None = kb_option(),
        as_json: bool = typer.Option(False, "--json", help="Print the session projection as JSON."),
    ) -> None:
        """Print the transcript and state of a session.

        Example: autodidact debate show 20261202-idea-1a2b --kb my-kb
        """
        from autodidact.debate.render import transcript
        from autodidact.debate.store import SessionStore

        folder, _ = _session_dir(kb, session)
        store = SessionStore(folder)
        events = store.events()
        state = store.replay()
        assert state is not None
        if as_json:
            emit_json(state.to_json())
            return
        _out(transcript(events, state.language))
        _out(f"\n[{state.state} · {state.mode} · {state.execution.depth} · {_budget_line(state)}]")

    @debate.command("close")
    def close_cmd(
        session: str = typer.Argument(..., help="Session id."),
        kb: Path | None = kb_option(),
        as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    ) -> None:
        """Close a session: final checkpoint (USER_CLOSED), summary and validation plan in summaries/.

        Example: autodidact debate close 20261202-idea-1a2b --kb my-kb
        """
        folder, kb_root = _session_dir(kb, session)
        engine = _engine(folder, kb_root, None)
        events = engine.close()
        if not events:
            engine.load()
        _show(engine, events, as_json)
        if not as_json:
            console.print(f"summaries: {folder / 'summaries'}")

    @debate.command("check")
    def check_cmd(session_dir: Path = typer.Argument(..., help="A session folder.")) -> None:
        """Check a session against the protocol rules (one rule id per violation); exit 1 on any.

        Example: autodidact debate check my-kb/debates/20261202-idea-1a2b
        """
        from autodidact.debate.checker import check_session
        from autodidact.errors import NotFoundError

        if not (session_dir / "events.jsonl").is_file():
            raise NotFoundError(f"no session at {session_dir}", hint="pass a folder under <kb>/debates/")
        result = check_session(session_dir)
        emit_json(result)
        raise typer.Exit(0 if result["ok"] else 1)

    _register_session(app)


def _budget_line(session: Any) -> str:
    usage, budget = session.execution.usage, session.execution.budget
    if budget is None:
        return f"budget: depth not set; events {usage.events}"
    return (
        f"budget: rounds {usage.rounds}/{budget.max_rounds}, reviews {usage.review_batches}/"
        f"{budget.max_review_batches}, events {usage.events}/{budget.max_events}, "
        f"active {usage.active_seconds:.0f}/{budget.max_active_seconds}s"
    )


def _store_call(fn: Any) -> None:
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
    raise typer.Exit(STATUS_EXIT[result["status"]])


def _register_session(app: typer.Typer) -> None:
    session = typer.Typer(help="The debate event store: append, check, recover, snapshot, seal.", no_args_is_help=True)
    app.add_typer(session, name="session")

    def store_for(folder: Path) -> Any:
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

        def run() -> dict[str, Any]:
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

        def run() -> dict[str, Any]:
            problems = store_for(session_dir).check()
            return {"status": "INCONSISTENT" if problems else "OK", "divergences": problems}

        _store_call(run)

    @session.command("recover")
    def recover_cmd(session_dir: Path = typer.Argument(..., help="A session folder.")) -> None:
        """Quarantine a torn last line, replay, re-snapshot, and print a ≤10-line briefing.

        Example: autodidact session recover my-kb/debates/20261202-idea-1a2b
        """

        def run() -> dict[str, Any]:
            from autodidact.debate.render import briefing

            result = store_for(session_dir).recover()
            state = result.pop("session")
            lines = briefing(state, _budget_line(state)) if state is not None else []
            for line in lines:
                console.print(line, soft_wrap=True, markup=False, highlight=False)
            return {"status": "OK", **result, "briefing": lines}

        _store_call(run)

    @session.command("snapshot")
    def snapshot_cmd(
        session_dir: Path = typer.Argument(..., help="A session folder."),
        expected_revision: int = typer.Option(..., "--expected-revision", help="The revision you read (N)."),
    ) -> None:
        """Write the replayed state as revision N+1; refuse when session.json is not at N.

        Example: autodidact session snapshot DIR --expected-revision 3
        """

        def run() -> dict[str, Any]:
            return {"status": "OK", "revision": store_for(session_dir).snapshot(expected_revision)}

        _store_call(run)

    @session.command("seal")
    def seal_cmd(session_dir: Path = typer.Argument(..., help="A session folder.")) -> None:
        """Write checkpoint.json only when session.json equals the replay of all events.

        Example: autodidact session seal my-kb/debates/20261202-idea-1a2b
        """

        def run() -> dict[str, Any]:
            return {"status": "OK", "checkpoint": store_for(session_dir).seal()}

        _store_call(run)
