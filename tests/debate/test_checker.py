"""Each checker rule has a fixture that violates it, and the checker names the rule."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from autodidact.debate import gaps
from autodidact.debate.checker import RULES, check_events
from autodidact.debate.gates import budget_for

from .conftest import LogBuilder

ZH_TURN = {
    "label": "概念澄清者 · 视角切换",
    "response": "跳过回应",
    "contribution": "三种口径……",
    "source_label": "AI建议",
}
TYPES = {
    "concept_clarifier": "CLARIFICATION",
    "premise_evidence_examiner": "PREMISE_EVIDENCE",
    "implication_validator": "IMPLICATION",
    "alternative_explorer": "COMPARISON",
    "reflection_facilitator": "REFLECTION",
}


def base(depth: str | None = "standard") -> LogBuilder:
    b = LogBuilder()
    b.add("USER_INPUT", {"intent": "PROMPT", "text": "我觉得晨跑让我效率更高", "language": "zh"}, "user", "USER")
    if depth:
        b.field("execution", {"depth": depth, "selection_status": "CONFIRMED", "source": "USER_FLAG",
                              "budget": budget_for(depth).model_dump()})  # fmt: skip
    b.add("IDEA_REVISED", {"idea_id": "i1", "proposition": "晨跑让我效率更高"})
    return b


def ask(b: LogBuilder, role: str, trigger: str, *, question: str = "你指的是哪一种？", qtype: str | None = None,
        kind: str = "SUBSTANTIVE", turn_fields: dict[str, Any] | None = None) -> int:  # fmt: skip
    turn = sum(1 for e in b.events if e["type"] == "SELECTION_REASON" and e["payload"].get("turn")) + 1
    b.add("SELECTION_REASON", {"turn": turn, "kind": kind, "role": role, "question_type": qtype or TYPES[role],
                               "trigger": trigger, "obstacle": trigger, "idea_id": "i1"})  # fmt: skip
    b.add("ROLE_RESPONSE", {"turn": turn, **ZH_TURN, **(turn_fields or {})}, role, "ROLE_SWITCH")
    b.add("QUESTION_ASKED", {"turn": turn, "question": question, "why": "口径决定观察。"}, role, "ROLE_SWITCH")
    return turn


def answer(b: LogBuilder, turn: int, text: str, signals: tuple[str, ...] = ()) -> None:
    b.add("USER_INPUT", {"intent": "ANSWER", "turn": turn, "text": text}, "user", "USER")
    for signal in signals:
        b.add("PROGRESS_SIGNAL", {"signal": signal, "turn": turn, "idea_id": "i1"})


def rules_of(b: LogBuilder) -> set[str]:
    return {v.rule for v in check_events(b.events)}


def clean() -> LogBuilder:
    b = base()
    t = ask(b, "concept_clarifier", "P1")
    answer(b, t, "我说的是主观感受", ("QUESTION_SHARPENED",))
    t = ask(b, "premise_evidence_examiner", "P2", question="哪一条最没把握？")
    answer(b, t, "第二条", ("PREMISE_SURFACED",))
    b.add("IDEA_REVISED", {"idea_id": "i1", "maturation": "DEVELOPING"})
    ask(b, "implication_validator", "P3", question="什么结果会让你改判？")
    return b


def _dc01(b: LogBuilder) -> None:
    ask(b, "alternative_explorer", "P4", question="是这个吗？还是那个？")


def _dc02(b: LogBuilder) -> None:
    ask(b, "alternative_explorer", "P4", question="你怎么看竞争解释以及它的预测？")


def _dc03(b: LogBuilder) -> None:
    t = ask(b, "alternative_explorer", "P4", question="有没有反例？")
    b.add("USER_INPUT", {"intent": "ANSWER", "turn": t, "text": "没有"}, "moderator", "SYSTEM")


def _dc03_empty(b: LogBuilder) -> None:  # "" is not the person's own input (issue 13 item 16)
    t = ask(b, "alternative_explorer", "P4", question="有没有反例？")
    answer(b, t, "")


def _dc08_unknown_signal(b: LogBuilder) -> None:  # FELT_GOOD used to count as progress and silence S1
    b.events.clear()
    fresh = base()
    for _ in range(2):
        t = ask(fresh, "concept_clarifier", "P1")
        answer(fresh, t, "不知道", ("FELT_GOOD",))
    ask(fresh, "premise_evidence_examiner", "P2")
    b.events.extend(fresh.events)


def _dc04(b: LogBuilder) -> None:
    ask(b, "concept_clarifier", "P4", qtype="IMPLICATION")


def _dc05(b: LogBuilder) -> None:
    ask(b, "concept_clarifier", "P1", kind="CONFIGURATION")


def _dc06(b: LogBuilder) -> None:
    b.add("IDEA_REVISED", {"idea_id": "i2", "proposition": "另一个想法"})
    b.add("IDEA_REVISED", {"idea_id": "i2", "maturation": "TESTABLE"})


def _dc07(b: LogBuilder) -> None:
    b.events.clear()
    fresh = base()
    t = ask(fresh, "concept_clarifier", "P1")
    answer(fresh, t, "主观感受", ("QUESTION_SHARPENED",))
    ask(fresh, "implication_validator", "P3")
    b.events.extend(fresh.events)


def _dc08(b: LogBuilder) -> None:
    b.events.clear()
    fresh = base()
    for _ in range(2):
        t = ask(fresh, "concept_clarifier", "P1")
        answer(fresh, t, "不知道")
    ask(fresh, "premise_evidence_examiner", "P2")
    b.events.extend(fresh.events)


def _dc09(b: LogBuilder) -> None:
    b.add("CHECKPOINT", {"stop_reason": "CHECKPOINT_REACHED", "summary": {"kept": "晨跑提高效率已证实"}})


def _dc10(b: LogBuilder) -> None:
    gap = {"gap_id": "g1", "idea_id": "i1", "question": "有没有证据？", "scope": "kb", "target": "t", "budget": "quick"}
    b.add("GAP_PROPOSED", {"gap": gap})
    b.add("GAP_REJECTED", {"gap_id": "g1"}, "user", "USER")
    b.field("open_questions", [])


def _confirmed_gap(b: LogBuilder) -> dict[str, Any]:
    gap = {"gap_id": "g1", "idea_id": "i1", "question": "有没有证据？", "scope": "kb", "target": "t", "budget": "quick"}
    gap["fingerprint"] = gaps.gap_fingerprint(gap)
    b.add("GAP_PROPOSED", {"gap": gap})
    b.add("GAP_CONFIRMED", {"gap_id": "g1", "scope_fingerprint": gap["fingerprint"]}, "user", "USER")
    return gap


def _dc11(b: LogBuilder) -> None:
    b.events.clear()
    fresh = base("quick")
    signals = ("QUESTION_SHARPENED", "PREMISE_SURFACED", "ALTERNATIVE_ADDED", "QUESTION_SHARPENED", "PREMISE_SURFACED")
    for signal in signals:
        t = ask(fresh, "concept_clarifier", "P1")
        answer(fresh, t, f"回答 {signal} {t}", (signal,))
    b.events.extend(fresh.events)


def _dc12(b: LogBuilder) -> None:
    gap = _confirmed_gap(b)
    link = {"relation": "CONTEXT", "alignment": "VERIFIED", "verbatim_quote": "晨跑", "location": "source_cache/x.md"}
    b.add("EVIDENCE_IMPORTED", {"gap_id": "g1", "links": [link], "scope_fingerprint": gap["fingerprint"]},
          "research_agent", "INDEPENDENT_AGENT")  # fmt: skip


def _dc13_unconfirmed(b: LogBuilder) -> None:
    gap = {"gap_id": "g1", "idea_id": "i1", "question": "有没有证据？", "scope": "kb", "target": "t", "budget": "quick"}
    b.add("GAP_PROPOSED", {"gap": gap})
    b.add("EVIDENCE_IMPORTED", {"gap_id": "g1", "links": []}, "research_agent", "INDEPENDENT_AGENT")


def _dc13_stale(b: LogBuilder) -> None:
    gap = _confirmed_gap(b)
    b.add("GAP_PROPOSED", {"gap": gaps.with_scope(gap, "整个互联网")})
    b.add("EVIDENCE_IMPORTED", {"gap_id": "g1", "links": []}, "research_agent", "INDEPENDENT_AGENT")


def _dc13_not_user(b: LogBuilder) -> None:
    gap = {"gap_id": "g1", "idea_id": "i1", "question": "有没有证据？", "scope": "kb", "target": "t", "budget": "quick"}
    b.add("GAP_PROPOSED", {"gap": gap})
    b.add("GAP_CONFIRMED", {"gap_id": "g1", "scope_fingerprint": gaps.gap_fingerprint(gap)}, "moderator", "SYSTEM")


def _dc14(b: LogBuilder) -> None:
    ask(b, "alternative_explorer", "P4", turn_fields={"response": "第一句。第二句。第三句。", "contribution": ""})


def _dc15(b: LogBuilder) -> None:
    b.events.clear()
    fresh = base(depth=None)
    ask(fresh, "concept_clarifier", "P1")
    b.events.extend(fresh.events)


def _dc16(b: LogBuilder) -> None:
    b.add("CHECKPOINT", {"stop_reason": "TIRED", "summary": {"kept": "—"}})


def _dc17(b: LogBuilder) -> None:  # the person answered; the same question again ignores the answer
    t = ask(b, "alternative_explorer", "P4", question="同期还有什么变化？")
    answer(b, t, "同一时期公司招了更多新人", ("ALTERNATIVE_ADDED",))
    ask(b, "alternative_explorer", "P4", question="同期还有什么变化？")


VIOLATIONS: list[tuple[str, Callable[[LogBuilder], None]]] = [
    ("DC01", _dc01),
    ("DC02", _dc02),
    ("DC03", _dc03),
    ("DC03", _dc03_empty),
    ("DC04", _dc04),
    ("DC05", _dc05),
    ("DC06", _dc06),
    ("DC07", _dc07),
    ("DC08", _dc08),
    ("DC08", _dc08_unknown_signal),
    ("DC09", _dc09),
    ("DC10", _dc10),
    ("DC11", _dc11),
    ("DC12", _dc12),
    ("DC13", _dc13_unconfirmed),
    ("DC13", _dc13_stale),
    ("DC13", _dc13_not_user),
    ("DC14", _dc14),
    ("DC15", _dc15),
    ("DC16", _dc16),
    ("DC17", _dc17),
]


def test_the_clean_fixture_is_clean() -> None:
    assert rules_of(clean()) == set()


def test_every_rule_has_a_violating_fixture() -> None:
    assert {rule for rule, _ in VIOLATIONS} == set(RULES)


@pytest.mark.parametrize(("rule", "mutate"), VIOLATIONS, ids=[f"{r}-{m.__name__}" for r, m in VIOLATIONS])
def test_checker_flags_the_violation(rule: str, mutate: Callable[[LogBuilder], None]) -> None:
    b = clean()
    mutate(b)
    assert rule in rules_of(b)


def test_checker_cli_exit_codes(cli: Any, tmp_path: Any) -> None:
    good = clean().write(tmp_path / "good")
    bad_builder = clean()
    _dc02(bad_builder)
    bad = bad_builder.write(tmp_path / "bad")
    assert cli("debate", "check", str(good)).exit_code == 0
    result = cli("debate", "check", str(bad))
    assert result.exit_code == 1 and '"DC02"' in result.stdout


def test_checker_cli_refuses_an_unknown_signal(cli: Any, tmp_path: Any) -> None:
    b = base()
    t = ask(b, "concept_clarifier", "P1")
    answer(b, t, "主观感受", ("FELT_GOOD",))
    result = cli("debate", "check", str(b.write(tmp_path / "felt")))
    assert result.exit_code == 1 and "FELT_GOOD" in result.stdout and '"DC08"' in result.stdout


def test_a_bundling_word_inside_the_persons_quoted_words_is_no_bundle() -> None:
    """A trial's session failed DC02 on "You answered this with 'Not really, and by the way my …'"."""
    b = clean()
    ask(
        b,
        "alternative_explorer",
        "P4",
        question='You answered this with "Not really, and by the way my dog…": which part stands?',
    )
    assert "DC02" not in rules_of(b)
    b2 = clean()
    ask(b2, "alternative_explorer", "P4", question="Which rival stands, and by the way what would you test?")
    assert "DC02" in rules_of(b2)
