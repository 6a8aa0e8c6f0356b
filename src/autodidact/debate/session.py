"""The session model (docs/contracts.md §4.1): what ``session.json`` holds, rebuilt by ``projection.replay``.

Why a projection: ``events.jsonl`` is the truth and ``session.json`` only a snapshot of it. Every
state change the engine makes goes through :func:`apply` (the engine appends an event, then
applies it), so the state written to disk always equals a replay of the log, and a crash can never
leave a state the log cannot explain. A payload ``{"field": F, "value": V}`` replaces session field
F; only whitelisted fields may be replaced, identity fields never.
"""

from __future__ import annotations

from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    ValidatorFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from autodidact.errors import IntegrityError
from autodidact.jsontypes import JSONMapping, JSONObject, JSONValue

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
        "examples",
        "context",
        "language",
    }
)


class ProjectionError(IntegrityError):
    """An event the projection cannot apply (unknown field, identity change, dangling reference)."""


class Budget(BaseModel):
    """Hard limits of one depth; no token or cost key on purpose (seed 002, docs/seeds.md)."""

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
    evidence_links: list[dict[str, JsonValue]] = Field(default_factory=list)
    source: str = "用户观察"
    # the term that decides the idea when a correction named it ("I mean the number of signups");
    # empty: read from the wording (debate/proposition.py)
    key_term: str = ""
    stage: int = 0


class Idea(BaseModel):
    """An idea under discussion; maturation is independent of evidence and disposition."""

    idea_id: str
    maturation: Maturation = "RAW"
    maturity_history: list[str] = Field(default_factory=lambda: ["RAW"])
    versions: list[IdeaVersion] = Field(default_factory=list)

    @property
    def current(self) -> IdeaVersion:
        return self.versions[-1]

    def stage_base(self, stage: int) -> IdeaVersion:
        """The wording that opened ``stage`` (the first version of it)."""
        return next((v for v in self.versions if v.stage == stage), self.versions[0])


def json_int(value: JSONValue) -> int:
    """A number read from the session's JSON (a turn, a stage) as the ``int`` it was written as."""
    if not isinstance(value, int | float | str):
        raise TypeError(f"not a number: {value!r}")
    return int(value)


def approval_of(gap: JSONMapping) -> JSONObject:
    """A gap request's ``approval`` (status, scope fingerprint, the confirming event), to read or update."""
    approval = gap["approval"]
    if not isinstance(approval, dict):
        raise TypeError(f"gap approval is not an object: {approval!r}")
    return approval


def pending_turn(pending: JSONMapping) -> int:
    """The turn of a pending question (``Session.pending_question``)."""
    return json_int(pending["turn"])


class Round(BaseModel):
    """One question asked (substantive, review or configuration) and the person's answer."""

    turn: int
    stage: int = 0
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


class ReviewRequest(BaseModel):
    """One isolated review asked for in a batch (a ``REVIEW_REQUESTED`` event): its whitelisted input."""

    review_id: str
    perspective: str
    input: dict[str, JsonValue]


class ReviewResult(BaseModel):
    """One review's structured output (a ``REVIEW_RETURNED`` event) and how it was produced."""

    review_id: str
    status: str
    output: dict[str, JsonValue]
    execution_kind: str


class DegradedReview(BaseModel):
    """Why a batch could not run independently, and the label the person sees for it."""

    status: str
    label: str
    reason: str


class ReviewAssessment(BaseModel):
    """The deterministic divergence judgement over a batch (``DISAGREEMENT_ASSESSED``)."""

    divergence: str
    reasons: list[JsonValue]
    degraded: bool


class ReviewBatch(BaseModel):
    """One review batch as the projection collects it from its four event types.

    The field order is the order ``session.json`` has always had (the golden files in
    tests/debate/data/golden hold it byte for byte).
    """

    batch: int
    requests: list[ReviewRequest] = Field(default_factory=list)
    results: list[ReviewResult] = Field(default_factory=list)
    degraded: DegradedReview | None = None
    assessment: ReviewAssessment | None = None


class StageSummary(BaseModel):
    """The latest checkpoint's summary (``Session.summary``), as its ``CHECKPOINT`` event carried it.

    Why every field is optional and only the keys given are written back, in their order: the event's
    summary is JSON (``summaries.CheckpointSummary`` when this program wrote it, any object when a
    test or an older log did), and ``session.json`` must hold it unchanged, key for key. Strict, so a
    value is never coerced into another; keys this model does not name are kept as they came.
    """

    model_config = ConfigDict(extra="allow", strict=True)

    stop_reason: str | None = None
    rule: str | None = None
    obstacle: str | None = None
    maturation: str | None = None
    reached_p3: bool | None = None
    kept: str | None = None
    disposition: str | None = None
    revised: str | None = None
    test: str | None = None
    undecided: list[str] | None = None
    open_questions: list[str] | None = None
    stopped_questions: list[JsonValue] | None = None
    deferred_obstacles: list[JsonValue] | None = None
    options: list[str] | None = None
    closing: str | None = None
    note: str | None = None  # what the turn would have opened with, when a checkpoint cut it short
    _keys: tuple[str, ...] = PrivateAttr(default=())

    @model_validator(mode="wrap")
    @classmethod
    def _remember_keys(cls, data: object, handler: ValidatorFunctionWrapHandler) -> StageSummary:
        summary = handler(data)
        if not isinstance(summary, StageSummary):
            raise TypeError(f"not a stage summary: {summary!r}")
        if isinstance(data, dict):
            summary._keys = tuple(str(key) for key in data)
        elif isinstance(data, StageSummary):
            summary._keys = data._keys
        return summary

    @model_serializer(mode="wrap")
    def _as_given(self, handler: SerializerFunctionWrapHandler) -> dict[str, JsonValue]:
        dumped = handler(self)
        return {key: dumped[key] for key in self._keys}


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
    context: dict[str, JsonValue] = Field(default_factory=dict)
    execution: Execution = Field(default_factory=Execution)
    ideas: list[Idea] = Field(default_factory=list)
    decisions: list[dict[str, JsonValue]] = Field(default_factory=list)
    pending_question: dict[str, JsonValue] | None = None
    progress_signals: list[dict[str, JsonValue]] = Field(default_factory=list)
    stopped_questions: list[dict[str, JsonValue]] = Field(default_factory=list)
    open_questions: list[str] = Field(default_factory=list)
    # cases the person told of ("Last Monday I wrote nothing until 11"): kept as cases, not as premises,
    # tests or rivals, whatever question they answered (docs/debate.md, "Reading answers")
    examples: list[str] = Field(default_factory=list)
    gap_requests: list[dict[str, JsonValue]] = Field(default_factory=list)
    reviews: list[ReviewBatch] = Field(default_factory=list)
    rounds: list[Round] = Field(default_factory=list)
    notes: list[dict[str, JsonValue]] = Field(default_factory=list)
    checkpoints: list[dict[str, JsonValue]] = Field(default_factory=list)
    stage: int = 0
    latest_user_input: str | None = None
    summary: StageSummary = Field(default_factory=StageSummary)
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

    def recommended_depth(self, default: str) -> str:
        """The depth the opening recommended (``context.recommended_depth``), else ``default``."""
        depth = self.context.get("recommended_depth", default)
        if not isinstance(depth, str):
            raise TypeError(f"recommended_depth is not a string: {depth!r}")
        return depth

    def context_items(self) -> list[JSONMapping]:
        """The inherited context's items (``context.items``: key, value and where it came from)."""
        items = self.context.get("items", [])
        if not isinstance(items, list):
            raise TypeError(f"context items are not a list: {items!r}")
        return [item for item in items if isinstance(item, dict)]

    def gap(self, gap_id: str) -> JSONObject:
        for gap in self.gap_requests:
            if gap.get("gap_id") == gap_id:
                return gap
        raise ProjectionError(f"unknown gap_id {gap_id!r}")

    @property
    def substantive_rounds(self) -> list[Round]:
        return [r for r in self.rounds if r.kind != "CONFIGURATION"]

    def to_json(self) -> JSONObject:
        return self.model_dump(mode="json")
