"""Reading the proposition and the person's answers (debate/proposition.py, debate/answer_kinds.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from autodidact.cli import app
from autodidact.debate.answer_kinds import classify
from autodidact.debate.cues import detect_signals
from autodidact.debate.proposition import plain_reading, read
from autodidact.debate.templates import key_term


@pytest.mark.parametrize(
    ("text", "lang", "kind", "subject", "effect", "cause"),
    [
        ("Remote work makes junior engineers learn slower", "en", "causal", "junior engineers", "learn slower",
         "Remote work"),
        ("Pair programming reduces bugs in legacy code", "en", "causal", "", "reduces bugs", "Pair programming"),
        ("Python is slower than Go for web servers", "en", "comparison", "Python", "slower", ""),
        ("We should rewrite the billing service in Rust", "en", "plan", "", "rewrite the billing service in Rust", ""),
        ("Why do people procrastinate?", "en", "question", "people procrastinate", "", ""),
        ("远程办公让初级工程师学得更慢", "zh", "causal", "初级工程师", "学得更慢", "远程办公"),
        ("短视频导致青少年注意力下降", "zh", "causal", "", "青少年注意力下降", "短视频"),
        ("Python 比 Go 更适合做数据分析", "zh", "comparison", "Python", "更适合做数据分析", ""),
        # "X is why Y": the cause comes first
        ("Working late is why I sleep badly", "en", "causal", "", "I sleep badly", "Working late"),
        # a leading scope and a noun between the comparative and "than"
        ("For a small team, SQLite is a simpler choice than Postgres", "en", "comparison", "SQLite", "simpler", ""),
        # an opinion frame before a plan; a month is not a comparative
        ("I think we should move the release to October", "en", "plan", "", "move the release to October", ""),
        ("The parks are crowded from April to June", "en", "observation", "The parks", "are crowded", ""),
        ("我认为我们应该取消周五的例会", "zh", "plan", "", "取消周五的例会", ""),
        # a degree word grades the noun before it
        ("手机游戏使得学生睡眠越来越少", "zh", "causal", "学生", "睡眠越来越少", "手机游戏"),
        # what a comparative effect is better at; a change over time is an observation
        ("Does reading aloud make children better at spelling?", "en", "question", "children",
         "better at spelling", "reading aloud"),
        ("最近地铁早高峰的人比以前少了很多", "zh", "observation", "最近地铁早高峰的人", "比以前少了很多", ""),
    ],
)  # fmt: skip
def test_the_proposition_is_read_into_its_parts(
    text: str, lang: str, kind: str, subject: str, effect: str, cause: str
) -> None:
    p = read(text, lang)
    assert (p.kind, p.subject, p.effect, p.cause) == (kind, subject, effect, cause)


def test_the_key_term_is_the_effect_not_a_modifier() -> None:
    assert key_term("Remote work makes junior engineers learn slower", "en") == "learn slower"
    assert key_term("远程办公让初级工程师学得更慢", "zh") == "学得更慢"
    reading = plain_reading(read("Remote work makes junior engineers learn slower", "en"), "en")
    assert "Cause: Remote work" in reading and "Effect: junior engineers learn slower" in reading


def test_an_object_pronoun_is_read_back_as_the_effects_subject() -> None:
    reading = plain_reading(read("Drinking coffee after 3pm makes me sleep worse", "en"), "en")
    assert "Effect: I sleep worse" in reading


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        ("More juniors were hired, so each senior mentors more people.", "confounder"),
        ("同一时期公司招了更多初级工程师，每个资深工程师要带的人更多。", "confounder"),
        ("Because they cannot overhear the seniors discussing problems.", "mechanism"),
        ("因为他们听不到资深同事讨论问题。", "mechanism"),
        ("I'm not sure.", "hedge"),
        ("不确定。", "hedge"),
        ("If juniors in the office learned equally slowly, I would drop the claim.", "test"),
        ("I noticed it in code reviews: remote juniors ask fewer questions.", "example"),
        ("We measured it: 40% longer to first commit.", "evidence"),
        ("By learn slower I mean it takes them longer to ship their first feature.", "definition"),
        ("The one I'm least sure of is the second.", "choice"),
        ("Only in the first six months.", "scope"),
        ("No, that's not what I meant: juniors only.", "correction"),
        # the opening says what the person is doing, whatever follows
        ("Last winter the heating failed twice, because the boiler is old.", "example"),
        ("Just the night shifts. I have no idea about the day ones.", "scope"),
        ("I'd change my mind if the night shift had as many errors with two nurses.", "test"),
        ("To be fair, the prices also went up that month.", "confounder"),
        ("不过也可能是那段时间天气变冷了。", "confounder"),
        ("我说的效率是每周完成的任务数。", "definition"),
        ("第二种吧。", "choice"),
        # someone else's not-knowing is not the person's hedge
        ("开会的时候你根本不知道谁在听，只能一遍遍重复。", "not hedge"),
    ],
)
def test_answers_are_classified_in_both_languages(answer: str, kind: str) -> None:
    if kind.startswith("not "):
        assert classify(answer) != kind.removeprefix("not ")
    else:
        assert classify(answer) == kind


def test_an_answer_moves_the_session_by_its_kind_whatever_was_asked() -> None:
    # A confounder offered to a clarifying question is an alternative, not the term's reading.
    assert detect_signals("More juniors were hired, so each senior mentors more people.", "CLARIFICATION", []) == [
        "ALTERNATIVE_ADDED"
    ]
    assert detect_signals("因为他们听不到资深同事讨论问题，学得就慢。", "COMPARISON", []) == ["PREMISE_SURFACED"]
    assert detect_signals("I'm not sure, maybe the second one.", "PREMISE_EVIDENCE", []) == []  # a hedge is no premise


_INTERNAL = re.compile(r"\[(?:INFERRED|DEFAULTED|SYSTEM_RULE|CONTEXT|PROJECT|USER)\]|\b[A-Z]{3,}_[A-Z_]{3,}\b|\bP\d ·")


def test_a_session_reads_plainly_and_uses_the_persons_confounder(tmp_path: Path) -> None:
    kb = tmp_path / "new-kb"  # not a knowledge base yet: debate start creates it, like research
    runner = CliRunner()
    answers = "standard\nMore juniors were hired, so each senior mentors more people.\n"
    result = runner.invoke(
        app, ["debate", "--kb", str(kb), "start", "Remote work makes junior engineers learn slower",
              "--session-id", "s1"], input=answers,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (kb / "CLAUDE.md").is_file() and (kb / "debates" / "s1" / "events.jsonl").is_file()
    assert "initialised knowledge base" in result.output
    text = result.output
    assert "Cause: Remote work" in text and "learn slower" in text
    assert not _INTERNAL.search(text), _INTERNAL.search(text)
    assert "；" not in text  # English punctuation in an English session
    assert "maturity →" not in text
    shown = runner.invoke(app, ["debate", "show", "s1", "--kb", str(kb), "--json"])
    session = json.loads(shown.stdout)
    alternatives = json.dumps(session, ensure_ascii=False)
    assert "More juniors were hired" in alternatives
    assert f"--kb {kb}" in text.replace("\n", " ") or "Continue with" not in text


def test_naming_a_premise_by_its_number_records_that_premise() -> None:
    from autodidact.debate.reply_planner import named_premise

    listed = (
        'Load-bearing premises of "X": (1) the change really happened; (2) it comes from the cause the '
        "proposition names; (3) the cases you saw are typical. Strongest counter-scenario: the tasks changed."
    )
    assert named_premise("The one I'm least sure of is the second.", listed) == (
        "it comes from the cause the proposition names"
    )
    assert named_premise(
        "我最没把握的是第③条", "承重前提：① 变化确实发生了；② 来自命题说的原因；③ 情形有代表性。最强反例：…"
    ) == ("情形有代表性")
    assert named_premise("It is about hiring.", listed) is None


def test_the_next_question_after_an_answer_is_never_the_same_question(tmp_path: Path) -> None:
    runner = CliRunner()
    answers = "standard\nMore juniors were hired, so each senior mentors more people.\nI am not sure.\n"
    result = runner.invoke(
        app, ["debate", "start", "Remote work makes junior engineers learn slower", "--kb", str(tmp_path / "kb"),
              "--session-id", "s2"], input=answers,
    )  # fmt: skip
    asked = [line for line in result.output.splitlines() if line.startswith("➤")]
    assert len(asked) == len(set(asked)) >= 3
    check = runner.invoke(app, ["debate", "check", str(tmp_path / "kb" / "debates" / "s2")])
    assert json.loads(check.stdout)["ok"], check.stdout


def test_a_models_reading_is_used_only_when_its_parts_quote_the_prompt() -> None:
    from autodidact.debate.turns import judge_opening
    from autodidact.llm.runtime import Runtime
    from autodidact.testing.scripted import ScriptedModel

    prompt = "Remote work makes junior engineers learn slower"
    good = {"mode": "examine", "basis": "makes", "kind": "causal", "subject": "junior engineers",
            "effect": "learn slower", "cause": "Remote work"}  # fmt: skip
    _, _, reading = judge_opening(Runtime(ScriptedModel([json.dumps(good)])), prompt)
    assert (reading.kind, reading.effect, reading.cause) == ("causal", "learn slower", "Remote work")
    # Parts that are not the person's words (twice: the reply and its re-ask) give way to the rules.
    invented = {**good, "effect": "slower career growth"}
    runtime = Runtime(ScriptedModel([json.dumps(invented)] * 2))
    mode, _, reading = judge_opening(runtime, prompt)
    assert reading.effect == "learn slower" and mode == "examine"


def test_why_a_turn_comes_reads_as_a_sentence_not_a_tag() -> None:
    from autodidact.debate.render import event_lines

    event = {
        "type": "SELECTION_REASON",
        "payload": {"turn": 3, "reason": "a load-bearing premise has not been examined"},
    }
    assert event_lines(event, "en", with_user=False) == [
        "",
        "What this turn is about: a load-bearing premise has not been examined.",
    ]


def test_a_closed_session_summary_names_no_rule_ids_or_enums(tmp_path: Path) -> None:
    from autodidact.debate.engine import Engine

    folder = tmp_path / "s"
    Engine(folder).start("Small teams should write integration tests before unit tests")
    for answer in (
        "standard",
        "By integration test I mean one that runs the web app against a real database.",
        "wrap up",
    ):
        Engine(folder).reply(answer)
    texts = [p.read_text("utf-8") for p in sorted((folder / "summaries").glob("*-session-summary.md"))]
    assert texts, "closing writes a stage summary"
    text = texts[-1]
    assert "Stop reason: you closed the session" in text
    assert not re.search(r"\bUSER_CLOSED\b|\(S\d\)|\b(?:RAW|DEVELOPING|TESTABLE)\b", text)


def test_a_closed_session_offers_no_way_to_continue_or_close_it(tmp_path: Path) -> None:
    from autodidact.debate.engine import Engine
    from autodidact.debate.summaries import checkpoint_text, stage_summary

    engine = Engine(tmp_path / "s")
    engine.start("Remote work makes junior engineers learn slower")
    state = engine.load()
    closed = checkpoint_text(stage_summary(state, stop_reason="USER_CLOSED", rule="S4", obstacle=""), "en")
    paused = checkpoint_text(stage_summary(state, stop_reason="NO_PROGRESS", rule="S3", obstacle=""), "en")
    options = next(line for line in closed if line.startswith("Options:"))
    assert "continue" not in options and "close the session" not in options  # it is closed already
    assert "start a new session" in options  # what the person can do with the result
    assert any(line.startswith("Options:") and "close the session" in line for line in paused)


def test_a_quote_of_the_person_keeps_their_punctuation_and_words_whole() -> None:
    """Quotes replaced full stops with commas ("Premise 2, On nights…"), turned 以及 into 「，、」, cut
    words in half ("until a ju…") and left parentheses open: the person's punctuation stays, a quote
    is cut at a word boundary and before an aside it cannot close."""
    from autodidact.debate.templates import excerpt, sentence_count

    assert excerpt("Premise 2. On nights I skip the phone I sleep fine.") == (
        "Premise 2. On nights I skip the phone I sleep fine"
    )
    assert excerpt("模考口语分数以及能不能坚持") == "模考口语分数…"
    long = excerpt("B: the time until a junior ships a first feature alone and then some more words follow", 28)
    assert long.endswith("alone…") and "," not in long
    assert excerpt("Why does it fail?") == "Why does it fail"  # a question mark never reaches a focus question
    aside = excerpt("Remote work lowers productivity (reading: by productivity I mean sales per week)", 20)
    assert aside == "Remote work lowers productivity…"
    # the person's sentences inside a quote are not the response's own
    assert sentence_count('You said "Yes. Only on Fridays"; recorded as: scope.') == 1
    # a quote that holds a quote is one unit too (a Chinese session failed its own check on this)
    assert sentence_count("你说「我看不懂。「孩子上二年级」是事实，没什么成立不成立的。」，这记作：更正。") == 1
    assert sentence_count("One. Two. Three.") == 3


def test_the_status_line_names_the_state_in_words(tmp_path: Path) -> None:
    from autodidact.debate.engine import Engine
    from autodidact.debate.render import status_line

    engine = Engine(tmp_path / "s")
    engine.start("我觉得晨跑让我效率更高")
    line = status_line(engine.load())
    assert line.startswith("[") and "等待" in line and not any(ch.isupper() for ch in line), line


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        ("A confounder to consider: the meeting may feel useless only because it's run badly", "confounder"),
        ("A second factor could be moisture, since fridges are dry", "confounder"),
        ("有个混杂因素：今年我换了遛狗时间，从晚上十点改到八点", "confounder"),
        ("The mechanism I had in mind: fewer hallway conversations, so problems wait", "mechanism"),
        ("Correction: I never said it holds for everyone.", "correction"),
        ("I'd narrow it: async updates for six weeks only", "scope"),
        ("我能接受的检验：连续两周把手机放在客厅，记录入睡时间", "test"),
        ("举个例子：我表妹先学 C++，第一周就放弃了", "example"),
    ],
)
def test_an_answer_the_person_labels_is_read_by_its_label(answer: str, kind: str) -> None:
    """People name what they give ("A confounder to consider: …", 「证据：…」); a fresh-eyes trial's
    labelled confounders were read as choices or premises, and the session then said "there is only
    one explanation so far"."""
    from autodidact.debate.answer_kinds import classify

    assert classify(answer) == kind


def test_a_change_condition_the_person_stated_is_in_the_validation_plan(tmp_path: Path) -> None:
    from autodidact.debate.engine import Engine
    from autodidact.debate.summaries import validation_plan_md

    engine = Engine(tmp_path / "s")
    engine.start("Checking my phone right before bed makes my sleep worse")
    for answer in ["standard", "B", "the second",
                   "I'd accept this test: two weeks without the phone; if I fall asleep less than 10 minutes faster, "
                   "the phone is not the main cause"]:  # fmt: skip
        engine.reply(answer)
    plan = validation_plan_md(engine.load())
    assert plan is not None and "less than 10 minutes faster" in plan and "threshold: to be filled in" not in plan


def test_a_place_said_first_is_the_comparisons_scope_not_part_of_one_side() -> None:
    p = read("在我们小区，周末去菜市场比去超市买菜更便宜", "zh")
    assert (p.kind, p.subject, p.baseline, p.scope) == ("comparison", "周末去菜市场", "去超市买菜", "我们小区")


def test_a_labelled_revision_revises_at_any_question_and_labels_are_not_quoted(tmp_path: Path) -> None:
    """「修改：…」 answered to a premise question narrows the idea there and then (it used to wait for
    the disposition question); 「证据：…」 is recorded without its label."""
    from autodidact.debate.engine import Engine

    engine = Engine(tmp_path / "s")
    engine.start("在我们小区，周末去菜市场比去超市买菜更便宜")
    for answer in ["标准", "我说的便宜是指同样一篮子菜的总价", "修改：只在早上七点前去菜市场才更便宜",
                   "证据：我记了三周账，菜市场平均每篮便宜 12 元"]:  # fmt: skip
        engine.reply(answer)
    version = engine.load().idea().current
    assert "只在早上七点前" in version.proposition, version.proposition
    everything = " ".join([version.proposition, *version.assumptions, *version.alternatives, *version.predictions])
    assert "修改：" not in everything and "证据：" not in everything, everything


@pytest.mark.parametrize(
    ("question", "lang", "said"),
    [("Why do people procrastinate?", "en", "people procrastinate because of ___"),
     ("为什么我总在deadline前一天才有效率？", "zh", "我总在deadline前一天才有效率，是因为 ___")],
)  # fmt: skip
def test_a_questions_worked_example_is_built_from_the_question(question: str, lang: str, said: str) -> None:
    from autodidact.debate.kind_texts import _example_prediction
    from autodidact.debate.templates import TurnInputs

    inputs = TurnInputs(role="implication", question_type="IMPLICATION", intent="example", lang=lang,
                        proposition=question, kind="question")  # fmt: skip
    text = _example_prediction(inputs, read(question, lang), lang == "zh")[0]
    assert said in text and "apps" not in text and "应用" not in text


def test_a_number_without_a_condition_is_not_the_change_condition(tmp_path: Path) -> None:
    """Evidence with numbers ("6.1 against 7.2 hours") is not what would change the person's mind; a
    stated condition keeps its threshold however long the answer is."""
    from autodidact.debate.engine import Engine
    from autodidact.debate.summaries import validation_plan_md

    engine = Engine(tmp_path / "s")
    engine.start("Checking my phone right before bed makes my sleep worse")
    long_test = ("I'd accept this test, run carefully over a normal working month: two weeks without the phone at "
                 "night; if I fall asleep less than 10 minutes faster, the phone is not the main cause")  # fmt: skip
    for answer in ["standard", "B", "the second", long_test]:
        engine.reply(answer)
    plan = validation_plan_md(engine.load())
    assert plan is not None and "less than 10 minutes faster" in plan
    from autodidact.debate.summaries import _CONDITION

    assert not _CONDITION.search("I tracked it with my watch: 6.1 hours vs 7.2 hours")


def test_evidence_the_person_gives_is_said_to_be_their_evidence(tmp_path: Path) -> None:
    from autodidact.debate.engine import Engine

    engine = Engine(tmp_path / "s")
    engine.start("在我们小区，周末去菜市场比去超市买菜更便宜")
    for answer in ["标准", "我说的便宜是指同样一篮子菜的总价"]:
        engine.reply(answer)
    from autodidact.debate.render import render_events

    text = render_events(engine.reply("证据：我记了三周账，菜市场平均每篮便宜 12 元"), "zh")
    assert "你的观察证据" in text and "命题依赖的一个前提" not in text, text


def test_unlabelled_keeps_a_clause_before_a_colon() -> None:
    from autodidact.debate.answer_kinds import unlabelled

    assert unlabelled("证据：我记了三周账") == "我记了三周账"
    said = "我打算用GitHub导出接下来四周的数据：首条评审意见的时间"
    assert unlabelled(said) == said


def test_a_chinese_test_said_with_yaoshi_is_the_change_condition(tmp_path: Path) -> None:
    from autodidact.debate.answer_kinds import classify

    assert classify("要是早睡一周后番茄钟还是不到3个，我就不再认为是睡眠的问题") == "test"


@pytest.mark.parametrize(
    ("proposition", "lang", "kind_word"),
    [("For a team of three, a monorepo is easier than separate repos", "en", "same task under the same conditions"),
     ("这两个月代码评审比以前慢多了", "zh", "按同样的方式"),
     ("Remote work makes junior engineers learn slower", "en", "with and without the cause")],
)  # fmt: skip
def test_the_offline_review_fits_the_kind_of_proposition(proposition: str, lang: str, kind_word: str) -> None:
    """A comparison has no cause to precede its pattern, an observation no cause to remove."""
    from autodidact.debate.review import ReviewInput, ReviewTask

    inputs = ReviewInput(idea_id="i1", version=1, proposition=proposition, perspective="implication_validator",
                         lang=lang)  # fmt: skip
    out = ReviewTask().offline(inputs)
    assert kind_word in out.discriminating_evidence
    if "cause" not in kind_word:
        assert "cause" not in " ".join(out.load_bearing_premises) + out.discriminating_evidence
        assert "原因" not in " ".join(out.load_bearing_premises) + out.discriminating_evidence


def test_the_first_turn_prints_no_skip_marker_and_ids_are_plain_letters(tmp_path: Path) -> None:
    from autodidact.cli.cmd_debate import _new_session_id
    from autodidact.debate.engine import Engine
    from autodidact.debate.render import render_events

    text = render_events(Engine(tmp_path / "s").start("Working from cafés makes me write more"), "en")
    assert "(no response)" not in text and "Which depth" in text
    assert "-working-from-cafes-" in _new_session_id("Working from cafés makes me write more")


def test_a_decision_at_the_reflection_ends_the_stage_and_ok_does_not_reopen_it(tmp_path: Path) -> None:
    """A trial's "Try it, with the live slot kept" was filed as an alternative and the reflection was
    asked again and again ("You already answered this…"); its narrowing was never applied."""
    from autodidact.debate.engine import Engine
    from autodidact.errors import InputError

    engine = Engine(tmp_path / "s")
    engine.start("I plan to move our weekly team meeting to async written updates")
    for answer in ["standard", "Mostly A: the meeting eats 7 person-hours a week.",
                   "Number 3. In writing juniors might stay quiet.",
                   "If after 6 weeks we save less than 10 minutes per person per week, I'd drop it.",
                   "We tried the smaller change already and it crept back.",
                   "Neither really matches what I said. I'd narrow it though: only the status part goes async.",
                   "Try it, with the 15-minute live slot kept."]:  # fmt: skip
        engine.reply(answer)
    session = engine.load()
    assert session.checkpoints and session.checkpoints[-1]["rule"] == "S6"
    assert "(scope: only the status part goes async)" in session.idea().current.proposition
    assert not any("15-minute live slot" in a for a in session.idea().current.alternatives)
    with pytest.raises(InputError, match="stage is complete"):
        engine.reply("ok")


def test_a_guess_at_a_questions_answer_is_its_testable_form_and_not_asked_for_again(tmp_path: Path) -> None:
    from autodidact.debate.engine import Engine
    from autodidact.debate.render import render_events

    engine = Engine(tmp_path / "s")
    engine.start("为什么我周一总是效率最低？")
    for answer in ["标准", "我说的效率是指完成的番茄钟数量", "不知道"]:
        engine.reply(answer)
    text = render_events(engine.reply("我周一效率最低，是因为周日晚上睡得晚"), "zh")
    assert "最好的猜测是什么" not in text and "填进什么因素" not in text, text
    assert any("睡得晚" in p for p in engine.load().idea().current.predictions)
