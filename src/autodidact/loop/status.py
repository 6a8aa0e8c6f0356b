"""``autodidact status``: where a research stands, read from its files only.

Why a separate reader: status must work while a run holds the writer lock (it never writes), and
it must say *why* the loop would or would not stop now — each termination clause, the stall
(what the last round added) and the cap, with the numbers behind them — so a person can see what
another round would be for (the rule: docs/loop.md).
"""

from __future__ import annotations

from typing import Literal, TypedDict, cast

from autodidact.kb import KnowledgeBase
from autodidact.loop.inbox import pending_questions
from autodidact.loop.state import StopKind, load_state
from autodidact.loop.termination import STALL_OVERLAP, evaluate
from autodidact.sources.rawfiles import list_raw_names


class RoundProgressView(TypedDict):
    """The round in flight (``RoundProgress`` in loop/state.py, dumped)."""

    round: int
    step1_done: bool
    step2_done: bool
    step3_done: bool
    step4_done: bool


class StatusCounts(TypedDict):
    raw_files: int
    wiki_articles: int
    questions_asked: int
    pending_user_questions: int


class StatusCost(TypedDict):
    calls: int
    input_tokens: int
    output_tokens: int
    cost_usd: float


class RoundStatus(TypedDict):
    """One completed round, as ``status`` lists it."""

    round: int
    questions: int
    new_raw_files: int
    user_contributed_raw_files: int
    wiki_topics_updated: int
    audit_issues_count: int
    overlap_ratio: float | None
    new_claims: int | None
    new_sources: int | None
    decision: Literal["continue", "terminate"]
    stopped_by: StopKind | None
    reason: str


class StallStatus(TypedDict):
    new_claims: int | None
    new_sources: int | None
    overlap_ratio: float | None
    overlap_limit: float
    nothing_pending_from_user: bool


class TerminationStatus(TypedDict):
    """Each termination condition for the last round, as the rule would judge it now (docs/loop.md)."""

    diminishing_gaps: bool
    no_pending_user_questions: bool
    no_new_raw_files: bool
    overlap_above_0_7: bool
    stalled: bool
    stall: StallStatus
    max_rounds_reached: bool
    would_terminate: bool
    would_stop_by: StopKind | None
    user_waiting_extends_max_rounds: bool
    last_decision: Literal["continue", "terminate"]
    last_reason: str
    last_stopped_by: StopKind | None


class StatusReport(TypedDict):
    """``autodidact status --json`` (and ``Status.report`` in the API)."""

    kb: str
    topic: str | None
    status: str
    max_rounds: int | None
    rounds_completed: int
    current_round_progress: RoundProgressView | None
    counts: StatusCounts
    rounds: list[RoundStatus]
    termination: TerminationStatus | None
    cost: StatusCost
    summary: str | None


def status_report(kb: KnowledgeBase) -> StatusReport:
    """Rounds, counts, per-round audit numbers, each termination condition, cost so far."""
    from autodidact.llm.ledger import read_totals

    state = load_state(kb)
    raw = list_raw_names(kb.raw)
    articles = [p for p in kb.wiki.glob("*.md") if p.name != "INDEX.md"] if kb.wiki.is_dir() else []
    pending = pending_questions(kb.user_questions)
    usage = read_totals(kb.usage_ledger)
    report: StatusReport = {
        "kb": str(kb.root),
        "topic": state.topic if state else None,
        "status": state.status if state else "not started",
        "max_rounds": state.max_rounds if state else None,
        "rounds_completed": len(state.rounds) if state else 0,
        "current_round_progress": (
            cast(RoundProgressView, state.current_round_progress.model_dump())
            if state and state.current_round_progress
            else None
        ),
        "counts": {
            "raw_files": len(raw),
            "wiki_articles": len(articles),
            "questions_asked": len(state.all_questions_ever) if state else 0,
            "pending_user_questions": len(pending),
        },
        "rounds": [],
        "termination": None,
        "cost": {
            "calls": usage.get("calls", 0),
            "input_tokens": usage.get("input_tokens", 0),
            "output_tokens": usage.get("output_tokens", 0),
            "cost_usd": usage.get("cost_usd", 0.0),
        },
        "summary": "outputs/research_summary.md" if kb.summary_file.is_file() else None,
    }
    if state is None:
        return report
    for record in state.rounds:
        check = record.termination_check
        report["rounds"].append(
            {
                "round": record.round,
                "questions": len(record.questions),
                "new_raw_files": len(record.new_raw_files),
                "user_contributed_raw_files": len(record.user_contributed_raw_files),
                "wiki_topics_updated": len(record.wiki_topics_updated),
                "audit_issues_count": check.audit_issues_count,
                "overlap_ratio": check.overlap_ratio,
                "new_claims": check.new_claims,
                "new_sources": check.new_sources,
                "decision": check.decision,
                "stopped_by": check.stopped_by,
                "reason": check.reason,
            }
        )
    if state.rounds:
        last = state.rounds[-1]
        previous = state.rounds[-2].termination_check.audit_issues_count if len(state.rounds) > 1 else None
        processed = set(state.all_raw_files_processed)
        new_raw = [name for name in raw if name not in processed]
        check = last.termination_check
        cond = evaluate(
            round_n=last.round,
            max_rounds=state.max_rounds,
            issues=check.audit_issues_count,
            previous_issues=previous,
            pending_user_questions=len(pending),
            new_raw_files=len(new_raw),
            overlap=check.overlap_ratio,
            new_claims=check.new_claims,
            new_sources=check.new_sources,
            previous_empty=len(state.rounds) > 1
            and state.rounds[-2].termination_check.new_claims == 0
            and state.rounds[-2].termination_check.new_sources == 0,
        )
        report["termination"] = {
            "diminishing_gaps": cond.diminishing,
            "no_pending_user_questions": cond.no_pending_questions,
            "no_new_raw_files": cond.no_new_raw_files,
            "overlap_above_0_7": cond.overlap_high,
            "stalled": cond.stalled,
            "stall": {
                "new_claims": check.new_claims,
                "new_sources": check.new_sources,
                "overlap_ratio": check.overlap_ratio,
                "overlap_limit": STALL_OVERLAP,
                "nothing_pending_from_user": cond.no_pending_questions and cond.no_new_raw_files,
            },
            "max_rounds_reached": cond.max_rounds_reached,
            "would_terminate": cond.terminate,
            "would_stop_by": cond.stopped_by,
            "user_waiting_extends_max_rounds": cond.max_rounds_reached
            and not (cond.no_pending_questions and cond.no_new_raw_files),
            "last_decision": check.decision,
            "last_reason": check.reason,
            "last_stopped_by": check.stopped_by,
        }
    return report
