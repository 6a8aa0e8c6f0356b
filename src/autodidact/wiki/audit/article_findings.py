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

Why per article, then assembled: most of the work reads one article at a time (its sentences, its
citations, its quoted terms, its links), and an article that did not change gives the same answer.
:func:`article_facts` is that part, a pure function of one article (and the language and the topic's
subject words); :mod:`findings_cache` keeps it by content hash. What depends on the other articles —
which names exist, which raw files exist, INDEX.md, who links to whom, a term used in two articles,
an aspect no article covers — is assembled from the facts every time (:func:`all_findings`), so a
finding never comes from a stale view of the rest of the wiki.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from autodidact.jsontypes import JSONMapping, JSONObject, JSONValue
from autodidact.text.topic import is_action_phrase
from autodidact.wiki.audit.framework_gaps import aspects_shown, cues_in, missing_aspects_of, subject_terms
from autodidact.wiki.common.articles import Article
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
# Words a sentence opens with, capitalised for that reason: "Thus Wget" was reported as a term
# with no article, and asked as "What is Thus Wget?" every round (a fresh-eyes trial over wget's manual).
_LEADING = re.compile(
    r"^(?:The|A|An|This|That|These|Those|In|On|At|For|If|When|While|It|Its|As|By|With|Thus|However|Also|"
    r"Then|Therefore|Hence|Otherwise|So|But|And|Or|Note|See|Use|Since|Because|After|Before|Once|Each|Every|"
    r"All|Some|Both|Here|There|Now|Instead|Finally|First|Unlike|Like|Only|Even|Although|Though|Unless) "
)
# "HTTP and FTP": a list of abbreviations, not one term
_ABBREVIATIONS = re.compile(r"^[A-Z]{2,}(?:(?:,\s*|\s+and\s+|\s+or\s+)[A-Z]{2,})+$")


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

    def to_json(self) -> list[JSONValue]:
        return [self.section, self.kind, self.text, self.direction, self.priority, self.weight, list(self.files)]

    @classmethod
    def from_json(cls, data: JSONValue) -> Finding:
        section, kind, text, direction, priority, weight, files = _list(data)
        return cls(str(section), str(kind), str(text), str(direction), _int(priority), _int(weight), _strings(files))


@dataclass
class CitedUnit:
    """One statement unit of an article: its uncited sentences' findings and the files it cites."""

    where: str
    uncited: list[Finding]
    cites: list[str]
    short: str  # the unit, shortened, for a "not in raw/" finding

    def to_json(self) -> list[JSONValue]:
        return [self.where, [f.to_json() for f in self.uncited], list(self.cites), self.short]

    @classmethod
    def from_json(cls, data: JSONValue) -> CitedUnit:
        where, uncited, cites, short = _list(data)
        return cls(str(where), [Finding.from_json(f) for f in _list(uncited)], _strings(cites), str(short))


@dataclass
class ArticleFacts:
    """What phase 2 reads from one article alone (see the module docstring); JSON-serialisable.

    ``terms`` are the quoted and capitalised terms in text order: ``(key, term, key of the whole
    capitalised phrase or "", is an action phrase)``."""

    name_keys: list[str]  # normalize_key of the stem, then of the title and each alias
    links: list[str]  # wikilink targets of the article's text, in order
    link_keys: list[str]
    terms: list[tuple[str, str, str, bool]] = field(default_factory=list)
    cues: list[str] = field(default_factory=list)  # framework cue words the text holds
    shown: list[str] = field(default_factory=list)  # aspects its lines about the subject show
    units: list[CitedUnit] = field(default_factory=list)
    contradictions: list[Finding] = field(default_factory=list)
    # Worked out on first use and kept with the facts (never written: to_json lists the fields above).
    _citing: tuple[frozenset[str], list[Finding]] | None = field(default=None, init=False, repr=False, compare=False)
    _orphan: tuple[str, bool, Finding] | None = field(default=None, init=False, repr=False, compare=False)

    def citing(self) -> tuple[frozenset[str], list[Finding]]:
        """Every file the article's units cite, and their uncited-sentence findings in order: while
        every cited file is in raw/, these are all its citation findings (:func:`citation_findings`)."""
        if self._citing is None:
            self._citing = (
                frozenset(n for u in self.units for n in u.cites),
                [f for u in self.units for f in u.uncited],
            )
        return self._citing

    def orphan(self, loc: str, zh: bool) -> Finding:
        """The article's orphan finding (:func:`structure_findings`), made once per place and language."""
        if self._orphan is None or self._orphan[:2] != (loc, zh):
            text = f"孤立文章：没有其他文章链接到 {loc}" if zh else f"orphan article: no other article links to {loc}"
            self._orphan = (loc, zh, Finding(STRUCTURE, "orphan", text))
        return self._orphan[2]

    def to_json(self) -> JSONObject:
        return {
            "name_keys": list(self.name_keys),
            "links": list(self.links),
            "link_keys": list(self.link_keys),
            "terms": [list(t) for t in self.terms],
            "cues": list(self.cues),
            "shown": list(self.shown),
            "units": [u.to_json() for u in self.units],
            "contradictions": [f.to_json() for f in self.contradictions],
        }

    @classmethod
    def from_json(cls, data: JSONValue) -> ArticleFacts:
        """Read back what :meth:`to_json` wrote; a value of another shape raises ``TypeError`` or
        ``ValueError`` (the cache is then rebuilt, ``findings_cache.py``)."""
        facts = _object(data)
        terms = [_list(term) for term in _list(facts["terms"])]
        return cls(
            name_keys=_strings(facts["name_keys"]),
            links=_strings(facts["links"]),
            link_keys=_strings(facts["link_keys"]),
            terms=[(str(k), str(t), str(p), bool(a)) for k, t, p, a in terms],
            cues=_strings(facts["cues"]),
            shown=_strings(facts["shown"]),
            units=[CitedUnit.from_json(u) for u in _list(facts["units"])],
            contradictions=[Finding.from_json(f) for f in _list(facts["contradictions"])],
        )


def _list(value: JSONValue) -> list[JSONValue]:
    if not isinstance(value, list):
        raise TypeError(f"not a list: {value!r}")
    return value


def _object(value: JSONValue) -> JSONMapping:
    if not isinstance(value, dict):
        raise TypeError(f"not an object: {value!r}")
    return value


def _strings(value: JSONValue) -> list[str]:
    return [str(item) for item in _list(value)]


def _int(value: JSONValue) -> int:
    if not isinstance(value, int | float | str):
        raise TypeError(f"not a number: {value!r}")
    return int(value)


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


# -- one article ------------------------------------------------------------------------------------


def link_facts(art: Article) -> ArticleFacts:
    """The names and links of an article (what every wiki-wide rule needs)."""
    links = wikilinks(art.text())
    return ArticleFacts(
        name_keys=[normalize_key(n) for n in (art.stem, art.title, *art.aliases)],
        links=links,
        link_keys=[normalize_key(t) for t in links],
    )


def _term_candidates(art: Article) -> list[tuple[str, str, str, bool]]:
    """The quoted terms, then the capitalised phrases, of an article's statements (see ArticleFacts)."""
    text = "\n".join(strip_citations(u) for _, u in statement_units(art))
    text = WIKILINK_RE.sub(" ", text)
    out: list[tuple[str, str, str, bool]] = []
    for match in _QUOTED.finditer(text):
        term = next(g for g in match.groups() if g).strip()
        if term and not re.search(r"[。.!?！？,，]$", term):
            out.append((normalize_key(term), term, "", is_action_phrase(term)))
    for match in _CAPS.finditer(text):
        phrase = match.group(1)
        term = _LEADING.sub("", phrase).strip()
        if len(term.split()) >= 2 and not _ABBREVIATIONS.match(term):  # shorter ones are never a term
            out.append((normalize_key(term), term, normalize_key(phrase), is_action_phrase(term)))
    return out


def _cited_units(art: Article, zh: bool) -> list[CitedUnit]:
    out: list[CitedUnit] = []
    for heading, unit in statement_units(art):
        where = f"{_loc(art)}" + (f"（{heading}）" if zh and heading else f" ({heading})" if heading else "")
        statements = cited_statements(unit, art.names())
        uncited = [_uncited_finding(where, sentence, zh) for sentence, cited in statements if not cited]
        out.append(CitedUnit(where, uncited, citations(unit), _short(unit, 40)))
    return out


def article_facts(art: Article, zh: bool, subject: frozenset[str]) -> ArticleFacts:
    """Everything phase 2 reads from ``art`` alone; ``subject`` = the topic's subject tokens."""
    facts = link_facts(art)
    facts.terms = _term_candidates(art)
    text = art.text()
    facts.cues = cues_in(text)
    facts.shown = aspects_shown(text, subject)
    facts.units = _cited_units(art, zh)
    facts.contradictions = _article_contradictions(art, zh)
    return facts


# -- the wiki ---------------------------------------------------------------------------------------


def names_of(articles: list[Article], facts: list[ArticleFacts]) -> dict[str, str]:
    """:func:`articles.resolver` of the wiki (normalised stem, title, alias → stem), from the facts."""
    keyed = sorted(zip(articles, facts, strict=True), key=lambda pair: pair[0].stem)
    out: dict[str, str] = {}
    for art, fact in keyed:
        out.setdefault(fact.name_keys[0], art.stem)
    for art, fact in keyed:
        for key in fact.name_keys[1:]:
            out.setdefault(key, art.stem)
    return out


def _facts(articles: list[Article], facts: list[ArticleFacts] | None, zh: bool) -> list[ArticleFacts]:
    return facts if facts is not None else [article_facts(a, zh, frozenset()) for a in articles]


def links_findings(
    articles: list[Article], zh: bool, facts: list[ArticleFacts] | None = None, names: dict[str, str] | None = None
) -> list[Finding]:
    """Dangling ``[[X]]``: one 知识漏洞 per missing concept, one 结构问题 per broken link."""
    facts = facts if facts is not None else [link_facts(a) for a in articles]
    names = names if names is not None else names_of(articles, facts)
    missing: dict[str, list[str]] = {}
    out: list[Finding] = []
    for art, fact in zip(articles, facts, strict=True):
        for target, key in dict.fromkeys(zip(fact.links, fact.link_keys, strict=True)):
            if key in names:
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


def corpus_part(art: Article) -> str:
    """An article's share of the text a term's definition is looked for in (joined by newlines)."""
    return strip_citations(art.text()).casefold()


def term_findings(
    articles: list[Article],
    zh: bool,
    facts: list[ArticleFacts] | None = None,
    names: dict[str, str] | None = None,
    corpus_parts: Callable[[], list[str]] | None = None,
) -> list[Finding]:
    """Terms quoted or capitalised in two or more articles with no article and no definition."""
    if facts is None:
        facts = [link_facts(a) for a in articles]
        for art, fact in zip(articles, facts, strict=True):
            fact.terms = _term_candidates(art)
    names = names if names is not None else names_of(articles, facts)
    used: dict[str, dict[str, str]] = {}
    for art, fact in zip(articles, facts, strict=True):
        seen: dict[str, tuple[str, bool]] = {}
        for key, term, phrase_key, action in fact.terms:
            if phrase_key and phrase_key in names:
                continue
            seen.setdefault(key, (term, action))
        for key, (term, action) in seen.items():
            if key and key not in names and not action:
                # "Implementing Descriptors" names a section's task, not a concept to define
                used.setdefault(key, {})[art.title] = term
    corpus: str | None = None  # the whole wiki's text: built only when a term is in two articles
    out: list[Finding] = []
    for _key, where in sorted(used.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        if len(where) < 2:
            continue
        term = sorted(where.values())[0]
        if corpus is None:
            corpus = "\n".join(corpus_parts() if corpus_parts else [corpus_part(a) for a in articles])
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


def citation_findings(
    articles: list[Article], raw_names: set[str], zh: bool, facts: list[ArticleFacts] | None = None
) -> list[Finding]:
    """Uncited statements, sentence by sentence (unsupported conclusions are gaps), and citations of
    files not in raw/. Which citation covers which sentence: :func:`markdown.cited_statements`."""
    out: list[Finding] = []
    if facts is None:
        _unit_findings([u for a in articles for u in _cited_units(a, zh)], raw_names, zh, out)
        return out
    for fact in facts:
        cited, uncited = fact.citing()
        if cited <= raw_names:  # no "not in raw/" finding: only the uncited sentences' (kept)
            out.extend(uncited)
        else:
            _unit_findings(fact.units, raw_names, zh, out)
    return out


def _unit_findings(units: list[CitedUnit], raw_names: set[str], zh: bool, out: list[Finding]) -> None:
    for unit in units:
        out.extend(unit.uncited)
        absent = [n for n in unit.cites if n not in raw_names]
        if absent:
            names = "、".join(absent) if zh else ", ".join(absent)
            text = (
                f"{unit.where}：引用的 {names} 不在 raw/ 中（“{unit.short}”）"
                if zh
                else f"{unit.where}: cites {names}, which is not in raw/ (“{unit.short}”)"
            )
            direction = f"为“{unit.short}”找到来源" if zh else f"Find a source for “{unit.short}”"
            out.append(Finding(MISSING, "missing-raw", text, direction, priority=7))


def _article_contradictions(art: Article, zh: bool) -> list[Finding]:
    """An article's ⚠️ markers and its unmarked numeric conflicts between different sources."""
    out: list[Finding] = []
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
                else f"{_loc(art)}: “{_short(a[0], 70)}” and “{_short(b[0], 70)}” disagree ({found[0]} / {found[1]})"
            )
            direction = (
                f"{art.title}：{found[0]} 还是 {found[1]}，哪个数字正确？"
                if zh
                else f"{art.title}: which is right, {found[0]} or {found[1]}?"
            )
            out.append(Finding(CONTRADICTIONS, "numbers", text, direction, priority=6))
    return out


def contradiction_findings(articles: list[Article], zh: bool, facts: list[ArticleFacts] | None = None) -> list[Finding]:
    """⚠️ markers and unmarked numeric conflicts between different sources in one article."""
    if facts is not None:
        return [f for fact in facts for f in fact.contradictions]
    return [f for art in articles for f in _article_contradictions(art, zh)]


_INDEX_LINES: dict[str, list[str]] = {}  # INDEX.md line → its targets (the index changes a few lines a round)


def index_entries(index_text: str) -> list[str]:
    """The article names INDEX.md points at, outside code blocks, in order."""
    out: list[str] = []
    for _, line in iter_lines_outside_code(index_text):
        targets = _INDEX_LINES.get(line)
        if targets is None:
            targets = index_targets(line)
            if len(_INDEX_LINES) >= 200_000:
                _INDEX_LINES.clear()
            _INDEX_LINES[line] = targets
        out.extend(targets)
    return out


def structure_findings(
    articles: list[Article],
    index_text: str | None,
    zh: bool,
    facts: list[ArticleFacts] | None = None,
    names: dict[str, str] | None = None,
    entries: list[str] | None = None,
) -> list[Finding]:
    """INDEX.md out of sync and orphan articles (dangling links come from :func:`links_findings`)."""
    facts = facts if facts is not None else [link_facts(a) for a in articles]
    names = names if names is not None else names_of(articles, facts)
    out: list[Finding] = []
    if index_text is None:
        if articles:
            out.append(
                Finding(STRUCTURE, "index-missing", "wiki/INDEX.md 不存在" if zh else "wiki/INDEX.md is missing")
            )
    else:
        entries = entries if entries is not None else index_entries(index_text)
        keys = {t: normalize_key(t) for t in dict.fromkeys(entries)}
        listed = {names.get(keys[t], "") for t in entries}
        for art in articles:
            if art.stem not in listed:
                text = f"INDEX.md 没有列出 {_loc(art)}" if zh else f"INDEX.md does not list {_loc(art)}"
                out.append(Finding(STRUCTURE, "index-missing-entry", text))
        for target in keys:
            if keys[target] not in names:
                text = (
                    f"INDEX.md 列出的 [[{target}]] 没有对应文章"
                    if zh
                    else f"INDEX.md lists [[{target}]], which does not exist"
                )
                out.append(Finding(STRUCTURE, "index-stale-entry", text))
    if len(articles) >= 2:
        inbound: set[str] = set()
        for art, fact in zip(articles, facts, strict=True):
            for key in fact.link_keys:
                stem = names.get(key)
                if stem and stem != art.stem:
                    inbound.add(stem)
        for art, fact in zip(articles, facts, strict=True):
            if art.stem not in inbound:
                out.append(fact.orphan(_loc(art), zh))
    return out


def subtopic_findings(
    articles: list[Article], topic: str | None, zh: bool, facts: list[ArticleFacts] | None = None
) -> list[Finding]:
    """Framework aspects (seed 000, docs/seeds.md layers) no article covers, for the research topic."""
    if not topic:
        return []
    if facts is None:
        subject = subject_terms(topic)
        texts = [a.text() for a in articles]
        cues = {c for t in texts for c in cues_in(t)}
        shown = {a for t in texts for a in aspects_shown(t, subject)}
    else:
        cues = {c for f in facts for c in f.cues}
        shown = {a for f in facts for a in f.shown}
    out = []
    for layer, label, direction in missing_aspects_of(topic, cues, shown, zh):
        msg = f"缺少子主题：{label}（框架 {layer}）" if zh else f"missing subtopic: {label} (framework {layer})"
        out.append(Finding(GAPS, "missing-subtopic", msg, direction, priority=3))
    return out


def all_findings(
    articles: list[Article],
    raw_names: set[str],
    index_text: str | None,
    topic: str | None,
    lang: str,
    facts: list[ArticleFacts] | None = None,
    corpus_parts: Callable[[], list[str]] | None = None,
) -> list[Finding]:
    """Every phase-2 finding, in report order within each section.

    ``facts`` (one per article, from :func:`article_facts` with this language and topic) may come
    from a cache; without them they are computed here. ``corpus_parts`` gives :func:`corpus_part`
    of every article, when the caller keeps them."""
    zh = lang == "zh"
    if facts is None:
        subject = subject_terms(topic) if topic else frozenset()
        facts = [article_facts(a, zh, subject) for a in articles]
    names = names_of(articles, facts)
    return [
        *links_findings(articles, zh, facts, names),
        *term_findings(articles, zh, facts, names, corpus_parts),
        *subtopic_findings(articles, topic, zh, facts),
        *citation_findings(articles, raw_names, zh, facts),
        *contradiction_findings(articles, zh, facts),
        *structure_findings(articles, index_text, zh, facts, names),
    ]
