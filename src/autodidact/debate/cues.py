"""Cue tables: reading a person's answer without a model (Chinese and English).

Why cues: the offline engine must still notice when an answer sharpened the question, surfaced a
premise or added a prediction, and must recognise commands ("暂停", "switch to examine", "你定吧").
Cues are plain substrings, so the judgement is deterministic, explainable and identical on replay;
a model can replace the signal reading (see ``turns.SignalTask``) but commands stay rule-based.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from autodidact.debate.answer_kinds import KIND_SIGNAL
from autodidact.debate.answer_kinds import classify as classify_answer

DONT_KNOW = (
    "不知道", "不清楚", "不确定", "说不好", "没想过", "不好说", "没头绪", "想不出",
    "don't know", "dont know", "not sure", "no idea", "dunno", "can't say", "haven't thought", "no clue",
)  # fmt: skip

SIGNAL_CUES: dict[str, tuple[str, ...]] = {
    "QUESTION_SHARPENED": (
        "指的是", "我说的是", "意思是", "我指", "定义", "口径", "范围", "相比", "比较", "而不是", "特指", "也就是",
        "第一种", "第二种", "第三种", "更接近",
        "i mean", "refers to", "defined", "define", "compared to", "compared with", "rather than",
        "specifically", "option a", "option b", "option c", "closer to", "the first reading", "the second reading",
    ),
    "INTUITION_FORMULATED": (
        "我认为", "我觉得", "我猜", "我怀疑", "可能是因为", "应该是", "大概是", "我的假设", "直觉",
        "i think", "i suspect", "i guess", "my hunch", "probably because", "i believe", "my guess",
    ),
    "PREMISE_SURFACED": (
        "前提", "假设", "默认", "取决于", "依赖", "没把握", "第①", "第②", "第③", "第一条", "第二条", "第三条",
        "assume", "assumption", "premise", "depends on", "presuppose", "least sure", "relies on",
        "number 1", "number 2", "number 3", "the first one", "the second one", "the third one",
    ),
    "PREMISE_CONTRADICTED": (
        "其实不是", "并不是", "反例", "相反", "不成立", "没有发生",
        "actually not", "counterexample", "isn't true", "doesn't hold", "the opposite",
    ),
    "DISCRIMINATION_ADDED": (
        "如果", "就会", "应该会", "会看到", "应当看到", "预测", "区别在于", "区分", "差别", "对照",
        "改判", "说明我错了",
        "if ", "would see", "would expect", "predict", "difference is", "distinguish", "tell apart",
        "would show",
        "i would revise", "would change my mind",
    ),
    "ALTERNATIVE_ADDED": (
        "也可能", "另一种解释", "或者是", "还可能", "也许是", "其他原因", "别的原因",
        "could also", "alternatively", "another explanation", "or maybe", "might instead", "other cause",
    ),
    "DISPOSITION_DECIDED": (
        "保留", "修改", "搁置", "放弃", "未决", "暂缓",
        "keep", "revise", "drop it", "set aside", "park", "undecided",
    ),
    "DECISION_RECORDED": (
        "决定", "下一步", "我会去", "打算", "计划",
        "decide", "next step", "i will", "i'll", "plan to",
    ),
}  # fmt: skip

ELIGIBLE: dict[str, tuple[str, ...]] = {
    "CLARIFICATION": ("QUESTION_SHARPENED", "INTUITION_FORMULATED"),
    "PREMISE_EVIDENCE": ("PREMISE_SURFACED", "PREMISE_CONTRADICTED", "INTUITION_FORMULATED"),
    "IMPLICATION": ("DISCRIMINATION_ADDED", "PREMISE_SURFACED"),
    "COMPARISON": ("ALTERNATIVE_ADDED", "DISCRIMINATION_ADDED"),
    "REFLECTION": ("DISPOSITION_DECIDED", "DECISION_RECORDED", "QUESTION_SHARPENED"),
}
"""Signals an answer to each question type may carry; the first is the type's primary signal."""


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def has_any(text: str, cues: tuple[str, ...]) -> bool:
    low = _norm(text)
    return any(cue in low for cue in cues)


def is_dont_know(text: str) -> bool:
    """ "I don't know" as the answer, not inside one: 「我只说我们这栋楼，别的楼我不清楚。另外…」 narrows
    the claim and gives a mechanism; a trial's such answer was met with "not knowing is fine"."""
    return has_any(text, DONT_KNOW) and classify_answer(text) == "hedge"


def substantial(text: str) -> bool:
    """Long enough to carry content: 12+ CJK characters or 8+ words."""
    cjk = len(re.findall(r"[\u4e00-\u9fff]", text))
    return cjk >= 12 or len(re.findall(r"[A-Za-z]+", text)) >= 8


def allowed_signals(question_type: str) -> tuple[str, ...]:
    """The signals an answer to this question type may carry: the type's own, plus the ones an
    answer's kind brings whatever was asked (a confounder offered to a clarifying question is still
    an alternative; ``debate/answer_kinds.py``)."""
    own = ELIGIBLE.get(question_type, ())
    if not own:
        return ()
    return own + tuple(s for s in dict.fromkeys(KIND_SIGNAL.values()) if s not in own)


# How a decision opens: "Try it", "Keep it", "Revise: …", "Set it aside", 「试一试」「保留」「修改」「搁置」.
_DECISION = re.compile(
    r"^\s*(?:i'?ll |we'?ll |let'?s |i'?d )?(?:try|keep|revise|set (?:it )?aside|park|drop|go ahead|undecided)\b|"
    # 「先试一下：签一年短租，…」 answers "trial, revise or set aside?" with a trial (a trial's was filed as a
    # test only, and the reflection asked again)
    r"^\s*(?:那就|那)?(?:我们?(?:会|要|想|决定)?)?(?:先)?(?:试(?:一试|试|行|一下)?|保留|修改|搁置|暂缓|放弃|未决)",
    re.I,
)


# A decision said later in the answer: "No, it doesn't change it. I keep the revised version",
# 「不会改变。」, "Set it aside? No — keep the revised one".
_DECISION_SAID = re.compile(
    r"\b(?:i|we)(?:'ll| will| would|'d)? (?:keep|drop|revise|set (?:it )?aside|park)\b|"
    r"\b(?:does(?:n'?t| not)|won'?t|will not) change\b|(?:^|[—–-]\s*)keep\b|"
    r"\b(?:i'?ve |we'?ve )?decided to (?:keep|drop|revise|set (?:it )?aside|park)\b|^decision\s*[:：]|"
    r"不会改变|不改变|没有改变|(?:还是|仍然|依然|继续)(?:保留|坚持)|^决定[：:]|"
    r"(?:决定|打算)(?:先)?(?:把(?:这个)?(?:命题|想法|说法))?(?:保留|搁置|放弃|修改|暂缓)|"
    r"(?:^|[：:，,。]\s*)(?:我|那就)?(?:先)?(?:保留|搁置|放弃)(?![^，。]{0,3}[吗?？])|"
    r"(?:^|[.:,;—–]\s*)(?:i'?ll |we'?ll |let'?s )?(?:keep|set (?:it )?aside|drop) (?:it|the|this)\b(?![^.]{0,20}\?)",
    re.I,
)


_ABOUT_THE_TALK = re.compile(
    r"\byou(?:'ve| have)? (?:said|asked|got|missed|keep)\b|\balready (?:said|told|gave|answered)\b|"
    r"\bi (?:already |just )?said\b|"
    r"你(?:说|问|漏|又|理解)|我(?:上一句|刚才|前面|之前)(?:已经)?(?:说|讲|答)",
    re.I,
)


def about_the_talk(answer: str) -> bool:
    """True when the answer talks about the discussion ("you already asked that") more than the world."""
    return _ABOUT_THE_TALK.search(answer) is not None


def states_decision(answer: str) -> bool:
    """True when the answer decides the idea: keep, revise, set aside, drop (in either language)."""
    return bool(_DECISION.match(answer) or _DECISION_SAID.search(answer))


def detect_signals(answer: str, question_type: str, previous_answers: list[str]) -> list[str]:
    """Signals an answer carries for a question of ``question_type`` (deterministic)."""
    eligible = ELIGIBLE.get(question_type, ())
    if not eligible or not answer.strip() or is_dont_know(answer):
        return []
    if _norm(answer) in {_norm(a) for a in previous_answers}:
        return []
    kind = classify_answer(answer)
    if kind == "hedge":
        return []  # a hedge is never a premise, an alternative or a reading
    if question_type == "REFLECTION" and (_DECISION.match(answer) or _DECISION_SAID.search(answer)):
        # "Try it, with the live slot kept. The January attempt …" decides, whatever else it says: a
        # trial filed it as an alternative and asked the reflection again and again
        return ["DISPOSITION_DECIDED"]
    if kind in KIND_SIGNAL:
        return [KIND_SIGNAL[kind]]
    if kind == "example" and question_type == "IMPLICATION" and substantial(answer):
        # a case that happened is no prediction: it bears on the premises (a trial's example was
        # filed as "a test that would show whether it holds" and the idea called testable)
        return ["PREMISE_SURFACED"]
    if kind == "choice":
        return [eligible[0]]  # picking a reading sharpens it; naming the weakest premise surfaces it
    found = [s for s in eligible if has_any(answer, SIGNAL_CUES[s])]
    if not found and substantial(answer) and not _ABOUT_THE_TALK.search(answer):
        # a long answer moves the question on; one about the talk ("there's more than one explanation
        # already", 「我上一句已经说了…」) is no premise (trials found such complaints filed as premises)
        found = [eligible[0]]
    return found


# -- commands (P0 and configuration) ---------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """A recognised instruction in the person's message."""

    kind: str  # PAUSE | CLOSE | MODE | DEPTH | REVIEW | GAP | QUESTION
    value: str | None = None


_PAUSE = ("暂停", "先到这", "下次再聊", "/pause", "pause the session", "let's pause", "lets pause")
_SUMMARY = ("总结一下", "做个总结", "收敛一下", "先收敛", "summarize", "give me a summary", "let's converge")
_CLOSE = ("收尾", "结束讨论", "结束吧", "/close", "wrap up", "end the session", "close the session")
# A whole reply that signs off ("I'm done, thanks", 「就到这里吧」): a trial's was recorded as a sharper idea.
_SIGN_OFF = re.compile(
    r"^\s*(?:ok(?:ay)?[,.]?\s*)?(?:i'?m|i am|we'?re) (?:done|finished)(?: for now| here)?[,.!\s]*"
    r"(?:thanks?(?: you)?|cheers)?[.!\s]*$|^\s*(?:好的?[，,]?\s*)?(?:我)?(?:说完了|就到这里吧?|先到这里吧?)[。！!\s]*$",
    re.I,
)
_REVIEW = (
    "独立评估",
    "反例检查",
    "独立挑战",
    "挑战一下",
    "independent review",
    "challenge this",
    "counterexample check",
)
_GAP = ("查一下", "查证", "帮我查", "找文献", "找证据", "look it up", "check the evidence", "find evidence")
# Asking whether anything is known ("Is there research on this?", 「有没有这方面的研究？」, 「该怎么查」) asks
# for the same search: a trial's three such questions were each told it was theirs to settle.
_GAP_ASKED = re.compile(
    r"\b(?:is there|are there|do you know (?:of )?)(?: any)? "
    r"(?:research|studies|study|data|evidence|literature|papers?)\b"
    r"|\bwhat does (?:the )?(?:research|evidence|literature|data) say\b|\bcan you (?:look|search|find)\b"
    r"|有没有(?:这方面的?|相关的?|关于[^？?。]{1,30}?的)?(?:研究|数据|文献|资料|证据|调查)|该?怎么查|能(?:不能)?帮我(?:查|找)",
    re.I,
)
_TO_EXAMINE = ("切换到推敲", "换成推敲", "推敲模式", "switch to examine", "examine mode")
_TO_EXPLORE = ("切换到探索", "换成探索", "探索模式", "switch to explore", "explore mode")
_DIRECT = (
    "你觉得",
    "你认为",
    "你怎么看",
    "什么意思",
    "what do you think",
    "do you think",
    "what do you mean",
    "what does",
)

DEPTH_WORDS: dict[str, tuple[str, ...]] = {
    "quick": ("快速", "quick", "fast"),
    "standard": ("标准", "standard", "normal"),
    "deep": ("深度", "deep", "thorough"),
}
DELEGATED = (
    "你定吧",
    "你定",
    "你决定",
    "哪个合适就哪个",
    "随便",
    "都行",
    "you decide",
    "up to you",
    "your call",
    "whatever",
)
RECOMMENDED = ("按推荐", "推荐", "recommended", "default", "the recommendation")
_DEPTH_CHANGE = {
    "deep": ("太快", "改成深度", "换成深度", "too fast", "switch to deep", "go deeper"),
    "quick": ("太慢", "改成快速", "换成快速", "too slow", "switch to quick", "make it quick"),
    "standard": ("改成标准", "换成标准", "switch to standard"),
}


def parse_depth(text: str) -> tuple[str | None, str]:
    """``(depth, how)``: how is ``delegated``, ``recommended``, ``chosen`` or ``unknown``."""
    if has_any(text, DELEGATED):
        return None, "delegated"
    if has_any(text, RECOMMENDED):
        return None, "recommended"
    low = _norm(text)
    # the depth named first, by whole words: "standard, I guess … rise: faster" chose quick by "fast"
    named = [
        (m.start(), depth)
        for depth, words in DEPTH_WORDS.items()
        for w in words
        for m in re.finditer(rf"\b{re.escape(w)}\b" if w.isascii() else re.escape(w), low)
        if not re.search(r"(?:\bnot|\bno|不要|不用|别)\s*$", low[max(0, m.start() - 6) : m.start()])  # "not deep"
    ]
    if named:
        return min(named)[1], "chosen"
    digits = {"1": "quick", "2": "standard", "3": "deep"}
    if low.strip() in digits:
        return digits[low.strip()], "chosen"
    return None, "unknown"


def without_research_request(text: str) -> str:
    """The answer less its sentences that ask for a search (what else it says is still an answer)."""
    kept = [
        m.group(0).strip()
        for m in re.finditer(r"[^.!?。！？]+(?:[.!?。！？]+|$)", text)
        if m.group(0).strip() and not (_GAP_ASKED.search(m.group(0)) or has_any(m.group(0), _GAP))
    ]
    return ("" if re.search(r"[\u4e00-\u9fff]", text) else " ").join(kept)


def asked_to_research(text: str) -> str:
    """The question a request for research is about: 「咖啡馆的噪音会不会影响阅读？有没有这方面的研究？」
    asks about the noise, not about the whole idea. "" when the request names nothing of its own."""
    asked = [m.group(0).strip() for m in re.finditer(r"[^.!?。！？]+[?？]", text)]
    own = [q for q in asked if not _GAP_ASKED.search(q) and not has_any(q, _GAP)]
    if not own:
        # "Is there research on sprint length and defects?", 「有没有关于噪音和阅读的研究？」
        named = re.search(
            r"\b(?:research|studies|study|data|evidence|literature|papers?) (?:on|about|into|for) (?:the )?"
            r"(?P<en>[^?.!]{3,80})|有没有关于(?P<zh>[^？?。]{2,30}?)的(?:研究|数据|文献|资料|调查)",
            text,
            re.I,
        )
        if named is None or re.fullmatch(r"(?:this|that|it|these|them)\s*", named.group("en") or "x", re.I):
            return ""
        return (named.group("en") or named.group("zh")).strip()
    # 「但我想问你：…」, "I still want to know: …" lead in to the question; they are not part of it
    return re.split(r"[:：]\s*", own[-1])[-1].strip()


def parse_command(text: str) -> Command | None:
    """The P0 instruction in ``text``, if any (checked before the text is taken as an answer)."""
    if has_any(text, _PAUSE):
        return Command("PAUSE")
    if has_any(text, _SUMMARY):
        return Command("SUMMARY")
    if has_any(text, _CLOSE) or _SIGN_OFF.match(text):
        return Command("CLOSE")
    if has_any(text, _TO_EXAMINE):
        return Command("MODE", "examine")
    if has_any(text, _TO_EXPLORE):
        return Command("MODE", "explore")
    for depth, words in _DEPTH_CHANGE.items():
        if has_any(text, words):
            return Command("DEPTH", depth)
    if has_any(text, _REVIEW):
        return Command("REVIEW")
    if has_any(text, _GAP) or _GAP_ASKED.search(text):
        return Command("GAP", text)
    stripped = text.strip()
    if stripped.endswith(("?", "？")) and has_any(stripped, _DIRECT) and not substantial_beside_question(stripped):
        # only a bare question: "I'd run it 4 weeks and drop it if … Do you think 4 weeks is enough?"
        # answers the turn and asks too; taken as a command, the whole answer was lost (a trial)
        return Command("QUESTION", text)
    return None


def substantial_beside_question(text: str) -> bool:
    """Whether an answer says something of substance besides the question(s) it asks."""
    rest = re.sub(r"[^.!?。！？]*[?？]", " ", text)
    return substantial(rest)


_VERDICT = re.compile(
    r"(?:true|right|correct|valid|wrong|make sense|makes sense|hold up|holds up)|对吗|对不对|成立吗|有道理|站得住",
    re.I,
)


def asks_verdict(text: str) -> bool:
    """Whether a question asks the partner to judge the proposition ("Do you think it's true?")."""
    return _VERDICT.search(text) is not None


_WISHES = ("我想先谈", "我更想聊", "先聊聊", "想谈谈", "i'd rather talk about", "let's talk about", "can we discuss")
_WISH_ROLE = (
    (("定义", "概念", "口径", "definition", "concept"), "concept_clarifier"),
    (("前提", "证据", "premise", "evidence"), "premise_evidence_examiner"),
    (("预测", "检验", "验证", "prediction", "test"), "implication_validator"),
    (("替代", "其他解释", "别的解释", "alternative", "other explanation"), "alternative_explorer"),
    (("立场", "修订", "取舍", "position", "revision"), "reflection_facilitator"),
)


def wished_role(text: str) -> str | None:
    """The role a person explicitly asks to discuss next (用户关注插队), if any."""
    if not has_any(text, _WISHES):
        return None
    for words, role in _WISH_ROLE:
        if has_any(text, words):
            return role
    return None


_GAP_YES = ("确认", "可以", "好的", "同意", "行", "查吧", "yes", "ok", "okay", "confirm", "go ahead", "sure")
_GAP_NO = ("不用", "不查", "拒绝", "算了", "不要", "no", "skip", "don't", "decline")
_GAP_CHANGE = re.compile(r"(?:范围改成|范围改为|改成只查|只查|scope:|change the scope to|only search)\s*(.+)", re.I)


def parse_gap_decision(text: str) -> tuple[str, str | None]:
    """``("CHANGE", new_scope)`` / ``("REJECT", None)`` / ``("CONFIRM", None)`` / ``("UNKNOWN", None)``."""
    match = _GAP_CHANGE.search(text)
    if match:
        return "CHANGE", match.group(1).strip().rstrip("。.")
    words = set(re.findall(r"[a-z']+", _norm(text)))
    if has_any(text, tuple(c for c in _GAP_NO if not c.isascii())) or words & {"no", "skip", "decline", "don't"}:
        return "REJECT", None
    if has_any(text, tuple(c for c in _GAP_YES if not c.isascii())) or words & {"yes", "ok", "okay", "confirm", "sure"}:
        return "CONFIRM", None
    if "go ahead" in _norm(text):
        return "CONFIRM", None
    return "UNKNOWN", None


_CLAIM = (
    "因为", "导致", "会让", "使得", "造成", "所以", "一定", "必然", "取决于", "我认为", "我主张",
    "because", "causes", "leads to", "results in", "i claim", "i think", "always", "never",
)  # fmt: skip
_WEAK_CLAIM = ("比", "更", "better", "worse", "more than", "less than")
_EXPLORE = (
    "为什么", "是否", "好奇", "奇怪", "发现", "好像", "似乎", "感觉", "想知道", "有没有",
    "why", "whether", "wonder", "curious", "noticed", "seems", "strange", "odd", "interested in",
)  # fmt: skip


def judge_mode(prompt: str) -> tuple[str, str]:
    """``(mode, cue)``: examine for a concrete claim, explore for an interest or observation.

    A causal claim, a comparison or a plan (``debate/proposition.py``) is examined, its effect (or
    plan) quoted as the cue; a question is explored; otherwise the claim and interest cues decide.
    """
    from autodidact.debate.proposition import read
    from autodidact.kb import detect_language

    reading = read(prompt, detect_language(prompt))
    if reading.kind in {"causal", "comparison", "plan"} and reading.key_term in prompt:
        return "examine", reading.key_term
    if reading.kind == "question":
        return "explore", "?"
    low = _norm(prompt)
    claim = next((c for c in _CLAIM if c in low), None)
    weak = next((c for c in _WEAK_CLAIM if c in low), None)
    explore = next((c for c in _EXPLORE if c in low), None)
    asks = prompt.strip().endswith(("?", "？"))
    if claim and not asks:
        return "examine", claim
    if weak and not explore and not asks:
        # the effect that holds the comparative, not the bare word: (you wrote 「更」) read as a slip
        return "examine", reading.effect if weak in reading.effect and reading.effect in prompt else weak
    return "explore", explore or ("?" if asks else "")
