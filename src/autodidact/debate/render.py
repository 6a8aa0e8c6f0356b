"""Rendering events as the conversation a person reads (plain text; the CLI adds colour).

Why from events: the turn printed after a reply and the transcript shown later are the same
function of the same events, so a recovered session prints exactly what an uninterrupted one would.
"""

from __future__ import annotations

import re
from typing import TypedDict

from autodidact.debate import summaries
from autodidact.debate.events import EventLine
from autodidact.debate.roles import ROLES
from autodidact.debate.session import Round, Session, approval_of, pending_turn
from autodidact.debate.summaries import MATURITY_WORDS
from autodidact.jsontypes import JSONMapping, JSONObject

_SKIP = frozenset({"跳过回应", "(no response)"})


def event_lines(event: EventLine, lang: str, *, with_user: bool) -> list[str]:
    """The lines one event contributes to the conversation (many events contribute none)."""
    zh = lang == "zh"
    kind, p = event["type"], event["payload"]
    if kind == "USER_INPUT":
        return [f"> {p.get('text', '')}"] if with_user else []
    if kind == "SELECTION_REASON":
        if p.get("field") == "mode_reason":
            return [str(p.get("value"))]
        if p.get("turn") is None or "field" in p:
            return []
        # The trigger's id (P1…) stays in the event log; the person reads why the question comes.
        if p.get("kind") == "CONFIGURATION":
            return ["", "配置问题" if zh else "Setting up"]
        reason = str(p.get("reason")).rstrip("。.")
        # A sentence, not a bracketed tag: "[a load-bearing premise…]" read as an internal label.
        return ["", f"这一轮要谈的：{reason}。" if zh else f"What this turn is about: {reason}."]
    if kind == "ROLE_RESPONSE":
        # Punctuation follows the session's language: 【…】 in Chinese, "Label:" in English.
        tag = f"【{p.get('label')}】" if zh else f"{p.get('label')}:"
        if p.get("turn") is None:
            if str(p.get("response")) in _SKIP:
                return []
            return [f"{tag}{p.get('response')}" if zh else f"{tag} {p.get('response')}"]
        # The protocol's skip marker ("(no response)") is for the event log: there was nothing to answer.
        response = str(p.get("response"))
        lines = [tag] if response in _SKIP else [response, tag]
        cite = p.get("citation")
        shown_label = _offline_label(str(p.get("source_label")), str(p.get("producer") or ""))
        if zh:
            source = f"（{shown_label}" + (f"；已有证据引用：{cite}" if cite else "") + "）"
        else:
            source = f" ({shown_label}" + (f"; existing evidence: {cite}" if cite else "") + ")"
        lines.append(f"{p.get('contribution')}{source}")
        return lines
    if kind == "QUESTION_ASKED":
        why = f"（为什么问：{p.get('why')}）" if zh else f"(why ask: {p.get('why')})"
        return [f"➤ {p.get('question')}", why]
    if kind == "CHECKPOINT":
        summary = p.get("summary")  # a dict: its payload model says so
        return ["", *summaries.checkpoint_text(summary, lang)] if isinstance(summary, dict) and summary else []
    if kind == "PAUSED":
        return ["已暂停；未答的问题保留。" if zh else "Paused; the open question is kept."]
    if kind == "STOPPED_QUESTION":
        # which question: a trial asked "Which question are you parking?" and got no answer
        asked = str(p.get("question") or "").strip().rstrip("?？")
        # a quote holds no quote: a follow-up that quotes the person ('You answered this with "…"; … Does
        # that change your answer?') is parked by its own last sentence (a trial nested three quotes)
        quoted = re.split(r"[\"”」]\s*[.。;；，,]?\s*", asked)
        if len(quoted) > 1:
            asked = quoted[-1].strip() or asked
        if not asked:
            return ["先搁置这个问题，之后再回来。" if zh else "Let's park this question and come back to it later."]
        if zh:
            return [f"先搁置「{asked}」这个问题，之后再回来。"]
        return [f'Let\'s park the question "{asked}" and come back to it later.']
    if kind == "DISAGREEMENT_ASSESSED":
        return []
    if kind == "IDEA_REVISED" and p.get("maturation"):
        word = MATURITY_WORDS["zh" if zh else "en"].get(str(p["maturation"]), str(p["maturation"]).lower())
        return [f"想法的成熟度：{word}" if zh else f"Where the idea stands: {word}"]
    return []


def render_events(events: list[EventLine], lang: str, *, with_user: bool = False) -> str:
    lines: list[str] = []
    # several maturity steps in one reply read as one: where the idea stands now (a trial saw two
    # "Where the idea stands" lines with different values in a row)
    steps = [
        i
        for i, e in enumerate(events)
        if e.get("type") == "IDEA_REVISED" and (e.get("payload") or {}).get("maturation")
    ]
    for index, event in enumerate(events):
        if index in steps[:-1]:
            continue
        lines.extend(event_lines(event, lang, with_user=with_user))
    return "\n".join(lines).strip("\n")


def transcript(events: list[EventLine], lang: str) -> str:
    """The whole conversation, the person's inputs included."""
    return render_events(events, lang, with_user=True)


class TurnJSON(TypedDict):
    """``debate start|reply --json``: the new turn and the state it leaves."""

    session_id: str
    state: str
    mode: str
    depth: str | None
    stop_reason: str | None
    turn: JSONObject | None
    text: str
    usage: JSONObject


def turn_json(session: Session, events: list[EventLine]) -> TurnJSON:
    """The machine form of a reply: the new turn and the state it leaves."""
    pending = session.pending_question
    current = session.round_by_turn(pending_turn(pending)) if pending and pending.get("turn") is not None else None
    return {
        "session_id": session.session_id,
        "state": session.state,
        "mode": session.mode,
        "depth": session.execution.depth,
        "stop_reason": session.stop_reason if session.state in {"CHECKPOINT", "CLOSED", "PAUSED"} else None,
        "turn": current.model_dump(mode="json") if current else None,
        "text": render_events(events, session.language),
        "usage": session.execution.usage.model_dump(),
    }


def briefing(session: Session, budget_line: str) -> list[str]:
    """The recovery briefing: at most ten lines, asking nothing new."""
    zh = session.language == "zh"
    pending = session.pending_question or {}
    answered = [r for r in session.rounds if r.question]
    last = answered[-1] if answered else None
    open_gaps = [g["gap_id"] for g in session.gap_requests if approval_of(g)["status"] == "PENDING"]
    items = [
        f"{'会话' if zh else 'session'} {session.session_id} {status_line(session)}",
        (f"当前问题：{pending.get('question')}" if zh else f"current question: {pending.get('question')}")
        if pending
        else ("当前无待答问题" if zh else "no open question"),
        _last_line(last, pending, zh),
        (f"你上次说的：{session.latest_user_input}" if zh else f"your last answer: {session.latest_user_input}"),
        (
            f"等你确认的查证：{len(open_gaps) or '无'}；未决问题：{len(session.open_questions)}"
            if zh
            else f"checks waiting for your go-ahead: {len(open_gaps) or 'none'}; open questions: "
            f"{len(session.open_questions)}"
        ),
        budget_line,
        (
            "可选：1. 回答当前问题  2. 暂停  3. 关闭并归档"
            if zh
            else "options: 1. answer the question  2. pause  3. close"
        ),
    ]
    return [" ".join(line.split())[:240] for line in items][:10]


def _last_line(last: Round | None, pending: JSONMapping, zh: bool) -> str:
    if last is None:
        return "尚无轮次" if zh else "no turn yet"
    same = pending.get("turn") == last.turn
    role = ROLES[last.role].name("zh" if zh else "en") if last.role in ROLES else last.role
    if zh:
        return f"上一轮：{role}（{'即当前问题' if same else last.question}）"
    return f"last turn: {role} ({'the current question' if same else last.question})"


# What a session's state and mode are called in the status line (the enums stay in --json).
STATE_WORDS = {
    "en": {"CONTEXT_RESOLUTION": "starting", "WAITING_DEPTH": "waiting for the depth", "DISCUSSING": "discussing",
           "WAITING_USER": "waiting for your answer", "INDEPENDENT_REVIEW": "under review",
           "WAITING_GAP_CONFIRMATION": "waiting for you to confirm a check", "WAITING_EVIDENCE": "checking evidence",
           "CHECKPOINT": "at a checkpoint", "PAUSED": "paused", "CLOSED": "closed",
           "explore": "explore mode", "examine": "examine mode"},
    "zh": {"CONTEXT_RESOLUTION": "开始中", "WAITING_DEPTH": "等待选择深度", "DISCUSSING": "讨论中",
           "WAITING_USER": "等待你的回答", "INDEPENDENT_REVIEW": "评估中", "WAITING_GAP_CONFIRMATION": "等待你确认查证",
           "WAITING_EVIDENCE": "查证中", "CHECKPOINT": "到达检查点", "PAUSED": "已暂停", "CLOSED": "已关闭",
           "explore": "探索模式", "examine": "推敲模式"},
}  # fmt: skip
DEPTH_WORDS = {"zh": {"quick": "快速", "standard": "标准", "deep": "深度"}}


def status_line(session: Session) -> str:
    """The session's state in words, for the end of `debate show`: "[waiting for your answer ·
    examine mode · standard · rounds 7/8, reviews 0/2]" (a fresh-eyes trial read "WAITING_USER" and
    "events 66/400" as internals)."""
    lang = "zh" if session.language == "zh" else "en"
    words = STATE_WORDS[lang]
    depth = str(session.execution.depth or "")
    parts = [words.get(str(session.state), str(session.state).lower()), words.get(session.mode, session.mode)]
    if depth:
        parts.append(DEPTH_WORDS.get(lang, {}).get(depth, depth))
    budget = session.execution.budget
    usage = session.execution.usage
    if budget is not None:
        rounds, reviews = f"{usage.rounds}/{budget.max_rounds}", f"{usage.review_batches}/{budget.max_review_batches}"
        parts.append(f"轮次 {rounds}，评估 {reviews}" if lang == "zh" else f"rounds {rounds}, reviews {reviews}")
    return "[" + " · ".join(parts) + "]"


def budget_line(session: Session) -> str:
    """What is left of the depth's limits, one line in words. Event counts and active seconds are
    internal limits (a trial read "events 18/120, active 0/600s" as noise); they stay in --json."""
    usage, budget = session.execution.usage, session.execution.budget
    zh = session.language == "zh"
    if budget is None:
        return "深度尚未选定" if zh else "depth not chosen yet"
    rounds, reviews = budget.max_rounds - usage.rounds, budget.max_review_batches - usage.review_batches
    if zh:
        return f"剩余：实质轮次 {max(rounds, 0)} 轮，评估 {max(reviews, 0)} 批"
    return f"left: {max(rounds, 0)} rounds, {max(reviews, 0)} review batches"


# What a person reads for an "AI" label when no model wrote the turn: the offline engine is rules and
# templates, and calling its output "AI judgement" claimed a model that was never asked (a trial).
_OFFLINE_LABELS = {
    "AI suggestion": "a suggestion from rules, no model",
    "AI judgement": "a judgement from rules, no model",
    "AI建议": "规则给出的建议，未用模型",
    "AI判断": "规则给出的判断，未用模型",
}


def _offline_label(label: str, producer: str) -> str:
    """The source label as shown: the stored label (a protocol value) unless rules wrote the turn."""
    if producer != "model" and label in _OFFLINE_LABELS:
        return _OFFLINE_LABELS[label]
    return label
