"""Step 2: research the round's questions with the evidence agent, then write raw files.

Why raw files from the evidence: ``raw/`` is what a person reads and what the wiki cites, and
every source the round's evidence relies on must be there (docs/contracts.md §1.1). A raw file's body is
the section(s) of the stored snapshot that hold the round's quotes — the snapshot's own bytes, so
a wiki statement and an evidence quote point at the same text — never a whole book chapter
(docs/sections.md). Sources that already are raw files (a person's own documents) are not copied. The list of
the round's new raw files is derived from the evidence and ``raw/`` — not from "which write
happened in this attempt" — so an interrupted step repeated gives the same list.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from autodidact.errors import BudgetExceeded, ModelAuthError, ModelError, SourceError
from autodidact.evidence.models import EvidenceFile
from autodidact.loop.steps import RoundContext, RoundScratch, read_round_evidence
from autodidact.progress import NullProgress
from autodidact.questions.models import RoundQuestions
from autodidact.sources.rawfiles import (
    RawFile,
    document_part,
    excerpts_for_quotes,
    list_raw_names,
    raw_files,
    write_raw_file,
)
from autodidact.sources.snapshots import SnapshotStore, is_local_url

if TYPE_CHECKING:
    from autodidact.evidence.agent import GatherResult
    from autodidact.evidence.payload import Payload

QUALITY_TO_RAW = {"primary": "高", "secondary": "中", "tertiary": "低"}
QUALITY_NOTE = {
    "zh": {"primary": "一手来源（原始文档或官方资料）", "secondary": "二手来源", "tertiary": "三手来源（摘要或聚合）"},
    "en": {
        "primary": "primary source (original or official document)",
        "secondary": "secondary source",
        "tertiary": "tertiary source (summary or aggregation)",
    },
}


class _AgentReporter(NullProgress):
    """Relays the agent's progress; its per-question lines double as crash and stop points."""

    def __init__(self, ctx: RoundContext, n: int) -> None:
        self.ctx = ctx
        self.n = n

    def advance(self, done: int, total: int | None = None, label: str = "") -> None:
        """The agent's "k of n key questions answered", as the round's counters."""
        self.ctx.reporter.progress(self.n, key_questions_done=done, key_questions_total=total)

    def message(self, text: str) -> None:
        message = text
        head = re.split("[:：]", message, maxsplit=1)[0]  # "kq3: …" or, in Chinese, "kq3：…"
        if head.startswith("kq") and head[2:].isdigit():
            self.ctx.control.point(f"r{self.n}.research.q{head[2:]}")
            self.ctx.control.safe_point(f"during round {self.n} research (before its evidence was written)")
            self.ctx.reporter.progress(self.n, key_question=head, detail=message)
        else:
            self.ctx.reporter.progress(self.n, detail=message)

    def warning(self, text: str) -> None:
        self.ctx.reporter.warning(text)


def build_payload(ctx: RoundContext, n: int, rq: RoundQuestions) -> Payload:
    """docs/contracts.md §3.4 payload: the round's questions as kq1…, the knowledge base as report_dir."""
    from autodidact.evidence.payload import Payload

    zh = ctx.language == "zh"
    topics = [ctx.state.topic, *[e.topic for e in ctx.state.topic_extensions]]
    return Payload(
        query=ctx.state.topic,
        language="zh" if zh else "en",
        name=f"第 {n} 轮研究" if zh else f"research round {n}",
        description=("；".join(topics) if zh else "; ".join(topics)),
        key_questions=[{"id": f"kq{i}", "text": q.text, "facet": q.facet} for i, q in enumerate(rq.questions, start=1)],
        focus=("围绕原始课题：" if zh else "stay on the original topic: ") + ctx.state.topic,
        context_from_briefing=ctx.state.background or "",
        sources=[
            {"category": "local", "description": "knowledge base raw files and indexed corpora"},
            {"category": "web", "description": "configured web search providers, if any"},
        ],
        depth="moderate",
        report_dir=str(ctx.kb.root),
        dimension_id=f"d{n}",
        mode="initial",
    )


async def step_research(ctx: RoundContext, n: int, rq: RoundQuestions, scratch: RoundScratch) -> RoundScratch:
    """Run the agent (unless this round's evidence is already written), then write raw files."""
    path = ctx.evidence_path(n)
    if not rq.questions:
        ctx.reporter.warning(f"round {n} has no questions; nothing to research")
    elif not path.is_file():
        try:
            result = await _gather(ctx, n, rq, path)
            scratch.dropped_claims = result.dropped
        except ModelError as exc:
            if isinstance(exc, ModelAuthError | BudgetExceeded) or len(rq.questions) < 2:
                raise
            scratch.lost_questions = await _without_failing_questions(ctx, n, rq, path, exc)
        except SourceError as exc:
            # No verifiable evidence for any question: the round goes on (compile + audit) and says so.
            ctx.reporter.warning(f"round {n}: {exc.message}")
    evidence = read_round_evidence(path)
    if evidence is not None:
        scratch.evidence = ctx.rel(path)
        kept = [q for q in rq.questions if q.id not in scratch.lost_questions]
        scratch.new_raw_files = write_raw_files(ctx, n, rq.model_copy(update={"questions": kept}), evidence, scratch)
    ctx.save_scratch(scratch)
    return scratch


async def _gather(ctx: RoundContext, n: int, rq: RoundQuestions, out: Path) -> GatherResult:
    from autodidact.evidence.agent import Delegate, gather

    payload = build_payload(ctx, n, rq)
    delegate: Delegate | None = None
    if ctx.workers is not None:  # each key question a job for the team's workers (docs/team.md)
        from autodidact.evidence.delegated import queue_delegate
        from autodidact.kb import store_id

        batch = f"research:{store_id(ctx.kb.root)}:{out.name}"
        delegate = queue_delegate(
            ctx.workers,
            batch,
            payload,
            ctx.kb.root,
            out,
            ctx.settings.llm.model,
            say=lambda line: ctx.reporter.progress(n, detail=line),
        )
    return await gather(
        payload,
        runtime=ctx.runtime,
        settings=ctx.settings,
        kb_root=ctx.kb.root,
        out=out,
        reporter=_AgentReporter(ctx, n),
        delegate=delegate,
    )


async def _without_failing_questions(
    ctx: RoundContext, n: int, rq: RoundQuestions, path: Path, error: ModelError
) -> list[str]:
    """A model failure on some question must not lose the round: find the failing questions one
    by one (replies for the others come from the call cache), then research the rest together.
    Returns the ids of the questions lost; raises the original error if every question fails."""
    ctx.reporter.warning(f"round {n}: research failed ({error.message}); retrying question by question")
    probe_dir = ctx.kb.internal / "probe"
    lost: list[str] = []
    for q in rq.questions:
        try:
            await _gather(ctx, n, rq.model_copy(update={"questions": [q]}), probe_dir / f"round_{n}_{q.id}.json")
        except ModelError as exc:
            if isinstance(exc, ModelAuthError | BudgetExceeded):
                raise
            lost.append(q.id)
            ctx.reporter.warning(f"round {n}: lost question {q.id} ({q.text}): {exc.message}")
        except SourceError:
            pass  # no evidence is not a failure; the joint run records it as a gap
    kept = [q for q in rq.questions if q.id not in lost]
    if not kept:
        raise error
    try:
        await _gather(ctx, n, rq.model_copy(update={"questions": kept}), path)
    except SourceError as exc:
        ctx.reporter.warning(f"round {n}: {exc.message}")
    return lost


def write_raw_files(
    ctx: RoundContext, n: int, rq: RoundQuestions, evidence: EvidenceFile, scratch: RoundScratch
) -> list[str]:
    """A raw file per section of a cited source that holds the round's quotes; returns the new ones.

    The body is the section's text (``> 片段`` gives its offsets in the snapshot), not the whole
    document, so the wiki reads what answers the questions (docs/contracts.md §1.4, docs/sections.md).
    Every quote of the evidence is in the body of a raw file with its source's URL. An excerpt
    already in raw/ (same URL, same text) is not written again; another section of a source read
    before is a new raw file, so its evidence reaches the wiki. Sources that already are raw
    files (a person's own documents) are not copied.
    """
    kq_to_qid = {f"kq{i}": q.id for i, q in enumerate(rq.questions, start=1)}
    quotes: dict[str, dict[str, list[tuple[str, str | None]]]] = {}  # source id → ref → (quote, qid)
    for claim in evidence.claims:
        qid = kq_to_qid.get(claim.answers_key_question or "")
        for ev in claim.evidence:
            if ev.snapshot_ref and ev.snippet.strip():
                quotes.setdefault(ev.source_id, {}).setdefault(ev.snapshot_ref, []).append((ev.snippet, qid))
    store = SnapshotStore.for_folder(ctx.kb.root)
    lang = "zh" if ctx.language == "zh" else "en"
    processed = set(ctx.state.all_raw_files_processed) | set(scratch.user_contributed_raw_files)
    have = raw_excerpts_by_text(ctx)
    new: list[str] = []
    count = 0
    for src in sorted(evidence.sources, key=lambda s: s.id):
        url = src.url
        if is_local_url(url) and "/raw/" in url:
            continue  # already a raw file (a person's document)
        sid, quality = src.id, src.quality
        for ref in sorted(quotes.get(sid, {})):
            text = store.read(ref, url)
            doc_title = document_part(src.title or url, text)
            for ex in excerpts_for_quotes(text, doc_title, quotes[sid][ref]):
                body = text[ex.start : ex.end]
                known = have.get((url, " ".join(body.split())))
                if known is not None and known in processed:
                    continue  # an earlier round wrote this very excerpt: raw/ already has it
                rf = RawFile(
                    filename="",
                    title=ex.title,
                    url=url,
                    fetched_date=scratch.date,
                    question_ids=sorted(ex.question_ids, key=_qid_order),
                    quality=QUALITY_TO_RAW.get(quality, "待评估"),
                    quality_note=QUALITY_NOTE[lang].get(quality, ""),
                    snapshot_ref=ref,
                    body=body,
                    excerpt=(ex.start, ex.end),
                    language=lang,
                )
                written, _ = write_raw_file(ctx.kb.raw, rf, date=scratch.date, slug=ex.section or doc_title)
                have.setdefault((url, " ".join(body.split())), written.name)
                count += 1
                ctx.control.point(f"r{n}.research.raw{count}")
                if written.name not in processed and written.name not in new:
                    new.append(written.name)
    return sorted(new)


# raw file path → (the parsed file it was worked out from, its (URL, collapsed body) key). The
# reader hands out the same RawFile object while the file's content is unchanged, so an entry whose
# object is the one read now is that content's key; one entry per file.
_EXCERPT_KEYS: dict[str, tuple[RawFile, tuple[str, str]]] = {}
_EXCERPT_LIMIT = 200_000  # files remembered before the memory starts over (as store/filememo.py)


def raw_excerpts_by_text(ctx: RoundContext) -> dict[tuple[str, str], str]:
    """(URL, whitespace-collapsed body) → raw file name, for the header-carrying files in raw/.

    Each file's key is worked out once per content (collapsing a body's whitespace is what cost
    time, for every file of raw/ in every round)."""
    out: dict[tuple[str, str], str] = {}
    folder = os.path.join(os.fspath(ctx.kb.raw), "")
    # List names never start with "." (rawfiles.list_raw_names), so the suffix is what splitext gives.
    names = [n for n in list_raw_names(ctx.kb.raw) if n.lower().endswith((".md", ".txt", ".markdown"))]
    # Parsed once per content, and only what changed since the last pass is looked at: raw/ grows
    # with the knowledge base. A file that cannot be read or parsed is left out.
    for rf in raw_files(ctx.kb.raw, names, tag="excerpt keys"):
        name = rf.filename
        path = folder + name
        hit = _EXCERPT_KEYS.get(path)
        if hit is not None and hit[0] is rf:
            key = hit[1]
        else:
            key = (rf.url, " ".join(rf.body.split()))
            if len(_EXCERPT_KEYS) >= _EXCERPT_LIMIT:
                _EXCERPT_KEYS.clear()
            _EXCERPT_KEYS[path] = (rf, key)
        out.setdefault(key, name)
    return out


def _qid_order(qid: str) -> tuple[int, int]:
    try:
        r, q = qid[1:].split("q", 1)
        return int(r), int(q)
    except ValueError:
        return (0, 0)
