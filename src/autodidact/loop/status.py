"""``autodidact status``: where a research stands, read from its files only.

Why a separate reader: status must work while a run holds the writer lock (it never writes), and
it must say *why* the loop would or would not stop now — each termination clause, the stall
(what the last round added) and the cap, with the numbers behind them — so a person can see what
another round would be for (the rule: docs/loop.md).
"""

from __future__ import annotations

from typing import Any

from autodidact.kb import KnowledgeBase
from autodidact.loop.inbox import pending_questions
from autodidact.loop.state import load_state
from autodidact.loop.termination import STALL_OVERLAP, evaluate
from autodidact.sources.rawfiles import list_raw_names


def status_report(kb: KnowledgeBase) -> dict[str, Any]:
    """Rounds, counts, per-round audit numbers, each termination condition, cost so far."""
    from autodidact.llm.ledger import read_totals

    state = load_state(kb)
    raw = list_raw_names(kb.raw)
    articles = [p for p in kb.wiki.glob("*.md") if p.name != "INDEX.md"] if kb.wiki.is_dir() else []
    pending = pending_questions(kb.user_questions)
    usage = read_totals(kb.usage_ledger)
    report: dict[str, Any] = {
        "kb": str(kb.root),
        "topic": state.topic if state else None,
        "status": state.status if state else "not started",
        "max_rounds": state.max_rounds if state else None,
        "rounds_completed": len(state.rounds) if state else 0,
        "current_round_progress": (
            state.current_round_progress.model_dump() if state and state.current_round_progress else None
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
