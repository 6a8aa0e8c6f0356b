"""One payload model per debate event type: what each line of ``events.jsonl`` may carry.

Why typed payloads: a session is rebuilt from its events alone (docs/debate.md), so a payload
field misspelt by the planner ("stop_reson") would be read back as missing and silently change
the replayed session. Each event type's payload is validated against its model when the event
is made and when it is read: an unknown field or a wrong type fails loudly, at the line that
has it. Events are still written as the plain dict that was validated, so their content-derived
ids do not change (no defaults are filled in).

Every payload may carry the transaction fields the engine adds (``txn``, ``txn_end``,
``active_seconds``; docs/hardening.md).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, JsonValue


class TxnPayload(BaseModel):
    """Fields of every payload: the transaction it belongs to and, on its last event, its end."""

    model_config = ConfigDict(extra="forbid")

    txn: str | None = None
    txn_end: bool | None = None
    active_seconds: float | None = None


class UserInputPayload(TxnPayload):
    """What the person typed, verbatim, and how it was read (a prompt, an answer, a command)."""

    intent: Literal["PROMPT", "ANSWER", "COMMAND", "CONTINUE", "DEPTH", "GAP_DECISION", "QUESTION"]
    text: str
    op: Literal["start", "reply", "close"] | None = None
    turn: int | None = None
    command: str | None = None
    language: str | None = None
    run_id: str | None = None
    depth_flag: str | None = None


class RoleResponsePayload(TxnPayload):
    """A role's (or the moderator's) words for a turn, labelled with who produced them."""

    turn: int | None
    label: str
    response: str
    contribution: str | None = None
    source_label: str | None = None
    citation: str | None = None
    producer: Literal["model", "offline", "offline-fallback"] | None = None
    trigger: str | None = None
    reason: str | None = None
    reasked: bool | None = None


class QuestionAskedPayload(TxnPayload):
    """The one focus question of a turn and why it is worth asking."""

    turn: int
    question: str
    why: str


class SelectionReasonPayload(TxnPayload):
    """The moderator's choice for a turn, or a whitelisted session field replaced (``field``/``value``)."""

    turn: int | None = None
    kind: str | None = None
    role: str | None = None
    question_type: str | None = None
    obstacle: str | None = None
    intent: str | None = None
    reason: str | None = None
    trigger: str | None = None
    idea_id: str | None = None
    field: str | None = None
    value: JsonValue = None
    deferred: list[JsonValue] | None = None


class ProgressSignalPayload(TxnPayload):
    """One progress signal found in an answer (docs/debate.md, the signals)."""

    signal: str
    turn: int | None
    idea_id: str
    round: int | None = None
    note: str | None = None


class IdeaRevisedPayload(TxnPayload):
    """A new version of the idea: its wording, what it now assumes, predicts or rivals, its state."""

    idea_id: str
    proposition: str | None = None
    source: str | None = None
    turn_role: str | None = None
    maturation: str | None = None
    add_assumptions: list[JsonValue] | None = None
    add_predictions: list[JsonValue] | None = None
    add_alternatives: list[JsonValue] | None = None
    disposition: Literal["KEEP", "REVISE", "SET_ASIDE"] | None = None
    new_stage: bool | None = None
    key_term: str | None = None


class ReviewRequestedPayload(TxnPayload):
    """An isolated review call and the whitelisted input it was given."""

    batch: int
    review_id: str
    perspective: str
    input: dict[str, JsonValue]


class ReviewReturnedPayload(TxnPayload):
    """One structured review result."""

    batch: int
    review_id: str
    status: str
    output: dict[str, JsonValue]


class DisagreementAssessedPayload(TxnPayload):
    """The deterministic divergence judgement over a review batch."""

    batch: int
    divergence: str
    reasons: list[JsonValue]
    degraded: bool


class DegradedReviewPayload(TxnPayload):
    """A review that could not run independently, and the label that says so."""

    batch: int
    status: str
    label: str
    reason: str


class GapProposedPayload(TxnPayload):
    """An evidence gap proposed, with what its result would change."""

    gap: dict[str, JsonValue]


class GapConfirmedPayload(TxnPayload):
    """The person confirmed a gap's scope (its fingerprint)."""

    gap_id: str
    scope_fingerprint: str


class GapRejectedPayload(TxnPayload):
    """The person declined a gap; it stays an open question."""

    gap_id: str
    reason: str | None = None


class EvidenceImportedPayload(TxnPayload):
    """Research results imported for a gap under the alignment rule."""

    gap_id: str
    links: list[JsonValue]
    scope_fingerprint: str | None = None
    impact: str | None = None
    execution_status: str | None = None
    result_refs: list[JsonValue] | None = None


class StoppedQuestionPayload(TxnPayload):
    """A question parked by a stop rule (S2/S3) and the obstacle behind it."""

    rule: str
    obstacle: str
    role: str | None = None
    question: str | None = None
    turn: int | None = None


class CheckpointPayload(TxnPayload):
    """A stage end or stop: why, under which rule, and the summary shown."""

    stop_reason: str
    summary: dict[str, JsonValue]
    rule: str | None = None
    obstacle: str | None = None
    state: str | None = None


class PausedPayload(TxnPayload):
    """The session paused (the pending question survives)."""

    reason: str | None = None
