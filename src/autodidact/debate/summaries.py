"""Checkpoints and stage summaries: the session summary and validation plan templates (zh/en).

Why templates with a ban list: a summary is where a discussion is most tempted to declare victory.
It records keep / revise / undecided, premises, predictions, competing explanations, open questions
and deferred obstacles, and never says a proposition is proven — that is for evidence and tests.
A validation plan is only written once the session reached P3, and is marked as an unexecuted draft.
"""

from __future__ import annotations

import re
from typing import NotRequired, TypedDict, TypeVar

from autodidact.debate import cues, gates
from autodidact.debate.answer_kinds import classify as classify_answer
from autodidact.debate.plan_texts import bare_proposition, without_frame
from autodidact.debate.proposition import read as read_proposition
from autodidact.debate.session import Session
from autodidact.debate.templates import excerpt, sharpest
from autodidact.jsontypes import JSONMapping, JSONValue

_V = TypeVar("_V")

PROVEN_WORDS = (
    "已证实", "结论成立", "已被证明", "得到证明", "证明了", "已经证明", "确证",
    "proven", "proved", "is confirmed", "conclusively", "established fact",
)  # fmt: skip

DEPTH_NAMES = {"zh": {"quick": "快速", "standard": "标准", "deep": "深度"}, "en": {}}
CLOSING = {
    "zh": "本小结只记录讨论状态，命题真伪留待证据与检验。",
    "en": (
        "This summary records the state of the discussion; whether the proposition holds is left to evidence and tests."
    ),
}


def claims_proven(text: str) -> str | None:
    """The first proven-claim word in ``text``, if any. English words count whole: "approved" in a
    person's proposition about pull requests is no "proved" (a trial's session failed DC09 on it)."""
    low = text.lower()
    for word in PROVEN_WORDS:
        if word.isascii() and re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", low):
            return word
        if not word.isascii() and word in low:
            return word
    return None


_SCOPE_NOTE = re.compile(r"[（(](?:scope|范围)[:：]\s*([^()（）]+)[)）]")
_CHANGE_NOTE = re.compile(r"[（(](?:change|改动)[:：]\s*([^()（）]+)[)）]")


_SIGN_OFF = re.compile(r"就这样|先这样|我先去|that'?s it\b|i'?ll go\b|for now, i'?ll\b|let'?s leave it", re.I)


def _after_closing(session: Session, zh: bool) -> list[str]:
    """Next steps for a closed session: test it, look for evidence on its weakest premise, or think on."""
    version = session.idea().current
    out: list[str] = []
    if gates.reached_p3(session) and version.predictions:
        out.append(
            "按 summaries/ 里的验证计划草案去检验" if zh else "carry out the draft validation plan in summaries/"
        )
    # a premise worth researching: not a hedge or a remark about the talk kept as one
    worth = [
        a
        for a in version.assumptions
        if not cues.has_any(a, cues.DONT_KNOW)
        and not cues.about_the_talk(a)
        and "?" not in a
        and "？" not in a
        # what the world may or may not bear out: not a test, a correction, the person's own data or a
        # sign-off ("就这样，我先去记录数据" was offered as a research topic, as were test clauses)
        and classify_answer(a, learned=False) in {"mechanism", "definition", "example", "other"}
        and not cues.states_decision(a)
        and not _SIGN_OFF.search(a)
    ]
    if worth:
        premise = excerpt(worth[-1], 50)
        out.append(
            f'查证最弱的前提：autodidact research "{premise}"'
            if zh
            else f'look for evidence on the weakest premise: autodidact research "{premise}"'
        )
    wording = bare_proposition(version.proposition, 60)
    out.append(
        f'就这个命题开一场新讨论：autodidact debate start "{wording}"'
        if zh
        else f'start a new session on it: autodidact debate start "{wording}"'
    )
    return out


def _after_budget(session: Session, zh: bool) -> list[str]:
    """What a person can do once the rounds of the chosen depth are used: raise it, or close."""
    deeper = {"quick": "standard", "standard": "deep"}.get(session.execution.depth or "")
    close = "运行 autodidact debate close 结束并归档" if zh else "close the session: autodidact debate close"
    if deeper is None:
        return [close, "就修改后的命题开一场新讨论" if zh else "start a new session on the revised proposition"]
    raise_it = (
        f"说「改成{'深度' if deeper == 'deep' else '标准'}」扩大轮次上限，再回复继续"
        if zh
        else f"say 'switch to {deeper}' for more rounds, then reply to go on"
    )
    return [raise_it, close]


def _lower_first(text: str) -> str:
    """ "narrowed to only the platform team": a capital the person's sentence opened with, mid-sentence."""
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


class CheckpointSummary(TypedDict):
    """The structured summary a ``CHECKPOINT`` event carries (its ``summary``)."""

    stop_reason: str
    rule: str
    obstacle: str
    maturation: str
    reached_p3: bool
    kept: str
    disposition: str
    revised: str
    test: str
    undecided: list[str]
    open_questions: list[str]
    stopped_questions: list[JSONValue]
    deferred_obstacles: list[JSONValue]
    options: list[str]
    closing: str
    note: NotRequired[str]  # what the turn would have opened with, when a checkpoint cut it short


def stage_summary(session: Session, *, stop_reason: str, rule: str, obstacle: str) -> CheckpointSummary:
    """The structured checkpoint summary stored in the CHECKPOINT event."""
    zh = session.language == "zh"
    idea = session.idea()
    version = idea.current
    reached = gates.reached_p3(session)
    base = idea.stage_base(session.stage).proposition
    plan = read_proposition(base, session.language).kind == "plan"
    # a plan is kept as what it is, without 「我们在犹豫要不要」 before it (a trial's checkpoint kept the frame)
    kept = excerpt(_CHANGE_NOTE.sub("", without_frame(version.proposition) if plan else version.proposition), 80)
    revisions: list[str] = []
    narrowed = _SCOPE_NOTE.search(version.proposition)
    if narrowed:
        revisions.append(
            f"范围收窄为「{excerpt(narrowed.group(1), 40)}」"
            if zh
            else f"narrowed to {_lower_first(excerpt(narrowed.group(1), 40))}"
        )
    changed = _CHANGE_NOTE.search(version.proposition)
    if changed:
        # a change said with a keep ("Keep it, but log the weekend rentals apart") is a revision too
        revisions.append(excerpt(changed.group(1), 40))
    if not revisions and version.proposition != base and not version.proposition.startswith(base):
        # the person's own rewording is what the idea is now: "Keep: <the original>" next to "Revise:
        # <new wording>" contradicted "I no longer keep the original sentence" (two trials)
        revisions.append(f"由「{excerpt(base, 50)}」改写而来" if zh else f"reworded from: {excerpt(base, 50)}")
    if not revisions and version.disposition == "REVISE":
        # "Revise." alone decides to revise: "Revise: none" beside it read as the decision lost (a trial)
        revisions.append(
            "你选择修改，新的说法还没写下" if zh else "you chose to revise; the new wording is not written yet"
        )
    revised = ("；" if zh else "; ").join(revisions) or ("无" if zh else "none")
    # A stated change condition ("if I skip coffee and still sleep badly, I'd drop it") is how the idea
    # will be tested, not a revision of it: it gets its own slot.
    test = excerpt(sharpest(version.predictions), 80) if version.predictions else ""
    # a plan's rival is another way to its goal: "no competing explanation" read as the wrong template
    # beside a plan (docs/debate.md, "A ninth trial")
    none_yet = (
        ("还没有比较过别的做法" if plan else "竞争解释尚未提出")
        if zh
        else "no other way compared yet"
        if plan
        else "no alternative yet"
    )
    undecided = [excerpt(a, 60) for a in version.alternatives] or [none_yet]
    deferred = [n["text"] for n in session.notes if n.get("kind") == "DEFERRED_OBSTACLE"]
    stopped = [q.get("question") or q.get("obstacle") for q in session.stopped_questions]
    if stop_reason == "USER_CLOSED":
        # Closed: continuing or closing it would be wrong; what the person can do with the result is not.
        options = _after_closing(session, zh)
    elif stop_reason == "BUDGET_EXHAUSTED":
        # A reply is refused until the limit rises, so it is not offered; at "deep" there is no more to raise.
        options = _after_budget(session, zh)
    elif zh:
        options = ["一句话回复继续讨论", "说「改成深度」扩大轮次上限", "运行 autodidact debate close 结束并归档"]
    else:
        options = ["reply to continue the discussion", "say 'switch to deep' for more rounds", "close the session"]
    raisable = stop_reason not in {"USER_CLOSED", "BUDGET_EXHAUSTED"}
    if session.execution.depth == "deep" and raisable and len(options) == 3:
        options = [options[0], options[2]]  # already at the deepest depth: nothing to raise
    return {
        "stop_reason": stop_reason,
        "rule": rule,
        "obstacle": obstacle,
        "maturation": idea.maturation,
        "reached_p3": reached,
        "kept": kept,
        "disposition": version.disposition,
        "revised": revised,
        "test": test,
        "undecided": undecided,
        "open_questions": list(session.open_questions),
        "stopped_questions": stopped,
        "deferred_obstacles": deferred,
        "options": options,
        "closing": CLOSING["zh" if zh else "en"],
    }


# What a person reads for each maturation level (the enum stays in the event log and --json).
MATURITY_WORDS = {
    "en": {"RAW": "a first intuition", "DEVELOPING": "taking shape", "TESTABLE": "testable"},
    "zh": {"RAW": "初步直觉", "DEVELOPING": "正在成形", "TESTABLE": "可以检验"},
}


# Why a checkpoint came, in plain words (the stop reason and rule id stay in the event log).
STOP_WORDS = {
    "en": {
        "USER_CLOSED": "you closed the session", "CHECKPOINT_REACHED": "this stage is complete",
        "NO_PROGRESS": "the last two answers did not move the idea, so let's take stock",
        "BUDGET_EXHAUSTED": "we used the rounds this depth allows", "PAUSED": "paused",
        "USER_SWITCHED_MODE": "you switched the mode",
    },
    "zh": {
        "USER_CLOSED": "你关闭了会话", "CHECKPOINT_REACHED": "本阶段已完成",
        "NO_PROGRESS": "最近两个回答没有推进想法，先盘点一下",
        "BUDGET_EXHAUSTED": "本档深度的轮次已用完", "PAUSED": "已暂停", "USER_SWITCHED_MODE": "你切换了模式",
    },
}  # fmt: skip


def _bare(item: JSONValue) -> str:
    """An item of a joined list without its own end mark: 「…低。；还有…」 doubled the punctuation."""
    return str(item).rstrip("。.；;，, ")


# Said when the session never worked through predictions (no P3 turn): the idea is not called
# testable and no validation plan is written. A test the person named is no "no prediction yet": a
# trial read "no prediction" beside its own test and called the summary self-contradictory.
_NOT_YET = {
    "zh": {
        False: "本会话还没谈到预测：命题仍在发展中，尚未形成可检验形式或最小验证方案。",
        True: "你给出了一个检验（见上），但本会话还没有推敲它的预测与改判结果，所以它还不是验证方案；"
        "下一步是说清什么结果会让你放弃这个想法。",
    },
    "en": {
        False: "We have not reached predictions yet: the idea is still developing; no testable form or plan.",
        True: "You named a test (above), but the session has not yet worked through what it predicts and which "
        "result would change your mind, so it is not a validation plan yet; that is the next step.",
    },
}


def _items(summary: JSONMapping, key: str) -> list[JSONValue]:
    value = summary[key]
    if not isinstance(value, list):
        raise TypeError(f"summary {key} is not a list: {value!r}")
    return value


def _texts(summary: JSONMapping, key: str) -> list[str]:
    items = _items(summary, key)
    if not all(isinstance(item, str) for item in items):
        raise TypeError(f"summary {key} holds an item that is not a string")
    return [item for item in items if isinstance(item, str)]


def _stop_words(summary: JSONMapping, lang: str) -> JSONValue:
    reason = summary["stop_reason"]
    return STOP_WORDS[lang].get(reason, reason) if isinstance(reason, str) else reason


def checkpoint_text(summary: JSONMapping, lang: str) -> list[str]:
    """The lines shown to the person at a checkpoint, from the summary its ``CHECKPOINT`` event carries
    (what :func:`stage_summary` wrote, read back as JSON)."""
    zh = lang == "zh"
    lines = []
    if zh:
        lines.append(f"检查点：{_stop_words(summary, 'zh')}")
        if summary.get("note"):
            lines.append(str(summary["note"]))
        test = f"｜检验：{summary['test']}" if summary.get("test") else ""
        # set aside by the person: 「保留：…」 beside their 「搁置」 read as the decision lost (a trial)
        kept = "搁置" if summary.get("disposition") == "SET_ASIDE" else "保留"
        lines.append(
            f"{kept}：{summary['kept']}｜修改：{summary['revised']}{test}｜"
            f"未决：{'；'.join(_bare(u) for u in _items(summary, 'undecided'))}"
        )
        if not summary["reached_p3"]:
            lines.append(_NOT_YET["zh"][bool(summary.get("test"))])
        if summary["open_questions"]:
            lines.append("未决问题：" + "；".join(_texts(summary, "open_questions")))
        if summary["options"]:
            lines.append("可选：" + "；".join(f"{i}. {o}" for i, o in enumerate(_items(summary, "options"), start=1)))
    else:
        lines.append(f"Checkpoint: {_stop_words(summary, 'en')}")
        if summary.get("note"):
            lines.append(str(summary["note"]))
        test = f" | Test: {summary['test']}" if summary.get("test") else ""
        undecided = "; ".join(_bare(u) for u in _items(summary, "undecided"))
        kept = "Set aside" if summary.get("disposition") == "SET_ASIDE" else "Keep"
        lines.append(f"{kept}: {summary['kept']} | Revise: {summary['revised']}{test} | Undecided: {undecided}")
        if not summary["reached_p3"]:
            lines.append(_NOT_YET["en"][bool(summary.get("test"))])
        if summary["open_questions"]:
            lines.append("Open questions: " + "; ".join(_texts(summary, "open_questions")))
        if summary["options"]:
            lines.append(
                "Options: " + "; ".join(f"{i}. {o}" for i, o in enumerate(_items(summary, "options"), start=1))
            )
    lines.append(str(summary["closing"]))
    return lines


def _or(value: _V | None, default: _V) -> _V:
    """A summary field the checkpoint gave (even empty), else what the page shows without it."""
    return default if value is None else value


def session_summary_md(session: Session) -> str:
    """The session summary template, filled."""
    zh = session.language == "zh"
    idea = session.idea()
    version = idea.current
    summary = session.summary
    ex = session.execution
    depth = DEPTH_NAMES["zh"].get(ex.depth or "", ex.depth or "?") if zh else (ex.depth or "?")
    chose = (
        ("用户自选" if ex.user_chose else "用户未自行选择：按推荐")
        if zh
        else ("chosen" if ex.user_chose else "not chosen by the person: recommended")
    )
    usage = ex.usage
    max_rounds = ex.budget.max_rounds if ex.budget else 0
    replies = sum(1 for r in session.rounds if r.user_answer)
    L: list[str] = []
    if zh:
        L += [f"# 阶段小结：{session.session_id}", ""]
        mode_name = "探索" if session.mode == "explore" else "推敲"
        L.append(f"- 模式：{mode_name}｜深度：{depth}（{chose}）｜成熟度：{_maturity(_shown_level(session), 'zh')}")
        L.append(f"- 停止原因：{_stopped(session.stop_reason, summary.obstacle, 'zh')}")
        # rounds count against the depth's limit, not every reply (a trial read "4 / 8" after seven
        # replies as a miscount)
        L.append(
            f"- 实质轮次：{usage.rounds} / {max_rounds}（计入深度上限的轮次；你共回答了 {replies} 个问题）；"
            f"评估批次：{usage.review_batches}"
        )
        L += ["", f"## 命题（第 {version.version} 版，待验证假说）", "", version.proposition, ""]
        L += [
            "## 保留 / 修改 / 未决",
            "",
            f"- {'搁置' if version.disposition == 'SET_ASIDE' else '保留'}：{_or(summary.kept, '—')}",
            f"- 修改：{_or(summary.revised, '—')}",
        ]
        L += [f"- 未决：{'；'.join(_or(summary.undecided, [])) or '—'}", "", "## 关键前提（用户观察）", ""]
        L += [f"- {a}" for a in version.assumptions] or ["- 尚未浮出"]
        if session.examples:  # cases told of, kept apart from the premises
            L += ["", "## 你举的实例", ""] + [f"- {e}" for e in session.examples]
        L += ["", "## 预测与改变结论的条件（待验证假说）", ""]
        L += [f"- {p}" for p in version.predictions] or ["- 尚无"]
        L += ["", "## 竞争解释", ""] + ([f"- {a}" for a in version.alternatives] or ["- 尚无"])
        L += ["", "## 未决问题（含未执行的查证）", ""] + ([f"- {q}" for q in session.open_questions] or ["- 无"])
        stopped = _or(summary.stopped_questions, []) + _or(summary.deferred_obstacles, [])
        L += ["", "## 挂起与暂缓的障碍", ""] + ([f"- {q}" for q in stopped] or ["- 无"])
        if not _or(summary.reached_p3, gates.reached_p3(session)):
            L += ["", _NOT_YET["zh"][bool(version.predictions)]]
        L += ["", "## 下一步（可选动作）", ""] + [f"{i}. {o}" for i, o in enumerate(_or(summary.options, []), 1)]
        L += ["", CLOSING["zh"], ""]
    else:
        L += [f"# Stage summary: {session.session_id}", ""]
        L.append(
            f"- Mode: {session.mode} | depth: {depth} ({chose}) | maturity: {_maturity(_shown_level(session), 'en')}"
        )
        L.append(f"- Stop reason: {_stopped(session.stop_reason, summary.obstacle, 'en')}")
        L.append(
            f"- Substantive rounds: {usage.rounds} / {max_rounds} (rounds that count against the depth's limit; "
            f"you answered {replies} questions); review batches: {usage.review_batches}"
        )
        L += ["", f"## Proposition (version {version.version}, a hypothesis to test)", "", version.proposition, ""]
        kept_label = "Set aside" if version.disposition == "SET_ASIDE" else "Keep"
        L += ["## Keep / revise / undecided", "", f"- {kept_label}: {_or(summary.kept, '—')}"]
        L += [
            f"- Revise: {_or(summary.revised, '—')}",
            f"- Undecided: {'; '.join(_or(summary.undecided, [])) or '—'}",
        ]
        L += ["", "## Key premises (user observation)", ""]
        L += [f"- {a}" for a in version.assumptions] or ["- none surfaced yet"]
        if session.examples:  # cases told of, kept apart from the premises
            L += ["", "## Examples you gave", ""] + [f"- {e}" for e in session.examples]
        L += ["", "## Predictions and what would change the conclusion (hypotheses)", ""]
        L += [f"- {p}" for p in version.predictions] or ["- none yet"]
        L += ["", "## Competing explanations", ""] + ([f"- {a}" for a in version.alternatives] or ["- none yet"])
        L += ["", "## Open questions (including unexecuted checks)", ""]
        L += [f"- {q}" for q in session.open_questions] or ["- none"]
        stopped = _or(summary.stopped_questions, []) + _or(summary.deferred_obstacles, [])
        L += ["", "## Parked and deferred obstacles", ""] + ([f"- {q}" for q in stopped] or ["- none"])
        if not _or(summary.reached_p3, gates.reached_p3(session)):
            L += ["", _NOT_YET["en"][bool(version.predictions)]]
        L += ["", "## Next (options)", ""] + [f"{i}. {o}" for i, o in enumerate(_or(summary.options, []), 1)]
        L += ["", CLOSING["en"], ""]
    return "\n".join(L)


def validation_plan_md(session: Session) -> str | None:
    """The minimal validation plan — only after P3 with a prediction; an unexecuted draft."""
    idea = session.idea()
    version = idea.current
    if not gates.reached_p3(session) or not version.predictions:
        return None
    zh = session.language == "zh"
    alts = version.alternatives
    # What the person said would change their mind, in their words, when it names an amount or a
    # period ("if the difference is under 10 minutes", 「差不到10分钟」, "for two weeks"): a plan that
    # still says "threshold: to be filled in" after they gave one lost what they said.
    stated = [p for p in version.predictions if _AMOUNT.search(p) and _CONDITION.search(p)]
    condition = stated[-1] if stated else ""
    kind = read_proposition(idea.stage_base(session.stage).proposition, session.language).kind
    design = _DESIGNS.get(kind, _DESIGNS["causal"])["zh" if zh else "en"]
    # the tests and decisions, not every answer: "over the last 8 weeks" in evidence, "I said it twice"
    # in a complaint are no sizes of the plan (a trial's plan listed every number it had heard)
    sizes = sizes_said([*version.predictions, *(str(d.get("text", "")) for d in session.decisions)])
    if zh:
        return "\n".join(
            [
                f"# 最小验证方案（草案，未执行）：{session.session_id}",
                "",
                f"- 命题（待验证假说，第 {version.version} 版）：{version.proposition}",
                f"- 可观察预测：{sharpest(version.predictions)}",
                design,
                f"- 改变结论的条件（你说的）：{condition}"
                if condition
                else "- 改变结论的条件：预测的差别没有出现，或差别小于事先约定的阈值（阈值：待补）",
                f"- 竞争解释与区分点：{'；'.join(alts) if alts else '待补'}",
                f"- 关键前提：{'；'.join(version.assumptions) if version.assumptions else '待补'}",
                f"- 样本量、时长、测量工具（你说的）：{'；'.join(sizes)}"
                if sizes
                else "- 样本量、时长、测量工具：待补",
                "",
                "本方案是设计草案，不是已执行的结果。",
                "",
            ]
        )
    return "\n".join(
        [
            f"# Minimal validation plan (draft, not executed): {session.session_id}",
            "",
            f"- Proposition (hypothesis, version {version.version}): {version.proposition}",
            f"- Observable prediction: {sharpest(version.predictions)}",
            design,
            f"- Change condition (your words): {condition}"
            if condition
            else "- Change condition: the predicted difference does not appear, or is below a threshold fixed in "
            "advance (threshold: to be filled in)",
            f"- Competing explanations and where they part: {'; '.join(alts) if alts else 'to be filled in'}",
            f"- Key premises: {'; '.join(version.assumptions) if version.assumptions else 'to be filled in'}",
            f"- Sample size, duration, instruments (your words): {'; '.join(sizes)}"
            if sizes
            else "- Sample size, duration, instruments: to be filled in",
            "",
            "This plan is a design draft, not an executed result.",
            "",
        ]
    )


# A change condition is said as one ("if …", "less than …", 「如果…」「不到…」), not only with a number:
# "I logged 6.1 against 7.2 hours" is evidence, not what would change the person's mind.
# The validation plan's design per kind of proposition: a comparison runs both sides, an observation
# counts again, a plan is tried; only a causal claim compares with and without its cause.
_DESIGNS = {
    "causal": {
        "en": "- Discriminating design: record the same measure with and without the cause, all else held equal",
        "zh": "- 判别设计：同一对象在有、无该原因的两种条件下记录同一方式记下的结果，其余条件保持一致",
    },
    "comparison": {
        "en": "- Comparing design: run both on the same task under the same conditions and record your criterion "
        "for each",
        "zh": "- 比较设计：同一个任务、同样条件下两者各做一次，按你选的标准分别记录",
    },
    "observation": {
        "en": "- Counting design: count it the same way, at the same time, for the next few weeks",
        "zh": "- 计数设计：接下来几周按同样的方式、在同样的时间点再数",
    },
    "plan": {
        "en": "- Trial design: record the chosen measure under the current way, then for as long under the new one, "
        "and note one sign of the loss you fear",
        "zh": "- 试行设计：先按现在的做法记录选定的尺度，再按新做法试行同样长的时间并记录，同时记下担心的损失的迹象",
    },
}
_CONDITION = re.compile(
    r"\b(?:if|unless|less than|more than|fewer than|under|below|above|at least|at most|no more than)\b|"
    r"如果|要是|假如|一旦|低于|高于|超过|不到|少于|多于|至少|小于|大于",
    re.I,
)
_AMOUNT = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twice|half)\b|[一二三四五六七八九十两半]\s*[个周天月年次分小]",
    re.I,
)


def _shown_level(session: Session) -> object:
    """The level the summary names: "testable" only once predictions were worked through (a P3 turn),
    so the maturity line never contradicts the line that says they were not."""
    level = session.idea().maturation
    return "DEVELOPING" if str(level) == "TESTABLE" and not gates.reached_p3(session) else level


def _maturity(level: object, lang: str) -> str:
    """The maturation level in words (the enum stays in the event log)."""
    return MATURITY_WORDS[lang].get(str(level), str(level).lower())


# The obstacle a stage stopped at, in the session's language (the enum stays in the event log).
OBSTACLE_WORDS = {
    "en": {
        "undefined_concept": "a core term was still undefined",
        "unexamined_premise": "a premise was still unexamined",
        "no_prediction": "no prediction yet",
        "single_explanation": "no competing explanation examined yet",
        "review_pending": "a review was pending",
        "stage_complete": "stage complete",
    },
    "zh": {
        "undefined_concept": "核心概念尚未定义",
        "unexamined_premise": "前提尚未检验",
        "no_prediction": "尚无预测",
        "single_explanation": "尚未检验竞争解释",
        "review_pending": "评估尚未进行",
        "stage_complete": "阶段完成",
    },
}


def _stopped(reason: str | None, obstacle: object, lang: str) -> str:
    """Why the stage stopped, in words: no rule id, no enum (they stay in the event log)."""
    said = STOP_WORDS[lang].get(reason or "", (reason or "—").lower().replace("_", " "))
    if obstacle and obstacle != "—":
        words = OBSTACLE_WORDS["zh" if lang == "zh" else "en"]
        what = words.get(str(obstacle), "" if lang == "zh" else str(obstacle).replace("_", " "))
        if not what:
            return said
        return f"{said}（{what}）" if lang == "zh" else f"{said} ({what})"
    return said


# How many and how long, as a person says it: "two fingerpicking pieces", "the next six weeks",
# "20 or so streets", 「记两周」「六篇」. Minutes and hours are doses of the cause, not the plan's size.
_NUMBER = r"(?:\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty)"
_SIZE_EN = re.compile(
    rf"\b{_NUMBER}(?:\s+or\s+so)?(?:\s+[a-z][a-z-]+)?\s+"
    r"(?:weeks?|days?|months?|years?|sprints?|sessions?|pieces?|songs?|streets?|people|persons|participants|"
    r"students|users|teams?|runs?|trials?|items?|texts?|articles?|samples?|groups?|classes|households?)\b",
    re.I,
)
_SIZE_ZH = re.compile(r"[一二两三四五六七八九十百\d]+\s*(?:个)?(?:周|星期|天|个月|月|年|人|篇|首|组|户|家)")


def sizes_said(texts: list[str]) -> list[str]:
    """The sizes and durations the person named, in their words and first-said order, each once.

    Why: a validation plan that says "sample size and duration: to be filled in" after the person
    said "two pieces over the next six weeks" lost what they said (a trial)."""
    out: list[str] = []
    for text in texts:
        for m in [*_SIZE_EN.finditer(text), *_SIZE_ZH.finditer(text)]:
            phrase = " ".join(m.group(0).split())
            if phrase.casefold() not in {o.casefold() for o in out}:
                out.append(phrase)
    return out[:6]
