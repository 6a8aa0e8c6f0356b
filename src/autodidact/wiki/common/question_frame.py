"""A question's frame versus its content: which words must the wiki cover, and which aspect is asked.

Why: the audit's resolved / partial / open verdicts drive the loop (partial answers count towards
``audit_issues_count``), so they must measure *content* coverage. "What does a typical example of
X look like?" asks about X (content: X's words) and about an aspect (an example) — "typical",
"look" and "like" are frame, and no article will ever contain them as facts. So the frame words
(English and Chinese) are removed before key terms are computed, and the aspect is checked with
cue words instead (an example shows as "for example", "例如"; a limitation as "cannot", "只能"...).
A missing aspect is phrased as something researchable ("a typical example of X"), not as a list
of leftover words.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from autodidact.text.glossary import glossary_spans
from autodidact.wiki.common.markdown import has_cjk, nfkc, tokens
from autodidact.wiki.common.topics import question_subject

# Question-frame vocabulary (English): wh-words and auxiliaries are already EN_STOPWORDS in markdown.
_EN_FRAME_WORDS = """
work works working worked use uses used using mean means meant meaning happen happens get gets make makes explain
explained describe described example examples difference differences differ differs way ways thing things main
key important common best good role purpose exactly definition definitions define defined distinguish
distinguishes distinguished closely related concept concepts core component components mechanism mechanisms
variant variants typical look looks like problem problems solve solves solved solving limitation limitations
scenario scenarios right choice choices alternative alternatives approach approaches compare compared
comparison advantage advantages disadvantage disadvantages drawback drawbacks benefit benefits trade off offs
tradeoff tradeoffs challenge challenges trend trends recent development developments advance advances boundary
boundaries mainstream technical suitable situation situations help helps matter matters overview basic basics
principle principles aspect aspects detail details general generally really actually practice practical real
world should could would might must need needs tell know understand understanding happen simple concrete
handle handles handled deal deals relate relates interact interacts behave behaves relation relations
relationship relationships
""".split()  # noqa: SIM905
_EN_FRAME = frozenset(tokens(" ".join(_EN_FRAME_WORDS)))
# Question-frame vocabulary (Chinese), removed as substrings before bigrams are formed (longest first).
_ZH_FRAME_WORDS = sorted(
    """
    什么 如何 哪些 主要 核心 机制 区别 典型 例子 示例 定义 组成部分 组成 工作原理 原理 变体 解决了 解决 问题 局限性
    局限 场景 适合 使用 替代方案 替代 方案 相比 相近概念 概念 有何 怎样 优劣 对比 挑战 趋势 未来 技术路线 路线 边界
    是什么 有哪些 有什么 为什么 为何 是否 有没有 怎么 怎么样 吗 呢 的 了 与 和 及 是 在 中 对 哪种 何种 下 各 一个
    主流 前沿 进展 工程实践 实践 目标 要 能 可以 多大 多少 如何评估 评估 关键 要素 作用 用途 特点 优势 缺点 不足
    进行 关系 之间
    """.split(),  # noqa: SIM905
    key=len,
    reverse=True,
)
_ZH_FRAME_RE = re.compile("|".join(re.escape(w) for w in _ZH_FRAME_WORDS))
# "How heavy / long / often ... is X?" asks for a quantity of X; the adjective is frame, not content.
_HOW_ADJECTIVE = re.compile(
    r"\bhow (?:heavy|big|large|small|long|often|fast|slow|old|far|high|wide|many|much|well|quickly)\b", re.I
)


@dataclass(frozen=True)
class Aspect:
    """A kind of question beyond "what is X": how it is asked, how an answer shows it, how a gap reads."""

    name: str
    asked: re.Pattern[str]
    cues: re.Pattern[str]
    gap_en: str
    gap_zh: str


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


ASPECTS = [
    Aspect(
        "example",
        _re(r"\bexamples?\b|\blook like\b|\bsample\b|示例|例子|举例|案例"),
        _re(r"\bexamples?\b|\be\.g\.|\bfor instance\b|\bsuch as\b|例如|比如|示例|例子|举例"),
        "a typical example of {s}",
        "{s}的典型示例",
    ),
    Aspect(
        "limitations",
        _re(r"limitation|drawback|disadvantage|downside|pitfall|shortcoming|\blimits?\b|局限|缺点|不足|限制"),
        _re(
            r"\b(?:cannot|can't|can not|only|not allowed|illegal|limitations?|drawbacks?|restrict\w*|must not|"
            r"may not|unable|forbidden|not supported|SyntaxError)\b|不能|无法|限制|只能|缺点|局限|不支持|不可"
        ),
        "the limitations of {s}",
        "{s}的局限性",
    ),
    Aspect(
        "purpose",
        _re(r"\bproblems?\b.*\bsolv|\bsolves?\b|\bpurpose\b|\bwhy (?:use|do|does|is|are)\b|解决|用途|作用|痛点"),
        _re(
            r"\b(?:used for|allows?|lets?|enables?|makes? it possible|so that|in order to|avoids?|useful|"
            r"simplif\w+|efficient\w*|purpose|benefits?|advantages?)\b|用于|使得|允许|避免|解决|无需|简化|高效"
        ),
        "the problems addressed by {s}",
        "{s}解决的问题",
    ),
    Aspect(
        "compare",
        _re(r"distinguish|differ|compare|comparison|\bversus\b|\bvs\b|alternative|区别|不同|相比|对比|比较|替代"),
        _re(
            r"\b(?:unlike|whereas|instead of|rather than|differs?|different|compared?|equivalent|similar|"
            r"same as|however|except|alternatives?|while|but)\b|区别|不同|相比|而|但|替代|类似|等价"
        ),
        "the differences between {s} and related concepts or alternatives",
        "{s}与相近概念及替代方案的区别",
    ),
    Aspect(
        "use-cases",
        _re(r"scenario|\bwhen should\b|use cases?|right choice|suitable|situations?|场景|适合|适用"),
        _re(
            r"\b(?:useful|suitable|used for|ideal|appropriate|good fit|well suited|recommended|when to use|"
            r"use (?:it|them|this|one) (?:when|for|if))\b|适合|适用|场景|用于"
        ),
        "when to use {s}",
        "{s}的适用场景",
    ),
    Aspect(
        "variants",
        _re(r"\bvariants?\b|\btypes of\b|\bkinds of\b|\bforms of\b|flavou?rs|变体|类型|种类|形式"),
        _re(
            r"\b(?:variants?|types?|kinds?|forms?|flavou?rs?|both|either|also|another)\b|变体|类型|种类|形式|版本|两种|包括"
        ),
        "the variants of {s}",
        "{s}的主要变体",
    ),
    Aspect(
        "mechanism",
        _re(r"mechanism|components?|internals|under the hood|\bhow (?:do|does) .+ work\b|原理|机制|组成|如何工作"),
        _re(
            r"\b(?:calls?|called|execut\w+|suspend\w*|resum\w+|invok\w+|steps?|until|"
            r"each time|works? by|internally|consists? of|components?)\b"
            r"|执行|调用|过程|暂停|恢复|返回|组成|步骤|首先|然后"
        ),
        "how {s} works (its components and mechanism)",
        "{s}的组成与工作原理",
    ),
    Aspect(  # last: "What are the limitations of X?" asks for limitations, not a definition
        "definition",
        _re(r"\bdefinitions?\b|\bdefine\b|^what (?:is|are)\b|\bmeaning of\b|定义|什么是|是什么|含义"),
        _re(
            r"\b(?:is|are) (?:a|an|the|one|any|called)\b|\b(?:is|are) (?:\w+ ){1,2}(?:that|which|whose)\b|"
            r"\brefers? to\b|\bmeans\b|\bdefined\b|\bdenotes?\b|\brepresents?\b|"
            # a reference page defines by kind: "A handler class which writes …"
            r"\b(?:class|function|method|object|type|tool|command|program|utility) (?:that|which)\b|"
            r"\bknown as\b|\bcalled\b|是指|是一种|是一个|是一类|定义|称为|指的是|即|是"
        ),
        "a definition of {s}",
        "{s}的定义",
    ),
]


def key_terms(question: str) -> list[str]:
    """The question's content tokens: question words, frame vocabulary and particles removed.

    A frame word that is what the question asks about stays: the object of a preposition not
    followed by "of" ("the definition of *choices* in argparse", "the role of *basic* regular
    expression syntax"), where a template places its subject. The template's own head nouns come
    before "of" ("the definition of", "the limitations of") or stand apart ("What problems are
    solved by"). Before, argparse's "choices" and grep's "basic" were dropped, and the answer
    "choices -- A container of values that should be allowed." was judged off the question.
    """
    text = _ZH_FRAME_RE.sub(" ", question) if has_cjk(question) else question
    text = _HOW_ADJECTIVE.sub(" ", text)
    asked = _asked_frame_words(text)
    return [t for t in dict.fromkeys(tokens(text)) if t not in _EN_FRAME or t in asked]


_PREPOSITIONS = frozenset(["of", "in", "about", "for", "between", "on", "with", "by", "to", "from"])
_RAW_WORD = re.compile(r"[A-Za-z][\w'’+#-]*")


def _asked_frame_words(text: str) -> set[str]:
    """The frame words of ``text`` that stand where a template puts its subject (see key_terms)."""
    words = _RAW_WORD.findall(text)
    out: set[str] = set()
    for i, word in enumerate(words):
        toks = tokens(word)
        if not toks or not set(toks) & _EN_FRAME:
            continue
        before = words[i - 1].casefold() if i else ""
        after = words[i + 1].casefold() if i + 1 < len(words) else ""
        # "from closely related concepts": a run of frame words is the template's own phrase
        if before in _PREPOSITIONS and after != "of" and not set(tokens(after)) & _EN_FRAME:
            out.update(toks)
    return out


def aspect_of(question: str) -> Aspect | None:
    """The aspect a question asks about beyond its subject (the first that matches), if any."""
    return next((a for a in ASPECTS if a.asked.search(question)), None)


def aspect_gap(aspect: Aspect, question: str, zh: bool) -> str:
    """The missing aspect as a researchable phrase ("the limitations of asyncio", "备兑开仓的局限性")."""
    subject = question_subject(question) or ("该主题" if zh else "the topic")
    return (aspect.gap_zh if zh else aspect.gap_en).format(s=subject)


def content_gap(question: str, missing: set[str], zh: bool) -> str:
    """The question's content words the wiki does not cover, in question order, with the subject."""
    words: list[str] = []
    if has_cjk(question):
        for chunk in _ZH_FRAME_RE.sub(" ", question.strip("?？。. ")).split():
            toks = set(tokens(chunk))
            if toks and len(toks & missing) * 2 >= len(toks) and chunk not in words:
                words.append(chunk.strip("，,、；;：:"))
    else:
        for word in re.findall(r"[\w'’.+#-]+", question):
            toks = set(tokens(word))
            if toks and toks <= missing and word not in words:
                words.append(word.strip(".'’"))
    words = [w for w in words if w]
    if not words:
        return ""
    subject = question_subject(question)
    listed = "、".join(words) if zh else ", ".join(words)
    subject_terms = set(tokens(subject))
    if not subject or any(set(tokens(w)) & subject_terms for w in words):  # the subject itself is missing
        return listed
    return f"{subject}：{listed}" if zh else f"{listed} ({subject})"


# -- does an answer hold the question's key terms? (the resolved / partial / open rule, docs/audit.md) --

_SUFFIXES = ("ing", "ed", "es", "e")
_LATIN_WORD = re.compile(r"[\w'’.+#-]+")


@functools.lru_cache(maxsize=65536)
def _root(token: str) -> str:
    """A token without inflection, so "pinning" meets "Pin-Priority" and "upgrading" meets "upgrade"."""
    if has_cjk(token) or len(token) <= 4:
        return token
    for suffix in _SUFFIXES:
        if token.endswith(suffix) and len(token) - len(suffix) >= 3:
            token = token[: -len(suffix)]
            break
    if len(token) >= 4 and token[-1] == token[-2] and token[-1] not in "aeiousl":
        token = token[:-1]
    return token


@dataclass(frozen=True)
class KeyTerm:
    """One key term as the question writes it (``pinning``, ``apt-get``, ``版本固定``) and its tokens."""

    word: str
    tokens: frozenset[str]

    @property
    def cjk(self) -> bool:
        return has_cjk(self.word)


def question_terms(question: str) -> list[KeyTerm]:
    """The question's key terms (:func:`key_terms`) grouped into the words the question uses.

    A Latin word is one term (``apt-get`` keeps its two tokens together); in Chinese, a run of
    characters between frame words is one term, because bigrams that straddle two words
    (「版本固定」→ 本固) are not words the wiki must contain.
    """
    wanted = set(key_terms(question))
    if not wanted:
        return []
    text = _HOW_ADJECTIVE.sub(" ", _ZH_FRAME_RE.sub(" ", question) if has_cjk(question) else question)
    out: list[KeyTerm] = []
    seen: set[frozenset[str]] = set()
    for word in _LATIN_WORD.findall(text):
        for part in re.split(r"([^\W\d_a-zA-Z]+)", word) if has_cjk(word) else [word]:
            all_toks = tokens(part)
            # a hyphenated name keeps all its words ("apt-get" is not "apt"); else only the key tokens
            toks = frozenset(all_toks if "-" in part and not has_cjk(part) else (t for t in all_toks if t in wanted))
            part = part.strip(".'’-_")
            if len(part) == 1 and has_cjk(part) and not glossary_spans(part):
                continue  # 「以 UTC 显示」: a lone character between names is a function word, not a term
            if toks & wanted and toks not in seen and part:
                seen.add(toks)
                out.append(KeyTerm(part, toks))
    for option in dict.fromkeys(_OPTION.findall(question)):
        # "-l 0", "-i": an option is asked about as written; its letter is no token, so "What does wget
        # do when -l 0 is given?" was resolved by any sentence about wget (a newcomer's trial)
        out.append(KeyTerm(option, frozenset({option})))
    return out


_OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")


def _holds(term: KeyTerm, text: str, roots: set[str]) -> bool:
    """A Latin term: all its tokens (inflection aside). A Chinese term: its whole run appears, or two
    thirds of its bigrams do (「固定版本」 holds 「版本固定」; 「版本」 alone does not)."""
    if term.word.startswith("-"):
        return re.search(rf"(?<![\w-]){re.escape(term.word)}(?![\w-])", text) is not None
    if not term.cjk:
        return all(_root(t) in roots for t in term.tokens)
    run = "".join(ch for ch in term.word if has_cjk(ch))
    if run and run in text:
        return True
    if run and not has_cjk(text):
        return _held_in_english(run, roots)
    grams = [t for t in term.tokens if has_cjk(t)]
    latin = [t for t in term.tokens if not has_cjk(t)]
    if latin and not all(_root(t) in roots for t in latin):
        return False
    if not grams:
        return bool(latin)
    found = sum(1 for g in grams if g in roots)
    return found * 3 >= len(grams) * 2 and found > 0


def _held_in_english(run: str, roots: set[str]) -> bool:
    """Whether an English answer says a Chinese term: the glossary's words for two thirds of the
    term's characters are in it (「日期时间显示」 by "display … date and time").

    Why: a Chinese question answered from an English manual was never resolved: its 「命令日期时间
    显示」 was "missing" from every quote, and each round asked the same questions again
    (docs/text.md, "The glossary")."""
    said = 0
    for word, english in glossary_spans(run):
        if any(all(_root(t) in roots for t in tokens(e)) for e in english):
            said += len(word)
    return said > 0 and said * 3 >= len(run) * 2


def held_terms(terms: list[KeyTerm], text: str) -> tuple[list[KeyTerm], list[KeyTerm]]:
    """``(held, missing)``: which key terms ``text`` (an answer) contains."""
    norm = nfkc(text).lower()
    roots = {_root(t) for t in tokens(norm)}
    held: list[KeyTerm] = []
    missing: list[KeyTerm] = []
    for term in terms:
        (held if _holds(term, norm, roots) else missing).append(term)
    return held, missing


def missing_terms_gap(question: str, missing: list[KeyTerm], zh: bool) -> str:
    """The missing key terms as a gap, with the question's subject when the subject is covered."""
    words = [t.word for t in missing]
    if not words:
        return ""
    subject = question_subject(question)
    listed = "、".join(words) if zh else ", ".join(words)
    subject_terms = set(tokens(subject))
    if not subject or any(t.tokens & subject_terms for t in missing):  # the subject itself is missing
        return listed
    return f"{subject}：{listed}" if zh else f"{listed} ({subject})"
