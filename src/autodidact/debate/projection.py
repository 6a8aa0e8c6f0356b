"""The replay projection: folding events into a :class:`~autodidact.debate.session.Session`.

Why one function: the engine appends an event and then applies it with :func:`apply`, and every
reader (snapshot, seal, check, recover, the checker) rebuilds state with :func:`replay`, so the state
written to disk always equals a replay of the log. A payload ``{"field": F, "value": V}`` replaces
session field F; only whitelisted fields may be replaced, identity fields never.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from autodidact.debate.session import (
    IDENTITY_FIELDS,
    MATURITY_ORDER,
    REPLACEABLE_FIELDS,
    Idea,
    IdeaVersion,
    ProjectionError,
    Round,
    Session,
)


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


def _new_version(idea: Idea, payload: dict[str, Any], stage: int) -> None:
    base = idea.versions[-1].model_dump() if idea.versions else {"proposition": payload.get("proposition", "")}
    base["version"] = len(idea.versions) + 1
    base["stage"] = stage
    if payload.get("new_stage"):
        # a revised wording still competes with the rivals named and keeps the tests stated (a trial's
        # summary said "competing explanations: none yet" after a revision)
        base.update(assumptions=[], evidence_links=[], disposition="OPEN", key_term="")
    for key in ("proposition", "epistemic_status", "disposition", "source", "key_term"):
        if payload.get(key) is not None:
            base[key] = payload[key]
    for key in ("assumptions", "predictions", "alternatives"):
        for item in payload.get(f"add_{key}", []) or []:
            if item not in base.setdefault(key, []):
                base[key].append(item)
    idea.versions.append(IdeaVersion.model_validate(base))


def _apply_idea(session: Session, payload: dict[str, Any]) -> None:
    if payload.get("new_stage"):
        session.stage += 1
    idea_id = payload.get("idea_id") or "i1"
    existing = [i for i in session.ideas if i.idea_id == idea_id]
    idea = existing[0] if existing else None
    if idea is None:
        idea = Idea(idea_id=idea_id)
        session.ideas.append(idea)
    if any(k in payload for k in ("proposition", "disposition", "epistemic_status", "key_term")) or any(
        payload.get(f"add_{k}") for k in ("assumptions", "predictions", "alternatives")
    ):
        _new_version(idea, payload, session.stage)
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
                stage=session.stage,
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
                entry["stage"] = session.stage
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
