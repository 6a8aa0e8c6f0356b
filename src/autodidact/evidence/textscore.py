"""Sentences, terms and BM25 for the offline extractive engine, Chinese and English alike.

Why here and not in the index: the index ranks *passages* of a whole corpus; the agent then has a
handful of passages per key question and must pick *sentences* to quote verbatim. Sentence spans
are offsets into the passage text, so a chosen sentence is an exact substring of its snapshot and
always passes the quote check (V036).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(f"([{_CJK}]+)|([A-Za-z][A-Za-z0-9_]*|\\d+(?:\\.\\d+)?%?)")
# Sentence ends: Chinese 。！？ (and ；), English .!?; followed by space, a blank line, or a line that
# starts a heading, list item or table row. A single line break inside a paragraph is not an end.
_SENT_END = re.compile(r"(?<=[。！？；])|(?<=[.!?;])(?=\s)|\n[ \t]*(?:\n|(?=[#>|]|[*+-]\s|\d+\.\s))")
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "being",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "may",
        "might",
        "more",
        "most",
        "no",
        "not",
        "of",
        "on",
        "or",
        "our",
        "so",
        "such",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "about",
        "also",
        "between",
        "both",
        "each",
        "many",
        "much",
        "other",
        "over",
        "same",
        "some",
        "use",
        "used",
        "using",
        "very",
    ]
)
CJK_STOP = frozenset({"什么", "哪些", "如何", "怎么", "是否", "为什", "么是", "的是", "一个", "这个", "可以", "以及"})


_ES_AFTER = ("s", "x", "z", "ch", "sh")


def _stem(word: str) -> str:
    """A light plural/tense stem. "-es" only after s/x/z/ch/sh, so "coroutines" and "coroutine" agree."""
    for suffix in ("ing", "ies", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "es" and not word[:-2].endswith(_ES_AFTER):
                continue
            if suffix == "s" and word.endswith("ss"):
                return word
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def terms(text: str, keep: frozenset[str] = frozenset()) -> list[str]:
    """Content terms: stemmed lower-case words (no stopwords but those in ``keep``), numbers, CJK bigrams.

    ``keep`` holds stopwords that are content for this query (the "for" of "the for statement").
    """
    out: list[str] = []
    for match in _TOKEN.finditer(text):
        cjk, word = match.group(1), match.group(2)
        if cjk:
            if len(cjk) == 1:
                out.append(cjk)
            else:
                out.extend(g for g in (cjk[i : i + 2] for i in range(len(cjk) - 1)) if g not in CJK_STOP)
        elif word:
            low = word.lower()
            if low in keep:
                out.append(low)
            elif low not in STOPWORDS and len(low) > 1:
                out.append(_stem(low))
    return out


def sentence_spans(text: str, min_chars: int = 12, max_chars: int = 420) -> list[tuple[int, int]]:
    """(start, end) offsets of sentences in ``text``; long ones cut at a clause or word boundary."""
    spans: list[tuple[int, int]] = []
    pos = 0
    for match in [*_SENT_END.finditer(text), None]:
        end = match.start() if match is not None else len(text)
        if match is not None and end == pos:
            pos = match.end()
            continue
        start, stop = pos, end
        while start < stop and text[start] in " \t\r\n-*#>|":
            start += 1
        while stop > start and text[stop - 1].isspace():
            stop -= 1
        while stop - start > max_chars:
            cut = max(text.rfind(ch, start + min_chars, start + max_chars) for ch in (",", "，", "、", " "))
            cut = cut + 1 if cut > start else start + max_chars
            spans.append((start, cut))
            start = cut
            while start < stop and text[start].isspace():
                start += 1
        if stop - start >= min_chars or _cjk_count(text, start, stop) >= 5:
            spans.append((start, stop))
        pos = match.end() if match is not None else len(text)
    return spans


def _cjk_count(text: str, start: int, stop: int) -> int:
    return sum(1 for ch in text[start:stop] if "\u3400" <= ch <= "\u9fff")


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


def coverage(query: Sequence[str], doc_terms: Sequence[str]) -> float:
    """Share of distinct query terms that occur in the document (0..1)."""
    q = set(query)
    return len(q & set(doc_terms)) / len(q) if q else 0.0


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, at a word boundary when possible, with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit - 1)
    cut = cut if cut > limit // 2 else limit - 1
    return text[:cut].rstrip(" ,;，；") + "…"
