"""Steps 3–6 of a round: wiki compile, wiki check, state update, termination decision.

Why together: each is a short call into the wiki package plus the bookkeeping seed 001 (docs/seeds.md) asks for.
The topics a compile touched are read back from the articles (those holding this round's quotes
or citing its raw files), so a compile repeated after an interruption still reports the same
topics as a clean run. Step 5 and step 6 are one atomic state write: the
round is appended with its ``termination_check`` (the decision is recorded before it is acted on)
and ``current_round_progress`` returns to null in the same write. Just before it, the user's
questions this round asked are settled in ``user_questions.md`` from the round's audit and
evidence (:mod:`autodidact.loop.user_answers`); that move is idempotent and depends only on files,
so a crash between it and the state write resumes to the same inbox and the same decision.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from autodidact.loop.inbox import pending_questions, settle_questions
from autodidact.loop.novelty import RoundNovelty, round_novelty
from autodidact.loop.state import HistoryQuestion, RoundQuestion, RoundRecord, TerminationCheck, save_state
from autodidact.loop.steps import (
    RoundContext,
    RoundScratch,
    about_topic_files,
    read_round_evidence,
    unprocessed_raw_files,
)
from autodidact.loop.termination import decide
from autodidact.loop.user_answers import key_question_ids, user_question_outcomes
from autodidact.questions.candidates import entry_question
from autodidact.questions.models import RoundQuestions
from autodidact.sources.entry_outline import facet_entries
from autodidact.sources.outline import facet_outline
from autodidact.text.keypoints import key_points_question

if TYPE_CHECKING:
    from autodidact.wiki.audit.check import CheckResult
    from autodidact.wiki.audit.report_parser import CheckReport
    from autodidact.wiki.common.articles import Article


def round_files(scratch: RoundScratch) -> list[str]:
    """The round's new raw files plus the user's contributed ones (seed 001, docs/seeds.md)."""
    files = list(scratch.new_raw_files)
    files += [f for f in scratch.user_contributed_raw_files if f not in files]
    return files


async def step_compile(ctx: RoundContext, n: int, scratch: RoundScratch) -> RoundScratch:
    """Step 3: the round's evidence becomes answer blocks; the user's own raw files are compiled whole.

    The research step's raw files are not compiled as files: what the wiki takes from them is what
    the evidence quoted for the round's questions (docs/wiki.md). The topics touched are read back
    from the articles — those holding one of this round's quotes or citing this round's files — so a
    compile repeated after an interruption reports what a clean run reports.
    """
    from autodidact.questions.coverage import cited_groups
    from autodidact.wiki.common.articles import wiki_files
    from autodidact.wiki.compile.compiler import compile_evidence_async, compile_wiki_async

    user_files = about_topic_files(scratch)
    if user_files:
        result = await compile_wiki_async(ctx.kb, user_files, ctx.runtime, today=scratch.date, topic=ctx.state.topic)
        if result.pending_quality:
            ctx.reporter.progress(n, pending_quality=len(result.pending_quality))
    keys: set[str] = set()
    if ctx.evidence_path(n).is_file():
        found = await compile_evidence_async(ctx.kb, n, ctx.runtime, today=scratch.date, topic=ctx.state.topic)
        keys = found.answer_keys
        if found.unmatched_claims or found.off_topic:
            ctx.reporter.progress(n, claims_without_raw_file=found.unmatched_claims, off_topic_quotes=found.off_topic)
        prose = found.prose
        if prose.blocks or prose.dropped or prose.failed:
            ctx.reporter.progress(
                n,
                answers_written=prose.blocks,
                answer_sentences=prose.sentences,
                answer_sentences_dropped=sum(prose.dropped.values()),
                answers_left_to_quotes=prose.failed,
            )
    wanted = set(round_files(scratch))
    # Every article's quote keys are worked out here, also where its sources already tell (no
    # short-circuit): the round that changed an article pays for them, not the next one, which
    # would otherwise work them out for every article a large compile just wrote.
    scratch.wiki_topics_updated = sorted(
        f.article.title
        for f in wiki_files(ctx.kb.wiki)
        if bool(keys & f.derived("quote keys", _quote_keys)) | (not wanted.isdisjoint(f.article.sources))
    )
    # What later steps read from each article (its quote keys above, the cited passages the next
    # questioner weighs its candidates against) is remembered per article content, so it is worked
    # out here, in the round that changed the articles: a round pays for what it changed.
    cited_groups(ctx.kb.wiki)
    ctx.save_scratch(scratch)
    return scratch


def _quote_keys(article: Article) -> frozenset[str]:
    """The duplicate keys of an article's body blocks (which of this round's quotes it holds).

    Worked out once per article content, so this is also where what the next compile's whole-wiki
    steps take from the article is worked out (``compiler.article_tables``): the round that wrote
    the article pays for it."""
    from autodidact.wiki.compile.answers_blocks import quote_key
    from autodidact.wiki.compile.compiler import article_tables

    article_tables(article)
    return frozenset(quote_key(b) for s in article.body_sections() for b in s.blocks)


async def step_check(ctx: RoundContext, n: int, rq: RoundQuestions) -> CheckResult:
    """Step 4: the audit of this round's questions and the whole wiki → round_N_check.md."""
    from autodidact.wiki.audit.check import check_wiki_async

    questions = [q.model_dump(mode="json") for q in rq.questions]
    return await check_wiki_async(ctx.kb, questions, n, ctx.runtime, topic=ctx.state.topic)


def read_check_report(ctx: RoundContext, n: int) -> CheckReport:
    """The parsed ``round_N_check.md`` (the file is the truth, not an in-memory result)."""
    from autodidact.wiki.audit.report_parser import parse_check_report

    path = ctx.check_path(n)
    return parse_check_report(path.read_text("utf-8"), source=ctx.rel(path))


def measure_round(ctx: RoundContext, n: int, scratch: RoundScratch) -> RoundNovelty:
    """What round ``n`` added, from the evidence files of rounds 1…n and the files the user gave.

    A raw file research wrote is a section of a document its evidence cites, so it is no new
    source by itself: one manual page read in three rounds is one source, not "1 new" each round.
    A file the user dropped into raw/ is a source of its own."""
    from autodidact.sources.rawfiles import parse_raw_file

    earlier = [e for k in range(1, n) if (e := read_round_evidence(ctx.evidence_path(k))) is not None]
    sources: list[str] = []
    for name in scratch.user_contributed_raw_files:
        try:
            url = parse_raw_file(ctx.kb.raw / name).url
        except Exception:  # a person's file the reader cannot parse is still a new source
            url = ""
        sources.append(url or f"raw/{name}")
    return round_novelty(earlier, read_round_evidence(ctx.evidence_path(n)), sources)


def step_state(ctx: RoundContext, n: int, rq: RoundQuestions, scratch: RoundScratch) -> TerminationCheck:
    """Steps 5–6: settle the user's questions; append the round with its termination check;
    progress back to null; one state write."""
    state = ctx.state
    report = read_check_report(ctx, n)
    novelty = measure_round(ctx, n, scratch)
    kq_of = key_question_ids(rq, scratch.lost_questions)
    outcomes = user_question_outcomes(rq, report.question_status, novelty, state.rounds, kq_of)
    settle_questions(ctx.kb, outcomes, n)
    ctx.control.point(f"r{n}.state.settled")
    staying = [q.text for q in rq.questions if q.source == "user" and q.text not in outcomes]
    if staying:
        ctx.reporter.warning(
            f"{len(staying)} of your questions stay pending: round {n} found new evidence but did not fully "
            "answer them, so the next round asks them again"
        )
    processed_now = set(scratch.new_raw_files) | set(scratch.user_contributed_raw_files)
    previous = state.rounds[-1].termination_check.audit_issues_count if state.rounds else None
    before = state.rounds[-1].termination_check if state.rounds else None
    check = decide(
        round_n=n,
        max_rounds=state.max_rounds,
        issues=report.audit_issues_count,
        previous_issues=previous,
        pending_user_questions=len(pending_questions(ctx.kb.user_questions)),
        new_raw_files=len(unprocessed_raw_files(ctx, exclude=processed_now)),
        overlap=rq.overlap_ratio,
        new_claims=novelty.new_claims,
        new_sources=novelty.new_sources,
        language=ctx.language,
        previous_empty=before is not None and before.new_claims == 0 and before.new_sources == 0,
        unread_sections=unread_sections(
            ctx, [*(h.text for h in state.all_questions_ever), *(q.text for q in rq.questions)]
        ),
        waiting_questions=rq.waiting_questions,
    )
    record = RoundRecord(
        round=n,
        timestamp=dt.datetime.now().replace(microsecond=0).isoformat(),
        questions=[
            RoundQuestion(
                id=q.id,
                text=q.text,
                layer=q.layer,
                priority=q.priority,
                source=q.source,
                status=report.question_status.get(q.id),
            )
            for q in rq.questions
        ],
        new_raw_files=list(scratch.new_raw_files),
        user_contributed_raw_files=list(scratch.user_contributed_raw_files),
        wiki_topics_updated=list(scratch.wiki_topics_updated),
        check_report=ctx.rel(ctx.check_path(n)),
        termination_check=check,
    )
    state.rounds.append(record)
    known = {h.id for h in state.all_questions_ever}
    state.all_questions_ever += [HistoryQuestion(id=q.id, text=q.text) for q in rq.questions if q.id not in known]
    for name in [*scratch.new_raw_files, *scratch.user_contributed_raw_files]:
        if name not in state.all_raw_files_processed:
            state.all_raw_files_processed.append(name)
    state.current_round_progress = None
    if check.decision == "terminate":
        state.status = "terminated"
    save_state(ctx.kb, state)
    return check


def unread_sections(ctx: RoundContext, asked: list[str]) -> int:
    """The sections the documents give the topic's facets (sources/outline.py) whose key points were
    never asked. Why: while the manual still has on-topic sections nobody read, "nothing new to
    read" does not hold, however few gaps the audit finds (docs/loop.md, "Unread sections")."""
    seen = {" ".join(t.split()).casefold() for t in asked}
    language = "zh" if ctx.language == "zh" else "en"
    topics = [ctx.state.topic, *[e.topic for e in ctx.state.topic_extensions]]
    sections = sum(
        1
        for e in facet_outline(ctx.kb.root, topics, language)
        if key_points_question(e.heading, language, e.document).casefold() not in seen
    )
    # an entry found for a facet and never asked is unread too (sources/entry_outline.py)
    found = facet_entries(ctx.kb.root, topics, language)
    entries = sum(1 for e in found if entry_question(e.name, language, e.place).casefold() not in seen)
    return sections + entries
