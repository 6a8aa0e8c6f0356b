"""The event store (docs/contracts.md §4.2): idempotent append, torn tails, inner corruption, revisions, seal."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from autodidact.debate.engine import Engine
from autodidact.debate.events import make_event
from autodidact.debate.store import CorruptEventLog, RevisionConflict, SessionStore
from autodidact.errors import IntegrityError


def _session(tmp_path: Path, answers: tuple[str, ...] = ("quick", "I mean the felt tiredness, option A")) -> Path:
    folder = tmp_path / "debates" / "s1"
    Engine(folder).start("Using AI to write code makes me more tired")
    for answer in answers:
        Engine(folder).reply(answer)
    return folder


def _paused(store: SessionStore) -> dict[str, Any]:
    events = store.events()
    return make_event(events[0]["session_id"], len(events) + 1, "PAUSED", actor="moderator",
                      execution_kind="SYSTEM", payload={"reason": "test"})  # fmt: skip


def test_append_is_idempotent_by_event_id(tmp_path: Path) -> None:
    store = SessionStore(_session(tmp_path))
    before = len(store.events())
    event = _paused(store)
    assert store.append(event) is True
    assert store.append(event) is False
    assert len(store.events()) == before + 1
    assert store.replay().state == "PAUSED"  # type: ignore[union-attr]


def test_append_refuses_a_gap_in_seq_and_a_foreign_session(tmp_path: Path) -> None:
    store = SessionStore(_session(tmp_path))
    event = _paused(store)
    with pytest.raises(Exception, match="does not follow"):
        store.append({**event, "seq": event["seq"] + 5, "event_id": "ev-other"})
    other = make_event("other", event["seq"], "PAUSED", actor="m", execution_kind="SYSTEM", payload={})
    with pytest.raises(Exception, match="belongs to session"):
        store.append(other)


def test_torn_tail_is_quarantined_backed_up_and_the_rest_replays(tmp_path: Path) -> None:
    folder = _session(tmp_path)
    store = SessionStore(folder)
    good = store.events_path.read_bytes()
    torn = b'{"schema_version":"0.1","event_id":"ev-9'
    store.events_path.write_bytes(good + torn)
    with pytest.raises(CorruptEventLog) as info:
        store.append(make_event("s1", 99, "PAUSED", actor="m", execution_kind="SYSTEM"))
    assert info.value.torn_tail
    assert any("torn" in p for p in store.check())
    result = store.recover()
    assert result["quarantined"].startswith("events.jsonl.corrupt-tail-")
    assert (folder / result["quarantined"]).read_bytes() == torn
    backups = list(folder.glob("events.jsonl.pre-recovery*"))
    assert len(backups) == 1 and backups[0].read_bytes() == good + torn
    assert store.events_path.read_bytes() == good
    assert store.replay() is not None
    assert store.append(_paused(store)) is True


def test_inner_corruption_stops_with_the_line_number_and_repairs_nothing(tmp_path: Path) -> None:
    folder = _session(tmp_path)
    store = SessionStore(folder)
    lines = store.events_path.read_bytes().split(b"\n")
    lines[2] = b"{not json"
    damaged = b"\n".join(lines)
    store.events_path.write_bytes(damaged)
    with pytest.raises(CorruptEventLog) as info:
        store.recover()
    assert info.value.line == 3 and not info.value.torn_tail
    assert store.events_path.read_bytes() == damaged
    assert not list(folder.glob("events.jsonl.corrupt-tail-*"))
    assert not list(folder.glob("events.jsonl.pre-recovery*"))


def test_snapshot_refuses_a_revision_conflict(tmp_path: Path) -> None:
    store = SessionStore(_session(tmp_path))
    revision, _ = store.read_snapshot()
    before = store.snapshot_path.read_bytes()
    with pytest.raises(RevisionConflict):
        store.snapshot(expected_revision=revision - 1)
    assert store.snapshot_path.read_bytes() == before
    assert store.snapshot(expected_revision=revision) == revision + 1


def test_seal_refuses_a_state_that_differs_from_the_replay_and_check_reports_it(tmp_path: Path) -> None:
    folder = _session(tmp_path)
    store = SessionStore(folder)
    assert store.check() == []
    data = json.loads(store.snapshot_path.read_text("utf-8"))
    data["state"] = "CLOSED"
    store.snapshot_path.write_text(json.dumps(data), "utf-8")
    sealed_before = store.checkpoint_path.read_bytes()
    with pytest.raises(IntegrityError, match="differs from the replay"):
        store.seal()
    assert store.checkpoint_path.read_bytes() == sealed_before
    assert "session.json differs from the replay of events.jsonl" in store.check()


def test_check_reports_a_changed_prefix_and_a_missing_checkpoint(tmp_path: Path) -> None:
    folder = _session(tmp_path)
    store = SessionStore(folder)
    events = store.events()
    events[0]["payload"]["text"] = "a different prompt"
    store.events_path.write_text("".join(json.dumps(e) + "\n" for e in events), "utf-8")
    assert "event prefix changed since the checkpoint was sealed" in store.check()
    store.checkpoint_path.unlink()
    assert "no checkpoint.json (never sealed)" in store.check()


def test_store_cli_statuses_and_exit_codes(cli: Any, tmp_path: Path) -> None:
    folder = _session(tmp_path)
    ok = cli("session", "check", str(folder))
    assert ok.exit_code == 0 and json.loads(ok.stdout)["status"] == "OK"
    revision = json.loads((folder / "session.json").read_text("utf-8"))["revision"]
    conflict = cli("session", "snapshot", str(folder), "--expected-revision", str(revision + 7))
    assert conflict.exit_code == 1 and json.loads(conflict.stdout)["status"] == "REVISION_CONFLICT"
    snap = cli("session", "snapshot", str(folder), "--expected-revision", str(revision))
    assert json.loads(snap.stdout) == {"status": "OK", "revision": revision + 1}
    event = json.dumps(_paused(SessionStore(folder)))
    first = json.loads(cli("session", "append", str(folder), "--event-json", event).stdout)
    again = json.loads(cli("session", "append", str(folder), "--event-json", event).stdout)
    assert first["appended"] is True and first["status"] == "OK"
    assert again["appended"] is False and again["event_id"] == first["event_id"]
    stale = cli("session", "check", str(folder))
    assert stale.exit_code == 1 and json.loads(stale.stdout)["status"] == "INCONSISTENT"
    sealed = cli("session", "seal", str(folder))
    assert sealed.exit_code == 1  # session.json is behind the log
    assert cli("session", "recover", str(folder)).exit_code == 0
    assert cli("session", "seal", str(folder)).exit_code == 0
    bad = cli("session", "append", str(folder), "--event-json", "{nope")
    assert bad.exit_code == 2 and json.loads(bad.stdout)["status"] == "INPUT_ERROR"
    missing = cli("session", "check", str(tmp_path / "nowhere"))
    assert missing.exit_code == 2 and json.loads(missing.stdout)["status"] == "NOT_FOUND"
    identity = json.dumps({"type": "SELECTION_REASON", "actor": "m", "execution_kind": "SYSTEM",
                           "payload": {"field": "session_id", "value": "stolen"}})  # fmt: skip
    refused = cli("session", "append", str(folder), "--event-json", identity)
    assert refused.exit_code == 1 and json.loads(refused.stdout)["status"] == "PROJECTION_ERROR"
    lines = (folder / "events.jsonl").read_bytes().split(b"\n")
    lines[1] = b"garbage"
    (folder / "events.jsonl").write_bytes(b"\n".join(lines))
    corrupt = cli("session", "recover", str(folder))
    assert corrupt.exit_code == 1
    assert json.loads(corrupt.stdout) | {"message": ""} == {
        "status": "CORRUPT_EVENT_LOG", "line": 2, "torn_tail": False, "message": ""
    }  # fmt: skip


def test_recover_briefing_has_at_most_ten_lines_and_asks_nothing_new(cli: Any, tmp_path: Path) -> None:
    folder = _session(tmp_path)
    pending = SessionStore(folder).replay().pending_question  # type: ignore[union-attr]
    events_before = len(SessionStore(folder).events())
    result = json.loads(cli("session", "recover", str(folder)).stdout)
    lines = result["briefing"]
    assert 0 < len(lines) <= 10
    assert any(pending["question"] in line for line in lines)
    assert sum(line.count("?") + line.count("？") for line in lines) == 1  # only the existing question, quoted
    assert len(SessionStore(folder).events()) == events_before
    # words, not internals: a trial read role ids and "events 18/120, active 0/600s" here
    assert not any(re.search(r"[a-z]+_[a-z]+|events \d|WAITING_|active \d", line) for line in lines)


def test_a_misspelt_or_mistyped_payload_field_is_refused_when_made_and_when_read(tmp_path: Path) -> None:
    """Each event type has its payload model (debate/payloads.py): "stop_reson" would otherwise be
    replayed as a checkpoint without a reason."""
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="stop_reson"):
        make_event("s1", 1, "CHECKPOINT", actor="moderator", execution_kind="SYSTEM",
                   payload={"stop_reson": "USER_CLOSED", "summary": {}})  # fmt: skip
    with pytest.raises(ValidationError, match="turn"):
        make_event("s1", 1, "QUESTION_ASKED", actor="moderator", execution_kind="SYSTEM",
                   payload={"turn": "two", "question": "Why?", "why": "a reason"})  # fmt: skip
    folder = _session(tmp_path)
    store = SessionStore(folder)
    lines = store.events_path.read_text("utf-8").splitlines()
    second = json.loads(lines[1])
    second["payload"]["unknown_field"] = 1
    lines[1] = json.dumps(second, ensure_ascii=False)
    store.events_path.write_text("\n".join(lines) + "\n", "utf-8")
    with pytest.raises(CorruptEventLog) as info:
        store.events()
    assert info.value.line == 2
