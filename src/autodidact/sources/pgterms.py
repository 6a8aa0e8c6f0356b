"""Passage text → the lexemes of the team backend's ``tsvector``, and a query → its ``tsquery``.

Why a module of its own, and why these terms (docs/team.md, "The index"): the team backend must
find what the SQLite index finds, so it cuts text exactly as the SQLite index's FTS5 tokenizer
``porter unicode61 remove_diacritics 2`` cuts the same shadow text (sources/passages.py
``segment``: each run of ideographs as its bigrams): words of letters and digits, lower-cased,
diacritics removed, then Martin Porter's stemmer as FTS5 runs it. An earlier cut from the text
layer's light stems (docs/text.md) lost gold facts the SQLite index found ("bare" stemmed to
``bar``, "raise"/"raising" apart, single letters and stopwords uncounted in a passage's length), and
each repair of one fact moved another. With the same tokens, the same BM25 and the same tiers,
both backends answer the same query with the same passages. ``tests/sources_local/test_pgterms.py``
checks the cut against SQLite's own on every word of a text.

Lexemes are quoted so nothing a query says is ``tsquery`` syntax.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable
from functools import lru_cache

from autodidact.sources.passages import query_terms, segment

MAX_POSITION = 16383  # PostgreSQL's limit for a tsvector position
MAX_POSITIONS_PER_LEXEME = 255
_PORTER_MAX_BYTES = 64  # FTS5 passes longer tokens (and those under 3 bytes) through unstemmed
_PORTER_MIN_BYTES = 3

# PostgreSQL takes a lexeme of up to 2047 bytes; a longer "word" (a run of base64) is cut.
_MAX_LEXEME_CHARS = 500
_ASCII_WORD = re.compile(r"[a-z0-9]+")


# -- Porter's stemmer, as FTS5 runs it (on the token's UTF-8 bytes) ---------------------------------


def _is_vowel(c: int, y_is_vowel: bool) -> bool:
    return c in b"aeiou" or (y_is_vowel and c == 0x79)  # "y" after a consonant is a vowel


def _gobble_vc(stem: bytes, start: int, end: int, prev_consonant: bool) -> int:
    """The offset just past the first vowel-consonant sequence of ``stem[start:end]``, or 0."""
    consonant = prev_consonant
    i = start
    while i < end:
        consonant = not _is_vowel(stem[i], consonant)
        if not consonant:
            break
        i += 1
    i += 1
    while i < end:
        consonant = not _is_vowel(stem[i], consonant)
        if consonant:
            return i + 1
        i += 1
    return 0


def _m_gt0(stem: bytes, n: int) -> bool:
    return _gobble_vc(stem, 0, n, False) != 0


def _m_gt1(stem: bytes, n: int) -> bool:
    first = _gobble_vc(stem, 0, n, False)
    return bool(first) and _gobble_vc(stem, first, n, True) != 0


def _m_eq1(stem: bytes, n: int) -> bool:
    first = _gobble_vc(stem, 0, n, False)
    return bool(first) and _gobble_vc(stem, first, n, True) == 0


def _o_star(stem: bytes, n: int) -> bool:
    """Porter's *o: the stem ends consonant-vowel-consonant, the last not w, x or y."""
    if stem[n - 1] in b"wxy":
        return False
    mask, consonant = 0, False
    for i in range(n):
        consonant = not _is_vowel(stem[i], consonant)
        mask = (mask << 1) + int(consonant)
    return (mask & 7) == 5


def _m_gt1_s_or_t(stem: bytes, n: int) -> bool:
    return stem[n - 1] in b"st" and _m_gt1(stem, n)


def _has_vowel(stem: bytes, n: int) -> bool:
    return any(_is_vowel(stem[i], i > 0) for i in range(n))


_Rule = tuple[bytes, Callable[[bytes, int], bool], bytes]

# (suffix, condition on the stem before it, replacement), in FTS5's order: the first rule whose
# suffix matches decides, whether or not its condition holds.
_STEP2: list[_Rule] = [
    (b"ational", _m_gt0, b"ate"), (b"tional", _m_gt0, b"tion"), (b"enci", _m_gt0, b"ence"),
    (b"anci", _m_gt0, b"ance"), (b"izer", _m_gt0, b"ize"), (b"logi", _m_gt0, b"log"), (b"bli", _m_gt0, b"ble"),
    (b"alli", _m_gt0, b"al"), (b"entli", _m_gt0, b"ent"), (b"eli", _m_gt0, b"e"), (b"ousli", _m_gt0, b"ous"),
    (b"ization", _m_gt0, b"ize"), (b"ation", _m_gt0, b"ate"), (b"ator", _m_gt0, b"ate"), (b"alism", _m_gt0, b"al"),
    (b"iveness", _m_gt0, b"ive"), (b"fulness", _m_gt0, b"ful"), (b"ousness", _m_gt0, b"ous"),
    (b"aliti", _m_gt0, b"al"), (b"iviti", _m_gt0, b"ive"), (b"biliti", _m_gt0, b"ble"),
]  # fmt: skip
_STEP3: list[_Rule] = [
    (b"icate", _m_gt0, b"ic"), (b"ative", _m_gt0, b""), (b"alize", _m_gt0, b"al"), (b"iciti", _m_gt0, b"ic"),
    (b"ical", _m_gt0, b"ic"), (b"ful", _m_gt0, b""), (b"ness", _m_gt0, b""),
]  # fmt: skip
_STEP4: list[_Rule] = [
    (b"al", _m_gt1, b""), (b"ance", _m_gt1, b""), (b"ence", _m_gt1, b""), (b"er", _m_gt1, b""),
    (b"ic", _m_gt1, b""), (b"able", _m_gt1, b""), (b"ible", _m_gt1, b""), (b"ant", _m_gt1, b""),
    (b"ement", _m_gt1, b""), (b"ment", _m_gt1, b""), (b"ent", _m_gt1, b""), (b"ion", _m_gt1_s_or_t, b""),
    (b"ou", _m_gt1, b""), (b"ism", _m_gt1, b""), (b"ate", _m_gt1, b""), (b"iti", _m_gt1, b""),
    (b"ous", _m_gt1, b""), (b"ive", _m_gt1, b""), (b"ize", _m_gt1, b""),
]  # fmt: skip


def _step(word: bytes, rules: list[_Rule]) -> bytes:
    n = len(word)
    for suffix, cond, rep in rules:
        k = len(suffix)
        if n > k and word.endswith(suffix):
            if cond(word, n - k):
                return word[: n - k] + rep
            return word
    return word


def _step1a(word: bytes) -> bytes:
    n = len(word)
    if word[-1:] == b"s":
        if word[n - 2 : n - 1] == b"e":
            if (n > 4 and word[n - 4 : n - 2] == b"ss") or (n > 3 and word[n - 3 : n - 2] == b"i"):
                return word[:-2]
            return word[:-1]
        if word[n - 2 : n - 1] != b"s":
            return word[:-1]
    return word


def _step1b(word: bytes) -> tuple[bytes, bool]:
    """Step 1b: "eed", "ed", "ing"; True when "ed" or "ing" was taken off (step 1b's second part runs)."""
    n = len(word)
    if n > 3 and word.endswith(b"eed"):
        return (word[:-1], False) if _m_gt0(word, n - 3) else (word, False)
    if n > 2 and word.endswith(b"ed"):
        return (word[:-2], True) if _has_vowel(word, n - 2) else (word, False)
    if n > 3 and word.endswith(b"ing"):
        return (word[:-3], True) if _has_vowel(word, n - 3) else (word, False)
    return word, False


def porter(token: str) -> str:
    """FTS5's ``porter`` on one lower-cased token: Porter's stemmer over its UTF-8 bytes (so a
    token of ideographs passes through unchanged), tokens under 3 or over 64 bytes as they are."""
    word = token.encode("utf-8")
    if not _PORTER_MIN_BYTES <= len(word) <= _PORTER_MAX_BYTES:
        return token
    word = _step1a(word)
    word, more = _step1b(word)
    if more:
        if word[-2:] in (b"at", b"bl", b"iz") and len(word) > 2:
            word += b"e"
        else:
            c = word[-1:]
            if len(word) >= 2 and c not in (b"a", b"e", b"i", b"o", b"u", b"l", b"s", b"z") and c == word[-2:-1]:
                word = word[:-1]
            elif _m_eq1(word, len(word)) and _o_star(word, len(word)):
                word += b"e"
    if word[-1:] == b"y" and _has_vowel(word, len(word) - 1):
        word = word[:-1] + b"i"
    word = _step(_step(_step(word, _STEP2), _STEP3), _STEP4)
    n = len(word)
    if word[-1:] == b"e" and (_m_gt1(word, n - 1) or (_m_eq1(word, n - 1) and not _o_star(word, n - 1))):
        word = word[:-1]
        n -= 1
    if n > 1 and word.endswith(b"ll") and _m_gt1(word, n - 1):
        word = word[:-1]
    return word.decode("utf-8", errors="surrogateescape")


# -- unicode61 remove_diacritics 2 -----------------------------------------------------------------

_SQLITE_TOKENIZER = "unicode61 remove_diacritics 2"
# What unicode61 makes of each character: its folded form ("" for a diacritic it drops, the
# character lower-cased with its Latin diacritics removed) or " " for a separator. ASCII is known;
# every other character is asked of SQLite itself the first time it is met (``_learn``), because
# unicode61's tables are of SQLite's own Unicode version and differ from Python's unicodedata.
_FOLD: dict[int, str] = {c: (chr(c).lower() if chr(c).isascii() and chr(c).isalnum() else " ") for c in range(128)}
_FOLD_LOCK = threading.Lock()
_PROBE = "qa{}bq"  # a character between letters: one token when it is a token character


def _learn(chars: set[str]) -> None:
    """Add unicode61's reading of each of ``chars`` to ``_FOLD``, from SQLite's own tokenizer."""
    import sqlite3

    ordered = sorted(chars)
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize='{_SQLITE_TOKENIZER}')")
        conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
        conn.executemany(
            "INSERT INTO t(rowid, x) VALUES (?, ?)", [(i, _PROBE.format(ch)) for i, ch in enumerate(ordered)]
        )
        found: dict[int, list[str]] = {}
        for term, doc in conn.execute("SELECT term, doc FROM v ORDER BY doc, offset"):
            found.setdefault(int(doc), []).append(str(term))
    finally:
        conn.close()
    learned = {}
    for i, ch in enumerate(ordered):
        got = found.get(i, [])
        one = len(got) == 1 and got[0].startswith("qa") and got[0].endswith("bq")
        learned[ord(ch)] = got[0][2:-2] if one else " "
    with _FOLD_LOCK:
        _FOLD.update(learned)


@lru_cache(maxsize=200_000)
def _stemmed(word: str) -> str:
    return porter(word)


def tokens(text: str) -> list[str]:
    """The FTS5 tokens of a text (``porter unicode61 remove_diacritics 2``), CJK runs first cut into
    bigrams as the SQLite index cuts them (``segment``)."""
    if text.isascii():
        return [_stemmed(w) for w in _ASCII_WORD.findall(text.lower())]
    shadow = segment(text)
    unknown = {ch for ch in set(shadow) if ord(ch) not in _FOLD}
    if unknown:
        _learn(unknown)
    return [_stemmed(w[:_MAX_LEXEME_CHARS]) for w in shadow.translate(_FOLD).split()]


def _lexeme(term: str) -> str:
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"


def tsvector_text(body: str, title: str, section: str) -> tuple[str, int]:
    """The ``tsvector`` literal of one passage's three columns and its length in tokens (FTS5's
    row size: every token of the three columns, BM25's document length).

    Each term's positions are labelled with its column (A body, B title, C section)."""
    positions: dict[str, list[str]] = {}
    pos = 0
    for text, label in ((body, "A"), (title, "B"), (section, "C")):
        for term in tokens(text):
            pos += 1
            positions.setdefault(term, []).append(f"{min(pos, MAX_POSITION)}{label}")
    literal = " ".join(f"{_lexeme(t)}:{','.join(p[:MAX_POSITIONS_PER_LEXEME])}" for t, p in sorted(positions.items()))
    return literal, pos


def query_lexemes(query: str) -> list[tuple[str, bool]]:
    """The query's terms as (lexeme, is_prefix), one per term of ``passages.query_terms`` and in its
    order, as the SQLite index asks for them: each term its one token ("expressions" and
    "expression" are two terms with one lexeme, as in FTS5), a lone ideograph a prefix."""
    out: list[tuple[str, bool]] = []
    for term, is_cjk in query_terms(query):
        for lexeme in tokens(term):  # one token per term: query_terms cuts at unicode61's separators
            out.append((lexeme, is_cjk and len(term) == 1))
    return out


def tsquery(items: Iterable[tuple[str, bool]], op: str) -> str:
    """A ``tsquery`` literal: the lexemes joined by ``&`` or ``|`` (a lone CJK character as a prefix)."""
    return f" {op} ".join(_lexeme(t) + (":*" if prefix else "") for t, prefix in items)
