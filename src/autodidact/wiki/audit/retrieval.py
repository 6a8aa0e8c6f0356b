"""A small BM25 index over wiki sections, for answering one question at a time.

Why in memory and per check: the wiki is a folder of markdown a person may edit between rounds,
so the auditor indexes what is on disk now. Sections (plus each summary) are the documents, so a
question's prompt carries a few relevant sections, never whole articles or the whole wiki. Tokens
are words for Latin script and bigrams for CJK (``markdown.tokens``); an inverted index keeps a
query's cost proportional to the postings of its terms, not to the number of articles.

A section written for a question (an answer block whose heading is the question, or holds all its
key terms) ranks first for that question: it is where the wiki answers it (docs/audit.md). The
heading lookup is a dictionary, so preferring it costs nothing per article.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from dataclasses import dataclass

from autodidact.wiki.common.articles import Article
from autodidact.wiki.common.markdown import ANSWER_LEAD, normalize_key, tokens
from autodidact.wiki.common.question_frame import key_terms

K1 = 1.2
B = 0.75


@dataclass(frozen=True)
class WikiPassage:
    """One retrievable unit: an article's summary or one of its sections."""

    stem: str
    title: str
    heading: str
    text: str
    score: float = 0.0


def _unlabelled(block: str) -> str:
    for lead in ANSWER_LEAD.values():
        if block.lstrip().startswith(lead):
            return block.lstrip()[len(lead) :]
    return block


@dataclass(frozen=True)
class IndexUnit:
    """One document of an article for the index: its heading, text and token counts."""

    heading: str
    text: str
    counts: tuple[tuple[str, int], ...]
    length: int


def article_units(art: Article) -> list[IndexUnit]:
    """An article's documents (its summary and each body section), tokenised; a pure function of it."""
    # A written answer's lead ("**Answer:** ") is a label, not part of what it says.
    units = [("", art.summary)] + [
        (s.heading, "\n".join(_unlabelled(b) for b in s.blocks)) for s in art.body_sections()
    ]
    title_tokens = tokens(art.title)
    out: list[IndexUnit] = []
    for heading, text in units:
        if not text.strip():
            continue
        toks = tokens(f"{heading}\n{text}") + title_tokens
        out.append(IndexUnit(heading, text, tuple(Counter(toks).items()), len(toks)))
    return out


DocKey = tuple[str, int]  # (the article's place: its file name, or its position; the unit's index)


class WikiIndex:
    """BM25 over ``(article, section)`` documents; the article title counts in every section.

    Documents are keyed by ``(article key, unit index)``, ordered as the articles are, so an article
    can be taken out and put back (:meth:`sync`) without renumbering the others: an audit updates
    the index of the previous audit with the articles that changed, and ranks exactly as an index
    built from scratch (ties go to the earlier document either way). ``units`` (:func:`article_units`
    of each article) may come from a memory of unchanged articles."""

    def __init__(self, articles: list[Article], units: list[list[IndexUnit]] | None = None) -> None:
        self._docs: dict[DocKey, WikiPassage] = {}
        self.lengths: dict[DocKey, int] = {}
        self.postings: dict[str, dict[DocKey, int]] = {}
        self.by_heading: dict[str, set[DocKey]] = {}
        self.heading_terms: dict[DocKey, frozenset[str]] = {}
        self._total_length = 0
        self._articles: dict[str, tuple[str, list[IndexUnit]]] = {}  # article key → (content hash, its units)
        if units is None:
            units = [article_units(art) for art in articles]
        for pos, (art, article_docs) in enumerate(zip(articles, units, strict=True)):
            self._add(f"{pos:012d}", "", art, article_docs)

    @property
    def docs(self) -> list[WikiPassage]:
        """Every document, in order."""
        return [self._docs[key] for key in sorted(self._docs)]

    @property
    def avg_len(self) -> float:
        return (self._total_length / len(self.lengths)) if self.lengths else 1.0

    @property
    def common_df(self) -> int:
        return max(64, len(self._docs) // 50)

    def sync(self, files: list[tuple[str, str, Article, list[IndexUnit]]]) -> None:
        """Make the index hold exactly ``files`` — ``(file name, content hash, article, units)`` in
        file-name order — taking out and putting back only the articles whose content changed."""
        wanted = {name: digest for name, digest, _, _ in files}
        for name in [n for n, (digest, _) in self._articles.items() if wanted.get(n) != digest]:
            self._remove(name)
        for name, digest, art, article_units_ in files:
            if name not in self._articles:
                self._add(name, digest, art, article_units_)

    def _add(self, key: str, identity: str, art: Article, article_docs: list[IndexUnit]) -> None:
        for i, unit in enumerate(article_docs):
            doc = (key, i)
            heading = unit.heading
            self._docs[doc] = WikiPassage(art.stem, art.title, heading, unit.text)
            self.heading_terms[doc] = _heading_terms(heading)
            if heading:
                self.by_heading.setdefault(normalize_key(heading), set()).add(doc)
            self.lengths[doc] = unit.length
            self._total_length += unit.length
            for tok, tf in unit.counts:
                self.postings.setdefault(tok, {})[doc] = tf
        self._articles[key] = (identity, article_docs)

    def _remove(self, key: str) -> None:
        _, article_docs = self._articles.pop(key)
        for i, unit in enumerate(article_docs):
            doc = (key, i)
            del self._docs[doc], self.heading_terms[doc]
            if unit.heading:
                heading_key = normalize_key(unit.heading)
                self.by_heading[heading_key].discard(doc)
                if not self.by_heading[heading_key]:
                    del self.by_heading[heading_key]
            self._total_length -= self.lengths.pop(doc)
            for tok, _ in unit.counts:
                plist = self.postings[tok]
                del plist[doc]
                if not plist:  # a term no document holds is not in the index (its df would be 0)
                    del self.postings[tok]

    def search(
        self, query: str, k: int = 5, terms: list[str] | None = None, heading: str | None = None
    ) -> list[WikiPassage]:
        """The ``k`` best passages for ``query`` (or for already-tokenized ``terms``); empty when none match.

        With ``heading`` (the question), sections headed by it — or by all its key terms — come first.
        """
        n = len(self._docs)
        avg_len, common_df = self.avg_len, self.common_df
        scores: dict[DocKey, float] = {}
        wanted = set(terms) if terms is not None else set(tokens(query))
        terms = sorted((t for t in wanted if t in self.postings), key=lambda t: (len(self.postings[t]), t))
        for tok in terms:
            plist = self.postings[tok]
            idf = math.log(1 + (n - len(plist) + 0.5) / (len(plist) + 0.5))
            # A common term only re-scores the candidates rarer terms found: its postings grow with the
            # wiki, so walking them would make every question cost O(wiki); its idf is tiny anyway.
            if scores and len(plist) > common_df:
                pairs = [(d, plist[d]) for d in scores if d in plist]
            else:
                pairs = list(plist.items())
            for doc_id, tf in pairs:
                norm = tf * (K1 + 1) / (tf + K1 * (1 - B + B * self.lengths[doc_id] / avg_len))
                scores[doc_id] = scores.get(doc_id, 0.0) + idf * norm
        if heading:
            self._prefer_heading(scores, heading, wanted)
        # Best first; of equal scores, the earlier document.
        best = heapq.nsmallest(k, scores.items(), key=lambda item: (-item[1], item[0]))
        out = []
        for doc_id, score in best:
            doc = self._docs[doc_id]
            out.append(WikiPassage(doc.stem, doc.title, doc.heading, doc.text, round(score, 4)))
        return out

    def _prefer_heading(self, scores: dict[DocKey, float], heading: str, wanted: set[str]) -> None:
        """Lift the sections written for this question above every other candidate (in place)."""
        lift = max(scores.values(), default=0.0) + 1.0
        exact = self.by_heading.get(normalize_key(heading), set())
        for doc_id in exact:
            scores[doc_id] = scores.get(doc_id, 0.0) + 2 * lift
        if not wanted:
            return
        for doc_id in list(scores):
            if doc_id not in exact and self.heading_terms[doc_id] and wanted <= self.heading_terms[doc_id]:
                scores[doc_id] += lift


_HEADING_TERMS: dict[str, frozenset[str]] = {}


def _heading_terms(heading: str) -> frozenset[str]:
    """A heading's key terms (headings repeat — "Key points" — so each is computed once)."""
    found = _HEADING_TERMS.get(heading)
    if found is None:
        found = frozenset(key_terms(heading)) if heading else frozenset()
        if len(_HEADING_TERMS) > 100_000:
            _HEADING_TERMS.clear()
        _HEADING_TERMS[heading] = found
    return found


_LAST: dict[str, WikiIndex] = {}  # wiki folder → the index its last audit used
_LAST_LIMIT = 8


def wiki_index(folder: str, files: list[tuple[str, str, Article, list[IndexUnit]]]) -> WikiIndex:
    """The index of ``files`` (see :meth:`WikiIndex.sync`): the previous audit's index of the same
    folder brought up to date, or a new one. The caller has it to itself until :func:`keep_index`."""
    index = _LAST.pop(folder, None)
    if index is None:
        index = WikiIndex([], [])
    index.sync(files)
    return index


def keep_index(folder: str, index: WikiIndex) -> None:
    """Remember ``index`` for the folder's next audit."""
    _LAST[folder] = index
    while len(_LAST) > _LAST_LIMIT:
        del _LAST[next(iter(_LAST))]
