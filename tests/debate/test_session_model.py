"""The session's typed reviews and stage summary write ``session.json`` as the dicts did (issue 17).

Why: ``Session.summary`` holds whatever a ``CHECKPOINT`` event carried, and ``session.json`` is
compared with a replay of the log; a typed summary that filled in missing keys, dropped unknown
ones or sorted them would make every snapshot of an older or hand-written log diverge.
"""

from __future__ import annotations

import json

import pytest

from autodidact.debate.session import ReviewBatch, Session, StageSummary


def test_a_summary_writes_back_only_its_own_keys_in_their_order() -> None:
    given = {"obstacle": "no_prediction", "kept": "—", "custom": [1, {"a": None}], "reached_p3": False}
    summary = StageSummary.model_validate(given)
    assert summary.reached_p3 is False and summary.kept == "—"
    assert json.dumps(summary.model_dump(mode="json")) == json.dumps(given)
    assert StageSummary().model_dump(mode="json") == {}


def test_a_session_round_trips_its_summary_and_reviews_through_json() -> None:
    data = {
        "session_id": "s1",
        "run_id": "s1",
        "summary": {"rule": "S4", "stop_reason": "USER_CLOSED", "note": "n"},
        "reviews": [
            {
                "batch": 1,
                "requests": [{"review_id": "b1r1", "perspective": "p", "input": {"x": [1]}}],
                "results": [],
                "degraded": None,
                "assessment": {"divergence": "LOW_DIVERGENCE", "reasons": ["r"], "degraded": True},
            }
        ],
    }
    session = Session.model_validate(data)
    assert isinstance(session.reviews[0], ReviewBatch) and session.reviews[0].requests[0].input == {"x": [1]}
    written = session.to_json()
    assert json.dumps(written["summary"]) == json.dumps(data["summary"])
    assert written["reviews"] == data["reviews"]
    assert Session.model_validate(written).to_json() == written
    assert session.model_copy(deep=True).to_json() == written


def test_a_summary_value_is_not_coerced() -> None:
    with pytest.raises(ValueError):
        StageSummary.model_validate({"reached_p3": "yes"})
