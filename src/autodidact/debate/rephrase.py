"""The open question asked another way, when the person asks for that or says they did not follow it.

Why: a trial's "Could you ask that another way? I'm not sure what you want me to count" was set apart
as a remark about the talk, and the partner then moved on to a new question, as if the first had been
answered; 「没太懂，你能换个说法吗？」 skipped the prediction and jumped to the reflection, which later
treated the test given there as the reflection's answer. A request to rephrase is no answer: the
question stays open and is asked once more in plainer words (docs/debate.md, "A tenth trial").
"""

from __future__ import annotations

import re

from autodidact.debate.remarks import SENTENCE

# Asking for the question another way: 「你能不能换个问法」, "Could you rephrase that?", "Ask it differently".
_REQUEST = re.compile(
    r"换(?:个|一个|一种)(?:问法|说法|方式)|说得?(?:简单|明白|直白)(?:一?点|些)|"
    r"\b(?:rephrase|reword|ask (?:it|that|this|the question) (?:differently|another way|again)|"
    r"put (?:it|that|this) (?:differently|another way|more simply|in other words)|say (?:it|that) (?:differently|"
    r"another way|more simply)|in plainer words|in other words\?)",
    re.I,
)
# Saying the question was not understood: "I'm not sure what you want me to count", 「没太懂」.
_LOST = re.compile(
    r"^(?:sorry,?\s*|hmm+,?\s*|um+,?\s*)?(?:i'?m |i am )?(?:not sure|unsure) what you(?:'re| are)? "
    r"(?:want|mean|asking|after|looking for)|"
    r"\bi (?:don'?t|do not|can'?t|cannot) (?:really |quite )?(?:understand|follow|get) (?:the|your|this|that) "
    r"(?:question|one)\b|\bwhat (?:do|did) you want me to (?:say|count|answer|name|pick)\b|"
    r"^(?:没太懂|没看懂|没听懂|不太懂|不懂|不太明白|不明白|看不懂|听不懂)|"
    r"(?:这个|你的|这道)?问题我?(?:没太懂|没看懂|看不懂|不太明白|不明白)|你(?:想|是想|到底想)(?:问|让我(?:说|数|回答))什么",
    re.I,
)


def asks_rephrase(text: str) -> bool:
    """Whether the answer only asks for the question another way (or says it was not followed):
    every sentence does so, and one asks or says it. An answer with something else in it
    ("No such week. Could you rephrase?") answers the question and is read as an answer."""
    sentences = [m.group(0).strip() for m in SENTENCE.finditer(text) if m.group(0).strip()]
    if not sentences:
        return False
    return all(_REQUEST.search(s) or _LOST.search(s) for s in sentences)


def rephrased(question_type: str, review: bool, plan: bool, key: str, lang: str) -> str:
    """The open question in plainer words, by what it asks for (its type): one question, with the
    person's own key term where the question is about it."""
    zh = lang == "zh"
    term = f"「{key}」" if zh else f'"{key}"'
    if review:
        if zh:
            return "换个问法：看完这两份评估，你要改你说过的那个检验吗？改的话，改哪里；不改，就说不改。"
        return (
            "Put another way: having read the two reviews, do you want to change the test you gave? "
            "If so, what would you change; if not, just say it stays."
        )
    if question_type == "CLARIFICATION":
        if plan:
            if zh:
                return "换个问法：这个打算做成了，你会从哪里看出来？比如省下的钱或时间、得到的结果，还是能坚持下去？"
            return (
                "Put another way: if the plan worked, how would you notice? For example money or time saved, "
                "a result you got, or that you kept it up?"
            )
        if zh:
            return f"换个问法：你说{term}，是指你的感受、能数出来的东西，还是跟以前或别人比出来的差别？"
        return (
            f"Put another way: when you say {term}, do you mean how it feels to you, something you could count, "
            "or a difference from before or from others?"
        )
    if question_type == "PREMISE_EVIDENCE":
        if zh:
            return "换个问法：你的想法默认了几件事；哪一件如果被证明是错的，你最不会感到意外？"
        return (
            "Put another way: your idea takes a few things for granted; which one would surprise you least "
            "if it turned out to be false?"
        )
    if question_type == "IMPLICATION":
        if zh:
            return "换个问法：接下来一段时间，你可以数或记下什么？结果是什么样，你会承认这个想法不对？"
        return (
            "Put another way: what could you count or write down over the coming weeks, and what result "
            "would make you say the idea was wrong?"
        )
    if question_type == "COMPARISON":
        if plan:
            if zh:
                return "换个问法：有没有一个更小或更省事的做法也能达到同样的目标？跟它比，你的打算好在哪里？"
            return (
                "Put another way: is there a smaller or easier way to reach the same goal, and what makes your "
                "plan better than it?"
            )
        if zh:
            return f"换个问法：除了你的解释，还有什么也可能造成{term}？有没有遇到过只有其中一个在起作用的时候？"
        return (
            f"Put another way: apart from your explanation, what else could bring about {term}, and have you "
            "seen a time when only one of the two was at work?"
        )
    if zh:
        return "换个问法：到现在为止，你是想保留这个想法、改一改它的说法，还是先放一放？"
    return "Put another way: as things stand, do you want to keep the idea, change its wording, or put it aside?"
