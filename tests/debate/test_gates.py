"""The maturity gate, the ladder's choices and the stop rules as pure functions of the session."""

from __future__ import annotations

from autodidact.debate import gates, moderator
from autodidact.debate.cues import detect_signals, judge_mode, parse_command, parse_depth, parse_gap_decision
from autodidact.debate.projection import replay

from .test_checker import answer, ask, base


def test_the_raw_gate_holds_p3_until_two_development_signals() -> None:
    b = base()
    t = ask(b, "concept_clarifier", "P1")
    answer(b, t, "主观感受", ("QUESTION_SHARPENED",))
    b.add("STOPPED_QUESTION", {"rule": "S3", "obstacle": "unexamined_premise"})
    session = replay(b.events)
    assert session is not None
    idea = session.idea()
    assert idea.maturation == "RAW" and gates.development_count(session, "i1") == 1
    assert not gates.evaluative_allowed(session, idea)
    held = moderator.choose(session)
    assert held.trigger != "P3" and "预测要等想法更成形" in held.reason  # said plainly, no rule id
    # ALTERNATIVE_ADDED does not count towards the quota
    t = ask(b, "alternative_explorer", "P4")
    answer(b, t, "也可能是别的原因", ("ALTERNATIVE_ADDED",))
    session = replay(b.events)
    assert session is not None and moderator.choose(session).trigger != "P3"
    t = ask(b, "alternative_explorer", "P4")
    answer(b, t, "区别在于那一周", ("DISCRIMINATION_ADDED",))
    session = replay(b.events)
    assert session is not None
    assert gates.next_maturity(session, session.idea()) == "DEVELOPING"
    assert moderator.choose(session).trigger == "P3"


def test_ladder_order_and_repeat_gives_examples() -> None:
    b = base()
    session = replay(b.events)
    assert session is not None
    first = moderator.choose(session)
    assert (first.trigger, first.role, first.intent) == ("P1", "concept_clarifier", "readings")
    t = ask(b, "concept_clarifier", "P1")
    b.events[-3]["payload"]["obstacle"] = "undefined_concept"
    answer(b, t, "不知道")
    session = replay(b.events)
    assert session is not None
    again = moderator.choose(session)
    assert again.role == "concept_clarifier" and again.intent == "example"


def test_stop_rules() -> None:
    b = base("quick")
    for _ in range(2):
        t = ask(b, "concept_clarifier", "P1")
        answer(b, t, "嗯")
    session = replay(b.events)
    assert session is not None
    stop = gates.stop_after_answer(session, "undefined_concept")
    assert stop is not None and (stop.reason, stop.rule) == ("NO_PROGRESS", "S1")
    b = base("quick")
    for signal in ("QUESTION_SHARPENED", "PREMISE_SURFACED", "ALTERNATIVE_ADDED", "QUESTION_SHARPENED"):
        t = ask(b, "concept_clarifier", "P1")
        answer(b, t, f"回答{signal}", (signal,))
    session = replay(b.events)
    assert session is not None
    stop = gates.stop_after_answer(session, "x")
    assert stop is not None and (stop.reason, stop.rule) == ("BUDGET_EXHAUSTED", "S5")
    assert gates.BUDGETS["deep"].max_events == 1200 and gates.BUDGETS["quick"].max_active_seconds == 600


def test_cues_in_both_languages() -> None:
    assert judge_mode("我发现用AI写代码之后，我反而更累了")[0] == "explore"
    assert judge_mode("远程办公会降低创造力，因为少了偶遇")[0] == "examine"
    assert judge_mode("Why do I only focus the day before a deadline?")[0] == "explore"
    assert judge_mode("Remote work causes burnout")[0] == "examine"
    assert parse_depth("你定吧") == (None, "delegated")
    assert parse_depth("you decide") == (None, "delegated")
    assert parse_depth("按推荐") == (None, "recommended")
    assert parse_depth("深度") == ("deep", "chosen") and parse_depth("quick please") == ("quick", "chosen")
    assert parse_command("暂停一下") is not None and parse_command("暂停一下").kind == "PAUSE"  # type: ignore[union-attr]
    assert parse_command("太快了").value == "deep"  # type: ignore[union-attr]
    assert parse_command("switch to examine").value == "examine"  # type: ignore[union-attr]
    assert parse_command("what do you think about it?").kind == "QUESTION"  # type: ignore[union-attr]
    assert parse_command("我说的是主观感受") is None
    assert parse_gap_decision("范围改成 只查笔记") == ("CHANGE", "只查笔记")
    assert parse_gap_decision("不用查了")[0] == "REJECT" and parse_gap_decision("yes")[0] == "CONFIRM"
    assert detect_signals("我说的是主观感受，相比以前", "CLARIFICATION", []) == ["QUESTION_SHARPENED"]
    assert detect_signals("不知道", "CLARIFICATION", []) == []
    assert detect_signals("same answer", "CLARIFICATION", ["Same  answer"]) == []
    assert "ALTERNATIVE_ADDED" in detect_signals("Alternatively it is the budget", "COMPARISON", [])
