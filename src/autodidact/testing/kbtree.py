"""Compare whole knowledge bases: the check behind every crash-equivalence test.

A resumed run must leave the same files as an uninterrupted one. Only ``.autodidact/`` (derived,
rebuildable) is skipped, and only the state file's known timestamp fields are masked.
"""

from __future__ import annotations

import json
from pathlib import Path


def kb_tree(root: Path, *, skip_internal: bool = True) -> dict[str, bytes]:
    """Every file of a knowledge base by relative path, with the state file's timestamps masked."""
    files: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if (skip_internal and rel.startswith(".autodidact")) or not path.is_file():
            continue
        data = path.read_bytes()
        if rel == "outputs/research_state.json":
            state = json.loads(data)
            state["started_at"] = "<timestamp>"
            for record in state["rounds"]:
                record["timestamp"] = "<timestamp>"
            data = json.dumps(state, ensure_ascii=False, indent=2).encode()
        files[rel] = data
    return files


def assert_same_tree(clean: dict[str, bytes], other: dict[str, bytes], label: str) -> None:
    """Same file set and same bytes, naming what differs."""
    assert sorted(other) == sorted(clean), f"{label}: file sets differ: {sorted(set(other) ^ set(clean))}"
    different = [name for name in clean if clean[name] != other[name]]
    assert not different, f"{label}: files differ: {different}"
