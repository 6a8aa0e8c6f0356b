"""What a round keeps between passes over raw/ follows the files (issue 18): an excerpt key worked
out once per content is worked out again when the file changes, even in place. And the collector
setting rounds run under is the run's only (loop/runner.py, ``ROUND_GC_THRESHOLD``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

from autodidact.kb import init_kb
from autodidact.loop.research_step import raw_excerpts_by_text
from autodidact.sources.rawfiles import RawFile, write_raw_file

from .conftest import TOPIC


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


def test_rounds_run_with_the_raised_collector_threshold_and_restore_it(fresh_kb: Callable[[str], Path]) -> None:
    import gc

    from autodidact.config import load_settings
    from autodidact.kb import open_kb
    from autodidact.llm.runtime import Runtime
    from autodidact.loop.progress import RecordingReporter
    from autodidact.loop.runner import ROUND_GC_THRESHOLD, research_sync

    seen: list[tuple[int, int, int]] = []

    class Watching(RecordingReporter):
        def round_started(self, round_n: int, max_rounds: int) -> None:
            seen.append(gc.get_threshold())
            super().round_started(round_n, max_rounds)

    root = fresh_kb("kb")
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        research_sync(open_kb(root), topic=TOPIC, runtime=Runtime(), settings=load_settings(root), reporter=Watching(),
                      max_rounds=1)  # fmt: skip
        assert seen == [(ROUND_GC_THRESHOLD, 10, 10)]
        assert gc.get_threshold() == (700, 10, 10)  # the caller's settings once the run ends
    finally:
        gc.set_threshold(*before)


def test_the_compile_works_out_the_quote_keys_of_every_article(fresh_kb: Callable[[str], Path]) -> None:
    """Also of the articles a person's file went into (their sources already say the round touched
    them): else the next round works them out, for every article a large compile wrote."""
    from autodidact.config import load_settings
    from autodidact.kb import open_kb
    from autodidact.llm.runtime import Runtime
    from autodidact.loop.runner import research_sync
    from autodidact.wiki.common.articles import wiki_files

    root = fresh_kb("kb")
    (root / "raw" / "widget-notes.md").write_text(
        "# Generator notes\n\nA generator pauses at each yield and resumes where it left off.\n", "utf-8"
    )
    research_sync(open_kb(root), topic=TOPIC, runtime=Runtime(), settings=load_settings(root), max_rounds=1)
    files = wiki_files(root / "wiki")
    assert any("widget-notes.md" in f.article.sources for f in files)
    assert all("quote keys" in f._derived for f in files)
