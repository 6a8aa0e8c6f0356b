"""The per-article compile task: merge new material into one article's current text.

Why a task with a bounded input: the model sees one article (or the chunk of it the material
touches) plus the new statements selected for it — never the whole wiki — so a round's cost grows
with the new material, not with the wiki (docs/architecture.md principle 6). The offline twin does the
same job deterministically: dedupe, append to the matching section, order by quality → date →
relevance (docs/contracts.md §1.4 merge precedence), mark conflicting numbers with ``> ⚠️ 待核实:`` and
regenerate the extractive summary.
"""

from __future__ import annotations

import json
import re

from pydantic import BaseModel, Field

from autodidact.llm.tasks import Message, data_block
from autodidact.text.sentences import join_sentences
from autodidact.wiki.common.articles import DEFAULT_SECTION
from autodidact.wiki.common.markdown import (
    MARKER_PREFIX,
    MARKER_RE,
    citations,
    cite,
    is_auto_summary,
    normalize_key,
    numeric_conflict,
    split_sentences,
    strip_bullet,
    strip_citations,
    strip_emphasis,
    summary_worthy,
    tokens,
)

QUALITY_RANK = {"高": 0, "中": 1, "待评估": 1, "低": 2}


class Material(BaseModel):
    """One statement quoted from a raw file, selected for this article."""

    source: str = Field(description="raw file name to cite")
    quality: str = Field(description="质量评分 of the raw file: 高, 中, 低 or 待评估")
    date: str = Field(default="", description="fetch date of the raw file (YYYY-MM-DD)")
    heading: str = Field(default="", description="heading of the source section it came from ('' = none)")
    text: str = Field(description="the statement, quoted from the source")


class SectionText(BaseModel):
    """An H2 section: heading and blocks (bullet statements, paragraphs, ⚠️ marker lines)."""

    heading: str
    blocks: list[str] = Field(default_factory=list)


class SourceMeta(BaseModel):
    quality: str = "中"
    date: str = ""


class ArticleInputs(BaseModel):
    """What the compile task gets: the article's current text (or its relevant chunk) and new material."""

    title: str
    lang: str
    summary: str = ""
    sections: list[SectionText] = Field(default_factory=list)
    other_headings: list[str] = Field(default_factory=list, description="sections not sent; kept unchanged")
    material: list[Material] = Field(default_factory=list)
    source_meta: dict[str, SourceMeta] = Field(default_factory=dict)
    source_count: int = 0


class ArticleDraft(BaseModel):
    """The updated summary and the updated versions of the sections that were sent (plus new ones)."""

    # Empty means "keep the current summary" (the merge writes one when none exists), so not required.
    summary: str = Field("", description="2-4 sentences, each ending with its citation")
    sections: list[SectionText] = Field(description="updated sections; statements cite their raw files")


_Group = tuple[str, list[str]]


def _rank(block: str, meta: dict[str, SourceMeta]) -> tuple[int, str]:
    names = citations(block)
    if not names:
        return 1, ""
    best = min(QUALITY_RANK.get(meta.get(n, SourceMeta()).quality, 1) for n in names)
    newest = max(meta.get(n, SourceMeta()).date for n in names)
    return best, newest


def _groups(blocks: list[str]) -> list[_Group]:
    """Statements with the ⚠️ markers that follow them."""
    groups: list[_Group] = []
    for blk in blocks:
        if MARKER_RE.match(blk) and groups:
            groups[-1][1].append(blk)
        else:
            groups.append((blk, []))
    return groups


def _order(groups: list[_Group], meta: dict[str, SourceMeta], title_terms: set[str]) -> list[_Group]:
    """Quality first, then newer, then more relevant; ties keep their current order (stable sorts)."""

    def relevance(group: _Group) -> float:
        terms = set(tokens(strip_citations(group[0])))
        return round(len(terms & title_terms) / max(1, len(title_terms)), 1)

    ordered = sorted(groups, key=relevance, reverse=True)
    ordered.sort(key=lambda g: _rank(g[0], meta)[1], reverse=True)
    ordered.sort(key=lambda g: _rank(g[0], meta)[0])
    return ordered


def _statement_key(block: str) -> str:
    return normalize_key(re.sub(r"^\s*(?:[-*+]|\d+[.)、])\s+", "", strip_citations(block)))


def offline_merge(inputs: ArticleInputs) -> ArticleDraft:
    """Deterministic merge of ``inputs.material`` into the sent sections."""
    lang = inputs.lang
    meta = dict(inputs.source_meta)
    for item in inputs.material:
        meta.setdefault(item.source, SourceMeta(quality=item.quality, date=item.date))
    sections = [SectionText(heading=s.heading, blocks=list(s.blocks)) for s in inputs.sections]
    by_key = {normalize_key(s.heading): s for s in sections}
    index: dict[str, tuple[SectionText, int]] = {}
    for sec in sections:
        for i, blk in enumerate(sec.blocks):
            index.setdefault(_statement_key(blk), (sec, i))
    touched: set[int] = set()
    for item in inputs.material:
        key = _statement_key(item.text)
        if not key:
            continue
        if key in index:
            sec, i = index[key]
            names = citations(sec.blocks[i])
            if item.source not in names:
                body = sec.blocks[i]
                prefix = "- " if body.startswith("- ") else ""
                sec.blocks[i] = prefix + cite(body[len(prefix) :], [*names, item.source], lang)
                touched.add(id(sec))
            continue
        heading = item.heading or DEFAULT_SECTION[lang]
        found = by_key.get(normalize_key(heading))
        if found is None:
            found = SectionText(heading=heading, blocks=[])
            sections.append(found)
            by_key[normalize_key(heading)] = found
        sec = found
        markers = []
        for other_sec in sections:
            for blk in other_sec.blocks:
                if MARKER_RE.match(blk) or item.source in citations(blk):
                    continue
                clash = numeric_conflict(item.text, blk)
                if clash:
                    other = ("、" if lang == "zh" else ", ").join(citations(blk)) or "?"
                    if lang == "zh":
                        why = f"{item.source} 称 {clash[0]}，而 {other} 称 {clash[1]}"
                    else:
                        why = f"{item.source} says {clash[0]} but {other} says {clash[1]}"
                    markers.append(MARKER_PREFIX + why)
        sec.blocks.append("- " + cite(item.text, [item.source], lang))
        index[key] = (sec, len(sec.blocks) - 1)
        sec.blocks.extend(dict.fromkeys(markers))
        touched.add(id(sec))
    title_terms = set(tokens(inputs.title))
    for sec in sections:
        if id(sec) in touched:
            sec.blocks = [b for g in _order(_groups(sec.blocks), meta, title_terms) for b in (g[0], *g[1])]
    summary = inputs.summary
    if is_auto_summary(summary):
        summary = make_summary(inputs.title, sections, meta, max(inputs.source_count, len(meta)), lang)
    return ArticleDraft(summary=summary, sections=sections)


def _summary_sentence(block: str, title_terms: set[str]) -> str:
    """The block's best stand-alone sentence: complete, not a version note, naming the subject if one does."""
    sentences = [strip_emphasis(x) for x in split_sentences(strip_citations(strip_bullet(block)))]
    worthy = [x for x in sentences if summary_worthy(x)]
    about = [x for x in worthy if set(tokens(x)) & title_terms]
    return (about or worthy or [""])[0]


def make_summary(title: str, sections: list[SectionText], meta: dict[str, SourceMeta], n: int, lang: str) -> str:
    """An extractive summary: one framing sentence plus the best 1-3 statements (2-4 sentences).

    Statements are chosen among complete sentences that are not changelog notes, those naming the
    article's subject first; quality, date and relevance order the rest (as in the body).
    """
    candidates: list[_Group] = []
    for sec in sections:
        candidates.extend(g for g in _groups(sec.blocks) if citations(g[0]) and not MARKER_RE.match(g[0]))
    if not candidates:
        return ""
    title_terms = set(tokens(title))
    picked = {g[0]: _summary_sentence(g[0], title_terms) for g in candidates}
    pool = [g for g in candidates if picked[g[0]]]
    if pool:
        ordered = _order(pool, meta, title_terms)
        ordered.sort(key=lambda g: not set(tokens(picked[g[0]])) & title_terms)  # stable: subject first
        best = ordered[:3]
    else:
        best = _order(candidates, meta, title_terms)[:3]
    sources = sorted({n for g in best for n in citations(g[0])})
    if lang == "zh":
        intro = f"本文汇总了 {n} 个来源中关于{title}的要点。" + cite("", sources, lang)
    else:
        intro = f"This article collects the key points about {title} from {n} source{'s' if n != 1 else ''}."
        intro = cite(intro, sources, lang)
    parts = [intro]
    for blk, _ in best:
        sentence = picked.get(blk) or (split_sentences(strip_citations(strip_bullet(blk))) or [""])[0]
        parts.append(cite(sentence or strip_citations(strip_bullet(blk)), citations(blk), lang))
    return join_sentences(parts, lang == "zh")


_RULES_ZH = """你在维护知识库的一篇文章。规则：
- 只用给出的新材料更新文章；保留现有内容，除非新材料与之矛盾。
- 质量评分：高=保留细节；中/待评估=只保留核心要点；低=只保留明确的事实。
- 每条陈述以行末括号注明来源原始文件：（来源：文件名.md），多个用、分隔。
- 合并时优先高质量，其次更新的，其次更相关的来源。
- 来源之间的矛盾另起一行标注：> ⚠️ 待核实: <原因>
- summary 是 2–4 句摘要，每句带来源。只返回给出的章节（可新增章节）。"""

_RULES_EN = """You maintain one article of a knowledge base. Rules:
- Update the article only with the new material; keep existing content unless the material contradicts it.
- Quality: 高 = keep details; 中/待评估 = core points only; 低 = explicit facts only.
- Every statement ends with its citation: (source: file.md), several separated by ", ".
- When merging prefer higher quality, then newer, then more relevant sources.
- Mark contradictions between sources on their own line: > ⚠️ 待核实: <why>
- summary: 2-4 sentences, each with its citation. Return only the sections given (new sections allowed)."""


class CompileArticleTask:
    """``wiki.compile_article``: one article, its relevant current sections and its new material."""

    name = "wiki.compile_article"
    Output = ArticleDraft
    max_tokens = 2500  # a summary and the sections given: bounded so a looping model stops early

    def check(self, inputs: ArticleInputs, draft: ArticleDraft) -> list[str]:
        """A draft that cites none of the new material's raw files compiled nothing: the source
        must not be recorded as compiled on its strength (docs/models.md, "Guards")."""
        given = {m.source for m in inputs.material}
        if not given:
            return []
        cited = {n for s in draft.sections for b in s.blocks for n in citations(b)} | set(citations(draft.summary))
        if cited & given:
            return []
        return [f"no statement cites the new material ({', '.join(sorted(given)[:3])})"]

    def shrink(self, inputs: ArticleInputs) -> ArticleInputs | None:
        """Fewer current sections shown (those not shown stay as they are). The new material is never
        cut: what is not merged now would be lost, so a prompt that still does not fit goes to the
        offline merge, which takes it all."""
        if inputs.sections:
            return inputs.model_copy(
                update={"sections": inputs.sections[:-1], "other_headings": [*inputs.other_headings,
                                                                             inputs.sections[-1].heading]}
            )  # fmt: skip
        return None

    def build_prompt(self, inputs: ArticleInputs) -> list[Message]:
        current = {
            "title": inputs.title,
            "summary": inputs.summary,
            "sections": [s.model_dump() for s in inputs.sections],
            "sections_not_shown": inputs.other_headings,
        }
        sys1, block1 = data_block(json.dumps(current, ensure_ascii=False, indent=1), "current article")
        sys2, block2 = data_block(
            json.dumps([m.model_dump() for m in inputs.material], ensure_ascii=False, indent=1), "new material"
        )
        rules = _RULES_ZH if inputs.lang == "zh" else _RULES_EN
        return [
            {"role": "system", "content": f"{rules}\n{sys1}\n{sys2}"},
            # The title may come from a fetched page, so it travels only inside the data block.
            {"role": "user", "content": f"Update the article in the first data block.\n\n{block1}\n\n{block2}"},
        ]

    def offline(self, inputs: ArticleInputs) -> ArticleDraft:
        return offline_merge(inputs)
