"""``autodidact debate ...``: Socratic idea sessions in the terminal or one reply at a time.

Thin on purpose: the engine in ``autodidact.debate`` does the work; this module resolves the
session folder, builds the runtime, reads answers from the terminal (EOF or Ctrl+C pauses cleanly)
and prints turns on stdout. Store commands print JSON with a status and exit 0 (ok), 1
(inconsistent) or 2 (input error).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import typer

from autodidact.cli.common import console, emit_json, kb_option
from autodidact.cli.engine_opts import fallback_option, model_option

if TYPE_CHECKING:
    from autodidact.debate.engine import Engine
    from autodidact.debate.events import EventLine
    from autodidact.debate.session import Session


def _out(text: str) -> None:
    sys.stdout.write(text.rstrip("\n") + "\n")
    sys.stdout.flush()


# ``autodidact debate --kb K --model M start …``: the group's options apply to its subcommands
# (set by the group callback, which runs first in every invocation; a subcommand's own option wins).
class _GroupOptions(TypedDict, total=False):
    kb: Path | None
    model: str | None
    fallback: str | None


_GROUP: _GroupOptions = {}


def _roots(kb: Path | None, *, create: bool = False) -> tuple[Path, Path | None]:
    """``(debates folder, kb root or None)``: sessions live in ``<kb>/debates/``.

    ``create``: a folder that is not a knowledge base yet becomes one (``debate start``, like
    ``research``), so a session can later check its gaps against the knowledge base's sources.
    """
    from autodidact.kb import init_kb, is_kb, resolve_root

    root = resolve_root(kb if kb is not None else _GROUP.get("kb")).resolve()
    if create and not is_kb(root):
        init_kb(root)
        console.print(f"initialised knowledge base at {root}")
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


def _engine(folder: Path, kb_root: Path | None, model: str | None, fallback: str | None = None) -> Engine:
    from autodidact.cli.engine_opts import load_run_settings, make_runtime
    from autodidact.debate.engine import Engine

    model = model if model is not None else _GROUP.get("model")
    fallback = fallback if fallback is not None else _GROUP.get("fallback")
    settings = load_run_settings(kb_root, model, fallback=fallback)
    runtime = make_runtime(kb_root, model, settings=settings)
    return Engine(folder, runtime=runtime, settings=settings, kb_root=kb_root)


def _loaded(engine: Engine) -> Session:
    """The engine's session after a command ran (every command loads or starts one first)."""
    if engine.session is None:
        raise RuntimeError("the debate engine holds no session")
    return engine.session


def _show(engine: Engine, events: list[EventLine], as_json: bool) -> None:
    from autodidact.debate.render import render_events, turn_json

    session = _loaded(engine)
    if as_json:
        emit_json(turn_json(session, events))
        return
    text = render_events(events, session.language)
    if text:
        _out(text)


def _continue_hint(folder: Path, lang: str) -> str:
    kb = folder.parent.parent  # <kb>/debates/<session>
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


def _interactive(folder: Path, engine: Engine, first: list[EventLine] | None = None) -> None:
    """The terminal conversation: answer, see the next turn, until closed; EOF/Ctrl+C pause."""
    try:
        if first is not None:
            _show(engine, first, False)
        _converse(engine)
    except KeyboardInterrupt:
        engine.pause("interrupt")
    session = _loaded(engine)
    if session.state == "CLOSED":
        console.print("会话已关闭" if session.language == "zh" else "session closed")
    elif session.state == "PAUSED":
        console.print(_continue_hint(folder, session.language), soft_wrap=True)


def _converse(engine: Engine) -> None:
    from autodidact.errors import InputError

    engine.load()
    while _loaded(engine).state != "CLOSED":
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
        if _loaded(engine).state == "PAUSED":
            return


def _new_session_id(prompt: str) -> str:
    from autodidact.debate.store import new_session_id

    return new_session_id(prompt)


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
        fallback: str | None = fallback_option(),
    ) -> None:
        """Without a subcommand: continue the latest open session in the terminal.

        Example: autodidact debate --kb my-kb
        """
        _GROUP.update({"kb": kb, "model": model, "fallback": fallback})  # every key: nothing of a last call stays
        if ctx.invoked_subcommand is not None:
            return
        from autodidact.debate.render import briefing, budget_line

        debates, kb_root = _roots(kb)
        folder = _latest_open(debates)
        engine = _engine(folder, kb_root, model, fallback)
        if engine.store.read_log().torn_tail is not None:  # a crash mid-write: quarantine the torn line first
            result = engine.store.recover()
            console.print(f"recovered {folder.name}: torn last line moved to {result['quarantined']}", soft_wrap=True)
        engine.resume()
        session = engine.load()
        console.print("\n".join(briefing(session, budget_line(session))), soft_wrap=True)
        _interactive(folder, engine)

    @debate.command("start")
    def start_cmd(
        prompt: str = typer.Argument(..., help="An intuition, observation or claim to discuss."),
        kb: Path | None = kb_option(),
        depth: str | None = typer.Option(None, "--depth", help="quick | standard | deep (else asked once)."),
        model: str | None = model_option(),
        fallback: str | None = fallback_option(),
        no_input: bool = typer.Option(False, "--no-input", help="Print the first turn and exit (continue with reply)."),
        as_json: bool = typer.Option(False, "--json", help="With --no-input: print the turn as JSON."),
        session_id: str | None = typer.Option(None, "--session-id", help="Use this id instead of a generated one."),
    ) -> None:
        """Start a session and talk in the terminal (answers from stdin; EOF or Ctrl+C pauses).

        Example: autodidact debate start "我发现用AI写代码之后反而更累了" --kb my-kb --depth quick
        """
        from autodidact.cli.engine_opts import check_model_first
        from autodidact.store.paths import safe_join, safe_name

        check_model_first(model if model is not None else _GROUP.get("model"))
        debates, kb_root = _roots(kb, create=True)
        sid = safe_name(session_id, "session id") if session_id else _new_session_id(prompt)
        folder = safe_join(debates, sid)
        engine = _engine(folder, kb_root, model, fallback)
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
        fallback: str | None = fallback_option(),
        as_json: bool = typer.Option(False, "--json", help="Print the turn as JSON."),
        turn: int | None = typer.Option(
            None, "--turn", min=1, help="The turn you are answering (default: the one open when this command starts)."
        ),
    ) -> None:
        """Answer the open question and print the next turn (non-interactive).

        A reply answers one turn: if the session moved on before it is recorded (another reply came
        first), it is refused with exit 3 and nothing is written.

        Example: autodidact debate reply 20261202-idea-1a2b "我说的是认知上的疲劳" --turn 4 --kb my-kb
        """
        folder, kb_root = _session_dir(kb, session)
        engine = _engine(folder, kb_root, model, fallback)
        asked = turn if turn is not None else engine.open_turn()
        events = engine.reply(answer, turn=asked)
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
        from autodidact.debate.render import status_line, transcript
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
        _out("\n" + status_line(state))

    @debate.command("close")
    def close_cmd(
        session: str = typer.Argument(..., help="Session id."),
        kb: Path | None = kb_option(),
        as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    ) -> None:
        """Close a session: final checkpoint (USER_CLOSED), summary and validation plan in debates/<id>/summaries/.

        Example: autodidact debate close 20261202-idea-1a2b --kb my-kb
        """
        folder, kb_root = _session_dir(kb, session)
        engine = _engine(folder, kb_root, None)
        events = engine.close()
        if not events:
            engine.load()
        _show(engine, events, as_json)
        if not as_json:
            # the files of this close, by name: earlier checkpoints left numbered files beside them
            # and a trial could not tell which was final
            state = engine.session
            count = len(state.checkpoints) if state is not None else 0
            summary = folder / "summaries" / f"{count:03d}-session-summary.md"
            plan = folder / "summaries" / f"{count:03d}-validation-plan.md"
            zh = state is not None and state.language == "zh"  # a Chinese session ends in Chinese
            # plain lines: a path is never wrapped; Chinese punctuation in a Chinese session
            _out(f"最终小结：{summary}" if zh else f"final summary: {summary}")
            if plan.is_file():
                _out(f"验证计划：{plan}" if zh else f"validation plan: {plan}")
            elif zh:
                _out("验证计划：无（记录里没有一条「看到什么结果就改变看法」的检验）")
            else:
                _out("validation plan: none (the record holds no test with a result that would change your mind)")

    @debate.command("check")
    def check_cmd(
        session_dir: str = typer.Argument(..., help="A session folder, or a session id with --kb."),
        kb: Path | None = kb_option(),
    ) -> None:
        """Check a session against the protocol rules (one rule id per violation); exit 1 on any.

        Examples: autodidact debate check my-kb/debates/20261202-idea-1a2b
                  autodidact debate check 20261202-idea-1a2b --kb my-kb
        """
        from autodidact.debate.checker import check_session
        from autodidact.errors import NotFoundError

        session_path = Path(session_dir)
        if not (session_path / "events.jsonl").is_file():
            session_path, _ = _session_dir(kb, session_dir)
        if not (session_path / "events.jsonl").is_file():
            raise NotFoundError(
                f"no session at {session_dir}", hint="pass a folder under <kb>/debates/ or an id with --kb"
            )
        result = check_session(session_path)
        emit_json(result)
        raise typer.Exit(0 if result["ok"] else 1)
