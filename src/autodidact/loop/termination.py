"""When to stop researching (seed 001 step 6, CONTRACTS §1.6).

Why diminishing gaps rather than "fewer than 3": the deeper a knowledge base gets, the fewer gaps
an audit finds, but a diligent auditor can always find three. Stopping when this round's
audit_issues_count is ≤ 60% of the last round's (or both rounds found fewer than 3) captures "no
obvious new value any more" — provided nothing is waiting from the user and the questioner is
mostly repeating itself (overlap > 0.7). ``max_rounds`` ends the loop regardless.

Everything here is a pure function of numbers, so each clause is unit-tested on its own; the
decision and its reason are recorded in ``termination_check`` before the loop acts on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from autodidact.loop.state import TerminationCheck

DIMINISHING_FACTOR = 0.6
LOW_ISSUES = 3
OVERLAP_LIMIT = 0.7


@dataclass(frozen=True)
class Conditions:
    """The four conditions of §1.6 and the hard cap, each true when it allows termination."""

    diminishing: bool
    no_pending_questions: bool
    no_new_raw_files: bool
    overlap_high: bool
    max_rounds_reached: bool

    @property
    def all_met(self) -> bool:
        return self.diminishing and self.no_pending_questions and self.no_new_raw_files and self.overlap_high


def diminishing(round_n: int, issues: int, previous: int | None) -> bool:
    """Clause 1: from round 2, issues ≤ 60% of last round's, or both rounds below 3."""
    if round_n < 2 or previous is None:
        return False
    return issues <= DIMINISHING_FACTOR * previous or (issues < LOW_ISSUES and previous < LOW_ISSUES)


def overlap_high(overlap: float | None) -> bool:
    """Clause 4: overlap_ratio > 0.7 (null is not met)."""
    return overlap is not None and overlap > OVERLAP_LIMIT


def evaluate(
    *,
    round_n: int,
    max_rounds: int,
    issues: int,
    previous_issues: int | None,
    pending_user_questions: int,
    new_raw_files: int,
    overlap: float | None,
) -> Conditions:
    """Every clause for this round."""
    return Conditions(
        diminishing=diminishing(round_n, issues, previous_issues),
        no_pending_questions=pending_user_questions == 0,
        no_new_raw_files=new_raw_files == 0,
        overlap_high=overlap_high(overlap),
        max_rounds_reached=round_n >= max_rounds,
    )


def decide(
    *,
    round_n: int,
    max_rounds: int,
    issues: int,
    previous_issues: int | None,
    pending_user_questions: int,
    new_raw_files: int,
    overlap: float | None,
    language: str = "zh",
) -> TerminationCheck:
    """The ``termination_check`` record: the numbers, the decision, and the reason in words."""
    cond = evaluate(
        round_n=round_n,
        max_rounds=max_rounds,
        issues=issues,
        previous_issues=previous_issues,
        pending_user_questions=pending_user_questions,
        new_raw_files=new_raw_files,
        overlap=overlap,
    )
    terminate = cond.all_met or cond.max_rounds_reached
    reason = _reason(
        cond, round_n, max_rounds, issues, previous_issues, pending_user_questions, new_raw_files, overlap, language
    )
    return TerminationCheck(
        audit_issues_count=issues,
        pending_user_questions=pending_user_questions,
        new_raw_files=new_raw_files,
        overlap_ratio=overlap,
        decision="terminate" if terminate else "continue",
        reason=reason,
    )


def _reason(
    cond: Conditions,
    round_n: int,
    max_rounds: int,
    issues: int,
    previous: int | None,
    pending: int,
    new_raw: int,
    overlap: float | None,
    language: str,
) -> str:
    zh = language == "zh"
    ov = "null" if overlap is None else f"{overlap:.2f}"
    if cond.all_met:
        core = (
            f"漏洞边际递减达标（audit_issues_count {issues}，上轮 {previous}），"
            f"无待处理问题与新素材，问题重叠率 {ov} > 0.7"
            if zh
            else f"diminishing gaps (audit_issues_count {issues}, last round {previous}), nothing pending from the "
            f"user, question overlap {ov} > 0.7"
        )
        if cond.max_rounds_reached:
            core += "；同时达到最大轮次" if zh else "; max_rounds reached as well"
        return core
    if cond.max_rounds_reached:
        return f"达到最大轮次 {max_rounds}" if zh else f"max_rounds {max_rounds} reached"
    unmet: list[str] = []
    if not cond.diminishing:
        if round_n < 2 or previous is None:
            unmet.append("第 1 轮无法判断边际递减" if zh else "round 1: diminishing gaps cannot be judged yet")
        else:
            unmet.append(
                f"audit_issues_count {issues}，上轮 {previous}，边际递减条件未满足"
                if zh
                else f"audit_issues_count {issues} vs {previous} last round: not diminishing enough"
            )
    if not cond.no_pending_questions:
        unmet.append(f"{pending} 个待处理用户问题" if zh else f"{pending} pending user questions")
    if not cond.no_new_raw_files:
        unmet.append(f"{new_raw} 个用户新增 raw 文件" if zh else f"{new_raw} new raw files from the user")
    if not cond.overlap_high:
        unmet.append(f"问题重叠率 {ov} 未超过 0.7" if zh else f"question overlap {ov} is not above 0.7")
    return ("；" if zh else "; ").join(unmet)
