"""Idea debates from Python (``autodidact debate``): start a session, answer it turn by turn, close it.

Why a class: a session is a folder that outlives any one call (``<kb>/debates/<id>/``, its
``events.jsonl`` the truth), and every call on it needs the same folder, engine and settings.
A :class:`Debate` holds those; each call reloads the session from its files, so two programs (a
notebook and the MCP server) may take turns on one session, and a reply to a turn that has moved on
is refused (``turn=``) rather than answering a question its sender never saw.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from autodidact.api.knowledge import KBPath
from autodidact.api.runtime_setup import check_engine_args, runtime_for, settings_for
from autodidact.errors import InputError, NotFoundError

if TYPE_CHECKING:
    from autodidact.debate.engine import Engine
    from autodidact.debate.events import EventLine
    from autodidact.debate.session import Session
    from autodidact.jsontypes import JSONObject

DEPTHS = ("quick", "standard", "deep")


@dataclass(frozen=True)
class Turn:
    """What the partner said after a call: ``text`` to show, and the one ``question`` now open (if any).

    ``turn`` is the open question's number: pass it back with the answer (``reply(..., turn=n)``)
    to be sure the answer lands on that question. ``state`` is the session's state (``CLOSED``
    once closed); ``stop_reason`` says why a checkpoint, pause or close happened.
    """

    session_id: str
    state: str
    text: str
    question: str | None
    turn: int | None
    mode: str
    depth: str | None
    stop_reason: str | None

    @property
    def closed(self) -> bool:
        """True once the session is closed (nothing more to answer)."""
        return self.state == "CLOSED"

    def as_dict(self) -> JSONObject:
        """JSON-ready (the MCP server's answer)."""
        return {
            "session_id": self.session_id, "state": self.state, "text": self.text, "question": self.question,
            "turn": self.turn, "mode": self.mode, "depth": self.depth, "stop_reason": self.stop_reason,
        }  # fmt: skip


def _turn(session: Session, events: list[EventLine]) -> Turn:
    from autodidact.debate.render import render_events
    from autodidact.debate.session import json_int

    pending = session.pending_question or {}
    number = pending.get("turn")
    return Turn(
        session_id=session.session_id,
        state=session.state,
        text=render_events(events, session.language),
        question=str(pending["question"]) if pending.get("question") else None,
        turn=json_int(number) if number is not None else None,
        mode=session.mode,
        depth=session.execution.depth,
        stop_reason=session.stop_reason if session.state in {"CHECKPOINT", "CLOSED", "PAUSED"} else None,
    )


class Debate:
    """One Socratic idea session in ``<kb>/debates/<session_id>/``.

    ``Debate.start("我发现用AI写代码之后反而更累了", kb="my-kb")`` begins one (``.turn`` is the first
    turn); ``Debate("<id>", kb="my-kb")`` opens an existing one. The engine is the offline one unless
    ``model`` (``provider:name``) or the settings name a model.
    """

    def __init__(self, session_id: str, *, kb: KBPath, model: str | None = None, fallback: str | None = None) -> None:
        from autodidact.kb import is_kb, resolve_root
        from autodidact.store.paths import safe_join, safe_name

        check_engine_args(model, fallback)
        root = resolve_root(Path(kb)).resolve()
        if not root.is_dir():
            raise NotFoundError(f"folder {root} does not exist", hint="start a debate there first: Debate.start(...)")
        self.session_id = safe_name(session_id, "session id")
        self.folder = safe_join(root / "debates", self.session_id)
        self.kb_root = root if is_kb(root) else None
        self._model, self._fallback = model, fallback
        self.turn: Turn | None = None

    @classmethod
    def start(
        cls,
        prompt: str,
        *,
        kb: KBPath,
        depth: str | None = None,
        session_id: str | None = None,
        model: str | None = None,
        fallback: str | None = None,
    ) -> Debate:
        """Start a session on ``prompt`` (an intuition, observation or claim); ``.turn`` holds the first turn.

        ``kb`` becomes a knowledge base if it is not one (as ``debate start`` does), so the
        session's evidence gaps can later be checked against its sources. ``depth`` skips the
        configuration question (quick, standard or deep).
        """
        from autodidact.debate.store import new_session_id
        from autodidact.kb import init_kb, is_kb

        if not isinstance(prompt, str) or not prompt.strip():
            raise InputError("the debate prompt is empty", hint="give an idea, an observation or a claim")
        if depth is not None and depth not in DEPTHS:
            raise InputError(f"depth {depth!r} is not quick, standard or deep")
        check_engine_args(model, fallback)
        sid = session_id if session_id is not None else new_session_id(prompt)
        root = Path(kb)
        if not is_kb(root):
            init_kb(root)
        debate = cls(sid, kb=root, model=model, fallback=fallback)
        engine = debate._engine()
        events = engine.start(prompt, depth=depth)
        debate.turn = _turn(engine.session, events) if engine.session is not None else None
        return debate

    def _engine(self) -> Engine:
        from autodidact.debate.engine import Engine

        settings = settings_for(self.kb_root, model=self._model, fallback=self._fallback)
        runtime = runtime_for(settings, self.kb_root, model=self._model)
        return Engine(self.folder, runtime=runtime, settings=settings, kb_root=self.kb_root)

    def _existing(self) -> Engine:
        if not (self.folder / "events.jsonl").is_file():
            raise NotFoundError(
                f"no debate session {self.session_id!r} in {self.folder.parent}",
                hint="start one with Debate.start(...)",
            )
        engine = self._engine()
        if engine.store.read_log().torn_tail is not None:  # a crash mid-write: quarantine the torn line first
            engine.store.recover()
        engine.resume()  # finishes a turn a crash cut short; appends nothing otherwise
        return engine

    def reply(self, answer: str, *, turn: int | None = None) -> Turn:
        """Answer the open question and get the next turn.

        With ``turn``, the answer is recorded only if that turn's question is still the open one
        (:class:`~autodidact.debate.engine.TurnConflict` otherwise, and nothing is written).
        """
        if not isinstance(answer, str) or not answer.strip():
            raise InputError("the answer is empty", hint="type your answer, or 'pause' to stop for now")
        engine = self._existing()
        events = engine.reply(answer, turn=turn)
        assert engine.session is not None
        self.turn = _turn(engine.session, events)
        return self.turn

    def close(self) -> Turn:
        """Close the session: a final checkpoint and its summary in ``summaries/`` (see :meth:`summary_files`)."""
        engine = self._existing()
        events = engine.close()
        session = engine.session if events else engine.load()
        assert session is not None
        self.turn = _turn(session, events)
        return self.turn

    def current(self) -> Turn:
        """The session as it stands: its state and the open question, with the last turn's text."""
        engine = self._existing()
        session = engine.load()
        events = engine.events
        txn = events[-1]["payload"].get("txn") if events else None
        last = [e for e in events if txn is not None and e["payload"].get("txn") == txn]
        self.turn = _turn(session, last)
        return self.turn

    def transcript(self) -> str:
        """The whole conversation as text (``autodidact debate show``)."""
        from autodidact.debate.render import transcript

        engine = self._existing()
        session = engine.load()
        return transcript(engine.events, session.language)

    def summary_files(self) -> list[Path]:
        """The summaries written at checkpoints and at close, oldest first."""
        folder = self.folder / "summaries"
        return sorted(folder.glob("*.md")) if folder.is_dir() else []
