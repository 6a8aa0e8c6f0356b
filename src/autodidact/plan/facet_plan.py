"""Dimensions from the facets the person named: one research dimension per facet.

Why: "How does Debian package management work: dpkg vs apt, version pinning, and system upgrades?"
names three things to answer. The archetype catalogue alone turned it into "Selection criteria and
candidate set for Debian package management" with questions about the whole subject, and the report
never reached pinning or upgrades. When a request names two or more facets (text.topic.decompose),
each facet becomes a dimension whose key questions ask about that facet in the request's own words;
the catalogue still decides the report's shape, and archetype dimensions fill up to three.
See docs/planning.md.
"""

from __future__ import annotations

from autodidact.plan.archetypes import Archetype
from autodidact.text.topic import Facet, TopicFrame

MAX_FACET_DIMENSIONS = 6

# Templates keep the facet out of subject–verb agreement ("of {f}", "by {f}"), so "system upgrades"
# and "version pinning" read equally well. {s} is the subject, {a}/{b} a comparison's candidates.
ASPECT_QUESTIONS = {
    "en": (
        "What is the definition of {f} in {s}?",
        "What are the core components and the working mechanism of {f}?",
        "Which commands, settings or steps are used for {f}?",
        "What are the limitations and pitfalls of {f}?",
    ),
    "zh": (
        "{s}中{f}的定义是什么？",
        "{f}的核心组成部分和工作原理是什么？",
        "{f}用到哪些命令、配置或步骤？",
        "{f}有哪些局限和常见问题？",
    ),
}
COMPARISON_QUESTIONS = {
    "en": (
        "What is the role of {c} in {s}?",
        "What are the advantages and disadvantages of {a} compared with {b}?",
        "When should {a} be used over {b}, and when not?",
    ),
    "zh": ("{c}在{s}中起什么作用？", "与{b}相比，{a}有哪些优势和不足？", "什么情况下应选择{a}而不是{b}？"),
}
SEED_QUERIES = {
    "en": ("{f}", "{f} {s}", "what is {f}", "{f} how it works", "{f} limitations"),
    "zh": ("{f}", "{s} {f}", "什么是{f}", "{f} 原理", "{f} 局限"),
}
NAME = {"en": "{f} ({s})", "zh": "{s}：{f}"}
DESCRIPTION = {
    "en": "What {f} is within {s}, how it works and is used, and where it falls short; only this facet.",
    "zh": "{s}中的{f}：是什么、如何工作与使用、局限何在；仅限这一方面。",
}
OWNS = {"en": "{f} within {s}", "zh": "{s}中的{f}"}
EXPECTED = {
    "en": "Cited answers to each key question about {f}, with the commands, settings or figures the sources give.",
    "zh": "关于{f}每个关键问题的有出处回答，含来源给出的命令、配置或数据。",
}
FOCUS = {"en": "what the sources say about {f} specifically", "zh": "来源中专门关于{f}的内容"}


def facet_dimensions_wanted(frame: TopicFrame) -> bool:
    """A request that names at least two facets is planned by facet."""
    return frame.explicit and len(frame.facets) >= 2


def _fill(template: str, s: str, f: str = "", a: str = "", b: str = "", c: str = "") -> str:
    return template.replace("{s}", s).replace("{f}", f).replace("{a}", a).replace("{b}", b).replace("{c}", c)


def facet_questions(facet: Facet, subject: str, lang: str) -> list[str]:
    """2–5 grammatical key questions about one facet, in the request's language."""
    lang = "zh" if lang == "zh" else "en"
    if facet.kind == "comparison" and len(facet.candidates) >= 2:
        a, others = facet.candidates[0], facet.candidates[1:]
        b = "、".join(others) if lang == "zh" else " and ".join(others)
        role, tradeoffs, choice = COMPARISON_QUESTIONS[lang]
        out = [_fill(role, subject, c=c) for c in facet.candidates[:3]]
        out += [_fill(tradeoffs, subject, a=a, b=b), _fill(choice, subject, a=a, b=b)]
        return list(dict.fromkeys(out))[:5]
    if facet.kind == "question" and facet.question:
        return [facet.question, *(_fill(q, subject, facet.name) for q in ASPECT_QUESTIONS[lang][2:])]
    return [_fill(q, subject, facet.name) for q in ASPECT_QUESTIONS[lang]]


def facet_texts(facet: Facet, subject: str, lang: str) -> dict[str, str | list[str]]:
    """The words of one facet dimension (name, description, questions, queries, ownership)."""
    lang = "zh" if lang == "zh" else "en"
    f = facet.name
    queries = [_fill(q, subject, f) for q in SEED_QUERIES[lang]]
    queries += [c for c in facet.candidates if c not in queries]
    return {
        "name": _fill(NAME[lang], subject, f),
        "description": _fill(DESCRIPTION[lang], subject, f),
        "key_questions": facet_questions(facet, subject, lang),
        "seed_queries": list(dict.fromkeys(q.strip() for q in queries))[:6],
        "expected_output": _fill(EXPECTED[lang], subject, f),
        "focus": _fill(FOCUS[lang], subject, f),
        "owns": _fill(OWNS[lang], subject, f),
    }


def base_archetype(candidates: dict[str, Archetype], keys: tuple[str, ...]) -> Archetype:
    """The archetype whose method and source types a facet dimension borrows (profiling one thing)."""
    for key in ("mechanism", "usage", "candidate", "definition", *keys):
        if key in candidates:
            return candidates[key]
    return next(iter(candidates.values()))
