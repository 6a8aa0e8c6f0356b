"""``outputs/research_summary.md``: the closing summary of seed 001's 收尾流程.

Why extractive: the summary must be true to the wiki, so its findings are the opening sentences
of the best-sourced articles, each with the article it comes from; the open questions come from
the rounds' recorded statuses; the topic graph is the articles' ``[[links]]``. Everything is read
from files, so the summary is the same however the run got there.
"""

from __future__ import annotations

import re

from autodidact.kb import KnowledgeBase
from autodidact.loop.state import ResearchState
from autodidact.sources.rawfiles import list_raw_files
from autodidact.store import atomic

MAX_FINDINGS = 5
MIN_FINDINGS = 3
_LINK = re.compile(r"\[\[([^\]|#]+)(?:[|#][^\]]*)?\]\]")
_SENTENCE_END = re.compile(r"(?<=[。！？!?])|(?<=\.)\s")


_CITE = re.compile(r"\s*[（(]\s*(?:source|sources|来源)\s*[:：][^)）]*[)）]", re.I)
_BOILERPLATE = re.compile(r"^(?:This article collects|本文(?:汇总|整理|收集))", re.I)


def _finding(summary: str, limit: int = 2) -> str:
    """The summary's first informative sentences (a compiler's "this article collects…" skipped)."""
    text = " ".join(_CITE.sub("", summary).split())
    pieces = [p.strip() for p in _SENTENCE_END.split(text) if p and p.strip()]
    pieces = [p for p in pieces if not _BOILERPLATE.match(p)]
    return " ".join(pieces[:limit])


def render_summary(kb: KnowledgeBase, state: ResearchState, language: str) -> str:
    """The summary text (seed 001 format; English knowledge bases get the same structure in English)."""
    from autodidact.wiki.articles import load_wiki

    zh = language == "zh"
    articles = load_wiki(kb.wiki)
    raw_count = len(list_raw_files(kb.raw))
    no_round = "尚未完成任何一轮" if zh else "no round yet"
    reason = state.rounds[-1].termination_check.reason if state.rounds else no_round
    topics = [state.topic, *[e.topic for e in state.topic_extensions]]
    lines = [f"# 研究摘要：{state.topic}" if zh else f"# Research summary: {state.topic}", ""]
    lines += ["## 研究概况" if zh else "## Overview"]
    if zh:
        lines += [
            f"- 研究轮次：{len(state.rounds)} 轮",
            f"- 检索文章：{raw_count} 篇（raw/）",
            f"- 知识主题：{len(articles)} 个（wiki/）",
            f"- 终止原因：{reason}",
        ]
        if len(topics) > 1:
            lines.append(f"- 扩展课题：{'；'.join(topics[1:])}")
    else:
        lines += [
            f"- Rounds: {len(state.rounds)}",
            f"- Sources: {raw_count} (raw/)",
            f"- Topics: {len(articles)} (wiki/)",
            f"- Why it stopped: {reason}",
        ]
        if len(topics) > 1:
            lines.append(f"- Extended topics: {'; '.join(topics[1:])}")
    lines += ["", "## 核心发现" if zh else "## Core findings", ""]
    topic_words = set(re.findall(r"\w+", " ".join(topics).lower()))
    ranked = sorted(
        articles,
        key=lambda a: (not (set(re.findall(r"\w+", a.title.lower())) & topic_words), -len(a.sources), a.title),
    )
    findings = [(a, s) for a in ranked if (s := _finding(a.summary))][:MAX_FINDINGS]
    if not findings:
        lines.append("（wiki 中尚无可提炼的内容）" if zh else "(the wiki has nothing to summarise yet)")
    for i, (art, sentence) in enumerate(findings, start=1):
        where = f"wiki/{art.stem}.md"
        see = f"（见 {where}）" if zh else f" (see {where})"
        lines.append(f"{i}. **{art.title}**{'：' if zh else ': '}{sentence}{see}")
    if 0 < len(findings) < MIN_FINDINGS:
        lines.append("")
        lines.append("（wiki 内容较少，核心发现不足 3 条）" if zh else "(the wiki is small: fewer than 3 findings)")
    lines += ["", "## 未解决问题" if zh else "## Open questions", ""]
    latest: dict[str, tuple[str, str | None]] = {}  # by question text: a re-asked question's last status
    for record in state.rounds:
        for q in record.questions:
            key = " ".join(q.text.split()).lower()
            latest.pop(key, None)
            latest[key] = (q.id, q.status)
    texts = {" ".join(q.text.split()).lower(): q.text for r in state.rounds for q in r.questions}
    open_items = [(qid, texts[key]) for key, (qid, status) in latest.items() if status == "open"]
    sep = "：" if zh else ": "
    lines += [f"- {qid}{sep}{text}" for qid, text in open_items] or ["- 无" if zh else "- none"]
    lines += ["", "## 知识图谱" if zh else "## Topic graph", ""]
    titles = {a.stem: a.title for a in articles}
    for art in sorted(articles, key=lambda a: a.title):
        links = []
        for target in _LINK.findall(art.text()):
            target = titles.get(target.strip(), target.strip())  # [[stem|Title]] shows the title
            if target not in links and target != art.title and target != art.stem:
                links.append(target)
        arrow = "、".join(f"[[{t}]]" for t in links) if zh else ", ".join(f"[[{t}]]" for t in links)
        lines.append(f"- [[{titles[art.stem]}]] → {arrow}" if links else f"- [[{titles[art.stem]}]]")
    if not articles:
        lines.append("- 无" if zh else "- none")
    return "\n".join(lines) + "\n"


def write_summary(kb: KnowledgeBase, state: ResearchState, language: str) -> str:
    """Write the summary atomically; returns its path relative to the knowledge base."""
    atomic.write_text(kb.summary_file, render_summary(kb, state, language))
    return "outputs/research_summary.md"
