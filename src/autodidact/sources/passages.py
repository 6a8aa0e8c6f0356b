"""Text → passages, and text → search terms that work for Chinese and English alike.

Why a module of its own: the index stores passage *offsets* into a snapshot (so a hit can be
quoted and verified against the snapshot), and both the index and the query side must tokenise
identically. SQLite's ``unicode61`` tokenizer splits Latin text into words but treats a run of
Chinese characters as one giant token; the ``trigram`` tokenizer cannot match the two-character
words that make up most Chinese queries. So CJK runs are rewritten into overlapping bigrams in a
shadow column (``软件包`` → ``软件 件包``) and the query gets the same treatment; Latin words go
through ``porter unicode61`` unchanged (stemming: "expressions" finds "expression").
"""

from __future__ import annotations

import re

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002ffff"
CJK_RUN = re.compile(f"[{_CJK}]+")
_TOKEN = re.compile(f"([{_CJK}]+)|([^\\W_{_CJK}]+)")
_PARA_BREAK = re.compile(r"\n[ \t]*\n\s*")
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+|(?<=[。！？；])|\n")
STOPWORDS = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "by", "do", "does", "for", "from", "how", "in", "is", "it",
        "of", "on", "or", "that", "the", "this", "to", "was", "what", "when", "where", "which", "who", "why", "with",
    }
)  # fmt: skip
MAX_TERMS = 32


def cjk_bigrams(run: str) -> list[str]:
    """``软件包`` → [``软件``, ``件包``]; a single character stays itself."""
    if len(run) < 2:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


# Every byte a character below U+3000 is written with in UTF-8 (its lead byte is below 0xE3, its
# continuation bytes are 0x80–0xBF); every CJK range above starts after U+3000.
_BELOW_CJK = bytes(range(0xE3))


def may_have_cjk(text: str) -> bool:
    """False when ``text`` has no character from U+3000 up, so no CJK run: a test at C speed,
    where the CJK pattern takes a step per character (issue 18: ``segment`` of every passage of a
    document was a tenth of a rebuild)."""
    return bool(text.encode("utf-8", "surrogatepass").translate(None, _BELOW_CJK))


def segment(text: str) -> str:
    """The shadow text the FTS index sees: CJK runs as space-separated bigrams, the rest as is."""
    if text.isascii():  # no CJK run to rewrite (most passages of an English corpus)
        return text
    return CJK_RUN.sub(lambda m: " " + " ".join(cjk_bigrams(m.group(0))) + " ", text)


def query_terms(query: str) -> list[tuple[str, bool]]:
    """Search terms of a free-text query as (term, is_cjk); stopwords dropped when others remain."""
    terms: list[tuple[str, bool]] = []
    seen: set[str] = set()
    for match in _TOKEN.finditer(query):
        cjk, word = match.group(1), match.group(2)
        new = [(gram, True) for gram in cjk_bigrams(cjk)] if cjk else [(word.lower(), False)]
        for term in new:
            if term[0] not in seen:
                seen.add(term[0])
                terms.append(term)
    content = [t for t in terms if t[1] or t[0] not in STOPWORDS]
    return (content or terms)[:MAX_TERMS]


def fts_term(term: str, is_cjk: bool) -> str:
    """One FTS5 phrase, quoted (so operators and punctuation in queries are inert)."""
    quoted = '"' + term.replace('"', '""') + '"'
    return quoted + "*" if is_cjk and len(term) == 1 else quoted


def match_expressions(query: str) -> tuple[str | None, str | None]:
    """(all terms AND-ed, any term OR-ed) as FTS5 MATCH strings; (None, None) if no terms."""
    terms = [fts_term(t, cjk) for t, cjk in query_terms(query)]
    if not terms:
        return None, None
    return " AND ".join(terms), " OR ".join(terms)


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


_WORD_TAIL = re.compile(f"[^\\W{_CJK}]*")


def highlight_spans(text: str, query: str) -> list[tuple[int, int]]:
    """Merged (start, end) spans of ``text`` that match a query term (case-insensitive)."""
    found: list[tuple[int, int]] = []
    lowered = text.lower()
    if len(lowered) != len(text):  # a few characters lowercase to two: keep offsets aligned
        lowered = "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)
    for term, is_cjk in query_terms(query):
        needle = term if is_cjk else _stem(term)
        pos = lowered.find(needle)
        while pos >= 0 and needle:
            end = pos + len(needle)
            if is_cjk:
                found.append((pos, end))
            elif pos == 0 or not (lowered[pos - 1].isascii() and lowered[pos - 1].isalnum()):
                tail = _WORD_TAIL.match(text, end)
                found.append((pos, tail.end() if tail else end))
            pos = lowered.find(needle, pos + 1)
    spans: list[tuple[int, int]] = []
    for s, e in sorted(found):
        if spans and s <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], e))
        else:
            spans.append((s, e))
    return spans


def highlight_parts(text: str, query: str, width: int = 240) -> list[tuple[str, bool]]:
    """A one-line snippet as (text, is_match) parts, around the window that holds the most
    distinct query words: a passage naming "logger" early and "propagate … logger" later is shown
    where both stand, not at its first "logger" (a trial's search cut off before the answer)."""
    spans = highlight_spans(text, query)
    start = 0
    if spans:
        best = -1
        for s, _ in spans:
            begin = max(0, s - width // 4)
            words = {text[a:b].casefold() for a, b in spans if begin <= a and b <= begin + width}
            if len(words) > best:
                best, start = len(words), begin
    end = min(len(text), start + width)
    parts: list[tuple[str, bool]] = [("…", False)] if start > 0 else []
    pos = start
    for s, e in spans:
        if e <= start or s >= end:
            continue
        s, e = max(s, start), min(e, end)
        parts.append((text[pos:s], False))
        parts.append((text[s:e], True))
        pos = e
    parts.append((text[pos:end], False))
    if end < len(text):
        parts.append(("…", False))
    # one line: whitespace runs collapse inside and across parts
    flat = [(re.sub(r"\s+", " ", t), m) for t, m in parts]
    return [p for p in flat if p[0]]


def highlight(text: str, query: str, width: int = 240) -> str:
    """The snippet of :func:`highlight_parts` as markdown: each match wrapped in ``**``, the text's
    own asterisks escaped (``**kwargs`` is not a match marker)."""
    out = "".join(f"**{t}**" if m else t.replace("*", "\\*") for t, m in highlight_parts(text, query, width))
    return re.sub(r" {2,}", " ", out).strip()


def _pieces(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    """Split one long paragraph at sentence ends (hard cut as a last resort)."""
    out: list[tuple[int, int]] = []
    cur = start
    while end - cur > max_chars:
        window_end = cur + max_chars
        cut = -1
        for match in _SENTENCE_END.finditer(text, cur + max_chars // 3, window_end):
            cut = match.end() if match.end() > match.start() else match.start()
        if cut <= cur:
            space = text.rfind(" ", cur + max_chars // 2, window_end)
            cut = space + 1 if space > cur else window_end
        out.append((cur, cut))
        cur = cut
    out.append((cur, end))
    return [_strip(text, s, e) for s, e in out if text[s:e].strip()]


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


# What pydoc writes after the signature of a module function that is a bound method ("randint(a, b)
# method of random.Random instance", "set_executable(executable) method of
# multiprocessing.context.DefaultContext instance"): still the entry's signature line. Without it
# every function of such a module (random, multiprocessing) was no entry and its description no
# sentence (docs/sections.md).
BOUND_METHOD_TAIL = r"(?:[ \t]+method[ \t]+of[ \t]+[\w.]+[ \t]+instance)?"

# The head of a reference entry: a signature line ("mkstemp(suffix=None, prefix=None, dir=None,
# text=False)", " |  start(self)" inside a class) with the entry's body indented below it.
# It is matched against the text with a line break put in front (each match starts at the break
# before its line, which gives the regex engine a character to skip to; as ``^`` under re.M it was
# tried at every position: issue 18). The break sits one character before the text, so a match's
# start is its line's offset in the text. The indent and the name never give back what they took
# (atomic, possessive): what follows each needs a letter or "(", which neither can give back, and
# backing off cost every indented line of prose a try per way of splitting its indent.
_ENTRY_HEAD = re.compile(
    r"\n(?P<indent>(?>[ \t]*\|?[ \t]*))(?:class\s+|def\s+|async\s+def\s+)?(?P<name>[A-Za-z_][\w.]*+)\(.*\)"
    + BOUND_METHOD_TAIL
    + r"[ \t]*(?:->[^\n]*)?:?[ \t]*\n(?P<body>[ \t]*\|?[ \t]*)\S"
)


def entry_heads(text: str) -> list[tuple[int, str]]:
    """(offset, name) of each reference entry's signature line, in order.

    Why: a passage cut from the middle of an entry ("The return value is a pair (fd, name) …") does
    not name the entry it documents, so a search for "mkstemp" missed mkstemp's own body. The index
    adds the entry's name to such a passage's section column (docs/sections.md, "Search by section")."""
    return [
        (m.start(), m.group("name").rsplit(".", 1)[-1])
        for m in _ENTRY_HEAD.finditer("\n" + text)
        if len(m.group("body").expandtabs()) > len(m.group("indent").expandtabs())
    ]


# "     |      - choices -- A container of values that should be allowed. If not None," (pydoc's
# argument lists; man pages and field lists write "name -- description" or "name: description").
_DEFINITION_LINE = re.compile(r"^[ \t|]*[-*•][ \t]+(?P<name>[A-Za-z_][\w.]*)[ \t]+--[ \t]+\S", re.M)
DEFINITION_CHARS = 600


def definition_items(text: str) -> list[tuple[int, int, str]]:
    """(start, end, name) of each item of a definition list: the item's line and the lines that go
    on with it, up to the next item, a blank line or :data:`DEFINITION_CHARS`.

    Why: asked "What is meant by choices in argparse?", the answer is the item "- choices -- A
    container of values that should be allowed.", while search ranks the short signatures that
    merely list ``choices=None`` above the long docstring holding it."""
    found = list(_DEFINITION_LINE.finditer(text))
    out: list[tuple[int, int, str]] = []
    for i, m in enumerate(found):
        limit = found[i + 1].start() if i + 1 < len(found) else len(text)
        blank = _PARA_BREAK.search(text, m.start(), limit)
        end = min(blank.start() if blank else limit, m.start() + DEFINITION_CHARS)
        out.append((m.start(), end, m.group("name")))
    return out


def chunk_spans(text: str, min_chars: int = 300, max_chars: int = 800) -> list[tuple[int, int]]:
    """Paragraph-ish passages as (start, end) offsets: ~min..max chars, never splitting mid-word if avoidable."""
    pieces: list[tuple[int, int]] = []
    pos = 0
    for brk in [*_PARA_BREAK.finditer(text), None]:
        para_end = brk.start() if brk else len(text)
        if text[pos:para_end].strip():
            s, e = _strip(text, pos, para_end)
            pieces.extend(_pieces(text, s, e, max_chars) if e - s > max_chars else [(s, e)])
        pos = brk.end() if brk else len(text)
    chunks: list[tuple[int, int]] = []
    for s, e in pieces:
        if chunks and chunks[-1][1] - chunks[-1][0] < min_chars and e - chunks[-1][0] <= max_chars:
            chunks[-1] = (chunks[-1][0], e)
        else:
            chunks.append((s, e))
    if (
        len(chunks) > 1
        and chunks[-1][1] - chunks[-1][0] < min_chars // 3
        and chunks[-1][1] - chunks[-2][0] <= max_chars
    ):
        last = chunks.pop()
        chunks[-1] = (chunks[-1][0], last[1])
    return chunks
