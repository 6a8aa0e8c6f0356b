"""What a fresh-eyes trial on 2026-12-07 found (docs/debate.md, "A trial of 2026-12-07"): a hedge
taken as the proposition's scope and as a key premise, a test that rules a rival out filed as a
rival, and that rival still said to stand after the person had proposed the test.

Each test fails on the code before that trial; they run the real engine, offline.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autodidact.debate.answer_kinds import answer_parts, classify, part_of
from autodidact.debate.checker import check_session
from autodidact.debate.engine import Engine


def test_the_sentence_that_narrows_is_the_scope_not_the_hedge_before_it() -> None:
    said = "Honestly I don't know yet. Maybe keep it, but only for busy chain cafés."
    assert classify(said) == "scope"
    assert part_of(answer_parts(said), "scope") == "Maybe keep it, but only for busy chain cafés."


def test_evidence_after_a_hedge_is_the_premise_without_the_hedge() -> None:
    said = "I'm not sure about any of them, really. The only data I have: 31 of 40 tickets were about the server."
    assert part_of(answer_parts(said), "evidence", "mechanism") == "31 of 40 tickets were about the server."


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("The Tuesday story was an example, not a premise.", "correction"),
        ("那是例子，不是前提。", "correction"),
        ("And the coin flip is exactly what rules out my task-choice rival, so I'd keep the test.", "mechanism"),
    ],
)
def test_how_an_answer_opens_and_what_it_rules_out(said: str, kind: str) -> None:
    assert classify(said) == kind


def test_the_trial_session_keeps_the_scope_and_names_the_test_against_the_rival(
    debate: Callable[..., dict[str, Any]], kb_dir: Path
) -> None:
    debate("start", "Working from cafés makes deep focus worse for freelance programmers", depth="standard")
    answers = [
        "By deep focus I mean unbroken stretches of 45 minutes or more on one hard problem, compared with "
        "working from my home office.",
        "Probably the second. I tend to go to cafés on days when I only have small tickets and meetings, so the "
        "shallow work might be why I'm there, not the result of being there.",
        "Yes: last Tuesday I went to the café with a whole day reserved for a gnarly database migration, and I "
        "still got interrupted by the espresso grinder and a loud call next to me, and never got past 20 minutes "
        "at a stretch.",
        "I would log focus blocks with a timer for four weeks, alternating café and home days by coin flip "
        "regardless of the task list. If the café days show the same number of 45-minute blocks, I'd drop the "
        "claim about the café and blame the noise in general.",
        "The Tuesday story was an example, not a premise. And the coin flip is exactly what rules out my "
        "task-choice rival, so I'd keep the test. Let me narrow it, though: I only mean busy chain cafés, not "
        "quiet libraries-with-coffee.",
        "Honestly I don't know yet. Maybe keep it, but only for busy chain cafés.",
    ]
    turns = [debate("reply", "s1", answer) for answer in answers]
    folder = kb_dir / "debates" / "s1"
    session = Engine(folder).load()
    current = session.idea().current
    assert "Honestly" not in current.proposition
    assert not any("rules out" in rival for rival in current.alternatives)
    said = " ".join(str(t["turn"].get("response", "")) for t in turns)
    assert "it stands until a test tells the two apart" not in said
    assert check_session(folder)["ok"]


def test_a_chinese_gap_turn_says_its_budget_in_chinese_and_no_gap_id(
    debate: Callable[..., dict[str, Any]], kb_dir: Path
) -> None:
    debate("start", "我发现下雨天我的酸面团发酵得更快", depth="standard")
    debate("reply", "s1", "B")
    proposed = debate("reply", "s1", "有没有关于湿度和酵母活性的研究？")
    assert proposed["state"] == "WAITING_GAP_CONFIRMATION"
    shown = [str(v) for v in proposed["turn"].values() if isinstance(v, str) and "查证缺口" in v]
    assert shown and all("预算——快速" in t and "quick" not in t and "g1" not in t for t in shown)
