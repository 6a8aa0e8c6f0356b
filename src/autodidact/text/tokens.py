"""Terms of a text, the same for every layer: stemmed English words, numbers, CJK bigrams.

Why one definition: the index, the evidence agent, the wiki audit and the questioner each decide
whether a text "contains" a question's key terms; when each had its own stopword list and stemmer,
an answer the agent quoted could be judged missing by the audit ("configured" vs "configur").
See docs/text.md.
"""

from __future__ import annotations

import re
import unicodedata

# CJK ideographs (with extensions and compatibility forms) — Chinese is tokenised as bigrams.
CJK_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CJK_RUN = re.compile(f"[{CJK_CLASS}]+")
_TOKEN = re.compile(f"([{CJK_CLASS}]+)|([A-Za-z][A-Za-z0-9_]*|\\d+(?:\\.\\d+)?%?)")

# English function words: never a key term of a question or a passage.
STOPWORDS = frozenset(
    """a an and are as at be been being but by can could did do does for from had has have how i if in into is
    it its may might more most no not of on or our so such than that the their them then there these they this
    those to was we were what when where which while who why will with would you your about also between both
    each many much other over same some use used using very vs versus regarding concerning""".split()  # noqa: SIM905
)
# Chinese question-frame and glue words: a run of ideographs is split at them before bigrams are
# made, so neither they nor the bigrams straddling them ("是软" of "什么是软件") become key terms.
CJK_STOP_WORDS = (
    "为什么", "有哪些", "什么样", "什么", "哪些", "如何", "怎么", "怎样", "是否", "一个", "这个", "那个", "可以",
    "以及", "或者", "因为", "所以", "我们", "他们", "之间", "关系", "区别", "的", "是", "了", "和", "与", "及",
)  # fmt: skip
# Single ideographs that only join words ("dpkg 与 apt", "用 make 构建"): not a term on their own.
CJK_GLUE = frozenset("的是了与和及或在对用")
CJK_STOP = frozenset(w for w in CJK_STOP_WORDS if len(w) == 2)
_CJK_SPLIT = re.compile("|".join(CJK_STOP_WORDS))

_ES_AFTER = ("s", "x", "z", "ch", "sh")
_UNDOUBLE = frozenset("bdfgkmnprt")


def nfkc(text: str) -> str:
    """NFKC-normalise: full-width letters, digits and punctuation become their ASCII forms."""
    return unicodedata.normalize("NFKC", text)


_CJK_GAP = re.compile(f"(?<=[{CJK_CLASS}])\\s+(?=[{CJK_CLASS}])")


def glued(text: str) -> str:
    """``text`` with the spaces between Chinese characters taken out: "移动工作站 邮件系统设置" →
    "移动工作站邮件系统设置".

    Why: a subject is written with spaces between its parts, and a Chinese question puts it in a
    template without them ("Debian 移动工作站邮件系统设置的定义是什么？"); the bigrams across the seam
    ("站邮") are then the subject's too, not something the question asks beyond it (docs/text.md).
    """
    return _CJK_GAP.sub("", text)


def has_cjk(text: str) -> bool:
    """True when the text contains a CJK ideograph."""
    return bool(CJK_RUN.search(text or ""))


def cjk_bigrams(run: str) -> list[str]:
    """``软件包`` → [``软件``, ``件包``]; a single character stays itself."""
    if len(run) < 2:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def stem(word: str) -> str:
    """A light plural/tense stem. "-es" only after s/x/z/ch/sh, so "coroutines" and "coroutine" agree;
    a consonant doubled before "-ing"/"-ed" is undoubled, so "pinning" and "Pin-Priority" agree; a
    silent e goes, so "quote", "quotes", "quoted" and "quoting" agree."""
    if "_" in word:
        return word  # a code name ("task_done", "QUOTE_MINIMAL") is matched as written
    word = _IRREGULAR.get(word, word)
    for suffix in ("ing", "ies", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "es" and not word[:-2].endswith(_ES_AFTER):
                continue
            if suffix == "s" and word.endswith("ss"):
                return word
            base = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            if suffix in ("ing", "ed") and len(base) >= 4 and base[-1] == base[-2] and base[-1] in _UNDOUBLE:
                base = base[:-1]  # pinn → pin, stopp → stop; "installed", "passed", "buzzing" keep theirs
            return _without_silent_e(base)
    return _without_silent_e(word)


# Participles no suffix rule reaches: "an overridden run()" and "by overriding the run() method" are
# the same act, as are "written"/"writes" and "chosen"/"choosing". Only forms that are nothing else.
_IRREGULAR = {
    participle: verb
    for verb, forms in {
        "override": "overridden",
        "write": "written rewritten overwritten",
        "hide": "hidden",
        "give": "given",
        "take": "taken mistaken undertaken",
        "choose": "chosen",
        "break": "broken",
        "forbid": "forbidden",
        "drive": "driven",
        "know": "known",
        "show": "shown",
        "throw": "thrown",
        "draw": "drawn",
        "grow": "grown",
        "begin": "begun",
        "eat": "eaten",
        "fall": "fallen",
        "forget": "forgotten",
        "get": "gotten",
        "prove": "proven",
        "rise": "risen arisen",
        "speak": "spoken",
        "steal": "stolen",
        "freeze": "frozen",
        "beat": "beaten",
        "bite": "bitten",
    }.items()
    for participle in forms.split()
}


def _without_silent_e(word: str) -> str:
    """ "quote" → "quot", as "quoting" and "quoted" lose their e: without this, a question about
    quoting never met a sentence about quotes, nor "configure" "configuring" ("free", "tree" keep it).

    A noun in "-ation" keeps the stem of its verb in "-ate": "propagation" → "propagat", as
    "propagate" → "propagat" (a question about propagation never met the manual's "the propagate
    attribute"), likewise validation, creation, iteration, generation, allocation. Short words
    ("station", "nation") are left alone."""
    if len(word) >= 8 and word.endswith("ation"):
        return word[:-3]
    if len(word) >= 4 and word.endswith("e") and not word.endswith("ee"):
        return word[:-1]
    return word


def terms(text: str, keep: frozenset[str] = frozenset()) -> list[str]:
    """Content terms in order: stemmed lower-case words (no stopwords but those in ``keep``), numbers,
    and CJK bigrams (frame bigrams dropped).

    ``keep`` holds stopwords that are content for one query (the "for" of "the for statement").
    """
    out: list[str] = []
    for match in _TOKEN.finditer(nfkc(text)):
        cjk, word = match.group(1), match.group(2)
        if cjk:
            for piece in _CJK_SPLIT.split(cjk):
                if len(piece) > 1:
                    out.extend(cjk_bigrams(piece))
                elif piece and piece not in CJK_GLUE:
                    out.append(piece)
        elif word:
            low = word.lower()
            if low in keep:
                out.append(low)
            elif low not in STOPWORDS and len(low) > 1:
                out.append(stem(low))
    return out


def term_set(text: str) -> set[str]:
    """The distinct content terms of a text (for "does this answer hold the question's terms?")."""
    return set(terms(text))


def shared_cjk_bigrams(a: str, b: str) -> set[str]:
    """The bigrams two Chinese texts share as words, not across a word's edge.

    Why: bigrams straddle words, so 「检查文本编码」 and 「文本编辑器」 share 「本编」 as well as
    「文本」, and two shared bigrams made the editors' section look like the facet's own (an eval
    case's citations were a third 《文本编辑器》). A common run of odd length cannot fall on
    two-character words on both sides: where both texts go on past its end (「…编码」, 「…编辑」),
    or else past its start, that character belongs to another word in each, and the run is taken
    without it. Even runs (「文本编码」 in both) keep every bigram. docs/text.md, "Shared words, not shared bigrams".
    """
    out: set[str] = set()
    runs_a = [p for r in CJK_RUN.findall(nfkc(a)) for p in _CJK_SPLIT.split(r) if len(p) > 1]
    runs_b = [p for r in CJK_RUN.findall(nfkc(b)) for p in _CJK_SPLIT.split(r) if len(p) > 1]
    for x in runs_a:
        for y in runs_b:
            for i in range(len(x)):
                for j in range(len(y)):
                    if x[i] != y[j] or (i and j and x[i - 1] == y[j - 1]):
                        continue  # not where a maximal common run starts
                    n = 0
                    while i + n < len(x) and j + n < len(y) and x[i + n] == y[j + n]:
                        n += 1
                    start, end = i, i + n
                    if n >= 3 and n % 2:
                        if end < len(x) and end - i + j < len(y):
                            end -= 1
                        elif i and j:
                            start += 1
                    out.update(cjk_bigrams(x[start:end]) if end - start >= 2 else ())
    return out
