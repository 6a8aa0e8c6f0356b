"""Sentences, terms and BM25 for the offline extractive engine, Chinese and English alike.

Why here and not in the index: the index ranks *passages* of a whole corpus; the agent then has a
handful of passages per key question and must pick *sentences* to quote verbatim. Sentence spans
are offsets into the passage text, so a chosen sentence is an exact substring of its snapshot and
always passes the quote check (V036).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

from autodidact.text.sentences import sentence_spans
from autodidact.text.tokens import CJK_STOP, STOPWORDS, stem, terms

__all__ = ["BM25", "CJK_STOP", "STOPWORDS", "clip", "coverage", "kept_stopwords", "sentence_spans", "stem", "terms"]


class BM25:
    """Okapi BM25 over a small set of documents (sentences or passages)."""

    def __init__(self, docs: Sequence[Sequence[str]], k1: float = 1.2, b: float = 0.75) -> None:
        self.docs = [Counter(d) for d in docs]
        self.lengths = [len(d) for d in docs]
        self.avg = (sum(self.lengths) / len(self.lengths)) if self.lengths else 0.0
        self.k1, self.b = k1, b
        df: Counter[str] = Counter()
        for doc in self.docs:
            df.update(doc.keys())
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def score(self, query: Sequence[str], i: int, weights: Mapping[str, float] | None = None) -> float:
        """BM25 of document ``i`` for the query terms (each term's share scaled by ``weights``, default 1)."""
        doc, length = self.docs[i], self.lengths[i]
        total = 0.0
        for term in set(query):
            tf = doc.get(term, 0)
            if not tf:
                continue
            norm = tf * (self.k1 + 1) / (tf + self.k1 * (1 - self.b + self.b * length / (self.avg or 1)))
            total += self.idf.get(term, 0.0) * norm * (weights.get(term, 1.0) if weights else 1.0)
        return total


def kept_stopwords(variants: Sequence[Sequence[str]]) -> frozenset[str]:
    """The stopwords some query variant searches for (so the text side must keep them too)."""
    return frozenset(t for v in variants for t in v if t in STOPWORDS)


def coverage(query: Sequence[str], doc_terms: Sequence[str], weights: Mapping[str, float] | None = None) -> float:
    """Share of distinct query terms that occur in the document (0..1), each counted at its weight
    (default 1): the subject's words, which every passage of its page says, count less."""
    q = set(query)
    if not q:
        return 0.0
    if not weights:
        return len(q & set(doc_terms)) / len(q)
    said = set(doc_terms)
    return sum(weights.get(t, 1.0) for t in q if t in said) / sum(weights.get(t, 1.0) for t in q)


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, at a word boundary when possible, with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit - 1)
    cut = cut if cut > limit // 2 else limit - 1
    return text[:cut].rstrip(" ,;，；") + "…"
