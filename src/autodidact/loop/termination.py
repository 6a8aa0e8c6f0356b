"""When to stop researching (seed 001 step 6, docs/seeds.md, docs/contracts.md §1.6; the whole rule is in docs/loop.md).

Why diminishing gaps rather than "fewer than 3": the deeper a knowledge base gets, the fewer gaps
an audit finds, but a diligent auditor can always find three. Stopping when this round's
audit_issues_count is ≤ 60% of the last round's (or both rounds found fewer than 3) captures "no
obvious new value any more" — provided nothing is waiting from the user and the questioner is
mostly repeating itself (overlap > 0.7). ``max_rounds`` ends the loop regardless.

Why a stall rule on top: an auditor that keeps finding the same three gaps never lets the
diminishing clause hold, so a knowledge base whose sources are exhausted ran to its cap. A round
that added no new claim (no quote never seen before) and no new source, while the questioner is
repeating itself (overlap ≥ 0.9) — or two such rounds in a row, whatever they asked — shows that
another round cannot add anything: the run stops as ``stalled``. It never stops that way while
something from the user is waiting — the user's question or file gets its round first.

Everything here is a pure function of numbers, so each clause is unit-tested on its own; the
decision and its reason are recorded in ``termination_check`` before the loop acts on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from autodidact.loop.state import StopKind, TerminationCheck

DIMINISHING_FACTOR = 0.6
LOW_ISSUES = 3
OVERLAP_LIMIT = 0.7
STALL_OVERLAP = 0.9


@dataclass(frozen=True)
class Conditions:
    """The four conditions of §1.6, the stall and the hard cap, each true when it allows termination."""

    diminishing: bool
    no_pending_questions: bool
    no_new_raw_files: bool
    overlap_high: bool
    max_rounds_reached: bool
    stalled: bool = False

    @property
    def all_met(self) -> bool:
        return self.diminishing and self.no_pending_questions and self.no_new_raw_files and self.overlap_high

    @property
    def terminate(self) -> bool:
        return self.all_met or self.stalled or self.max_rounds_reached

    @property
    def stopped_by(self) -> StopKind | None:
        """Which way the loop stops, in this order of precedence; ``None`` when it continues."""
        if self.all_met:
            return "rules"
        if self.stalled:
            return "stalled"
        if self.max_rounds_reached:
            return "max_rounds"
        return None


def diminishing(round_n: int, issues: int, previous: int | None) -> bool:
    """Clause 1: from round 2, issues ≤ 60% of last round's, or both rounds below 3."""
    if round_n < 2 or previous is None:
        return False
    return issues <= DIMINISHING_FACTOR * previous or (issues < LOW_ISSUES and previous < LOW_ISSUES)


def overlap_high(overlap: float | None) -> bool:
    """Clause 4: overlap_ratio > 0.7 (null is not met)."""
    return overlap is not None and overlap > OVERLAP_LIMIT


def stalled(
    *,
    new_claims: int | None,
    new_sources: int | None,
    overlap: float | None,
    pending: int,
    new_raw: int,
    previous_empty: bool = False,
) -> bool:
    """The stall: no new claim, no new source and nothing waiting from the user, while the
    questioner repeats itself (overlap ≥ 0.9) — or for the second round running, whatever it asked.

    Why the second clause: a questioner that works through the framework's templates asks questions
    that differ in words ("What are the limitations of Lock and Event…", "…of Condition/Semaphore…")
    while every one of them lands on sentences already quoted; two rounds that add nothing show the
    sources are exhausted as surely as a repeated question does (docs/loop.md).
    Unknown counts (``None``: a round recorded before the rule existed) are never a stall.
    """
    if new_claims is None or new_sources is None:
        return False
    empty = new_claims == 0 and new_sources == 0 and pending == 0 and new_raw == 0
    repeating = overlap is not None and overlap >= STALL_OVERLAP
    return empty and (repeating or previous_empty)


def evaluate(
    *,
    round_n: int,
    max_rounds: int,
    issues: int,
    previous_issues: int | None,
    pending_user_questions: int,
    new_raw_files: int,
    overlap: float | None,
    new_claims: int | None = None,
    new_sources: int | None = None,
    previous_empty: bool = False,
    unread_sections: int = 0,
    waiting_questions: int = 0,
) -> Conditions:
    """Every clause for this round (``previous_empty``: the round before added no claim and no source).

    A high overlap says the questions ran out only when no new question waited for room
    (``waiting_questions``): a round of re-asked partial questions had stopped three research runs
    before they asked what a facet's examples are (docs/loop.md, "When the loop stops")."""
    return Conditions(
        diminishing=diminishing(round_n, issues, previous_issues),
        no_pending_questions=pending_user_questions == 0,
        no_new_raw_files=new_raw_files == 0 and unread_sections == 0,
        overlap_high=overlap_high(overlap) and waiting_questions == 0,
        max_rounds_reached=round_n >= max_rounds,
        stalled=stalled(
            new_claims=new_claims,
            new_sources=new_sources,
            overlap=overlap,
            pending=pending_user_questions,
            new_raw=new_raw_files,
            previous_empty=previous_empty,
        ),
    )


def conditions_of(check: TerminationCheck, round_n: int, max_rounds: int, previous_issues: int | None) -> Conditions:
    """The clauses as they were for a recorded ``termination_check``."""
    return evaluate(
        round_n=round_n,
        max_rounds=max_rounds,
        issues=check.audit_issues_count,
        previous_issues=previous_issues,
        pending_user_questions=check.pending_user_questions,
        new_raw_files=check.new_raw_files,
        overlap=check.overlap_ratio,
        new_claims=check.new_claims,
        new_sources=check.new_sources,
        unread_sections=check.unread_sections or 0,
        waiting_questions=check.waiting_questions or 0,
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
    new_claims: int | None = None,
    new_sources: int | None = None,
    language: str = "zh",
    previous_empty: bool = False,
    unread_sections: int = 0,
    waiting_questions: int = 0,
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
        new_claims=new_claims,
        new_sources=new_sources,
        previous_empty=previous_empty,
        unread_sections=unread_sections,
        waiting_questions=waiting_questions,
    )
    numbers = _Numbers(
        round_n,
        max_rounds,
        issues,
        previous_issues,
        pending_user_questions,
        new_raw_files,
        overlap,
        unread_sections,
        waiting_questions,
    )
    return TerminationCheck(
        audit_issues_count=issues,
        pending_user_questions=pending_user_questions,
        new_raw_files=new_raw_files,
        overlap_ratio=overlap,
        decision="terminate" if cond.terminate else "continue",
        reason=_reason(cond, numbers, new_claims, new_sources, language == "zh"),
        new_claims=new_claims,
        new_sources=new_sources,
        stopped_by=cond.stopped_by,
        unread_sections=unread_sections,
        waiting_questions=waiting_questions,
    )


@dataclass(frozen=True)
class _Numbers:
    round_n: int
    max_rounds: int
    issues: int
    previous: int | None
    pending: int
    new_raw: int
    overlap: float | None
    unread: int = 0
    waiting: int = 0

    @property
    def ov(self) -> str:
        return "null" if self.overlap is None else f"{self.overlap:.2f}"


def _reason(cond: Conditions, n: _Numbers, new_claims: int | None, new_sources: int | None, zh: bool) -> str:
    """The reason in words; a stopping reason opens with how it stopped (rules / stalled / max_rounds)."""
    sep = "；" if zh else "; "
    if cond.all_met:
        core = (
            f"终止规则全部满足：漏洞边际递减达标（审计问题 {n.issues} 个，上轮 {n.previous} 个），"
            f"无待处理问题与新素材，问题重叠率 {n.ov} > 0.7"
            if zh
            else f"termination rules met: diminishing gaps (audit issues {n.issues}, last round {n.previous}), "
            f"nothing pending from the user, question overlap {n.ov} > 0.7"
        )
        if cond.max_rounds_reached:
            core += "；同时达到最大轮次" if zh else "; max_rounds reached as well"
        return core
    unmet = _unmet(cond, n, zh)
    if cond.stalled:
        if n.overlap is not None and n.overlap >= STALL_OVERLAP:
            core = (
                f"stalled（停滞）：第 {n.round_n} 轮没有新论据（新引文 0 条）也没有新来源，问题重叠率 {n.ov} ≥ 0.9，"
                f"现有来源已无更多可补充"
                if zh
                else f"stalled: round {n.round_n} added no new claim and no new source at question overlap "
                f"{n.ov} ≥ 0.9, so the available sources have nothing more to give"
            )
        else:  # the second empty round running (stalled()'s other clause)
            core = (
                f"stalled（停滞）：第 {n.round_n - 1} 轮和第 {n.round_n} 轮都没有新论据（新引文 0 条）也没有新来源，"
                f"现有来源已无更多可补充"
                if zh
                else f"stalled: rounds {n.round_n - 1} and {n.round_n} added no new claim and no new source, "
                f"so the available sources have nothing more to give"
            )
        if cond.max_rounds_reached:
            core += "；同时达到最大轮次" if zh else "; max_rounds reached as well"
        return core + (f"（规则未满足：{sep.join(unmet)}）" if zh else f" (rules not met: {sep.join(unmet)})")
    if cond.max_rounds_reached:
        return (
            f"达到最大轮次 {n.max_rounds}（规则未满足：{sep.join(unmet)}）"
            if zh
            else f"max_rounds {n.max_rounds} reached (rules not met: {sep.join(unmet)})"
        )
    if new_claims is not None and new_sources is not None:
        unmet.append(
            f"本轮新论据 {new_claims} 条、新来源 {new_sources} 个"
            if zh
            else f"{new_claims} new claims and {new_sources} new sources this round"
        )
    return sep.join(unmet)


def _unmet(cond: Conditions, n: _Numbers, zh: bool) -> list[str]:
    unmet: list[str] = []
    if not cond.diminishing:
        if n.round_n < 2 or n.previous is None:
            unmet.append("第 1 轮无法判断边际递减" if zh else "round 1: diminishing gaps cannot be judged yet")
        else:
            unmet.append(
                f"审计问题 {n.issues} 个，上轮 {n.previous} 个，边际递减条件未满足"
                if zh
                else f"audit issues {n.issues} vs {n.previous} last round: not diminishing enough"
            )
    if not cond.no_pending_questions:
        unmet.append(f"{n.pending} 个待处理用户问题" if zh else f"{n.pending} pending user questions")
    if not cond.no_new_raw_files and n.new_raw:
        unmet.append(f"{n.new_raw} 个用户新增 raw 文件" if zh else f"{n.new_raw} new raw files from the user")
    if not cond.no_new_raw_files and n.unread:
        unmet.append(
            f"文档中还有 {n.unread} 个与主题相关的章节未读" if zh else f"{n.unread} on-topic sections not read yet"
        )
    if not cond.overlap_high and n.waiting and overlap_high(n.overlap):
        unmet.append(
            f"问题重叠率 {n.ov} 超过 0.7，但还有 {n.waiting} 个新问题未问"
            if zh
            else f"question overlap {n.ov} is above 0.7, but {n.waiting} new questions wait to be asked"
        )
    elif not cond.overlap_high:
        unmet.append(f"问题重叠率 {n.ov} 未超过 0.7" if zh else f"question overlap {n.ov} is not above 0.7")
    return unmet
