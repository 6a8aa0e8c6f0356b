"""The offline engine's turns for a plan ("We should split our monolith", 「我打算每周只开两次站会」).

Why a module of its own: the role texts in ``role_texts`` examine a claim about what happened — a
term read three ways, "the change really happened", "removing the cause should weaken it". Asked
of "I plan to switch our standups to twice a week", they asked which reading of "standups" was a
felt experience and whether the change was a hindsight impression. A plan is judged by its goal,
by whether the change reaches it, and by what the current way gives that the plan would lose;
its rivals are other ways to the same goal (docs/debate.md, "Plans").
"""

from __future__ import annotations

import re

from autodidact.debate.answer_kinds import classify as classify_answer
from autodidact.debate.answer_kinds import worry_of
from autodidact.debate.templates import PLAN_ALTERNATIVES, TurnInputs, excerpt, sharpest

Turn = tuple[str, str, str, str]  # contribution, source, question, why
# "… (reading: a measurable criterion (speed, cost))": one level of parentheses inside is allowed
_READING = re.compile(r"\s*[（(](?:reading|口径|衡量方式)[:：](?:[^()（）]|[（(][^()（）]*[)）])*[)）]\s*$")


def _plan(inp: TurnInputs, limit: int = 60) -> str:
    """The plan in the person's words, without the measure a clarifying answer added to it, and without
    the frame that says it is a plan: 'if "We should move our weekly retro …" works' and 'after four
    weeks of "We should move …"' read wrong in a trial; 'if "move our weekly retro …" works' does not."""
    return bare_proposition(_PLAN_FRAME.sub("", inp.proposition.strip(), count=1), limit)


# "We should", "I plan to", "Should I", 「我打算」「我们应该」: what says it is a plan, not what the plan is.
_PLAN_FRAME = re.compile(
    r"^(?:(?:i|we) (?:should|will|plan to|want to|need to|intend to|have to|must|(?:am|are) going to)\s+|"
    r"(?:i'?m|we'?re) (?:going to|planning to)\s+|let'?s\s+|"
    r"(?:i'?m|we'?re|i am|we are) (?:seriously |still )?(?:considering|thinking (?:of|about)|weighing|debating)\s+"
    r"(?:whether (?:to|we should|i should)\s+)?)(?=\w)|"
    r"(?:i'?m|we'?re|i am|we are) (?:still )?(?:wondering|unsure|torn(?: about)?|not sure) whether "
    r"(?:to|we should|i should)\s+(?=\w)|"
    # 「我们在犹豫要不要把家里的车卖掉」: a trial's texts quoted the plan with its frame
    r"^(?:我|我们)(?:(?:正|还|一直)?在)?(?:考虑|琢磨|盘算|犹豫|纠结)?(?:到底)?"
    r"(?:要不要|该不该|是否要|是否应该|打算|计划|准备|想要|应该|需要|决定)?"
    r"(?<=[算划备要该要定虑磨豫结])(?=[\u4e00-\u9fffA-Za-z])",
    re.I,
)


def without_frame(text: str) -> str:
    """A plan without the words that say it is one ("We're considering", 「我们在犹豫要不要」)."""
    return _PLAN_FRAME.sub("", text.strip(), count=1)


def bare_proposition(text: str, limit: int = 60) -> str:
    """The proposition as the person wrote it, without the "(reading: …)" a clarifying answer added:
    quoted inside a turn, the addition cut the person's words off mid-word ("(reading: B: the time
    until a ju…")."""
    return excerpt(_READING.sub("", text), limit)


def plan_turn(inp: TurnInputs, zh: bool) -> Turn | None:
    """The role's turn for a plan, or None where the claim texts already fit (a threshold, a review)."""
    writer = {
        "concept_clarifier": _goal,
        "premise_evidence_examiner": _premises,
        "implication_validator": _trial,
        "alternative_explorer": _rival,
        "reflection_facilitator": _disposition,
    }.get(inp.role)
    return writer(inp, zh) if writer else None


def _goal(inp: TurnInputs, zh: bool) -> Turn | None:
    plan = _plan(inp)
    if inp.intent == "baseline":
        return None  # what the goal is measured against reads the same for a plan
    if inp.intent == "example":
        if zh:
            return (
                # the cases are any plan's, not a team's: a plan to sell the family car was given two teams
                # saving an hour a week (a trial)
                "两个对照例：甲改了之后省下了时间或钱，但原来的做法顺带照顾到的一件事从此没人管了；乙省下同样多，"
                "那件事照样有着落。只看省下的两者一样，看原来做法的作用就完全不同。",
                "suggestion",
                "这两个例子里，哪一个更像你担心的情况？",
                "选中的例子说明你真正要守住的是什么，后面的前提和试行都按它来写。",
            )
        return (
            "Two contrasting cases: A saves time or money after the change, but something the old way quietly took "
            "care of is now left undone; B saves just as much and nothing is left undone. By what is saved they are "
            "equal; by what the old way was for, they are not.",
            "suggestion",
            "Which of the two cases is closer to what you worry about?",
            "The case you pick says what the plan must protect, and the premises and the trial follow from it.",
        )
    if zh:
        return (
            f"一个打算要按它的目标来评判。「{plan}」的目标至少有三种衡量法：A. 花掉或省下的成本（时间、金钱、精力）；"
            "B. 它要达到的结果（分数、发现的问题、完成的工作），以及现在的做法带来的好处不受损；"
            "C. 能不能坚持下去（做的人的感受）。按 A 去计数，按 B 看结果，按 C 看能否持续。",
            "suggestion",
            "这三种衡量法里，哪一种最能告诉你这个打算成功了？",
            "没有衡量目标的尺度，试行之后就无法判断该保留还是退回。",
        )
    return (
        f'A plan is judged by its goal. "{plan}" can be measured at least three ways: A. what it costs or saves '
        "(time, money, effort); B. the result it is for (a score reached, problems caught, work done) and "
        "that nothing the current way gives is lost; C. whether it can be kept up (how it feels to the people "
        "doing it). Under A you count, under B you check the result, under C you watch whether it lasts.",
        "suggestion",
        "Which of A, B or C would tell you the plan worked?",
        "Without a measure of the goal, a trial cannot tell you whether to keep the change or go back.",
    )


# A decision between options: "learn Python or C first", 「先学Python还是C」.
_OPTIONS = re.compile(r"\S\s+or\s+\S|还是", re.I)


def weighs_options(plan: str) -> bool:
    """Whether a plan is a choice between named options, not one change against the current way."""
    return _OPTIONS.search(plan) is not None


def _premises(inp: TurnInputs, zh: bool) -> Turn:
    plan = _plan(inp)
    if weighs_options(plan):
        return _choice_premises(plan, zh, example=inp.intent == "example")
    if inp.intent == "example":
        if zh:
            return (
                "判断把握的一个办法：能说出这个问题哪一次造成了具体的损失（一次延误、一小时的浪费），"
                "第①条就算有把握；能说出原来的做法哪一次帮上了忙，第③条就要认真对待。",
                "suggestion",
                "你能说出原来的做法帮上忙的一次具体经历吗？",
                "有这样的经历，改动就要为它留一个替代；没有，第③条前提就比较稳。",
            )
        return (
            "One way to rate your confidence: if you can name a time the problem cost something concrete (a late "
            "release, an hour lost), premise 1 is on firm ground; if you can name a time the current way saved "
            "you, premise 3 needs a real answer.",
            "suggestion",
            "Can you name one time the current way helped in a way the plan would drop?",
            "If you can, the change needs something in its place; if not, premise 3 is on firmer ground.",
        )
    if zh:
        return (
            f"「{plan}」的关键前提：① 它要解决的问题确实存在，而且大到值得改；② 这个改动会带来你要的结果，"
            "而不只是把成本挪到别处；③ 现在的做法给你的东西，改动后丢掉的那部分可以接受或有别的办法补上。"
            "最强反例场景：省下的确实省下了，但原来做法悄悄承担的某件事停了，代价过一段时间才显现"
            "（这是待澄清的疑点，不是否定）。",
            "judgement",
            "这三条前提里，你最没有把握的是哪一条？",
            "打算能否站住取决于最弱的关键前提，先找到它才知道试行时要盯住什么。",
        )
    return (
        f'Key premises of "{plan}": (1) the problem it answers is real and big enough to be worth a '
        "change; (2) the change brings the result you want rather than moving the cost elsewhere; (3) what the "
        "current way gives you and the plan would drop is acceptable, or covered some other way. Strongest "
        "counter-scenario: the saving is real, but something the old way did quietly stops, and its cost shows "
        "up only later (an open doubt, not a refutation).",
        "judgement",
        "Which of the three premises are you least sure of?",
        "The plan stands or falls with its weakest premise; finding it tells you what to watch in a trial.",
    )


def _choice_premises(plan: str, zh: bool, example: bool = False) -> Turn:
    """The premises of choosing between options. A choice is not a change that fixes a problem: "the
    problem it answers is real" asked of "Python or C first?" had nothing to hold on to."""
    if example and zh:
        return (
            "判断把握的一个办法：如果你认识和你情况相近、选了其中一个选项的人，知道结果如何，第②条就比较有把握；"
            "如果以后换起来几乎没有代价，第③条就没那么要紧。",
            "suggestion",
            "你认识和你情况相近、选了其中一个选项的人吗？结果怎么样？",
            "一个和你相近的实例，比一般性的说法更能说明这个选择对你意味着什么。",
        )
    if example:
        return (
            "One way to rate your confidence: if you know someone in a case like yours who took one of the options, "
            "and how it went, premise 2 is on firmer ground; if switching later would cost almost nothing, premise 3 "
            "matters less.",
            "suggestion",
            "Do you know someone in a case like yours who took one of the options, and how it went?",
            "One case close to yours says more about what the choice means for you than a general rule.",
        )
    if zh:
        return (
            f"「{plan}」这个选择的关键前提：① 这几个选项在你的目标最看重的方面确实不同，而不只是一般意义上不同；"
            "② 你对每个选项的了解适用于你自己的情况（你的时间、你的起点），而不是一般人的情况；"
            "③ 这个选择不容易反悔，或者先后顺序确实要紧；如果以后换起来很容易，先试一个比反复权衡更有用。"
            "最强反例场景：几个选项对目标的作用差不多，真正决定结果的是别的东西，比如能坚持多久"
            "（这是待澄清的疑点，不是否定）。",
            "judgement",
            "这三条前提里，你最没有把握的是哪一条？",
            "选择能否站住取决于最弱的关键前提，先找到它才知道该去了解什么、或者先试什么。",
        )
    return (
        f'Key premises of the choice "{plan}": (1) the options differ on what matters most for your goal, not '
        "only in general; (2) what you know of each fits your own case (your time, where you start), not a "
        "typical one; (3) the choice is hard to undo, or its order really matters; if switching later is cheap, "
        "trying one teaches more than weighing them. Strongest counter-scenario: the options serve the goal about "
        "equally, and what decides the result is something else, such as how long it is kept up (an open doubt, "
        "not a refutation).",
        "judgement",
        "Which of the three premises are you least sure of?",
        "The choice stands or falls with its weakest premise; finding it tells you what to find out, or what "
        "to try first.",
    )


def _choice_trial(plan: str, zh: bool) -> Turn:
    """A choice is checked by trying an option for a fixed time, or by people who chose each: "record
    the measure under the current way, then under the new one" assumed one change that can be undone."""
    if zh:
        return (
            f"可观察预期：如果「{plan}」选对了，选中的那个选项应当在你事先定好的一段时间内让你选的尺度变好；"
            "如果没有，缺的可能是另一个选项，也可能是两个都给不了的东西。最小设计：能低成本试的，就先试一个选项，"
            "时间定死（两到四周），开始前写下尺度；不能试的，找两三个和你情况相近、各选了一个选项的人，"
            "按同一个尺度比较；时长与改判阈值：待补。",
            "hypothesis",
            "试过一段时间后，出现什么结果会让你换成另一个选项？",
            "先说清什么结果会让你换，偏好才变成一个可以核对的选择。",
        )
    return (
        f'Observable expectation: if "{plan}" is decided well, the option chosen should move the measure you '
        "chose within a period you fix in advance; if it does not, what is missing may be the other option, or "
        "something neither gives. Minimal design: where an option can be tried cheaply, try one for a fixed "
        "period (two to four weeks) with the measure written down before you start; where it cannot, compare two "
        "or three people in a case like yours who took each option, on the same measure; duration and threshold: "
        "to be filled in.",
        "hypothesis",
        "After the trial period, what result would make you switch to the other option?",
        "Saying in advance what would make you switch turns a preference into a choice you can check.",
    )


def _trial(inp: TurnInputs, zh: bool) -> Turn | None:
    if inp.intent in {"discriminate", "threshold"}:
        return None  # a review's divergence and a prediction's threshold read the same for a plan
    plan = _plan(inp)
    if inp.intent != "example" and weighs_options(plan):
        return _choice_trial(plan, zh)
    basis = excerpt(inp.assumptions[-1], 30) if inp.assumptions else ""
    observed = bool(inp.assumptions) and classify_answer(inp.assumptions[-1]) == "evidence"
    # a worry is what to watch, not what was observed nor a premise assumed (a trial quoted 「以你说的「我担心的是
    # …」为前提」)
    worried = bool(inp.assumptions) and classify_answer(inp.assumptions[-1]) == "worry"
    basis = excerpt(worry_of(inp.assumptions[-1]), 30) if worried else basis
    if inp.intent == "example":
        if zh:
            return (
                f"举个例子：试行「{plan}」四周后，你选的那个尺度应当变好，而原来做法给你的东西不应变差；"
                "如果尺度没动，或者出现了你担心的损失，就该修改打算。这只是一种写法，具体由你的经验来定。",
                "suggestion",
                "试行的头几周里，你预期会看到什么变化？",
                "你自己写出的预期，比我给的候选更能代表打算的本意。",
            )
        return (
            f'An example: after four weeks of "{plan}", the measure you chose should improve and what the current '
            "way gives you should not get worse; if the measure does not move, or the loss you fear appears, the "
            "plan needs changing. This is one way to write it; your experience decides.",
            "suggestion",
            "In the first weeks of the trial, what change would you expect to see?",
            "An expectation in your own words says more about the plan than a candidate I suggest.",
        )
    if zh:
        cond = (f"（结合你观察到的「{basis}」）" if observed else f"（以你说的「{basis}」为前提）") if basis else ""
        cond = f"（盯住你担心的：「{basis}」）" if worried else cond
        return (
            f"可观察预期{cond}：如果「{plan}」可行，试行一段时间后你选的尺度应当变好，而原来做法给你的东西"
            "不应变差；如果尺度没动或出现了损失，打算需要修改。最小试行设计：先按现在的做法记录这个尺度，"
            "再按新做法试行同样长的时间并记录，同时记下一个你担心的损失的迹象；时长与改判阈值：待补。",
            "hypothesis",
            "如果试行下来没有任何收益，你会修改打算的哪一部分？",
            "先说清什么结果会让你退回，打算才从意愿变成可检验的试行。",
        )
    # what the person observed or counted backs the prediction; it is not a premise they assumed
    lead = "with what you observed" if observed else "taking your premise"
    cond = f' ({lead}: "{basis}")' if basis and observed else f' ({lead} "{basis}")' if basis else ""
    cond = f' (watching your worry: "{basis}")' if worried else cond
    return (
        f'Observable expectation{cond}: if "{plan}" works, after a trial period the measure you chose should '
        "improve and what the current way gives you should not get worse; if the measure does not move, or a loss "
        "appears, the plan needs revising. Minimal trial design: record the measure under the current way, then "
        "for as long under the new one, and note one sign of the loss you fear; duration and threshold: to be "
        "filled in.",
        "hypothesis",
        "If the trial brought no gain, which part of the plan would you change?",
        "Saying in advance which result sends you back turns an intention into a trial you can judge.",
    )


def _rival(inp: TurnInputs, zh: bool) -> Turn:
    pool = PLAN_ALTERNATIVES["zh" if zh else "en"]
    alt = pool[inp.variant % len(pool)]
    plan = _plan(inp)
    if inp.intent != "example" and weighs_options(plan):
        # a choice's rival is a way that makes the choice matter less, not "a smaller change"
        if zh:
            return (
                f"另一条通往同一目标的路：哪个都不先定，直接从最小的、能达到目标的一件事做起，需要什么就学什么、用什么。"
                f"它和「{plan}」的分歧在于：选项的先后对目标到底有多大影响。",
                "suggestion",
                "和这条路相比，先定下一个选项能给你带来什么？",
                "说清先做选择的好处，才知道这个选择值不值得花时间权衡。",
            )
        return (
            "Another way to the same goal: settle neither first, and start from the smallest thing that reaches the "
            f'goal, taking up whatever it needs on the way. It parts from "{plan}" on how much the order of the '
            "options matters for the goal at all.",
            "suggestion",
            "Compared with that way, what does settling one option first give you?",
            "Saying what the choice itself gives tells you whether it is worth the time spent weighing it.",
        )
    if inp.intent == "example":
        if zh:
            return (
                "一个比较办法：把问题的成本拆开，看大部分花在哪里。如果大部分花在某一个环节，小改动就够了；"
                "如果分散在各处，才需要你的打算那样的大改动。",
                "suggestion",
                "按你的经验，问题的成本大部分花在哪一个环节？",
                "成本集中在哪里，决定了该选大改动还是小改动。",
            )
        return (
            "One way to compare: split the problem's cost and see where most of it goes. If most of it sits in "
            "one part, a smaller change may be enough; if it is spread everywhere, a change as large as your "
            "plan is what it takes.",
            "suggestion",
            "From your experience, where does most of the problem's cost go?",
            "Where the cost sits decides between a large change and a small one.",
        )
    if zh:
        return (
            f"另一条通往同一目标的路：{alt}。两者代价不同：「{plan}」改动更大，收益也可能更大；"
            "另一条路改动小，但可能只解决一部分问题。可区分点：问题的主要成本出在哪一部分。",
            "suggestion",
            "和这条路相比，你的打算好在哪里？",
            "说清它胜过哪些替代做法，打算才有理由付出改动的成本。",
        )
    return (
        f'Another way to the same goal: {alt}. They cost differently: "{plan}" changes more and may gain more; '
        "the other changes less but may fix only part of the problem. Where they part: which part of the "
        "problem carries most of its cost.",
        "suggestion",
        "Compared with that option, what does your plan do better?",
        "A plan earns the cost of a change by beating the options that change less.",
    )


def _disposition(inp: TurnInputs, zh: bool) -> Turn:
    plan = _plan(inp, 36)
    if zh:
        revise = (
            f"补上成功的尺度或预期「{excerpt(sharpest(inp.predictions), 30)}」"
            if inp.predictions
            else "还缺成功的尺度或预期"
        )
        rival = (
            f"替代做法「{excerpt(inp.alternatives[-1], 30)}」尚不能排除" if inp.alternatives else "还没有比较过替代做法"
        )
        return (
            f"当前状态（一种判读，不是结论）：保留——按「{plan}」先试行；修改——{revise}；未决——{rival}。",
            "judgement",
            "按这三段，你决定试行、修改还是暂时搁置这个打算？",
            "决定由你来做，它决定下一步是设计试行、改写打算还是先比较替代做法。",
        )
    revise = (
        f'add the measure or expectation "{excerpt(sharpest(inp.predictions), 30)}"'
        if inp.predictions
        else "a measure of success is still missing"
    )
    rival = (
        f'the other option "{excerpt(inp.alternatives[-1], 30)}" cannot be ruled out yet'
        if inp.alternatives
        else "no other way to the goal has been compared yet"
    )
    return (
        f'Current state (a reading, not a conclusion): keep — try "{plan}" as a trial; revise — {revise}; '
        f"undecided — {rival}.",
        "judgement",
        "Given these three parts, do you try, revise or set aside the plan for now?",
        "The decision is yours; it decides whether the next step is a trial design, a rewrite or a comparison.",
    )
