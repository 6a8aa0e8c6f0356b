"""Offline turn templates: each role's contribution and focus question, in Chinese and English.

Why templates and not filler: without a model the engine must still do each role's job — offer
candidate readings of a term (P1), lay out key premises and the strongest counter-scenario
(P2), state an observable prediction with a minimal design whose unknowns are marked 待补 (P3),
name a competing explanation and where the two part ways (P4), and lay out keep / revise /
undecided (P6). The texts are filled from the session (the proposition, its key term, the person's
own answers), so the conversation follows what the person said. Every focus question has exactly
one question mark and no bundling words; the checker enforces the same rules on model output.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from autodidact.debate.proposition import read as read_proposition
from autodidact.debate.proposition import what_changed

_SENTENCE_END = re.compile(r"[。！？!?]|\.(?:\s|$)")


class TurnInputs(BaseModel):
    """What a role needs to write one turn (also the prompt input of ``turns.RoleTurnTask``)."""

    role: str
    question_type: str
    intent: str
    trigger: str | None = None
    lang: str = "en"
    mode: str = "explore"
    proposition: str = ""
    term: str = ""
    last_answer: str | None = None
    answer_signals: list[str] = Field(default_factory=list)
    dont_know: bool = False
    assumptions: list[str] = Field(default_factory=list)
    predictions: list[str] = Field(default_factory=list)
    alternatives: list[str] = Field(default_factory=list)
    maturation: str = "RAW"
    variant: int = 0
    review_text: str | None = None
    evidence_note: str | None = None
    opening: str | None = None
    kind: str = ""  # the proposition's kind (proposition.Kind): a plan is examined as a plan


class TurnOutput(BaseModel):
    """One turn's skeleton parts (the label is added by the engine)."""

    response: str = Field(description="at most two sentences reacting to the last answer, or 跳过回应 / (no response)")
    contribution: str = Field(description="one substantive contribution: analysis, example, candidate wording or plan")
    source: str = Field(description="observation | suggestion | judgement | hypothesis | evidence")
    question: str = Field(description="exactly one focus question, one question mark, nothing bundled")
    why: str = Field(description="one sentence: why this question is worth asking")


def excerpt(text: str | None, limit: int = 28) -> str:
    """A quotable piece of the person's words: no sentence ends, no question marks."""
    if not text:
        return ""
    flat = " ".join(text.split())
    cjk = bool(re.search(r"[\u4e00-\u9fff]", flat))
    if not cjk:
        limit *= 2  # Latin words are longer than CJK characters
    # The person's punctuation stays (full stops turned into commas read "Premise 2, On nights…"),
    # but a question mark never enters a focus question, and a bundling word ("以及", "另外", "顺便")
    # would bundle one: the quote ends before it.
    # an answer that opens with one (「另外我前面…」) had it cut to nothing: a leading one is dropped
    flat = re.sub(r"^(?:以及|另外|顺便)[，,]?\s*", "", flat)
    bundle = re.search(r"以及|另外|顺便", flat)
    more = bool(bundle)
    flat = flat[: bundle.start()] if bundle else flat
    flat = re.sub(r"\s*[?？]\s*", lambda m: "，" if cjk else ", ", flat).strip().rstrip("，,、;；. ")
    if len(flat) > limit:
        more = True
        cut = flat[:limit]
        if not cjk and " " in cut:
            cut = cut.rsplit(" ", 1)[0]  # at a word boundary: "until a ju…" read as a typo
        flat = cut.rstrip("，,、;；:：.。 ")  # "last month.…" ended twice
    # an aside the cut left open would never close: the quote ends before it
    for open_, close in (("(", ")"), ("（", "）")):
        if flat.count(open_) > flat.count(close):
            flat = flat[: flat.rfind(open_)].rstrip("，,、 ")
            more = True
    return flat + "…" if more else flat


_ZH_SPLIT = re.compile(
    r"[，。？！、；：,.?!;:\s「」“”\"'（）()]+|还是|的|了|是|在|和|与|对|把|被|让|使|因为|所以|之后|以后|反而|很|都|也|就|这|那|"
    r"一个|为什么|是否|吗|呢|我们|我|你|他|她|它|觉得|认为|发现|好像|似乎|可能|用|写|做|会"
)
_ZH_MARKER = re.compile(r"(?:更|越来越|变得|反而|比较|导致|影响|降低|提高|减少|增加)([^，。？！、；：,.?!;:\s]{1,8})")
_EN_STOP = set(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "for",
        "and",
        "or",
        "but",
        "with",
        "without",
        "that",
        "this",
        "it",
        "its",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "i",
        "we",
        "you",
        "they",
        "me",
        "my",
        "our",
        "your",
        "their",
        "more",
        "less",
        "most",
        "least",
        "very",
        "so",
        "than",
        "then",
        "when",
        "after",
        "before",
        "because",
        "why",
        "whether",
        "do",
        "does",
        "did",
        "have",
        "has",
        "had",
        "can",
        "could",
        "would",
        "should",
        "will",
        "just",
        "really",
        "seem",
        "seems",
        "feel",
        "feels",
        "make",
        "makes",
        "using",
        "use",
    ]
)


def key_term(text: str, lang: str) -> str:
    """The term a clarifier should ask about: quoted, else the predicate of a comparison, else the longest word."""
    quoted = re.search(r"[「“\"]([^」”\"]{1,20})[」”\"]", text)
    if quoted:
        return excerpt(quoted.group(1), 20)
    reading = read_proposition(text, lang)
    if reading.kind in {"causal", "comparison", "observation", "plan"} and reading.effect:
        # The effect decides the claim ("learn slower"), not the first word after "makes" ("junior").
        return excerpt(what_changed(reading), 12 if lang == "zh" else 30)
    if lang == "zh":
        marks = list(_ZH_MARKER.finditer(text))
        if marks:
            last = marks[-1]
            term = re.sub(r"[了的吗呢啊]+$", "", last.group(1))
            if len(term) == 1:  # "效率更高" → "效率更高", not "高"
                head = re.split(r"[，。？！、；：,.?!;:\s我你他她它让使]", text[: last.start()])[-1][-2:]
                term = head + last.group(0)[: len(last.group(0)) - len(last.group(1))] + term
            if term:
                return excerpt(term, 12)
        # The claim of a Chinese sentence is in its last clause (topic first, comment last), and a
        # character cut off at 10 reads as a word of its own (「每次开完周一早」 for 「…早会」): the term is
        # the longest piece of the last clause that has one, whole, or quoted with "…" when cut.
        clauses = [c for c in re.split(r"[，。？！；：,.?!;:]", text) if len(c.strip()) >= 2]
        for clause in reversed(clauses or [text]):
            chunks = [c for c in _ZH_SPLIT.split(clause) if c and len(c) >= 2]
            if chunks:
                return excerpt(max(chunks, key=len), 10)
        return excerpt(text, 10)
    words: list[str] = re.findall(r"[A-Za-z][A-Za-z\-']*", text)
    lowered = [w.lower() for w in words]
    for marker in ("more", "less", "better", "worse", "makes", "causes", "reduces", "increases", "improves"):
        if marker in lowered:
            after = [w for w in words[lowered.index(marker) + 1 :] if w.lower() not in _EN_STOP]
            if after:
                return after[0]
    content = [w for w in words if w.lower() not in _EN_STOP]
    return max(content, key=len) if content else excerpt(text, 20)


# A prediction that names a measure: a number, a share, a threshold ("less than 20%", 「少于10分钟」).
_MEASURE = re.compile(
    r"\d|\b(?:percent|half|twice|double|triple)\b|"
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|a dozen) (?:\w+ )?(?:minutes?|hours?|days?|weeks?|"
    r"months?|times|people|cases|tickets|points?)\b|[一二三四五六七八九十两半]+\s*(?:个|次|分钟|小时|天|周|倍|成|人|件)",
    re.I,
)


def measured(test: str) -> bool:
    """Whether a stated test names a measure or threshold ("within 20%", "18 orders or more")."""
    return bool(test) and _MEASURE.search(test) is not None


def names_result(test: str) -> bool:
    """Whether a stated test says which result decides it: a measure, or a condition ("if office
    juniors ship just as late, I'd drop it"). Asking "which of the two outcomes would make you
    revise?" after either re-asked what the person had just said."""
    return measured(test) or (bool(test) and _IF.search(test) is not None)


def measure_clause(test: str) -> str:
    """The sentence of a stated test that holds its measure: quoted back cut at 70 characters, "I'll
    learn two pieces of similar difficulty, one with …" lost the "within 20%" that decides it."""
    # "1.5x" is no sentence end: a full stop ends one before a space only (a trial's test was quoted
    # as "… 6 at 1")
    sentences = [x.strip() for x in re.split(r"(?<=[.!?;])\s+|(?<=[。！？；])\s*", test) if x.strip()]
    conditional = [x for x in sentences if _MEASURE.search(x) and _IF.search(x)]
    return next(iter(conditional), next((x for x in sentences if _MEASURE.search(x)), test))


_IF = re.compile(
    r"\b(?:if|unless|within|below|above|under|at least|more than|less than)\b|如果|要是|低于|高于|以上|以下", re.I
)


def sharpest(predictions: list[str]) -> str:
    """The prediction to show as the test: the latest one that names a measure, else the latest.

    Why: a later, vaguer "if it's about the same, I'd drop it" must not hide "if switches drop by less
    than 20%, I'd call it noise" (a trial's threshold was lost that way); both stay in the record."""
    measured = [p for p in predictions if _MEASURE.search(p)]
    return (measured or predictions)[-1] if predictions else ""


_QUOTED = re.compile(r"「[^「」]*」|“[^“”]*”|\"[^\"]*\"")


def without_quotes(text: str) -> str:
    """``text`` with every quoted span (the person's words) replaced by "…": a quote holding a quote
    「…「…」…」 goes as one unit, innermost first."""
    own = text.strip()
    while True:
        reduced = _QUOTED.sub("\u2026", own)
        if reduced == own:
            return own
        own = reduced


def sentence_count(text: str) -> int:
    """Sentences in ``text`` (terminal punctuation; a trailing fragment counts as one). What stands
    in quotes is the person's words, not the response's own sentences: "You said "No. Only on
    Fridays"; recorded as: …" is one sentence."""
    own = without_quotes(text)
    parts = [p for p in _SENTENCE_END.split(own) if p and p.strip()]
    return max(1, len(parts)) if own else 0


# Other ways to the goal a plan serves: what a careful partner asks a plan to beat.
PLAN_ALTERNATIVES = {
    "zh": (
        "更小的改动（保留做法，只改它最费事的那一部分）",
        "换一种方式达到同一目标（例如书面或异步的方式）",
        "先不动，找出问题的根源再决定",
    ),
    "en": (
        "a smaller change (keep the current way and fix only its most costly part)",
        "a different route to the goal (a written or asynchronous one, say)",
        "changing nothing yet and finding the root of the problem first",
    ),
}

# Rivals about how cases were remembered or counted: no rival once the person has said they count it
# (a trial that logged begging on a fridge calendar was offered "selective memory").
_RECALL = re.compile(r"selective memory|选择性记忆|what is counted|计数方式", re.I)


def fitting(pool: tuple[str, ...], counted: bool) -> tuple[str, ...]:
    """The rules' rivals that fit what the person said: without the recall ones when they counted."""
    kept = tuple(x for x in pool if not (counted and _RECALL.search(x)))
    return kept or pool


ALTERNATIVES = {
    "zh": (
        "同期的其他变化（同一时期，人、安排或季节也变了）",
        "选择性记忆（印象深的例子更容易被想起）",
        "预期效应（事先的看法影响了感受）",
    ),
    "en": (
        "a concurrent change (the people, the routine or the season changed in the same period)",
        "selective memory (vivid cases come to mind more easily)",
        "an expectation effect (what you expected shaped what you felt)",
    ),
}
