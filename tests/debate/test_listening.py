"""The partner keeps what the person said: rivals, thresholds, corrections, answers after a checkpoint.

Each test drives the real engine (offline) through a short session and reads what the person would
read, or the session's record of it (docs/debate.md, "Reading answers").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autodidact.debate.answer_kinds import classify, corrected_term
from autodidact.debate.checker import check_session
from autodidact.debate.engine import Engine
from autodidact.debate.proposition import read
from autodidact.debate.render import render_events
from autodidact.debate.templates import sharpest
from autodidact.errors import InputError

from .conftest import talk as _talk


@pytest.mark.parametrize(
    "answer",
    [
        "We also switched to a new CI system in March.",
        "The people who volunteered were already the more motivated ones.",
        "Maybe the seasonal slowdown explains it.",
        "那个月我们还换了新的CI系统。",
        "这些人原本就比较有经验。",
        "当时正好赶上淡季。",
    ],
)
def test_an_unlabelled_rival_is_heard_as_a_rival(answer: str) -> None:
    assert classify(answer) == "confounder"


def test_a_reason_that_says_already_stays_a_mechanism() -> None:
    assert classify("Because caffeine is already in my blood by noon.") == "mechanism"
    assert classify("因为咖啡因本来就要好几个小时才代谢掉。") == "mechanism"


def test_a_labelled_revision_is_read_by_its_wording_not_its_words() -> None:
    # 「修改：只限…」 narrows the claim; no word inside it makes it a premise or a rival
    assert classify("修改：只限下午三点以后喝的咖啡") == "scope"
    assert classify("Revise: only for the backend team") == "scope"


def test_the_test_shown_is_the_one_with_a_measure() -> None:
    kept = ["If switches drop by less than 20%, I'd call it noise", "If it's about the same, I'd drop it"]
    assert sharpest(kept) == kept[0]
    assert sharpest(["if it is the same, I'd drop it", "if it stays flat, I'd revise it"]).startswith("if it stays")
    assert sharpest([]) == ""


def test_a_vaguer_test_does_not_hide_the_threshold(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    shown = _talk(
        folder,
        "Standing desks make our team more focused",
        ["quick", "B, fewer context switches per hour", "If switches drop by less than 20%, I'd call it noise.",
         "If it's about the same, I'd drop it", "give me a summary"],
    )  # fmt: skip
    version = Engine(folder).load().idea().current
    assert len(version.predictions) == 2  # both are on record
    test = shown[-1].split("Test:")[1].split("|")[0]
    assert "less than 20%" in test and "about the same" not in test


def test_an_outcome_verb_is_not_the_effect() -> None:
    p = read("The new pricing page caused the rise in signups", "en")
    assert (p.kind, p.cause, p.effect) == ("causal", "The new pricing page", "the rise in signups")
    assert read("Moving standup to 10am led to fewer missed meetings", "en").effect == "fewer missed meetings"
    since = read("自从换了新的排班，客户投诉更高了", "zh")
    assert (since.kind, since.cause) == ("causal", "换了新的排班") and "投诉" in since.effect


@pytest.mark.parametrize(
    ("answer", "term"),
    [
        ("No, I mean the number of paid signups, not the free ones.", "number of paid signups"),
        ("Not quite: I am talking about signups per week.", "signups per week"),
        ("不是，我说的是投诉量，不是投诉率。", "投诉量"),
        ("不是速度，是质量。", "质量"),
    ],
)
def test_a_correction_names_the_term_it_means(answer: str, term: str) -> None:
    assert classify(answer) == "correction" and corrected_term(answer) == term


def test_a_correction_changes_what_later_turns_ask_about(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    shown = _talk(
        folder,
        "The new pricing page caused the rise in signups",
        ["standard", "No, I mean the number of paid signups, not the free ones."],
    )
    assert 'questions are about "number of paid signups"' in shown[-1]
    assert "“number of paid signups”" in shown[-1] or '"number of paid signups" really happened' in shown[-1]
    assert Engine(folder).load().idea().current.key_term == "number of paid signups"


def _to_stage_end(folder: Path) -> None:
    _talk(
        folder,
        "Standing desks make our team more focused",
        ["standard", "B, fewer context switches per hour", "Because standing keeps people from drifting into chat.",
         "If the sitting weeks show the same number of switches, I'd drop it.", "No, the floor was the same all along.",
         "If switches drop by less than 20%, I'd call it noise.", "the first one"],
    )  # fmt: skip
    assert Engine(folder).load().checkpoints[-1]["rule"] == "S6"


def test_a_rival_after_a_stage_ends_is_recorded_and_said_back(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    _to_stage_end(folder)
    shown = render_events(Engine(folder).reply("We also got new headphones that month."), "en")
    assert 'You said "We also got new headphones that month"; recorded as: another possible explanation' in shown
    assert "We also got new headphones that month" in Engine(folder).load().idea().current.alternatives
    # the disposition asked before the rival is asked again in the light of it, never as a bare re-ask
    shown = render_events(Engine(folder).reply("If it's about the same, I'd drop it"), "en")
    assert "You already answered this" not in shown
    assert check_session(folder)["ok"]


def test_ok_after_a_stage_ends_is_still_refused(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    _to_stage_end(folder)
    with pytest.raises(InputError, match="stage is complete"):
        Engine(folder).reply("ok")


def test_evidence_is_kept_as_evidence_never_as_the_test(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    _talk(
        folder,
        "Standing desks make our team more focused",
        ["standard", "B, fewer context switches per hour", "Because standing keeps people from drifting into chat."],
    )
    assert Engine(folder).load().pending_question["question"].startswith("If this comparison")  # type: ignore[index]
    shown = render_events(Engine(folder).reply("We measured it: 14 switches an hour standing versus 22 sitting."), "en")
    version = Engine(folder).load().idea().current
    assert not version.predictions and "your own evidence" in shown


def test_a_pick_from_no_list_is_not_filed_as_anything(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    _talk(
        folder,
        "Standing desks make our team more focused",
        ["standard", "B, fewer context switches per hour", "Because standing keeps people from drifting into chat.",
         "If the sitting weeks show the same number of switches, I'd drop it."],
    )  # fmt: skip
    question = Engine(folder).load().pending_question["question"]  # type: ignore[index]
    assert "which" not in question.lower()  # a yes/no question lists nothing to pick from
    Engine(folder).reply("The second one")
    version = Engine(folder).load().idea().current
    assert "The second one" not in version.alternatives + version.assumptions


def test_an_answer_that_names_a_premise_and_a_rival_keeps_both(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    _talk(
        folder,
        "Protected bike lanes bring more small shops to a street",
        ["standard", "B, new business licences on the street",
         "The second one worries me. Cities tend to put bike lanes on streets that are already gentrifying."],
    )  # fmt: skip
    version = Engine(folder).load().idea().current
    assert any(a.startswith("Cities tend to put bike lanes") for a in version.alternatives)
    assert not any("Cities tend" in a for a in version.assumptions)  # the premise named is the second one


def test_a_long_answer_that_also_hedges_is_read_for_what_it_says() -> None:
    answer = "我只说我们这栋楼，别的楼我不清楚。另外我觉得机制是：以前代收快递要敲门送过去，一来一回就会聊两句。"
    assert classify(answer) != "hedge"
    assert classify("还有一点：也许是我自己下班更晚了，碰到邻居的机会本来就少了，这个我说不好。") == "confounder"
    assert classify("不知道。") == "hedge"


def test_a_reason_after_a_change_is_its_mechanism() -> None:
    p = read("我们小区装了快递柜以后，邻居之间的交流明显变少了，因为大家不再需要互相帮忙代收快递。", "zh")
    assert (p.kind, p.cause) == ("causal", "我们小区装了快递柜")
    assert "交流" in p.effect and p.mechanism.startswith("大家不再需要")


def test_after_a_stage_a_remark_about_the_talk_is_no_new_proposition(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    _to_stage_end(folder)
    before = Engine(folder).load()
    Engine(folder).reply("You missed one thing I said earlier: the new floor could explain all of it, not ruled out.")
    after = Engine(folder).load()
    assert after.stage == before.stage
    assert after.idea().current.proposition == before.idea().current.proposition


def test_a_decision_after_a_stage_is_recorded_not_asked_again(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    _to_stage_end(folder)
    shown = render_events(Engine(folder).reply("Keep it? No — set it aside for now."), "en")
    session = Engine(folder).load()
    assert session.idea().current.disposition == "SET_ASIDE"  # the option put as a question is not the decision
    assert session.pending_question is None and "Checkpoint" in shown
    assert check_session(folder)["ok"]


def test_narrowing_a_revised_claim_keeps_the_revision(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    _talk(
        folder,
        "Standing desks make our team more focused",
        ["standard", "Revise: standing desks cut context switches per hour",
         "Let's narrow it: only for backend services, the frontend work is mostly meetings anyway."],
    )  # fmt: skip
    proposition = Engine(folder).load().idea().current.proposition
    assert proposition == "standing desks cut context switches per hour (scope: only for backend services)"


def test_a_pick_at_the_opening_of_a_longer_answer_answers_the_reading(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    _talk(
        folder,
        "Writing tests first makes our team ship fewer bugs",
        ["standard", "Mostly B, with a baseline: escaped defects per release went from about 14 to 6."],
    )
    session = Engine(folder).load()
    assert "(reading: a measurable quantity" in session.idea().current.proposition
    assert "which reading" not in (session.pending_question or {}).get("question", "").lower()


def test_a_decision_when_the_rounds_are_used_is_recorded(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    _talk(
        folder,
        "Standing desks make our team more focused",
        ["quick", "B, fewer context switches per hour", "Because standing keeps people from drifting into chat.",
         "If switches drop by less than 20%, I'd call it noise.", "No idea, honestly."],
    )  # fmt: skip
    assert Engine(folder).load().checkpoints[-1]["stop_reason"] == "BUDGET_EXHAUSTED"
    Engine(folder).reply("I've decided to set it aside for now.")
    assert Engine(folder).load().idea().current.disposition == "SET_ASIDE"
    with pytest.raises(InputError, match="used up"):
        Engine(folder).reply("We also got new chairs that month.")  # more discussion still needs more rounds


def test_a_rival_named_before_a_review_is_not_dismissed_by_it(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    _to_stage_end(folder)
    shown = render_events(Engine(folder).reply("Another factor: we also moved to a quieter floor that month."), "en")
    assert 'The reviews were not given your own rival, "we also moved to a quieter floor that month"' in shown


def test_a_complaint_about_the_talk_is_no_premise() -> None:
    from autodidact.debate.cues import detect_signals

    answer = "There's more than one explanation already, I said so earlier and you missed it completely."
    assert "PREMISE_SURFACED" not in detect_signals(answer, "PREMISE_EVIDENCE", [])


def test_a_participle_after_a_noun_is_no_cause() -> None:
    p = read("Decisions made in meetings after 4pm get reversed more often than morning ones", "en")
    assert (p.kind, p.cause, p.effect) == ("comparison", "", "get reversed more often")
    assert read("Remote work made our juniors learn slower", "en").cause == "Remote work"


def test_a_reason_after_a_comma_is_the_mechanism_not_the_cause() -> None:
    en = read("Our kids fight less on days when they play outside before dinner, because the running tires them", "en")
    assert (en.kind, en.cause) == ("causal", "they play outside before dinner")
    assert en.mechanism == "the running tires them"
    walk = "我爸晚饭后散步二十分钟的日子，第二天早上的空腹血糖明显更低，因为饭后走动让肌肉把多余的葡萄糖用掉了。"
    zh = read(walk, "zh")
    assert (zh.cause, zh.effect) == ("我爸晚饭后散步二十分钟", "第二天早上的空腹血糖明显更低")
    assert zh.mechanism.startswith("饭后走动")


def test_a_statement_about_the_record_is_no_corrected_term() -> None:
    assert corrected_term("No, I mean the fridge tally isn't a premise, it's the evidence.") is None


def test_keep_after_a_finished_stage_is_recorded_not_refused(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    _to_stage_end(folder)
    Engine(folder).reply("Revise: standing desks cut context switches for our backend team")
    _talk_more = ["B, switches per hour", "If switches drop by less than 20%, I'd call it noise.", "the first one"]
    for answer in _talk_more:
        if Engine(folder).load().pending_question is None:
            break
        Engine(folder).reply(answer)
    Engine(folder).reply("Keep.")
    session = Engine(folder).load()
    assert session.idea().current.disposition == "KEEP" and session.pending_question is None


def test_a_question_back_is_no_prediction(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    _talk(
        folder,
        "Standing desks make our team more focused",
        ["standard", "B, fewer context switches per hour", "Because standing keeps people from drifting into chat."],
    )
    Engine(folder).reply("What would count as a comparable week though?")
    assert not Engine(folder).load().idea().current.predictions


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        ("不过有另一个可能：同一个月经理开始在周一例会上点名没交的人。", "confounder"),
        ("There's another possibility: the new teacher started that month.", "confounder"),
        ("I kept a tally on the fridge: 2 fights on outside days, 5 on inside days.", "evidence"),
    ],
)
def test_a_possibility_is_a_rival_and_a_tally_is_evidence(answer: str, kind: str) -> None:
    assert classify(answer) == kind


def test_where_the_idea_stands_is_said_once_per_reply() -> None:
    # one reply that climbs two steps (a trial saw both lines, with different values, in a row)
    steps = [
        {"type": "IDEA_REVISED", "payload": {"idea_id": "i1", "maturation": m}} for m in ("DEVELOPING", "TESTABLE")
    ]
    shown = render_events(steps, "en")
    assert shown.count("Where the idea stands") == 1 and "testable" in shown


@pytest.mark.parametrize(
    ("answer", "asked"),
    [
        (
            "What would count as 'similar difficulty' though? I was thinking I'd go by the grade, grade 3 for both.",
            "What would count as 'similar difficulty' though?",
        ),
        (
            "No, I mean I asked you a question: is the grade a good enough match? You're repeating yourself.",
            "is the grade a good enough match?",
        ),
        (
            "我想问一下，两首曲子的难度怎么算差不多呢？我打算按教材的等级来。",
            "我想问一下，两首曲子的难度怎么算差不多呢？",
        ),
        ("Set it aside? No — keep the revised one.", None),
        ("Right? Anyway it held for four weeks.", None),
    ],
)
def test_a_question_to_the_partner_is_told_from_a_decision_put_as_a_question(answer: str, asked: str | None) -> None:
    from autodidact.debate.asked_back import question_to_partner

    assert question_to_partner(answer) == asked


def test_a_question_back_is_answered_and_kept_open_not_filed_as_the_test(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    _talk(
        folder,
        "Standing desks make our team more focused",
        ["standard", "B, fewer context switches per hour", "Because standing keeps people from drifting into chat."],
    )
    shown = render_events(
        Engine(folder).reply("How many weeks would be enough? I was thinking I'd compare two weeks of each."), "en"
    )
    session = Engine(folder).load()
    assert session.open_questions == ["How many weeks would be enough?"]
    assert 'You asked "How many weeks would be enough?"' in shown
    assert "several periods on each side" in shown  # what experiments do about a size question
    assert not any("How many weeks" in p for p in session.idea().current.predictions)
    assert not any("How many weeks" in a for a in session.idea().current.assumptions)
    assert check_session(folder)["ok"]


def test_a_review_that_comes_out_the_same_is_not_shown_again(tmp_path: Path) -> None:
    """A second batch whose reviewers see nothing new says so in one line instead of the same block
    (a trial: "you're repeating the same review")."""
    folder = tmp_path / "s"
    shown = [render_events(Engine(folder).start("Practising 15 minutes a day beats one 2-hour session on Sunday",
                                                depth="standard"), "en")]  # fmt: skip
    for answer in [
        "B, how fast I can play a new song cleanly at full tempo.",
        "I'd revise the overnight part first; it could be that my hand gets tired after 40 minutes.",
        "Let me narrow it first: only fingerpicking pieces.",
        "Test first: I'll learn two pieces. If the split Sunday piece is learned within 20% of the daily one's "
        "time, fatigue was the real problem.",
        "I already told you: within 20% means I revise.",
        "Revise: for fingerpicking pieces, 15 minutes a day gets me to full tempo faster than one Sunday session.",
        "What would count as similar difficulty though? I'd go by the grade in my method book.",
    ]:
        shown.append(render_events(Engine(folder).reply(answer), "en"))
    session = Engine(folder).load()
    reviewed = [t for t in shown if "Review 1 (" in t]
    assert len(reviewed) == 1  # the full block once
    if len(session.reviews) > 1:
        assert any("Both reviews come out as in batch 1" in t for t in shown)
    assert check_session(folder)["ok"]


def test_turns_written_by_rules_do_not_claim_an_ai_wrote_them(tmp_path: Path) -> None:
    """Offline, "(AI judgement)" claimed a model that was never asked; the record keeps the protocol label."""
    folder = tmp_path / "s"
    shown = "\n".join(_talk(folder, "Standing desks make our team more focused", ["standard", "B, switches per hour"]))
    assert "AI judgement" not in shown and "AI suggestion" not in shown
    assert "from rules, no model" in shown
    labels = {r.source_label for r in Engine(folder).load().rounds if r.source_label}
    assert labels and labels <= {"AI judgement", "AI suggestion", "user observation", "hypothesis to test"}


def test_the_validation_plan_keeps_the_sizes_and_durations_the_person_named(tmp_path: Path) -> None:
    from autodidact.debate.summaries import sizes_said, validation_plan_md

    assert sizes_said(["one with 15 minutes daily", "over the next six weeks", "我记了两周"]) == ["six weeks", "两周"]
    folder = tmp_path / "s"
    _to_stage_end(folder)
    Engine(folder).reply("Keep it. I'll compare three sitting weeks with three standing weeks.")
    plan = validation_plan_md(Engine(folder).load())
    assert plan is not None
    assert "Sample size, duration, instruments (your words): three sitting weeks; three standing weeks" in plan


def test_an_answer_that_also_asks_keeps_its_test_and_the_question_stays_open(tmp_path: Path) -> None:
    """A trial's whole answer was dropped because it ended in "Do you think 4 weeks is long enough?"."""
    folder = tmp_path / "s"
    _talk(folder, "Standing desks make our team more focused", ["standard", "B, fewer context switches per hour"])
    before = Engine(folder).load().pending_question
    Engine(folder).reply(
        "I'd run it for 4 weeks and call it a failure if switches drop by less than 20%. "
        "Do you think 4 weeks is long enough?"
    )
    session = Engine(folder).load()
    assert session.open_questions == ["Do you think 4 weeks is long enough?"]
    assert session.pending_question != before  # the turn was answered, not repeated
    bare = render_events(Engine(folder).reply("Do you think that is enough?"), "en")
    assert 'You asked "Do you think that is enough?"' in bare and "The open question stays" in bare
    assert "I do not judge whether the proposition is true" not in bare  # it asked for help, not a verdict
    assert check_session(folder)["ok"]


@pytest.mark.parametrize(
    ("answer", "wording"),
    [
        ("Revise, narrowed to weekday dinners: prepping on Sunday cuts my weekday takeout.",
         "prepping on Sunday cuts my weekday takeout"),
        ("Revise, not set aside. New version: 'a written update plus an optional Q&A call'.",
         "a written update plus an optional Q&A call"),
        ("我选修改。改成：「晚饭后遛45分钟，夜里叫的次数更少」", "晚饭后遛45分钟，夜里叫的次数更少"),
        ("I'd revise the overnight part first; it could be fatigue.", None),
    ],
)  # fmt: skip
def test_a_revision_announced_inside_an_answer_gives_the_new_wording(answer: str, wording: str | None) -> None:
    from autodidact.debate.answer_kinds import revised_wording

    assert revised_wording(answer) == wording


def test_a_condition_first_claim_a_proposed_change_and_a_then_clause_are_read_as_what_they_are() -> None:
    when = read("When I meal-prep on Sunday, I order less takeout during the week", "en")
    assert (when.kind, when.cause, when.effect) == ("causal", "I meal-prep on Sunday", "less takeout")
    assert read("When does the bus come?", "en").kind == "question"
    plan = read("For our team, replacing the Monday meeting with a written update would be better", "en")
    assert (plan.kind, plan.scope) == ("plan", "For our team")
    dog = read("晚饭后带狗多遛半小时，它夜里就不怎么叫了", "zh")
    assert (dog.kind, dog.cause, dog.effect) == ("causal", "晚饭后带狗多遛半小时", "不怎么叫了")


def test_a_labelled_rival_inside_a_correction_is_recorded_in_its_own_words() -> None:
    from autodidact.debate.answer_kinds import answer_parts

    parts = answer_parts(
        "I already said it: prepping makes me order less. But there's a rival explanation I should admit: "
        "I tend to prep in weeks when I'm less busy anyway."
    )
    assert ("confounder", "I tend to prep in weeks when I'm less busy anyway.") in parts
    assert classify("I'd conclude the plan failed if more than 1 blocker goes unnoticed for 2 days.") == "test"
    assert classify("这两个例子跟绿萝没关系，植物没有工作用时。") == "correction"  # about the partner's examples


def test_a_question_about_the_record_is_answered_from_the_record(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    _talk(
        folder,
        "Standing desks make our team more focused",
        ["standard", "B, fewer context switches per hour", "We also moved to a quieter floor that month."],
    )
    shown = render_events(
        Engine(folder).reply("If switches drop by less than 20%, I'd call it noise. Did you record my rival?"), "en"
    )
    assert 'You asked "Did you record my rival?": the record now holds rivals: "' in shown
    assert "quieter floor" in shown.split("You asked", 1)[1]


def test_not_sure_which_of_two_causes_is_a_question_about_the_cause() -> None:
    zh = read("入冬以后阳台上的绿萝叶子一片片发黄，我不确定是浇水太多还是光照不够", "zh")
    assert (zh.kind, zh.effect, zh.cause) == ("question", "入冬以后阳台上的绿萝叶子一片片发黄", "浇水太多还是光照不够")
    en = read("My basil wilts every afternoon, and I'm not sure whether it's the heat or too little water", "en")
    assert (en.kind, en.effect) == ("question", "My basil wilts every afternoon")


def test_a_working_hypothesis_in_quotes_is_the_new_wording_without_what_follows_it() -> None:
    from autodidact.debate.answer_kinds import answer_parts, revised_wording

    said = "修改。我现在的工作假设是：「入冬后黄叶增多，主要是夜里低温让根吸水变慢」。“未决”那一栏请去掉那句话。"
    assert revised_wording(said) == "入冬后黄叶增多，主要是夜里低温让根吸水变慢"
    # one descriptive sentence of a longer answer is no rival: only rules read single sentences
    parts = answer_parts("B吧，一个月黄了9片。发黄的多是靠下面的老叶，先是叶尖黄。其实还有第三种可能：阳台晚上很冷。")
    assert ("confounder", "阳台晚上很冷。") in parts
    assert not any(kind == "confounder" and "老叶" in sentence for kind, sentence in parts)


def test_a_rival_said_as_a_change_at_the_same_time_or_offered_as_a_question_is_recorded(tmp_path: Path) -> None:
    from autodidact.debate.answer_kinds import answer_parts, part_of

    assert classify("我妈也是5月底来我们家住的，她很爱做饭。") == "confounder"
    assert classify("Maybe it's the Kindle, not the train.") == "confounder"
    # the named rival, not the complaint that mentions the word, nor the words announcing it
    said = "你的小结写“竞争解释尚未提出”，这不对。竞争解释是：我妈5月底搬来住，她爱做饭。"
    assert part_of(answer_parts(said), "confounder") == "我妈5月底搬来住，她爱做饭。"
    folder = tmp_path / "s"
    _talk(folder, "Standing desks make our team more focused", ["standard", "B, fewer context switches per hour"])
    shown = render_events(Engine(folder).reply("Isn't the new quieter office the rival?"), "en")
    session = Engine(folder).load()
    assert "the new quieter office" in session.idea().current.alternatives
    assert '"the new quieter office" is a rival explanation' in shown and not session.open_questions


def test_a_rewording_is_what_the_checkpoint_keeps_and_a_sign_off_is_no_research_topic(tmp_path: Path) -> None:
    from autodidact.debate.summaries import stage_summary

    folder = tmp_path / "s"
    _talk(folder, "Standing desks make our team more focused",
          ["standard", "Revise: standing desks cut context switches for our backend team"])  # fmt: skip
    summary = stage_summary(Engine(folder).load(), stop_reason="USER_CLOSED", rule="S4", obstacle="-")
    assert summary["kept"].startswith("standing desks cut context switches")
    assert summary["revised"].startswith("reworded from: Standing desks make our team more focused")
    assert not any("That's it" in o for o in summary["options"])


def test_a_review_after_a_stated_threshold_does_not_ask_again_which_result_changes_their_mind() -> None:
    from autodidact.debate.role_texts import offline_turn
    from autodidact.debate.templates import TurnInputs

    inp = TurnInputs(
        role="implication_validator", question_type="COMPARISON", intent="discriminate", trigger="P5", lang="en",
        mode="examine", proposition="Practice beats cramming", term="faster", review_text="Review 1: …",
        predictions=["I'll learn two pieces. If the split piece is learned within 20% of the daily one's time, "
                     "fatigue was the problem."],
    )  # fmt: skip
    question = offline_turn(inp).question
    assert "within 20%" in question and "Which of the two outcomes" not in question
    assert question.count("?") == 1


def test_a_question_about_the_partners_own_words_is_answered_with_what_it_said() -> None:
    from autodidact.debate.asked_back import answer_back

    last = "Review 1: not enough to judge. Which of the two outcomes above would make you revise?"
    said = answer_back("What do you mean by 'the two outcomes'?", "en", "rivals: none", last)
    assert "was from my words" in said and "Which of the two outcomes above" in said
    # words the last turn never used: no dump of that turn, an honest open question
    other = answer_back("What do you mean by 'the change really happened'?", "en", "", last)
    assert "did not use" in other and "Review 1" not in other
    assert "the record now holds" in answer_back("Did you record it?", "en", "rivals: none", "Review 1")


def test_words_of_the_partners_own_are_explained_and_not_kept_open(tmp_path: Path) -> None:
    """A trial asked 「你说的「口径」是什么意思？」 and "What do you mean by 'a testable prediction'?" and
    was told each time that it was theirs to settle; the partner says what its own words meant."""
    shown = _talk(
        tmp_path,
        "我注意到，自从公司把上班打卡时间从九点推迟到九点半，同事们晚上反而走得更晚了",
        ["标准", "B", "你说的「口径」是什么意思？我说的是打卡记录。"],
    )
    assert "「口径」指的是" in shown[-1] and "这要由你" not in shown[-1]
    assert Engine(tmp_path).load().open_questions == []
    assert check_session(tmp_path)["ok"]


def test_an_explanation_names_the_ideas_own_cause_and_falls_back_to_the_partners_sentence() -> None:
    from autodidact.debate.asked_back import answer_back, explain_term

    said = "Remove the named cause and see whether the effect stays. Which factor would you drop first?"
    factor = explain_term('What do you mean by "factor"?', "en", said, cause="blue light")
    assert factor is not None and '"blue light"' in factor
    # a word outside the glossary: the partner's sentence that used it
    own = explain_term("What do you mean by 'the effect stays'?", "en", said)
    assert own is not None and "Remove the named cause" in own
    # a question about the world, not the partner's words, stays the person's to settle
    assert explain_term("Is four weeks long enough?", "en", said) is None
    assert "cannot answer that from this session's record" in answer_back("Is four weeks long enough?", "en", "", said)


@pytest.mark.parametrize(
    ("answer", "kept"),
    [
        ("I already said that: 40 minutes to fall asleep against 15.", "40 minutes to fall asleep against 15."),
        ("You ignored my point. The content winds me up, not the light.", "The content winds me up, not the light."),
        ("你记错了。我的检验办法是对比财务部。", "我的检验办法是对比财务部。"),
        ("这三条都不太对得上。我真正没把握的是：他对编程有没有兴趣。", "我真正没把握的是：他对编程有没有兴趣。"),
        # no remark: the answer is kept as it was, whitespace and all
        ("No, the blue light is not it.  It is the content.", "No, the blue light is not it.  It is the content."),
    ],
)
def test_a_remark_about_the_conversation_is_no_part_of_the_idea(answer: str, kept: str) -> None:
    from autodidact.debate.remarks import without_remarks

    assert without_remarks(answer) == kept


def test_a_word_of_the_partners_denied_in_quotes_is_a_remark() -> None:
    from autodidact.debate.remarks import is_remark

    partner = "① 它问的现象确实存在；② 背后有一个主要原因。"
    assert is_remark("我这里没有什么「现象」，是一个要不要花钱的决定。", partner)
    assert not is_remark("我这里没有什么「现象」，是一个要不要花钱的决定。", "")  # not the partner's word
    assert not is_remark("他对编程有没有兴趣，我没有把握。", partner)


def test_a_complaint_is_neither_quoted_back_nor_recorded(tmp_path: Path) -> None:
    """A trial's complaint 「这三条都不太对得上」 was recorded as a premise and later quoted back to
    the person as the result that would change their mind."""
    shown = _talk(
        tmp_path,
        "I sleep worse on nights when I look at my phone in bed",
        [
            "standard",
            "B",
            "You ignored my point. I'm least sure about the second. Maybe it's the news I read, not the light.",
        ],
    )
    version = Engine(tmp_path).load().idea().current
    recorded = " ".join([*version.assumptions, *version.alternatives, *version.predictions])
    assert "news I read" in recorded and "ignored" not in recorded
    assert "ignored" not in shown[-1]


@pytest.mark.parametrize(
    ("text", "lang", "plan"),
    [
        ("我拿不准：孩子上二年级了，要不要给他报一个周末的少儿编程班？", "zh", "给他报一个周末的少儿编程班"),
        ("Should I switch my team to trunk-based development?", "en", "switch my team to trunk-based development"),
    ],
)
def test_a_decision_put_as_a_question_is_read_as_a_plan(text: str, lang: str, plan: str) -> None:
    found = read(text, lang)
    assert (found.kind, found.effect) == ("plan", plan)


def test_a_thousands_comma_does_not_end_a_leading_scope() -> None:
    found = read(
        "For someone like me who drives less than 8,000 miles a year, buying a used car is a better deal than "
        "leasing a new one",
        "en",
    )
    assert (found.kind, found.baseline) == ("comparison", "leasing a new one")
    assert found.scope.endswith("8,000 miles a year")
    assert read("我注意到，同事们晚上反而走得更晚了", "zh").effect.startswith("反而")


def test_a_test_the_person_states_earns_the_validation_plan(tmp_path: Path) -> None:
    """A trial stated its own test and change condition, was told "we have not reached predictions
    yet" and got no validation plan; the maturity line said "testable" beside it."""
    _talk(
        tmp_path,
        "Screens in bed make me sleep worse",
        [
            "standard",
            "B",
            "If I leave the phone outside the bedroom for two weeks and still take 40 minutes to fall asleep, "
            "I'd drop the idea.",
        ],
    )
    Engine(tmp_path).close()
    plans = list((tmp_path / "summaries").glob("*validation-plan.md"))
    assert plans and "two weeks" in plans[0].read_text("utf-8")
    summary = next((tmp_path / "summaries").glob("*session-summary.md")).read_text("utf-8")
    assert "not reached predictions" not in summary and "never reached" not in summary


def test_a_rewording_said_in_passing_is_the_new_wording_and_stops_at_the_next_label() -> None:
    from autodidact.debate.answer_kinds import revised_wording

    said = "想了一下，我换个说法：「先在家试一个月Scratch，他主动要玩才报班。」"
    assert revised_wording(said) == "先在家试一个月Scratch，他主动要玩才报班"
    reworded = revised_wording(
        "Did you see I reworded it? New version: a used car costs less over 3 years than leasing. "
        "The test: get 3 real lease quotes."
    )
    assert reworded == "a used car costs less over 3 years than leasing"


def test_a_comparison_is_never_asked_about_its_cause() -> None:
    """A trial comparing a used car with a lease was asked for "one experience where only that cause
    changed" and to "find a period without selective memory"."""
    from autodidact.debate.kind_texts import kind_turn
    from autodidact.debate.templates import TurnInputs

    base = {
        "question_type": "PREMISE_EVIDENCE", "trigger": "P2", "lang": "en", "mode": "examine", "term": "cheaper",
        "proposition": "A used car is cheaper than a lease", "kind": "comparison", "intent": "example",
    }  # fmt: skip
    premise = kind_turn(TurnInputs(role="premise_evidence_examiner", **base), False)
    rival = kind_turn(TurnInputs(role="alternative_explorer", alternatives=["a subsidised lease deal"], **base), False)
    assert premise is not None and rival is not None
    assert "cause" not in premise[0] + premise[2] and "side by side" in premise[2]
    assert "a subsidised lease deal" in rival[0] and "period" not in rival[0]


def test_a_rhetorical_question_is_a_complaint_and_an_unknown_is_kept_open(tmp_path: Path) -> None:
    """A trial's 「我刚刚不是说了吗？」 was answered "这要由你按自己的情况来定" and listed as an open
    question; its 「真正没解决的是：…」 was filed as a rival."""
    from autodidact.debate.remarks import is_remark

    assert is_remark("我刚刚不是说了吗？") and is_remark("Didn't I just say that?")
    assert is_remark("You also ignored my rival about regulars.")
    shown = _talk(
        tmp_path,
        "我发现每次周末去超市大采购，买回来的蔬菜水果差不多有三分之一最后都烂掉扔了。",
        ["标准", "B", "我刚刚不是说了吗？", "真正没解决的是：我家每周到底在家做几天饭，可能是三天也可能是五天。"],
    )
    assert "我答不了这一问" not in shown[3] and "记为未决问题" not in shown[3]
    session = Engine(tmp_path).load()
    assert session.open_questions == ["真正没解决的是：我家每周到底在家做几天饭，可能是三天也可能是五天。"]
    assert not any("做几天饭" in a for a in session.idea().current.alternatives)


@pytest.mark.parametrize(
    "answer",
    [
        "如果四周平均扔掉的不到百分之十五，那'三分之一'就是我夸大了。",
        "如果扔的明显变少，说明是买太多。",
        "If I finish my top 3 in 3 of 4 weeks with a capped app, paper isn't special.",
        "Keep it, but I'd flip a coin per episode, and if the fast ones score 2 points lower I keep the claim.",
        "第1、3周写日记，第2、4周不写，单双周交替对比焦虑分数。",
    ],
)
def test_a_condition_with_what_it_would_show_is_a_test(answer: str) -> None:
    assert classify(answer) == "test"


def test_unsure_whether_reads_as_a_question_about_the_claim() -> None:
    found = read("我不确定每天喝咖啡是不是让我下午更困", "zh")
    assert (found.kind, found.cause, found.effect) == ("question", "每天喝咖啡", "下午更困")
    en = read("I'm not sure whether the discount actually keeps members, or just pays people who renew anyway.", "en")
    assert en.kind == "question" and "keeps members" in en.effect
    # an observation's effect is its predicate, never a phrase cut mid-number
    assert read("买回来的蔬菜水果差不多有三分之一最后都烂掉扔了", "zh").effect == "最后都烂掉扔了"


def test_a_fifth_trials_misreadings_are_read_right() -> None:
    """Each line is a misreading a fresh-eyes trial met (docs/debate.md, "What a third trial showed")."""
    from autodidact.debate.asked_back import answer_back
    from autodidact.debate.remarks import is_remark
    from autodidact.debate.summaries import claims_proven
    from autodidact.debate.templates import measure_clause

    assert claims_proven("Friday PRs get approved with fewer comments") is None  # "approved" is no "proved"
    assert claims_proven("the claim is proved") == "proved"
    test = "If I listened to 6 episodes at 1x and 6 at 1.5x and recalled 2 fewer points, I'd keep it."
    assert "1.5x" in measure_clause(test)
    for remark in ("Your restatement is garbled.", "Why do you say there's no prediction yet?", "你根本没解释那个词。"):
        assert is_remark(remark), remark
    said = "Review 2: strongest counterexample: a concurrent change in conditions would produce the same pattern."
    meant = answer_back("What do you mean by 'a concurrent change in conditions'?", "en", "", said)
    assert meant.startswith('By "a concurrent change in conditions" I meant something else that changed')
    # the person's own words quoted by the partner are never claimed as the partner's
    own = answer_back("你说的「我没太懂」是什么意思？", "zh", "", "你说「我没太懂。」，这记作：范围。")
    assert "出自我这句话" not in own
    exam = read("备考的时候，用纸质书复习比在平板上看PDF记得更牢。", "zh")
    assert (exam.subject, exam.baseline, exam.effect, exam.scope) == (
        "用纸质书复习",
        "在平板上看PDF",
        "记得更牢",
        "备考的时候",
    )
    diary = read("我不太确定：每天睡前写几行日记，到底有没有让我没那么焦虑？", "zh")
    assert (diary.kind, diary.cause, diary.effect) == ("question", "每天睡前写几行日记", "我没那么焦虑")


def test_another_way_to_the_goal_is_heard_against_a_plan(tmp_path: Path) -> None:
    """A trial proposed a weekend class instead of a school transfer and was told twice that no other
    way to the goal had been compared."""
    assert classify("另一个办法是先报周末的英语班试一学期。") == "confounder"
    assert classify("Another option is to keep the spreadsheet and log every purchase the same day.") == "confounder"
    _talk(tmp_path, "Should I switch my budget to cash envelopes?", ["standard", "A"])
    Engine(tmp_path).reply("Another option is to keep the spreadsheet and log every purchase the same day.")
    assert any("log every purchase" in a for a in Engine(tmp_path).load().idea().current.alternatives)


def test_a_sixth_trials_complaints_and_rewordings() -> None:
    """Complaints a sixth trial saw filed as rivals, and rewordings it saw lost."""
    from autodidact.debate.answer_kinds import revised_wording
    from autodidact.debate.remarks import is_remark

    for remark in (
        "No, selective memory is NOT my rival - I rejected it.",
        "Where did that come from?",
        "You didn't explain it, you just quoted yourself.",
        "'You didn't explain it' is not a rival explanation, it's me complaining.",
        "你又把「其实」放进去了。",
    ):
        assert is_remark(remark), remark
    said = (
        "You didn't explain it. I'll try it, but let me reword: I should take the lead role as a 3-month trial "
        "and keep one coding day a week."
    )
    assert revised_wording(said) == "I should take the lead role as a 3-month trial and keep one coding day a week"
    missed = "And you missed my reworded version: a 3-month trial with one coding day a week. No, the reviews don't."
    assert revised_wording(missed) == "a 3-month trial with one coding day a week"
    assert revised_wording("好吧，换个说法：早上刷新闻会让我上午更焦虑。") == "早上刷新闻会让我上午更焦虑"
    assert read("从北京去上海出差，坐高铁其实比坐飞机更省时间", "zh").subject.endswith("坐高铁")
