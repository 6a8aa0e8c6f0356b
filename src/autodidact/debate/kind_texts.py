"""The offline engine's turns for a comparison, an observation and a question.

Why: the role texts in ``role_texts`` examine a causal claim — "the change really happened", "it
comes from the cause the proposition names", "removing the named cause should weaken it". A
fresh-eyes trial read them on "SQLite is better than PostgreSQL for a small internal tool" ("the
change in 'better' really happened"), on an observation with no cause, and on a question ("if 'Why
do video calls tire me more' holds…"). Each kind is examined as what it is: a comparison by its
criterion, a fair test of both sides and what else makes one look better; an observation by
whether the pattern is real and what else produces it; a question by what it takes for granted
and a first answer to test (docs/debate.md, "Kinds of proposition"). A plan has its own module
(``plan_texts``).
"""

from __future__ import annotations

import re

from autodidact.debate.answer_kinds import classify as classify_answer
from autodidact.debate.plan_texts import bare_proposition
from autodidact.debate.proposition import Proposition
from autodidact.debate.proposition import read as read_proposition
from autodidact.debate.templates import TurnInputs, excerpt, fitting

Turn = tuple[str, str, str, str]  # contribution, source, question, why

RIVALS = {
    "comparison": {
        "en": (
            "familiarity (you know one of the two better, so it looks better)",
            "the setup (one was configured or sized for the task, the other was not)",
            "the task chosen (on another task the order would reverse)",
        ),
        "zh": (
            "熟悉程度（你更熟悉其中一个，所以它显得更好）",
            "配置差异（其中一个为这个任务做过配置，另一个没有）",
            "任务选择（换一个任务，结论可能反过来）",
        ),
    },
    "observation": {
        "en": (
            "what is counted (the number of cases rather than what happens in each)",
            "selective memory (vivid cases come to mind more easily)",
            "a schedule or calendar effect (the period itself differs)",
        ),
        "zh": (
            "计数方式（数的是次数，而不是每次的情况）",
            "选择性记忆（印象深的例子更容易被想起）",
            "日程或时间段本身的差异",
        ),
    },
    # two times, places or conditions compared ("the Thursday evening rehearsals against Sunday mornings"):
    # "familiarity" and "the setup" speak of tools, not of times (a trial)
    "conditions": {
        "en": (
            "who is there (the people differ between the two)",
            "what comes before (tiredness or a warm-up differs)",
            "the surroundings (the room, the temperature or the light differ)",
        ),
        "zh": (
            "在场的人不同（两边参与的人不一样）",
            "之前发生的事不同（疲劳程度或热身不一样）",
            "环境不同（房间、温度或光线不一样）",
        ),
    },
    "question": {
        "en": (
            "several causes together rather than one",
            "a difference in how it is noticed rather than in what happens",
            "something that changed at the same time",
        ),
        "zh": (
            "几个原因共同作用，而不是单一原因",
            "差别在于注意到的方式，而不在于实际发生的事",
            "同一时期发生的其他变化",
        ),
    },
}


# The period an observation speaks of, so its example counts over that period: "spike every month"
# was to be counted "once a week for the next four weeks" in a trial.
_PERIODS = (
    (r"\b(?:every|each) (?:year|winter|summer|spring|autumn|fall|season)\b|\b(?:yearly|annually)\b|每年|"
     r"每个?(?:冬天|夏天|春天|秋天|季节)", "接下来几年每年同一季节",
     "in the same season each year for the next few years"),
    (r"\b(?:every|each) quarter\b|\bquarterly\b|每个?季度", "接下来四个季度每季度",
     "at each of the next four quarters"),
    (r"\b(?:every|each) month\b|\bmonthly\b|每个?月", "接下来四个月每月",
     "once a month for the next four months"),
    (r"\b(?:every|each) (?:day|night|morning|evening)\b|\bdaily\b|每天|每晚|每个?早上", "接下来两周每天",
     "every day for the next two weeks"),
)  # fmt: skip


def _periods(proposition: str) -> tuple[str, str]:
    """How often to count an observation's pattern (Chinese, English): its own period, else weekly."""
    for pattern, zh, en in _PERIODS:
        if re.search(pattern, proposition, re.I):
            return zh, en
    return "接下来四周每周", "once a week for the next four weeks"


def kind_turn(inp: TurnInputs, zh: bool) -> Turn | None:
    """The role's turn for a comparison, an observation or a question; None where the claim texts fit."""
    if inp.kind not in RIVALS:
        return None
    p = read_proposition(bare_proposition(inp.proposition, 400), inp.lang)
    writer = {
        ("comparison", "concept_clarifier"): _compare_readings,
        ("comparison", "premise_evidence_examiner"): _compare_premises,
        ("comparison", "implication_validator"): _compare_test,
        ("observation", "premise_evidence_examiner"): _observe_premises,
        ("observation", "implication_validator"): _observe_test,
        ("question", "concept_clarifier"): _question_readings,
        ("question", "premise_evidence_examiner"): _question_premises,
        ("question", "implication_validator"): _question_test,
    }.get((inp.kind, inp.role))
    if inp.role == "alternative_explorer" and inp.intent != "example":
        return _rival(inp, p, zh)
    if inp.role == "alternative_explorer":
        return _rival_apart(inp, p, zh)
    if inp.role == "premise_evidence_examiner" and inp.intent == "example":
        return _premise_example(inp, p, zh)
    if inp.role == "implication_validator" and inp.intent == "example":
        return _example_prediction(inp, p, zh)
    if writer is None or inp.intent in {"example", "baseline", "threshold", "discriminate"}:
        return None  # the shared texts (examples, a baseline, a threshold, a review) fit every kind
    return writer(inp, p, zh)


def _sides(p: Proposition, zh: bool) -> tuple[str, str]:
    return (p.subject or ("前者" if zh else "the first")), (p.baseline or ("后者" if zh else "the second"))


def _compare_readings(inp: TurnInputs, p: Proposition, zh: bool) -> Turn:
    a, b = _sides(p, zh)
    t = inp.term
    if zh:
        return (
            f"「{a}」与「{b}」之间的「{t}」至少有三种判法：A. 一个可测量的标准（速度、成本、出错次数）；"
            f"B. 是否适合你说的用途{('（' + p.scope + '）') if p.scope else ''}；C. 使用的人更喜欢哪一个。"
            "三种判法下结论可能不同。",
            "suggestion",
            f"对你来说，「{t}」由 A、B、C 中的哪一种来判定？",
            "没有判定标准，比较就无法检验，后面的前提和预测都要以它为准。",
        )
    scope = f" ({p.scope})" if p.scope else ""
    return (
        f'"{t}" between {a} and {b} can be judged at least three ways: A. a measurable criterion (speed, cost, '
        f"errors); B. fit for the use you have in mind{scope}; C. what the people using them prefer. The answer "
        "can come out differently under each.",
        "suggestion",
        f'Which of A, B or C decides "{t}" for you?',
        "Without a criterion the comparison cannot be tested; the premises and predictions follow from it.",
    )


def _compare_premises(inp: TurnInputs, p: Proposition, zh: bool) -> Turn:
    a, b = _sides(p, zh)
    prop = bare_proposition(inp.proposition)
    if zh:
        return (
            f"「{prop}」的关键前提：① 「{a}」和「{b}」是在同样的任务和条件下比较的；② 差别大到对你的用途有意义；"
            f"③ 你了解的情形对两者都有代表性，而不是一方的最好情况对另一方的最差情况。最强反例场景：差别来自各自的"
            "配置或使用方式，而不是两者本身（这是待澄清的疑点，不是否定）。",
            "judgement",
            "这三条前提里，你最没有把握的是哪一条？",
            "比较能否站住取决于最弱的关键前提，先找到它才知道要不要查证。",
        )
    return (
        f'Key premises of "{prop}": (1) {a} and {b} were compared on the same task under the same '
        "conditions; (2) the difference is large enough to matter for your use; (3) the cases you know are typical "
        "of both, not the best of one against the worst of the other. Strongest counter-scenario: the difference "
        "comes from how each was set up or used, not from the two themselves (an open doubt, not a refutation).",
        "judgement",
        "Which of the three premises are you least sure of?",
        "The comparison stands or falls with its weakest premise; finding it tells us whether to check evidence.",
    )


def _compare_test(inp: TurnInputs, p: Proposition, zh: bool) -> Turn:
    a, b = _sides(p, zh)
    t = inp.term
    if zh:
        return (
            f"可观察预测：如果命题成立，让「{a}」和「{b}」在同样的任务、同样的条件下各跑一次，按你选的标准，"
            f"两者在「{t}」上应当像你说的那样拉开差距；如果两者打平，命题需要修改。最小判别设计草案：同一个任务、同样的人或负载，"
            "各记录一次所选标准；规模与时长：待补。",
            "hypothesis",
            "如果这样的对照里两者打平，你会修改命题的哪一部分？",
            "先说清什么结果会改判，比较才从印象变成可检验的形式。",
        )
    return (
        f"Observable prediction: if the proposition holds, running {a} and {b} on the same task under the same "
        f'conditions should put {a} ahead on the criterion you chose for "{t}"; if they come out even, the '
        "proposition needs revising. Minimal design draft: one task, the same people or load, each option once, "
        "the chosen measure recorded; size and duration: to be filled in.",
        "hypothesis",
        "If the two came out even in that comparison, which part of your proposition would you revise?",
        "Saying in advance which result changes your mind turns an impression into a testable comparison.",
    )


def _observe_premises(inp: TurnInputs, p: Proposition, zh: bool) -> Turn:
    prop = bare_proposition(inp.proposition)
    if zh:
        return (
            f"「{prop}」的关键前提：① 这个规律是真实的，而不是几个印象深的例子；② 它在你说的范围内一直成立；"
            "③ 每次都用同样的方式来看（同一种计数）。最强反例场景：规律来自计数或记忆的方式，而不是事情本身"
            "（这是待澄清的疑点，不是否定）。",
            "judgement",
            "这三条前提里，你最没有把握的是哪一条？",
            "观察能否站住取决于最弱的关键前提，先找到它才知道要不要查证。",
        )
    return (
        f'Key premises of "{prop}": (1) the pattern is real and not a few memorable cases; (2) it holds '
        "across the period or place you mean; (3) it is looked at the same way each time (the same kind of count). "
        "Strongest counter-scenario: the pattern comes from how cases were counted or remembered, not from what "
        "happened (an open doubt, not a refutation).",
        "judgement",
        "Which of the three premises are you least sure of?",
        "The observation stands or falls with its weakest premise; finding it tells us whether to check evidence.",
    )


def _observe_test(inp: TurnInputs, p: Proposition, zh: bool) -> Turn:
    t = inp.term
    if zh:
        return (
            f"可观察预测：如果这个规律是真实的，接下来几个相近的时间段里按同一方式计数「{t}」，应当再次看到它；"
            "如果看不到，观察需要修改。最小设计草案：事先定好计数方式和时间段，逐段记录；时长：待补。",
            "hypothesis",
            "如果接下来的计数没有再看到这个规律，你会得出什么结论？",
            "先说清什么结果会改判，观察才从印象变成可检验的形式。",
        )
    return (
        f'Observable prediction: if the pattern is real, counting "{t}" the same way over the next comparable '
        "periods should show it again; if it does not, the observation needs revising. Minimal design draft: fix "
        "the count and the periods in advance and record each; duration: to be filled in.",
        "hypothesis",
        "If a count over the coming weeks did not show the pattern, what would you conclude?",
        "Saying in advance which result changes your mind turns an impression into a testable observation.",
    )


def _question_readings(inp: TurnInputs, p: Proposition, zh: bool) -> Turn:
    asked = bare_proposition(inp.proposition)
    if zh:
        return (
            f"「{asked}」至少可以有三种问法：A. 到底发生了什么（先弄清事实）；B. 为什么会发生（找原因）；"
            "C. 该怎么办（做决定）。三种问法需要的证据和讨论方式都不同。",
            "suggestion",
            "A、B、C 中哪一种是你最想弄清的？",
            "先定下要回答的是哪一种问题，后面的讨论才不会跑偏。",
        )
    return (
        f'"{asked}" can be asked at least three ways: A. what actually happens (the facts first); B. why it happens '
        "(a cause to find); C. what to do about it (a decision). Each needs different evidence and a different "
        "discussion.",
        "suggestion",
        "Which of A, B or C do you most want answered?",
        "Fixing which question is being answered keeps the discussion from drifting.",
    )


def _question_premises(inp: TurnInputs, p: Proposition, zh: bool) -> Turn:
    asked = bare_proposition(inp.proposition)
    if zh:
        return (
            f"「{asked}」默认了几件事：① 它问的现象确实存在，而不只是偶然几次；② 它出现得足够多，值得找答案；"
            "③ 背后有一个主要原因，而不是好几个原因叠在一起。",
            "judgement",
            "这三条默认里，你最没有把握的是哪一条？",
            "问题本身的默认不成立时，任何答案都会答偏。",
        )
    return (
        f'"{asked}" takes three things for granted: (1) what it asks about really happens, not just a few times; '
        "(2) it happens often enough to need an answer; (3) there is one main reason rather than several together.",
        "judgement",
        "Which of these three are you least sure of?",
        "When what a question takes for granted does not hold, every answer misses.",
    )


def _question_test(inp: TurnInputs, p: Proposition, zh: bool) -> Turn:
    if zh:
        return (
            "把问题变成可检验的形式：先写下你最好的猜测，写成「X 是因为 Y」；如果 Y 真是原因，那么没有 Y 的"
            "情形就不应出现 X。最小检验草案：找几对只在 Y 上不同的情形比较；数量：待补。",
            "hypothesis",
            "用一句话说，你目前最好的猜测是什么？",
            "有了候选答案，问题才有东西可以检验。",
        )
    return (
        "To make the question testable, write your best guess as a claim, 'X happens because Y'; if Y is the "
        "reason, cases without Y should not show X. Minimal test draft: compare a few pairs of cases that differ "
        "only in Y; how many: to be filled in.",
        "hypothesis",
        "In one sentence, what is your best guess at the answer so far?",
        "A candidate answer gives the question something to test.",
    )


def _example_prediction(inp: TurnInputs, p: Proposition, zh: bool) -> Turn:
    """A worked example of the kind's prediction, for a person who did not know how to write one."""
    a, b = _sides(p, zh)
    t = inp.term
    if inp.kind == "comparison":
        if zh:
            # 「更容易走神」 is no win: "「用电子阅读器看小说」明显更好" and "胜过" read wrong for what the person
            # wants less of (a trial); the example speaks of the difference the claim names
            text = (
                f"举个例子：同一个任务，「{a}」和「{b}」各做一遍，如果在「{t}」上两者的差别像你说的那样明显，"
                "命题就站得住；两者差不多，命题就要改。"
            )
            question = f"换成你手头的一个任务，你预期两者在「{t}」上的差别会在哪里最明显？"
        else:
            text = (
                f"An example: the same task done once with {a} and once with {b}; if they clearly differ on "
                f'"{t}" the way you said, the proposition stands; if they are close, it needs changing.'
            )
            question = f'On a task you actually have, where would you expect {a} and {b} to differ most on "{t}"?'

    elif inp.kind == "observation":
        seen = read_proposition(bare_proposition(inp.proposition, 400), inp.lang)
        every_zh, every_en = _periods(seen.effect or inp.proposition)  # the pattern's period, not the cause's
        if zh:
            text = (
                f"举个例子：{every_zh}按同样的方式数一次「{t}」，如果规律每次都出现，观察站得住；只出现一两次，就要改。"
            )
            question = "换成你的情况，你会怎样数、数多长时间？"
        else:
            text = (
                f'An example: count "{t}" the same way {every_en}; if the pattern shows each time, the '
                "observation stands; if only once or twice, it needs changing."
            )
            question = "In your situation, what would you count, and for how long?"
    else:
        # The example is the person's own question with a slot for the reason, not a stock example
        # about some other topic (a fresh-eyes trial got one about apps whatever it asked).
        asked = excerpt(p.subject or p.text.rstrip("?？"), 50)
        if zh:
            text = (
                f"举个例子：「{asked}，是因为 ___（一个你能说出名字的因素）」——这样的猜测可以拿没有这个因素的情形"
                "来检验：因素不在，现象也应当不在。"
            )
            question = "照这个样子，你对自己的问题会填进什么因素？"
        else:
            text = (
                f"An example: '{asked} because of ___ (one factor you can name)' — a guess like this is tested "
                "against cases where that factor is absent: without it, the thing should not happen."
            )
            question = "Written that way, which factor would you put in the blank?"
    why = (
        "你自己写出的预测，比我给的候选更能代表本意。"
        if zh
        else "A prediction in your own words says more than one I suggest."
    )
    return text, "suggestion", question, why


_WHEN_OR_WHERE = re.compile(
    r"\b(?:morning|afternoon|evening|night|day|week|weekend|month|season|summer|winter|spring|autumn|monday|tuesday|"
    r"wednesday|thursday|friday|saturday|sunday|rehearsals?|shifts?|sessions?|hours?)s?\b|早上|早晨|上午|中午|下午|傍晚|晚上|夜里|工作日|周[一二三四五六日末]|"
    r"星期|夏天|冬天|春天|秋天|白天|班次|时段",
    re.I,
)


def _pool(inp: TurnInputs, p: Proposition, zh: bool) -> tuple[str, ...]:
    """The rules' rivals for this proposition: a comparison of two times or conditions gets the
    rivals of conditions, and a person who counts gets none about memory or counting."""
    kind = inp.kind
    times = bool(p.subject and p.baseline and _WHEN_OR_WHERE.search(p.subject) and _WHEN_OR_WHERE.search(p.baseline))
    if kind == "comparison" and times:
        kind = "conditions"
    return fitting(RIVALS[kind]["zh" if zh else "en"], _counted(inp))


def _counted(inp: TurnInputs) -> bool:
    """Whether the person said they count or measure it (a premise of theirs is evidence)."""
    return any(classify_answer(a) == "evidence" for a in inp.assumptions)


def _rival(inp: TurnInputs, p: Proposition, zh: bool) -> Turn:
    pool = _pool(inp, p, zh)
    alt = pool[inp.variant % len(pool)]
    given = excerpt(inp.alternatives[-1], 40) if inp.alternatives else ""
    if zh:
        known = f"你已提出的另一种解释「{given}」记下了；" if given else ""
        return (
            f"{known}再看一种可能：{alt}。它和你的说法预测不同：按你的说法，排除这个因素后现象仍在；"
            "按这种可能，排除之后现象就会消失。可区分点：看这个因素不存在时现象是否还在。",
            "suggestion",
            "在你的经历里，有没有这个因素不存在、现象却照样出现的情况？",
            "有，这种可能被削弱；没有，两种说法目前无法区分，需要记入待检验项。",
        )
    known = f'Your own alternative, "{given}", is on the list; ' if given else ""
    lead = "here is another" if given else "Another possibility"
    return (
        f"{known}{lead}: {alt}. It predicts differently from your proposition: by yours, the pattern survives "
        "when that factor is absent; by this one, it goes away. Where they part: whether the pattern is still "
        "there without that factor.",
        "suggestion",
        "In your experience, was there a case without that factor where the pattern still appeared?",
        "If yes, this possibility weakens; if not, the two cannot be told apart yet and go on the list to test.",
    )


def _premise_example(inp: TurnInputs, p: Proposition, zh: bool) -> Turn:
    """How to rate confidence in a premise, for a claim that names no cause. The causal text asked a
    comparison of two cars for "one experience where only that cause changed" (a trial)."""
    if inp.kind == "comparison":
        a, b = _sides(p, zh)
        if zh:
            return (
                f"判断把握的一个办法：能举出一次亲眼看到「{a}」和「{b}」按同一个标准放在一起比的情形，就算有把握；"
                "只是印象或别人的说法，就算没把握。",
                "suggestion",
                "按这个标准，你能举出一次两者按同一标准放在一起比的情形吗？",
                "有这样的情形，前提就有了你的观察支撑；没有，它就是需要查证的缺口。",
            )
        return (
            f"One way to rate your confidence: if you can name one case where you saw {a} and {b} side by side on "
            "the same criterion, you are fairly sure; if it is an impression or hearsay, you are not.",
            "suggestion",
            "By that standard, can you name one case where the two were set side by side on the same criterion?",
            "If you can, the premise rests on your observation; if not, it is a gap that may need checking.",
        )
    if zh:
        return (
            "判断把握的一个办法：能举出一次你数过或记下来的情形，就算有把握；只凭印象，就算没把握。",
            "suggestion",
            "按这个标准，你能举出一次数过或记下来的情形吗？",
            "有记录，前提就有了你的观察支撑；没有，它就是需要查证的缺口。",
        )
    return (
        "One way to rate your confidence: if you can name a time you counted or wrote it down, you are fairly "
        "sure; if it rests on an impression, you are not.",
        "suggestion",
        "By that standard, can you name a time you counted or wrote it down?",
        "If you can, the premise rests on your observation; if not, it is a gap that may need checking.",
    )


def _rival_apart(inp: TurnInputs, p: Proposition, zh: bool) -> Turn:
    """How to tell the rival apart, for a claim that names no cause: the person's own rival when they
    gave one, set equal on both sides of a comparison. "Find a period without selective memory" was
    asked of a comparison of car prices (a trial)."""
    pool = _pool(inp, p, zh)
    given = excerpt(inp.alternatives[-1], 50) if inp.alternatives else ""
    alt = given or pool[inp.variant % len(pool)].split(" (")[0].split("（")[0]
    if inp.kind == "comparison":
        a, b = _sides(p, zh)
        if zh:
            return (
                f"区分的办法：把「{a}」和「{b}」放在「{alt}」对两边都一样的条件下再比一次。差别还在，这个竞争解释就被削弱；"
                "差别消失，它就站得住。",
                "suggestion",
                "有没有办法让这个因素对两边一样，再比一次？",
                "能这样比，就能在下结论之前把两种解释分开。",
            )
        return (
            f'One way to tell them apart: compare {a} and {b} again with "{alt}" the same on both sides. If the '
            "difference stays, this rival weakens; if it disappears, the rival stands.",
            "suggestion",
            "Is there a way to make that factor the same on both sides and compare once more?",
            "Comparing that way separates the two explanations before you conclude.",
        )
    if zh:
        return (
            f"区分的办法：找一次「{alt}」不起作用的情形，看你说的情况是否照样出现。照样出现，这个解释被削弱；"
            "不再出现，两种说法都还站得住。",
            "suggestion",
            "你的经历里有没有这样一次可以拿来对照的情形？",
            "有这样的情形，就能在不做新实验的情况下先粗分两种解释。",
        )
    return (
        f'One way to tell them apart: find a case where "{alt}" could not play a part and see whether what you '
        "describe still shows. If it does, this explanation weakens; if not, both still stand.",
        "suggestion",
        "Is there such a case in your experience that could serve as the comparison?",
        "Such a case lets us roughly separate the two explanations without a new experiment.",
    )
