"""Text primitives the wiki writer and its auditor must agree on.

Why one module: compile writes citations, links and statements that check later reads back. If
the two sides used different regexes, a wiki written by compile could fail its own audit. So the
citation forms of docs/contracts.md §1.4 (``（来源：a.md、b.md）`` / ``(source: a.md, b.md)``, each name
plain or as a markdown link ``[a.md](../raw/a.md)`` that Obsidian and GitHub follow), the
``[[wikilink]]`` syntax, the ``> ⚠️ 待核实:`` marker, sentence splitting and the tokenizer used
for retrieval (words for Latin script, bigrams for CJK) all live here, once.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
import unicodedata
from collections.abc import Iterable, Iterator
from urllib.parse import unquote

from autodidact.store.paths import slugify
from autodidact.text.sentences import FULL_WIDTH_STOPS, abbreviation_at, mask_code

# One cited name as a markdown link: ``[a.md](../raw/a.md)`` or ``[a b.md](<../raw/a b.md>)``.
_CITE_LINK = r"\[[^\[\]\n]+\]\((?:<[^<>\n]+>|[^()<>\s]+)\)"
_CITE_LINK_RE = re.compile(r"\[([^\[\]\n]+)\]\((?:<([^<>\n]+)>|([^()<>\s]+))\)")
CITATION_RE = re.compile(
    rf"[（(]\s*(?:来源|出处|sources?|refs?)\s*[:：]\s*((?:{_CITE_LINK}|[^（）()\n])+?)\s*[)）]", re.IGNORECASE
)
WIKILINK_RE = re.compile(r"\[\[([^\[\]|#\n]+)(?:#[^\[\]|\n]*)?(?:\|([^\[\]\n]*))?\]\]")
MARKER_RE = re.compile(r"^\s*>\s*⚠️?\s*待核实\s*[:：]\s*(.*)$")
MARKER_PREFIX = "> ⚠️ 待核实: "
_CITE_SPLIT = re.compile(r"\s*[、,，;；]\s*")
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN_RE = re.compile(rf"[a-z0-9]+(?:['’][a-z]+)?|[{_CJK}]+")
_CJK_RE = re.compile(rf"[{_CJK}]")
_SENTENCE_END = re.compile(
    r"(?<=[。！？；])|(?<=[!?])(?=\s)"  # "(not the keys!)" goes on
    r"|(?<=[.])(?=\s+\**[A-Z\"“‘(\[`]|\s*$|\s+[a-z_][\w.]*\()|(?<=[.])\s+(?=[" + _CJK + r"])"
    r"|(?<=[.!?][’”\"')])(?=\s+\**[A-Z\"“‘(\[`])"
)
_NUMBER_RE = re.compile(
    r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?\s*"
    r"(%|％|percent|万亿|亿|万|千|百万|billion|million|thousand|trillion|元|美元|倍|年|个|种|ms|s|秒|kb|mb|gb|tb)?",
    re.IGNORECASE,
)

EN_STOPWORDS = frozenset(
    """a an the and or of to in on at for with by from as is are was were be been being it its this that these
    those what which who whom how why when where do does did can could should would will shall may might must
    not no yes than then there their they them he she his her we our you your i me my about into over under
    between vs versus also more most less very such so if but any some each other much many""".split()  # noqa: SIM905
)
ZH_STOP_BIGRAMS = frozenset(
    "什么 是什 么是 如何 怎么 怎样 为什 么样 哪些 有哪 可以 一个 "  # noqa: SIM905
    "这个 那个 我们 他们 以及 或者 因为 所以 的是 了一".split()
)


def has_tokens(text: str, n: int = 3) -> bool:
    """``len(tokens(text)) >= n``, stopping at the ``n``-th token (the audit asks this of every sentence)."""
    count = 0
    for match in _TOKEN_RE.finditer(nfkc(text).lower()):
        tok = match.group()
        if _CJK_RE.match(tok):
            grams = [tok] if len(tok) == 1 else (tok[i : i + 2] for i in range(len(tok) - 1))
            count += sum(1 for g in grams if g not in ZH_STOP_BIGRAMS)
        elif tok not in EN_STOPWORDS and not tok.isdigit():
            count += 1
        if count >= n:
            return True
    return False


def nfkc(text: str) -> str:
    """NFKC-normalise (full-width digits and letters become ASCII)."""
    return unicodedata.normalize("NFKC", text)


def has_cjk(text: str) -> bool:
    """True when the text contains CJK ideographs."""
    return bool(_CJK_RE.search(text or ""))


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def tokens(text: str) -> list[str]:
    """Search tokens: lower-cased, lightly stemmed Latin words and CJK bigrams (single CJK runs kept)."""
    out: list[str] = []
    for match in _TOKEN_RE.finditer(nfkc(text).lower()):
        tok = match.group()
        if _CJK_RE.match(tok):
            if len(tok) == 1:
                out.append(tok)
            else:
                out.extend(b for b in (tok[i : i + 2] for i in range(len(tok) - 1)) if b not in ZH_STOP_BIGRAMS)
        elif tok not in EN_STOPWORDS and not tok.isdigit():
            if tok.endswith(("'s", "’s")):
                tok = tok[:-2]  # "Process's lifecycle" is about a process, not about "process'"
            out.append(_stem(tok))
    return out


def normalize_key(text: str) -> str:
    """Comparison key for titles, aliases and headings: NFKC, case-folded, spaces and punctuation dropped.

    ``+`` and ``#`` are kept, so ``C``, ``C++`` and ``C#`` stay three topics (whose slugs collide).
    Short texts (names and headings, looked up for every article of the wiki) are remembered.
    """
    return _short_key(text) if len(text) <= _SHORT_KEY else _normalize_key(text)


def _normalize_key(text: str) -> str:
    return "".join(ch for ch in nfkc(text).casefold() if ch.isalnum() or ch in "+#")


_SHORT_KEY = 160
_short_key = functools.lru_cache(maxsize=1 << 17)(_normalize_key)


def split_sentences(text: str) -> list[str]:
    """Split prose into sentences (Chinese and English punctuation); keeps decimals like ``3.12`` whole."""
    out: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        # Split where the line with its code spans blanked splits (text/sentences.mask_code).
        masked = mask_code(line)
        ends = (m.start() for m in _SENTENCE_END.finditer(masked) if m.start() > 0)
        cuts = [0, *(end for end in ends if not abbreviation_at(line, end)), len(line)]
        for start, end in itertools.pairwise(cuts):
            part = line[start:end].strip()
            if part:
                out.append(part)
    return out


def _clean_name(name: str) -> str:
    name = name.strip().strip("`'\"")
    return name[4:] if name.startswith("raw/") else name


def _names_in(inner: str) -> Iterator[tuple[str, str | None]]:
    """``(name, link target or None)`` for each name of a citation's inside, in order."""
    pos = 0
    for link in _CITE_LINK_RE.finditer(inner):
        for plain in _CITE_SPLIT.split(inner[pos : link.start()]):
            yield plain, None
        yield link.group(1), link.group(2) or link.group(3)
        pos = link.end()
    for plain in _CITE_SPLIT.split(inner[pos:]):
        yield plain, None


def citations(text: str) -> list[str]:
    """Raw file names cited in trailing-parenthesis form anywhere in ``text`` (order kept, unique).

    A name written as a link counts by its visible name (``[a.md](../raw/a.md)`` cites ``a.md``);
    :func:`citation_links` gives the targets, which ``verify`` checks."""
    seen: list[str] = []
    for match in CITATION_RE.finditer(text):
        for name, _target in _names_in(match.group(1)):
            name = _clean_name(name)
            if name and name not in seen:
                seen.append(name)
    return seen


def citation_links(text: str) -> list[tuple[str, str]]:
    """``(cited name, link target as a path)`` for each name cited as a link (targets unquoted)."""
    out: list[tuple[str, str]] = []
    for match in CITATION_RE.finditer(text):
        for name, target in _names_in(match.group(1)):
            if target is not None:
                out.append((_clean_name(name), unquote(target.split("#", 1)[0])))
    return out


def strip_citations(text: str) -> str:
    """The statement without its citation parentheses.

    A citation between two English sentences of a Chinese article (「…Invocation::).（来源：…）‘PO-
    Revision-Date’ The value …」) leaves a space: dropped bare, the two read as one sentence, and the
    audit's answer and the summary showed the glued pair beside the first one, the same sentence
    twice (docs/wiki.md, "Article layout")."""

    def gap(match: re.Match[str]) -> str:
        before = text[match.start() - 1 : match.start()]
        after = text[match.end() : match.end() + 1]
        latin = before and after and not before.isspace() and not after.isspace()
        return " " if latin and not has_cjk(before + after) and before not in FULL_WIDTH_STOPS else ""

    return re.sub(r"\s{2,}", " ", CITATION_RE.sub(gap, text)).strip()


# Characters a link target may not hold bare (CommonMark) or that Obsidian reads as a heading or block
# reference; everything else, CJK included, stays as written so the source reads naturally.
_TARGET_ESCAPES = {c: f"%{ord(c):02X}" for c in " %()<>[]#^|?\t"}


def cite_link(name: str) -> str:
    """``[a.md](../raw/a.md)``: a cited name as a link from ``wiki/`` (or ``outputs/``) to its file.

    A plain name is a raw file; a name with a folder (``wiki/x.md``, as an audit answer cites) is
    relative to the knowledge base. The visible text stays the bare name, so the citation reads as
    before and every parser that knows the plain form finds the same name. A name with a square
    bracket or a line break cannot be a link's text and stays plain."""
    if not name or any(c in name for c in "[]\n"):
        return name
    path = name if "/" in name else "raw/" + name
    target = "../" + "".join(_TARGET_ESCAPES.get(c, c) for c in path)
    return f"[{name}]({target})"


def render_citation(names: Iterable[str], lang: str) -> str:
    """``（来源：[a.md](../raw/a.md)、…）`` for Chinese, ``(source: [a.md](../raw/a.md), …)`` for English."""
    links = [cite_link(n) for n in names]
    if lang == "zh":
        return "（来源：" + "、".join(links) + "）"
    return "(source: " + ", ".join(links) + ")"


# The written answer that leads a block when a model writes one (docs/writing.md, "Wiki answers").
ANSWER_LEAD = {"en": "**Answer:** ", "zh": "**回答：**"}


def is_answer_paragraph(block: str) -> bool:
    """Whether a block is its section's written answer (replaced when its quotes change)."""
    return block.lstrip().startswith(tuple(ANSWER_LEAD.values()))


# The framing sentence the offline summary starts with (the template of docs/wiki.md, "Summary"): compile
# may regenerate a summary that starts with it; the audit and INDEX.md read past it.
_SUMMARY_TEMPLATE = re.compile(r"^(?:本文汇总了 \d+ 个来源中关于|This article collects the key points about )")


def is_auto_summary(summary: str) -> bool:
    """True when the summary was written by the offline engine (safe to regenerate)."""
    return not summary.strip() or bool(_SUMMARY_TEMPLATE.match(summary.strip()))


def cite(statement: str, names: Iterable[str], lang: str) -> str:
    """A statement with its trailing citation (existing citations replaced)."""
    body = strip_citations(statement)
    sep = "" if lang == "zh" else " "
    return f"{body}{sep}{render_citation(names, lang)}"


def wikilinks(text: str) -> list[str]:
    """Targets of ``[[target]]``, ``[[target|label]]`` and ``[[target#heading]]`` links."""
    return [m.group(1).strip() for m in WIKILINK_RE.finditer(text)]


def unlink(text: str, keep: set[str]) -> str:
    """Replace links whose normalised target is not in ``keep`` by their label (no dangling links)."""

    def repl(match: re.Match[str]) -> str:
        target, label = match.group(1).strip(), match.group(2)
        if normalize_key(target) in keep:
            return match.group(0)
        return (label or target).strip()

    return WIKILINK_RE.sub(repl, text)


def render_link(stem: str, title: str) -> str:
    """An Obsidian link to file ``stem``: ``[[stem]]`` or ``[[stem|Title]]``."""
    return f"[[{stem}]]" if stem == title else f"[[{stem}|{title}]]"


def article_stem(title: str) -> str:
    """The file stem for an article title: a slug that keeps CJK (``Python 生成器`` → ``python-生成器``)."""
    return slugify(title, max_len=80, fallback="topic")


def numbers(text: str) -> list[tuple[float, str, str]]:
    """Numbers with their unit: ``(value, unit, as written)``; a bare year-like or list number has unit ``""``."""
    out: list[tuple[float, str, str]] = []
    for match in _NUMBER_RE.finditer(nfkc(strip_citations(text))):
        whole = match.group(1).replace(",", "")
        frac = match.group(2)
        value = float(f"{whole}.{frac}" if frac else whole)
        unit = (match.group(3) or "").lower().replace("％", "%").replace("percent", "%")
        out.append((value, unit, match.group(0).strip()))
    return out


def without_numbers(text: str) -> str:
    """The statement with numbers removed: the 'subject' two numeric claims are compared on."""
    return _NUMBER_RE.sub(" ", nfkc(strip_citations(text)))


def jaccard(a: Iterable[str], b: Iterable[str]) -> float:
    """Jaccard similarity of two token collections."""
    sa, sb = set(a), set(b)
    if not sa or not sb:
        return 0.0
    return len(sa & sb) / len(sa | sb)


def iter_lines_outside_code(text: str) -> Iterator[tuple[int, str]]:
    """``(line_number, line)`` for lines not inside fenced code blocks."""
    fence = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
            continue
        if not fence:
            yield number, line


SAME_SUBJECT = 0.7


def _years(nums: list[tuple[float, str, str]]) -> set[float]:
    return {v for v, u, _ in nums if u in {"", "年"} and 1800 <= v <= 2100 and v == int(v)}


def clash(na: list[tuple[float, str, str]], nb: list[tuple[float, str, str]]) -> tuple[str, str] | None:
    """The first unit for which two number lists disagree: ``(as written in a, as written in b)``.

    Statements about different years ("2023: 5 亿" / "2024: 7 亿") are not a conflict.
    """
    ya, yb = _years(na), _years(nb)
    if ya and yb and ya != yb:
        return None
    for unit in sorted({u for _, u, _ in na} & {u for _, u, _ in nb}):
        va = {v for v, u, _ in na if u == unit}
        vb = {v for v, u, _ in nb if u == unit}
        if va != vb and not va & vb:
            return next(w for v, u, w in na if u == unit), next(w for v, u, w in nb if u == unit)
    return None


def numeric_conflict(a: str, b: str, threshold: float = SAME_SUBJECT) -> tuple[str, str] | None:
    """Two statements about the same subject that give different numbers: ``(number in a, number in b)``.

    Same subject = the statements without their numbers share most tokens (Jaccard ≥ ``threshold``,
    at least three tokens each); different = for a unit both use, the sets of values differ.
    """
    na, nb = numbers(a), numbers(b)
    if not na or not nb:
        return None
    ta, tb = tokens(without_numbers(a)), tokens(without_numbers(b))
    if len(set(ta)) < 3 or len(set(tb)) < 3 or jaccard(ta, tb) < threshold:
        return None
    return clash(na, nb)


_BULLET_RE = re.compile(r"^\s*(?:[-*+•]\s+|\d+[.)]\s+|\d+、\s*)")
_VERSION_NOTE = re.compile(
    r"^(?:(?:changed|new|added|removed|deprecated)\s+in\s+version|deprecated\s+since\s+version|"
    r"version\s*\d[\d.]*\s*[:：]|在\s*\d[\d.]*\s*版(?:本)?中?(?:更改|新增|加入|移除|弃用)|"
    r"\d[\d.]*\s*版(?:本)?(?:更改|新功能|新增)|版本\s*\d[\d.]*\s*(?:中)?(?:更改|新增|新功能))",
    re.I,
)
_GOOD_START = re.compile(rf"^(?:[\"“‘'`(（「《][A-Za-z0-9_{_CJK}]|[A-Z0-9{_CJK}])")
_TERMINAL = re.compile(r"[.!?。！？…][\"”’')）」》]*$")


# A pair of emphasis markers: a run of one to three stars that opens before a non-space and is not
# glued to a word before it, the same run closing after a non-space and not glued to a word after.
# Its text starts and ends with a word, a bracket or a quote that opens and closes it: "*" and (*),
# a star quoted as itself, are no pair. Chinese glues words, so only a Latin letter or digit is a
# word a marker may not touch.
_OPENS = rf"[\w{_CJK}(（「《“‘`]"
_CLOSES = rf"[\w{_CJK})）」》”’`.!?。！？:：]"
_PAIRED_STARS = re.compile(rf"(?<![A-Za-z0-9_*])(\*{{1,3}})(?={_OPENS})([^\n]*?{_CLOSES})\1(?![A-Za-z0-9_*])")
# Half a pair cut off by a sentence split: "**Note." ends a sentence that "…bold.**" goes on.
# Only where it opens a capital or a Chinese word ("**Note.", "**注意"), or closes after a sentence's
# end ("…bold.**"): "**kwargs", "*args" and "test*" are the text's own.
# Bold halves only: a single star before a capital is an Info manual's cross-reference ("*Note
# Recursive Download::"), the text's own.
_HALF_AT_START = re.compile(rf"^(\s*)\*{{2,3}}(?=[A-Z{_CJK}])(?![^*]*\*)")
_HALF_AT_END = re.compile(rf"(?<=[{_CJK}.!?。！？])(?<![^*]\*\S)\*{{2,3}}(\s*)$")


def strip_emphasis(text: str) -> str:
    """Prose without markdown emphasis (``*word*``, ``**词**``, and halves cut by a split).

    Only pairs go: a star that pairs with nothing is the text's own. Before, every star hugging a
    word was dropped, so quotes changed what they said — pydoc's ``ABCMeta(name, bases, namespace,
    /, **kwargs)`` lost its stars and unittest's ``pattern='test*.py'`` became ``'test.py'`` (a
    fresh-eyes trial; ``verify`` then failed the article). A star quoted as itself (‘*’, "(*)")
    stays too: dropped, "doesn't contain a ‘*’" read "doesn't contain a ‘’"."""
    previous = None
    while previous != text:  # "***a* b**": inner pairs first
        previous, text = text, _PAIRED_STARS.sub(r"\2", text)
    return _HALF_AT_END.sub(r"\1", _HALF_AT_START.sub(r"\1", text))


def strip_bullet(text: str) -> str:
    """A block without its leading list marker."""
    return _BULLET_RE.sub("", text, count=1)


def is_version_note(sentence: str) -> bool:
    """``Changed in version 3.8: ...`` / ``在 3.8 版更改: ...``: a changelog line, not a statement of the topic."""
    return bool(_VERSION_NOTE.match(sentence.strip()))


# A manual's option entry, its description on the same line: "‘-c’ ‘--continue’ Continue getting a
# partially-downloaded file." — the answer to "How do I resume downloads?", which a summary left out
# for not starting like a sentence.
_OPTION_ENTRY = re.compile(r"^(?:[‘'\"`]?-{1,2}[A-Za-z0-9][\w=\[\]-]*[’'\"`]?,?\s+)+[A-Z]")


def is_complete_sentence(sentence: str) -> bool:
    """Starts like a sentence (capital, digit, CJK, a quoted word, or an option entry's names before
    its description) and ends with terminal punctuation."""
    text = sentence.strip()
    return bool(_GOOD_START.match(text) or _OPTION_ENTRY.match(text)) and bool(_TERMINAL.search(text))


# "*Note Recursive Download::, for more details.": an Info manual's pointer to another node
_CROSS_REFERENCE = re.compile(r"^\W*\*?(?:[Nn]ote|[Ss]ee)\s+[^:]+::")


def summary_worthy(sentence: str) -> bool:
    """A sentence fit to stand alone in a summary or index line (not a pointer to another node,
    which led wget's article on recursive downloads and its INDEX line)."""
    return (
        is_complete_sentence(sentence)
        and not is_version_note(sentence)
        and len(tokens(sentence)) >= 3
        and not _CROSS_REFERENCE.match(sentence)
    )


# -- statements and the citations that cover them (the audit's 来源缺失, docs/audit.md) ---------------

_CLOSERS = "”’」』\"')）\\]"
_CJK_END = re.compile(rf"[。！？][{_CLOSERS}]*")
_LATIN_END = re.compile(rf"[.!?][{_CLOSERS}]*(?=\s+[*_\"“‘'(\[「]*[A-Z0-9{_CJK}]|\s*$)")
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|Mr|Mrs|Ms|Dr|Prof|Fig|Sec|vol))\.$", re.I)
_ITEM_START = re.compile(r"^\s*(?:[-*+•]\s+|\d+[.)]\s+|\d+、\s*|>\s?)")
_LINK_OR_PUNCT = re.compile(r"\[\[[^\[\]\n]*\]\]|\[[^\]\n]*\]\([^)\n]*\)")


def _sentence_spans(text: str, start: int, end: int, whole: tuple[tuple[int, int], ...] = ()) -> list[tuple[int, int]]:
    """``(start, end)`` of the sentences in ``text[start:end]``: Chinese ends always, Latin ends before a
    capital/CJK/digit or the end; abbreviations ("e.g."), quoted passages (“A. B.”) and the ``whole``
    spans (a title such as "Chapter 10. Data management") are not cut."""
    cuts: list[int] = []
    for pattern in (_CJK_END, _LATIN_END):
        for match in pattern.finditer(text, start, end):
            if pattern is _LATIN_END and _ABBREVIATION.search(text[max(start, match.start() - 8) : match.start() + 1]):
                continue
            if any(a < match.end() < b for a, b in whole):
                continue
            cuts.append(match.end())
    spans: list[tuple[int, int]] = []
    begin = start
    depth = [0, 0, 0]  # open “ and 「 quotes, ASCII " count, since ``begin`` (kept running: linear)
    last = start
    for cut in sorted(set(cuts)):
        piece = text[last:cut]
        last = cut
        depth[0] += piece.count("“") - piece.count("”")
        depth[1] += piece.count("「") - piece.count("」")
        depth[2] += piece.count('"')
        if depth[0] > 0 or depth[1] > 0 or depth[2] % 2:
            continue  # inside a quotation: the quoted passage is one statement
        spans.append((begin, cut))
        begin = cut
        depth = [0, 0, 0]
    if begin < end:
        spans.append((begin, end))
    return [(a, b) for a, b in spans if text[a:b].strip()]


def _is_statement(sentence: str) -> bool:
    """Worth a citation: three or more words once links, list markers and citations are gone."""
    return has_tokens(_LINK_OR_PUNCT.sub(" ", sentence))


def cited_statements(block: str, names: Iterable[str] = ()) -> list[tuple[str, list[str]]]:
    """Every statement of a markdown block with the raw files cited for it (``[]`` = uncited).

    The rule (docs/audit.md): a citation covers the sentence it ends, and only that sentence; a list
    item, a ``>`` quote line or a paragraph line that carries exactly one citation, at its end, covers
    that whole line. ``> ⚠️ 待核实`` marker lines, link-only sentences and fragments are not statements.
    ``names`` (the article's title and aliases) are never cut in two, whatever punctuation they hold.
    Linear in the block's length.
    """
    keep = tuple(n for n in names if _CJK_END.search(n) or re.search(r"[.!?]\s", n))
    items: list[tuple[str, bool]] = []  # (text, is a list item / quote line)
    for line in block.split("\n"):
        if not line.strip() or MARKER_RE.match(line):
            continue
        if _ITEM_START.match(line):
            items.append((line, True))
        elif items and (not items[-1][1] or line.startswith((" ", "\t"))):
            items[-1] = (items[-1][0] + "\n" + line, items[-1][1])  # a paragraph line, or an item's continuation
        else:
            items.append((line, False))
    out: list[tuple[str, list[str]]] = []
    for item, is_line in items:
        out.extend(_item_statements(item, is_line, keep))
    return out


def _trailing_single_citation(text: str) -> bool:
    found = list(CITATION_RE.finditer(text))
    return len(found) == 1 and not text[found[0].end() :].strip(" \t.。;；,，!！?？")


def _occurrences(text: str, names: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    low = text.casefold()
    found: list[tuple[int, int]] = []
    for name in names:
        key = name.casefold()
        at = low.find(key)
        while at >= 0:
            found.append((at, at + len(key)))
            at = low.find(key, at + len(key))
    return tuple(found)


def _item_statements(item: str, is_line: bool, names: tuple[str, ...] = ()) -> list[tuple[str, list[str]]]:
    lines = item.split("\n")
    covered: list[tuple[int, int, list[str]]] = []  # (start, end, citations) of lines covered whole
    if is_line:
        item = _ITEM_START.sub("", " ".join(part.strip() for part in lines), count=1)
        if _trailing_single_citation(item):
            body = strip_citations(item)
            return [(body, citations(item))] if _is_statement(body) else []
        text = item
    else:  # a paragraph: its lines joined; a line with one trailing citation is covered whole
        text, at = "", 0
        for n, part in enumerate(lines):
            part = part.strip()
            if n:
                text += " "
                at += 1
            if _trailing_single_citation(part):
                covered.append((at, at + len(part), citations(part)))
            text += part
            at += len(part)
    out: list[tuple[str, list[str]]] = []
    starts = [c[0] for c in covered]
    whole = _occurrences(text, names) if names else ()
    pos = 0

    def emit(start: int, end: int, cited: list[str]) -> None:
        for a, b in _sentence_spans(text, start, end, whole):
            sentence = strip_citations(text[a:b])
            if not _is_statement(sentence):
                continue
            i = bisect.bisect_right(starts, a) - 1
            line = covered[i] if i >= 0 and b <= covered[i][1] else None
            out.append((sentence, cited or (line[2] if line else [])))

    for match in CITATION_RE.finditer(text):
        spans = _sentence_spans(text, pos, match.start(), whole)
        spans = [s for s in spans if _is_statement(text[s[0] : s[1]])]
        cited = citations(match.group(0))
        if spans:
            emit(pos, spans[-1][0], [])
            emit(spans[-1][0], match.start(), cited)
        pos = match.end()
    emit(pos, len(text), [])
    return out


def index_targets(line: str) -> list[str]:
    """Article names an INDEX.md line points at, in any hand-written form.

    ``[[X]]``, ``[[X|label]]``, ``[[X#heading]]`` (also with full-width ``［［ ］］ ｜ ＃``, a ``.md``
    suffix or a ``wiki/`` path) and markdown links ``[label](X.md)``, anywhere in the line and
    followed by any punctuation (``- [[APT]]：…``).
    """
    text = nfkc(line)
    out: list[str] = []
    for match in WIKILINK_RE.finditer(text):
        out.append(_index_name(match.group(1)))
    for match in re.finditer(r"(?<!\!)\[[^\]\n]*\]\(\s*<?([^)\s>]+\.md)>?(?:#[^)\s]*)?\s*(?:\"[^\"]*\")?\)", text):
        out.append(_index_name(match.group(1)))
    return [t for t in out if t]


def _index_name(target: str) -> str:
    from urllib.parse import unquote

    name = unquote(target.strip().replace("\\", ""))
    name = name.rsplit("/", 1)[-1]
    return name[:-3] if name.lower().endswith(".md") else name
