"""The replay projection: folding events into a :class:`~autodidact.debate.session.Session`.

Why one function: the engine appends an event and then applies it with :func:`apply`, and every
reader (snapshot, seal, check, recover, the checker) rebuilds state with :func:`replay`, so the state
written to disk always equals a replay of the log. A payload ``{"field": F, "value": V}`` replaces
session field F; only whitelisted fields may be replaced, identity fields never.

Events are read through their payload models (``debate/payloads.py``); a payload field that
was left out reads as its default, and where the projection's own default differs (``kind``,
``language``, ``execution_status``, ``state``) it asks whether the field was given.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import TypeVar

from pydantic import TypeAdapter

from autodidact.debate.events import (
    CheckpointEvent,
    DegradedReviewEvent,
    DisagreementAssessedEvent,
    EventLine,
    EvidenceImportedEvent,
    GapConfirmedEvent,
    GapProposedEvent,
    GapRejectedEvent,
    IdeaRevisedEvent,
    PausedEvent,
    ProgressSignalEvent,
    QuestionAskedEvent,
    ReviewRequestedEvent,
    ReviewReturnedEvent,
    RoleResponseEvent,
    SelectionReasonEvent,
    StoppedQuestionEvent,
    UserInputEvent,
    parse_event,
)
from autodidact.debate.payloads import IdeaRevisedPayload, SelectionReasonPayload
from autodidact.debate.session import (
    IDENTITY_FIELDS,
    MATURITY_ORDER,
    REPLACEABLE_FIELDS,
    DegradedReview,
    Idea,
    IdeaVersion,
    Maturation,
    ProjectionError,
    ReviewAssessment,
    ReviewBatch,
    ReviewRequest,
    ReviewResult,
    Round,
    Session,
    StageSummary,
    approval_of,
    pending_turn,
)
from autodidact.jsontypes import JSONObject

_T = TypeVar("_T")
_MATURATION: TypeAdapter[Maturation] = TypeAdapter(Maturation)


def _need(value: _T | None, name: str) -> _T:
    """A field the projection cannot do without (a missing one was a ``KeyError`` on the dict)."""
    if value is None:
        raise KeyError(name)
    return value


def _replace_field(session: Session, payload: SelectionReasonPayload) -> None:
    field = payload.field
    if field in IDENTITY_FIELDS:
        raise ProjectionError(f"event tries to replace identity field {field!r}", hint="identity never changes")
    if field not in REPLACEABLE_FIELDS:
        raise ProjectionError(f"event tries to replace field {field!r}, which is not replaceable")
    data = session.model_dump(mode="json")
    data[field] = payload.value
    try:
        replaced = Session.model_validate(data)
    except ValueError as exc:
        raise ProjectionError(f"invalid value for field {field!r}: {str(exc).splitlines()[0]}") from None
    setattr(session, field, getattr(replaced, field))


def _new_version(idea: Idea, payload: IdeaRevisedPayload, stage: int) -> None:
    if idea.versions:
        base = idea.versions[-1].model_dump()
    else:
        given = "proposition" in payload.model_fields_set
        base = {"proposition": payload.proposition if given else ""}
    base["version"] = len(idea.versions) + 1
    base["stage"] = stage
    if payload.new_stage:
        # a revised wording still competes with the rivals named and keeps the tests stated (a trial's
        # summary said "competing explanations: none yet" after a revision)
        base.update(assumptions=[], evidence_links=[], disposition="OPEN", key_term="")
    changes = {
        "proposition": payload.proposition,
        "disposition": payload.disposition,
        "source": payload.source,
        "key_term": payload.key_term,
    }
    for key, value in changes.items():
        if value is not None:
            base[key] = value
    added = {
        "assumptions": payload.add_assumptions,
        "predictions": payload.add_predictions,
        "alternatives": payload.add_alternatives,
    }
    for key, items in added.items():
        for item in items or []:
            if item not in base.setdefault(key, []):
                base[key].append(item)
    idea.versions.append(IdeaVersion.model_validate(base))


def _apply_idea(session: Session, payload: IdeaRevisedPayload) -> None:
    if payload.new_stage:
        session.stage += 1
    idea_id = payload.idea_id or "i1"
    existing = [i for i in session.ideas if i.idea_id == idea_id]
    idea = existing[0] if existing else None
    if idea is None:
        idea = Idea(idea_id=idea_id)
        session.ideas.append(idea)
    if {"proposition", "disposition", "key_term"} & payload.model_fields_set or any(
        (payload.add_assumptions, payload.add_predictions, payload.add_alternatives)
    ):
        _new_version(idea, payload, session.stage)
    level = payload.maturation
    if level is not None:
        if level not in MATURITY_ORDER:
            raise ProjectionError(f"unknown maturation {level!r}")
        idea.maturation = _MATURATION.validate_python(level)
        idea.maturity_history.append(level)


_GapEvent = GapProposedEvent | GapConfirmedEvent | GapRejectedEvent | EvidenceImportedEvent


def _apply_gap(session: Session, event: _GapEvent) -> None:
    if isinstance(event, GapProposedEvent):
        gap: JSONObject = copy.deepcopy(event.payload.gap)
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
            approval = approval_of(old)
            if approval.get("status") == "CONFIRMED" and approval.get("scope_fingerprint") != gap.get("fingerprint"):
                approval["status"] = "INVALIDATED"
            elif approval.get("status") == "INVALIDATED":
                pass
            old.update({k: v for k, v in gap.items() if k not in {"approval", "execution_status", "result_refs"}})
        # (a payload cannot carry ``await_confirmation``: a proposed gap always waits for the person)
        session.state = "WAITING_GAP_CONFIRMATION"
        return
    payload = event.payload
    request = session.gap(payload.gap_id)
    approval = approval_of(request)
    if isinstance(event, GapConfirmedEvent):
        approval.update(
            status="CONFIRMED",
            scope_fingerprint=event.payload.scope_fingerprint,
            confirmed_event_id=event.event_id,
            confirmed_by=event.execution_kind,
        )
        session.state = "WAITING_EVIDENCE"
    elif isinstance(event, GapRejectedEvent):
        approval.update(status="REJECTED", rejected_event_id=event.event_id)
        question = request.get("question")
        if isinstance(question, str) and question and question not in session.open_questions:
            session.open_questions.append(question)
        session.state = "DISCUSSING"
    else:
        imported = event.payload
        given = imported.model_fields_set
        request["execution_status"] = imported.execution_status if "execution_status" in given else "DONE"
        if "result_refs" in given and imported.result_refs is None:
            raise TypeError("'NoneType' object is not iterable")
        request["result_refs"] = list(imported.result_refs or [])
        request["impact"] = imported.impact
        request["executed_fingerprint"] = imported.scope_fingerprint
        links = imported.links
        if links:
            idea_id = request.get("idea_id")
            if idea_id is not None and not isinstance(idea_id, str):
                raise ProjectionError(f"unknown idea_id {idea_id!r}")
            idea = session.idea(idea_id)
            version = idea.current.model_copy(deep=True)
            version.version = len(idea.versions) + 1
            version.evidence_links = [*version.evidence_links, *copy.deepcopy(links)]  # type: ignore[list-item]
            idea.versions.append(version)
        session.state = "DISCUSSING"


_ReviewEvent = ReviewRequestedEvent | ReviewReturnedEvent | DegradedReviewEvent | DisagreementAssessedEvent


def _apply_review(session: Session, event: _ReviewEvent) -> None:
    batch = event.payload.batch
    record = next((r for r in session.reviews if r.batch == batch), None)
    if record is None:
        record = ReviewBatch(batch=batch)
        session.reviews.append(record)
        session.execution.usage.review_batches = len(session.reviews)
    if isinstance(event, ReviewRequestedEvent):
        asked = event.payload
        record.requests.append(
            ReviewRequest(review_id=asked.review_id, perspective=asked.perspective, input=copy.deepcopy(asked.input))
        )
        session.state = "INDEPENDENT_REVIEW"
    elif isinstance(event, ReviewReturnedEvent):
        returned = event.payload
        record.results.append(
            ReviewResult(
                review_id=returned.review_id,
                status=returned.status,
                output=copy.deepcopy(returned.output),
                execution_kind=event.execution_kind,
            )
        )
    elif isinstance(event, DegradedReviewEvent):
        degraded = event.payload
        record.degraded = DegradedReview(status=degraded.status, label=degraded.label, reason=degraded.reason)
    else:
        assessed = event.payload
        record.assessment = ReviewAssessment(
            divergence=assessed.divergence, reasons=copy.deepcopy(assessed.reasons), degraded=assessed.degraded
        )


def _apply_selection(session: Session, payload: SelectionReasonPayload) -> None:
    turn = int(_need(payload.turn, "turn"))
    if any(r.turn == turn for r in session.rounds):
        raise ProjectionError(f"turn {turn} selected twice")
    round_kind = payload.kind if "kind" in payload.model_fields_set else "SUBSTANTIVE"
    number = None
    if round_kind != "CONFIGURATION":
        number = len(session.substantive_rounds) + 1
    session.rounds.append(
        Round.model_validate(
            {
                "stage": session.stage,
                "turn": turn,
                "round": number,
                "kind": round_kind,
                "role": _need(payload.role, "role"),
                "question_type": _need(payload.question_type, "question_type"),
                "trigger": payload.trigger,
                "intent": payload.intent,
                "reason": payload.reason,
                "obstacle": payload.obstacle,
                "idea_id": payload.idea_id,
            }
        )
    )
    session.execution.usage.rounds = len([r for r in session.rounds if r.kind == "SUBSTANTIVE"])
    session.state = "DISCUSSING"
    for item in payload.deferred or []:
        session.notes.append({"kind": "DEFERRED_OBSTACLE", "turn": turn, "text": item})


def _apply_turn(session: Session, event: SelectionReasonEvent | RoleResponseEvent | QuestionAskedEvent) -> None:
    if isinstance(event, SelectionReasonEvent):
        _apply_selection(session, event.payload)
    elif isinstance(event, RoleResponseEvent):
        said = event.payload
        if said.turn is None:
            session.notes.append({"kind": "MODERATOR_REPLY", "text": said.response, "label": said.label})
            return
        item = session.round_by_turn(int(said.turn))
        item.label = said.label
        item.response = said.response
        item.contribution = said.contribution
        item.source_label = said.source_label
        item.citation = said.citation
    else:
        asked = event.payload
        item = session.round_by_turn(int(asked.turn))
        item.question = asked.question
        item.why = asked.why
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


def _apply_user(session: Session, event: UserInputEvent) -> None:
    payload = event.payload
    session.latest_user_input = payload.text
    turn = payload.turn
    if turn is not None and payload.intent in {"ANSWER", "DEPTH", "GAP_DECISION"}:
        item = session.round_by_turn(int(turn))
        if item.user_answer is not None:
            raise ProjectionError(f"turn {turn} answered twice")
        item.user_answer = payload.text
        item.answer_event_id = event.event_id
        item.answer_command = payload.command
        session.pending_question = None
        if session.state in {"WAITING_USER", "WAITING_DEPTH", "WAITING_GAP_CONFIRMATION", "PAUSED", "CHECKPOINT"}:
            session.state = "DISCUSSING"
    elif payload.intent in {"COMMAND", "QUESTION"}:
        session.notes.append({"kind": payload.intent, "text": payload.text})


def _start(event: EventLine) -> Session:
    first = parse_event(event)
    if not isinstance(first, UserInputEvent) or first.payload.intent != "PROMPT":
        raise ProjectionError("the first event of a session must be the USER_INPUT prompt")
    payload = first.payload
    return Session.model_validate(
        {
            "session_id": first.session_id,
            "run_id": payload.run_id or first.session_id,
            "parent_session_id": None,
            "language": payload.language if "language" in payload.model_fields_set else "en",
            "context": {"prompt": payload.text},
            "latest_user_input": payload.text,
        }
    )


def _apply_checkpoint(session: Session, event: CheckpointEvent) -> None:
    payload = event.payload
    # Stored as written, not checked against the session's literals: the checker reads an unknown stop
    # reason back from the replayed session and reports it (DC16), so the projection must keep it.
    setattr(session, "state", payload.state if "state" in payload.model_fields_set else "CHECKPOINT")  # noqa: B010
    setattr(session, "stop_reason", payload.stop_reason)  # noqa: B010
    try:
        session.summary = StageSummary.model_validate(payload.summary)
    except ValueError as exc:
        raise ProjectionError(f"invalid checkpoint summary: {str(exc).splitlines()[0]}") from None
    if session.pending_question and session.pending_question.get("turn") is not None:
        open_round = session.round_by_turn(pending_turn(session.pending_question))
        if open_round.user_answer is None:
            open_round.unanswered_reason = payload.stop_reason
    session.pending_question = None
    session.checkpoints.append(
        {
            "seq": event.seq,
            "stop_reason": payload.stop_reason,
            "rule": payload.rule,
            "obstacle": payload.obstacle,
            "last_turn": session.rounds[-1].turn if session.rounds else 0,
        }
    )


def apply(session: Session | None, event: EventLine) -> Session:
    """Apply one event (a validated event line) to ``session`` in place and return it."""
    if session is None:
        session = _start(event)
    elif event["session_id"] != session.session_id:
        raise ProjectionError(f"event {event['event_id']} belongs to session {event['session_id']!r}")
    else:
        kind = event["type"]
        try:
            typed = parse_event(event)
            if isinstance(typed, SelectionReasonEvent) and "field" in typed.payload.model_fields_set:
                _replace_field(session, typed.payload)
            elif isinstance(typed, UserInputEvent):
                _apply_user(session, typed)
            elif isinstance(typed, SelectionReasonEvent | RoleResponseEvent | QuestionAskedEvent):
                _apply_turn(session, typed)
            elif isinstance(typed, ProgressSignalEvent):
                signal = typed.payload
                entry: JSONObject = {
                    "signal": signal.signal,
                    "round": signal.round,
                    "turn": signal.turn,
                    "idea_id": signal.idea_id,
                    "note": signal.note,
                }
                entry["stage"] = session.stage
                session.progress_signals.append(entry)
                if signal.turn is not None:
                    session.round_by_turn(int(signal.turn)).signals.append(str(signal.signal))
            elif isinstance(typed, IdeaRevisedEvent):
                _apply_idea(session, typed.payload)
            elif isinstance(typed, _ReviewEvent):
                _apply_review(session, typed)
            elif isinstance(typed, _GapEvent):
                _apply_gap(session, typed)
            elif isinstance(typed, StoppedQuestionEvent):
                session.stopped_questions.append(copy.deepcopy(event["payload"]))
            elif isinstance(typed, CheckpointEvent):
                _apply_checkpoint(session, typed)
            elif isinstance(typed, PausedEvent):
                session.state = "PAUSED"
                session.stop_reason = "PAUSED"
        except (KeyError, TypeError, ValueError) as exc:
            raise ProjectionError(f"event seq {event['seq']} ({kind}) cannot be applied: {exc!r}") from None
    session.execution.usage.events += 1
    active = event["payload"].get("active_seconds", 0) or 0
    if not isinstance(active, int | float):
        raise ProjectionError(f"event seq {event['seq']}: active_seconds is not a number")
    session.execution.usage.active_seconds = round(session.execution.usage.active_seconds + float(active), 3)
    session.last_applied_event_id = event["event_id"]
    return session


def replay(events: Iterable[EventLine]) -> Session | None:
    """Fold every event into a fresh session (None for an empty log)."""
    session: Session | None = None
    for event in events:
        session = apply(session, event)
    return session
