"""Questions the person asks the partner, and the short answer a partner without a model can give.

Why: a trial asked "What would count as 'similar difficulty' though?" in the middle of planning
its test. The engine filed the question as the test itself and showed the same review block again;
the person wrote "I asked you a question … you're repeating the same review". A partner that listens
says it heard the question, gives what it honestly can — how experiments usually settle that kind of
question (matching, size, measure), never a verdict on the person's domain — and keeps it as an open
question of the session (docs/debate.md, "Questions you ask the partner").
"""

from __future__ import annotations

import re

# Sentences: up to and including their end mark; a question mark ends one even without a space.
_SENTENCE = re.compile(r"[^.!?。！？]+(?:[.!?。！？]+|$)")
_EN_ASKS = re.compile(
    r"^(?:so |but |and |ok(?:ay)?,? |then,? )?(?:what|how|which|why|when|where|who|is|are|was|were|do|does|did|"
    r"should|would|could|can|will|shall|isn'?t|aren'?t|doesn'?t|don'?t|wouldn'?t|couldn'?t|shouldn'?t|can'?t|won'?t)\b",
    re.I,
)
_ZH_ASKS = re.compile(r"吗|呢|什么|怎么|怎样|如何|是否|多少|多久|多长|哪|算不算|够不够|行不行|可不可以")
_MIN_WORDS = 3  # "Right?", "Why?" ask nothing the partner can answer


def question_to_partner(answer: str) -> str | None:
    """The first sentence of ``answer`` that asks the partner something, or None.

    "Set it aside? No — keep it" puts a decision as a question and answers it at once: it asks
    nothing (it does not open with a question word)."""
    for m in _SENTENCE.finditer(answer):
        sentence = m.group(0).strip()
        if not sentence.endswith(("?", "？")):
            continue
        # "No, I mean I asked you a question: is the grade a good enough match?" asks after its colon
        sentence = re.split(r"[:：—]\s*", sentence)[-1].strip() or sentence
        if re.search(r"[\u4e00-\u9fff]", sentence):
            if _ZH_ASKS.search(sentence) and len(sentence) >= 6:
                return sentence
            continue
        if _EN_ASKS.match(sentence) and len(sentence.split()) >= _MIN_WORDS:
            return sentence
    return None


def without_question(answer: str, question: str) -> str:
    """What the answer says besides its question ("I was thinking I'd go by the grade …")."""
    return " ".join(answer.replace(question, " ", 1).split())


# What kind of question it is, and what experiments usually do about it.
_KINDS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (
        re.compile(r"similar|comparable|same|match|equal|fair|good enough|相似|可比|一样|差不多|相当|对等|公平", re.I),
        "a comparison is fairer when each side gets several items, or the items swap sides in a second run, "
        "because one label (a grade, a category) matches two things only roughly",
        "每一边多放几个对象，或者第二轮把两边的对象互换，比较才更公平，因为单凭一个标签（等级、类别）只能粗略匹配两样东西",
    ),
    (
        re.compile(r"how (?:many|much|long|often)|sample|duration|多少|多久|多长|几次|几周|样本", re.I),
        "use several periods on each side rather than one, and fix their number before you start, so that "
        "one unusual period cannot decide it",
        "每一边不止一段时期，并在开始之前定好段数，这样单独一段反常的时期左右不了结论",
    ),
    (
        re.compile(r"tell (?:them |the two )?apart|distinguish|separate|rule out|区分|分开|排除|分得清", re.I),
        "two explanations are told apart by a case where they predict different things; a case that comes out "
        "as one predicts and not the other counts against the other",
        "两种解释要靠它们预测不同的情形来区分；结果符合其中一种而不符合另一种的情形，就是不利于另一种的证据",
    ),
    (
        re.compile(r"feasible|doable|practical|realistic|manageable|可行|行得通|能不能做|做得到|现实吗", re.I),
        "a short dry run of one period, with the measure written down, shows whether the full test can be "
        "kept up before you commit to it",
        "先试跑一小段时期、把要记的量写下来，就能在正式开始前看出完整的检验能不能坚持下来",
    ),
    (
        re.compile(r"measure|count|record|track|know whether|tell whether|怎么测|怎么量|怎么记|怎么知道|衡量", re.I),
        "take a measure you can count the same way on both sides, and write it down before you see the result",
        "用两边都能以同样方式取得的量，并在看到结果之前就写下来",
    ),
)


# A question about the session itself: "did you record it?", "Why does your summary say none was
# named?", 「你记下来了吗？」 — the partner can answer it from the record, and should.
_ABOUT_RECORD = re.compile(
    r"\brecord|\bsummary\b|\bnote[ds]?\b|\bwrite (?:it|that) down\b|did you (?:get|see|catch|hear|note|keep)\b|"
    r"\bwhy (?:do|does|did) (?:you|your|it)\b|记(?:录|下)|总结|小结|为什么你",
    re.I,
)


def about_record(question: str) -> bool:
    """Whether the question asks about the session's record rather than the world."""
    return _ABOUT_RECORD.search(question) is not None


# A question about the partner's own words: "What do you mean by 'the two outcomes'?", 「“命题说的那个
# 原因”是指哪个？」 — answered by pointing at what the last turn said.
_ABOUT_WORDING = re.compile(r"what do you mean|what does .{1,40} mean\b|你(?:说|指)的|是指|什么意思|指的是", re.I)


def answer_back(question: str, lang: str, record: str = "", last_turn: str = "") -> str:
    """What the partner says to a question asked of it, in one sentence (a turn's response holds two
    at most): heard, left to the person, kept open, and what generally helps — or, for a question
    about the session, what the record holds (``record``, already in the session's language)."""
    zh = lang == "zh"
    quote = question if len(question) <= 90 else question[:89].rstrip() + "…"
    if last_turn and _ABOUT_WORDING.search(question):
        said = last_turn if len(last_turn) <= 160 else last_turn[:159].rstrip() + "…"
        if zh:
            return f"你问「{quote}」：那是我上一轮的说法，指的是这段：{said}"
        return f'You asked "{quote}": those were my words, about what the last turn said: {said}'
    if record and about_record(question):
        if zh:
            return f"你问「{quote}」：目前记录的是——{record}。"
        return f'You asked "{quote}": the record now holds {record}.'

    helps = (zh_text if zh else en_text for pattern, en_text, zh_text in _KINDS if pattern.search(question))
    help_text = next(helps, "")
    if zh:
        head = f"你问「{quote}」：这要由你按自己的情况来定，它记为未决问题"
        return head + (f"；一般的做法是：{help_text}。" if help_text else "。")
    head = f'You asked "{quote}": that is yours to settle from what you know, and it stays an open question'
    return head + (f"; what usually helps: {help_text}." if help_text else ".")


# "Isn't my mother moving in the rival?", 「我妈来住不就是那个竞争解释吗？」: a rival offered as a question.
_RIVAL_ASKED = (
    re.compile(r"^(?P<rival>.{2,40}?)(?:不)?就是(?:那个|一个|另一个)?(?:竞争解释|另一种解释|别的原因)", re.I),
    re.compile(
        r"^(?:isn'?t|is not|wouldn'?t|couldn'?t|could|might|is) (?P<rival>.{3,60}?),? (?:be )?(?:the|a|an|another|my) "
        r"(?:rival|competing explanation|alternative explanation|other explanation|other cause)\b",
        re.I,
    ),
)


def rival_in_question(question: str) -> str | None:
    """The rival a question offers ("我妈来住" of 「我妈来住不就是那个竞争解释吗？」), or None."""
    for pattern in _RIVAL_ASKED:
        found = pattern.search(question.strip())
        if found:
            return found.group("rival").strip(" ，,")
    return None


def rival_heard(question: str, rival: str, lang: str) -> str:
    """The response to a rival offered as a question: yes, and it is on the record now."""
    if lang == "zh":
        return f"你问「{question}」：是的，「{rival}」就是一个竞争解释，已记下；要靠能把两者分开的检验来区分。"
    return (
        f'You asked "{question}": yes, "{rival}" is a rival explanation; it is on the record now, to be told '
        "apart by a test."
    )
