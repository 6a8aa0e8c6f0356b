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
from typing import Any

from autodidact.config import env
from autodidact.debate import cues, gaps, gates, moderator, review, summaries
from autodidact.debate.events import make_event
from autodidact.debate.roles import LABEL_INDEPENDENT, LABEL_SELF_CHECK, LABEL_SWITCH, ROLES, label, source_label
from autodidact.debate.session import Session, apply, replay
from autodidact.debate.store import SessionStore
from autodidact.debate.templates import TurnInputs, excerpt, key_term
from autodidact.debate.turns import SignalInputs, read_signals, write_turn
from autodidact.errors import InputError, IntegrityError, LockedError
from autodidact.store import atomic
from autodidact.store.hashing import hash_json
from autodidact.store.lock import WriterLock

CRASH_ENV = "AUTODIDACT_DEBATE_CRASH_AFTER"
"""Fault injection for recovery tests: die (mid-line) after writing this many event lines."""

UNCERTAIN = ("没验证", "没有验证", "不确定是否", "not verified", "unverified", "never checked")


class _Txn:
    """Events of one turn, planned against a scratch copy of the session."""

    def __init__(self, session: Session | None, session_id: str, start_seq: int, key: str) -> None:
        self.scratch = session.model_copy(deep=True) if session is not None else None
        self.session_id = session_id
        self.next_seq = start_seq
        self.txn_id = hash_json([session_id, start_seq, key])[:10]
        self.events: list[dict[str, Any]] = []

    @property
    def s(self) -> Session:
        assert self.scratch is not None
        return self.scratch

    def emit(self, type_: str, actor: str, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        event = make_event(
            self.session_id,
            self.next_seq,
            type_,
            actor=actor,
            execution_kind=kind,
            payload={**payload, "txn": self.txn_id},
        )
        self.scratch = apply(self.scratch, event)
        self.events.append(event)
        self.next_seq += 1
        return event

    def field(self, name: str, value: Any) -> None:
        self.emit("SELECTION_REASON", "moderator", "SYSTEM", {"field": name, "value": value})


class Engine:
    """One session folder driven turn by turn; every state change is an appended event."""

    def __init__(
        self,
        folder: Path,
        *,
        runtime: Any = None,
        settings: Any = None,
        kb_root: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = SessionStore(folder)
        self.runtime = runtime
        self.settings = settings
        self.kb_root = kb_root
        self.clock = clock
        self.events: list[dict[str, Any]] = []
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

    def _commit(self, txn: _Txn, started: float) -> list[dict[str, Any]]:
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

    def _die_mid_line(self, event: dict[str, Any]) -> None:
        import json

        line = json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        with open(self.store.events_path, "ab") as fh:
            fh.write(line[: len(line) // 2])
            fh.flush()
            os.fsync(fh.fileno())
        os._exit(137)

    def _after_commit(self, events: list[dict[str, Any]]) -> None:
        revision, _ = self.store.read_snapshot()
        self.store.snapshot(expected_revision=revision)
        self.store.seal()
        self.store.ledger(
            {
                "seq": events[-1]["seq"],
                "txn": events[-1]["payload"].get("txn"),
                "producer": "offline"
                if self.runtime is None or getattr(self.runtime, "is_offline", False)
                else "model",
                "usage": self.runtime.usage_totals() if hasattr(self.runtime, "usage_totals") else {},
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

    def _txn(self, key: str) -> _Txn:
        sid = self.session.session_id if self.session else self.store.folder.name
        return _Txn(self.session, sid, len(self.events) + 1, key)

    # -- public operations -------------------------------------------------------------------
    def start(self, prompt: str, *, depth: str | None = None, run_id: str | None = None) -> list[dict[str, Any]]:
        with self._locked():
            return self._start(prompt, depth=depth, run_id=run_id)

    def _start(self, prompt: str, *, depth: str | None, run_id: str | None) -> list[dict[str, Any]]:
        if self.store.events_path.exists():
            raise InputError(f"session {self.store.folder.name} already exists", hint="continue it with `debate reply`")
        if not prompt.strip():
            raise InputError("empty prompt", hint='give an idea or a claim: autodidact debate start "..."')
        if depth is not None and depth not in gates.BUDGETS:
            raise InputError(f"unknown depth {depth!r}", hint="use quick, standard or deep")
        started = self.clock()
        txn = self._txn(prompt)
        self._plan_start(txn, prompt, depth, run_id or self.store.folder.name)
        return self._commit(txn, started)

    def reply(self, text: str) -> list[dict[str, Any]]:
        with self._locked():
            return self._reply(text)

    def _reply(self, text: str) -> list[dict[str, Any]]:
        self.load()
        self._complete_partial()
        if not text.strip():
            raise InputError("empty answer", hint="type your answer, or 暂停 / pause to stop for now")
        started = self.clock()
        txn = self._txn(text)
        self._plan_reply(txn, text)
        return self._commit(txn, started)

    def resume(self) -> list[dict[str, Any]]:
        """Finish a turn a crash cut short; returns the events it appended (may be empty)."""
        with self._locked():
            self.load()
            return self._complete_partial()

    def pause(self, reason: str = "user") -> list[dict[str, Any]]:
        with self._locked():
            return self._pause(reason)

    def _pause(self, reason: str) -> list[dict[str, Any]]:
        self.load()
        self._complete_partial()
        assert self.session is not None
        if self.session.state in {"PAUSED", "CLOSED"}:
            return []
        txn = self._txn(f"pause:{len(self.events)}")
        txn.emit("PAUSED", "moderator", "SYSTEM", {"reason": reason})
        return self._commit(txn, self.clock())

    def close(self) -> list[dict[str, Any]]:
        with self._locked():
            return self._close()

    def _close(self) -> list[dict[str, Any]]:
        self.load()
        self._complete_partial()
        assert self.session is not None
        if self.session.state == "CLOSED":
            return []
        started = self.clock()
        txn = self._txn("/close")
        txn.emit("USER_INPUT", "user", "USER", {"intent": "COMMAND", "op": "close", "text": "/close"})
        self._checkpoint(txn, "USER_CLOSED", "S4", self._obstacle(txn.s), final=True)
        return self._commit(txn, started)

    # -- crash completion ------------------------------------------------------------------
    def _complete_partial(self) -> list[dict[str, Any]]:
        if not self.events or not self.events[-1]["payload"].get("txn") or self.events[-1]["payload"].get("txn_end"):
            return []
        txn_id = self.events[-1]["payload"]["txn"]
        start = next(i for i, e in enumerate(self.events) if e["payload"].get("txn") == txn_id)
        first = self.events[start]
        before = replay(self.events[:start])
        written = self.events[start:]
        self.session = before
        self.events = self.events[:start]
        txn = self._txn(first["payload"].get("text", ""))
        op = first["payload"].get("op")
        if op == "start":
            p = first["payload"]
            self._plan_start(txn, p["text"], p.get("depth_flag"), p.get("run_id") or txn.session_id)
        elif op == "close":
            txn.emit("USER_INPUT", "user", "USER", {"intent": "COMMAND", "op": "close", "text": "/close"})
            self._checkpoint(txn, "USER_CLOSED", "S4", self._obstacle(txn.s), final=True)
        elif first["type"] == "PAUSED":
            txn.emit("PAUSED", "moderator", "SYSTEM", dict(first["payload"]))
        else:
            self._plan_reply(txn, first["payload"].get("text", ""))
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
    def _plan_start(self, txn: _Txn, prompt: str, depth: str | None, run_id: str) -> None:
        from autodidact.kb import detect_language

        lang = detect_language(prompt)
        zh = lang == "zh"
        txn.emit(
            "USER_INPUT", "user", "USER",
            {"intent": "PROMPT", "op": "start", "text": prompt, "run_id": run_id, "language": lang,
             "depth_flag": depth},
        )  # fmt: skip
        mode, cue = cues.judge_mode(prompt)
        txn.field("mode", mode)
        if zh:
            basis = f"含「{cue}」" if cue else "没有具体主张"
            what = "你给出了具体主张" if mode == "examine" else "你描述的是兴趣、观察或困惑"
            switch = "切换到探索" if mode == "examine" else "切换到推敲"
            reason = (
                f"模式：{'推敲' if mode == 'examine' else '探索'}。依据：{what}（{basis}）；一句「{switch}」即可改。"
            )
        else:
            basis = f'contains "{cue}"' if cue else "no concrete claim"
            what = "you stated a concrete claim" if mode == "examine" else "you described an interest or observation"
            switch = "switch to explore" if mode == "examine" else "switch to examine"
            reason = f"Mode: {mode}. Basis: {what} ({basis}); say '{switch}' to change it."
        txn.field("mode_reason", reason)
        upstream = self._upstream_depth()
        recommended = upstream or gates.RECOMMENDED_DEPTH
        kb_source = "[PROJECT]" if self.kb_root else "[DEFAULTED]"
        depth_source = "[USER]" if depth else ("[UPSTREAM]" if upstream else "[DEFAULTED]")
        context = {
            "prompt": prompt,
            "items": [
                {"key": "language", "value": lang, "source": "[INFERRED]"},
                {"key": "mode", "value": mode, "source": "[INFERRED]"},
                {"key": "knowledge_base", "value": bool(self.kb_root), "source": kb_source},
                {"key": "depth", "value": depth or recommended, "source": depth_source},
                {"key": "maturation", "value": "RAW", "source": "[SYSTEM_RULE]"},
                {"key": "stop_rules", "value": "S1-S6 v1", "source": "[SYSTEM_RULE]"},
                {"key": "upstream_evidence", "value": "none", "source": "[CONTEXT]"},
            ],
            "recommended_depth": recommended,
        }  # fmt: skip
        txn.field("context", context)
        txn.emit("IDEA_REVISED", "moderator", "SYSTEM", {"idea_id": "i1", "proposition": prompt, "source": "用户观察"})
        if mode == "examine":
            self._signal(txn, "INTUITION_FORMULATED", None, "the prompt states a claim")
        if depth:
            self._set_depth(txn, depth, source="USER_FLAG", reason="user_flag", user_chose=True)
            self._next_turn(txn, opening=None)
        else:
            self._config_turn(txn, retry=False)

    def _upstream_depth(self) -> str | None:
        if self.kb_root is None:
            return None
        profile = Path(self.kb_root) / ".autodidact" / "execution_profile.json"
        if profile.is_file():
            import json

            try:
                depth = json.loads(profile.read_text("utf-8")).get("depth")
            except ValueError:
                return None
            return depth if depth in gates.BUDGETS else None
        return None

    def _set_depth(self, txn: _Txn, depth: str, *, source: str, reason: str, user_chose: bool) -> None:
        execution = txn.s.execution.model_dump(mode="json")
        execution.update(
            depth=depth,
            selection_status="CONFIRMED",
            source=source,
            reason=reason,
            user_chose=user_chose,
            budget=gates.budget_for(depth).model_dump(),
        )
        txn.field("execution", execution)

    def _config_turn(self, txn: _Txn, retry: bool) -> None:
        s = txn.s
        zh = s.language == "zh"
        rec = s.context.get("recommended_depth", gates.RECOMMENDED_DEPTH)
        turn = len(s.rounds) + 1
        txn.emit(
            "SELECTION_REASON", "moderator", "SYSTEM",
            {"turn": turn, "kind": "CONFIGURATION", "role": "moderator", "question_type": "CONFIGURATION",
             "intent": "depth", "reason": "depth not confirmed; no substantive discussion before it" },
        )  # fmt: skip
        items = "；".join(f"{i['key']}={i['value']} {i['source']}" for i in s.context.get("items", []))
        if zh:
            contribution = f"已知上下文（已继承，不再询问）：{items}。{s.mode_reason}"
            names = summaries.DEPTH_NAMES["zh"]
            question = (
                f"本次讨论用哪一档深度：快速（最多 4 轮、1 批评估）、标准（8 轮、2 批）还是深度（16 轮、3 批），"
                f"推荐{names[rec]}？"
            )
            why = "档位决定轮次上限与独立评估批次；可直接回复「按推荐」或一句话覆盖，之后也能一句话改档。"
            response = "没认出档位，请从三档中选一档。" if retry else "跳过回应"
        else:
            contribution = f"Known context (inherited, not asked again): {items}. {s.mode_reason}"
            question = (
                "Which depth for this discussion: quick (up to 4 rounds, 1 review batch), standard (8 rounds, "
                f"2 batches) or deep (16 rounds, 3 batches), with {rec} recommended?"
            )
            why = "The depth sets the round limit and review batches; reply 'recommended' or override in one line."
            response = "I did not recognise a depth; please pick one of the three." if retry else "(no response)"
        txn.emit(
            "ROLE_RESPONSE", "moderator", "ROLE_SWITCH",
            {"turn": turn, "label": ROLES["moderator"].name(s.language), "response": response,
             "contribution": contribution, "source_label": source_label("judgement", s.language), "citation": None},
        )  # fmt: skip
        txn.emit("QUESTION_ASKED", "moderator", "ROLE_SWITCH", {"turn": turn, "question": question, "why": why})

    def _signal(self, txn: _Txn, signal: str, turn: int | None, note: str) -> None:
        round_no = txn.s.round_by_turn(turn).round if turn is not None else 0
        txn.emit(
            "PROGRESS_SIGNAL", "moderator", "SYSTEM",
            {"signal": signal, "turn": turn, "round": round_no, "idea_id": txn.s.idea().idea_id, "note": note},
        )  # fmt: skip

    def _obstacle(self, s: Session) -> str:
        pending = s.pending_question or {}
        turn = pending.get("turn")
        if turn is not None:
            item = s.round_by_turn(int(turn))
            return item.obstacle or item.intent or "configuration"
        answered = [r for r in s.substantive_rounds]
        return (answered[-1].obstacle or "—") if answered else "—"

    # -- replies -----------------------------------------------------------------------------
    def _plan_reply(self, txn: _Txn, text: str) -> None:
        s = txn.s
        if s.state == "CLOSED":
            raise InputError(f"session {s.session_id} is closed", hint='start a new one: autodidact debate start "..."')
        pending = s.pending_question or {}
        command = cues.parse_command(text)
        user = {"op": "reply", "text": text}
        if command is not None and command.kind == "PAUSE":
            txn.emit("USER_INPUT", "user", "USER", {**user, "intent": "COMMAND", "command": "PAUSE"})
            txn.emit("PAUSED", "moderator", "SYSTEM", {"reason": "user"})
            return
        if command is not None and command.kind in {"SUMMARY", "CLOSE"}:
            txn.emit("USER_INPUT", "user", "USER", {**user, "intent": "COMMAND", "command": command.kind})
            final = command.kind == "CLOSE"
            reason = "USER_CLOSED" if final else "CHECKPOINT_REACHED"
            self._checkpoint(txn, reason, "S4", self._obstacle(txn.s), final=final)
            return
        if command is not None and command.kind == "QUESTION" and pending:
            self._p0_answer(txn, text)
            return
        if command is not None and command.kind == "DEPTH" and pending.get("intent") != "depth":
            txn.emit("USER_INPUT", "user", "USER", {**user, "intent": "COMMAND", "command": "DEPTH"})
            self._set_depth(
                txn, str(command.value), source="USER_OVERRIDE", reason="user_changed_depth", user_chose=True
            )
            if pending:
                self._p0_note(txn, self._depth_note(txn.s, str(command.value), delegated=False) + self._repeat(txn.s))
            else:
                self._next_turn(txn, opening=self._depth_note(txn.s, str(command.value), delegated=False))
            return
        if pending.get("intent") == "depth":
            self._answer_depth(txn, text, pending)
            return
        if pending.get("intent") == "gap_confirmation":
            self._answer_gap(txn, text, pending)
            return
        if not pending:
            if s.state == "CHECKPOINT" and s.stop_reason == "BUDGET_EXHAUSTED":
                raise InputError(
                    "the budget of this depth is used up",
                    hint="say 改成深度 / 'switch to deep' to raise the limit, or close the session",
                )
            txn.emit("USER_INPUT", "user", "USER", {**user, "intent": "CONTINUE"})
            self._next_turn(txn, opening=None)
            return
        self._answer_round(txn, text, pending, command)

    def _repeat(self, s: Session) -> str:
        pending = s.pending_question or {}
        return (" 当前问题不变：" if s.language == "zh" else " The open question stays: ") + str(
            pending.get("question")
        )

    def _p0_note(self, txn: _Txn, text: str) -> None:
        s = txn.s
        txn.emit(
            "ROLE_RESPONSE", "moderator", "ROLE_SWITCH",
            {"turn": None, "label": ROLES["moderator"].name(s.language), "response": text, "trigger": "P0"},
        )  # fmt: skip

    def _p0_answer(self, txn: _Txn, text: str) -> None:
        txn.emit("USER_INPUT", "user", "USER", {"op": "reply", "text": text, "intent": "QUESTION"})
        s = txn.s
        pending = s.pending_question or {}
        why = s.round_by_turn(int(pending["turn"])).why if pending.get("turn") is not None else ""
        if s.language == "zh":
            note = f"我不判断命题对不对，经验命题的真伪只能由证据与检验决定。这个问题的用意：{why}"
        else:
            note = (
                "I do not judge whether the proposition is true; only evidence and tests can. "
                f"This question is asked because: {why}"
            )
        self._p0_note(txn, note + self._repeat(s))

    def _depth_note(self, s: Session, depth: str, delegated: bool) -> str:
        if s.language == "zh":
            name = summaries.DEPTH_NAMES["zh"][depth]
            if delegated:
                return f"好，按{name}档进行。这是按推荐取的，你可随时一句话改成其他档。"
            return f"好，按{name}档进行（最多 {gates.BUDGETS[depth].max_rounds} 轮实质讨论）。"
        if delegated:
            return f"OK, going with {depth}. That is the recommendation, taken for you; change it any time in one line."
        return f"OK, going with {depth} (up to {gates.BUDGETS[depth].max_rounds} substantive rounds)."

    def _answer_depth(self, txn: _Txn, text: str, pending: dict[str, Any]) -> None:
        txn.emit(
            "USER_INPUT", "user", "USER", {"op": "reply", "text": text, "intent": "DEPTH", "turn": pending["turn"]}
        )
        depth, how = cues.parse_depth(text)
        rec = txn.s.context.get("recommended_depth", gates.RECOMMENDED_DEPTH)
        if how == "unknown":
            self._config_turn(txn, retry=True)
            return
        if how == "delegated":
            self._set_depth(
                txn, rec, source="INTERACTIVE_CONFIRMED", reason="user_delegated_choice_documented", user_chose=False
            )
        elif how == "recommended":
            self._set_depth(
                txn, rec, source="INTERACTIVE_CONFIRMED", reason="user_accepted_recommendation", user_chose=True
            )
        else:
            self._set_depth(txn, str(depth), source="INTERACTIVE_CONFIRMED", reason="user_chose", user_chose=True)
        self._next_turn(
            txn, opening=self._depth_note(txn.s, txn.s.execution.depth or rec, delegated=how == "delegated")
        )

    def _answer_round(self, txn: _Txn, text: str, pending: dict[str, Any], command: cues.Command | None) -> None:
        turn = int(pending["turn"])
        as_command = command.kind if command is not None else None
        txn.emit(
            "USER_INPUT", "user", "USER",
            {"op": "reply", "text": text, "intent": "ANSWER", "turn": turn, "command": as_command},
        )  # fmt: skip
        s = txn.s
        item = s.round_by_turn(turn)
        previous = [r.user_answer for r in s.rounds if r.user_answer and r.turn != turn]
        read = read_signals(
            self.runtime,
            SignalInputs(
                question_type=item.question_type, question=item.question or "", answer=text, previous_answers=previous
            ),
        )
        signals = [] if as_command in {"REVIEW", "GAP", "MODE"} else read.signals
        for signal in signals:
            self._signal(txn, signal, turn, f"cue in answer to {item.question_type}")
        self._revise_idea(txn, item.role, item.question_type, signals, text)
        self._climb(txn)
        s = txn.s
        if not signals and as_command is None:
            stuck = gates.repeated_without_signal(s, item.role, item.obstacle or "")
            if stuck >= 2 and not any(q.get("obstacle") == item.obstacle for q in s.stopped_questions):
                txn.emit(
                    "STOPPED_QUESTION", "moderator", "SYSTEM",
                    {"rule": "S2", "obstacle": item.obstacle, "role": item.role, "question": item.question,
                     "turn": turn},
                )  # fmt: skip
        gap_premise = None
        if (
            item.question_type == "PREMISE_EVIDENCE"
            and read.dont_know
            and as_command is None
            and item.intent == "example"
        ):
            txn.emit(
                "STOPPED_QUESTION", "moderator", "SYSTEM",
                {"rule": "S3", "obstacle": item.obstacle, "role": item.role, "question": item.question, "turn": turn},
            )  # fmt: skip
            gap_premise = s.idea().current.proposition if self.kb_root else None
        elif "PREMISE_SURFACED" in signals and self.kb_root and cues.has_any(text, UNCERTAIN):
            gap_premise = text
        if as_command == "GAP":
            gap_premise = (s.idea().current.assumptions or [s.idea().current.proposition])[-1]
        stop = gates.stop_after_answer(txn.s, item.obstacle or "—")
        if stop is not None:
            self._checkpoint(txn, stop.reason, stop.rule, stop.obstacle, final=False)
            return
        if as_command == "MODE" and command is not None:
            self._switch_mode(txn, str(command.value))
            return
        if gap_premise is not None and not any(g["approval"]["status"] == "PENDING" for g in txn.s.gap_requests):
            gap = gaps.propose(txn.s, premise=gap_premise, lang=txn.s.language)
            txn.emit("GAP_PROPOSED", "moderator", "SYSTEM", {"gap": gap})
            self._gap_turn(txn, gap, changed=False)
            return
        self._next_turn(txn, opening=None, review_requested=as_command == "REVIEW", wish=cues.wished_role(text))

    def _revise_idea(self, txn: _Txn, role: str, qtype: str, signals: list[str], text: str) -> None:
        if not signals:
            return
        idea = txn.s.idea()
        quote = excerpt(text, 60)
        zh = txn.s.language == "zh"
        payload: dict[str, Any] = {"idea_id": idea.idea_id, "source": "用户观察", "turn_role": role}
        if "QUESTION_SHARPENED" in signals and qtype == "CLARIFICATION":
            base = idea.versions[0].proposition
            payload["proposition"] = f"{base}（口径：{quote}）" if zh else f"{base} (reading: {quote})"
        if "PREMISE_SURFACED" in signals:
            payload["add_assumptions"] = [quote]
        if "DISCRIMINATION_ADDED" in signals and qtype in {"IMPLICATION"}:
            payload["add_predictions"] = [quote]
        if "ALTERNATIVE_ADDED" in signals:
            payload["add_alternatives"] = [quote]
        if "DISPOSITION_DECIDED" in signals:
            low = text.lower()
            disposition = "KEEP"
            for words, value in ((("修改", "revise"), "REVISE"), (("搁置", "暂缓", "set aside", "park"), "SET_ASIDE"),
                                 (("放弃", "drop"), "DROPPED"), (("未决", "undecided"), "UNDECIDED")):  # fmt: skip
                if any(w in low for w in words):
                    disposition = value
                    break
            payload["disposition"] = disposition
        if "DECISION_RECORDED" in signals:
            txn.field("decisions", [*txn.s.decisions, {"text": text, "source": "用户观察"}])
        if len(payload) > 3:
            txn.emit("IDEA_REVISED", "moderator", "SYSTEM", payload)

    def _climb(self, txn: _Txn) -> None:
        while True:
            idea = txn.s.idea()
            step = gates.next_maturity(txn.s, idea)
            if step is None:
                return
            txn.emit("IDEA_REVISED", "moderator", "SYSTEM", {"idea_id": idea.idea_id, "maturation": step})

    def _switch_mode(self, txn: _Txn, mode: str) -> None:
        zh = txn.s.language == "zh"
        txn.field("mode", mode)
        name = {"explore": "探索", "examine": "推敲"}[mode] if zh else mode
        txn.field(
            "mode_reason", f"模式：{name}。依据：用户一句切换。" if zh else f"Mode: {mode}. Basis: the person switched."
        )
        self._checkpoint(txn, "USER_SWITCHED_MODE", "S4", f"mode → {mode}", final=False)
        opening = (
            f"已切换到{name}模式，前一阶段已记入小结。"
            if zh
            else f"Switched to {mode}; the previous stage is summarised."
        )
        self._next_turn(txn, opening=opening)

    def _checkpoint(self, txn: _Txn, reason: str, rule: str, obstacle: str, *, final: bool) -> None:
        summary = summaries.stage_summary(txn.s, stop_reason=reason, rule=rule, obstacle=obstacle)
        txn.emit(
            "CHECKPOINT", "moderator", "SYSTEM",
            {"stop_reason": reason, "rule": rule, "obstacle": obstacle, "state": "CLOSED" if final else "CHECKPOINT",
             "summary": summary},
        )  # fmt: skip

    # -- next turn -------------------------------------------------------------------------
    def _next_turn(
        self,
        txn: _Txn,
        *,
        opening: str | None,
        review_requested: bool = False,
        wish: str | None = None,
        evidence_note: str | None = None,
        citation: str | None = None,
    ) -> None:
        s = txn.s
        stop = gates.budget_stop(s)
        if stop is not None:
            self._checkpoint(txn, stop.reason, stop.rule, stop.obstacle, final=False)
            return
        choice = moderator.choose(s, wish=wish, review_requested=review_requested)
        review_text, label_kind, roles = None, LABEL_SWITCH, [choice.role]
        if choice.kind == "REVIEW":
            review_text, independent = self._review_batch(txn)
            label_kind = LABEL_INDEPENDENT if independent else LABEL_SELF_CHECK
            roles = ["premise_evidence_examiner", "implication_validator"]
            s = txn.s
        idea = s.idea()
        answered = [r for r in s.substantive_rounds if r.user_answer is not None]
        last = answered[-1] if answered else None
        last_is_fresh = last is not None and s.latest_user_input == last.user_answer
        inputs = TurnInputs(
            role=choice.role,
            question_type=choice.question_type,
            intent=choice.intent,
            trigger=choice.trigger,
            lang=s.language,
            mode=s.mode,
            proposition=idea.current.proposition,
            term=key_term(idea.versions[0].proposition, s.language),
            last_answer=last.user_answer if last_is_fresh and last else None,
            answer_signals=list(last.signals) if last_is_fresh and last else [],
            dont_know=bool(last_is_fresh and last and cues.is_dont_know(last.user_answer or "")),
            assumptions=list(idea.current.assumptions),
            predictions=list(idea.current.predictions),
            alternatives=list(idea.current.alternatives),
            maturation=idea.maturation,
            variant=sum(1 for r in s.rounds if r.role == choice.role),
            review_text=review_text,
            evidence_note=evidence_note,
            opening=opening,
        )
        out, meta = write_turn(self.runtime, inputs)
        turn = len(s.rounds) + 1
        txn.emit(
            "SELECTION_REASON", "moderator", "SYSTEM",
            {"turn": turn, "kind": choice.kind, "role": choice.role, "question_type": choice.question_type,
             "trigger": choice.trigger, "intent": choice.intent, "reason": choice.reason, "obstacle": choice.obstacle,
             "idea_id": idea.idea_id, "deferred": choice.deferred},
        )  # fmt: skip
        kind = "ROLE_SWITCH" if label_kind == LABEL_SWITCH else (
            "INDEPENDENT_AGENT" if label_kind == LABEL_INDEPENDENT else "SELF_CHECK"
        )  # fmt: skip
        txn.emit(
            "ROLE_RESPONSE", choice.role, kind,
            {"turn": turn, "label": label(roles, label_kind, s.language), "response": out.response,
             "contribution": out.contribution, "source_label": source_label(out.source, s.language),
             "citation": citation, **meta},
        )  # fmt: skip
        txn.emit("QUESTION_ASKED", choice.role, kind, {"turn": turn, "question": out.question, "why": out.why})

    def _review_batch(self, txn: _Txn) -> tuple[str, bool]:
        s = txn.s
        batch = len(s.reviews) + 1
        perspectives = ["premise_evidence_examiner", "implication_validator"]
        results: list[tuple[str, review.ReviewOutput]] = []
        degraded = False
        for index, perspective in enumerate(perspectives, start=1):
            data = review.review_input(s, perspective)
            review_id = f"b{batch}r{index}"
            visible = {k: getattr(data, k) for k in review.WHITELIST}
            txn.emit(
                "REVIEW_REQUESTED", "moderator", "SYSTEM",
                {"batch": batch, "review_id": review_id, "perspective": perspective, "input": visible},
            )  # fmt: skip
            out, status, kind = review.run_review(self.runtime, data)
            txn.emit(
                "REVIEW_RETURNED", f"reviewer-{index}", kind,
                {"batch": batch, "review_id": review_id, "status": status, "output": out.model_dump()},
            )  # fmt: skip
            if status != "OK":
                degraded = True
            results.append((perspective, out))
        zh = s.language == "zh"
        if degraded:
            txn.emit(
                "DEGRADED_REVIEW", "moderator", "SELF_CHECK",
                {"batch": batch, "status": "UNAVAILABLE" if self.runtime is None else "FAILED",
                 "label": "视角自检（非独立评估）" if zh else "perspective self-check (not an independent review)",
                 "reason": "no model available" if self.runtime is None else "review call failed twice"},
            )  # fmt: skip
        divergence, reasons = review.assess([o for _, o in results], degraded)
        txn.emit(
            "DISAGREEMENT_ASSESSED", "moderator", "SYSTEM",
            {"batch": batch, "divergence": divergence, "reasons": reasons, "degraded": degraded},
        )  # fmt: skip
        names = {r: ROLES[r].name(s.language) for r in perspectives}
        return review.describe(results, divergence, s.language, names), not degraded

    # -- gaps --------------------------------------------------------------------------------
    def _gap_turn(self, txn: _Txn, gap: dict[str, Any], *, changed: bool) -> None:
        s = txn.s
        zh = s.language == "zh"
        turn = len(s.rounds) + 1
        txn.emit(
            "SELECTION_REASON", "moderator", "SYSTEM",
            {"turn": turn, "kind": "CONFIGURATION", "role": "moderator", "question_type": "CONFIGURATION",
             "intent": "gap_confirmation", "reason": "evidence gap: confirm the scope before any research",
             "obstacle": gap["gap_id"]},
        )  # fmt: skip
        if zh:
            contribution = (
                f"查证缺口 {gap['gap_id']}：争议——{gap['reason']}；准备查——{gap['question']}；"
                f"范围——{gap['scope']}；预算——{gap['budget']}；结果会改变——{gap['decision_impact']}。"
            )
            question = "按这个范围查证吗（回复 确认、不用，或 范围改成 …）？"
            why = "确认之前不会调用任何检索；范围一改，之前的确认就失效。"
            response = "范围已更新，需要重新确认。" if changed else "跳过回应"
        else:
            contribution = (
                f"Evidence gap {gap['gap_id']}: at issue — {gap['reason']}; to check — {gap['question']}; "
                f"scope — {gap['scope']}; budget — {gap['budget']}; the result would change — {gap['decision_impact']}."
            )
            question = "Shall I check within this scope (reply yes, no, or 'scope: ...')?"
            why = "Nothing is searched before you confirm; changing the scope voids an earlier confirmation."
            response = "The scope changed, so it needs confirming again." if changed else "(no response)"
        txn.emit(
            "ROLE_RESPONSE", "moderator", "ROLE_SWITCH",
            {"turn": turn, "label": ROLES["moderator"].name(s.language), "response": response,
             "contribution": contribution, "source_label": source_label("suggestion", s.language), "citation": None},
        )  # fmt: skip
        txn.emit("QUESTION_ASKED", "moderator", "ROLE_SWITCH", {"turn": turn, "question": question, "why": why})

    def _answer_gap(self, txn: _Txn, text: str, pending: dict[str, Any]) -> None:
        txn.emit(
            "USER_INPUT",
            "user",
            "USER",
            {"op": "reply", "text": text, "intent": "GAP_DECISION", "turn": pending["turn"]},
        )
        gap_id = txn.s.round_by_turn(int(pending["turn"])).obstacle or ""
        gap = txn.s.gap(gap_id)
        decision, scope = cues.parse_gap_decision(text)
        zh = txn.s.language == "zh"
        if decision == "CHANGE" and scope:
            changed = gaps.with_scope(gap, scope)
            txn.emit("GAP_PROPOSED", "moderator", "SYSTEM", {"gap": changed})
            self._gap_turn(txn, txn.s.gap(gap_id), changed=True)
            return
        if decision == "REJECT":
            txn.emit("GAP_REJECTED", "user", "USER", {"gap_id": gap_id, "reason": text})
            note = (
                "不查证：该问题留在未决问题里，讨论继续不依赖它的分支。"
                if zh
                else "Not checked: it stays an open question."
            )
            self._next_turn(txn, opening=note)
            return
        if decision != "CONFIRM":
            self._gap_turn(txn, gap, changed=False)
            return
        txn.emit("GAP_CONFIRMED", "user", "USER", {"gap_id": gap_id, "scope_fingerprint": gaps.gap_fingerprint(gap)})
        self._signal(txn, "GAP_CONFIRMED", None, gap_id)
        gap = txn.s.gap(gap_id)
        out_dir = self.store.folder / "gaps" / gap_id
        result = gaps.dispatch(
            gap,
            lang=txn.s.language,
            runtime=self.runtime,
            settings=self.settings,
            kb_root=self.kb_root,
            out_dir=out_dir,
        )
        links = gaps.links_from_evidence(result["evidence"], txn.s.idea().current.proposition)
        statement = gaps.impact(links, txn.s.language)
        if result["status"] != "DONE":
            status, note = result["status"], result["note"]
            prefix = f"查证未执行（{status}：{note}）。" if zh else f"The check did not run ({status}: {note})."
            statement = f"{prefix} {statement}"
        refs = [f"gaps/{gap_id}/evidence.json"] if result["path"] else []
        txn.emit(
            "EVIDENCE_IMPORTED", "research_agent", "INDEPENDENT_AGENT",
            {"gap_id": gap_id, "links": links, "impact": statement, "execution_status": result["status"],
             "result_refs": refs, "scope_fingerprint": gaps.gap_fingerprint(gap)},
        )  # fmt: skip
        if links:
            self._signal(txn, "EVIDENCE_IMPORTED", None, gap_id)
        if any(link["alignment"] == "VERIFIED" for link in links):
            self._signal(txn, "PREMISE_VERIFIED", None, gap_id)
        cited = sorted({str(link.get("location")) for link in links if link.get("location")})
        self._next_turn(txn, opening=None, evidence_note=statement, citation="; ".join([*refs, *cited]) or None)
