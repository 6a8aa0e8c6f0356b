"""Each clause of docs/contracts.md §1.6 on its own (four conditions, stall, cap), and the recorded decision."""

from __future__ import annotations

import pytest

from autodidact.loop.termination import decide, diminishing, evaluate, overlap_high, stalled

# A round where every clause holds; each test breaks exactly one.
ALL_MET = {
    "round_n": 3,
    "max_rounds": 20,
    "issues": 3,
    "previous_issues": 5,
    "pending_user_questions": 0,
    "new_raw_files": 0,
    "overlap": 0.8,
}


def test_all_four_met_terminates_with_reason() -> None:
    check = decide(**ALL_MET, language="en")
    assert check.decision == "terminate"
    assert "diminishing" in check.reason and "0.80" in check.reason
    assert check.audit_issues_count == 3 and check.overlap_ratio == 0.8


def test_round_one_never_meets_diminishing() -> None:
    assert not diminishing(1, 0, None)
    assert not diminishing(1, 0, 0)
    check = decide(**{**ALL_MET, "round_n": 1, "previous_issues": None})
    assert check.decision == "continue"
    assert "第 1 轮" in check.reason


def test_null_overlap_is_not_met() -> None:
    assert not overlap_high(None)
    assert not overlap_high(0.7)
    assert overlap_high(0.71)
    assert decide(**{**ALL_MET, "overlap": None}).decision == "continue"
    assert decide(**{**ALL_MET, "overlap": 0.7}).decision == "continue"


@pytest.mark.parametrize(
    ("issues", "previous", "met"),
    [(6, 10, True), (7, 10, False), (0, 1, True), (3, 5, True), (4, 5, False), (5, 0, False)],
)
def test_sixty_percent_rule(issues: int, previous: int, met: bool) -> None:
    assert diminishing(2, issues, previous) is met


@pytest.mark.parametrize(("issues", "previous", "met"), [(2, 2, True), (2, 3, False), (3, 2, False), (0, 0, True)])
def test_two_rounds_below_three(issues: int, previous: int, met: bool) -> None:
    # 60% fails for all but 0 <= 0, so the "both rounds < 3" clause decides
    assert diminishing(4, issues, previous) is met


def test_two_rounds_below_three_terminates_where_sixty_percent_fails() -> None:
    check = decide(**{**ALL_MET, "issues": 2, "previous_issues": 2})
    assert 2 > 0.6 * 2
    assert check.decision == "terminate"


def test_pending_user_questions_block() -> None:
    check = decide(**{**ALL_MET, "pending_user_questions": 1}, language="en")
    assert check.decision == "continue"
    assert "1 pending user questions" in check.reason


def test_new_raw_files_block() -> None:
    check = decide(**{**ALL_MET, "new_raw_files": 2}, language="zh")
    assert check.decision == "continue"
    assert "2 个用户新增 raw 文件" in check.reason


def test_max_rounds_ends_regardless() -> None:
    check = decide(**{**ALL_MET, "round_n": 20, "overlap": None, "pending_user_questions": 3}, language="en")
    assert check.decision == "terminate" and check.stopped_by == "max_rounds"
    assert check.reason.startswith("max_rounds 20 reached (rules not met: ")
    assert "3 pending user questions" in check.reason and "overlap null" in check.reason
    assert evaluate(**{**ALL_MET, "round_n": 19}).max_rounds_reached is False


# A round that is not finished by the four conditions (gaps not diminishing) but has stalled.
STALLED = {**ALL_MET, "issues": 3, "previous_issues": 3, "overlap": 0.9, "new_claims": 0, "new_sources": 0}


def test_stall_terminates_with_reason_stalled() -> None:
    check = decide(**STALLED, language="en")
    assert check.decision == "terminate" and check.stopped_by == "stalled"
    assert check.reason.startswith("stalled: round 3 added no new claim and no new source")
    assert "not diminishing enough" in check.reason  # says which rules were not met
    assert check.new_claims == 0 and check.new_sources == 0
    zh = decide(**STALLED, language="zh")
    assert zh.reason.startswith("stalled（停滞）") and "没有新论据" in zh.reason


@pytest.mark.parametrize(
    "change",
    [
        {"new_claims": 1},
        {"new_sources": 1},
        {"overlap": 0.89},
        {"overlap": None},
        {"new_claims": None},
        {"new_sources": None},
        {"pending_user_questions": 1},
        {"new_raw_files": 1},
    ],
)
def test_each_stall_clause_is_needed(change: dict[str, object]) -> None:
    check = decide(**{**STALLED, **change}, language="en")  # type: ignore[arg-type]
    assert check.decision == "continue" and check.stopped_by is None
    assert "stalled" not in check.reason


def test_two_rounds_that_add_nothing_stall_whatever_the_questions() -> None:
    """Templates asked facet by facet differ in words (overlap low), yet land on what was quoted."""
    low = {**STALLED, "overlap": 0.1}
    assert decide(**low, language="en").decision == "continue"
    check = decide(**low, language="en", previous_empty=True)  # type: ignore[arg-type]
    assert check.stopped_by == "stalled"
    assert check.reason.startswith("stalled: rounds 2 and 3 added no new claim and no new source")
    zh = decide(**low, language="zh", previous_empty=True)  # type: ignore[arg-type]
    assert zh.reason.startswith("stalled（停滞）：第 2 轮和第 3 轮都没有新论据")
    # the user still comes first, and a round that added something is no stall
    assert not stalled(new_claims=0, new_sources=0, overlap=0.0, pending=1, new_raw=0, previous_empty=True)
    assert not stalled(new_claims=2, new_sources=0, overlap=0.0, pending=0, new_raw=0, previous_empty=True)


def test_stall_never_ends_a_run_while_the_user_waits() -> None:
    assert not stalled(new_claims=0, new_sources=0, overlap=1.0, pending=1, new_raw=0)
    assert not stalled(new_claims=0, new_sources=0, overlap=1.0, pending=0, new_raw=2)
    assert stalled(new_claims=0, new_sources=0, overlap=1.0, pending=0, new_raw=0)


def test_rules_take_precedence_over_stall_and_stall_over_cap() -> None:
    both = decide(**{**ALL_MET, "new_claims": 0, "new_sources": 0, "overlap": 0.95}, language="en")
    assert both.stopped_by == "rules" and both.reason.startswith("termination rules met")
    at_cap = decide(**{**STALLED, "round_n": 20}, language="en")
    assert at_cap.stopped_by == "stalled" and "max_rounds reached as well" in at_cap.reason


def test_continue_reason_reports_what_the_round_added() -> None:
    check = decide(**{**STALLED, "new_claims": 4, "new_sources": 2}, language="en")
    assert check.decision == "continue"
    assert "4 new claims and 2 new sources this round" in check.reason


def test_unread_on_topic_sections_are_new_material_the_rules_wait_for() -> None:
    # Everything else says stop (few gaps twice, nothing from the user, questions repeating), but
    # the documents still hold on-topic sections nobody asked about: the run goes on and says why.
    common = dict(round_n=2, max_rounds=8, issues=1, previous_issues=0, pending_user_questions=0,
                  new_raw_files=0, overlap=0.8, new_claims=4, new_sources=1)  # fmt: skip
    assert decide(**common, language="en").decision == "terminate"
    waiting = decide(**common, language="en", unread_sections=3)
    assert waiting.decision == "continue" and waiting.unread_sections == 3
    assert "3 on-topic sections not read yet" in waiting.reason
    assert "章节未读" in decide(**common, language="zh", unread_sections=3).reason


def test_a_round_of_re_asks_has_not_run_out_while_new_questions_wait() -> None:
    """The overlap was high because the round re-asked partly answered questions, while the
    questions of what a facet's examples are waited for room: three runs stopped "by the rules"
    before asking them (grep's -r entry was never read)."""
    waiting = decide(**ALL_MET, language="en", waiting_questions=4)
    assert waiting.decision == "continue" and waiting.waiting_questions == 4
    assert "0.80 is above 0.7, but 4 new questions wait to be asked" in waiting.reason
    assert "个新问题未问" in decide(**ALL_MET, language="zh", waiting_questions=4).reason
    assert decide(**ALL_MET, language="en", waiting_questions=0).decision == "terminate"
    # the cap and a stall still end the run
    assert decide(**{**ALL_MET, "round_n": 20}, language="en", waiting_questions=4).decision == "terminate"


def test_the_questioner_counts_the_new_questions_a_round_had_no_room_for() -> None:
    from autodidact.questions.generate import select_questions
    from autodidact.questions.models import Candidate, QuestionerInputs

    inputs = QuestionerInputs(
        topic="How do Python generators and coroutines work?", round=2, language="en", min_questions=2, max_questions=2
    )
    texts = [
        "What does a typical example of Python generators look like?",
        "What are the limitations of Python coroutines?",
        "What problems are solved by Python generators?",
        "When should Python coroutines be used, and when not?",
    ]
    cands = [Candidate(text=t, layer="L2-mechanism", priority="low", source="framework", rationale="") for t in texts]
    out = select_questions(inputs, cands)
    assert len(out.questions) == 2 and out.waiting_questions == 2
    assert select_questions(inputs, cands[:2]).waiting_questions == 0
