"""The research loop: start or continue a knowledge base, run rounds until termination (seed 001, docs/seeds.md).

Why the runner is small: every decision that must survive a crash lives in files. On start it
reads ``research_state.json``; a non-null ``current_round_progress`` means "continue that round,
skipping the steps marked done". A terminated knowledge base re-opens when something new arrived
(a pending user question, a file in ``raw/``, a new topic). Something from the user is never
ignored: when it is waiting and the knowledge base already ran ``max_rounds`` rounds, the cap is
raised by one round and the run says so (docs/loop.md). The single-writer lock is held for the
whole run; ``autodidact ask`` does not need it. Between steps the run honours Ctrl+C and the
fault-injection points of :mod:`autodidact.loop.control`.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import gc
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

from autodidact.config import Settings
from autodidact.errors import BudgetExceeded, InputError, IntegrityError, KBError, TeamBudgetExceeded
from autodidact.kb import KnowledgeBase
from autodidact.loop.control import Control
from autodidact.loop.inbox import pending_questions
from autodidact.loop.progress import NullReporter, Reporter, StepInfo
from autodidact.loop.research_step import step_research
from autodidact.loop.research_summary import write_summary
from autodidact.loop.round_end import step_check, step_compile, step_state
from autodidact.loop.state import (
    ResearchState,
    RoundProgress,
    TerminationCheck,
    TopicExtension,
    load_state,
    new_state,
    save_state,
)
from autodidact.loop.steps import RoundContext, RoundScratch, step_questions, unprocessed_raw_files
from autodidact.loop.termination import conditions_of

if TYPE_CHECKING:
    from autodidact.llm.runtime import Runtime

DEFAULT_MAX_ROUNDS = 20
# The cyclic collector's first threshold while rounds run (the default is 700 container objects).
# A round at 5,000 articles allocates several times what one at 1,000 does (the compile's copies
# of every article, each pass's lists), so at 700 it ran about five times as many collections, and
# each older-generation one walks everything the round still holds: that was a sixth of a round's
# time at 5,000 articles and grew faster than the wiki (docs/architecture.md, "Incremental rounds").
# Most of a round's garbage is freed by reference counting anyway; what waits for the collector is
# at most this many objects.
ROUND_GC_THRESHOLD = 20_000


@dataclass
class RunResult:
    """How a run ended."""

    kb_root: Path
    status: str  # terminated | max_rounds | already_complete | waiting
    rounds: int
    reason: str
    summary: str | None = None
    termination: TerminationCheck | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def stopped_by(self) -> str | None:
        """rules | stalled | max_rounds, from the last round's record (``None`` if it did not stop it)."""
        return self.termination.stopped_by if self.termination is not None else None


# Model calls the compile step may make per question of its round (see step budgets, docs/models.md).
COMPILE_CALLS_PER_QUESTION = 1


def _now() -> str:
    return dt.datetime.now().replace(microsecond=0).isoformat()


def prepare_state(
    kb: KnowledgeBase, topic: str | None, max_rounds: int | None, background: str | None, reporter: Reporter
) -> ResearchState:
    """Create the state, or continue it: a different topic is appended as an extension (seed 001, docs/seeds.md)."""
    state = load_state(kb)
    if state is None:
        if not topic or not topic.strip():
            raise InputError(
                f"{kb.root} has no research yet, so there is nothing to resume",
                hint='give a topic: autodidact research "How do Python generators work?"',
            )
        state = new_state(" ".join(topic.split()), _now(), max_rounds or DEFAULT_MAX_ROUNDS, background)
        save_state(kb, state)
        return state
    changed = False
    if topic and " ".join(topic.split()) != state.topic:
        text = " ".join(topic.split())
        if text not in [e.topic for e in state.topic_extensions]:
            state.topic_extensions.append(TopicExtension(topic=text, round=state.next_round))
            reporter.warning(f"this knowledge base researches {state.topic!r}; {text!r} is appended as an extension")
            changed = True
    if max_rounds is not None and max_rounds != state.max_rounds:
        state.max_rounds = max_rounds
        changed = True
    if background and background != state.background:
        state.background = background
        changed = True
    if changed:
        save_state(kb, state)
    return state


def _new_inputs(ctx: RoundContext) -> list[str]:
    """What re-opens a terminated knowledge base: pending questions, new raw files, a new topic."""
    found = _user_waiting(ctx)
    if any(e.round == ctx.state.next_round for e in ctx.state.topic_extensions):
        found.append("a new topic")
    return found


def _stopped_only_by_cap(state: ResearchState) -> bool:
    """True when the last round ended the research because of ``max_rounds``, not by the rules or a stall."""
    if not state.rounds:
        return False
    last = state.rounds[-1]
    check = last.termination_check
    if check.decision != "terminate":
        return False
    if check.stopped_by is not None:
        return check.stopped_by == "max_rounds"
    previous = state.rounds[-2].termination_check.audit_issues_count if len(state.rounds) > 1 else None
    return conditions_of(check, last.round, state.max_rounds, previous).stopped_by == "max_rounds"


def _user_waiting(ctx: RoundContext) -> list[str]:
    """What the user left for the loop: pending questions and raw files not processed yet."""
    found: list[str] = []
    pending = pending_questions(ctx.kb.user_questions)
    if pending:
        found.append(f"{len(pending)} pending user question(s)")
    new_raw = unprocessed_raw_files(ctx)
    if new_raw:
        found.append(f"{len(new_raw)} new raw file(s)")
    return found


def _asked_too_late(ctx: RoundContext, n: int) -> bool:
    """A user question waits that round ``n`` never asked: it came after the round's questions were
    made (``ask`` while the round ran, or before a resume of a round past its step 1).

    Why: the cap ended the research with the question still pending, and only a second ``research``
    gave it the round the README promises (a newcomer's trial; docs/loop.md, "The user is never
    ignored").
    """
    asked = {q.text.strip() for q in ctx.load_questions(n).questions}
    return any(q.strip() not in asked for q in pending_questions(ctx.kb.user_questions))


def _extend_for_user(ctx: RoundContext) -> bool:
    """At the cap with something from the user waiting: one more round, recorded in the state."""
    waiting = _user_waiting(ctx)
    if not waiting:
        return False
    state = ctx.state
    old, state.max_rounds = state.max_rounds, len(state.rounds) + 1
    message = f"max_rounds raised from {old} to {state.max_rounds}: {' and '.join(waiting)} must not be ignored"
    ctx.reporter.warning(message)
    ctx.warnings.append(message)
    save_state(ctx.kb, state)
    return True


async def run_rounds(ctx: RoundContext) -> RunResult:
    """Rounds until the termination rule, a stall or ``max_rounds`` (each round: the six steps)."""
    kb, state = ctx.kb, ctx.state
    extended = False
    while True:
        if state.current_round_progress is None:
            if state.status == "terminated":
                news = _new_inputs(ctx)
                if _stopped_only_by_cap(state) and len(state.rounds) < state.max_rounds:
                    news.append(f"max_rounds raised to {state.max_rounds}")
                if not news:
                    return _finish(ctx, "already_complete")
                ctx.reporter.warning("re-opening a finished knowledge base: " + ", ".join(news))
            if len(state.rounds) >= state.max_rounds:
                if extended or not _extend_for_user(ctx):
                    state.status = "terminated"
                    save_state(kb, state)
                    return _finish(ctx, "max_rounds")
                extended = True  # at most one extension per run: that round's end applies the cap again
            n = state.next_round
            state.status = "in_progress"
            stale = ctx.scratch_path(n)
            if stale.exists():
                stale.unlink()  # left by an attempt whose round never started in the state
            state.current_round_progress = RoundProgress(round=n)
            save_state(kb, state)
        n = state.current_round_progress.round
        check = await run_round(ctx, n)
        if check.decision == "terminate":
            if not extended and _stopped_only_by_cap(state) and _asked_too_late(ctx, n):
                continue  # re-opens above, and the cap gives the waiting question its round
            return _finish(ctx, "terminated")
        ctx.control.safe_point(f"after round {state.rounds[-1].round}")


def _finish(ctx: RoundContext, status: str) -> RunResult:
    state = ctx.state
    summary = None
    if state.rounds and state.status == "terminated":
        summary = write_summary(ctx.kb, state, ctx.language)
        if state.final_summary != summary:
            state.final_summary = summary
            save_state(ctx.kb, state)
    last = state.rounds[-1].termination_check if state.rounds else None
    reason = last.reason if last else ""
    if status == "max_rounds" and last is not None and last.decision != "terminate":
        reason = f"max_rounds {state.max_rounds} reached"
    return RunResult(ctx.kb.root, status, len(state.rounds), reason, summary, last, list(ctx.warnings))


async def run_round(ctx: RoundContext, n: int) -> TerminationCheck:
    """One round, skipping steps already done (``current_round_progress``)."""
    progress = ctx.state.current_round_progress or RoundProgress(round=n)
    control, reporter = ctx.control, ctx.reporter
    reporter.round_started(n, ctx.state.max_rounds)
    # What is alive now (the parsed wiki, raw/ and the audit's facts, kept in memory across rounds) is
    # long-lived: the cyclic collector need not walk it again in every round. research() unfreezes.
    gc.freeze()

    def begin(step: str) -> None:
        control.safe_point(f"before round {n} step {step}")
        control.point(f"r{n}.{step}.before")
        reporter.step_started(n, step)

    if progress.step1_done:
        reporter.step_skipped(n, "questions")
        rq = ctx.load_questions(n)
    else:
        begin("questions")
        with ctx.runtime.step(f"round {n} questions"):  # each step has its own model budget
            rq = await step_questions(ctx, n)
        ctx.mark(n, "step1_done")
        reporter.step_done(n, "questions", {"questions": len(rq.questions), "overlap": rq.overlap_ratio})
    scratch = _scratch(ctx, n)
    if progress.step2_done:
        reporter.step_skipped(n, "research")
    else:
        begin("research")
        with ctx.runtime.step(f"round {n} research"):
            scratch = await step_research(ctx, n, rq, scratch)
        control.point(f"r{n}.research.written")
        ctx.mark(n, "step2_done")
        reporter.step_done(n, "research", _research_info(ctx, n, scratch))
    if progress.step3_done:
        reporter.step_skipped(n, "compile")
    else:
        begin("compile")
        # The compile's model calls are bounded by the round's questions, not by how many files the
        # person added: past the bound the rest compiles on the offline engine (docs/loop.md).
        bound = COMPILE_CALLS_PER_QUESTION * max(1, len(rq.questions))
        with ctx.runtime.step(f"round {n} compile", max_calls=bound):
            scratch = await step_compile(ctx, n, scratch)
        control.point(f"r{n}.compile.written")
        ctx.mark(n, "step3_done")
        reporter.step_done(n, "compile", {"topics": len(scratch.wiki_topics_updated)})
    if progress.step4_done:
        reporter.step_skipped(n, "check")
    else:
        begin("check")
        with ctx.runtime.step(f"round {n} check"):
            await step_check(ctx, n, rq)
        control.point(f"r{n}.check.written")
        ctx.mark(n, "step4_done")
        reporter.step_done(n, "check", {})
    begin("state")
    check = step_state(ctx, n, rq, scratch)
    control.point(f"r{n}.state.written")
    # StepInfo names the TerminationCheck's fields one for one (loop/progress.py).
    reporter.step_done(n, "state", cast(StepInfo, check.model_dump()))
    return check


def _scratch(ctx: RoundContext, n: int) -> RoundScratch:
    scratch = ctx.load_scratch(n)
    if scratch is None:
        raise IntegrityError(
            f"outputs/rounds/round_{n}_progress.json is missing although step 1 of round {n} is marked done",
            hint=f"set current_round_progress.step1_done to false in {ctx.kb.state_file} and run again",
        )
    return scratch


def _research_info(ctx: RoundContext, n: int, scratch: RoundScratch) -> StepInfo:
    info: StepInfo = {"raw_files": len(scratch.new_raw_files), "dropped": scratch.dropped_claims}
    from autodidact.loop.steps import read_round_evidence

    evidence = read_round_evidence(ctx.evidence_path(n))
    if evidence is not None:
        info.update({"claims": len(evidence.claims), "sources": len(evidence.sources)})
    # What the stall rule and `status` count (new claims, new sources), so the line and the table agree.
    from autodidact.loop.round_end import measure_round

    novelty = measure_round(ctx, n, scratch)
    info.update({"new_claims": novelty.new_claims, "new_sources": novelty.new_sources})
    info["usage"] = ctx.runtime.usage_totals()  # the run so far, for the step's cost line
    return info


async def research(
    kb: KnowledgeBase,
    *,
    topic: str | None,
    runtime: Runtime,
    settings: Settings,
    max_rounds: int | None = None,
    background: str | None = None,
    corpus: list[Path] | None = None,
    reporter: Reporter | None = None,
    control: Control | None = None,
    workers: str | None = None,
) -> RunResult:
    """The main job: ``autodidact research``. Holds the knowledge base's writer lock throughout.

    ``workers``: the team backend's server, whose ``autodidact worker`` processes research each
    round's key questions (docs/team.md, "Research questions")."""
    reporter = reporter or NullReporter()
    control = control or Control(resume_hint=f"resume with: autodidact research --kb {kb.root}")
    with kb.lock(warn=reporter.warning):
        threshold = gc.get_threshold()
        state = prepare_state(kb, topic, max_rounds, background, reporter)
        if corpus:
            from autodidact.sources.ingest import index_corpus

            report = index_corpus(kb.root, corpus)
            reporter.progress(0, corpus_indexed=len(report.added), corpus_unchanged=len(report.unchanged))
            for skipped in report.skipped[:5]:
                reporter.warning(f"corpus: skipped {skipped.source}: {skipped.reason}")
        language = kb.settle_language(state.topic) if state.topic else kb.language(default="en")
        ctx = RoundContext(kb, state, runtime, settings, reporter, control, language, workers=workers)
        resumed = state.current_round_progress.round if state.current_round_progress else None
        reporter.run_started(
            topic=state.topic, kb_root=str(kb.root), resumed_round=resumed, max_rounds=state.max_rounds
        )
        gc.set_threshold(max(threshold[0], ROUND_GC_THRESHOLD), *threshold[1:])
        try:
            result = await run_rounds(ctx)
        except BudgetExceeded as exc:
            team = isinstance(exc, TeamBudgetExceeded)
            caps = "[budget] team_max_cost / team_max_tokens" if team else "--max-cost/--max-tokens"
            raise type(exc)(
                exc.message,
                hint=f"the knowledge base is consistent; raise {caps} and run "
                f"autodidact research --kb {kb.root} to resume",
            ) from None
        except OSError as exc:  # disk full, permissions: every write was atomic, so resume is safe
            where = f" ({exc.filename})" if exc.filename else ""
            raise KBError(
                f"cannot write in the knowledge base: {exc.strerror or exc}{where}",
                hint=f"free disk space or fix permissions, then run autodidact research --kb {kb.root} to resume",
            ) from None
        finally:
            gc.unfreeze()  # run_round froze what was alive at each round's start; the collector may have it back
            gc.set_threshold(*threshold)
    reporter.run_finished(result)
    return result


def research_sync(
    kb: KnowledgeBase,
    *,
    topic: str | None,
    runtime: Runtime,
    settings: Settings,
    max_rounds: int | None = None,
    background: str | None = None,
    corpus: list[Path] | None = None,
    reporter: Reporter | None = None,
    control: Control | None = None,
    workers: str | None = None,
) -> RunResult:
    """:func:`research` (the same arguments) with SIGINT/SIGTERM routed to a stop at the next safe point."""
    control = control or Control(resume_hint=f"resume with: autodidact research --kb {kb.root}")
    restore = control.install_signal_handlers()
    try:
        return asyncio.run(
            research(
                kb,
                topic=topic,
                runtime=runtime,
                settings=settings,
                max_rounds=max_rounds,
                background=background,
                corpus=corpus,
                reporter=reporter,
                control=control,
                workers=workers,
            )
        )
    finally:
        restore()
