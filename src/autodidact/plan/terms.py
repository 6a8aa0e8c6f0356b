# ruff: noqa: E501
"""The request's own terms: subject, objects, purpose, time, region and any structure it gives.

Why: the offline planner must not invent a topic. It strips the instruction around the request
("write a report comparing ...", "请帮我写一份……报告") and keeps the words the person used, so
seed queries, key questions and scope are about *their* subject. What the request leaves out
(time window, region, audience) is reported as unknown rather than guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from autodidact.text.topic import subject_of


@dataclass
class RequestTerms:
    """What the request itself says, and what it leaves unknown."""

    subject: str
    objects: list[str]
    purpose: str | None = None
    time_range: str | None = None
    region: str | None = None
    sections: list[str] = field(default_factory=list)


_EN_LEAD = re.compile(
    r"^(?:(?:please|kindly|can you|could you|i need|we need|i want|help me|i'd like)\s+)*"
    r"(?:(?:write|prepare|produce|create|make|do|draft|give|build|run|put together)\s+(?:me\s+|us\s+)?)?"
    r"(?:(?:a|an|the)\s+)?"
    r"(?:(?:short|brief|detailed|full|deep|quick|research|technical|comprehensive|structured|cited|thorough|"
    r"in-depth|industry|market|policy|historical)\s+)*"
    r"(?:(?:report|study|analysis|overview|review|survey|comparison|investigation|timeline|deep-dive|memo|brief)\s+)?"
    r"(?:(?:on|about|of|into|comparing|covering|regarding)\s+)?",
    re.IGNORECASE,
)
_EN_VERB = re.compile(
    r"^(?:compare|research|investigate|analy[sz]e|explain|explore|study|survey|review|trace|assess|evaluate|"
    r"describe|summari[sz]e|examine|document|outline|map)\s+",
    re.IGNORECASE,
)
_EN_FRAME = [
    re.compile(r"^how (?:does|do|did) (?P<s>.+?) (?:work|behave|function|operate)s?\b.*$", re.I),
    re.compile(r"^(?:what|who) (?:is|are|was|were) (?P<s>.+)$", re.I),
    re.compile(r"^why (?:does|do|did|is|are|was|were) (?P<s>.+)$", re.I),
    re.compile(r"^(?:the )?(?:history|evolution|state|landscape|future|origins?) of (?P<s>.+)$", re.I),
    re.compile(r"^(?:the )?(?:differences?|trade-?offs?) between (?P<s>.+)$", re.I),
]
_EN_PURPOSE = re.compile(
    r"\s+(?:for|so that|in order to|to help|to decide|to choose|to support|aimed at|intended for)\s+(?P<p>.+)$", re.I
)
_EN_TIME = re.compile(
    r"\s*\b(?P<t>(?:since|from|between|after|before|during|in)\s+(?:19|20)\d{2}(?:\s*(?:-|–|to|and|until)\s*"
    r"(?:(?:19|20)\d{2}|now|today))?|(?:over |in )?the (?:last|past) \w+ (?:years|months)|recent(?:ly)?|today|currently)\b",
    re.I,
)
_EN_REGION = re.compile(
    r"\s+\b(?:in|across|within)\s+(?:the\s+)?(?P<r>China|United States|US|USA|Europe|EU|European Union|UK|United Kingdom|"
    r"Japan|India|Germany|France|Asia|Africa|Latin America|worldwide|the world)\b",
    re.I,
)
_ZH_LEAD = re.compile(
    r"^(?:请|麻烦|帮我|帮忙|我想|我需要|希望|需要|能否|可以)*(?:写|做|出|整理|撰写|准备|生成|给出|提供)?(?:一份|一个|一篇|个|份|篇)?(?:关于|针对|有关)?"
)
_ZH_VERB = re.compile(r"^(?:研究|调研|分析|梳理|对比|比较|介绍|解释|说明|调查|评估|考察|盘点)(?:一下)?")
_ZH_TAIL = re.compile(
    r"(?:的)?(?:深度|详细|简要|全面|系统|专题)?(?:研究报告|调研报告|分析报告|报告|研究|调研|分析|综述|梳理|介绍|对比|比较|选型|"
    r"工作原理|原理|机制|是如何工作的|如何工作|历史|演变|发展历程|沿革|现状|趋势|影响|原因|全景|概览|解读|政策解读)$"
)
_ZH_PURPOSE = re.compile(r"[，,。]?\s*(?:用于|以便|面向|为了|供|给)(?P<p>[^，,。]+?)(?:参考|使用|决策)?$")
_ZH_TIME = re.compile(
    r"(?P<t>(?:19|20)\d{2}\s*年?\s*(?:以来|至今|之后|以后|到\s*(?:19|20)\d{2}\s*年?|至\s*(?:19|20)\d{2}\s*年?|[-—~]\s*(?:19|20)\d{2}\s*年?)?|近\s*[0-9一二三四五六七八九十]+\s*年|最近[0-9一二三四五六七八九十]*年?|当前|目前)"
)
_ZH_REGION = re.compile(r"(?P<r>中国|国内|我国|美国|欧洲|欧盟|日本|全球|海外|英国|德国|印度|亚洲)(?:的|市场)?")
_LIST_LINE = re.compile(r"^\s*(?:#{1,6}\s+|[-*•]\s+|\d+\s*[.)、]\s*)(?P<item>\S.*)$")
_SECTIONS_INLINE = re.compile(r"(?:sections?|structure|outline|章节|结构|大纲)\s*[:：]\s*(?P<items>.+)$", re.I)
_SPLIT_EN = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|vs\.?|versus|or|&)\s+", re.I)
_SPLIT_ZH = re.compile(r"\s*(?:与|和|及|以及|、|跟|还是|对比|vs\.?|VS|,|，)\s*")


def _user_sections(lines: list[str]) -> tuple[list[str], list[str]]:
    """Sections the request spells out (a list of >= 3 items or an inline 'Sections: a, b, c')."""
    items = [m.group("item").strip() for line in lines if (m := _LIST_LINE.match(line))]
    rest = [line for line in lines if not _LIST_LINE.match(line)]
    for line in rest:
        inline = _SECTIONS_INLINE.search(line)
        if inline:
            parts = [p.strip(" .。") for p in re.split(r"[,，;；、]", inline.group("items")) if p.strip(" .。")]
            if len(parts) >= 3:
                return parts, [r for r in rest if r is not line] + [line[: inline.start()]]
    if len(items) >= 3:
        return items, rest
    return [], lines


def _clean(text: str) -> str:
    return " ".join(text.strip().strip("\"'“”‘’「」").split()).strip(" ,.;:!?，。；：！？")


def extract_terms(request: str, lang: str) -> RequestTerms:
    """Pull subject, objects, purpose, time, region and user sections out of the request text."""
    lines = [line.strip() for line in request.splitlines() if line.strip()]
    sections, rest = _user_sections(lines)
    head = _clean(rest[0] if rest else (lines[0] if lines else request)) or _clean(request)
    if lang == "zh":
        return _extract_zh(head, sections)
    return _extract_en(head, sections)


def _extract_en(head: str, sections: list[str]) -> RequestTerms:
    text = head
    time_range = region = purpose = None
    if m := _EN_TIME.search(text):
        time_range = _clean(m.group("t"))
        text = (text[: m.start()] + text[m.end() :]).strip()
    if m := _EN_REGION.search(text):
        region = _clean(m.group("r"))
        text = (text[: m.start()] + text[m.end() :]).strip()
    text = _clean(text)
    for _ in range(3):
        stripped = _EN_VERB.sub("", _EN_LEAD.sub("", text, count=1), count=1)
        if stripped == text:
            break
        text = stripped
    for frame in _EN_FRAME:
        if m := frame.match(text):
            text = m.group("s")
            break
    if m := _EN_PURPOSE.search(text):
        purpose = _clean(m.group("p"))
        text = text[: m.start()]
    if re.match(r"what\s+(?:do|does|did)\s", text, re.I):
        # "What does the Bash restricted shell forbid?": the goal explains the restricted shell,
        # never "what What does the Bash restricted shell forbid is"
        text = subject_of(head) or text
    if re.search(r":\s", text):
        # "Compare Python lists and tuples: mutability, performance …": the text layer's subject
        # (the facets follow the colon), not the facet list split into "objects" of research.
        text = subject_of(head) or text
    subject = _clean(re.sub(r"^(?:the|a|an)\s+", "", _clean(text), flags=re.I)) or _clean(head)
    # "lists and tuples in Python": the trailing "in Python" qualifies every object, not the last one
    head = re.sub(r"\s+(?:in|within|on|under)\s+[^,]+$", "", subject) if _SPLIT_EN.search(subject) else subject
    parts = [_clean(re.sub(r"^(?:the|a|an)\s+", "", p, flags=re.I)) for p in _SPLIT_EN.split(head or subject)]
    parts = [p for p in parts if p]
    objects = _dedupe(parts) if len(parts) >= 2 and all(len(p.split()) <= 6 for p in parts) else [subject]
    return RequestTerms(subject, objects, purpose, time_range, region, sections)


def _extract_zh(head: str, sections: list[str]) -> RequestTerms:
    text = head
    time_range = region = purpose = None
    if m := _ZH_PURPOSE.search(text):
        purpose = _clean(m.group("p"))
        text = text[: m.start()]
    if m := _ZH_TIME.search(text):
        time_range = _clean(m.group("t"))
        text = (text[: m.start()] + text[m.end() :]).strip()
    if m := _ZH_REGION.search(text):
        region = m.group("r")
        text = (text[: m.start()] + text[m.end() :]).strip()
    text = _clean(text)
    for _ in range(4):
        stripped = _clean(_ZH_TAIL.sub("", _ZH_VERB.sub("", _ZH_LEAD.sub("", text, count=1), count=1)))
        stripped = re.sub(r"^(?:为什么|什么是|如何|怎样)", "", stripped)
        stripped = re.sub(r"(?:的|之)$", "", stripped)
        if stripped == text or not stripped:
            break
        text = stripped
    if "：" in text or ":" in text:
        # 「X 是如何工作的：a、b 和 c」: the text layer's subject (the facets follow the colon), not the
        # whole request as the object of research.
        text = subject_of(head) or text
    subject = _clean(text) or _clean(head)
    parts = [_clean(p) for p in _SPLIT_ZH.split(subject) if _clean(p)]
    objects = _dedupe(parts) if len(parts) >= 2 and all(len(p) <= 20 for p in parts) else [subject]
    return RequestTerms(subject, objects, purpose, time_range, region, sections)


def _dedupe(items: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for item in items:
        key = item.lower()
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out
