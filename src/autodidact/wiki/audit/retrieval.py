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


class WikiIndex:
    """BM25 over ``(article, section)`` documents; the article title counts in every section."""

    def __init__(self, articles: list[Article]) -> None:
        self.docs: list[WikiPassage] = []
        self.lengths: list[int] = []
        self.postings: dict[str, dict[int, int]] = {}
        self.by_heading: dict[str, list[int]] = {}
        self.heading_terms: list[frozenset[str]] = []
        heading_terms: dict[str, frozenset[str]] = {}
        for art in articles:
            # A written answer's lead ("**Answer:** ") is a label, not part of what it says.
            units = [("", art.summary)] + [
                (s.heading, "\n".join(_unlabelled(b) for b in s.blocks)) for s in art.body_sections()
            ]
            title_tokens = tokens(art.title)
            for heading, text in units:
                if not text.strip():
                    continue
                toks = tokens(f"{heading}\n{text}") + title_tokens
                doc_id = len(self.docs)
                self.docs.append(WikiPassage(art.stem, art.title, heading, text))
                if heading not in heading_terms:  # headings repeat ("Key points"): compute each once
                    heading_terms[heading] = frozenset(key_terms(heading)) if heading else frozenset()
                self.heading_terms.append(heading_terms[heading])
                if heading:
                    self.by_heading.setdefault(normalize_key(heading), []).append(doc_id)
                self.lengths.append(len(toks))
                for tok, tf in Counter(toks).items():
                    self.postings.setdefault(tok, {})[doc_id] = tf
        self.avg_len = (sum(self.lengths) / len(self.lengths)) if self.lengths else 1.0
        self.common_df = max(64, len(self.docs) // 50)

    def search(
        self, query: str, k: int = 5, terms: list[str] | None = None, heading: str | None = None
    ) -> list[WikiPassage]:
        """The ``k`` best passages for ``query`` (or for already-tokenized ``terms``); empty when none match.

        With ``heading`` (the question), sections headed by it — or by all its key terms — come first.
        """
        n = len(self.docs)
        scores: dict[int, float] = {}
        wanted = set(terms) if terms is not None else set(tokens(query))
        terms = sorted((t for t in wanted if t in self.postings), key=lambda t: (len(self.postings[t]), t))
        for tok in terms:
            plist = self.postings[tok]
            idf = math.log(1 + (n - len(plist) + 0.5) / (len(plist) + 0.5))
            # A common term only re-scores the candidates rarer terms found: its postings grow with the
            # wiki, so walking them would make every question cost O(wiki); its idf is tiny anyway.
            if scores and len(plist) > self.common_df:
                pairs = [(d, plist[d]) for d in scores if d in plist]
            else:
                pairs = list(plist.items())
            for doc_id, tf in pairs:
                norm = tf * (K1 + 1) / (tf + K1 * (1 - B + B * self.lengths[doc_id] / self.avg_len))
                scores[doc_id] = scores.get(doc_id, 0.0) + idf * norm
        if heading:
            self._prefer_heading(scores, heading, wanted)
        best = heapq.nlargest(k, scores.items(), key=lambda item: (item[1], -item[0]))
        out = []
        for doc_id, score in best:
            doc = self.docs[doc_id]
            out.append(WikiPassage(doc.stem, doc.title, doc.heading, doc.text, round(score, 4)))
        return out

    def _prefer_heading(self, scores: dict[int, float], heading: str, wanted: set[str]) -> None:
        """Lift the sections written for this question above every other candidate (in place)."""
        lift = max(scores.values(), default=0.0) + 1.0
        exact = self.by_heading.get(normalize_key(heading), [])
        for doc_id in exact:
            scores[doc_id] = scores.get(doc_id, 0.0) + 2 * lift
        if not wanted:
            return
        for doc_id in list(scores):
            if doc_id not in exact and self.heading_terms[doc_id] and wanted <= self.heading_terms[doc_id]:
                scores[doc_id] += lift
