"""The seed-000 question framework: topic types, layers L1–L4, templates in Chinese and English.

Why: at cold start (round 1, empty wiki) the framework is the only source of questions, and in
later rounds it is the supplement that keeps systematic directions from being missed (seed 000
step 3). The topic type is chosen by keywords (CONTRACTS §1.3); when unsure it is 概念理解.
Templates are filled with the topic's *subject* ("How do Python generators work?" → "Python
generators"), so every question names something a search can match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

TopicType = Literal["概念理解", "技术研究", "行业调研", "创业方案"]
TOPIC_TYPES: tuple[TopicType, ...] = ("概念理解", "技术研究", "行业调研", "创业方案")
TOPIC_TYPE_EN: dict[TopicType, str] = {
    "概念理解": "concept understanding",
    "技术研究": "technical research",
    "行业调研": "industry survey",
    "创业方案": "startup plan",
}

KEYWORDS: dict[TopicType, tuple[str, ...]] = {
    "概念理解": (
        "什么是", "原理", "如何工作", "概念", "理解",
        "what is", "what are", "how does", "how do", "work", "concept", "understand", "principle", "explain",
    ),
    "技术研究": (
        "方案", "技术", "方法", "实现", "架构",
        "approach", "technique", "technology", "method", "implementation", "implement", "architecture",
    ),
    "行业调研": (
        "行业", "市场", "规模", "玩家", "竞争", "调研",
        "industry", "market", "size", "players", "competition", "competitor", "survey",
    ),
    "创业方案": (
        "创业", "机会", "商业模式", "用户", "痛点",
        "startup", "start-up", "opportunity", "business model", "users", "pain point",
    ),
}  # fmt: skip

LAYER_NAMES: dict[TopicType, dict[str, tuple[str, str, str, str]]] = {
    "概念理解": {
        "zh": ("L1-定义", "L2-原理", "L3-价值与局限", "L4-应用与对比"),
        "en": ("L1-definition", "L2-mechanism", "L3-value-and-limits", "L4-use-and-comparison"),
    },
    "技术研究": {
        "zh": ("L1-定义", "L2-技术方案", "L3-优劣与挑战", "L4-选型与趋势"),
        "en": ("L1-definition", "L2-approaches", "L3-trade-offs", "L4-fit-and-trends"),
    },
    "行业调研": {
        "zh": ("L1-定义", "L2-市场格局", "L3-商业模式", "L4-趋势与风险"),
        "en": ("L1-definition", "L2-market", "L3-business-models", "L4-trends-and-risks"),
    },
    "创业方案": {
        "zh": ("L1-用户与痛点", "L2-现有方案", "L3-差异化", "L4-可行性"),
        "en": ("L1-users-and-pains", "L2-existing-solutions", "L3-differentiation", "L4-feasibility"),
    },
}

# {s} = the subject. Each layer lists its questions in the order the seed gives them.
TEMPLATES: dict[TopicType, dict[str, tuple[tuple[str, ...], ...]]] = {
    "概念理解": {
        "zh": (
            ("{s}的定义是什么？", "{s}与相近概念有何区别？"),
            ("{s}的核心组成部分和工作原理是什么？", "{s}有哪些主要变体？", "{s}的典型示例是怎样的？"),
            ("{s}解决了什么问题？", "{s}有哪些局限性？"),
            ("什么场景下适合使用{s}？", "{s}与替代方案相比如何？"),
        ),
        "en": (
            ("What is the definition of {s}?", "What distinguishes {s} from closely related concepts?"),
            (
                "What are the core components and the working mechanism of {s}?",
                "What are the main variants of {s}?",
                "What does a typical example of {s} look like?",
            ),
            ("What problems are solved by {s}?", "What are the limitations of {s}?"),
            ("In which scenarios is {s} the right choice?", "How do alternative approaches compare with {s}?"),
        ),
    },
    "技术研究": {
        "zh": (
            ("{s}的定义和边界是什么？",),
            ("{s}的主流技术方案有哪些？", "{s}各技术方案的技术路线是什么？"),
            ("{s}各方案的优劣对比如何？", "{s}有哪些前沿进展？", "{s}在工程实践中有哪些挑战？"),
            ("什么场景下哪种{s}方案最合适？", "{s}的未来趋势是什么？"),
        ),
        "en": (
            ("What is the definition and scope of {s}?",),
            (
                "What are the mainstream technical approaches to {s}?",
                "What technical route does each {s} approach take?",
            ),
            (
                "What are the trade-offs between the approaches to {s}?",
                "What recent advances have been made in {s}?",
                "What engineering challenges arise with {s} in practice?",
            ),
            ("Which {s} approach fits which scenario best?", "What are the future trends of {s}?"),
        ),
    },
    "行业调研": {
        "zh": (
            ("{s}的行业边界和定义是什么？",),
            ("{s}的市场规模有多大？", "{s}的主要玩家有哪些？市场份额和定位如何？"),
            ("{s}的主流商业模式是什么？", "{s}的驱动因素和制约因素有哪些？", "{s}近期有哪些动态？"),
            ("{s}有哪些趋势和机会？", "{s}有哪些潜在风险？"),
        ),
        "en": (
            ("How is the {s} market defined, and where are its boundaries?",),
            ("What is the market size of {s}?", "Who are the main players in {s}, with their shares and positioning?"),
            (
                "What business models dominate {s}?",
                "What drives and what constrains {s}?",
                "What are the recent developments in {s}?",
            ),
            ("What trends and opportunities exist in {s}?", "What are the potential risks in {s}?"),
        ),
    },
    "创业方案": {
        "zh": (
            ("{s}的目标用户是谁？", "{s}要解决的核心痛点是什么？"),
            ("{s}现有的解决方案有哪些？", "{s}现有解决方案有哪些不足？"),
            ("{s}的差异化机会在哪里？", "{s}适合什么商业模式？", "{s}的关键成功要素是什么？"),
            ("{s}的可行性如何评估？", "{s}最大的风险点是什么？", "{s}的验证路径是什么？"),
        ),
        "en": (
            ("Who are the target users of {s}?", "What core pain point does {s} address?"),
            ("What existing solutions address {s}?", "What are the shortcomings of existing solutions for {s}?"),
            (
                "Where is the room for differentiation in {s}?",
                "What business model fits {s}?",
                "What are the key success factors for {s}?",
            ),
            ("How feasible is {s}?", "What is the biggest risk of {s}?", "How could {s} be validated cheaply?"),
        ),
    },
}


@dataclass(frozen=True)
class FrameworkQuestion:
    """One framework question before filtering."""

    text: str
    layer: str
    level: int  # 1..4


def detect_topic_type(topic: str) -> tuple[TopicType, bool]:
    """The topic type by keyword votes, and whether any keyword matched (False = unsure)."""
    lowered = topic.lower()
    best: TopicType = "概念理解"
    best_votes = 0
    for kind in TOPIC_TYPES:
        votes = sum(1 for kw in KEYWORDS[kind] if _has_keyword(lowered, kw))
        if votes > best_votes:
            best, best_votes = kind, votes
    return best, best_votes > 0


def _has_keyword(text: str, keyword: str) -> bool:
    if re.search(r"[a-z]", keyword):
        return re.search(rf"\b{re.escape(keyword)}", text) is not None
    return keyword in text


_EN_PREFIX = re.compile(
    r"^(?:(?:how|why|what|when|where|which)\s+(?:do|does|did|is|are|can|could|should|would|was|were)\s+"
    r"|what\s+(?:is|are)\s+|(?:an?\s+)?(?:introduction|overview|guide)\s+(?:to|of)\s+"
    r"|(?:understanding|understand|explain|explaining|research(?:ing)?\s+(?:on|into)?|study\s+of|learn(?:ing)?"
    r"|about)\s+)",
    re.IGNORECASE,
)
_EN_SUFFIX = re.compile(
    r"\s+(?:work|works|function|operate|behave|mean)(?:\s+(?:in\s+practice|internally|under\s+the\s+hood))?$",
    re.IGNORECASE,
)
_ZH_STRIP = (
    "是如何工作的", "如何工作", "怎么工作", "的工作原理", "工作原理", "的原理", "原理", "是什么", "什么是",
    "深入理解", "理解", "了解", "研究", "调研", "介绍", "关于", "入门", "详解",
)  # fmt: skip


def subject_of(topic: str) -> str:
    """The thing the topic is about, for template filling: question words and framing removed."""
    text = " ".join(topic.split()).strip().rstrip("?？.。!！")
    if re.search(r"[\u4e00-\u9fff]", text):
        for phrase in _ZH_STRIP:
            text = text.replace(phrase, "")
        text = text.strip(" ，,、的")
    else:
        for _ in range(2):
            text = _EN_PREFIX.sub("", text).strip()
        text = _EN_SUFFIX.sub("", text).strip()
        text = re.sub(r"^(?:the|a|an)\s+", "", text, flags=re.IGNORECASE)
    return text or topic.strip()


def subject_parts(subject: str) -> list[str]:
    """Split a compound subject ("Python generators and coroutines") into parts sharing a prefix."""
    if re.search(r"[\u4e00-\u9fff]", subject):
        parts = [p.strip() for p in re.split(r"[和与及、]|以及", subject) if p.strip()]
    else:
        parts = [p.strip() for p in re.split(r",\s*(?:and\s+)?|\s+and\s+|\s*&\s*", subject) if p.strip()]
    if len(parts) < 2 or len(parts) > 4:
        return [subject]
    head_words = parts[0].split()
    if len(head_words) >= 2:
        prefix = " ".join(head_words[:-1])
        parts = [parts[0]] + [p if len(p.split()) > 1 or p.startswith(prefix) else f"{prefix} {p}" for p in parts[1:]]
    return parts


def framework_questions(
    topic: str, language: str, topic_type: TopicType, levels: tuple[int, ...]
) -> list[FrameworkQuestion]:
    """The framework's questions for ``levels`` (1–4), filled with the topic's subject.

    Level 1 is asked per part of a compound subject (each part needs its own definition).
    """
    lang = "zh" if language == "zh" else "en"
    subject = subject_of(topic)
    parts = subject_parts(subject)
    names = LAYER_NAMES[topic_type][lang]
    out: list[FrameworkQuestion] = []
    for level in levels:
        templates = TEMPLATES[topic_type][lang][level - 1]
        subjects = parts if level == 1 and len(parts) > 1 else [subject]
        for template in templates:
            for subj in subjects:
                out.append(FrameworkQuestion(template.format(s=subj), names[level - 1], level))
            if level == 1 and len(parts) > 1:
                break  # the first L1 template per part; the comparison follows once for the whole
        if level == 1 and len(parts) > 1 and len(templates) > 1:
            out.append(FrameworkQuestion(templates[1].format(s=subject), names[0], 1))
    return out
