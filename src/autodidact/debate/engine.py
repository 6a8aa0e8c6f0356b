"""The debate engine: stage 0, the one configuration question, then one focus question per turn.

Why transactions of events: a turn is planned in full against a scratch copy of the session (every
event applied to it as it is emitted), then written line by line with fsync. The last event of a
turn carries ``txn_end``. If the process dies mid-turn, the log ends inside a transaction; the next
run re-plans that transaction from the state before it — planning is deterministic, event ids are
content-derived — checks that the written prefix matches, and appends only the missing events. The
transcript after recovery is therefore exactly the one an uninterrupted run would have produced.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from autodidact.config import env
from autodidact.debate import gates, summaries
from autodidact.debate.events import EventLine, UserInputEvent, make_event, parse_event
from autodidact.debate.projection import apply, replay
from autodidact.debate.reply_planner import ReplyPlanner
from autodidact.debate.session import Session, pending_turn
from autodidact.debate.store import SessionStore
from autodidact.debate.turn_planner import TurnPlanner
from autodidact.debate.txn import Txn
from autodidact.errors import AutodidactError, InputError, IntegrityError, LockedError
from autodidact.store import atomic
from autodidact.store.lock import WriterLock

if TYPE_CHECKING:
    from autodidact.config import Settings
    from autodidact.llm.runtime import Runtime

CRASH_ENV = "AUTODIDACT_DEBATE_CRASH_AFTER"
"""Fault injection for recovery tests: die (mid-line) after writing this many event lines."""


class TurnConflict(AutodidactError):
    """A reply to a turn the session has already moved past."""

    exit_code = 3


class Engine:
    """One session folder driven turn by turn; every state change is an appended event."""

    def __init__(
        self,
        folder: Path,
        *,
        runtime: Runtime | None = None,
        settings: Settings | None = None,
        kb_root: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = SessionStore(folder)
        from autodidact.llm.runtime import or_offline

        self.runtime = or_offline(runtime)
        self.settings = settings
        self.kb_root = kb_root
        # The engine loads, locks and commits; what a turn says is planned by parts it holds.
        self.turns = TurnPlanner(runtime=self.runtime, settings=settings, kb_root=kb_root, store=self.store)
        self.planner = ReplyPlanner(self.turns)
        self.clock = clock
        self.events: list[EventLine] = []
        self.session: Session | None = None
        self._written = 0

    # -- loading and committing ----------------------------------------------------------
    def load(self) -> Session:
        self.store.require()
        self.events = self.store.events()
        self.session = replay(self.events)
        if self.session is None:
            raise IntegrityError(f"{self.store.events_path} has no events")
        return self.session

    def _commit(self, txn: Txn, started: float) -> list[EventLine]:
        if not txn.events:
            return []
        last = txn.events[-1]
        payload = {**last["payload"], "txn_end": True, "active_seconds": round(self.clock() - started, 3)}
        txn.events[-1] = make_event(
            last["session_id"], last["seq"], last["type"], actor=last["actor"],
            execution_kind=last["execution_kind"], payload=payload, created_at=last["created_at"],
        )  # fmt: skip
        crash_after = env(CRASH_ENV)
        for event in txn.events:
            if any(e["event_id"] == event["event_id"] for e in self.events[-len(txn.events) :]):
                continue
            if crash_after is not None and self._written >= int(crash_after):
                self._die_mid_line(event)
            self.store.write_line(event)
            self._written += 1
            self.events.append(event)
            self.session = apply(self.session, event)
        self._after_commit(txn.events)
        return txn.events

    def _die_mid_line(self, event: EventLine) -> None:
        import json

        line = json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        with open(self.store.events_path, "ab") as fh:
            fh.write(line[: len(line) // 2])
            fh.flush()
            os.fsync(fh.fileno())
        os._exit(137)

    def _after_commit(self, events: list[EventLine]) -> None:
        revision, _ = self.store.read_snapshot()
        self.store.snapshot(expected_revision=revision)
        self.store.seal()
        self.store.ledger(
            {
                "seq": events[-1]["seq"],
                "txn": events[-1]["payload"].get("txn"),
                "producer": self.runtime.engine_name,
                "usage": self.runtime.usage_totals(),
            }
        )
        if any(e["type"] == "CHECKPOINT" for e in events):
            self.write_summaries()

    def write_summaries(self) -> list[Path]:
        assert self.session is not None
        count = len(self.session.checkpoints)
        written = [self.store.summaries / f"{count:03d}-session-summary.md"]
        atomic.write_text(written[0], summaries.session_summary_md(self.session))
        plan = summaries.validation_plan_md(self.session)
        if plan:
            written.append(self.store.summaries / f"{count:03d}-validation-plan.md")
            atomic.write_text(written[1], plan)
        return written

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """One writer per session: a second process replying at the same time is refused."""
        lock = WriterLock(self.store.folder / ".lock")
        try:
            lock.acquire()
        except LockedError:
            raise LockedError(
                f"session {self.store.folder.name} is being written by another process",
                hint="wait for the other reply to finish",
            ) from None
        try:
            yield
        finally:
            lock.release()

    def _txn(self, key: str) -> Txn:
        sid = self.session.session_id if self.session else self.store.folder.name
        return Txn(self.session, sid, len(self.events) + 1, key)

    # -- public operations -------------------------------------------------------------------
    def start(self, prompt: str, *, depth: str | None = None, run_id: str | None = None) -> list[EventLine]:
        if not prompt.strip():
            raise InputError("empty prompt", hint='give an idea or a claim: autodidact debate start "..."')
        if depth is not None and depth not in gates.BUDGETS:
            raise InputError(f"unknown depth {depth!r}", hint="use quick, standard or deep")
        if self.store.events_path.exists():
            raise InputError(f"session {self.store.folder.name} already exists", hint="continue it with `debate reply`")
        with self._locked():
            return self._start(prompt, depth=depth, run_id=run_id)

    def _start(self, prompt: str, *, depth: str | None, run_id: str | None) -> list[EventLine]:
        if self.store.events_path.exists():
            raise InputError(f"session {self.store.folder.name} already exists", hint="continue it with `debate reply`")
        started = self.clock()
        txn = self._txn(prompt)
        self.planner.plan_start(txn, prompt, depth, run_id or self.store.folder.name)
        return self._commit(txn, started)

    def open_turn(self) -> int | None:
        """The turn whose question is waiting for an answer (None: nothing is asked)."""
        session = self.load()
        pending = session.pending_question
        return pending_turn(pending) if pending and pending.get("turn") is not None else None

    def reply(self, text: str, turn: int | None = None) -> list[EventLine]:
        """Answer the open question; with ``turn``, only if that is still the open one.

        Why: three replies sent at once used to land on three successive turns, each answering a
        question its sender never saw. A reply names the turn it answers and is refused
        (:class:`TurnConflict`, exit 3) once the session has moved on (docs/hardening.md).
        """
        with self._locked():
            return self._reply(text, turn)

    def _reply(self, text: str, turn: int | None = None) -> list[EventLine]:
        self.load()
        completed = self._complete_partial()
        if completed:
            txn_id = completed[-1]["payload"].get("txn")
            whole = [e for e in self.events if e["payload"].get("txn") == txn_id]
            if whole and whole[0]["type"] == "USER_INPUT" and whole[0]["payload"].get("text") == text:
                return whole  # the same answer sent again after a crash: it was already recorded
        if turn is not None:
            open_now = self.open_turn()
            if open_now != turn:
                if open_now is not None:
                    raise TurnConflict(
                        f"this reply answers turn {turn}, but turn {open_now} is open",
                        hint="read the new question (autodidact debate show SESSION) and answer it",
                    )
                if self.session is None or self.session.state != "CHECKPOINT":
                    raise TurnConflict(
                        f"this reply answers turn {turn}, but no question is open",
                        hint="see the session's state: autodidact debate show SESSION",
                    )
                # at a checkpoint no turn is open, yet a reply is welcome: say so rather than only
                # "no question is open" (a trial read that as the session refusing replies)
                raise TurnConflict(
                    f"this reply answers turn {turn}, which was answered already; the session is at a checkpoint",
                    hint="reply without --turn to go on from the checkpoint, or close it: autodidact debate close",
                )
        if not text.strip():
            raise InputError("empty answer", hint="type your answer, or 暂停 / pause to stop for now")
        started = self.clock()
        txn = self._txn(text)
        self.planner.plan_reply(txn, text)
        return self._commit(txn, started)

    def resume(self) -> list[EventLine]:
        """Finish a turn a crash cut short; returns the events it appended (may be empty)."""
        with self._locked():
            self.load()
            return self._complete_partial()

    def pause(self, reason: str = "user") -> list[EventLine]:
        with self._locked():
            return self._pause(reason)

    def _pause(self, reason: str) -> list[EventLine]:
        self.load()
        self._complete_partial()
        assert self.session is not None
        if self.session.state in {"PAUSED", "CLOSED"}:
            return []
        txn = self._txn(f"pause:{len(self.events)}")
        txn.emit("PAUSED", "moderator", "SYSTEM", {"reason": reason})
        return self._commit(txn, self.clock())

    def close(self) -> list[EventLine]:
        with self._locked():
            return self._close()

    def _close(self) -> list[EventLine]:
        self.load()
        self._complete_partial()
        assert self.session is not None
        if self.session.state == "CLOSED":
            return []
        started = self.clock()
        txn = self._txn("/close")
        txn.emit("USER_INPUT", "user", "USER", {"intent": "COMMAND", "op": "close", "text": "/close"})
        self.turns.checkpoint(txn, "USER_CLOSED", "S4", self.turns.obstacle(txn.s), final=True)
        return self._commit(txn, started)

    # -- crash completion ------------------------------------------------------------------
    def _complete_partial(self) -> list[EventLine]:
        if not self.events or not self.events[-1]["payload"].get("txn") or self.events[-1]["payload"].get("txn_end"):
            return []
        txn_id = self.events[-1]["payload"]["txn"]
        start = next(i for i, e in enumerate(self.events) if e["payload"].get("txn") == txn_id)
        first = self.events[start]
        before = replay(self.events[:start])
        written = self.events[start:]
        self.session = before
        self.events = self.events[:start]
        opened = parse_event(first)
        said = opened.payload if isinstance(opened, UserInputEvent) else None
        text = said.text if said is not None else ""
        txn = self._txn(text)
        op = said.op if said is not None else None
        if said is not None and op == "start":
            self.planner.plan_start(txn, said.text, said.depth_flag, said.run_id or txn.session_id)
        elif op == "close":
            txn.emit("USER_INPUT", "user", "USER", {"intent": "COMMAND", "op": "close", "text": "/close"})
            self.turns.checkpoint(txn, "USER_CLOSED", "S4", self.turns.obstacle(txn.s), final=True)
        elif first["type"] == "PAUSED":
            txn.emit("PAUSED", "moderator", "SYSTEM", dict(first["payload"]))
        else:
            self.planner.plan_reply(txn, text)
        planned = [e["event_id"] for e in txn.events[: len(written)]]
        if planned != [e["event_id"] for e in written]:
            self.events = [*self.events, *written]
            self.session = replay(self.events)
            raise IntegrityError(
                f"the interrupted turn at seq {first['seq']} cannot be re-planned identically",
                hint="the model answered differently; run `autodidact session check` and continue with a new reply",
            )
        self.events = [*self.events, *written]
        self.session = replay(self.events)
        return self._commit(txn, self.clock())

    # -- planning ----------------------------------------------------------------------------
