"""Fixtures for the debate tests: a CLI driver that speaks JSON, and hand-built event logs."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autodidact.debate.events import make_event


@pytest.fixture
def debate(cli: Any, kb_dir: Path) -> Callable[..., dict[str, Any]]:
    """``debate("start", prompt, depth=None)`` / ``debate("reply", sid, answer)`` → the turn JSON."""

    def run(op: str, *args: str, depth: str | None = None, sid: str = "s1") -> dict[str, Any]:
        if op == "start":
            extra = ["--depth", depth] if depth else []
            cmd = ["debate", "start", args[0], "--kb", str(kb_dir), "--no-input", "--json", "--session-id", sid, *extra]
        else:
            cmd = ["debate", op, *args, "--kb", str(kb_dir), "--json"]
        result = cli(*cmd)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    return run


class LogBuilder:
    """Builds a valid event log by hand (for checker and store fixtures)."""

    def __init__(self, session_id: str = "fx") -> None:
        self.session_id = session_id
        self.events: list[dict[str, Any]] = []

    def add(
        self, type_: str, payload: dict[str, Any], actor: str = "moderator", kind: str = "SYSTEM"
    ) -> dict[str, Any]:
        event = make_event(
            self.session_id, len(self.events) + 1, type_, actor=actor, execution_kind=kind, payload=payload
        )
        self.events.append(event)
        return event

    def field(self, name: str, value: Any) -> None:
        self.add("SELECTION_REASON", {"field": name, "value": value})

    def write(self, folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        lines = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in self.events)
        (folder / "events.jsonl").write_text(lines, "utf-8")
        return folder


@pytest.fixture
def log_builder() -> Callable[[], LogBuilder]:
    return LogBuilder


def talk(folder: Path, prompt: str, answers: list[str]) -> list[str]:
    """Start a session and reply with each answer; what the person reads after each step."""
    from autodidact.debate.engine import Engine
    from autodidact.debate.render import render_events

    shown = [render_events(Engine(folder).start(prompt), "en")]
    for answer in answers:
        shown.append(render_events(Engine(folder).reply(answer), Engine(folder).load().language))
    return shown
