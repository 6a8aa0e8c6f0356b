"""The session folder as an event-sourced store (docs/contracts.md §4.2).

Why this shape: a conversation with a person cannot be re-run, so its record must survive a crash
at any byte. ``events.jsonl`` is appended with fsync and is the truth; ``session.json`` is a
revisioned snapshot written atomically; ``checkpoint.json`` seals a replay base. A bad *last* line
is a torn write (the process died mid-append) and ``recover`` quarantines it; a bad line anywhere
else means the file was damaged, so the store stops and names the line instead of guessing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from pydantic import ValidationError

from autodidact.debate.events import EventLine, event_line, parse_event
from autodidact.debate.projection import replay
from autodidact.debate.session import ProjectionError, Session
from autodidact.errors import AutodidactError, IntegrityError, NotFoundError
from autodidact.jsontypes import JSONObject
from autodidact.store import atomic
from autodidact.store.atomic import fsync_dir
from autodidact.store.hashing import canonical_json, sha256_bytes, sha256_text

EVENTS = "events.jsonl"
SNAPSHOT = "session.json"
CHECKPOINT = "checkpoint.json"
LEDGER = "usage_ledger.jsonl"
SUMMARIES = "summaries"


def new_session_id(prompt: str) -> str:
    """``<yyyymmdd>-<slug of the prompt>-<4 hex>``: a folder name that reads well in a shell and is unique.

    "cafés" becomes "cafes" (plain letters are easy to type); Chinese stays as written.
    """
    import secrets
    import unicodedata
    from datetime import UTC, datetime

    from autodidact.store.paths import slugify

    day = datetime.now(UTC).strftime("%Y%m%d")
    plain = "".join(c for c in unicodedata.normalize("NFKD", prompt) if not unicodedata.combining(c))
    return f"{day}-{slugify(plain, max_len=24, fallback='idea')}-{secrets.token_hex(2)}"


class CorruptEventLog(IntegrityError):
    """A bad line in ``events.jsonl``: torn tail (recoverable) or inner corruption (not)."""

    status = "CORRUPT_EVENT_LOG"

    def __init__(self, message: str, hint: str | None = None, *, line: int, torn_tail: bool) -> None:
        super().__init__(message, hint)
        self.line = line
        self.torn_tail = torn_tail


class RevisionConflict(IntegrityError):
    """``snapshot --expected-revision N`` did not match the revision on disk."""

    status = "REVISION_CONFLICT"


class SealedCheckpoint(TypedDict):
    """``checkpoint.json``: how many events were sealed, the last one's id, their digest, the state."""

    event_count: int
    last_event_id: str
    digest: str
    state: str


class Recovery(TypedDict):
    """What ``recover`` did: the replayed session, the quarantined tail's name, whether it re-snapshotted."""

    session: Session | None
    quarantined: str | None
    snapshot_rewritten: bool
    events: int


@dataclass
class LogRead:
    """The valid events of a log and, if present, its torn last line."""

    events: list[EventLine] = field(default_factory=list)
    torn_tail: bytes | None = None
    torn_line: int | None = None


def _decode(raw: bytes) -> EventLine:
    data = json.loads(raw.decode("utf-8"))
    if not isinstance(data, dict):
        raise ValueError("not an object")
    return event_line(data)


class SessionStore:
    """One session folder: ``events.jsonl``, ``session.json``, ``checkpoint.json``, ledger, summaries."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    @property
    def events_path(self) -> Path:
        return self.folder / EVENTS

    @property
    def snapshot_path(self) -> Path:
        return self.folder / SNAPSHOT

    @property
    def checkpoint_path(self) -> Path:
        return self.folder / CHECKPOINT

    @property
    def ledger_path(self) -> Path:
        return self.folder / LEDGER

    @property
    def summaries(self) -> Path:
        return self.folder / SUMMARIES

    def require(self) -> None:
        if not self.events_path.is_file():
            raise NotFoundError(f"no session at {self.folder} ({EVENTS} missing)", hint="check the session folder")

    # -- reading ---------------------------------------------------------------------------
    def read_log(self) -> LogRead:
        """Parse every line; raise :class:`CorruptEventLog` for a bad line before the last."""
        result = LogRead()
        if not self.events_path.exists():
            return result
        lines = self.events_path.read_bytes().split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        expected = 1
        for number, raw in enumerate(lines, start=1):
            try:
                data = _decode(raw)
                if data["seq"] != expected:
                    raise ValueError(f"seq {data['seq']} where {expected} was expected")
            except (ValueError, UnicodeDecodeError, ValidationError, KeyError) as exc:
                if number == len(lines):
                    result.torn_tail, result.torn_line = raw, number
                    return result
                raise CorruptEventLog(
                    f"{self.events_path}: line {number} is corrupt ({type(exc).__name__}); nothing was repaired",
                    hint="damage before the last line is not a torn write: restore the file from a backup",
                    line=number,
                    torn_tail=False,
                ) from None
            result.events.append(data)
            expected += 1
        return result

    def events(self) -> list[EventLine]:
        """The valid events; refuses a log with a torn tail (run ``recover`` first)."""
        log = self.read_log()
        if log.torn_tail is not None:
            raise self._torn(log)
        return log.events

    def _torn(self, log: LogRead) -> CorruptEventLog:
        return CorruptEventLog(
            f"{self.events_path}: last line {log.torn_line} is a torn write",
            hint=f"run: autodidact session recover {self.folder}",
            line=log.torn_line or 0,
            torn_tail=True,
        )

    def replay(self) -> Session | None:
        return replay(self.events())

    def read_snapshot(self) -> tuple[int, JSONObject | None]:
        """``(revision, state)`` of ``session.json``; ``(0, None)`` when absent."""
        if not self.snapshot_path.exists():
            return 0, None
        try:
            data = json.loads(self.snapshot_path.read_text("utf-8"))
            revision = int(data.pop("revision"))
        except (ValueError, KeyError, TypeError) as exc:
            raise ProjectionError(f"{self.snapshot_path} is unreadable: {exc!r}") from None
        return revision, data

    # -- writing ---------------------------------------------------------------------------
    def append(self, event: EventLine) -> bool:
        """Append one event durably. Returns False when its ``event_id`` is already in the log."""
        log = self.read_log()
        if log.torn_tail is not None:
            raise self._torn(log)
        try:
            parse_event(event)
        except ValidationError as exc:
            raise AutodidactError(
                f"invalid event: {str(exc).splitlines()[0]}", hint="see docs/contracts.md §4.1", exit_code=2
            ) from None
        if any(e["event_id"] == event["event_id"] for e in log.events):
            return False
        expected = len(log.events) + 1
        if event["seq"] != expected:
            raise AutodidactError(f"event seq {event['seq']} does not follow {expected - 1}", exit_code=2)
        if log.events and event["session_id"] != log.events[0]["session_id"]:
            raise AutodidactError(f"event belongs to session {event['session_id']!r}", exit_code=2)
        replay([*log.events, event])  # never write an event the projection cannot apply
        self.write_line(event)
        return True

    def write_line(self, event: EventLine) -> None:
        """The durable append itself; the engine calls it after checking against its in-memory log."""
        self.folder.mkdir(parents=True, exist_ok=True)
        existed = self.events_path.exists()
        line = (json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
        with open(self.events_path, "ab") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())
        if not existed:
            fsync_dir(self.folder)

    def snapshot(self, expected_revision: int | None = None) -> int:
        """Write the replayed state as revision N+1; refuse if the disk revision is not N."""
        current, _ = self.read_snapshot()
        if expected_revision is not None and expected_revision != current:
            raise RevisionConflict(
                f"{self.snapshot_path} is at revision {current}, not {expected_revision}",
                hint="another writer moved the session on; re-read it and retry",
            )
        session = self.replay()
        if session is None:
            raise NotFoundError(f"no events in {self.events_path}")
        data = {"revision": current + 1, **session.to_json()}
        atomic.write_json(self.snapshot_path, data)
        return current + 1

    def digest(self, events: list[EventLine]) -> str:
        return sha256_text("\n".join(canonical_json(e) for e in events))

    def seal(self) -> SealedCheckpoint:
        """Write ``checkpoint.json`` when ``session.json`` equals the replay; else raise."""
        events = self.events()
        session = replay(events)
        _, state = self.read_snapshot()
        if session is None or state != session.to_json():
            raise IntegrityError(
                f"{self.snapshot_path} differs from the replay of {len(events)} events; not sealed",
                hint=f"run: autodidact session recover {self.folder}",
            )
        data: SealedCheckpoint = {
            "event_count": len(events),
            "last_event_id": events[-1]["event_id"],
            "digest": self.digest(events),
            "state": session.state,
        }
        atomic.write_json(self.checkpoint_path, data)
        return data

    def check(self) -> list[str]:
        """Every divergence between the log, the snapshot and the sealed checkpoint."""
        problems: list[str] = []
        log = self.read_log()
        if log.torn_tail is not None:
            problems.append(f"torn last line {log.torn_line} (run recover)")
        quarantined = sorted(p.name for p in self.folder.glob(f"{EVENTS}.corrupt-tail-*"))
        if quarantined:
            problems.append(f"quarantined tail present: {', '.join(quarantined)}")
        session = replay(log.events)
        _, state = self.read_snapshot()
        if session is not None and state is not None and state != session.to_json():
            problems.append("session.json differs from the replay of events.jsonl")
        if state is None:
            problems.append("no session.json snapshot")
        if not self.checkpoint_path.exists():
            problems.append("no checkpoint.json (never sealed)")
        else:
            sealed = json.loads(self.checkpoint_path.read_text("utf-8"))
            count = int(sealed.get("event_count", 0))
            prefix = log.events[:count]
            if len(prefix) < count or self.digest(prefix) != sealed.get("digest"):
                problems.append("event prefix changed since the checkpoint was sealed")
        return problems

    def recover(self) -> Recovery:
        """Quarantine a torn tail, keep a backup, rewrite the valid prefix, replay, re-snapshot."""
        self.require()
        log = self.read_log()
        quarantine = None
        if log.torn_tail is not None:
            original = self.events_path.read_bytes()
            quarantine = self.folder / f"{EVENTS}.corrupt-tail-{sha256_bytes(log.torn_tail)[:12]}"
            atomic.write_bytes(quarantine, log.torn_tail)
            atomic.create_exclusive(self.folder / f"{EVENTS}.pre-recovery-{sha256_bytes(original)[:12]}", original)
            prefix = b"".join(
                (json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8") for e in log.events
            )
            atomic.write_bytes(self.events_path, prefix)
        session = replay(log.events)
        _, state = self.read_snapshot()
        snapshot_diverged = session is not None and state != session.to_json()
        if session is not None and snapshot_diverged:
            self.snapshot()
        return {
            "session": session,
            "quarantined": quarantine.name if quarantine else None,
            "snapshot_rewritten": snapshot_diverged,
            "events": len(log.events),
        }

    def ledger(self, record: Mapping[str, object]) -> None:
        """One usage line per turn (model calls and their totals; never a secret)."""
        from autodidact.store import jsonl

        jsonl.append(self.ledger_path, record)
