"""The moderator's P0–P6 ladder: pick the role by the current biggest obstacle (seed 002 §3, docs/seeds.md).

Why a ladder and not a rota: the five roles are optional perspectives, not five steps. Each turn the
moderator takes the first obstacle that is still open — an undefined term (P1), an unexamined
key premise (P2), no prediction (P3, only once the maturity gate allows), a single
explanation (P4), a pending independent review (P5), a finished stage (P6). P0 (commands, direct
questions) is handled by the engine before the ladder runs. A person's explicit wish overrides the
ladder, but the obstacles it skips are recorded, never dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from autodidact.debate import gates
from autodidact.debate.roles import ROLES
from autodidact.debate.session import Session

LADDER: tuple[tuple[str, str, str], ...] = (
    ("P1", "concept_clarifier", "undefined_concept"),
    ("P2", "premise_evidence_examiner", "unexamined_premise"),
    ("P3", "implication_validator", "no_prediction"),
    ("P4", "alternative_explorer", "single_explanation"),
    ("P5", "implication_validator", "review_pending"),
    ("P6", "reflection_facilitator", "stage_complete"),
)
TRIGGER_OF_ROLE = {role: trigger for trigger, role, _ in LADDER if trigger != "P5"}
OBSTACLE_OF_TRIGGER = {trigger: obstacle for trigger, _, obstacle in LADDER}


@dataclass
class Choice:
    """The moderator's decision for the next turn."""

    trigger: str
    role: str
    obstacle: str
    intent: str
    reason: str
    kind: str = "SUBSTANTIVE"
    deferred: list[str] = field(default_factory=list)

    @property
    def question_type(self) -> str:
        return ROLES[self.role].question_type


def _parked(session: Session, obstacle: str) -> bool:
    return any(q.get("obstacle") == obstacle for q in session.stopped_questions)


def open_obstacles(session: Session, review_requested: bool = False) -> list[str]:
    """Ladder triggers whose obstacle is still open, in priority order (gate not applied)."""
    idea = session.idea()
    signals = set(gates.signals_of(session, idea.idea_id, stage=session.stage))
    open_: list[str] = []
    if "QUESTION_SHARPENED" not in signals and not _parked(session, "undefined_concept"):
        open_.append("P1")
    if not signals & {"PREMISE_SURFACED", "PREMISE_VERIFIED", "PREMISE_CONTRADICTED"} and not _parked(
        session, "unexamined_premise"
    ):
        open_.append("P2")
    if not idea.current.predictions and not _parked(session, "no_prediction"):
        open_.append("P3")
    if "ALTERNATIVE_ADDED" not in signals and not _parked(session, "single_explanation"):
        open_.append("P4")
    budget = session.execution.budget
    batches_left = budget is not None and len(session.reviews) < budget.max_review_batches
    reviewed = any(r.trigger == "P5" and r.stage == session.stage for r in session.rounds)
    if batches_left and (review_requested or (idea.maturation == "TESTABLE" and not reviewed and "P4" not in open_)):
        open_.append("P5")
    return open_


def _answered(session: Session) -> set[tuple[str, str | None]]:
    """(role, intent) of every question of this stage the person answered (a command is no answer):
    asking one of them again would ignore what they said (checker rule DC17)."""
    return {
        (r.role, r.intent)
        for r in session.rounds
        if r.stage == session.stage and r.user_answer is not None and r.answer_command is None
        and r.kind == "SUBSTANTIVE"
    }  # fmt: skip


def _last_answer(session: Session) -> tuple[str | None, list[str], str | None]:
    """The last answered round's role, signals and intent."""
    answered = [r for r in session.substantive_rounds if r.user_answer is not None]
    if not answered:
        return None, [], None
    return answered[-1].role, answered[-1].signals, answered[-1].intent


def choose(session: Session, *, wish: str | None = None, review_requested: bool = False) -> Choice:
    """The next turn's role and intent, by the first open obstacle (the RAW gate applied)."""
    idea = session.idea()
    zh = session.language == "zh"
    open_ = open_obstacles(session, review_requested)
    gate_open = gates.evaluative_allowed(session, idea)
    if review_requested and "P5" in open_:
        return Choice("P5", "implication_validator", "review_pending", "discriminate", _why("P5", zh), kind="REVIEW")
    if wish is not None:
        trigger = TRIGGER_OF_ROLE[wish]
        if trigger != "P3" or gate_open:
            skipped = [t for t in open_ if t < trigger and (t != "P3" or gate_open)]
            later = [_why(t, zh) for t in skipped]
            reason = ("用户指定先谈此方向" if zh else "the person asked to discuss this next") + (
                f"；稍后再谈：{'；'.join(later)}" if zh and later else (f"; later: {'; '.join(later)}" if later else "")
            )
            return Choice(trigger, wish, OBSTACLE_OF_TRIGGER[trigger], _intent(session, wish), reason, deferred=skipped)
    last_role, last_signals, _ = _last_answer(session)
    for trigger in open_:
        if trigger == "P3" and not gate_open:
            continue  # the maturity gate: no evaluative question on a RAW idea yet
        if trigger == "P5":
            return Choice(
                "P5", "implication_validator", "review_pending", "discriminate", _why("P5", zh), kind="REVIEW"
            )
        role = next(r for t, r, _ in LADDER if t == trigger)
        obstacle = OBSTACLE_OF_TRIGGER[trigger]
        intent = _intent(session, role)
        answered = _answered(session)
        if (role, intent) in answered or (role == last_role and not last_signals):
            intent = "example"  # the same obstacle again: give examples or options, not the same question
            if (role, intent) in answered:
                continue  # asked plainly and with examples, and answered both: never again (docs/debate.md)
        reason = _why(trigger, zh)
        if "P3" in open_ and not gate_open and trigger > "P3":
            reason += "（预测要等想法更成形后再谈）" if zh else " (a prediction comes once the idea has taken shape)"
        return Choice(trigger, role, obstacle, intent, reason)
    if (
        "P3" in open_
        and not gate_open
        and not any(r.intent == "baseline" and r.stage == session.stage for r in session.rounds)
    ):
        # the gate holds P3 and nothing generative is left: earn a development signal by sharpening
        reason = (
            "想法还太初步，谈预测之前先明确比较基准"
            if zh
            else "the idea is too raw for a prediction yet: fix the baseline first"
        )
        return Choice("P1", "concept_clarifier", "undefined_baseline", "baseline", reason)
    budget = session.execution.budget
    if (
        last_role == "reflection_facilitator"
        and budget is not None
        and len(session.reviews) < budget.max_review_batches
    ):
        # the stage was already reflected on: a further counterexample check is the next useful step
        return Choice("P5", "implication_validator", "review_pending", "discriminate", _why("P5", zh), kind="REVIEW")
    return Choice("P6", "reflection_facilitator", "stage_complete", "reflect", _why("P6", zh))


def _intent(session: Session, role: str) -> str:
    return {
        "concept_clarifier": "readings",
        "premise_evidence_examiner": "premises",
        "implication_validator": "threshold" if session.idea().current.predictions else "prediction",
        "alternative_explorer": "alternative",
        "reflection_facilitator": "reflect",
    }[role]


def _why(trigger: str, zh: bool) -> str:
    reasons = {
        "P1": ("核心概念或比较基准尚未定义，影响后续判断", "a core term or baseline is undefined and matters"),
        "P2": ("决定命题能否站住的关键前提尚未检验", "a key premise has not been examined"),
        "P3": (
            "命题已可陈述，但还没有预测，也没说什么结果会改变结论",
            "there is no prediction yet, nor a result that would change it",
        ),
        "P4": ("目前只有单一解释", "there is only one explanation so far"),
        "P5": ("收敛前的反例检查：启动评估", "a counterexample check before converging"),
        "P6": ("阶段完成：整理保留/修改/未决", "the stage is complete: keep / revise / undecided"),
    }[trigger]
    return reasons[0] if zh else reasons[1]
