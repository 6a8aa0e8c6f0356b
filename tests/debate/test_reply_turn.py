"""A reply answers the turn its sender saw (issue 13 item 6; docs/hardening.md "Debate replies").

Before: three concurrent `debate reply` calls all exited 0 and landed on successive turns, each
answering a question its sender never saw.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autodidact.debate.store import SessionStore

PROMPT = "I think morning runs make me more productive at work"


def _events(kb_dir: Path) -> int:
    return len(SessionStore(kb_dir / "debates" / "s1").events())


def test_a_reply_to_a_turn_that_has_moved_on_is_refused_and_writes_nothing(
    debate: Callable[..., dict[str, Any]], cli: Any, kb_dir: Path
) -> None:
    first = debate("start", PROMPT)
    open_turn = first["turn"]["turn"]
    answered = cli(
        "debate", "reply", "s1", "Mostly the first two hours", "--turn", str(open_turn), "--kb", str(kb_dir), "--json"
    )
    assert answered.exit_code == 0, answered.output
    moved_to = json.loads(answered.stdout)["turn"]["turn"]
    assert moved_to != open_turn
    before = _events(kb_dir)
    late = cli("debate", "reply", "s1", "I sleep better too", "--turn", str(open_turn), "--kb", str(kb_dir))
    assert late.exit_code == 3
    assert f"answers turn {open_turn}" in late.output and f"turn {moved_to} is open" in late.output
    assert _events(kb_dir) == before  # nothing recorded
    now = cli("debate", "reply", "s1", "I sleep better too", "--turn", str(moved_to), "--kb", str(kb_dir))
    assert now.exit_code == 0, now.output


def test_without_turn_a_reply_answers_the_open_one(debate: Callable[..., dict[str, Any]], kb_dir: Path) -> None:
    first = debate("start", PROMPT)
    second = debate("reply", "s1", "Mostly the first two hours")
    assert second["turn"]["turn"] != first["turn"]["turn"]


def test_a_stale_turn_at_a_checkpoint_says_a_plain_reply_goes_on(
    debate: Callable[..., dict[str, Any]], cli: Any, kb_dir: Path
) -> None:
    """A trial sent --turn 2 at a checkpoint and read only "no question is open"."""
    first = debate("start", PROMPT, depth="standard")
    debate("reply", "s1", "Mostly the first two hours")
    debate("reply", "s1", "give me a summary")  # a checkpoint on request
    assert SessionStore(kb_dir / "debates" / "s1").replay().state == "CHECKPOINT"  # type: ignore[union-attr]
    late = cli("debate", "reply", "s1", "one more", "--turn", str(first["turn"]["turn"]), "--kb", str(kb_dir))
    assert late.exit_code == 3 and "checkpoint" in late.output and "without --turn" in late.output
