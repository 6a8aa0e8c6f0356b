"""research_state.json: seed structure, atomic save, and clear errors for damaged files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autodidact.errors import IntegrityError
from autodidact.kb import KnowledgeBase, init_kb
from autodidact.loop.state import LAST_GOOD, RoundProgress, load_state, new_state, save_state

SEED_KEYS = {
    "topic",
    "started_at",
    "max_rounds",
    "status",
    "current_round_progress",
    "rounds",
    "all_questions_ever",
    "all_raw_files_processed",
    "final_summary",
}


@pytest.fixture
def kb(tmp_path: Path) -> KnowledgeBase:
    return init_kb(tmp_path / "kb", topic="生成器", lang="zh")[0]


def test_new_state_has_exactly_the_seed_keys(kb: KnowledgeBase) -> None:
    state = new_state("生成器是什么？", "2026-04-09T10:00:00", 20)
    save_state(kb, state)
    data = json.loads(kb.state_file.read_text("utf-8"))
    assert set(data) == SEED_KEYS
    assert data["current_round_progress"] is None and data["final_summary"] is None
    state.current_round_progress = RoundProgress(round=2, step1_done=True)
    state.background = "懂 Python"
    save_state(kb, state)
    again = load_state(kb)
    assert again == state
    data = json.loads(kb.state_file.read_text("utf-8"))
    assert set(data) == SEED_KEYS | {"background"}
    assert data["current_round_progress"] == {
        "round": 2,
        "step1_done": True,
        "step2_done": False,
        "step3_done": False,
        "step4_done": False,
    }
    assert (kb.internal / LAST_GOOD).read_text("utf-8") == kb.state_file.read_text("utf-8")


def test_missing_state_is_none(kb: KnowledgeBase) -> None:
    assert load_state(kb) is None


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("", "is empty"),
        ('{"topic": "x", "started_', "not valid JSON"),
        ("[1, 2]", "must hold a JSON object"),
        ('{"topic": "x"}', "field 'started_at'"),
    ],
)
def test_damaged_state_names_the_problem_and_the_way_back(kb: KnowledgeBase, content: str, expected: str) -> None:
    save_state(kb, new_state("x", "2026-01-01T00:00:00", 3))
    kb.state_file.write_text(content, "utf-8")
    with pytest.raises(IntegrityError) as err:
        load_state(kb)
    assert expected in err.value.message
    assert "research_state.json" in err.value.message
    assert err.value.hint and LAST_GOOD in err.value.hint


def test_wrong_type_deep_in_the_file_names_the_dotted_field(kb: KnowledgeBase) -> None:
    state = new_state("x", "2026-01-01T00:00:00", 3)
    save_state(kb, state)
    data = json.loads(kb.state_file.read_text("utf-8"))
    data["current_round_progress"] = {"round": 1, "step1_done": "maybe"}
    kb.state_file.write_text(json.dumps(data), "utf-8")
    with pytest.raises(IntegrityError, match=r"current_round_progress\.step1_done"):
        load_state(kb)
    data["current_round_progress"] = None
    data["status"] = "sleeping"
    kb.state_file.write_text(json.dumps(data), "utf-8")
    with pytest.raises(IntegrityError, match="field 'status'"):
        load_state(kb)


def test_a_round_recorded_before_the_stall_rule_loads_and_saves_unchanged(kb: KnowledgeBase) -> None:
    old_check = {
        "audit_issues_count": 3,
        "pending_user_questions": 0,
        "new_raw_files": 0,
        "overlap_ratio": 1.0,
        "decision": "terminate",
        "reason": "max_rounds 1 reached",
    }
    record = {
        "round": 1,
        "timestamp": "2026-01-01T00:00:00",
        "questions": [],
        "new_raw_files": [],
        "user_contributed_raw_files": [],
        "wiki_topics_updated": [],
        "check_report": None,
        "termination_check": old_check,
    }
    data = {**new_state("x", "2026-01-01T00:00:00", 1).to_json(), "rounds": [record], "status": "terminated"}
    kb.state_file.write_text(json.dumps(data), "utf-8")
    state = load_state(kb)
    assert state is not None
    check = state.rounds[0].termination_check
    assert check.new_claims is None and check.new_sources is None and check.stopped_by is None
    save_state(kb, state)
    assert json.loads(kb.state_file.read_text("utf-8"))["rounds"][0]["termination_check"] == old_check
    data["rounds"][0]["termination_check"] = {**old_check, "stopped_by": "tired"}
    kb.state_file.write_text(json.dumps(data), "utf-8")
    with pytest.raises(IntegrityError, match=r"termination_check\.stopped_by"):
        load_state(kb)
