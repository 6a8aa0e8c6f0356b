"""The offline engine's turn writer: one function per role, each filled from the session.

Why separate from ``templates``: ``templates`` holds the shared text helpers and the Task's data
shapes; this module is the offline twin of a model writing a turn (``turns.RoleTurnTask.offline``).
Every branch returns a contribution that does the role's job and exactly one focus question.
"""

from __future__ import annotations

from autodidact.debate.answer_kinds import KIND_SIGNAL, answer_parts, changes_nothing, corrected_term, goal_of, worry_of
from autodidact.debate.answer_kinds import classify as classify_answer
from autodidact.debate.kind_texts import kind_turn
from autodidact.debate.plan_texts import bare_proposition, plan_turn
from autodidact.debate.templates import (
    ALTERNATIVES,
    TurnInputs,
    TurnOutput,
    excerpt,
    fitting,
    measure_clause,
    names_result,
    sharpest,
)

SIGNAL_NAMES = {
    "zh": {
        "INTUITION_FORMULATED": "你的想法有了第一个说法",
        "QUESTION_SHARPENED": "命题说得更准了",
        "PREMISE_SURFACED": "命题依赖的一个前提",
        "PREMISE_CONTRADICTED": "前提遇到反例",
        "PREMISE_VERIFIED": "前提得到证据",
        "DISCRIMINATION_ADDED": "一个能检验命题的条件",
        "ALTERNATIVE_ADDED": "另一种可能的解释",
        "DISPOSITION_DECIDED": "你对命题的处理决定",
        "DECISION_RECORDED": "决定已记录",
        "GAP_CONFIRMED": "查证范围已确认",
        "EVIDENCE_IMPORTED": "证据已回流",
    },
    "en": {
        "INTUITION_FORMULATED": "a first wording of your idea",
        "QUESTION_SHARPENED": "a sharper statement of the idea",
        "PREMISE_SURFACED": "a premise the idea rests on",
        "PREMISE_CONTRADICTED": "premise contradicted",
        "PREMISE_VERIFIED": "premise backed by evidence",
        "DISCRIMINATION_ADDED": "a test that would show whether it holds",
        "ALTERNATIVE_ADDED": "another possible explanation",
        "DISPOSITION_DECIDED": "your decision on the idea",
        "DECISION_RECORDED": "decision recorded",
        "GAP_CONFIRMED": "gap scope confirmed",
        "EVIDENCE_IMPORTED": "evidence imported",
    },
}


def acknowledge(answer: str, signals: list[str], lang: str, plan: bool = False) -> str:
    """One sentence that quotes the person's answer and says how it was recorded. Beside a plan a
    rival is another way to its goal, not "another possible explanation" (a trial)."""
    zh = lang == "zh"
    quote = excerpt(answer, 45)  # long enough to hold what the answer turns on, not just its opening
    named = dict(SIGNAL_NAMES["zh" if zh else "en"])
    if plan:
        named["ALTERNATIVE_ADDED"] = "另一种做法" if zh else "another way to the same goal"
    kinds = {k for k, _ in answer_parts(answer)}
    if "PREMISE_SURFACED" in signals and "evidence" in kinds and not kinds & {"mechanism", "worry"}:
        # "B, a count: … 9 a day in autumn, 3 a day in January" picks a reading and reports a count: the count
        # backs a premise, it is no premise assumed (a trial read "a sharper statement, a premise")
        backing = "你的观察证据（作为关键前提的依据）" if zh else "your own evidence (backing a premise)"
        named["PREMISE_SURFACED"] = backing
    names = ("、" if zh else ", ").join(named[s] for s in signals)
    term = corrected_term(answer) if classify_answer(answer) == "correction" else None
    if term is not None:
        # the correction changes what the next questions ask about: say so
        if zh:
            return f"你说「{quote}」。明白了，后面的问题按「{term}」来问。"
        return f'You said "{quote}". Understood: from here on the questions are about "{term}".'
    recording = {"PREMISE_SURFACED", "DISCRIMINATION_ADDED", "ALTERNATIVE_ADDED"}
    if classify_answer(answer) == "example" and recording & set(signals):
        # a case told of is kept as a case; only what another sentence of the answer does is named
        # beside it (the reply planner records no premise, test or rival from the case itself)
        said = {KIND_SIGNAL[k] for k, _ in answer_parts(answer) if k in KIND_SIGNAL}
        table = SIGNAL_NAMES["zh" if zh else "en"]
        others = [table[s] for s in signals if s in said or s not in recording | {"QUESTION_SHARPENED"}]
        case = (
            "你举的一个实例（记作具体情形，不算前提）"
            if zh
            else "an example you saw (kept as a case, not as a premise)"
        )
        names = ("、" if zh else ", ").join([case, *others])
    elif "QUESTION_SHARPENED" in signals and goal_of(answer):
        # 「目标是省钱：…」 names the measure the plan is judged by: said so, not "a sharper statement"
        names = f"衡量方式：{goal_of(answer)}" if zh else f"the measure: {goal_of(answer)}"
    elif signals == ["PREMISE_SURFACED"] and classify_answer(answer) == "worry":
        # a worry is what the idea or plan must not break: kept as a premise to check, and said to be so
        names = "你担心的一点（记作要检验的前提）" if zh else "a worry of yours (kept as a premise to check)"
    elif signals == ["PREMISE_SURFACED"] and classify_answer(answer) == "evidence":
        # what the person observed or counted is kept as their observation, and said to be so
        names = "你的观察证据（作为关键前提的依据）" if zh else "your own evidence (backing a premise)"
    if zh:
        return f"你说「{quote}」，这记作：{names}。"
    return f'You said "{quote}"; recorded as: {names}.'


def response_for(inp: TurnInputs) -> str:
    """At most two sentences on the person's last message, or the explicit skip marker."""
    zh = inp.lang == "zh"
    if inp.opening:
        return inp.opening
    if inp.last_answer is None:
        return "跳过回应" if zh else "(no response)"
    quote = excerpt(inp.last_answer, 30)
    if inp.dont_know:
        if inp.intent != "example":  # the turn moves on: promising examples that do not come misleads
            return "不确定也没关系，我们先往下走。" if zh else "Not knowing is fine; let's move on."
        return (
            "不确定也没关系，下面换成具体例子供你挑。"
            if zh
            else "Not knowing is fine; here are concrete examples to pick from."
        )
    if inp.answer_signals:
        return acknowledge(inp.last_answer, inp.answer_signals, inp.lang, plan=inp.kind == "plan")
    if changes_nothing(inp.last_answer):
        # "No, the test stays" keeps what was said: "it does not change the wording yet" answered a
        # question nobody asked (a trial)
        kept = quote.rstrip("。.!！")
        return f"记下了：「{kept}」，之前说的保持不变。" if zh else f'Noted: "{kept}"; what you said before stands.'
    if zh:
        return f"记下了你的回答「{quote}」，它还没有改变命题的表述。"
    return f'Noted your answer "{quote}"; it does not change the wording of the proposition yet.'


def _clarifier(inp: TurnInputs, zh: bool) -> tuple[str, str, str, str]:
    t = inp.term
    if inp.intent == "baseline":
        if zh:
            return (
                f"「{t}」是比较出来的，比较基准决定结论：A. 和你自己以前的做法比；B. 和做同类任务的其他人比；"
                f"C. 和你事先的预期比。基准是 A 时要找前后对照，是 B 时要找同期对照，是 C 时命题讲的其实是落差。",
                "suggestion",
                f"你说的「{t}」，是和 A、B、C 中的哪一个比较出来的？",
                "没有比较基准，任何预测都无法判断是否落空，这是进入检验前必须补上的一块。",
            )
        return (
            f'"{t}" is a comparison, and the baseline decides the answer: A. your own earlier way of working; '
            "B. other people doing similar tasks; C. what you expected beforehand. Baseline A needs a before/after "
            "comparison, B a same-period comparison, and under C the proposition is really about a gap in "
            "expectations.",
            "suggestion",
            f'Which baseline is your "{t}" measured against: A, B or C?',
            "Without a baseline no prediction can fail, so this has to be fixed before any test.",
        )
    if inp.intent == "example":
        if zh:
            return (
                f"两个对照例：甲觉得「{t}」成立，但能数出来的量（多少次、多久、多少个）和以前一样，这是按感觉来衡量；"
                f"乙没有这种感觉，但能数出来的量明显变了，这是按能数出的量来衡量。同一件事在两种衡量方式下结论可能相反。",
                "suggestion",
                "这两个例子里，哪一个更像你遇到的情况？",
                "选中的例子就是命题的衡量方式，后面的前提和预测都按它来写。",
            )
        return (
            f'Two contrasting cases: A feels that "{t}" holds, yet everything that can be counted (how often, how '
            "long, how many) is as before (a felt-experience reading); B does not feel it, yet those counts clearly "
            "changed (a measurable reading). The same situation can come out opposite under the two readings.",
            "suggestion",
            "Which of the two cases is closer to what you ran into?",
            "The case you pick fixes the reading, and the premises and predictions follow from it.",
        )
    if zh:
        return (
            f"「{t}」至少有三种衡量方式：A. 主观感受（你自评的程度）；B. 可测量的量（时长、次数、错误数）；"
            f"C. 相对某个比较基准的差值（和以前或别人相比）。按 A 命题讲的是体验，按 B 讲的是可数的量，"
            f"按 C 结论取决于比较对象。",
            "suggestion",
            f"在你的命题里，「{t}」最接近 A、B、C 中的哪一种衡量方式？",
            "衡量方式不同，需要的观察和比较基准完全不同，后面审查前提时要以它为准。",
        )
    return (
        f'"{t}" can be read at least three ways: A. a felt experience (your own rating); B. a measurable '
        "quantity (time, counts, errors); C. a difference against a baseline (how it was before, or other "
        "people). Under A the proposition is about experience, under B about something counted, and under C the "
        "answer depends on what you compare with.",
        "suggestion",
        f'In your proposition, which reading of "{t}" is closest: A, B or C?',
        "Each reading needs different observations and a different baseline, and the premise check depends on it.",
    )


def _premises(inp: TurnInputs, zh: bool) -> tuple[str, str, str, str]:
    t, prop = inp.term, bare_proposition(inp.proposition)
    if inp.intent == "example" and inp.alternatives:
        # The person named another factor: the example builds on it instead of asking in general.
        other = excerpt(inp.alternatives[-1], 30)
        if zh:
            return (
                f"你提到了另一个因素「{other}」。判断第②条前提的一个办法：找一次这个因素不在、而「{t}」照样出现的经历。",
                "suggestion",
                "你能举出一次这个因素不在、现象却照样出现的经历吗？",
                "有这样的经历，命题说的原因就站得更稳；没有，这个因素就要记入待检验项。",
            )
        return (
            f'You named another factor, "{other}". One way to weigh premise 2: find a time when that factor was '
            f'absent and "{t}" still showed up.',
            "suggestion",
            "Can you name a time when that factor was absent and the pattern still appeared?",
            "If you can, the proposition's cause stands firmer; if not, that factor goes on the list to test.",
        )
    if inp.intent == "example":
        if zh:
            return (
                "判断把握的一个办法：能举出一次亲身经历支持它，就算有把握；只是印象，就算没把握。"
                "例如「原因确实是命题说的那个」这条，需要一次其他条件没变、只有这个原因变了的经历。",
                "suggestion",
                "按这个标准，你能举出一次只有这个原因变了的亲身经历吗？",
                "有这样的经历，第②条前提就有了用户观察支撑；没有，它就是需要查证的缺口。",
            )
        return (
            "One way to rate your confidence: if you can name one experience of your own that supports it, you are "
            "fairly sure; if it is only an impression, you are not. For 'the cause is the one the proposition "
            "names', that means a time when nothing else changed but that cause.",
            "suggestion",
            "By that standard, can you name one experience where only that cause changed?",
            "If you can, premise 2 rests on your observation; if not, it is a gap that may need checking.",
        )
    if zh:
        return (
            f"「{prop}」的关键前提：① 「{t}」的变化确实发生了，而不是事后印象；② 变化来自命题说的原因，"
            f"而不是同期的其他变化；③ 你观察到的情形有代表性。最强反例场景：同一时期任务或环境也变了，"
            f"那么即使原因不成立也会看到同样的现象（这是待澄清的疑点，不是否定）。",
            "judgement",
            "这三条前提里，你最没有把握的是哪一条？",
            "命题能否站住取决于最弱的关键前提，先找到它才知道要不要查证。",
        )
    return (
        f'Key premises of "{prop}": (1) the change in "{t}" really happened and is not a '
        "hindsight impression; (2) it comes from the cause the proposition names, not from something that "
        "changed at the same time; (3) the cases you saw are typical. Strongest counter-scenario: the tasks or "
        "the setting changed in the same period, so the same pattern would appear even if the cause is wrong "
        "(an open doubt, not a refutation).",
        "judgement",
        "Which of the three premises are you least sure of?",
        "The proposition stands or falls with its weakest premise; finding it tells us whether to check evidence.",
    )


def _implication(inp: TurnInputs, zh: bool) -> tuple[str, str, str, str]:
    t, prop = inp.term, bare_proposition(inp.proposition)
    basis = excerpt(inp.assumptions[-1], 30) if inp.assumptions else ""
    observed = bool(inp.assumptions) and classify_answer(inp.assumptions[-1]) == "evidence"
    # a worry is what to watch, not what was observed nor a premise assumed (a trial quoted 「以你说的「我担心的是
    # …」为前提」)
    worried = bool(inp.assumptions) and classify_answer(inp.assumptions[-1]) == "worry"
    basis = excerpt(worry_of(inp.assumptions[-1]), 30) if worried else basis
    stated = sharpest(inp.predictions) if inp.predictions else ""
    if inp.intent == "discriminate" and inp.review_text and names_result(stated):
        # the person already said which result changes their mind: asking "which of the two outcomes
        # would make you revise?" re-asked it (two trials); the review is weighed against their test
        test = excerpt(measure_clause(stated), 90).replace("?", "").replace("？", "")
        if zh:
            return (
                inp.review_text,
                "judgement",
                f"你已经说过什么结果会让你改判（「{test}」）；上面两份评估里，有没有哪一点让你想改这个检验？",
                "评估的用处是检查你的检验漏了什么，不是替你裁定。",
            )
        return (
            inp.review_text,
            "judgement",
            f'You already said what would change your mind ("{test}"); does anything in the two reviews above '
            "make you want to change that test?",
            "The reviews are there to check what your test might miss, not to decide for you.",
        )
    if inp.intent == "discriminate" and inp.review_text:
        if zh:
            return (
                inp.review_text,
                "judgement",
                "上面两种结果里，哪一种出现时你会修改自己的命题？",
                "分歧只能由你按改变结论的条件来裁定，我不投票、不取平均。",
            )
        return (
            inp.review_text,
            "judgement",
            "Which of the two outcomes above would make you revise your proposition?",
            "Only you can settle the divergence, by what would change your mind; I do not vote or average them.",
        )
    if inp.intent == "example":
        if zh:
            return (
                f"举个例子：如果命题成立，在没有这个原因的那段时间，「{t}」就不该出现（或明显少见）；如果照样出现，"
                f"命题就要改。这只是一个可能的预测写法，具体由你的经验来定。",
                "suggestion",
                f"回想没有这个原因的一段时间，你预期「{t}」会有什么不同？",
                "你自己写出的预测，比我给的候选更能代表命题的本意。",
            )
        return (
            f'An example: if the proposition holds, then during a stretch without the cause "{t}" should not show, '
            "or clearly less; if it shows just the same, the proposition needs changing. This is one possible way to "
            "write the prediction; your experience decides.",
            "suggestion",
            f'Thinking of a stretch without the cause, what would be different about "{t}"?',
            "A prediction in your own words says more about the proposition than a candidate I suggest.",
        )
    if inp.intent == "threshold" and inp.predictions:
        pred = excerpt(sharpest(inp.predictions), 36)
        if zh:
            return (
                f"你的预测可以写成：{pred}。要让它可检验，还缺一个改判阈值：差别小到多少就算预测落空（数值：待补）。",
                "hypothesis",
                "差别小到什么程度，你就愿意说这个预测落空了？",
                "没有改判阈值，任何结果都能被解释成支持，命题就不可检验。",
            )
        return (
            f"Your prediction can be written as: {pred}. To make it testable it still needs a change threshold: "
            "how small a difference counts as the prediction failing (value: to be filled in).",
            "hypothesis",
            "How small would the difference have to be for you to call the prediction failed?",
            "Without a threshold any result can be read as support, and the proposition is not testable.",
        )
    if zh:
        cond = (f"（结合你观察到的「{basis}」）" if observed else f"（以你说的「{basis}」为前提）") if basis else ""
        cond = f"（盯住你担心的：「{basis}」）" if worried else cond
        return (
            f"可观察预测{cond}：如果「{prop}」成立，那么把命题里的原因去掉、其余条件不变时，「{t}」应当明显减弱；"
            f"如果没有减弱，命题需要修改。最小判别设计草案：在有、无该原因的两段相近时期（或两组相近对象）中各记录「{t}」，"
            f"其余条件保持一致；样本量与时长：待补。",
            "hypothesis",
            "如果这个对照做出来两段没有差别，你会修改命题的哪一部分？",
            "先说清什么结果会改判，命题才从直觉变成可检验的形式。",
        )
    # what the person observed or counted backs the prediction; it is not a premise they assumed
    lead = "with what you observed" if observed else "taking your premise"
    cond = f' ({lead}: "{basis}")' if basis and observed else f' ({lead} "{basis}")' if basis else ""
    cond = f' (watching your worry: "{basis}")' if worried else cond
    return (
        f'Observable prediction{cond}: if "{prop}" holds, then removing the named cause while keeping everything '
        f'else the same should clearly weaken "{t}"; if it does not, the proposition needs revising. Minimal '
        f'design draft: record "{t}" in two comparable periods or groups, one with and one without the cause, '
        "other conditions held equal; sample size and duration: to be filled in.",
        "hypothesis",
        "If this comparison showed no difference, which part of your proposition would you revise?",
        "Saying in advance which result changes your mind turns an intuition into a testable form.",
    )


def _alternative(inp: TurnInputs, zh: bool) -> tuple[str, str, str, str]:
    counted = any(classify_answer(a) == "evidence" for a in inp.assumptions)
    pool = fitting(ALTERNATIVES["zh" if zh else "en"], counted)
    alt = pool[inp.variant % len(pool)]
    t = inp.term
    if inp.intent == "example":
        if zh:
            return (
                f"举个区分办法：找一段{alt.split('（')[0]}没有发生的时期，看「{t}」是否仍然出现。仍出现，竞争解释被削弱；"
                f"消失，两个解释都还站得住。",
                "suggestion",
                "你的经历里有没有这样一段时期可以拿来对照？",
                "有这样的时期，就能在不做新实验的情况下先粗分两个解释。",
            )
        return (
            f'One way to tell them apart: find a period without {alt.split(" (")[0]} and see whether "{t}" still '
            "shows up. If it does, the competing explanation weakens; if it disappears, both still stand.",
            "suggestion",
            "Is there such a period in your experience that could serve as the comparison?",
            "Such a period lets us roughly separate the two explanations without a new experiment.",
        )
    if zh:
        return (
            f"竞争解释：同样的现象也可能来自{alt}。两者的预测不同：按你的命题，去掉原因后「{t}」会减弱；"
            f"按竞争解释，只要那个因素还在，「{t}」就不会减弱。可区分点：看那个因素不变而原因去掉时现象是否还在。"
            f"这可以修补：在命题里写明比较时保持该因素不变。",
            "suggestion",
            "在你的经历里，有没有那个因素没变、现象却同样出现的情况？",
            "有，竞争解释被削弱；没有，两个解释目前无法区分，需要记入待检验项。",
        )
    return (
        f"Competing explanation: the same pattern could come from {alt}. The two predict differently: by your "
        f'proposition, removing the cause weakens "{t}"; by the alternative, "{t}" stays as long as that factor '
        "stays. Where they part: whether the pattern survives when that factor is held fixed and the cause removed. "
        "This can be repaired: state in the proposition that the comparison holds that factor fixed.",
        "suggestion",
        "In your experience, was there a time when that factor stayed the same and the pattern still appeared?",
        "If yes, the alternative weakens; if not, the two cannot be told apart yet and go on the list to test.",
    )


def _reflection(inp: TurnInputs, zh: bool) -> tuple[str, str, str, str]:
    kept = bare_proposition(inp.proposition)
    # A slot with nothing in it says so in words: quoting a placeholder ("the alternative "none yet"
    # cannot be ruled out") read as if the person had said it.
    if zh:
        revise = f"补上预测「{excerpt(sharpest(inp.predictions), 30)}」" if inp.predictions else "还缺一个可检验的预测"
        open_alt = (
            f"竞争解释「{excerpt(inp.alternatives[-1], 30)}」尚不能排除" if inp.alternatives else "还没有提出竞争解释"
        )
        return (
            f"当前状态（一种判读，不是结论）：保留——「{kept}」作为待验证假说；修改——{revise}；未决——{open_alt}。",
            "judgement",
            "按这三段，你决定保留、修改还是暂时搁置这个命题？",
            "处置由你来定，它决定下一步是设计验证、改写命题还是先查证。",
        )
    revise = (
        f'add the prediction "{excerpt(sharpest(inp.predictions), 30)}"'
        if inp.predictions
        else "a testable prediction is still missing"
    )
    open_alt = (
        f'the alternative "{excerpt(inp.alternatives[-1], 30)}" cannot be ruled out yet'
        if inp.alternatives
        else "no competing explanation has been named yet"
    )
    return (
        f'Current state (a reading, not a conclusion): keep — "{kept}" as a hypothesis to test; revise — '
        f"{revise}; undecided — {open_alt}.",
        "judgement",
        "Given these three parts, do you keep, revise or set aside the proposition for now?",
        "The disposition is yours; it decides whether the next step is a validation design, a rewrite or a check.",
    )


def offline_turn(inp: TurnInputs) -> TurnOutput:
    """The offline engine's turn for ``inp.role`` (deterministic)."""
    zh = inp.lang == "zh"
    writer = {
        "concept_clarifier": _clarifier,
        "premise_evidence_examiner": _premises,
        "implication_validator": _implication,
        "alternative_explorer": _alternative,
        "reflection_facilitator": _reflection,
    }[inp.role]
    # A plan is not a claim about what happened: its premises, prediction and rivals are a plan's.
    planned = plan_turn(inp, zh) if inp.kind == "plan" else kind_turn(inp, zh)
    contribution, source, question, why = planned or writer(inp, zh)
    if inp.evidence_note:
        contribution = f"{inp.evidence_note} {contribution}"
    return TurnOutput(response=response_for(inp), contribution=contribution, source=source, question=question, why=why)
