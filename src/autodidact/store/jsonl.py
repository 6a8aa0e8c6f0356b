"""Append-only JSON Lines with fsync: the shape of every ledger and event log.

Why: logs are the truth that projections are rebuilt from, so an append must be durable before
the caller moves on, and a torn last line (crash mid-write) must be detectable rather than
silently misread.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from autodidact.errors import IntegrityError
from autodidact.jsontypes import JSONObject, JSONValue
from autodidact.store.atomic import fsync_dir


def seal_torn_tail(path: Path) -> Path | None:
    """Move a torn last line (bytes after the last newline: a writer died mid-append) aside.

    Without this, the next append would glue a whole record to the fragment and turn a droppable
    torn tail into corruption before the last line. The fragment is kept in
    ``<name>.torn-<sha12>`` (nothing is lost) and the log is cut back to its last whole line.
    Returns the quarantine file, or None when the log ends cleanly.
    """
    path = Path(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None
    if size == 0:
        return None
    with open(path, "rb+") as fh:
        fh.seek(-1, os.SEEK_END)
        if fh.read(1) == b"\n":
            return None
        fh.seek(0)
        data = fh.read()
        keep = data.rfind(b"\n") + 1
        fragment = data[keep:]
        quarantine = path.with_name(f"{path.name}.torn-{hashlib.sha256(fragment).hexdigest()[:12]}")
        with open(quarantine, "wb") as out:
            out.write(fragment)
            out.flush()
            os.fsync(out.fileno())
        fh.truncate(keep)
        fh.flush()
        os.fsync(fh.fileno())
    fsync_dir(path.parent)
    return quarantine


def append(path: Path, record: Mapping[str, object]) -> None:
    """Append one JSON object as a line and fsync it (sealing a torn last line first)."""
    append_many(path, [record])


def append_many(path: Path, records: Sequence[Mapping[str, object]]) -> None:
    """Append JSON objects as lines with one write and one fsync (sealing a torn last line first).

    A process killed during the write leaves at most one torn last line, which the next append
    seals away; the lines before it are whole."""
    if not records:
        return
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    existed = path.exists()
    if existed:
        seal_torn_tail(path)
    lines = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)
    with open(path, "ab") as fh:
        fh.write(lines.encode("utf-8"))
        fh.flush()
        os.fsync(fh.fileno())
    if not existed:
        fsync_dir(path.parent)


def read(path: Path, *, tolerate_torn_tail: bool = True) -> Iterator[JSONObject]:
    """Yield each record. A bad last line is skipped when tolerated; a bad inner line raises."""
    path = Path(path)
    if not path.exists():
        return
    yield from records(path.read_bytes(), path, tolerate_torn_tail=tolerate_torn_tail)


def records(data: bytes, path: Path, *, tolerate_torn_tail: bool = True) -> Iterator[JSONObject]:
    """:func:`read` of the bytes ``data`` of the log at ``path`` (named in errors)."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for number, raw in enumerate(lines, start=1):
        try:
            record: JSONValue = json.loads(raw.decode("utf-8"))
            if not isinstance(record, dict):
                raise ValueError("not an object")
        except (ValueError, UnicodeDecodeError):
            if number == len(lines) and tolerate_torn_tail:
                return
            raise IntegrityError(
                f"{path}: line {number} is not a JSON object",
                hint="the log is corrupt before its last line; restore it from a backup",
            ) from None
        yield record
