"""Phase 2 of the audit: structural findings over the whole wiki, each with a next-round direction.

Why deterministic: these findings drive the next round's questions and the termination counts
(docs/contracts.md §1.5–1.6), so the same wiki must give the same findings with or without a model.
Kinds and their report sections:

* 二 知识漏洞 — a ``[[X]]`` with no article (one per concept); a term quoted with 「」/“”/bold/
  backticks or a recurring capitalised phrase used in several articles with no article and no
  definition; a conclusion ("因此", "therefore", ...) with no citation; a framework subtopic no
  article covers.
* 三 矛盾 — every ``> ⚠️ 待核实:`` marker, and unmarked statements that give different numbers
  about the same subject.
* 四 来源缺失 — a sentence with no raw-file citation (each sentence of a paragraph is checked: a
  citation covers the sentence it ends; a line with one trailing citation covers that line), or a
  citation of a file that is not in ``raw/``.
* 五 结构问题 — dangling links, INDEX.md out of sync (an article it does not list, an entry with
  no article; every ``[[X]]`` / ``[[X|label]]`` / ``[[X#h]]`` / ``[label](X.md)`` form is read),
  orphan articles.

The rules, with examples in English and Chinese, are in docs/audit.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from autodidact.text.topic import is_action_phrase
from autodidact.wiki.audit.framework_gaps import missing_aspects
from autodidact.wiki.common.articles import Article, resolver
from autodidact.wiki.common.markdown import (
    MARKER_RE,
    SAME_SUBJECT,
    WIKILINK_RE,
    citations,
    cited_statements,
    clash,
    has_tokens,
    index_targets,
    iter_lines_outside_code,
    jaccard,
    normalize_key,
    numbers,
    strip_citations,
    tokens,
    wikilinks,
    without_numbers,
)

GAPS, CONTRADICTIONS, MISSING, STRUCTURE = "gaps", "contradictions", "missing_sources", "structure"
_CONCLUSION = re.compile(
    r"(因此|所以|由此可见|总之|综上|可见|表明|证明|意味着|\btherefore\b|\bthus\b|\bhence\b|\bconsequently\b|"
    r"\bin conclusion\b|\bclearly\b|\bproves?\b|\bshows? that\b|\bwhich means\b)",
    re.I,
)
_QUOTED = re.compile(r"「([^「」\n]{2,40})」|“([^“”\n]{2,40})”|\*\*([^*\n]{2,40})\*\*|`([^`\n]{2,40})`")
_CAPS = re.compile(
    r"\b((?:[A-Z][a-z0-9]+|[A-Z]{2,})(?:[ -](?:(?:of|and|for|de|the)[ -])?(?:[A-Z][a-z0-9]+|[A-Z]{2,})){1,4})\b"
)
_LEADING = re.compile(r"^(?:The|A|An|This|That|These|Those|In|On|At|For|If|When|While|It|Its|As|By|With) ")


@dataclass
class Finding:
    """One audit item: its report section, its text and the research direction it suggests."""

    section: str
    kind: str
    text: str
    direction: str = ""
    priority: int = 5
    weight: int = 0
    files: list[str] = field(default_factory=list)


def _loc(art: Article) -> str:
    return f"wiki/{art.filename}"


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(strip_citations(re.sub(r"^\s*(?:[-*+]|\d+[.)、])\s+", "", text)).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def statement_units(art: Article) -> Iterator[tuple[str, str]]:
    """``(section heading, block)`` for every prose unit that should carry a citation."""
    if art.summary.strip():
        for para in re.split(r"\n\s*\n", art.summary):
            if has_tokens(para):
                yield "", para.strip()
    for sec in art.body_sections():
        for blk in sec.blocks:
            if MARKER_RE.match(blk) or blk.startswith(("```", "~~~", "|", "<!--")):
                continue
            if not WIKILINK_RE.sub("", re.sub(r"^\s*(?:[-*+]|\d+[.)、])\s+", "", blk)).strip(" -—:：,，"):
                continue
            if has_tokens(blk):
                yield sec.heading, blk


def links_findings(articles: list[Article], zh: bool) -> list[Finding]:
    """Dangling ``[[X]]``: one 知识漏洞 per missing concept, one 结构问题 per broken link."""
    names = resolver({a.stem: a for a in articles})
    missing: dict[str, list[str]] = {}
    out: list[Finding] = []
    for art in articles:
        for target in dict.fromkeys(wikilinks(art.text())):
            if normalize_key(target) in names:
                continue
            missing.setdefault(target, []).append(art.title)
            text = (
                f"{_loc(art)} 链接 [[{target}]]，但没有这篇文章"
                if zh
                else f"{_loc(art)} links [[{target}]], which does not exist"
            )
            out.append(Finding(STRUCTURE, "dangling-link", text, files=[_loc(art)]))
    for target, sources in sorted(missing.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        where = "、".join(sources) if zh else ", ".join(sources)
        text = (
            f"概念 {target} 被引用（{where}）但没有解释它的文章"
            if zh
            else f"concept {target} is linked from {where} but has no article explaining it"
        )
        direction = (
            f"{target} 是什么？它与{sources[0]}有什么关系？"
            if zh
            else f"What is {target}, and how does it relate to {sources[0]}?"
        )
        out.append(Finding(GAPS, "unexplained-link", text, direction, priority=1, weight=len(sources)))
    return out


def _defined(term: str, corpus: str) -> bool:
    escaped = re.escape(term.casefold())
    verbs = r"是指|指的是|是一种|是一个|是|即|定义为|[（(]|,?\s+(?:is|are|refers? to|means|denotes)\b|:"
    pattern = rf"{escaped}[」”*`]*\s*(?:{verbs})"
    return re.search(pattern, corpus) is not None


def term_findings(articles: list[Article], zh: bool) -> list[Finding]:
    """Terms quoted or capitalised in two or more articles with no article and no definition."""
    names = resolver({a.stem: a for a in articles})
    used: dict[str, dict[str, str]] = {}
    for art in articles:
        text = "\n".join(strip_citations(u) for _, u in statement_units(art))
        text = WIKILINK_RE.sub(" ", text)
        seen: dict[str, str] = {}
        for match in _QUOTED.finditer(text):
            term = next(g for g in match.groups() if g).strip()
            if term and not re.search(r"[。.!?！？,，]$", term):
                seen.setdefault(normalize_key(term), term)
        for match in _CAPS.finditer(text):
            phrase = match.group(1)
            term = _LEADING.sub("", phrase).strip()
            if normalize_key(phrase) in names:
                continue
            if len(term.split()) >= 2:
                seen.setdefault(normalize_key(term), term)
        for key, term in seen.items():
            if key and key not in names and not is_action_phrase(term):
                # "Implementing Descriptors" names a section's task, not a concept to define
                used.setdefault(key, {})[art.title] = term
    corpus = "\n".join(strip_citations(a.text()) for a in articles).casefold()
    out: list[Finding] = []
    for _key, where in sorted(used.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        if len(where) < 2:
            continue
        term = sorted(where.values())[0]
        if _defined(term, corpus):
            continue
        titles = sorted(where)
        listing = "、".join(titles) if zh else ", ".join(titles)
        text = (
            f"术语「{term}」出现在 {len(titles)} 篇文章（{listing}）中，但没有文章或定义"
            if zh
            else f"term “{term}” is used in {len(titles)} articles ({listing}) but has no article or definition"
        )
        direction = (
            f"{term} 是什么？在{titles[0]}中起什么作用？"
            if zh
            else f"What is {term}, and what role does it play in {titles[0]}?"
        )
        out.append(Finding(GAPS, "undefined-term", text, direction, priority=2, weight=len(titles)))
    return out


def _uncited_finding(where: str, sentence: str, zh: bool) -> Finding:
    """An uncited statement: an unsupported conclusion is a 知识漏洞, anything else is 来源缺失."""
    if _CONCLUSION.search(sentence):
        text = (
            f"{where}：结论“{_short(sentence)}”没有来源支撑"
            if zh
            else f"{where}: conclusion “{_short(sentence)}” is not supported by a source"
        )
        direction = (
            f"有什么证据支持“{_short(sentence, 40)}”？" if zh else f"What evidence supports “{_short(sentence, 40)}”?"
        )
        return Finding(GAPS, "unsupported-conclusion", text, direction, priority=4)
    text = (
        f"{where}：陈述“{_short(sentence)}”没有引用 raw/ 文件"
        if zh
        else f"{where}: statement “{_short(sentence)}” cites no raw/ file"
    )
    direction = f"为“{_short(sentence, 40)}”找到来源" if zh else f"Find a source for “{_short(sentence, 40)}”"
    return Finding(MISSING, "uncited", text, direction, priority=7)


def citation_findings(articles: list[Article], raw_names: set[str], zh: bool) -> list[Finding]:
    """Uncited statements, sentence by sentence (unsupported conclusions are gaps), and citations of
    files not in raw/. Which citation covers which sentence: :func:`markdown.cited_statements`."""
    out: list[Finding] = []
    for art in articles:
        for heading, unit in statement_units(art):
            where = f"{_loc(art)}" + (f"（{heading}）" if zh and heading else f" ({heading})" if heading else "")
            for sentence, cited in cited_statements(unit, art.names()):
                if not cited:
                    out.append(_uncited_finding(where, sentence, zh))
            absent = [n for n in citations(unit) if n not in raw_names]
            if absent:
                names = "、".join(absent) if zh else ", ".join(absent)
                text = (
                    f"{where}：引用的 {names} 不在 raw/ 中（“{_short(unit, 40)}”）"
                    if zh
                    else f"{where}: cites {names}, which is not in raw/ (“{_short(unit, 40)}”)"
                )
                direction = f"为“{_short(unit, 40)}”找到来源" if zh else f"Find a source for “{_short(unit, 40)}”"
                out.append(Finding(MISSING, "missing-raw", text, direction, priority=7))
    return out


def contradiction_findings(articles: list[Article], zh: bool) -> list[Finding]:
    """⚠️ markers and unmarked numeric conflicts between different sources in one article."""
    out: list[Finding] = []
    for art in articles:
        markers: list[str] = []
        for sec in art.body_sections():
            for blk in sec.blocks:
                match = MARKER_RE.match(blk)
                if match:
                    markers.append(match.group(1).strip())
        for why in markers:
            text = f"{_loc(art)}：待核实 — {why}" if zh else f"{_loc(art)}: to verify — {why}"
            direction = f"核实{art.title}：{why}" if zh else f"Verify in {art.title}: {why}"
            out.append(Finding(CONTRADICTIONS, "marker", text, direction, priority=6))
        feats = []
        for _, unit in statement_units(art):
            nums = numbers(unit)
            if nums and citations(unit):
                feats.append((unit, nums, set(tokens(without_numbers(unit))), set(citations(unit))))
        for i in range(len(feats)):
            for j in range(i + 1, len(feats)):
                a, b = feats[i], feats[j]
                if a[3] & b[3] or len(a[2]) < 3 or len(b[2]) < 3 or jaccard(a[2], b[2]) < SAME_SUBJECT:
                    continue
                found = clash(a[1], b[1])
                if found is None or any(found[0] in m and found[1] in m for m in markers):
                    continue
                text = (
                    f"{_loc(art)}：“{_short(a[0], 70)}”与“{_short(b[0], 70)}”数字不一致（{found[0]} / {found[1]}）"
                    if zh
                    else f"{_loc(art)}: “{_short(a[0], 70)}” and “{_short(b[0], 70)}” disagree "
                    f"({found[0]} / {found[1]})"
                )
                direction = (
                    f"{art.title}：{found[0]} 还是 {found[1]}，哪个数字正确？"
                    if zh
                    else f"{art.title}: which is right, {found[0]} or {found[1]}?"
                )
                out.append(Finding(CONTRADICTIONS, "numbers", text, direction, priority=6))
    return out


def structure_findings(articles: list[Article], index_text: str | None, zh: bool) -> list[Finding]:
    """INDEX.md out of sync and orphan articles (dangling links come from :func:`links_findings`)."""
    out: list[Finding] = []
    by_stem = {a.stem: a for a in articles}
    names = resolver(by_stem)
    if index_text is None:
        if articles:
            out.append(
                Finding(STRUCTURE, "index-missing", "wiki/INDEX.md 不存在" if zh else "wiki/INDEX.md is missing")
            )
    else:
        entries = [t for _, line in iter_lines_outside_code(index_text) for t in index_targets(line)]
        listed = {names.get(normalize_key(t), "") for t in entries}
        for art in articles:
            if art.stem not in listed:
                text = f"INDEX.md 没有列出 {_loc(art)}" if zh else f"INDEX.md does not list {_loc(art)}"
                out.append(Finding(STRUCTURE, "index-missing-entry", text))
        for target in dict.fromkeys(entries):
            if normalize_key(target) not in names:
                text = (
                    f"INDEX.md 列出的 [[{target}]] 没有对应文章"
                    if zh
                    else f"INDEX.md lists [[{target}]], which does not exist"
                )
                out.append(Finding(STRUCTURE, "index-stale-entry", text))
    if len(articles) >= 2:
        inbound: set[str] = set()
        for art in articles:
            for target in wikilinks(art.text()):
                stem = names.get(normalize_key(target))
                if stem and stem != art.stem:
                    inbound.add(stem)
        for art in articles:
            if art.stem not in inbound:
                text = (
                    f"孤立文章：没有其他文章链接到 {_loc(art)}"
                    if zh
                    else f"orphan article: no other article links to {_loc(art)}"
                )
                out.append(Finding(STRUCTURE, "orphan", text))
    return out


def subtopic_findings(articles: list[Article], topic: str | None, zh: bool) -> list[Finding]:
    """Framework aspects (seed 000, docs/seeds.md layers) no article covers, for the research topic."""
    if not topic:
        return []
    text = "\n".join(a.text() for a in articles)
    out = []
    for layer, label, direction in missing_aspects(topic, text, zh):
        msg = f"缺少子主题：{label}（框架 {layer}）" if zh else f"missing subtopic: {label} (framework {layer})"
        out.append(Finding(GAPS, "missing-subtopic", msg, direction, priority=3))
    return out


def all_findings(
    articles: list[Article], raw_names: set[str], index_text: str | None, topic: str | None, lang: str
) -> list[Finding]:
    """Every phase-2 finding, in report order within each section."""
    zh = lang == "zh"
    return [
        *links_findings(articles, zh),
        *term_findings(articles, zh),
        *subtopic_findings(articles, topic, zh),
        *citation_findings(articles, raw_names, zh),
        *contradiction_findings(articles, zh),
        *structure_findings(articles, index_text, zh),
    ]
