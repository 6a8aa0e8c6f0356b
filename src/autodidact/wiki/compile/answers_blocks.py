"""Answer blocks in articles: where a question's answer goes, how new quotes merge, the summary.

Why this layout (docs/wiki.md "Answer blocks"): an answer block is an H2 section headed by the
question's text, holding one bullet per quote, each ending in its raw-file citation. The article
model already reads and renders H2 sections byte-stably, the audit already retrieves sections by
their heading and text, and a person reading the article sees each question answered in place.

Placement: a question whose block exists anywhere keeps it there (one block per question text);
otherwise it goes to the article of its facet (title = the facet), or — without a facet — to the
article whose title or alias its key terms cover best, else to the topic's subject article.

Merging is a pure function of the block's quotes: new quotes join the old ones, duplicates (by
normalised quote, or a quote contained in another) are dropped, and the block is ordered by score
(:meth:`QuestionTerms.score`) with ties kept in place, so merging the same quotes again changes
nothing and a block never depends on how many rounds it took to fill.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from autodidact.text.support import supported
from autodidact.wiki.common.articles import RELATED_HEADINGS, Article, Section, derived_of
from autodidact.wiki.common.markdown import (
    CITATION_RE,
    MARKER_PREFIX,
    MARKER_RE,
    article_stem,
    citations,
    cite,
    is_answer_paragraph,
    is_auto_summary,
    normalize_key,
    numeric_conflict,
    render_link,
    split_sentences,
    strip_bullet,
    strip_citations,
    summary_worthy,
    tokens,
    wikilinks,
)
from autodidact.wiki.common.question_frame import key_terms
from autodidact.wiki.common.topics import TopicMap, question_subject, topic_subject
from autodidact.wiki.compile.answers import Answer, Question, QuestionTerms, Quote, term_in

MAX_QUOTES = 6
MAX_SUMMARY_SENTENCES = 4
SUMMARY_QUOTE_CHARS = 250
SUMMARY_KEY = "compiled_summary"
FALLBACK_TITLE = {"zh": "研究主题", "en": "Research topic"}

QualityOf = Callable[[str], str]


@dataclass
class Item:
    """One statement of an answer block: the quote, the raw files citing it, its ⚠️ marker lines."""

    text: str
    sources: list[str]
    markers: list[str] = field(default_factory=list)


def is_question_heading(heading: str) -> bool:
    """An answer block's heading is a question (ends with ``?`` or ``？``)."""
    return heading.rstrip().endswith(("?", "？"))


def quote_key(text: str) -> str:
    """The duplicate key of a statement: citations, bullet, case, spaces and punctuation ignored."""
    return normalize_key(strip_citations(strip_bullet(text)))


def parse_block(section: Section) -> tuple[list[str], list[Item]]:
    """``(other blocks, cited statements)`` of a section; markers stay with the statement above them."""
    others: list[str] = []
    items: list[Item] = []
    for blk in section.blocks:
        if MARKER_RE.match(blk):
            if items:
                items[-1].markers.append(blk)
            else:
                others.append(blk)
            continue
        names = citations(blk)
        text = strip_citations(strip_bullet(blk)).strip()
        if names and text and not blk.lstrip().startswith(">") and not is_answer_paragraph(blk):
            items.append(Item(text, names))
        else:
            others.append(blk)
    return others, items


def render_block(others: list[str], items: list[Item], lang: str) -> list[str]:
    blocks = list(others)
    for item in items:
        blocks.append("- " + cite(item.text, item.sources, lang))
        blocks.extend(item.markers)
    return blocks


def _item_score(item: Item, terms: QuestionTerms, quality_of: QualityOf) -> float:
    qualities = [quality_of(name) for name in item.sources] or ["中"]
    best = min(qualities, key=lambda q: {"高": 0, "中": 1, "待评估": 1, "低": 2}.get(q, 1))
    return terms.score(item.text, best) - (DATA_ROW_PENALTY if is_data_row(item.text) else 0.0)


DATA_ROW_PENALTY = 0.5
_FIGURES = re.compile(r"^(?:[A-Za-z]{1,2}\s*:\s*)?[\d.,%+/-]+(?:\s*,\s*(?:[A-Za-z]{1,2}\s*:\s*)?[\d.,%+/-]+)*$")


def is_data_row(text: str) -> bool:
    """A table row whose middle cells are figures ("`shorewall` | V:0, I:0 | 71 | Shoreline …"):
    it may carry a fact in its last cell, but prose that says the same reads first (docs/wiki.md)."""
    cells = [c.strip() for c in text.strip().strip("|").split("|")]
    return len(cells) >= 3 and any(_FIGURES.match(c) for c in cells[1:-1] if c)


def merge_quotes(
    section: Section,
    quotes: list[Quote],
    terms: QuestionTerms,
    quality_of: QualityOf,
    lang: str,
    conflicts_with: list[Item] | None = None,
) -> int:
    """Merge ``quotes`` into an answer block; returns how many were duplicates of what it holds.

    A quote another block of the article already shows (``conflicts_with``) is not shown again —
    a reader met the network chapter's proxy sentence under five questions of one article — except
    a block's best quote when it would otherwise hold nothing.
    """
    others, items = parse_block(section)
    duplicates = 0
    elsewhere = {normalize_key(it.text) for it in conflicts_with or []}
    fresh = [q for q in quotes if normalize_key(q.text) not in elsewhere]
    if not fresh and not items:
        fresh = quotes[:1]  # the block's best answer, though another block shows it too
    duplicates += len(quotes) - len(fresh)
    quotes = fresh
    for quote in quotes:
        key = normalize_key(quote.text)
        same = next((it for it in items if normalize_key(it.text) == key), None)
        if same is not None:
            same.sources.extend(n for n in quote.sources if n not in same.sources)
            duplicates += 1
            continue
        if any(key in normalize_key(it.text) for it in items):
            duplicates += 1  # already said, inside a longer quote
            continue
        inside = [it for it in items if normalize_key(it.text) in key]
        item = Item(quote.text, list(quote.sources))
        for old in inside:  # a longer quote says the shorter one and more: it takes its place
            items.remove(old)
            duplicates += 1
        item.markers = _markers(item, [*items, *(conflicts_with or [])], lang)
        items.append(item)
    scored = [(-_item_score(it, terms, quality_of), n, it) for n, it in enumerate(items)]
    items = [it for _, _, it in sorted(scored, key=lambda s: (s[0], s[1]))][:MAX_QUOTES]
    section.blocks = render_block(others, items, lang)
    return duplicates


def _markers(item: Item, others: list[Item], lang: str) -> list[str]:
    """⚠️ lines for numbers that disagree with a statement of another source about the same subject."""
    out: list[str] = []
    for other in others:
        if set(other.sources) & set(item.sources):
            continue
        clash = numeric_conflict(item.text, other.text)
        if clash:
            mine, theirs = (
                ("、" if lang == "zh" else ", ").join(item.sources),
                ("、" if lang == "zh" else ", ").join(other.sources),
            )
            why = (
                f"{mine} 称 {clash[0]}，而 {theirs} 称 {clash[1]}"
                if lang == "zh"
                else f"{mine} says {clash[0]} but {theirs} says {clash[1]}"
            )
            out.append(MARKER_PREFIX + why)
    return list(dict.fromkeys(out))


def best_article(question: str, articles: dict[str, Article]) -> str | None:
    """The article whose title or alias the question's key terms cover best (at least half its words)."""
    wanted = set(key_terms(question))
    best: tuple[tuple[int, float], str] | None = None
    for stem in sorted(articles):
        for words in derived_of(articles[stem], "name words", name_words):
            hit = sum(1 for w in words if term_in(w, wanted))
            if hit == 0 or hit * 2 < len(words):
                continue
            key = (hit, round(hit / len(words), 4))
            if best is None or key > best[0]:
                best = (key, stem)
    return best[1] if best else None


def name_words(art: Article) -> tuple[list[str], ...]:
    """The distinct tokens of each name (title, then aliases) that has any."""
    return tuple(words for name in [art.title, *art.aliases] if (words := list(dict.fromkeys(tokens(name)))))


def heading_keys(art: Article) -> tuple[str, ...]:
    """The normalised headings of the article's body sections (which question blocks it holds)."""
    return tuple(normalize_key(sec.heading) for sec in art.body_sections())


class Placer:
    """Decides the article of each question and creates articles as needed (see the module docstring)."""

    def __init__(
        self,
        articles: dict[str, Article],
        topics: TopicMap,
        topic: str | None,
        lang: str,
        edit: Callable[[str], Article] | None = None,
    ) -> None:
        """``edit(stem)`` gives the article to edit (wiki/compile/edits.py); without it, ``articles[stem]``."""
        self.articles = articles
        self.topics = topics
        self.topic = topic
        self.lang = lang
        self.edit = edit or articles.__getitem__
        self.created: set[str] = set()
        self.blocks: dict[str, str] = {}
        for stem in sorted(articles):
            for key in derived_of(articles[stem], "heading keys", heading_keys):
                self.blocks.setdefault(key, stem)

    def _article(self, title: str) -> str:
        stem = self.topics.find(title)
        if stem is None:
            stem = self.topics.free_stem(article_stem(title))
            self.articles[stem] = Article(stem=stem, title=title)
            self.topics.add(stem, [title])
            self.created.add(stem)
        return stem

    def subject_title(self, question: Question) -> str:
        if self.topic:
            return topic_subject(self.topic)
        return question_subject(question.text) or FALLBACK_TITLE[self.lang]

    def place(self, question: Question) -> tuple[str, Section]:
        """``(article stem, answer section)`` for a question; the section is created when new."""
        key = normalize_key(question.text)
        stem = self.blocks.get(key)
        if stem is None:
            if question.facet:
                stem = self._article(question.facet)
            else:
                stem = best_article(question.text, self.articles) or self._article(self.subject_title(question))
            self.blocks[key] = stem
        art = self.edit(stem)
        section = art.section(question.text)
        if section is None:
            section = Section(question.text, [])
            related_at = next((i for i, s in enumerate(art.sections) if s.is_related), len(art.sections))
            art.sections.insert(related_at, section)
        return stem, section


def article_items(art: Article) -> list[Item]:
    """Every cited statement of an article's body (for cross-block numeric conflicts)."""
    out: list[Item] = []
    for sec in art.body_sections():
        out.extend(parse_block(sec)[1])
    return out


def merge_answers(
    answers: list[Answer], placer: Placer, topic: str | None, quality_of: QualityOf, lang: str
) -> tuple[set[str], int]:
    """Merge each answer's quotes into its block; returns ``(touched stems, duplicates dropped)``."""
    touched: set[str] = set()
    duplicates = 0
    for answer in answers:
        if not answer.quotes:
            continue
        stem, section = placer.place(answer.question)
        terms = QuestionTerms.of(answer.question.text, answer.question.facet, topic)
        others = [it for s in placer.articles[stem].body_sections() if s is not section for it in parse_block(s)[1]]
        # A person's own question keeps its heading though its answer stands elsewhere too: they look
        # for their question ("Can a restricted shell run shell scripts?" had vanished into the
        # definition block's first bullet).
        if not answer.question.user and _says_nothing_new(section, answer.quotes, others):
            # Every quote stands under another question of the article already: a new heading over
            # the same sentence again (a logging run showed one sentence under five questions about
            # propagation) adds nothing; the audit finds the answer where it stands.
            placer.articles[stem].sections.remove(section)
            duplicates += len(answer.quotes)
            continue
        duplicates += merge_quotes(section, answer.quotes, terms, quality_of, lang, others)
        touched.add(stem)
    return touched, duplicates


def _says_nothing_new(section: Section, quotes: list[Quote], others: list[Item]) -> bool:
    """A block just made (nothing in it yet) whose every quote another block of its article shows."""
    if any(block.strip() for block in section.blocks):
        return False
    shown = [normalize_key(it.text) for it in others]
    return bool(quotes) and all(any(normalize_key(q.text) in key for key in shown) for q in quotes)


def link_siblings(articles: dict[str, Article], stems: set[str], lang: str) -> None:
    """Articles answering questions of the same round are facets of one topic: each lists the others
    under Related, so no facet article is an orphan (relinking keeps these links)."""
    for stem in sorted(stems):
        art = articles[stem]
        related = next((s for s in art.sections if s.is_related), None)
        if related is None:
            related = Section(RELATED_HEADINGS[lang], [])
            art.sections.append(related)
        have = {normalize_key(t) for b in related.blocks for t in wikilinks(b)}
        for other in sorted(stems - {stem}):
            if normalize_key(other) not in have:
                related.blocks.append(f"- {render_link(other, articles[other].title)}")


def _best_sentence(text: str, heading: str) -> str:
    wanted = set(key_terms(heading))
    sentences = [s for s in split_sentences(text) if summary_worthy(s)]
    if not sentences:
        return text
    hits = [sum(1 for t in wanted if term_in(t, set(tokens(s)))) for s in sentences]
    return sentences[max(range(len(sentences)), key=lambda i: (hits[i], -i))]


def answer_summary(art: Article, lang: str) -> str:
    """2–4 sentences from the article's answers: the best quote of each block (question blocks first),
    then, while fewer than two, the next best ones."""
    sections = sorted(art.body_sections(), key=lambda s: not is_question_heading(s.heading))
    # A short quote reads better in a summary than a long one of the same block.
    columns = [
        (sec.heading, sorted(parse_block(sec)[1], key=lambda it: len(it.text) > SUMMARY_QUOTE_CHARS))
        for sec in sections
    ]
    deepest = max((len(items) for _, items in columns), default=0)
    picks: list[tuple[str, list[str]]] = []
    seen: set[str] = set()
    for depth in range(deepest):
        for heading, items in columns:
            if depth < len(items) and len(picks) < MAX_SUMMARY_SENTENCES:
                sentence = _best_sentence(items[depth].text, heading)
                if normalize_key(sentence) not in seen:
                    seen.add(normalize_key(sentence))
                    picks.append((sentence, items[depth].sources))
        if len(picks) >= 2:
            break
    return ("" if lang == "zh" else " ").join(cite(text, names, lang) for text, names in picks)


def cited_chunks(summary: str) -> list[tuple[str, list[str]]] | None:
    """The summary as ``(statement, cited files)`` pairs; None when some text carries no citation."""
    out: list[tuple[str, list[str]]] = []
    prev = 0
    for match in CITATION_RE.finditer(summary):
        chunk = summary[prev : match.start()].strip()
        prev = match.end()
        if not chunk:
            return None
        out.append((chunk, citations(match.group(0))))
    if summary[prev:].strip() or not out:
        return None
    return out


def _fingerprint(summary: str) -> str:
    return hashlib.sha256(" ".join(summary.split()).encode("utf-8")).hexdigest()[:16]


def mark_summary(art: Article) -> None:
    """Record in the front matter that compile wrote this summary (``compiled_summary: <hash>``)."""
    line = f'{SUMMARY_KEY}: "{_fingerprint(art.summary)}"'
    art.extra_front = [x for x in art.extra_front if not x.startswith(f"{SUMMARY_KEY}:")]
    if art.summary:
        art.extra_front.append(line)


def is_generated_summary(art: Article) -> bool:
    """True when compile may rewrite the summary: empty, written by compile and unchanged since
    (its recorded hash), the old framing template, or made only of statements that stand in the
    article's body with the same citations. A summary a person wrote is kept."""
    if is_auto_summary(art.summary):
        return True
    recorded = next((x for x in art.extra_front if x.startswith(f"{SUMMARY_KEY}:")), None)
    if recorded is not None:
        return recorded.split(":", 1)[1].strip().strip('"') == _fingerprint(art.summary)
    chunks = cited_chunks(art.summary)
    if chunks is None:
        return False
    body = [(quote_key(b), set(citations(b))) for s in art.body_sections() for b in s.blocks]
    for text, names in chunks:
        key = normalize_key(text)
        if not key or not any(key in bk and set(names) <= bn for bk, bn in body):
            return False
    return True


def valid_phrasing(summary: str, art: Article) -> bool:
    """A model's summary is kept only if every sentence cites files the article's answers cite, and
    the quotes of those answers hold what the sentence says (``text/support.py``, docs/writing.md)."""
    chunks = cited_chunks(summary)
    if not chunks:
        return False
    items = article_items(art)
    cited = {n for item in items for n in item.sources}
    for text, names in chunks:
        if not names or not set(names) <= cited:
            return False
        quotes = [item.text for item in items if set(item.sources) & set(names)]
        if not supported(text, quotes):
            return False
    return True
