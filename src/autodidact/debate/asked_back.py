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

from autodidact.debate.templates import without_quotes

# Sentences: up to and including their end mark; a question mark ends one even without a space.
_SENTENCE = re.compile(r"[^.!?。！？]+(?:[.!?。！？]+|$)")
_FILLERS = r"(?:(?:so|but|and|ok(?:ay)?|then|wait|well|hmm|actually|honestly|also),?\s+)*"
_EN_ASKS = re.compile(
    r"^" + _FILLERS + r"(?:what|how|which|why|when|where|who|is|are|was|were|do|does|did|"
    r"should|would|could|can|will|shall|isn'?t|aren'?t|doesn'?t|don'?t|wouldn'?t|couldn'?t|shouldn'?t|can'?t|won'?t)\b",
    re.I,
)
_ZH_ASKS = re.compile(
    r"吗|呢|什么|怎么|怎样|如何|是否|多少|多久|多长|哪|算不算|够不够|行不行|可不可以|会不会|是不是|难道|有没有可能"
)
# A request put as a question: what it asks for is the next turn, not an answer to keep open.
_REQUEST = re.compile(
    r"^" + _FILLERS + r"(?:can|could|shall) we (?:talk|discuss|focus|move|go back|look|stay|continue)\b"
    r"|^我们能不能(?:谈|聊|说)",
    re.I,
)
_MIN_WORDS = 3  # "Right?", "Why?" ask nothing the partner can answer
_NEW_QUESTION = re.compile(
    r"(?:新的|现在的|修改后的)(?:问题|命题)(?:是|改成|变成)?\s*[:：]|换成这个问题|"
    r"\b(?:the|my) (?:new|revised) (?:question|proposition) is\b|\b(?:the|my) question is now\b"
    r"|\b(?:change|rephrase|reframe|reword) the question\b",
    re.I,
)


def question_to_partner(answer: str) -> str | None:
    """The first sentence of ``answer`` that asks the partner something, or None.

    "Set it aside? No — keep it" puts a decision as a question and answers it at once: it asks
    nothing (it does not open with a question word)."""
    for m in _SENTENCE.finditer(answer):
        sentence = m.group(0).strip()
        if not sentence.endswith(("?", "？")):
            continue
        if _NEW_QUESTION.search(sentence):
            continue  # 「新的问题是：为什么…？」 states the revised proposition; it asks the partner nothing
        # "No, I mean I asked you a question: is the grade a good enough match?" asks after its colon
        sentence = re.split(r"[:：—]\s*", sentence)[-1].strip() or sentence
        if re.search(r"[\u4e00-\u9fff]", sentence):
            if _ZH_ASKS.search(sentence) and len(sentence) >= 6:
                return sentence
            continue
        if _REQUEST.match(sentence):
            continue  # "Can we talk about that?" asks to move on, not for an answer
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
        re.compile(
            r"tell (?:them |the two )?apart|distinguish|separate|rule out|区分|分开|排除|分得清"
            r"|which (?:one |of (?:these|them|the \w+) )?(?:is|holds|seems) (?:the )?(?:more|most|best)"
            r"|哪(?:个|一个|种)(?:最|更)(?:站得住|可能|有道理|靠谱|说得通)",
            re.I,
        ),
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


# The partner's own words, explained: a trial asked "你说的「口径」是什么意思？", "什么「因素」？" and
# "What do you mean by 'a testable prediction is still missing'?" and was told each time that it was
# theirs to settle. Keys are matched inside the quoted term; "{cause}" is the idea's own cause.
_GLOSSARY: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (
        ("口径", "衡量方式", "reading"),
        "how the thing is told: by how it feels, or by something counted (how many times, how long)",
        "怎么衡量这件事：凭感觉，还是凭能数出来的量（多少次、多久）",
    ),
    (
        ("前提", "load-bearing premise", "premise"),
        "a thing your idea takes for granted; if it is false, the idea falls with it",
        "你的想法默认成立的一件事；它一旦不成立，想法也就站不住",
    ),
    (
        ("改判", "改变结论", "change condition", "change your mind", "would change"),
        "a result that, if you saw it, would make you revise or drop the idea",
        "一个结果：要是真看到了，你就会修改或放弃这个想法",
    ),
    (
        ("预测", "prediction", "testable"),
        "something you could check later that comes out one way if the idea is right and another way if it is wrong",
        "一件之后能查看的事：想法对，它是一种结果；想法错，它是另一种结果",
    ),
    (
        ("因素", "factor", "the cause", "named cause"),
        "the cause your idea names{cause}",
        "你的想法里说的那个原因{cause}",
    ),
    (
        ("评估", "review"),
        "two checks of the idea from different angles (its premises and evidence; what follows from it), "
        "made from this session's record only",
        "从两个角度对想法做的检查（前提与证据；由它推出的结果），只依据本次讨论的记录",
    ),
    (
        ("竞争解释", "rival", "competing explanation", "alternative explanation"),
        "another explanation that would produce the same thing you saw",
        "另一种也能造成你看到的情况的解释",
    ),
    (
        ("现象", "phenomenon", "the pattern"),
        "what you said happens — the thing your idea is about",
        "你说会发生的那件事，也就是你的想法谈的对象",
    ),
    (
        ("成熟度", "maturity"),
        "how far the idea has come: from a first thought, to clear parts, to something a test can check",
        "想法走到了哪一步：从初步念头，到各部分说清楚，再到能用检验来查",
    ),
    (
        ("problem's cost", "cost", "代价", "成本"),
        "what the current problem costs you now (time, money, effort), which the plan is meant to cut",
        "眼下这个问题让你付出的东西（时间、钱、精力），也就是打算要减少的部分",
    ),
    (
        ("concurrent change", "同期", "同一时期", "at the same time"),
        "something else that changed in the same period as the cause, which could produce the same pattern on its own",
        "和原因同一时期发生的另一个变化，它自己也可能造成同样的情况",
    ),
    (
        ("verbatim source", "原文证据", "source"),
        "a document (a study, a log, a record) whose own words support or contradict the premise",
        "一份文件（研究、日志、记录）里的原话，能直接支持或反驳这个前提",
    ),
    (
        ("disposition", "处置"),
        "your decision about the idea now: keep it, revise it, or set it aside",
        "你现在对这个想法的决定：保留、修改，还是先放一放",
    ),
    (
        ("counterexample", "counter-scenario", "反例"),
        "a case that would come out the same even if your idea were wrong",
        "即使你的想法不对，也会出现同样结果的情形",
    ),
    (
        ("self-check", "自检", "independent review", "独立评估"),
        "the two reviews were written by the same rules that ask the questions, not by a separate reviewer, so "
        "they check the record rather than judge it",
        "两份评估由提问的同一套规则写出，不是另一位独立的评审，所以它们检查记录，而不是下判断",
    ),
    (
        ("设计草案", "design draft", "minimal design", "最小设计"),
        "a first sketch of how you could check the idea: what to record, on which cases, for how long; the "
        "numbers are yours to fill in",
        "一个怎么检验这个想法的初步方案：记什么、在哪些情形下记、记多久；具体数字由你来填",
    ),
    (
        ("基准", "baseline"),
        "what the thing is compared with",
        "拿来对比的那一方",
    ),
    (
        # a comparison's own phrase: a trial asked "What do you mean by the same task?" and got the
        # partner's whole sentence pasted back
        ("same task", "same conditions", "same job", "同样的任务", "同样的条件", "同一个任务", "同一任务"),
        "both sides doing the same job under the same conditions (the same amount, the same people, the same "
        "period), so that only the two things compared differ",
        "两边做同一件事、在同样的条件下（同样的量、同样的人、同样的时间段），这样不同的只有被比较的两样东西",
    ),
)
_TERM_QUOTED = re.compile(r"「([^「」]{1,40})」|“([^“”]{1,40})”|\"([^\"]{1,40})\"|'([^']{1,60})'|‘([^‘’]{1,60})’")
_TERM_BARE = re.compile(
    r"what do you mean by (?:the |a |an )?(.{2,40}?)\s*\?|(?:这个|那个)([^，,。？?]{1,8}?)(?:指的是|是指)什么"
    r"|什么([^，,。？?]{1,8}?)[？?]|([^，,。？?]{1,12}?)是什么意思",
    re.I,
)


def asked_term(question: str) -> str:
    """The words the person asks about ("口径" of 「你说的「口径」是什么意思？」), or ""."""
    found = _TERM_QUOTED.search(question) or _TERM_BARE.search(question)
    if not found:
        return ""
    return next(g for g in found.groups() if g).strip(" ，,。.")


_QUOTES_PERSON = re.compile(r"^(?:you said|you asked|你说|你问)", re.I)


def _unquoted(text: str) -> str:
    """``text`` with its quotation marks dropped and what they held kept."""
    return re.sub(r"[「」『』“”\"‘’]", "", text)


def _uses_words(term: str, text: str) -> bool:
    """Whether ``text`` holds every word of an English ``term``, in any order and number: "a typical
    case" was asked of "the cases you know are typical", and a trial was told the turn never used it."""
    words = [w.removesuffix("s") for w in re.findall(r"[a-z]{3,}", term.lower()) if w not in {"the", "and"}]
    return len(words) >= 2 and all(re.search(rf"\b{re.escape(w)}", text.lower()) for w in words)


def explain_term(question: str, lang: str, said: str, cause: str = "") -> str | None:
    """What the partner meant by words of its own the person asks about, in one sentence; None when
    the question is about no words of the partner's (``said``: its recent turns)."""
    term = asked_term(question)
    if not term or (
        term.lower() not in said.lower() and not _uses_words(term, said) and not _ABOUT_WORDING.search(question)
    ):
        return None
    zh = lang == "zh"
    low = term.lower()
    for keys, en_text, zh_text in _GLOSSARY:
        if any(k in low for k in keys):
            text = zh_text if zh else en_text
            named = (f"：「{cause}」" if zh else f': "{cause}"') if cause else ""
            text = text.replace("{cause}", named)
            return f"「{term}」指的是{text}。" if zh else f'By "{term}" I meant {text}.'
    # not a word of the glossary: the partner's own sentence that used it (never one quoting the
    # person: 「我没太懂」出自我这句话：你说「我没太懂…」 claimed the person's words)
    # its own phrase may hold the person's word in quotes ("the change in “people” really happened"):
    # that phrase is the partner's, read with the quote marks dropped
    sentences = [m.group(0).strip() for m in _SENTENCE.finditer(without_quotes(said))] + [
        s for s in (m.group(0).strip() for m in _SENTENCE.finditer(_unquoted(said))) if not _QUOTES_PERSON.match(s)
    ]
    for sentence in sorted(sentences, key=lambda x: low not in x.lower()):  # the phrase itself first
        if (low in sentence.lower() or _uses_words(term, sentence)) and sentence.lower() != low:
            if len(sentence) > 160:
                # a long sentence lists premises: the clause that holds the words, not its opening
                clauses = re.split(r"(?<=[;；])\s*", sentence)
                sentence = next((c for c in clauses if low in c.lower() or _uses_words(term, c)), sentence)
            shown = sentence if len(sentence) <= 160 else sentence[:159].rstrip() + "…"
            return f"「{term}」出自我这句话：{shown}" if zh else f'"{term}" was from my words: {shown}'
    return None


# "Can I pick two?", 「可以选两个吗？」: a question about how to answer, which the partner can settle.
_PICK_MORE = re.compile(
    r"\b(?:can|may|could) i (?:pick|choose|say|name|give) (?:two|both|more than one|several|all)\b"
    r"|(?:可以|能不能|能|可不可以)(?:同时)?(?:选|挑|说)(?:两个|两条|多个|几个|都)",
    re.I,
)


# "Can I rephrase the decision?", 「我能换个说法吗？」: how to revise, which the partner can settle.
_REPHRASE = re.compile(
    r"\b(?:can|may|could) i (?:rephrase|reword|revise|change|narrow|restate) (?:the|my|this|it)\b"
    r"|(?:能不能|可以|能|可不可以)(?:换个说法|改一下|修改|重新表述|缩小)",
    re.I,
)


def asks_how_to_answer(question: str) -> bool:
    """Whether the question asks how to answer (more than one option, a new wording): answered, then settled."""
    return _PICK_MORE.search(question) is not None or _REPHRASE.search(question) is not None


def answer_back(question: str, lang: str, record: str = "", last_turn: str = "", cause: str = "") -> str:
    """What the partner says to a question asked of it, in one sentence (a turn's response holds two
    at most): heard, left to the person, kept open, and what generally helps — or, for a question
    about the session, what the record holds (``record``, already in the session's language); or,
    for words of the partner's own (``last_turn``), what they meant."""
    zh = lang == "zh"
    quote = question if len(question) <= 90 else question[:89].rstrip() + "…"
    explained = explain_term(question, lang, last_turn, cause) if last_turn else None
    if explained:
        return explained
    if _REPHRASE.search(question):
        if zh:
            return f"你问「{quote}」：可以，写成「修改：……」，后面的问题就按新的说法来问。"
        return f'You asked "{quote}": yes, write it as "Revise: …" and the next questions take the new wording.'
    if _PICK_MORE.search(question):
        if zh:
            return f"你问「{quote}」：可以，几条都说出来，每一条我都会分别记下。"
        return f'You asked "{quote}": yes, name each of them and each is recorded on its own.'

    term = asked_term(question)
    own_words = without_quotes(last_turn).lower() + " " + _unquoted(last_turn).lower()
    if term and last_turn and _ABOUT_WORDING.search(question) and term.lower() not in own_words:
        # not words of the last turn: showing that turn would answer nothing (a trial got a dump)
        if zh:
            return f"你问「{quote}」：我上一轮没有用「{term}」这个说法，没法替它解释，它记为未决问题。"
        return (
            f'You asked "{quote}": my last turn did not use "{term}", so I cannot say what it meant there; it '
            "stays an open question."
        )
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
        # "yours to settle" read as the partner passing the question back (a trial): it says what it cannot do
        head = f"你问「{quote}」：单凭这次讨论的记录，我答不了这一问，它记为未决问题"
        return head + (f"；一般的做法是：{help_text}。" if help_text else "。")
    head = f'You asked "{quote}": I cannot answer that from this session\'s record alone, so it stays an open question'
    return head + (f"; what usually helps: {help_text}." if help_text else ".")


# "Are you asking whether we ever rehearsed there?", 「你是问…吗？」: the person checks what the partner's
# own question asks. A trial was told "I cannot answer that from this session's record alone".
_CHECKS = re.compile(
    r"^" + _FILLERS + r"(?:are you asking|do you mean|you mean|is that asking|is your question)\b"
    r"|^(?:那)?你(?:是|的意思是)(?:在)?(?:问|说|指)(?!的)|^你的意思是",
    re.I,
)


def checks_question(question: str) -> bool:
    """Whether the question checks what the partner's last question asks (answered, then settled)."""
    return _CHECKS.search(question.strip()) is not None


def question_meant(question: str, lang: str, asked: str) -> str:
    """The answer to "are you asking whether …?": the partner's own question (``asked``), said again
    plainly. When that question asked for a case ("was there a time …?", 「有没有…的情形？」), the case
    the person names is the kind it means, and the partner says so; otherwise it only restates it."""
    quote = question if len(question) <= 90 else question[:89].rstrip() + "…"
    mine = (without_quotes(asked).strip() or asked).rstrip("?？")
    case = _ASKS_CASE.search(asked) is not None
    if lang == "zh":
        tail = "，你说的这种情形就是它要找的那一类" if case else ""
        return f"你问「{quote}」：我的问题是「{mine}」{tail}。"
    tail = ", and a case like the one you name is the kind it means" if case else ""
    return f'You asked "{quote}": my question was "{mine}"{tail}.'


_ASKS_CASE = re.compile(
    r"\b(?:was there|is there|were there|can you name|any case|a case|a time|a period|an example)\b"
    r"|有没有|能举出|举一个|情形",
    re.I,
)


# "What's the weakest part of that?", 「哪里最站不住？」: the partner can answer from the record.
_WEAKEST = re.compile(
    r"\bweakest\b|\bweak (?:spot|point|link)\b|\bbiggest (?:hole|gap|problem)\b|\bleast (?:solid|convincing)\b"
    r"|最薄弱|最弱|最站不住|最不牢|漏洞在哪|哪里(?:最)?(?:站不住|有问题|不牢)",
    re.I,
)


def asks_weakest(question: str) -> bool:
    """Whether the question asks where the idea is weakest (answered from the record, then settled)."""
    return _WEAKEST.search(question) is not None


def weakest_answer(question: str, lang: str, weakest: str) -> str:
    """The answer to "what's the weakest part?": ``weakest`` is the record's weakest point, in the
    session's language, worked out from what the person has said (``reply_planner._weakest``)."""
    quote = question if len(question) <= 90 else question[:89].rstrip() + "…"
    if lang == "zh":
        return f"你问「{quote}」：就目前记下的内容看，最薄弱的是{weakest}。"
    return f'You asked "{quote}": from what is on the record, the weakest part is {weakest}.'


# "Does that count?", 「这算数过吗？」: a question about a standard the partner set itself. A trial was
# told "that is yours to settle" about the partner's own bar, and answered 「怎么又让我定？」.
_COUNTS = re.compile(
    r"这(?:个)?算(?:不算)?(?P<zh>[^，,。？?]{1,8}?)吗|算不算(?P<zh2>[^，,。？?]{1,8})"
    r"|\bdoes (?:this|that|it) count(?: as (?:a |an )?(?P<en>[^?]{1,40}?))?\s*\?",
    re.I,
)


def counts_answer(question: str, lang: str, last_turn: str) -> str | None:
    """The partner's own standard applied to what the person describes, or None when the question
    is not about a standard the last turn set."""
    found = _COUNTS.search(question)
    if found is None or not last_turn:
        return None
    term = next((g for g in found.group("zh", "zh2", "en") if g), "").strip()
    own = [m.group(0).strip() for m in _SENTENCE.finditer(without_quotes(last_turn))]
    # only a sentence that sets a bar ("…就算有把握", "one way to rate your confidence: …"): a trial's
    # "Does that count as a counterexample?" was told yes about a case that separated nothing
    bars = [
        s for s in own if re.search(r"标准|就算|算(?:是)?有把握|standard|counts? as|rate your|by that measure", s, re.I)
    ]
    marked = [s for s in bars if not term or term.lower() in s.lower()]
    if not marked:
        return None
    shown = marked[0].rstrip("。.") if len(marked[0]) <= 120 else marked[0][:119].rstrip() + "…"
    if lang == "zh":
        return f"按我上一轮的说法（{shown}），算：你描述的就是这样一次；把时间和做法记下来，它就能支撑这个前提。"
    return (
        f"By the standard of my last turn ({shown}), yes: what you describe is one such case; note when and how, "
        "and it backs the premise."
    )


# "Isn't my mother moving in the rival?", 「我妈来住不就是那个竞争解释吗？」: a rival offered as a question.
_RIVAL_ASKED = (
    re.compile(r"^(?P<rival>.{2,40}?)(?:不)?就是(?:那个|一个|另一个)?(?:竞争解释|另一种解释|别的原因)", re.I),
    re.compile(
        r"^(?:isn'?t|is not|wouldn'?t|couldn'?t|could|might|is) (?P<rival>.{3,60}?),? (?:be )?(?:the|a|an|another|my) "
        r"(?:more |better |simpler |likelier )?(?:plausible |likely |obvious )?"
        r"(?:rival|competing explanation|alternative explanation|other explanation|other cause|explanation|cause)\b",
        re.I,
    ),
    # "Isn't it more likely that the new hires did it?", 「会不会是新人太多造成的？」
    re.compile(
        r"^(?:isn'?t it|wouldn'?t it be|couldn'?t it be|could it be|what if it'?s|what if it was|maybe it'?s)"
        r" (?:more likely |just |simply |really )?(?:that |because (?:of )?)?(?P<rival>.{3,80}?)[?\s]*$",
        re.I,
    ),
    re.compile(
        r"^(?:会不会是|是不是因为|难道不是因为|有没有可能是)(?P<rival>.{2,40}?)(?:造成的|导致的|的缘故|的原因)?[？?吗呢]*$"
    ),
)


def rival_in_question(question: str) -> str | None:
    """The rival a question offers ("我妈来住" of 「我妈来住不就是那个竞争解释吗？」), or None."""
    asked = re.sub(r"^" + _FILLERS, "", question.strip(), flags=re.I)  # "But wait, isn't …"
    for index, pattern in enumerate(_RIVAL_ASKED):
        found = pattern.search(asked)
        rival = found.group("rival").strip(" ，,") if found else ""
        rival = re.sub(r"\s+(?:thing|stuff|business)$", "", rival, flags=re.I)  # "the new hires thing"
        # "Could it be that simple?" names no cause: without the word "explanation", an English rival
        # is a phrase of two words or more
        if rival and (index != 2 or " " in rival):
            return rival
    return None


def rival_heard(question: str, rival: str, lang: str) -> str:
    """The response to a rival offered as a question: yes, and it is on the record now."""
    if lang == "zh":
        return f"你问「{question}」：是的，「{rival}」就是一个竞争解释，已记下；要靠能把两者分开的检验来区分。"
    return (
        f'You asked "{question}": yes, "{rival}" is a rival explanation; it is on the record now, to be told '
        "apart by a test."
    )


# An unknown the person names ("真正没解决的是：我家每周到底在家做几天饭", "What I don't know yet is how
# many evenings we cook"): an open question of theirs, not a rival (a trial's was filed as one).
_UNKNOWN = re.compile(
    r"^(?:还有，?|另外，?)?(?:真正)?(?:没(?:有)?解决的是|还不知道的是|我不知道的是|不清楚的是|未决的是|说不准的是)"
    r"|^(?:the |my )?(?:real )?open question is\b|^what i (?:still )?don'?t know(?: yet)? is\b",
    re.I,
)


def named_unknowns(answer: str) -> list[str]:
    """The sentences of ``answer`` that name an unknown of the person's own."""
    return [m.group(0).strip() for m in _SENTENCE.finditer(answer) if _UNKNOWN.search(m.group(0).strip())]
