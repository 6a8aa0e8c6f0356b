"""The seed-000 question framework, asked per facet: layers L1–L4, templates in Chinese and English.

Why: at cold start (round 1, empty wiki) the framework is the only source of questions, and in
later rounds it is the supplement that keeps systematic directions from being missed (seed 000, docs/seeds.md
step 3). The topic is read once by :func:`autodidact.text.topic.decompose`; each facet the user
named gets the questions its kind calls for (docs/questions.md):

* a **part** of the subject ("Python generators") — the topic type's templates;
* an **aspect** named after a colon ("version pinning") — the aspect templates, which place the
  aspect in its subject ("… of version pinning in Debian package management?");
* a **comparison** ("dpkg vs apt") — a definition or role per candidate, then differences,
  relation, trade-offs and when to use which;
* a **question** clause ("why does it reject some programs?") — the user's own question.

Every template holds for any noun phrase — singular, plural or verb-like ("system upgrades",
「系统升级」): no "is X" agreement ("In which scenarios is X the right choice?" is gone), no
「X的定义」 on a facet that is itself a relation (「apt 的关系的定义」), and no template ever receives
the whole topic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from autodidact.text.topic import (
    TOPIC_TYPE_EN,
    TOPIC_TYPES,
    ZH_VERBS,
    Facet,
    TopicFrame,
    TopicType,
    decompose,
    detect_topic_type,
    has_cjk,
    is_action_phrase,
    key_terms,
    shares_key_term,
    subject_of,
    subject_parts,
    subject_tasks,
    task_question,
)

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

Levels = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]
RELATED = "What distinguishes {s} from closely related concepts?"
RELATED_ZH = "{s}与相近概念有何区别？"

# {s} = a part of the subject (or the subject). Each layer lists its questions in the seed's order.
# Every English template keeps {s} out of subject–verb agreement: "of {s}", "by {s}", "should {s} be".
TEMPLATES: dict[TopicType, dict[str, Levels]] = {
    "概念理解": {
        "zh": (
            ("{s}的定义是什么？", RELATED_ZH),
            ("{s}的核心组成部分和工作原理是什么？", "{s}有哪些主要变体？", "{s}的典型示例是怎样的？"),
            ("{s}解决了什么问题？", "{s}有哪些局限性？"),
            ("什么场景下适合使用{s}？", "{s}与替代方案相比如何？"),
        ),
        "en": (
            ("What is the definition of {s}?", RELATED),
            (
                "What are the core components and the working mechanism of {s}?",
                "What are the main variants of {s}?",
                "What does a typical example of {s} look like?",
            ),
            ("What problems are solved by {s}?", "What are the limitations of {s}?"),
            ("When should {s} be used, and when not?", "How do alternative approaches compare with {s}?"),
        ),
    },
    "技术研究": {
        "zh": (
            ("{s}的定义和边界是什么？",),
            ("{s}的主流技术方案有哪些？", "{s}各技术方案的技术路线是什么？"),
            ("{s}各方案的优劣对比如何？", "{s}有哪些前沿进展？", "{s}在工程实践中有哪些挑战？"),
            ("什么场景下哪种方案最适合{s}？", "{s}的未来趋势是什么？"),
        ),
        "en": (
            ("What is the definition and scope of {s}?",),
            (
                "What are the mainstream technical approaches to {s}?",
                "What technical route does each approach to {s} take?",
            ),
            (
                "What are the trade-offs between the approaches to {s}?",
                "What recent advances have been made in {s}?",
                "What engineering challenges arise with {s} in practice?",
            ),
            ("Which approach to {s} fits which scenario best?", "What are the future trends of {s}?"),
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
            ("What are the definition and the boundaries of the market for {s}?",),
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
            ("Who are the target users of {s}?", "What core pain point is addressed by {s}?"),
            ("What existing solutions address {s}?", "What are the shortcomings of existing solutions for {s}?"),
            (
                "Where is the room for differentiation in {s}?",
                "What business model fits {s}?",
                "What are the key success factors for {s}?",
            ),
            (
                "What is the feasibility of {s}?",
                "What is the biggest risk of {s}?",
                "How could {s} be validated cheaply?",
            ),
        ),
    },
}

# {p} = an aspect in its subject: "version pinning in Debian package management", 「Debian 软件包管理中的版本固定」;
# Chinese also uses {x} = the aspect alone, {ctx} = 「Debian 软件包管理中」 and {in_s} = 「在Debian 软件包管理中」,
# which avoid a chain of 的 and keep the subject in front, where readers of the question look for it.
ASPECT_TEMPLATES: dict[str, Levels] = {
    "zh": (
        ("{p}是什么？",),
        ("{ctx}{x}的核心组成部分和工作原理是什么？", "{ctx}{x}的典型示例是怎样的？"),
        ("{ctx}{x}解决了什么问题？", "{ctx}{x}有哪些局限性？"),
        ("什么场景下适合{in_s}使用{x}？",),
    ),
    "en": (
        ("What is the definition of {p}?",),
        (
            "What are the core components and the working mechanism of {p}?",
            "What does a typical example of {p} look like?",
        ),
        ("What problems are solved by {p}?", "What are the limitations of {p}?"),
        ("When should {p} be used, and when not?",),
    ),
}

# A comparison: {items} = "dpkg and apt" / 「dpkg 与 apt」, {a} the first candidate, {b} the others,
# {c} each candidate, {s} the subject, {ctx} " for embedded analytics" / 「在嵌入式分析场景下」.
COMPARISON_TEMPLATES: dict[str, dict[str, str]] = {
    "en": {
        "differences": "What are the differences between {items}{ctx}?",
        "role": "What is the role of {c} in {s}?",
        "purpose": "What is the purpose of {c}?",
        "relation": "How do {items} relate to each other?",
        "fit": "What makes {c} suitable{ctx}?",
        "tradeoffs": "What are the advantages and disadvantages of {a} compared with {b}{ctx}?",
        "choice": "When should {a} be used over {b}{ctx}, and when not?",
    },
    "zh": {
        "differences": "{items}{ctx}有什么区别？",
        "role": "{c}在{s}中起什么作用？",
        "purpose": "{c}的用途是什么？",
        "relation": "{items}之间有什么关系？",
        "fit": "{c}在{ctx_noun}场景下的适用性如何？",
        "tradeoffs": "{a}{ctx}相比{b}有哪些优势和不足？",
        "choice": "{ctx_lead}什么情况下应选择{a}而不是{b}？",
    },
}
BETWEEN_PARTS = {"en": "What are the differences between {items}?", "zh": "{items}有什么区别？"}


@dataclass(frozen=True)
class FrameworkQuestion:
    """One framework question before filtering."""

    text: str
    layer: str
    level: int  # 1..4
    facet: str | None = None  # the facet it belongs to; None = the subject as a whole
    primary: bool = False  # the facet's first question (asked first for a facet never asked)


def framework_questions(
    topic: str | TopicFrame, language: str, topic_type: TopicType | None, levels: tuple[int, ...]
) -> list[FrameworkQuestion]:
    """The framework's questions for ``levels`` (1–4), per facet of the topic.

    Order within a level: the subject's first question (when the user named facets), then one
    question per facet in turn (so every facet is asked before any is asked twice), then the
    subject's other questions.
    """
    lang = "zh" if language == "zh" else "en"
    frame = topic if isinstance(topic, TopicFrame) else decompose(topic, lang)
    kind = topic_type or frame.topic_type
    names = LAYER_NAMES[kind][lang]
    per_facet = [(f.name, _facet_levels(frame, f, lang, kind)) for f in frame.facets]
    overview = _type_levels(frame.subject, lang, kind, related=True) if _has_overview(frame) else None
    tasks = subject_tasks(frame.subject) if overview and lang == "en" else []
    if overview and tasks:
        # A subject that is a task ("reading and writing CSV files …") is asked how each of its verbs
        # is done, not what its definition is: the manual answers "How do I read CSV files …?".
        overview[0] = [f"How do I {task}?" for task in tasks] + overview[0][1:]
    parts = [f.name for f in frame.facets if f.kind == "part"]
    out: list[FrameworkQuestion] = []
    first_seen: set[str | None] = set()

    def add(text: str, level: int, facet: str | None) -> None:
        text = tidy(text, lang)
        if any(q.text == text for q in out):
            return
        primary = facet is not None and facet not in first_seen
        first_seen.add(facet)
        out.append(FrameworkQuestion(text, names[level - 1], level, facet, primary))

    for level in sorted(levels):
        if overview and overview[level - 1]:
            add(overview[level - 1][0], level, None)
        lists = [(name, list(by_level.get(level, []))) for name, by_level in per_facet]
        while any(items for _, items in lists):
            for name, items in lists:
                if items:
                    add(items.pop(0), level, name)
        if overview:
            for text in overview[level - 1][1:]:
                add(text, level, None)
        if level == 1 and len(parts) > 1:
            add(BETWEEN_PARTS[lang].format(items=_join(parts, lang)), 1, None)
    return out


def _has_overview(frame: TopicFrame) -> bool:
    """The subject as a whole gets its own questions when the user named facets of it — unless the
    subject *is* the comparison ("Compare PostgreSQL and SQLite": the comparison is everything)."""
    if not frame.explicit:
        return False
    subject_terms = set(key_terms(frame.subject))
    compared = {t for f in frame.facets if f.kind == "comparison" for c in f.candidates for t in key_terms(c)}
    return not subject_terms <= compared


def _type_levels(subject: str, lang: str, kind: TopicType, *, related: bool) -> list[list[str]]:
    out: list[list[str]] = []
    for templates in TEMPLATES[kind][lang]:
        out.append([t.format(s=subject) for t in templates if related or t not in {RELATED, RELATED_ZH}])
    return out


def _facet_levels(frame: TopicFrame, facet: Facet, lang: str, kind: TopicType) -> dict[int, list[str]]:
    if facet.kind == "part":
        several = sum(1 for f in frame.facets if f.kind == "part") > 1
        return dict(enumerate(_type_levels(facet.name, lang, kind, related=not several), start=1))
    if facet.kind == "aspect":
        phrase = _in_subject(facet.name, frame.subject, lang)
        placed = phrase != facet.name
        ctx, in_s = (f"{frame.subject}中", f"在{frame.subject}中") if placed else ("", "")
        values = {"p": phrase, "x": facet.name, "ctx": ctx, "in_s": in_s}
        levels = {i: [t.format(**values) for t in ts] for i, ts in enumerate(ASPECT_TEMPLATES[lang], start=1)}
        task = _task_question(facet.name, frame.subject, lang)
        if task is not None:
            levels[1] = [task]  # how it is done covers what it names ("committing or rolling back …")
        else:
            levels[1] += [_member_question(m, frame.subject, lang) for m in facet.members if not _PRONOUN_LED.match(m)]
        return levels
    if facet.kind == "comparison":
        return _comparison_levels(frame, facet, lang)
    question = facet.question or facet.name
    return {_question_level(question): _per_part(question, frame, lang)}


# "dialects and their settings": "their settings" is no member that can be asked on its own.
_PRONOUN_LED = re.compile(r"^(?:their|its|these|those|them|this)\b", re.I)
# 「用 gdb 调试并获取栈帧」「编写可移植的 shell 脚本」: a task named after a colon starts with its verb.
# 「在 DOS 与 Unix 换行符之间转换」「TAB 与空格互换」: a place or pair, then the verb, is a task too.
_ZH_TASK_LEAD = re.compile(
    r"^(?:用|使用|通过|借助|让|把|将)|^"
    + ZH_VERBS
    + r"|^在.{1,30}?(?:之间|中|上|里)\s*"
    + ZH_VERBS
    + r"|(?:互换|互转)$"
)


def _task_question(name: str, subject: str, lang: str) -> str | None:
    """A task aspect ("opening connections", 「用 make 构建」) is asked how it is done, not what it
    is: "What is the definition of opening connections?" finds no sentence that says how to open one.
    The subject is named unless it is itself a task ("reading and writing CSV files …")."""
    if lang == "zh" or has_cjk(name):
        # 「处理器」「格式化器」: a verb made a noun by its suffix names a thing, not a task (「如何处理器？」)
        agent = re.fullmatch(ZH_VERBS + r"\s*(?:器|者|机|程序|工具)", name.strip())
        return f"如何{name}？" if _ZH_TASK_LEAD.search(name) and agent is None else None
    task = task_question(name)
    if task is None:
        return None
    if is_action_phrase(subject) or shares_key_term(name, key_terms(subject, generic=False)):
        return f"How do I {task}?"
    return f"How do I {task} in {subject}?"


MEMBER_TEMPLATES = {"en": ("What does {m} do?", "What is meant by {m}?"), "zh": ("{m}是什么？", "{m}是什么？")}


def _member_question(member: str, subject: str, lang: str) -> str:
    """One thing an aspect names ("RLock" of "locks/RLock"), asked on its own: a name written as
    code is asked what it does; a phrase what it means, in the subject when it does not name it."""
    code, phrase = MEMBER_TEMPLATES[lang]
    if re.fullmatch(r"[A-Za-z_][\w.]*(?:\(\))?", member) and re.search(r"[._]|[a-z][A-Z]|^[A-Z]", member):
        return code.format(m=member)
    return phrase.format(m=_in_subject(member, subject, lang))


def _per_part(question: str, frame: TopicFrame, lang: str) -> list[str]:
    """The user's question once per part when it asks about each ("which object types each can
    handle" of "the pickle, marshal and shelve modules"): one answer per part, not one quote for all."""
    parts = [f.name for f in frame.facets if f.kind == "part"]
    if len(parts) < 2:
        return [question]
    if lang == "zh" or has_cjk(question):
        if not re.search(r"各自|分别|每个|每一个", question):
            return [question]
        bare = re.sub(r"各自|分别|每一个|每个", "", question)
        if frame.subject and frame.subject in bare:
            return [bare.replace(frame.subject, part, 1) for part in parts]
        return [part + bare for part in parts]
    if not re.search(r"\beach\b", question, re.I):
        return [question]
    return [re.sub(r"\beach\b", part, question, count=1, flags=re.I) for part in parts]


_CODE = re.compile(r"[\w.]*(?:__\w+__|\w+\(\)|[a-z]\w*\.[a-z_]\w*)")


def _code_name(name: str) -> bool:
    """A name written as code: "__slots__", "stack_size()", "os.path"."""
    return _CODE.fullmatch(name.strip()) is not None


def _in_subject(name: str, subject: str, lang: str) -> str:
    """The aspect placed in its subject, unless it already names it."""
    if not subject or shares_key_term(name, key_terms(subject, generic=False)):
        return name
    if lang != "zh" and _code_name(name):
        # "__slots__", "stack_size()", "os.path": a name written as code is unique in the sources; the
        # subject's words added to it ("in a Python class") only keep its own section from answering
        return name
    if lang != "zh" and is_action_phrase(subject):
        # "locks in coordinating worker threads in Python" reads as nothing; the task's own place
        # ("in Python", "with Python's csv module") is where the aspect is.
        place = re.search(r"^.*\b(?:in|with|on|using)\s+(?P<where>[^,]+)$", subject)  # the last place named
        if place is not None:
            return f"{name} in {place.group('where')}"
    return f"{subject}中的{name}" if lang == "zh" else f"{name} in {subject}"


def _comparison_levels(frame: TopicFrame, facet: Facet, lang: str) -> dict[int, list[str]]:
    t = COMPARISON_TEMPLATES[lang]
    cands = facet.candidates
    items = _join(cands, lang, comparison=True)
    a, b = cands[0], _join(cands[1:], lang, comparison=True)
    ctx_noun = re.sub(r"^(?:for|in|when|on|as|under)\s+", "", facet.context or "", flags=re.I)
    if lang == "zh":
        ctx = f"在{ctx_noun}场景下" if ctx_noun else ""
        ctx_lead = f"{ctx}，" if ctx else ""
    else:
        ctx = ctx_lead = f" {facet.context}" if facet.context else ""
    values = {"items": items, "a": a, "b": b, "s": frame.subject, "ctx": ctx, "ctx_noun": ctx_noun}
    values["ctx_lead"] = ctx_lead
    own = _has_overview(frame)
    # a candidate written as code ("__getattr__") is asked about alone: its own entry answers it
    each = [(t["role"] if own and not _code_name(c) else t["purpose"]).format(**values, c=c) for c in cands]
    fit = [t["fit"].format(**values, c=c) for c in cands] if ctx_noun else []
    return {
        1: [t["differences"].format(**values), *each],
        2: [t["relation"].format(**values), *fit],
        3: [t["tradeoffs"].format(**values)],
        4: [t["choice"].format(**values)],
    }


_LEVEL_CUES = (
    (1, re.compile(r"^(?:what\s+(?:is|are)\b)|是什么|什么是|的定义", re.I)),
    # "Which tool should …" asks for a choice; "which object types can X handle" for a fact.
    (
        4,
        re.compile(
            r"^(?:when|in\s+which)\b|^which\b.*\b(?:should|best|fits?|suits?|choose|prefer)\b|什么时候|何时|什么场景|什么情况",
            re.I,
        ),
    ),
    (3, re.compile(r"limitation|drawback|downside|局限|缺点|不足|风险", re.I)),
)


def _question_level(question: str) -> int:
    """A user's own question sits at the layer its question word asks for (why/how: mechanism)."""
    for level, cue in _LEVEL_CUES:
        if cue.search(question):
            return level
    return 2


def _join(items: list[str], lang: str, *, comparison: bool = False) -> str:
    if len(items) < 2:
        return "".join(items)
    if lang == "zh":
        last = " 与 " if comparison else " 和 "
        return "、".join(items[:-1]) + last + items[-1]
    return ", ".join(items[:-1]) + " and " + items[-1]


_HAN = "\u3400-\u4dbf\u4e00-\u9fff"


def tidy(text: str, lang: str) -> str:
    """Chinese spacing as the topics write it: a space between Latin and Han ("dpkg 与 apt"), none
    between two ideographs or before Chinese punctuation; never 「的的」."""
    text = " ".join(text.split())
    if lang == "zh" or has_cjk(text):
        text = re.sub(rf"(?<=[{_HAN}，、？：])\s+(?=[{_HAN}，、？：])", "", text)
        text = re.sub(r"\s+(?=[，、？。：])", "", text)
        text = re.sub(rf"(?<=[A-Za-z0-9+#)])(?=[{_HAN}])|(?<=[{_HAN}])(?=[A-Za-z0-9(])", " ", text)
        text = text.replace("的的", "的")
    return text


__all__ = [
    "ASPECT_TEMPLATES",
    "COMPARISON_TEMPLATES",
    "LAYER_NAMES",
    "TEMPLATES",
    "TOPIC_TYPES",
    "TOPIC_TYPE_EN",
    "FrameworkQuestion",
    "TopicType",
    "detect_topic_type",
    "framework_questions",
    "subject_of",
    "subject_parts",
    "tidy",
]
