"""The six steps of a round (seed 001, docs/seeds.md), each: read files → do the work → write atomically → mark done.

Why this shape: a step that is interrupted before its done-flag is simply run again, so every
step must give the same result when repeated — on the offline engine, byte for byte. Values a
later step needs (the round's date, the user's new raw files, the raw files research wrote, the
wiki topics touched) live in ``outputs/rounds/round_N_progress.json``, written before the flag,
and are *derived from files* wherever possible (e.g. the topics touched are the articles citing
this round's raw files), so a repeated step cannot drift from a clean run.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from autodidact.config import Settings
from autodidact.errors import InputError, IntegrityError
from autodidact.evidence.files import load_evidence
from autodidact.evidence.models import EvidenceFile
from autodidact.kb import KnowledgeBase
from autodidact.loop.control import Control
from autodidact.loop.inbox import pending_questions
from autodidact.loop.progress import Reporter
from autodidact.loop.state import ResearchState, RoundProgress, save_state
from autodidact.questions.generate import generate_questions
from autodidact.questions.models import (
    EntryRef,
    HistoryItem,
    OutlineEntry,
    QuestionerInputs,
    RawDigest,
    RoundQuestions,
)
from autodidact.questions.question_list import render_summary
from autodidact.sources.entry_outline import facet_entries
from autodidact.sources.outline import facet_outline
from autodidact.sources.rawfiles import list_raw_names, parse_raw_file
from autodidact.store import atomic

if TYPE_CHECKING:
    from autodidact.llm.runtime import Runtime

RAW_DIGEST_CHARS = 4000


class RoundScratch(BaseModel):
    """``outputs/rounds/round_N_progress.json``: what the steps of round N hand to each other."""

    round: int
    date: str = Field(description="YYYY-MM-DD of the round's start; raw files and articles use it")
    user_contributed_raw_files: list[str] = Field(default_factory=list)
    # The user's files the topic is not about: searched like a corpus, never compiled whole or
    # asked about (sources/topic_files.py; docs/loop.md, "A person's documents").
    material_raw_files: list[str] = Field(default_factory=list)
    check_report_used: str | None = None
    check_report_warning: str | None = None
    extension_topics: list[str] = Field(default_factory=list)
    new_raw_files: list[str] = Field(default_factory=list)
    evidence: str | None = None
    dropped_claims: int = 0
    lost_questions: list[str] = Field(default_factory=list, description="ids whose research failed (model errors)")
    wiki_topics_updated: list[str] = Field(default_factory=list)


@dataclass
class RoundContext:
    """Everything a step needs; one per run."""

    kb: KnowledgeBase
    state: ResearchState
    runtime: Runtime
    settings: Settings
    reporter: Reporter
    control: Control
    language: str
    warnings: list[str] = field(default_factory=list)
    # The team backend's server when a round's key questions go to workers (``research --workers``,
    # evidence/delegated.py); None: researched in this process
    workers: str | None = None

    def rel(self, path: Path) -> str:
        return path.resolve().relative_to(self.kb.root.resolve()).as_posix()

    def questions_path(self, n: int) -> Path:
        return self.kb.rounds / f"round_{n}_questions.json"

    def evidence_path(self, n: int) -> Path:
        return self.kb.rounds / f"round_{n}_evidence.json"

    def check_path(self, n: int) -> Path:
        return self.kb.rounds / f"round_{n}_check.md"

    def scratch_path(self, n: int) -> Path:
        return self.kb.rounds / f"round_{n}_progress.json"

    def load_scratch(self, n: int) -> RoundScratch | None:
        path = self.scratch_path(n)
        if not path.exists():
            return None
        try:
            return RoundScratch.model_validate_json(path.read_text("utf-8"))
        except ValueError as exc:
            raise IntegrityError(
                f"{self.rel(path)} is damaged: {str(exc).splitlines()[0]}",
                hint=f"delete {self.rel(path)} and run again: round {n} restarts from step 1",
            ) from None

    def save_scratch(self, scratch: RoundScratch) -> None:
        atomic.write_json(self.scratch_path(scratch.round), scratch.model_dump(mode="json"))

    def load_questions(self, n: int) -> RoundQuestions:
        path = self.questions_path(n)
        try:
            return RoundQuestions.model_validate_json(path.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise IntegrityError(
                f"{self.rel(path)} is missing or damaged ({str(exc).splitlines()[0]})",
                hint=f"set current_round_progress.step1_done to false in outputs/research_state.json, delete "
                f"{self.rel(self.scratch_path(n))}, and run again: round {n} restarts from step 1",
            ) from None

    def mark(self, n: int, flag: str) -> None:
        """Record a finished step in ``current_round_progress`` right away."""
        progress = self.state.current_round_progress or RoundProgress(round=n)
        self.state.current_round_progress = progress.model_copy(update={flag: True})
        save_state(self.kb, self.state)


def unprocessed_raw_files(ctx: RoundContext, exclude: set[str] | None = None) -> list[str]:
    """Files in raw/ the state has not processed yet (user contributions, seed 001 (docs/seeds.md) input ②)."""
    seen = set(ctx.state.all_raw_files_processed) | (exclude or set())
    return [name for name in list_raw_names(ctx.kb.raw) if name not in seen]


def previous_check_report(ctx: RoundContext, n: int) -> tuple[str | None, str | None]:
    """Round N−1's check report, or the newest earlier one with a warning (docs/contracts.md §1.2)."""
    if n <= 1 or not ctx.state.rounds:
        return None, None
    by_round = {r.round: r.check_report for r in ctx.state.rounds}
    wanted = by_round.get(n - 1)
    if wanted and (ctx.kb.root / wanted).is_file():
        return wanted, None
    for record in reversed(ctx.state.rounds):
        if record.check_report and (ctx.kb.root / record.check_report).is_file():
            zh = ctx.language == "zh"
            warning = (
                f"⚠️ 使用第 {record.round} 轮审计报告（第 {n - 1} 轮审计缺失）"
                if zh
                else f"⚠️ using the round {record.round} check report (round {n - 1}'s is missing)"
            )
            return record.check_report, warning
    return None, None


QUOTED_EXCERPTS = 12  # last round's research excerpts read for follow-up concepts


def _digest(ctx: RoundContext, name: str) -> RawDigest | None:
    try:
        rf = parse_raw_file(ctx.kb.raw / name)
    except Exception as exc:  # a person's unreadable file must not stop the round
        ctx.reporter.warning(f"raw/{name} could not be read for the questioner: {exc}")
        return None
    return RawDigest(filename=name, title=rf.title, body=rf.body[:RAW_DIGEST_CHARS])


async def step_questions(ctx: RoundContext, n: int) -> RoundQuestions:
    """Step 1: the questioner. The user's questions it took stay in 待处理 until the round's end
    has the audit's verdict on them (:mod:`autodidact.loop.user_answers`)."""
    scratch = ctx.load_scratch(n)
    qpath = ctx.questions_path(n)
    if scratch is not None and qpath.is_file():
        rq = ctx.load_questions(n)  # written by an interrupted attempt of this step: reuse, don't re-ask
    else:
        scratch = RoundScratch(round=n, date=dt.datetime.now(dt.UTC).date().isoformat())
        scratch.user_contributed_raw_files = unprocessed_raw_files(ctx)
        if scratch.user_contributed_raw_files:
            from autodidact.sources.ingest import scan_raw

            scan_raw(ctx.kb)  # snapshot and index what a person dropped into raw/
            scratch.material_raw_files = material_files(ctx, scratch)
            if scratch.material_raw_files:
                ctx.reporter.message(_material_note(len(scratch.material_raw_files), ctx.language))
        scratch.check_report_used, scratch.check_report_warning = previous_check_report(ctx, n)
        scratch.extension_topics = [e.topic for e in ctx.state.topic_extensions if e.round == n]
        inputs = questioner_inputs(ctx, n, scratch)
        rq = await generate_questions(inputs, ctx.runtime)
        ctx.save_scratch(scratch)
        atomic.write_json(qpath, rq.model_dump(mode="json"))
    ctx.control.point(f"r{n}.questions.written")
    if scratch.check_report_warning:
        ctx.reporter.warning(scratch.check_report_warning)
    ctx.reporter.message(
        render_summary(rq, n, ctx.language, written_to=ctx.rel(qpath), warning=scratch.check_report_warning)
    )
    return rq


def material_files(ctx: RoundContext, scratch: RoundScratch) -> list[str]:
    """The user's new files that the research's topics are not about (sources/topic_files.py)."""
    from autodidact.sources.topic_files import files_about

    names = scratch.user_contributed_raw_files
    topics = [ctx.state.topic, *(e.topic for e in ctx.state.topic_extensions)]
    about = set(files_about(ctx.kb.root, ctx.kb.raw, names, topics, "zh" if ctx.language == "zh" else "en"))
    return [name for name in names if name not in about]


def _material_note(count: int, language: str) -> str:
    if language == "zh":
        return (
            f"raw/ 中有 {count} 个新文件与主题无关：只用于检索答案，不单独编成文章"
            "（需要时用 autodidact wiki compile --files 文件名）。"
        )
    return (
        f"{count} new file(s) in raw/ are not about the topic: searched for answers, not compiled into"
        " articles of their own (autodidact wiki compile --files NAME makes one)."
    )


def about_topic_files(scratch: RoundScratch) -> list[str]:
    """The user's new files compiled whole and asked about: those the topic is about."""
    material = set(scratch.material_raw_files)
    return [name for name in scratch.user_contributed_raw_files if name not in material]


def questioner_inputs(ctx: RoundContext, n: int, scratch: RoundScratch) -> QuestionerInputs:
    """Seed 001 step 1's context for the questioner, as plain data."""
    directions: list[str] = []
    gaps: list[str] = []
    missing: list[str] = []
    if scratch.check_report_used:
        from autodidact.wiki.audit.report_parser import parse_check_report

        text = (ctx.kb.root / scratch.check_report_used).read_text("utf-8")
        report = parse_check_report(text, source=scratch.check_report_used)
        directions, gaps, missing = list(report.directions), list(report.gaps), list(report.missing_sources)
    digests = [d for d in (_digest(ctx, name) for name in about_topic_files(scratch)) if d is not None]
    quoted = ctx.state.rounds[-1].new_raw_files if ctx.state.rounds else []
    excerpts = [d for d in (_digest(ctx, name) for name in quoted[:QUOTED_EXCERPTS]) if d is not None]
    language = "zh" if ctx.language == "zh" else "en"
    return QuestionerInputs(
        topic=ctx.state.topic,
        round=n,
        language=language,
        background=ctx.state.background,
        extension_topics=scratch.extension_topics,
        directions=directions,
        gaps=gaps,
        missing_sources=missing,
        check_report=scratch.check_report_used,
        check_report_warning=scratch.check_report_warning,
        user_questions=pending_questions(ctx.kb.user_questions),
        new_raw_files=digests,
        quoted_excerpts=excerpts,
        outline=[
            OutlineEntry(facet=e.facet, heading=e.heading, document=e.document)
            for e in facet_outline(ctx.kb.root, [ctx.state.topic, *scratch.extension_topics], language)
        ],
        entries=[
            EntryRef(facet=e.facet, name=e.name, place=e.place)
            for e in facet_entries(ctx.kb.root, [ctx.state.topic, *scratch.extension_topics], language)
        ],
        history=[HistoryItem(id=h.id, text=h.text) for h in ctx.state.all_questions_ever],
        wiki_dir=str(ctx.kb.wiki),
    )


def read_round_evidence(path: Path) -> EvidenceFile | None:
    """A round's evidence file; None when the round has none (its research found nothing).

    A damaged file is the knowledge base's damage, not a bad argument: an :class:`IntegrityError`
    saying how to recover (the step that writes it runs again once it is gone)."""
    if not path.is_file():
        return None
    try:
        return load_evidence(path)
    except InputError as exc:
        raise IntegrityError(
            f"{path.name} cannot be read ({exc.message})",
            hint="restore the file, or delete it and the round's research step runs again",
        ) from None
