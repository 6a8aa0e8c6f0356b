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
    r"should|would|could|can|will|shall)\b",
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
        re.compile(r"measure|count|record|track|know whether|tell whether|怎么测|怎么量|怎么记|怎么知道|衡量", re.I),
        "take a measure you can count the same way on both sides, and write it down before you see the result",
        "用两边都能以同样方式取得的量，并在看到结果之前就写下来",
    ),
)


def answer_back(question: str, lang: str) -> str:
    """What the partner says to a question asked of it, in one sentence (a turn's response holds two
    at most): heard, left to the person, kept open, and what generally helps."""
    zh = lang == "zh"
    quote = question if len(question) <= 90 else question[:89].rstrip() + "…"
    helps = (zh_text if zh else en_text for pattern, en_text, zh_text in _KINDS if pattern.search(question))
    help_text = next(helps, "")
    if zh:
        head = f"你问「{quote}」：这要由你按自己的情况来定，它记为未决问题"
        return head + (f"；一般的做法是：{help_text}。" if help_text else "。")
    head = f'You asked "{quote}": that is yours to settle from what you know, and it stays an open question'
    return head + (f"; what usually helps: {help_text}." if help_text else ".")
