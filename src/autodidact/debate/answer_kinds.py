"""What kind of answer a person gave, so it moves the session the right way.

Why: an answer is more than "substantial or not". "More juniors were hired, so each senior mentors
more people" offers a competing explanation. It must become an obstacle to examine, not the reading
of a term. "Because they overhear the seniors" is a mechanism, a premise to test. "I'm not sure" is
a hedge and never a premise. The kinds are read by rules over both languages (docs/debate.md,
"Reading answers"), and each kind decides the progress signal it carries, whatever the question was.
"""

from __future__ import annotations

import re
from typing import Literal

AnswerKind = Literal[
    "hedge", "correction", "choice", "confounder", "mechanism", "test", "evidence", "example", "scope",
    "definition", "other",
]  # fmt: skip

# A kind decides its signal whatever the question was (a confounder is an alternative even when the
# question asked for a reading). A choice among offered options carries the question type's own
# primary signal; kinds missing here keep the question type's cue-based signals.
KIND_SIGNAL: dict[str, str] = {
    "confounder": "ALTERNATIVE_ADDED",
    "mechanism": "PREMISE_SURFACED",
    "test": "DISCRIMINATION_ADDED",
    "definition": "QUESTION_SHARPENED",
    "scope": "QUESTION_SHARPENED",
    "correction": "QUESTION_SHARPENED",
}

_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile("|".join(parts), re.I))
    for kind, parts in (
        ("choice", (r"\bleast sure (?:of|about)\b", r"最没(?:有)?把握的是")),  # names the weakest premise
        ("hedge", (
            r"^(?:i'?m |i am )?not sure\b", r"\bi don'?t know\b", r"\bno idea\b", r"\bhard to say\b",
            r"\bhaven'?t thought\b", r"\bnot certain\b", "不知道", "不确定", "说不好", "没想过", "不好说", "不清楚",
            "没把握",
        )),
        ("correction", (
            r"^(?:no|not quite|actually)[,，.]", r"\bthat'?s not what i (?:meant|said)\b", r"\bi didn'?t mean\b",
            r"^不是[，,。]", "我不是这个意思", "我说的不是", "其实我是说",
        )),
        ("choice", (
            r"\bleast sure (?:of|about)\b", r"\bthe (?:first|second|third) (?:one|premise|reading)\b",
            r"\bnumber [123]\b", r"第[一二三123①②③]条", r"最没(?:有)?把握的是",
            r"^(?:option\s+)?[abc](?:[.,:)]|\s|$)", r"^选?\s*[ABCabc](?:[。，,.\s]|$)", r"更接近\s*[ABC]",
        )),
        ("test", (
            r"\bif\b.+\b(?:i would|i'd|we would|would (?:drop|revise|change|give up))\b",
            r"\bwe could (?:measure|compare|track)\b", r"\b(?:measure|compare|track|test)\b.+\b(?:and|to see)\b",
            r"如果.+(?:我就|我会|就说明|就放弃|就修改)", r"可以(?:测量|对比|记录|统计)",
        )),
        ("confounder", (
            r"\b(?:more|fewer|less)\b.+\b(?:were|was|got)\b.+\b(?:hired|added|assigned|moved)\b",
            r"\b(?:at the same time|in the same period|also changed|coincided|the real reason|instead it'?s)\b",
            r"\bit could (?:also )?be\b", r"\bmight (?:also )?be due to\b",
            r"\bbecause of (?:the|a) (?:new|different)\b", r"\bso each\b",
            "同一时期", r"同时(?:也)?(?:变|换|招)", "真正的原因", "其实是因为", "也可能是因为", "招了更多",
        )),
        ("mechanism", (
            r"^(?:because|since|as)\b", r"\bbecause\b", r"\bwhich means\b", r"\bthat'?s why\b", r"\bso they\b",
            r"\bby \w+ing\b", "^因为", "是因为", "所以", "通过", "这样一来", "以至于",
        )),
        ("evidence", (
            r"\b\d+(?:\.\d+)?\s*(?:%|percent|times|hours|days|weeks|people|cases)", r"\b(?:data|survey|study)\b",
            r"\b(?:measured|statistics|metrics|numbers show)\b", r"\d+\s*(?:%|个|次|小时|天|周|人)", "数据", "调查",
            "统计", "研究显示",
        )),
        ("example", (
            r"\bfor example\b", r"\bfor instance\b", r"\bonce\b", r"\bi (?:saw|noticed|remember|observed)\b",
            r"\bin my (?:team|job|case)\b", r"\blast (?:week|month|year)\b", "比如", "例如", "有一次", "我见过",
            "我注意到", "在我们团队", "上个月", "去年",
        )),
        ("scope", (
            r"^only\b", r"\bonly (?:for|in|when|during)\b", r"\bnot all\b", r"\bjust (?:for|in)\b",
            r"\bin the first\b", r"只(?:在|针对|限于)", "不是所有", "仅限", "特指",
        )),
        ("definition", (
            r"\bi mean\b", r"\bmeans\b", r"\brefers to\b", r"\bis defined as\b", "我指的是", "我说的是", "意思是",
            "指的是", "定义",
        )),
    )
)  # fmt: skip


def classify(text: str) -> AnswerKind:
    """The answer's kind: the first rule that matches, in the order above (a hedge wins over all)."""
    clean = " ".join(text.strip().split())
    if not clean:
        return "other"
    for kind, pattern in _RULES:
        if pattern.search(clean):
            return kind  # type: ignore[return-value]
    return "other"
