"""Remarks about the conversation itself, set apart from what an answer says about the idea.

Why: people tell the partner when it goes wrong: "I already said that", 「你这个问题我看不懂」,
「你记错了」, "there's no cause here, I'm comparing two options". A trial found every such remark
filed as part of the idea. A complaint became a premise and was quoted back as "the result that
would change your mind". A protest against a misfiled rival was filed as another rival. A remark
says how the person hears the partner; it is no premise, test or rival of the idea. The rest of the
answer is read as usual (docs/debate.md, "What a third trial showed", and the trials after it).
"""

from __future__ import annotations

import re

# Sentences end at their end mark; a colon keeps its sentence whole ("I already said it: 40 vs 15").
# "vs." and "e.g." inside a sentence do not end it (a trial's remark was cut at "humidity vs.")
_SENTENCE = re.compile(r"(?:\b(?:vs|e\.g|i\.e|etc|approx|cf)\.|[^.!?。！？])+(?:[.!?。！？]+|$)", re.I)
SENTENCE = _SENTENCE

_REMARK = re.compile(
    "|".join(
        (
            # the partner's question or words do not fit
            r"\b(?:your|this|that|the) question\b[^.?!]{0,40}\b(?:doesn'?t|does not|makes? no|isn'?t|confus|fit|apply)",
            r"\bi (?:don'?t|do not|can'?t|cannot) (?:really |quite |fully )?(?:follow|understand|get) "
            r"(?:you|your|this|that|the\b|what you|['\"\u201c\u2018])",
            r"\b(?:this is|that'?s) the (?:second|third|fourth|\d+(?:st|nd|rd|th)) time\b"
            r"|\byou(?:'ve| have)? (?:already )?asked (?:this|that|me this|me that) (?:before|already|twice|again)\b",
            r"\bi answered (?:that|this|it)\b|\bi (?:already )?gave you\b",
            r"\bthe '?(?:keep|revise|test|undecided|prediction)'? (?:line|field|slot|part)\b[^.?!]{0,30}"
            r"\b(?:is wrong|lost|should|missed|dropped)\b|\bthe '(?:prediction|test|rival)' you list\b",
            r"\b(?:you|you'?ve|you have) (?:also |again |just |still |completely |totally )?"
            r"(?:ignored|missed|misread|misheard|mixed up|got it wrong|forgot)",
            r"\bdidn'?t i (?:just |already )?(?:say|tell|give|answer|mention)",
            r"\b(?:please )?(?:don'?t|do not|stop) (?:list|record|file|count)(?:ing)? (?:that|this|it|my)\b",
            r"\byou (?:didn'?t|did not|don'?t|do not) (?:read|listen|hear|see|notice|get)\b",
            r"\b(?:you'?re|you are|you keep) (?:repeating|asking (?:again|the same)|ignoring)",
            r"\bi (?:already|just) (?:said|told|gave|answered|explained|mentioned)\b",
            r"\bas i (?:already |just )?said\b",
            r"\bthat(?:'s| is| was) not (?:my|a) (?:test|rival|premise|point|claim)\b",
            # the partner's restatement or record is wrong: "Your restatement is garbled", "you cut my
            # quote", "why do you say there's no prediction yet?", "my test already rules that out"
            r"\byour (?:restatement|reading|summary|quote|record|question|template|wording)\b[^.?!]{0,40}"
            r"\b(?:is|was|are|were|got|doesn'?t|does not|makes? no|isn'?t|wrong|garbled|broken)",
            r"\b(?:garbled|misquoted|mangled)\b",
            r"\byou (?:cut|dropped|lost|chopped|truncated|left out)\b",
            r"\bwhy (?:do|did) you (?:say|keep saying|think|claim|write)\b",
            r"\bmy test already (?:separates|rules|covers|handles|answers|deals)\b",
            r"\b(?:is not|was not|isn'?t|wasn'?t) (?:really |actually |even )?(?:my|a|an) ['\"\u201c\u2018]?"
            r"(?:rival|test|premise|claim|point|option|alternative|prediction|explanation)\b",
            # the partner's template does not fit: "These premises feel written for a process change"
            r"\b(?:these|your|the|those) (?:premises|questions|options|examples|reviews|templates?)\b[^.?!]{0,20}"
            r"\b(?:feel|seem|look|sound|are|were) (?:like they'?re |like |)(?:written|made|meant|designed) for\b",
            r"\b(?:it'?s|that'?s|it was|that was) me complaining\b|\b(?:is|was) a complaint\b",
            r"\bi (?:rejected|ruled out|dismissed|already rejected) (?:it|that|this)\b",
            r"\bwhere did (?:that|this|it) come from\b",
            r"\byou (?:didn'?t|did not|never) (?:explain|answer|say)\b",
            r"\byou (?:just )?quoted yourself\b",
            r"\b(?:there'?s|there is) no (?:cause|phenomenon|pattern)\b",
            # 「你这个问题我看不懂」「你是不是没看我上一句」「你记错了」「我已经说过」
            r"(?:你|这个)(?:的|这个)?问题我?(?:看不懂|没看懂|不明白|听不懂)",
            r"你是不是没(?:看|听|注意)",
            r"你(?:记错|搞错|弄错|理解错|看错|听错|误会)了?",
            r"你(?:没|没有)(?:看|听|注意)到?我",
            r"我(?:已经|刚才|刚刚|上面|前面|之前)(?:说|讲|提|回答|给)(?:过|了)",
            r"我(?:刚才|刚刚|已经|前面|上面|之前)?不是(?:说|讲|给)(?:过|了)",
            r"我(?:第.轮|上一轮|上轮|刚才|刚刚|之前|前面)就?(?:已经)?(?:给|说|讲|提)(?:过|了)",
            r"(?:在)?重复(?:问|提问)|又问了?一遍|问过了",
            r"(?:请)?(?:不要|别)(?:再)?(?:列|记|写|算)(?:成|为|进|作)",
            r"(?:都|也)?不太?对得上|答非所问|对不上号|(?:不是|算不上|并不是)(?:一个|什么)?(?:检验|选项|竞争解释|前提|预测)",
            r"那(?:句|个)(?:话)?不是我的",
            r"你(?:根本|也|还|又|都)?没(?:有)?(?:解释|回答|听|看|理解|读懂)",
            r"你又把|又放进去|不是我的(?:竞争解释|检验|前提|意思)|我(?:已经)?(?:否定|排除)了",
            r"(?:这|那)(?:个|是)?从哪(?:里|儿)来的",
            r"你(?:的)?(?:复述|转述|理解|总结|小结|记录)(?:是)?(?:错|不对|有误|乱)",
            r"为什么你(?:说|老是说|总说|认为)|你为什么(?:说|老是说|总说)",
            r"(?:把|将)我的?(?:话|句子|原话).{0,6}(?:截断|剪掉|删掉|拆开|切)",
            r"你又(?:问|在问)",
            r"不是在?问你|我(?:并)?没(?:有)?(?:在)?问你",
            # 「怎么又让我定？」「这句话我读了三遍也没读懂」: the partner passed back its own call, or lost them
            r"怎么又让我|又让我(?:定|来定|决定)|(?:是)?你(?:刚才|自己)(?:自己)?定的",
            r"第[二三四五]次问|问了(?:好几|两|三)(?:遍|次)",
            r"(?:保留|修改|检验|未决)(?:的|那一?栏|一栏|这一?栏)?[^。！？]{0,6}(?:应该是|写错|不对|错了)",
            r"(?:这句话?|这段话?|你说的|这个说法|这个问题)[^。！？]{0,10}(?:读|看|听)[^。！？]{0,6}(?:不懂|没(?:读|看|听)?懂|不明白)",
            r"\b(?:you set|you made up|you defined) (?:that|this|the) (?:standard|bar|rule|criterion)\b"
            r"|\bwhy (?:are you|do you keep) (?:asking|making) me\b",
            r"\bi (?:read|reread) (?:it|this|that)[^.?!]{0,20}\b(?:still )?(?:don'?t|can'?t|couldn'?t) "
            r"(?:understand|follow|parse|get)\b",
            r"\bi (?:wasn'?t|was not|am not|'m not) asking you\b|\bnot a question (?:for|to) you\b",
            # a request to ask it another way: 「你能不能换个问法」 (a trial's was recorded as a rival)
            r"(?:能不能|可不可以|可以|请|麻烦)?换(?:个|一个|一种)(?:问法|说法|方式)(?:问|说)?",
            r"\b(?:can|could) you (?:please )?(?:rephrase|reword|ask (?:it|that|this) (?:differently|another way)|"
            r"put (?:it|that|this) (?:differently|another way))\b",
        )
    ),
    re.I,
)
# A negated word of the partner's own, in quotes: 「我这里没有什么「现象」」, "there is no 'cause' here".
_NEGATION = re.compile(r"\b(?:no|not|isn'?t|aren'?t|never)\b|没有|没什么|不是|并非|无所谓", re.I)
_QUOTED = re.compile(r"「([^「」]{1,20})」|“([^“”]{1,30})”|\"([^\"]{1,30})\"|'([^']{1,30})'")


def is_remark(sentence: str, partner: str = "") -> bool:
    """Whether a sentence speaks of the conversation rather than the idea: a complaint about the
    partner's question or record, or a word of the partner's own (``partner``: its last turn)
    quoted to deny it."""
    if _REMARK.search(sentence):
        return True
    if not partner or not _NEGATION.search(sentence):
        return False
    quoted = (next(g for g in m.groups() if g) for m in _QUOTED.finditer(sentence))
    return any(word.strip() and word.strip().lower() in partner.lower() for word in quoted)


def without_remarks(answer: str, partner: str = "") -> str:
    """The answer less its remarks about the conversation. A remark that goes on after a colon
    ("I already said it: 40 minutes against 15") keeps what follows the colon."""
    kept: list[str] = []
    dropped = False
    for m in _SENTENCE.finditer(answer):
        sentence = m.group(0).strip()
        if not sentence:
            continue
        if not is_remark(sentence, partner):
            kept.append(sentence)
            continue
        dropped = True
        after = re.split(r"[:：]", sentence, maxsplit=1)[1:]
        tail = after[0].strip() if after else ""
        if tail and not is_remark(tail, partner):
            kept.append(tail)
    if not dropped:
        return answer
    joiner = "" if re.search(r"[\u4e00-\u9fff]", answer) else " "
    return joiner.join(kept)
