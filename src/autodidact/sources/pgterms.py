"""Passage text → the lexemes of the team backend's ``tsvector``, and a query → its ``tsquery``.

Why a module of its own: the index side and the query side must cut text identically, as
sources/passages.py does for SQLite. Terms are the project's own (``autodidact.text.terms``,
docs/text.md) with derivational endings folded as FTS5's Porter stemmer folds them, and each run
of ideographs cut into all of its bigrams as sources/passages.py cuts it (docs/team.md, "The
index"); lexemes are quoted so nothing a query says is ``tsquery`` syntax.
"""

from __future__ import annotations

from collections.abc import Iterable

from autodidact.sources.passages import STOPWORDS as QUERY_STOPWORDS
from autodidact.text.tokens import CJK_RUN, STOPWORDS, cjk_bigrams, has_cjk, terms

MAX_POSITION = 16383  # PostgreSQL's limit for a tsvector position
MAX_QUERY_TERMS = 32

# Function words are indexed (as written, unstemmed) and asked for as LocalIndex asks: only its own
# short stopword list leaves a query ("between", "not", "into" stay), unless nothing else is left.
_QUERY_KEEP = STOPWORDS - QUERY_STOPWORDS


_VOWELS = frozenset("aeiou")
# Derivational endings folded off a stem whose rest is long enough (Porter's step 4, a few of it).
_FOLDED = ("ment", "abl", "ibl", "enc", "anc", "ent", "ant", "iv", "al", "at")


def _measure(word: str) -> int:
    """Porter's m: how many vowel-consonant sequences a stem holds ("configur" 3, "form" 1)."""
    m, prev_vowel = 0, False
    for i, ch in enumerate(word):
        vowel = ch in _VOWELS or (ch == "y" and i > 0 and word[i - 1] not in _VOWELS)
        if prev_vowel and not vowel:
            m += 1
        prev_vowel = vowel
    return m


def fold(term: str) -> str:
    """A text-layer stem with its derivational ending folded off, as FTS5's Porter stemmer folds it.

    Why: the text layer's light stems keep "configuration" ("configurat") apart from "configure"
    ("configur"), "compression" from "compressed", "management" from "manage"; on the pydoc and
    Debian corpora that cost gold facts the SQLite index finds (bench/team_index.py). A short stem
    ("form" of "format", "vers" of "version") keeps its ending (Porter's m > 1)."""
    if not term.isascii() or "_" in term:
        return term
    for ending in ("ions", "ion"):
        if term.endswith(ending):
            base = term[: -len(ending)]
            return base if base[-1:] in ("s", "t") and _measure(base) > 1 else term
    for ending in _FOLDED:
        if term.endswith(ending) and _measure(term[: -len(ending)]) > 1:
            return term[: -len(ending)]
    return term


def _lexeme(term: str) -> str:
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"


def tsvector_text(body: str, title: str, section: str) -> tuple[str, int]:
    """The ``tsvector`` literal of one passage's three columns and its length in terms.

    Each term's positions are labelled with its column (A body, B title, C section)."""
    positions: dict[str, list[str]] = {}
    pos = 0
    for text, label in ((body, "A"), (title, "B"), (section, "C")):
        for term in map(fold, _cut(text, STOPWORDS)):
            pos += 1
            positions.setdefault(term, []).append(f"{min(pos, MAX_POSITION)}{label}")
    literal = " ".join(f"{_lexeme(t)}:{','.join(p[:255])}" for t, p in sorted(positions.items()))
    return literal, pos


def query_lexemes(query: str) -> list[tuple[str, bool]]:
    """The query's terms as (lexeme, is_prefix), in order, each once: the index's own terms."""
    out: list[tuple[str, bool]] = []
    seen: set[str] = set()
    found = _cut(query, _QUERY_KEEP) or _cut(query, STOPWORDS)
    for term in map(fold, found):
        if term not in seen:
            seen.add(term)
            out.append((term, len(term) == 1 and not term.isascii()))  # a lone CJK character: a prefix
    return out[:MAX_QUERY_TERMS]


def _cut(text: str, keep: frozenset[str]) -> list[str]:
    """The text layer's terms, with each run of ideographs as every one of its bigrams (as the
    SQLite index cuts it: a query's run is not split at its function words)."""
    if not has_cjk(text):
        return terms(text, keep=keep)
    out: list[str] = []
    pos = 0
    for match in CJK_RUN.finditer(text):
        out += terms(text[pos : match.start()], keep=keep)
        out += cjk_bigrams(match.group(0))
        pos = match.end()
    out += terms(text[pos:], keep=keep)
    return out


def tsquery(items: Iterable[tuple[str, bool]], op: str) -> str:
    """A ``tsquery`` literal: the lexemes joined by ``&`` or ``|`` (a lone CJK character as a prefix)."""
    return f" {op} ".join(_lexeme(t) + (":*" if prefix else "") for t, prefix in items)
