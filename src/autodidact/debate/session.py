"""The session model (CONTRACTS §4.1) and the replay projection that builds it from events.

Why a projection: ``events.jsonl`` is the truth and ``session.json`` only a snapshot of it. Every
state change the engine makes goes through :func:`apply` (the engine appends an event, then
applies it), so the state written to disk always equals a replay of the log, and a crash can never
leave a state the log cannot explain. A payload ``{"field": F, "value": V}`` replaces session field
F; only whitelisted fields may be replaced, identity fields never.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from autodidact.errors import IntegrityError

SESSION_SCHEMA_VERSION: Literal["0.1"] = "0.1"

State = Literal[
    "CONTEXT_RESOLUTION",
    "WAITING_DEPTH",
    "DISCUSSING",
    "WAITING_USER",
    "INDEPENDENT_REVIEW",
    "WAITING_GAP_CONFIRMATION",
    "WAITING_EVIDENCE",
    "CHECKPOINT",
    "PAUSED",
    "CLOSED",
]
StopReason = Literal[
    "USER_CLOSED", "CHECKPOINT_REACHED", "NO_PROGRESS", "BUDGET_EXHAUSTED", "PAUSED", "USER_SWITCHED_MODE"
]
Maturation = Literal["RAW", "DEVELOPING", "TESTABLE"]
MATURITY_ORDER: tuple[str, ...] = ("RAW", "DEVELOPING", "TESTABLE")

IDENTITY_FIELDS = frozenset({"schema_version", "session_id", "run_id", "parent_session_id"})
REPLACEABLE_FIELDS = frozenset(
    {
        "mode",
        "mode_reason",
        "state",
        "stop_reason",
        "execution",
        "pending_question",
        "summary",
        "decisions",
        "open_questions",
        "context",
        "language",
    }
)


class ProjectionError(IntegrityError):
    """An event the projection cannot apply (unknown field, identity change, dangling reference)."""


class Budget(BaseModel):
    """Hard limits of one depth; no token or cost key on purpose (seed 002)."""

    model_config = ConfigDict(extra="forbid")
    max_rounds: int
    max_review_batches: int
    max_subtasks_per_batch: int
    max_active_seconds: int
    max_events: int


class Usage(BaseModel):
    """What the session has used, derived from events only."""

    rounds: int = 0
    review_batches: int = 0
    events: int = 0
    active_seconds: float = 0.0


class Execution(BaseModel):
    """Depth, how it was chosen, its budget and usage."""

    depth: Literal["quick", "standard", "deep"] | None = None
    selection_status: str = "UNSET"
    source: str | None = None
    reason: str | None = None
    user_chose: bool | None = None
    budget: Budget | None = None
    usage: Usage = Field(default_factory=Usage)


class IdeaVersion(BaseModel):
    """One wording of an idea and what is attached to it."""

    version: int
    proposition: str
    epistemic_status: str = "UNTESTED"
    disposition: str = "OPEN"
    assumptions: list[str] = Field(default_factory=list)
    predictions: list[str] = Field(default_factory=list)
    alternatives: list[str] = Field(default_factory=list)
    evidence_links: list[dict[str, Any]] = Field(default_factory=list)
    source: str = "用户观察"


class Idea(BaseModel):
    """An idea under discussion; maturation is independent of evidence and disposition."""

    idea_id: str
    maturation: Maturation = "RAW"
    maturity_history: list[str] = Field(default_factory=lambda: ["RAW"])
    versions: list[IdeaVersion] = Field(default_factory=list)

    @property
    def current(self) -> IdeaVersion:
        return self.versions[-1]


class Round(BaseModel):
    """One question asked (substantive, review or configuration) and the person's answer."""

    turn: int
    round: int | None = None
    kind: Literal["SUBSTANTIVE", "REVIEW", "CONFIGURATION"] = "SUBSTANTIVE"
    role: str
    question_type: str
    trigger: str | None = None
    intent: str | None = None
    reason: str | None = None
    obstacle: str | None = None
    idea_id: str | None = None
    label: str | None = None
    response: str | None = None
    contribution: str | None = None
    source_label: str | None = None
    citation: str | None = None
    question: str | None = None
    why: str | None = None
    user_answer: str | None = None
    answer_event_id: str | None = None
    answer_command: str | None = None
    unanswered_reason: str | None = None
    signals: list[str] = Field(default_factory=list)


class Session(BaseModel):
    """The projection of one session's events (the content of ``session.json`` minus ``revision``)."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal["0.1"] = SESSION_SCHEMA_VERSION
    session_id: str
    run_id: str
    parent_session_id: str | None = None
    language: Literal["zh", "en"] = "en"
    mode: Literal["explore", "examine"] = "explore"
    mode_reason: str | None = None
    state: State = "CONTEXT_RESOLUTION"
    stop_reason: StopReason | None = None
    context: dict[str, Any] = Field(default_factory=dict)
    execution: Execution = Field(default_factory=Execution)
    ideas: list[Idea] = Field(default_factory=list)
    decisions: list[dict[str, Any]] = Field(default_factory=list)
    pending_question: dict[str, Any] | None = None
    progress_signals: list[dict[str, Any]] = Field(default_factory=list)
    stopped_questions: list[dict[str, Any]] = Field(default_factory=list)
    open_questions: list[str] = Field(default_factory=list)
    gap_requests: list[dict[str, Any]] = Field(default_factory=list)
    reviews: list[dict[str, Any]] = Field(default_factory=list)
    rounds: list[Round] = Field(default_factory=list)
    notes: list[dict[str, Any]] = Field(default_factory=list)
    checkpoints: list[dict[str, Any]] = Field(default_factory=list)
    latest_user_input: str | None = None
    summary: dict[str, Any] = Field(default_factory=dict)
    last_applied_event_id: str | None = None

    # -- lookups ---------------------------------------------------------------------------
    def idea(self, idea_id: str | None = None) -> Idea:
        if not self.ideas:
            raise ProjectionError(f"session {self.session_id} has no idea yet")
        if idea_id is None:
            return self.ideas[-1]
        for idea in self.ideas:
            if idea.idea_id == idea_id:
                return idea
        raise ProjectionError(f"unknown idea_id {idea_id!r}")

    def round_by_turn(self, turn: int) -> Round:
        for item in reversed(self.rounds):
            if item.turn == turn:
                return item
        raise ProjectionError(f"event refers to turn {turn} which was never asked")

    def gap(self, gap_id: str) -> dict[str, Any]:
        for gap in self.gap_requests:
            if gap.get("gap_id") == gap_id:
                return gap
        raise ProjectionError(f"unknown gap_id {gap_id!r}")

    @property
    def substantive_rounds(self) -> list[Round]:
        return [r for r in self.rounds if r.kind != "CONFIGURATION"]

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


def _replace_field(session: Session, payload: dict[str, Any]) -> None:
    field = payload.get("field")
    if field in IDENTITY_FIELDS:
        raise ProjectionError(f"event tries to replace identity field {field!r}", hint="identity never changes")
    if field not in REPLACEABLE_FIELDS:
        raise ProjectionError(f"event tries to replace field {field!r}, which is not replaceable")
    data = session.model_dump(mode="json")
    data[field] = payload.get("value")
    try:
        replaced = Session.model_validate(data)
    except ValueError as exc:
        raise ProjectionError(f"invalid value for field {field!r}: {str(exc).splitlines()[0]}") from None
    setattr(session, field, getattr(replaced, field))


def _new_version(idea: Idea, payload: dict[str, Any]) -> None:
    base = idea.versions[-1].model_dump() if idea.versions else {"proposition": payload.get("proposition", "")}
    base["version"] = len(idea.versions) + 1
    for key in ("proposition", "epistemic_status", "disposition", "source"):
        if payload.get(key) is not None:
            base[key] = payload[key]
    for key in ("assumptions", "predictions", "alternatives"):
        for item in payload.get(f"add_{key}", []) or []:
            if item not in base.setdefault(key, []):
                base[key].append(item)
    idea.versions.append(IdeaVersion.model_validate(base))


def _apply_idea(session: Session, payload: dict[str, Any]) -> None:
    idea_id = payload.get("idea_id") or "i1"
    existing = [i for i in session.ideas if i.idea_id == idea_id]
    idea = existing[0] if existing else None
    if idea is None:
        idea = Idea(idea_id=idea_id)
        session.ideas.append(idea)
    if any(k in payload for k in ("proposition", "disposition", "epistemic_status")) or any(
        payload.get(f"add_{k}") for k in ("assumptions", "predictions", "alternatives")
    ):
        _new_version(idea, payload)
    level = payload.get("maturation")
    if level is not None:
        if level not in MATURITY_ORDER:
            raise ProjectionError(f"unknown maturation {level!r}")
        idea.maturation = level
        idea.maturity_history.append(level)


def _apply_gap(session: Session, event: dict[str, Any]) -> None:
    kind, payload = event["type"], event["payload"]
    if kind == "GAP_PROPOSED":
        gap = copy.deepcopy(payload.get("gap") or {})
        if not gap.get("gap_id"):
            raise ProjectionError("GAP_PROPOSED without gap.gap_id")
        known = [g for g in session.gap_requests if g["gap_id"] == gap["gap_id"]]
        if not known:
            gap.setdefault("approval", {"status": "PENDING", "scope_fingerprint": None, "confirmed_event_id": None})
            gap.setdefault("execution_status", "NOT_STARTED")
            gap.setdefault("result_refs", [])
            session.gap_requests.append(gap)
        else:
            old = known[0]
            approval = old["approval"]
            if approval.get("status") == "CONFIRMED" and approval.get("scope_fingerprint") != gap.get("fingerprint"):
                approval["status"] = "INVALIDATED"
            elif approval.get("status") == "INVALIDATED":
                pass
            old.update({k: v for k, v in gap.items() if k not in {"approval", "execution_status", "result_refs"}})
        if payload.get("await_confirmation", True):
            session.state = "WAITING_GAP_CONFIRMATION"
        return
    gap = session.gap(payload.get("gap_id", ""))
    approval = gap["approval"]
    if kind == "GAP_CONFIRMED":
        approval.update(
            status="CONFIRMED",
            scope_fingerprint=payload.get("scope_fingerprint"),
            confirmed_event_id=event["event_id"],
            confirmed_by=event["execution_kind"],
        )
        session.state = "WAITING_EVIDENCE"
    elif kind == "GAP_REJECTED":
        approval.update(status="REJECTED", rejected_event_id=event["event_id"])
        if gap.get("question") and gap["question"] not in session.open_questions:
            session.open_questions.append(gap["question"])
        session.state = "DISCUSSING"
    elif kind == "EVIDENCE_IMPORTED":
        gap["execution_status"] = payload.get("execution_status", "DONE")
        gap["result_refs"] = list(payload.get("result_refs", []))
        gap["impact"] = payload.get("impact")
        gap["executed_fingerprint"] = payload.get("scope_fingerprint")
        links = payload.get("links", []) or []
        if links:
            idea = session.idea(gap.get("idea_id"))
            version = idea.current.model_copy(deep=True)
            version.version = len(idea.versions) + 1
            version.evidence_links = [*version.evidence_links, *copy.deepcopy(links)]
            idea.versions.append(version)
        session.state = "DISCUSSING"


def _apply_review(session: Session, event: dict[str, Any]) -> None:
    kind, payload = event["type"], event["payload"]
    batch = int(payload.get("batch", 0))
    record = next((r for r in session.reviews if r.get("batch") == batch), None)
    if record is None:
        record = {"batch": batch, "requests": [], "results": [], "degraded": None, "assessment": None}
        session.reviews.append(record)
        session.execution.usage.review_batches = len(session.reviews)
    if kind == "REVIEW_REQUESTED":
        record["requests"].append(
            {
                "review_id": payload.get("review_id"),
                "perspective": payload.get("perspective"),
                "input": payload.get("input"),
            }
        )
        session.state = "INDEPENDENT_REVIEW"
    elif kind == "REVIEW_RETURNED":
        record["results"].append(
            {
                "review_id": payload.get("review_id"),
                "status": payload.get("status", "OK"),
                "output": payload.get("output"),
                "execution_kind": event["execution_kind"],
            }
        )
    elif kind == "DEGRADED_REVIEW":
        record["degraded"] = {
            "status": payload.get("status"),
            "label": payload.get("label"),
            "reason": payload.get("reason"),
        }
    elif kind == "DISAGREEMENT_ASSESSED":
        record["assessment"] = {k: payload.get(k) for k in ("divergence", "reasons", "degraded")}


def _apply_turn(session: Session, event: dict[str, Any]) -> None:
    kind, payload = event["type"], event["payload"]
    if kind == "SELECTION_REASON":
        turn = int(payload["turn"])
        if any(r.turn == turn for r in session.rounds):
            raise ProjectionError(f"turn {turn} selected twice")
        round_kind = payload.get("kind", "SUBSTANTIVE")
        number = None
        if round_kind != "CONFIGURATION":
            number = len(session.substantive_rounds) + 1
        session.rounds.append(
            Round(
                turn=turn,
                round=number,
                kind=round_kind,
                role=payload["role"],
                question_type=payload["question_type"],
                trigger=payload.get("trigger"),
                intent=payload.get("intent"),
                reason=payload.get("reason"),
                obstacle=payload.get("obstacle"),
                idea_id=payload.get("idea_id"),
            )
        )
        session.execution.usage.rounds = len([r for r in session.rounds if r.kind == "SUBSTANTIVE"])
        session.state = "DISCUSSING"
        for item in payload.get("deferred", []) or []:
            session.notes.append({"kind": "DEFERRED_OBSTACLE", "turn": turn, "text": item})
    elif kind == "ROLE_RESPONSE":
        if payload.get("turn") is None:
            session.notes.append(
                {"kind": "MODERATOR_REPLY", "text": payload.get("response"), "label": payload.get("label")}
            )
            return
        item = session.round_by_turn(int(payload["turn"]))
        for key in ("label", "response", "contribution", "source_label", "citation"):
            setattr(item, key, payload.get(key))
    elif kind == "QUESTION_ASKED":
        item = session.round_by_turn(int(payload["turn"]))
        item.question = payload["question"]
        item.why = payload.get("why")
        session.pending_question = {
            "turn": item.turn,
            "round": item.round,
            "kind": item.kind,
            "role": item.role,
            "question_type": item.question_type,
            "intent": item.intent,
            "question": item.question,
        }
        if item.intent == "depth":
            session.state = "WAITING_DEPTH"
        elif item.intent == "gap_confirmation":
            session.state = "WAITING_GAP_CONFIRMATION"
        else:
            session.state = "WAITING_USER"


def _apply_user(session: Session, event: dict[str, Any]) -> None:
    payload = event["payload"]
    session.latest_user_input = payload.get("text")
    turn = payload.get("turn")
    if turn is not None and payload.get("intent") in {"ANSWER", "DEPTH", "GAP_DECISION"}:
        item = session.round_by_turn(int(turn))
        if item.user_answer is not None:
            raise ProjectionError(f"turn {turn} answered twice")
        item.user_answer = payload.get("text")
        item.answer_event_id = event["event_id"]
        item.answer_command = payload.get("command")
        session.pending_question = None
        if session.state in {"WAITING_USER", "WAITING_DEPTH", "WAITING_GAP_CONFIRMATION", "PAUSED", "CHECKPOINT"}:
            session.state = "DISCUSSING"
    elif payload.get("intent") in {"COMMAND", "QUESTION"}:
        session.notes.append({"kind": payload.get("intent"), "text": payload.get("text")})


def _start(event: dict[str, Any]) -> Session:
    payload = event["payload"]
    if event["type"] != "USER_INPUT" or payload.get("intent") != "PROMPT":
        raise ProjectionError("the first event of a session must be the USER_INPUT prompt")
    return Session(
        session_id=event["session_id"],
        run_id=payload.get("run_id") or event["session_id"],
        parent_session_id=payload.get("parent_session_id"),
        language=payload.get("language", "en"),
        context={"prompt": payload.get("text", "")},
        latest_user_input=payload.get("text"),
    )


def apply(session: Session | None, event: dict[str, Any]) -> Session:
    """Apply one event (a validated event dict) to ``session`` in place and return it."""
    if session is None:
        session = _start(event)
    elif event["session_id"] != session.session_id:
        raise ProjectionError(f"event {event['event_id']} belongs to session {event['session_id']!r}")
    else:
        kind, payload = event["type"], event["payload"]
        try:
            if "field" in payload:
                _replace_field(session, payload)
            elif kind == "USER_INPUT":
                _apply_user(session, event)
            elif kind in {"SELECTION_REASON", "ROLE_RESPONSE", "QUESTION_ASKED"}:
                _apply_turn(session, event)
            elif kind == "PROGRESS_SIGNAL":
                entry = {k: payload.get(k) for k in ("signal", "round", "turn", "idea_id", "note")}
                session.progress_signals.append(entry)
                if payload.get("turn") is not None:
                    session.round_by_turn(int(payload["turn"])).signals.append(str(payload.get("signal")))
            elif kind == "IDEA_REVISED":
                _apply_idea(session, payload)
            elif kind.startswith(("REVIEW_", "DEGRADED_", "DISAGREEMENT_")):
                _apply_review(session, event)
            elif kind.startswith("GAP_") or kind == "EVIDENCE_IMPORTED":
                _apply_gap(session, event)
            elif kind == "STOPPED_QUESTION":
                session.stopped_questions.append(copy.deepcopy(payload))
            elif kind == "CHECKPOINT":
                session.state = payload.get("state", "CHECKPOINT")
                session.stop_reason = payload.get("stop_reason")
                session.summary = copy.deepcopy(payload.get("summary") or {})
                if session.pending_question and session.pending_question.get("turn") is not None:
                    open_round = session.round_by_turn(int(session.pending_question["turn"]))
                    if open_round.user_answer is None:
                        open_round.unanswered_reason = payload.get("stop_reason")
                session.pending_question = None
                session.checkpoints.append(
                    {
                        "seq": event["seq"],
                        "stop_reason": payload.get("stop_reason"),
                        "rule": payload.get("rule"),
                        "obstacle": payload.get("obstacle"),
                        "last_turn": session.rounds[-1].turn if session.rounds else 0,
                    }
                )
            elif kind == "PAUSED":
                session.state = "PAUSED"
                session.stop_reason = "PAUSED"
        except (KeyError, TypeError, ValueError) as exc:
            raise ProjectionError(f"event seq {event['seq']} ({kind}) cannot be applied: {exc!r}") from None
    session.execution.usage.events += 1
    session.execution.usage.active_seconds = round(
        session.execution.usage.active_seconds + float(event["payload"].get("active_seconds", 0) or 0), 3
    )
    session.last_applied_event_id = event["event_id"]
    return session


def replay(events: Iterable[dict[str, Any]]) -> Session | None:
    """Fold every event into a fresh session (None for an empty log)."""
    session: Session | None = None
    for event in events:
        session = apply(session, event)
    return session
