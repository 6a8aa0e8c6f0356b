"""Maturity gates, progress signals, stop rules S1–S6 and depth budgets (seed 002 §4 and §7, docs/seeds.md).

Why deterministic rules: whether a session made progress, may ask an evaluative question or must
stop cannot be left to a model's mood. Every judgement here is a pure function of the session
projection, so replaying the log gives the same decisions and the checker can verify them.
"""

from __future__ import annotations

from dataclasses import dataclass

from autodidact.debate.session import MATURITY_ORDER, Budget, Idea, Round, Session, json_int

SIGNALS: tuple[str, ...] = (
    "INTUITION_FORMULATED",
    "QUESTION_SHARPENED",
    "PREMISE_SURFACED",
    "PREMISE_VERIFIED",
    "PREMISE_CONTRADICTED",
    "DISCRIMINATION_ADDED",
    "ALTERNATIVE_ADDED",
    "DISPOSITION_DECIDED",
    "DECISION_RECORDED",
    "GAP_CONFIRMED",
    "EVIDENCE_IMPORTED",
)
DEVELOPMENT_SIGNALS = frozenset(
    {"INTUITION_FORMULATED", "QUESTION_SHARPENED", "PREMISE_SURFACED", "DISCRIMINATION_ADDED"}
)
EVALUATIVE_TRIGGER = "P3"
DEVELOPMENT_QUOTA = 2

BUDGETS: dict[str, Budget] = {
    "quick": Budget(
        max_rounds=4, max_review_batches=1, max_subtasks_per_batch=2, max_active_seconds=600, max_events=120
    ),
    "standard": Budget(
        max_rounds=8, max_review_batches=2, max_subtasks_per_batch=2, max_active_seconds=1800, max_events=400
    ),
    "deep": Budget(
        max_rounds=16, max_review_batches=3, max_subtasks_per_batch=3, max_active_seconds=3600, max_events=1200
    ),
}
RECOMMENDED_DEPTH = "standard"
EVENTS_PER_TURN_RESERVE = 12
"""A turn writes up to about a dozen events; stop before the event cap would cut one in half."""


def budget_for(depth: str) -> Budget:
    return BUDGETS[depth].model_copy()


def signals_of(session: Session, idea_id: str | None = None, stage: int | None = None) -> list[str]:
    """Every signal recorded for ``idea_id`` (all ideas when None), in order; one stage when given."""
    return [
        str(s["signal"])
        for s in session.progress_signals
        if (idea_id is None or s.get("idea_id") in (None, idea_id))
        and (stage is None or json_int(s.get("stage") or 0) == stage)
    ]


def development_count(session: Session, idea_id: str) -> int:
    return sum(1 for s in signals_of(session, idea_id) if s in DEVELOPMENT_SIGNALS)


def evaluative_allowed(session: Session, idea: Idea) -> bool:
    """The RAW gate: no evaluative (P3) question before two development signals."""
    return idea.maturation != "RAW" or development_count(session, idea.idea_id) >= DEVELOPMENT_QUOTA


def next_maturity(session: Session, idea: Idea) -> str | None:
    """The one-level step the idea has earned, or None. Never skips a level, never descends."""
    if idea.maturation == "RAW" and development_count(session, idea.idea_id) >= DEVELOPMENT_QUOTA:
        return "DEVELOPING"
    if idea.maturation == "DEVELOPING" and idea.current.predictions:
        return "TESTABLE"
    return None


def maturity_index(level: str) -> int:
    return MATURITY_ORDER.index(level)


def answered_rounds_since_checkpoint(session: Session) -> list[Round]:
    """Substantive rounds answered after the last checkpoint (S1 counts only these)."""
    last_cp_turn = json_int(session.checkpoints[-1].get("last_turn") or 0) if session.checkpoints else 0
    return [
        r for r in session.rounds if r.kind != "CONFIGURATION" and r.user_answer is not None and r.turn > last_cp_turn
    ]


def no_progress_streak(session: Session) -> int:
    """How many of the latest answered substantive rounds added no signal."""
    streak = 0
    for item in reversed(answered_rounds_since_checkpoint(session)):
        if item.answer_command is not None:
            continue  # a command is neither progress nor a stalled round
        if any(s in SIGNALS for s in item.signals):
            break  # an unknown signal ("FELT_GOOD") is no progress: it must not silence S1
        streak += 1
    return streak


@dataclass(frozen=True)
class Stop:
    """A stop decision: the stop reason, the rule that fired and the obstacle it names."""

    reason: str
    rule: str
    obstacle: str


def budget_stop(session: Session) -> Stop | None:
    """S5: a hard limit reached (rounds, events or active seconds)."""
    budget = session.execution.budget
    if budget is None:
        return None
    usage = session.execution.usage
    if usage.rounds >= budget.max_rounds:
        return Stop("BUDGET_EXHAUSTED", "S5", f"rounds {usage.rounds}/{budget.max_rounds}")
    if usage.events + EVENTS_PER_TURN_RESERVE >= budget.max_events:
        return Stop("BUDGET_EXHAUSTED", "S5", f"events {usage.events}/{budget.max_events}")
    if usage.active_seconds >= budget.max_active_seconds:
        return Stop("BUDGET_EXHAUSTED", "S5", f"active seconds {usage.active_seconds:.0f}/{budget.max_active_seconds}")
    return None


def stop_after_answer(session: Session, obstacle: str) -> Stop | None:
    """S1, S5 and S6 after an answer was recorded (S4 is a user command; S2/S3 park questions)."""
    if no_progress_streak(session) >= 2:
        return Stop("NO_PROGRESS", "S1", obstacle)
    budget = budget_stop(session)
    if budget is not None:
        return budget
    last = session.substantive_rounds[-1] if session.substantive_rounds else None
    if (
        last is not None
        and last.role == "reflection_facilitator"
        and {"DISPOSITION_DECIDED", "DECISION_RECORDED"} & set(last.signals)
    ):
        return Stop("CHECKPOINT_REACHED", "S6", "stage deliverable reached")
    return None


def repeated_without_signal(session: Session, role: str, obstacle: str) -> int:
    """S2 counter: answered rounds of ``role`` on ``obstacle`` that removed nothing."""
    return sum(
        1
        for r in session.rounds
        if r.role == role and r.obstacle == obstacle and r.user_answer is not None and not r.signals
    )


def reached_p3(session: Session) -> bool:
    """The pre-close check: did this session ever work out a prediction and its change condition?

    A P3 turn does; so does the person, when they state a test of their own with the result that
    would change their mind (a DISCRIMINATION_ADDED signal): P3 then has nothing left to ask, and a
    trial that gave "two weeks with the phone outside; if I still take 40 minutes, I'd drop it" was
    told no prediction had been reached and got no validation plan (docs/debate.md)."""
    if any(r.trigger == "P3" for r in session.rounds):
        return True
    return "DISCRIMINATION_ADDED" in signals_of(session, session.idea().idea_id)
