"""What an eighth fresh-eyes trial found (docs/debate.md, "An eighth trial"): a depth read from a
word inside another, a rival lost to a search request, remarks quoted as tests, and questions about
the partner's own words and bars left unanswered.

Each test fails on the code before that trial; they run the real engine, offline.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autodidact.debate.asked_back import answer_back, counts_answer
from autodidact.debate.checker import check_session
from autodidact.debate.cues import parse_command, parse_depth
from autodidact.debate.engine import Engine
from autodidact.debate.proposition import plain_reading, read
from autodidact.debate.remarks import is_remark, without_remarks
from autodidact.debate.render import event_lines


@pytest.mark.parametrize(
    ("said", "depth"),
    [
        ("standard, I guess. You dropped the rainy days part: my dough rises faster then.", "standard"),
        ("not deep, standard", "standard"),
        ("不要深度，标准就行", "standard"),
        ("quick please", "quick"),
    ],
)
def test_the_depth_is_the_one_named_first_by_whole_words(said: str, depth: str) -> None:
    assert parse_depth(said) == (depth, "chosen")


@pytest.mark.parametrize(
    "sentence",
    [
        "This is the third time you've asked this.",
        "I answered that in the same message: B.",
        "I don't understand 'what is counted (the number of cases)'.",
        "保留的应该是我刚改过的新说法，不是原来那句。",
        "你已经第三次问这个了。",
    ],
)
def test_remarks_about_the_talk(sentence: str) -> None:
    assert is_remark(sentence)


def test_an_abbreviation_does_not_end_a_remark() -> None:
    said = (
        "Keep, and I'll log for a month. But the 'prediction' you list is me saying I don't understand you, and "
        "the rivals (humidity vs. warm kitchen) have been named."
    )
    assert without_remarks(said) == "Keep, and I'll log for a month."


def test_a_hedged_observation_keeps_its_verb_and_its_condition() -> None:
    p = read("I've noticed my sourdough seems to rise faster on rainy days", "en")
    assert (p.subject, p.effect, p.scope) == ("my sourdough", "rise faster", "on rainy days")
    assert plain_reading(p, "en").endswith("rise faster on rainy days.")


def test_does_that_count_needs_a_bar_the_partner_set() -> None:
    said = "Was there a case without that factor where the pattern still appeared? A counterexample weakens it."
    assert counts_answer("Does that count as a counterexample?", "en", said) is None


def test_can_i_pick_two_is_answered() -> None:
    assert "yes, name each of them" in answer_back("Can I pick two?", "en")
    assert "可以" in answer_back("可以选两个吗？", "zh")


def test_a_sign_off_closes_but_a_sentence_about_being_done_with_a_step_does_not() -> None:
    assert parse_command("I'm done, thanks") is not None
    assert parse_command("就到这里吧") is not None
    assert parse_command("I'm done with the first step, now the second") is None


def test_a_parked_question_is_named() -> None:
    event = {"type": "STOPPED_QUESTION", "payload": {"question": "Which of the three premises are you least sure of?"}}
    assert event_lines(event, "en", with_user=False) == [
        'Let\'s park the question "Which of the three premises are you least sure of" and come back to it later.'
    ]


def test_a_rival_beside_a_search_request_is_heard(debate: Callable[..., dict[str, Any]], kb_dir: Path) -> None:
    debate("start", "I've noticed my sourdough seems to rise faster on rainy days", depth="standard")
    debate("reply", "s1", "B")
    proposed = debate(
        "reply",
        "s1",
        "Here's a competing explanation: on rainy days I run the dryer indoors and the kitchen gets warmer. "
        "Is there research on humidity and yeast activity?",
    )
    assert proposed["state"] == "WAITING_GAP_CONFIRMATION"
    assert "another possible explanation" in proposed["turn"]["response"]
    folder = kb_dir / "debates" / "s1"
    session = Engine(folder).load()
    assert any("dryer" in rival for rival in session.idea().current.alternatives)
    assert session.gap_requests[0]["question"].endswith("humidity and yeast activity")
    assert check_session(folder)["ok"]


def test_the_partners_phrase_with_the_persons_word_in_quotes_is_its_own() -> None:
    """A ninth trial asked about "the change in people" and was told the last turn did not use it;
    the turn had said "the change in “people” really happened"."""
    said = "Key premises: (1) the change in “people” really happened and is not a hindsight impression."
    answer = answer_back('What do you mean by "the change in people"?', "en", "", said)
    assert "did not use" not in answer and "was from my words" in answer


def test_can_i_rephrase_is_answered_with_how() -> None:
    assert 'write it as "Revise: …"' in answer_back("Can I rephrase the decision?", "en")
