"""Append-only JSON Lines with fsync: the shape of every ledger and event log.

Why: logs are the truth that projections are rebuilt from, so an append must be durable before
the caller moves on, and a torn last line (crash mid-write) must be detectable rather than
silently misread.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from autodidact.errors import IntegrityError
from autodidact.store.atomic import fsync_dir


def append(path: Path, record: dict[str, Any]) -> None:
    """Append one JSON object as a line and fsync it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    existed = path.exists()
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
    with open(path, "ab") as fh:
        fh.write(line.encode("utf-8"))
        fh.flush()
        os.fsync(fh.fileno())
    if not existed:
        fsync_dir(path.parent)


def read(path: Path, *, tolerate_torn_tail: bool = True) -> Iterator[dict[str, Any]]:
    """Yield each record. A bad last line is skipped when tolerated; a bad inner line raises."""
    path = Path(path)
    if not path.exists():
        return
    lines = path.read_bytes().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for number, raw in enumerate(lines, start=1):
        try:
            record = json.loads(raw.decode("utf-8"))
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
