"""The topic frameworks of seed 000 (docs/seeds.md), as aspects the wiki should cover.

Why: "missing important subtopic" (docs/contracts.md §1.5) needs a yardstick. The questioner's framework
for the topic's type (概念理解 / 技术研究 / 行业调研 / 创业方案, chosen by the keywords of docs/contracts.md
§1.3) lists the layers a finished study covers; an aspect none of whose cue words appear anywhere
in the wiki is a gap, and its framework question becomes the next round's direction.
"""

from __future__ import annotations

# ruff: noqa: E501  (the framework table reads best one aspect per line)
import re

from autodidact.text.topic import subject_of as topic_subject  # the one subject extractor (docs/questions.md)
from autodidact.text.topic import topic_type  # the one topic classifier (docs/contracts.md §1.3)
from autodidact.wiki.common.markdown import tokens
from autodidact.wiki.common.question_frame import ASPECTS

# (layer, zh label, en label, cue words, zh direction, en direction); {t} = topic
Aspect = tuple[str, str, str, tuple[str, ...], str, str]
_FRAMEWORKS: dict[str, list[Aspect]] = {
    "概念理解": [
        ("L1", "定义", "definition", ("定义", "是指", "是一种", "概念", "definition", "defined", "refers to", " is a"),
         "{t} 的准确定义是什么？与相近概念有何区别？", "What exactly is {t}, and how does it differ from similar concepts?"),
        ("L2", "组成与原理", "components and how it works",
         ("原理", "组成", "机制", "工作方式", "结构", "mechanism", "component", "works by", "internally", "how it works"),
         "{t} 的核心组成部分和工作原理是什么？", "What are the core components of {t}, and how does it work?"),
        ("L3", "局限性", "limitations",
         ("局限", "缺点", "限制", "不足", "limitation", "drawback", "downside", "pitfall", "disadvantage"),
         "{t} 解决了什么问题？有哪些局限性？", "What problem does {t} solve, and what are its limitations?"),
        ("L4", "适用场景与替代方案", "use cases and alternatives",
         ("场景", "适用", "替代", "对比", "比较", "use case", "when to use", "alternative", "compared", "versus"),
         "{t} 适合什么场景？与替代方案相比如何？", "When should {t} be used, and how does it compare with alternatives?"),
    ],
    "技术研究": [
        ("L1", "定义与边界", "definition and scope", ("定义", "是指", "边界", "definition", "defined", "scope", " is a"),
         "{t} 的定义和边界是什么？", "What is {t}, and where are its boundaries?"),
        ("L2", "主流方案", "main approaches", ("方案", "实现", "架构", "路线", "approach", "implementation", "architecture"),
         "{t} 的主流技术方案有哪些？", "What are the main technical approaches to {t}?"),
        ("L3", "优劣与挑战", "trade-offs and challenges",
         ("优势", "劣势", "优缺点", "挑战", "trade-off", "advantage", "challenge", "drawback"),
         "{t} 各方案的优劣和工程挑战是什么？", "What are the trade-offs and engineering challenges of {t}?"),
        ("L4", "选型与趋势", "choice and trends", ("趋势", "未来", "选型", "trend", "future", "choose", "roadmap"),
         "什么场景下选哪种 {t} 方案？未来趋势如何？", "Which approach to {t} fits which situation, and where is it heading?"),
    ],
    "行业调研": [
        ("L1", "行业边界", "market definition", ("定义", "边界", "范围", "definition", "scope", "segment"),
         "{t} 的边界和定义是什么？", "How is the {t} market defined and bounded?"),
        ("L2", "规模与玩家", "size and players", ("规模", "玩家", "份额", "市场", "market size", "players", "share"),
         "{t} 的市场规模和主要玩家是谁？", "How large is {t}, and who are the main players?"),
        ("L3", "商业模式与驱动因素", "business models and drivers",
         ("商业模式", "驱动", "制约", "盈利", "business model", "driver", "revenue"),
         "{t} 的主流商业模式和驱动因素是什么？", "What business models and drivers shape {t}?"),
        ("L4", "趋势与风险", "trends and risks", ("趋势", "机会", "风险", "trend", "opportunit", "risk"),
         "{t} 的趋势、机会和风险是什么？", "What are the trends, opportunities and risks in {t}?"),
    ],
    "创业方案": [
        ("L1", "目标用户与痛点", "users and pain points", ("用户", "痛点", "user", "pain"),
         "{t} 的目标用户是谁？核心痛点是什么？", "Who are the users of {t}, and what is their core pain?"),
        ("L2", "现有方案", "existing solutions", ("现有", "竞品", "解决方案", "competitor", "existing solution", "incumbent"),
         "{t} 现有解决方案有哪些？各自的不足？", "What solutions to {t} exist, and where do they fall short?"),
        ("L3", "差异化与商业模式", "differentiation and business model",
         ("差异化", "商业模式", "成功要素", "differentiat", "business model", "moat"),
         "{t} 的差异化机会和商业模式是什么？", "What differentiation and business model could {t} have?"),
        ("L4", "可行性与风险", "feasibility and risks", ("可行性", "风险", "验证", "feasib", "risk", "validat"),
         "{t} 的可行性如何？最大风险和验证路径是什么？", "How feasible is {t}, what is the biggest risk and how to validate it?"),
    ],
}  # fmt: skip


# Framework layers whose coverage the phase-1 aspect cues also show (so phase 1 and phase 2 agree).
_LAYER_ASPECTS = {
    ("概念理解", "L1"): ("definition",),
    ("技术研究", "L1"): ("definition",),
    ("概念理解", "L2"): ("mechanism",),
    ("概念理解", "L3"): ("limitations", "purpose"),
    ("概念理解", "L4"): ("use-cases", "compare"),
    ("技术研究", "L3"): ("limitations", "compare"),
}


_ALL_CUES = sorted({c for aspects in _FRAMEWORKS.values() for aspect in aspects for c in aspect[3]})


def subject_terms(topic: str) -> frozenset[str]:
    """The tokens of the topic's subject: a line holding one of them is a statement about it."""
    return frozenset(tokens(topic_subject(topic)))


def cues_in(text: str) -> list[str]:
    """The cue words of every framework that ``text`` holds (case-folded), sorted.

    A cue holds no line break, so a wiki holds a cue exactly when one of its articles does."""
    low = text.casefold()
    return [c for c in _ALL_CUES if c.casefold() in low]


def aspects_shown(text: str, subject: frozenset[str]) -> list[str]:
    """The phase-1 aspects (question_frame.ASPECTS) some line of ``text`` about ``subject`` shows, sorted."""
    about = [line for line in text.splitlines() if subject & set(tokens(line))]
    if not about:
        return []
    return sorted({a.name for a in ASPECTS if any(a.cues.search(line) for line in about)})


def missing_aspects_of(topic: str, cues: set[str], shown: set[str], zh: bool) -> list[tuple[str, str, str]]:
    """:func:`missing_aspects` from what the articles hold: their cue words and the aspects they show."""
    subject = topic_subject(topic)
    kind = topic_type(topic)
    out = []
    for layer, label_zh, label_en, layer_cues, dir_zh, dir_en in _FRAMEWORKS[kind]:
        if any(c in cues for c in layer_cues):
            continue
        aspects = _LAYER_ASPECTS.get((kind, layer))
        if aspects and any(a in shown for a in aspects):
            continue
        direction = (dir_zh if zh else dir_en).format(t=subject)
        if zh:  # the templates put a space after {t}; between two ideographs it does not belong
            direction = re.sub(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])", "", direction)
        out.append((layer, label_zh if zh else label_en, direction))
    return out


def missing_aspects(topic: str, wiki_text: str, zh: bool) -> list[tuple[str, str, str]]:
    """``(layer, label, direction)`` for every framework aspect the wiki does not cover.

    Covered = one of the layer's cue words appears anywhere, or a statement about the subject shows
    the aspect by the same cues the phase-1 answers use ("can only be used in..." is a limitation).
    """
    return missing_aspects_of(topic, set(cues_in(wiki_text)), set(aspects_shown(wiki_text, subject_terms(topic))), zh)
