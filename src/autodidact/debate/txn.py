"""One turn's events, planned against a scratch copy of the session before anything is written.

Why: a turn is only durable as a whole. Planning every event first (each applied to a scratch copy so
later decisions see earlier ones) lets the engine write the turn line by line and, after a crash,
re-plan the same turn deterministically and append only what is missing.
"""

from __future__ import annotations

from collections.abc import Mapping

from autodidact.debate.events import EventLine, make_event
from autodidact.debate.projection import apply
from autodidact.debate.session import Session
from autodidact.store.hashing import hash_json


class Txn:
    """Events of one turn, planned against a scratch copy of the session."""

    def __init__(self, session: Session | None, session_id: str, start_seq: int, key: str) -> None:
        self.scratch = session.model_copy(deep=True) if session is not None else None
        self.session_id = session_id
        self.next_seq = start_seq
        self.txn_id = hash_json([session_id, start_seq, key])[:10]
        self.events: list[EventLine] = []

    @property
    def s(self) -> Session:
        assert self.scratch is not None
        return self.scratch

    def emit(self, type_: str, actor: str, kind: str, payload: Mapping[str, object]) -> EventLine:
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

    def field(self, name: str, value: object) -> None:
        self.emit("SELECTION_REASON", "moderator", "SYSTEM", {"field": name, "value": value})
