"""``wiki check``: the audit that drives the loop, written to ``outputs/rounds/round_N_check.md``.

Why this shape: the report is read by people and by the program (the questioner starts from its
directions; termination counts its gaps and partial answers), so it is rendered in exactly the
structure of docs/contracts.md §1.5 and then parsed back with :mod:`report_parser` before it is returned —
the counts the loop sees are the counts a reader sees. Phase 1 answers each question from a few
retrieved sections (one task call per question; a section written for the question is preferred)
and holds every verdict to the key-term rule (:func:`check_task.honest_verdict`); phase 2 is
deterministic (:mod:`article_findings`). The rules: docs/audit.md.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from autodidact.errors import InputError
from autodidact.kb import KnowledgeBase
from autodidact.sources.rawfiles import list_raw_names
from autodidact.store import atomic
from autodidact.wiki.audit.article_findings import (
    CONTRADICTIONS,
    GAPS,
    MISSING,
    STRUCTURE,
    Finding,
    all_findings,
    corpus_part,
)
from autodidact.wiki.audit.check_task import (
    PASSAGE_CHARS,
    AnswerQuestionTask,
    PassageIn,
    QuestionAnswer,
    QuestionInputs,
)
from autodidact.wiki.audit.findings_cache import cached_facts
from autodidact.wiki.audit.report_parser import CheckReport, parse_check_report
from autodidact.wiki.audit.retrieval import WikiIndex, article_units, keep_index, wiki_index
from autodidact.wiki.common import topics
from autodidact.wiki.common.aio import run_blocking
from autodidact.wiki.common.articles import wiki_files
from autodidact.wiki.common.question_frame import key_terms

if TYPE_CHECKING:
    from autodidact.llm.runtime import Runtime

TOP_K = 5
MAX_DIRECTIONS = 8
SECTION_TITLES = [
    ("coverage", "一、问题覆盖情况"),
    (GAPS, "二、知识漏洞"),
    (CONTRADICTIONS, "三、矛盾"),
    (MISSING, "四、来源缺失"),
    (STRUCTURE, "五、结构问题"),
]
# An English knowledge base's report reads in English; report_parser.py reads both.
SECTION_TITLES_EN = {
    "coverage": "1. Question coverage",
    GAPS: "2. Knowledge gaps",
    CONTRADICTIONS: "3. Contradictions",
    MISSING: "4. Missing sources",
    STRUCTURE: "5. Structural issues",
}


@dataclass
class QuestionResult:
    qid: str
    question: str
    verdict: QuestionAnswer


@dataclass
class CheckResult:
    """The written report's path, its parsed form, and the raw material behind it."""

    path: Path
    report: CheckReport
    questions: list[QuestionResult] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def normalize_questions(questions: Sequence[object] | None) -> list[tuple[str, str]]:
    """``(id, text)`` pairs from question dicts (``text`` or ``question``) or plain strings."""
    out: list[tuple[str, str]] = []
    for n, item in enumerate(questions or [], start=1):
        if isinstance(item, str):
            qid, text = f"q{n}", item
        elif isinstance(item, dict):
            qid = str(item.get("id") or f"q{n}")
            text = item.get("text") or item.get("question") or ""
        else:
            raise InputError(
                f"question #{n} is neither text nor an object with 'text'",
                hint="each question is a string or an object with a 'text' field (docs/contracts.md §1.3)",
            )
        text = " ".join(str(text).split())
        if text:
            out.append((qid, text))
    return out


def check_wiki(
    kb: KnowledgeBase,
    questions: Sequence[object] | None,
    round_n: int,
    runtime: Runtime | None = None,
    *,
    topic: str | None = None,
) -> CheckResult:
    """Synchronous :func:`check_wiki_async` (not inside a running event loop)."""
    return run_blocking(lambda: check_wiki_async(kb, questions, round_n, runtime, topic=topic))


def research_topic(kb: KnowledgeBase) -> str | None:
    """The topic recorded in ``research_state.json``, if any."""
    return topics.research_topic(kb.root)


async def answer_questions(
    kb: KnowledgeBase,
    pairs: list[tuple[str, str]],
    runtime: Runtime,
    lang: str,
    index: WikiIndex,
    topic: str | None = None,
) -> list[QuestionResult]:
    """Phase 1: retrieve, then one task call per question (concurrently; the runtime bounds it)."""
    task = AnswerQuestionTask()
    subject = topics.topic_subject(topic) if topic else ""

    async def one(qid: str, question: str) -> QuestionResult:
        found = index.search(question, k=TOP_K, terms=key_terms(question) or None, heading=question)
        passages = [
            PassageIn(title=p.title, file=f"wiki/{p.stem}.md", heading=p.heading, text=p.text[:PASSAGE_CHARS])
            for p in found
        ]
        inputs = QuestionInputs(qid=qid, question=question, lang=lang, passages=passages, subject=subject)
        return QuestionResult(qid, question, await runtime.run(task, inputs))

    return list(await asyncio.gather(*(one(qid, q) for qid, q in pairs)))


async def check_wiki_async(
    kb: KnowledgeBase,
    questions: Sequence[object] | None,
    round_n: int,
    runtime: Runtime | None = None,
    *,
    topic: str | None = None,
) -> CheckResult:
    """Audit the wiki and write ``outputs/rounds/round_{round_n}_check.md``."""
    if round_n < 0:
        raise InputError(f"--round {round_n} is negative", hint="rounds count from 1")
    from autodidact.llm.runtime import or_offline

    runtime = or_offline(runtime)
    lang = kb.language()
    files = wiki_files(kb.wiki)  # parsed once per content (wiki/common/articles.py)
    articles = [f.article for f in files]  # shared: read, never edited
    pairs = normalize_questions(questions)
    topic = topic or research_topic(kb)
    if pairs:
        folder = str(kb.wiki.resolve())
        indexed = [(f.name, f.digest, f.article, f.derived("index units", article_units)) for f in files]
        index = wiki_index(folder, indexed)
        results = await answer_questions(kb, pairs, runtime, lang, index, topic)
        keep_index(folder, index)  # the next audit takes out and puts back only the articles that changed
    else:
        results = []
    index_path = kb.wiki / "INDEX.md"
    index_text = index_path.read_text("utf-8") if index_path.is_file() else None
    raw_names = set(list_raw_names(kb.raw))
    facts = cached_facts(kb.internal, files, lang, topic)  # per article, by content hash (findings_cache.py)
    findings = all_findings(
        articles,
        raw_names,
        index_text,
        topic,
        lang,
        facts,
        corpus_parts=lambda: [f.derived("corpus part", corpus_part) for f in files],
    )
    text = render_report(round_n, results, findings, lang)
    path = kb.rounds / f"round_{round_n}_check.md"
    atomic.write_text(path, text)
    report = parse_check_report(text, source=str(path.name))
    return CheckResult(path=path, report=report, questions=results, findings=findings)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def directions(results: list[QuestionResult], findings: list[Finding], lang: str) -> list[str]:
    """Next-round directions, most important first: partial gaps, unexplained concepts, framework
    subtopics, unsupported conclusions, open questions, contradictions, missing sources."""
    zh = lang == "zh"
    ranked: list[tuple[int, int, int, str]] = []
    for n, res in enumerate(results):
        if res.verdict.status == "partial":
            gap = _one_line(res.verdict.gap)
            text = (
                f"{res.question}（尚缺：{gap}）"
                if zh and gap
                else f"{res.question} (missing: {gap})"
                if gap
                else res.question
            )
            ranked.append((0, 0, n, text))
        elif res.verdict.status == "open":
            ranked.append((5, 0, n, res.question))
    for n, finding in enumerate(findings):
        if finding.direction:
            ranked.append((finding.priority, -finding.weight, n, _one_line(finding.direction)))
    out: list[str] = []
    for _, _, _, text in sorted(ranked):
        if text not in out:
            out.append(text)
        if len(out) == MAX_DIRECTIONS:
            break
    return out


def render_report(round_n: int, results: list[QuestionResult], findings: list[Finding], lang: str) -> str:
    """The report in the structure of docs/contracts.md §1.5."""
    zh = lang == "zh"
    answer_label, gap_label = ("回答：", "缺口：") if zh else ("answer: ", "gap: ")
    lines = [f"# 知识审计报告（第 {round_n} 轮）" if zh else f"# Knowledge audit report (round {round_n})", ""]
    for key, title in SECTION_TITLES:
        lines += [f"## {title if zh else SECTION_TITLES_EN[key]}", ""]
        items: list[str] = []
        if key == "coverage":
            for res in results:
                v = res.verdict
                items.append(f"- **{res.qid}** [{v.status}] {_one_line(res.question)}")
                if v.status == "partial" and v.gap.strip():
                    items.append(f"  - {gap_label}{_one_line(v.gap)}")
                if v.status != "open" and v.answer.strip():
                    items.append(f"  - {answer_label}{_one_line(v.answer)}")
        else:
            items = [f"- {_one_line(f.text)}" for f in findings if f.section == key]
        lines += items or ["无" if zh else "none"]
        lines.append("")
    count = {s: sum(1 for f in findings if f.section == s) for s in (GAPS, CONTRADICTIONS, MISSING)}
    statuses = [r.verdict.status for r in results]
    labels = ("审计摘要", "知识漏洞：", "矛盾：", "来源缺失：", "建议下一轮重点方向：")
    if not zh:
        labels = (
            "Audit summary",
            "knowledge gaps: ",
            "contradictions: ",
            "missing sources: ",
            "next-round directions: ",
        )
    lines += [
        f"## {labels[0]}",
        "",
        f"- resolved: {statuses.count('resolved')} / partial: {statuses.count('partial')} / "
        f"open: {statuses.count('open')}",
        f"- {labels[1]}{count[GAPS]}",
        f"- {labels[2]}{count[CONTRADICTIONS]}",
        f"- {labels[3]}{count[MISSING]}",
        f"- {labels[4]}{json.dumps(directions(results, findings, lang), ensure_ascii=False)}",
    ]
    return "\n".join(lines) + "\n"
