"""What the trial of 2026-12-07 left (docs/debate.md, "A trial of 2026-12-07"), and what the trial after
it found (docs/debate.md, "A second trial of 2026-12-07"): an example recorded as a premise or a test, a
Chinese key term cut inside a word, a decision question examined as a why-question, a Chinese test
proposal read as a sharper statement of the idea; then rivals lost to a pushback, revisions and
corrections that narrow, a set-aside idea shown as kept, and readings that quoted the wrong words.

Each test fails on the code before these fixes; the sessions run the real engine through the CLI, offline.
The propositions are not the trials' own: the rules are general, so other wordings must read the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autodidact.debate.answer_kinds import answer_parts, classify, part_of
from autodidact.debate.checker import check_session
from autodidact.debate.engine import Engine
from autodidact.debate.proposition import plain_reading, read
from autodidact.debate.templates import key_term


def _said(turn: dict[str, Any]) -> str:
    return " ".join(str(v) for v in turn["turn"].values() if isinstance(v, str))


# -- an example is kept as an example ------------------------------------------------------------


def test_an_example_given_to_the_premise_question_is_no_premise(
    debate: Callable[..., dict[str, Any]], kb_dir: Path
) -> None:
    debate("start", "Cooking at home makes our family spend less on food", depth="standard")
    debate("reply", "s1", "B, the money spent on food each month.")
    premises = debate("reply", "s1", "Last month we cooked every weekday and the card bill was 40 euros lower.")
    case = "Last Sunday we cooked a big pot of soup and nobody ordered pizza that week."
    shown = debate("reply", "s1", case) if "premise" in _said(premises) else premises
    folder = kb_dir / "debates" / "s1"
    session = Engine(folder).load()
    assert not any("soup" in a for a in session.idea().current.assumptions)
    assert any("soup" in e for e in session.examples)
    assert "an example you saw" in _said(shown)
    assert check_session(folder)["ok"]


def test_an_example_given_to_the_prediction_question_is_no_test(
    debate: Callable[..., dict[str, Any]], kb_dir: Path
) -> None:
    debate("start", "Walking to work makes me sleep better", depth="standard")
    debate("reply", "s1", "B, the minutes it takes me to fall asleep.")
    debate("reply", "s1", "The second one: the weeks I walk are also the weeks with less work.")
    turn = debate("reply", "s1", "For example, last Thursday I walked both ways and was asleep in ten minutes.")
    session = Engine(kb_dir / "debates" / "s1").load()
    assert session.idea().current.predictions == []
    assert session.idea().maturation != "TESTABLE"
    assert "a test that would show" not in _said(turn)


def test_a_chinese_example_to_the_premise_question_is_kept_as_a_case(
    debate: Callable[..., dict[str, Any]], kb_dir: Path
) -> None:
    debate("start", "在家做饭让我们家的伙食费少了很多", depth="standard")
    debate("reply", "s1", "B")
    turn = debate("reply", "s1", "比如上周日我们炖了一大锅汤，那一周谁都没点外卖。")
    session = Engine(kb_dir / "debates" / "s1").load()
    assert not any("炖了" in a for a in session.idea().current.assumptions)
    assert any("炖了" in e for e in session.examples)
    assert "你举的一个实例" in _said(turn)


# -- a Chinese key term is never cut inside a word -----------------------------------------------


@pytest.mark.parametrize(
    ("text", "cause", "term"),
    [
        ("每次开完周三例会，我整个下午都没什么干劲", "开完周三例会", "干劲"),
        ("每当下大雨，我们这条线的公交都不准时", "下大雨", "不准时"),
    ],
)
def test_a_pattern_tied_to_each_time_reads_its_event_as_the_cause(text: str, cause: str, term: str) -> None:
    reading = read(text, "zh")
    assert reading.kind == "causal"
    assert reading.cause == cause  # 「…例会」 keeps its last character
    assert term in reading.key_term


def test_a_time_before_a_degree_word_is_taken_whole() -> None:
    assert read("熬夜会让我第二天更累", "zh").effect == "第二天更累"  # was 「二天更累」


def test_the_fallback_term_is_a_whole_piece_of_the_last_clause() -> None:
    assert key_term("叶子发黄是浇水太多还是光照不够？", "zh") == "叶子发黄"  # was 「浇水太多还」


def test_the_clarifier_asks_about_the_effect_not_a_piece_of_the_event(
    debate: Callable[..., dict[str, Any]], kb_dir: Path
) -> None:
    turn = debate("start", "每次开完周三例会，我整个下午都没什么干劲", depth="standard")
    asked = debate("reply", "s1", "标准") if turn["state"] != "WAITING_USER" or "深度" in _said(turn) else turn
    said = _said(asked)
    assert "干劲" in said
    assert "开完周三例」" not in said and "开完周三例" not in said.replace("开完周三例会", "")


# -- a decision question is weighed as a choice ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Which should we buy first, a dishwasher or a dryer?", "en"),
        ("Should my son take piano or violin lessons?", "en"),
        ("Is it better to rent or to buy in our town?", "en"),
        ("Dishwasher or dryer first?", "en"),
        ("我们应该先买洗碗机还是烘干机？", "zh"),
        ("租房还是买房好？", "zh"),
    ],
)
def test_a_decision_question_is_a_plan(text: str, lang: str) -> None:
    assert read(text, lang).kind == "plan"


@pytest.mark.parametrize(
    ("text", "lang"),
    [("Is it the coffee or the stress?", "en"), ("叶子发黄是浇水太多还是光照不够？", "zh")],
)
def test_a_question_about_which_cause_stays_a_question(text: str, lang: str) -> None:
    assert read(text, lang).kind == "question"


def test_a_decision_question_gets_a_choices_premises_not_a_why_questions(
    debate: Callable[..., dict[str, Any]], kb_dir: Path
) -> None:
    debate("start", "Which should we buy first, a dishwasher or a dryer?", depth="standard")
    reading = str(Engine(kb_dir / "debates" / "s1").load().mode_reason)
    assert "a choice between options" in reading and "a claim that can be tested" not in reading
    premises = _said(debate("reply", "s1", "A, the time it saves us each week."))
    assert "really happens" not in premises and "one main reason" not in premises
    assert "the options differ" in premises
    assert "the problem it answers is real" not in premises


def test_a_chinese_decision_question_gets_a_choices_premises(
    debate: Callable[..., dict[str, Any]], kb_dir: Path
) -> None:
    debate("start", "我们应该先买洗碗机还是烘干机？", depth="standard")
    assert "选择" in str(Engine(kb_dir / "debates" / "s1").load().mode_reason)
    premises = _said(debate("reply", "s1", "A"))
    assert "主要原因" not in premises and "这几个选项" in premises


# -- a Chinese test proposal is a test -------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "接下来两周，我隔一天不喝咖啡，记录每天入睡要多少分钟，再跟喝咖啡的日子比。",
        "从下周起我把每天的步数记下来，和睡着需要的时间对照着看。",
        "I'll log how long I take to fall asleep for a month and then compare the walking days with the rest.",
    ],
)
def test_a_proposed_procedure_without_if_is_a_test(said: str) -> None:
    assert classify(said) == "test"


@pytest.mark.parametrize(
    "said", ["我记了两周，喝咖啡的日子平均四十分钟才睡着，对比不喝的二十分钟。", "记录起来比较麻烦"]
)
def test_a_count_already_made_or_a_remark_is_no_test(said: str) -> None:
    assert classify(said) != "test"


def test_a_chinese_test_proposal_is_recorded_and_not_asked_again(
    debate: Callable[..., dict[str, Any]], kb_dir: Path
) -> None:
    debate("start", "白天走路多让我晚上睡得更快", depth="standard")
    debate("reply", "s1", "B，入睡要多少分钟。")
    debate("reply", "s1", "第二条：那几周我也在赶项目。")
    test = "从下周起我把每天的步数记下来，和睡着需要的时间对照着看。"
    turn = debate("reply", "s1", test)
    session = Engine(kb_dir / "debates" / "s1").load()
    assert any("步数记下来" in p for p in session.idea().current.predictions)
    assert "命题说得更准了" not in _said(turn)
    asked = [r.question for r in session.rounds if r.question]
    assert len(asked) == len(set(asked))
    assert check_session(kb_dir / "debates" / "s1")["ok"]


# -- what the second trial of 2026-12-07 found ------------------------------------------------------------


def test_a_rival_after_a_pushback_is_a_rival_without_the_pushback() -> None:
    said = "Hold on, it's not only the weather: in May we also moved the bins to the back yard."
    assert classify(said) == "confounder"
    assert part_of(answer_parts(said), "confounder") == "in May we also moved the bins to the back yard."
    assert classify("不对，那个月我们也换了供应商。") == "confounder"
    assert classify("No, I mean the number of paid signups, not the free ones.") == "correction"


@pytest.mark.parametrize("said", ["Nothing changes.", "No change", "没有变化，保留这个检验。", "不用改。"])
def test_nothing_changes_states_no_test(said: str) -> None:
    assert classify(said) == "other"


def test_an_english_observation_reads_the_verb_after_a_plural_noun() -> None:
    reading = read("Our parcels arrive late every week right before the holidays", "en")
    assert (reading.kind, reading.subject, reading.effect) == ("observation", "Our parcels", "arrive late every week")
    assert reading.scope == "right before the holidays"
    assert plain_reading(reading, "en").startswith("How I read it: an observation about our parcels:")


def test_a_chinese_observation_after_a_change_is_said_with_its_condition() -> None:
    said = plain_reading(read("换了新的床垫以后，我早上腰疼得少了", "zh"), "zh")
    assert "「换了新的床垫」这个条件下" in said
    assert said.count("换了新的床垫") == 1  # not the whole sentence, then its effect again


def test_a_plan_is_quoted_without_its_frame_and_a_choice_before_a_rival_is_kept(
    debate: Callable[..., dict[str, Any]], kb_dir: Path
) -> None:
    debate("start", "We should hold our planning meeting on Monday instead of Thursday", depth="standard")
    premises = debate("reply", "s1", "B, the result: fewer tickets carried over.")
    assert '"We should' not in _said(premises)
    debate("reply", "s1", "The second. Actually we also cut the sprint to one week in March, which could explain it.")
    current = Engine(kb_dir / "debates" / "s1").load().idea().current
    assert any("the change brings the result" in a for a in current.assumptions)  # premise (2), picked
    assert current.alternatives and current.alternatives[0].startswith("Actually we also cut the sprint")


def test_a_correction_that_narrows_scopes_the_idea(debate: Callable[..., dict[str, Any]], kb_dir: Path) -> None:
    debate("start", "Our website slows down every evening after the backup job", depth="standard")
    debate("reply", "s1", "B")
    debate("reply", "s1", "Correction: not every evening, only on Fridays, when the weekly export runs too.")
    current = Engine(kb_dir / "debates" / "s1").load().idea().current
    assert current.proposition.endswith("(scope: only on Fridays, when the weekly export runs too)")
    meant = debate("reply", "s1", "No, I only meant the checkout page, that's all.")
    assert "(scope: only meant" not in Engine(kb_dir / "debates" / "s1").load().idea().current.proposition
    assert meant["state"]


def test_a_scope_only_revision_at_the_reflection_narrows_and_set_aside_is_shown(
    debate: Callable[..., dict[str, Any]], kb_dir: Path
) -> None:
    debate("start", "用手冲壶泡的茶比用电热水壶泡的更香", depth="quick")
    for answer in ["A", "第一条", "如果同一批茶叶两种泡法盲喝分不出来，我就放弃这个说法。", "还没想到别的解释"]:
        turn = debate("reply", "s1", answer)
        if turn["state"] != "WAITING_USER" or "保留、修改" in _said(turn):
            break
    done = debate("reply", "s1", "修改：只比较绿茶。")
    current = Engine(kb_dir / "debates" / "s1").load().idea().current
    assert (
        current.proposition.startswith("用手冲壶泡的茶比用电热水壶泡的更香")
        and "（范围：只比较绿茶）" in current.proposition
    )
    assert done["state"] != "WAITING_USER" or "绿茶" in _said(done)


def test_the_checkpoint_says_set_aside_when_the_person_set_it_aside() -> None:
    from autodidact.debate.summaries import checkpoint_text

    summary = {"stop_reason": "CHECKPOINT_REACHED", "kept": "X", "revised": "none", "undecided": [], "reached_p3": True,
               "open_questions": [], "options": [], "closing": "", "disposition": "SET_ASIDE"}  # fmt: skip
    assert any(line.startswith("Set aside: X") for line in checkpoint_text(summary, "en"))
    assert any(line.startswith("搁置：X") for line in checkpoint_text(summary, "zh"))


def test_an_observations_example_counts_over_its_own_period() -> None:
    from autodidact.debate.kind_texts import _periods

    assert _periods("spike every month")[1] == "once a month for the next four months"
    assert _periods("数学作业写得更快了")[0] == "接下来四周每周"


def test_an_option_picked_before_evidence_stays_out_of_the_premise(
    debate: Callable[..., dict[str, Any]], kb_dir: Path
) -> None:
    debate("start", "女儿开始每天跳绳以后，晚上睡得更早了", depth="standard")
    debate("reply", "s1", "我不知道。")
    debate("reply", "s1", "更像乙：我没什么感觉，但我记了入睡时间，从十点半提前到了九点五十。")
    current = Engine(kb_dir / "debates" / "s1").load().idea().current
    assert current.assumptions and not any(a.startswith("更像乙") for a in current.assumptions)


def test_a_phrase_asked_about_is_found_by_its_words() -> None:
    from autodidact.debate.asked_back import explain_term

    said = (
        'Key premises of "Cycling beats the tram for my commute": (1) the two were compared on the same route under '
        "the same conditions and on the same days of the week; (2) the difference is large enough to matter; "
        "(3) the cases you know are typical of both, not the best of one against the worst of the other."
    )
    answer = explain_term("What do you mean by a typical case?", "en", said)
    assert answer is not None and "(3) the cases you know are typical of both" in answer
