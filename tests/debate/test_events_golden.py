"""The events a session writes, and the state replayed from them, are fixed byte for byte (issue 17).

Why: events are written as the plain dict that was validated, and their ids derive from their
content, so a change of how the engine builds a payload (a model instead of a dict, a default
filled in, a key moved) would change ``events.jsonl`` and every id after it; the projection that
reads them through the payload models must rebuild the same ``session.json``. These files were
written by the code before the payloads were typed (every event type but STOPPED_QUESTION and
PAUSED occurs); the clock and the timestamps are fixed, so a run writes exactly the same bytes.
Regenerate only for a deliberate change of the event format:
``WRITE_DEBATE_GOLDEN=1 pytest tests/debate/test_events_golden.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from autodidact.debate import events
from autodidact.debate.engine import Engine

GOLDEN = Path(__file__).parent / "data" / "golden"

SESSIONS: dict[str, tuple[str, list[str]]] = {
    "desks-en": (
        "Standing desks make our team more focused",
        ["standard", "B, fewer context switches per hour", "Because standing keeps people from drifting into chat.",
         "If the sitting weeks show the same number of switches, I'd drop it.", "No, the floor was the same all along.",
         "give me a summary", "/close"],
    ),
    "pricing-en": (
        "The new pricing page caused the rise in signups",
        ["quick", "No, I mean the number of paid signups, not the free ones.", "No idea, honestly.",
         "Revise: the new pricing page raised paid signups per week", "/close"],
    ),
    "shifts-zh": (
        "自从换了新的排班，客户投诉更高了",
        ["标准", "不是，我说的是投诉量，不是投诉率。", "因为新排班让熟手都在白天。",
         "如果投诉量没变，我就放弃这个想法。", "/close"],
    ),
    "gap-review-en": (
        "Remote work makes people less creative because they miss chance encounters",
        ["standard", "I mean the number of new ideas proposed in meetings",
         "My premise is that chance encounters drive new ideas, but that is unverified", "find evidence",
         "scope: only the notes in raw", "no, let's keep talking", "independent review",
         "B, fewer ideas per meeting", "/close"],
    ),
    "gap-yes-zh": (
        "远程办公让人更少有新点子，因为少了偶遇",
        ["标准", "我的前提是偶遇带来新点子，但这还没核实", "帮我查证一下", "确认", "挑战一下", "/close"],
    ),
}  # fmt: skip


def _run(folder: Path, prompt: str, answers: list[str]) -> None:
    Engine(folder, clock=lambda: 0.0).start(prompt)
    for answer in answers:
        engine = Engine(folder, clock=lambda: 0.0)
        if answer == "/close":
            engine.close()
        else:
            engine.reply(answer)


@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_a_session_writes_the_same_events_file(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(events, "now_iso", lambda: "2026-01-01T00:00:00Z")
    prompt, answers = SESSIONS[name]
    folder = tmp_path / name
    _run(folder, prompt, answers)
    for written, golden in ((folder / "events.jsonl", GOLDEN / f"{name}.jsonl"),
                            (folder / "session.json", GOLDEN / f"{name}.session.json")):  # fmt: skip
        if os.environ.get("WRITE_DEBATE_GOLDEN") == "1":
            golden.parent.mkdir(parents=True, exist_ok=True)
            golden.write_bytes(written.read_bytes())
        assert written.read_bytes() == golden.read_bytes(), f"{written.name} differs from {golden.name}"
