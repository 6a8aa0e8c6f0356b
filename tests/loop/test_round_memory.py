"""What a round keeps between passes over raw/ follows the files (issue 18): an excerpt key worked
out once per content is worked out again when the file changes, even in place."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

from autodidact.kb import init_kb
from autodidact.loop.research_step import raw_excerpts_by_text
from autodidact.sources.rawfiles import RawFile, write_raw_file


def test_excerpt_keys_follow_an_edited_raw_file(tmp_path: Path) -> None:
    kb, _ = init_kb(tmp_path / "kb", topic="Python generators", lang="en")
    rf = RawFile(
        filename="",
        title="Generators",
        url="https://docs.invalid/gen",
        fetched_date="2026-12-01",
        question_ids=[],
        quality="高",
        quality_note="test fixture",
        snapshot_ref="",
        body="A generator   yields values\none at a time.\n",
    )
    path, _ = write_raw_file(kb.raw, rf, date="2026-12-01")
    ctx = cast(Any, SimpleNamespace(kb=kb))
    assert raw_excerpts_by_text(ctx) == {
        ("https://docs.invalid/gen", "A generator yields values one at a time."): path.name
    }
    assert raw_excerpts_by_text(ctx) == raw_excerpts_by_text(ctx)  # kept: the same answer
    text = path.read_text("utf-8").replace("one at a time", "lazily, one by one")
    st = path.stat()
    path.write_text(text, "utf-8")  # in place, the same inode
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # even with the old mtime (ctime still moves)
    assert raw_excerpts_by_text(ctx) == {
        ("https://docs.invalid/gen", "A generator yields values lazily, one by one."): path.name
    }
