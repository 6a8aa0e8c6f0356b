"""Debate events: the append-only truth of a session (docs/contracts.md §4.1).

Why a discriminated union: ``events.jsonl`` is the only record a session is rebuilt from, so every
line must be read back exactly as written. One pydantic class per event type, tagged by ``type``,
means one adapter parses any line and an unknown type or a missing field fails loudly instead of
being half-understood. Each class names its payload model (``debate/payloads.py``), so a
misspelt or mistyped payload field fails the same way. ``schema_version`` is checked on read.

Event ids are content-derived (session, seq, type, actor, payload), so re-sending the same event
after a crash is recognised as a duplicate, while a different event can never hide behind a
reused id.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Annotated, Literal, TypedDict, cast

from pydantic import BaseModel, ConfigDict, Discriminator, Field, TypeAdapter

from autodidact.debate.payloads import (
    CheckpointPayload,
    DegradedReviewPayload,
    DisagreementAssessedPayload,
    EvidenceImportedPayload,
    GapConfirmedPayload,
    GapProposedPayload,
    GapRejectedPayload,
    IdeaRevisedPayload,
    PausedPayload,
    ProgressSignalPayload,
    QuestionAskedPayload,
    ReviewRequestedPayload,
    ReviewReturnedPayload,
    RoleResponsePayload,
    SelectionReasonPayload,
    StoppedQuestionPayload,
    UserInputPayload,
)
from autodidact.jsontypes import JSONObject
from autodidact.store.hashing import hash_json

EVENT_SCHEMA_VERSION: Literal["0.1"] = "0.1"
EVENT_TYPES: tuple[str, ...] = (
    "USER_INPUT",
    "ROLE_RESPONSE",
    "QUESTION_ASKED",
    "SELECTION_REASON",
    "PROGRESS_SIGNAL",
    "IDEA_REVISED",
    "REVIEW_REQUESTED",
    "REVIEW_RETURNED",
    "DISAGREEMENT_ASSESSED",
    "DEGRADED_REVIEW",
    "GAP_PROPOSED",
    "GAP_CONFIRMED",
    "GAP_REJECTED",
    "EVIDENCE_IMPORTED",
    "STOPPED_QUESTION",
    "CHECKPOINT",
    "PAUSED",
)

ExecutionKind = Literal["USER", "ROLE_SWITCH", "INDEPENDENT_AGENT", "SELF_CHECK", "SYSTEM"]


class _EventBase(BaseModel):
    """Fields every event line carries."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal["0.1"] = EVENT_SCHEMA_VERSION
    event_id: str = Field(min_length=1, description="content-derived id; appending it twice is a no-op")
    session_id: str = Field(min_length=1)
    seq: int = Field(ge=1, description="1, 2, ... in log order")
    actor: str = Field(min_length=1, description="user, moderator, a role id, reviewer-N or system")
    execution_kind: ExecutionKind
    created_at: str


class UserInputEvent(_EventBase):
    """What the person typed, verbatim (prompt, answer, command or decision)."""

    type: Literal["USER_INPUT"]
    payload: UserInputPayload


class RoleResponseEvent(_EventBase):
    """A role's response and substantive contribution, with its source label."""

    type: Literal["ROLE_RESPONSE"]
    payload: RoleResponsePayload


class QuestionAskedEvent(_EventBase):
    """The one focus question of a turn and why it is worth asking."""

    type: Literal["QUESTION_ASKED"]
    payload: QuestionAskedPayload


class SelectionReasonEvent(_EventBase):
    """The moderator's choice (ladder trigger and role), or a whitelisted field replacement."""

    type: Literal["SELECTION_REASON"]
    payload: SelectionReasonPayload


class ProgressSignalEvent(_EventBase):
    """One progress signal detected in an answer."""

    type: Literal["PROGRESS_SIGNAL"]
    payload: ProgressSignalPayload


class IdeaRevisedEvent(_EventBase):
    """A new idea version, or a maturity step."""

    type: Literal["IDEA_REVISED"]
    payload: IdeaRevisedPayload


class ReviewRequestedEvent(_EventBase):
    """An isolated review call was requested with its whitelisted input."""

    type: Literal["REVIEW_REQUESTED"]
    payload: ReviewRequestedPayload


class ReviewReturnedEvent(_EventBase):
    """One structured review result."""

    type: Literal["REVIEW_RETURNED"]
    payload: ReviewReturnedPayload


class DisagreementAssessedEvent(_EventBase):
    """The deterministic divergence judgement over a review batch."""

    type: Literal["DISAGREEMENT_ASSESSED"]
    payload: DisagreementAssessedPayload


class DegradedReviewEvent(_EventBase):
    """A review that could not run independently: labelled a self-check."""

    type: Literal["DEGRADED_REVIEW"]
    payload: DegradedReviewPayload


class GapProposedEvent(_EventBase):
    """An evidence gap proposed, with what its result would change."""

    type: Literal["GAP_PROPOSED"]
    payload: GapProposedPayload


class GapConfirmedEvent(_EventBase):
    """The person confirmed a gap's scope (carries the fingerprint)."""

    type: Literal["GAP_CONFIRMED"]
    payload: GapConfirmedPayload


class GapRejectedEvent(_EventBase):
    """The person declined a gap; it stays an open question."""

    type: Literal["GAP_REJECTED"]
    payload: GapRejectedPayload


class EvidenceImportedEvent(_EventBase):
    """Research results imported under the alignment rule."""

    type: Literal["EVIDENCE_IMPORTED"]
    payload: EvidenceImportedPayload


class StoppedQuestionEvent(_EventBase):
    """A question parked by S2/S3."""

    type: Literal["STOPPED_QUESTION"]
    payload: StoppedQuestionPayload


class CheckpointEvent(_EventBase):
    """A stage end or stop, with its stop reason and summary."""

    type: Literal["CHECKPOINT"]
    payload: CheckpointPayload


class PausedEvent(_EventBase):
    """The session paused; the pending question survives."""

    type: Literal["PAUSED"]
    payload: PausedPayload


Event = (
    UserInputEvent
    | RoleResponseEvent
    | QuestionAskedEvent
    | SelectionReasonEvent
    | ProgressSignalEvent
    | IdeaRevisedEvent
    | ReviewRequestedEvent
    | ReviewReturnedEvent
    | DisagreementAssessedEvent
    | DegradedReviewEvent
    | GapProposedEvent
    | GapConfirmedEvent
    | GapRejectedEvent
    | EvidenceImportedEvent
    | StoppedQuestionEvent
    | CheckpointEvent
    | PausedEvent
)
AnyEvent = Annotated[Event, Discriminator("type")]
EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(AnyEvent)


class EventLine(TypedDict):
    """One line of ``events.jsonl`` as written and read: the plain dict its event model validated.

    Why a dict and not the model: the line is written exactly as it was made (no defaults filled in),
    so its content-derived id and the file's bytes never depend on the models. Its payload is raw JSON
    here; a reader that needs a field typed reads it through :func:`parse_event` (the payload models).
    """

    schema_version: str
    event_id: str
    session_id: str
    seq: int
    type: str
    actor: str
    execution_kind: str
    payload: JSONObject
    created_at: str


def parse_event(data: object) -> Event:
    """Validate one decoded line; raises ``pydantic.ValidationError`` on anything unknown."""
    return EVENT_ADAPTER.validate_python(data)


def event_line(data: Mapping[str, object]) -> EventLine:
    """A decoded or built line, validated against its event model, as the :class:`EventLine` it then is.

    The dict itself is returned, not the model's dump, so nothing is filled in or reordered.
    """
    parse_event(data)
    return cast(EventLine, data)


def now_iso() -> str:
    """UTC timestamp with seconds, the ``created_at`` format."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def event_id_for(session_id: str, seq: int, type_: str, actor: str, payload: Mapping[str, object]) -> str:
    """The content-derived id: the same event always gets the same id, a different one never does."""
    digest = hash_json({"s": session_id, "n": seq, "t": type_, "a": actor, "p": payload})
    return f"ev-{seq:05d}-{digest[:12]}"


def make_event(
    session_id: str,
    seq: int,
    type_: str,
    *,
    actor: str,
    execution_kind: str,
    payload: Mapping[str, object] | None = None,
    created_at: str | None = None,
) -> EventLine:
    """Build a validated event line as a plain dict (the form written to ``events.jsonl``)."""
    body = dict(payload or {})
    data = {
        "schema_version": EVENT_SCHEMA_VERSION,
        "event_id": event_id_for(session_id, seq, type_, actor, body),
        "session_id": session_id,
        "seq": seq,
        "type": type_,
        "actor": actor,
        "execution_kind": execution_kind,
        "payload": body,
        "created_at": created_at or now_iso(),
    }
    return event_line(data)
