"""`add` refuses an empty path and never takes the knowledge base's own files as sources
(issue: hostile testing, item 7). Before, `add ""` added the current folder — the knowledge
base's CLAUDE.md, wiki/INDEX.md and outputs/ included — and `add .` inside it did the same."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def _raw_names(kb: Path) -> set[str]:
    return {p.name for p in (kb / "raw").iterdir()}


def test_an_empty_path_is_refused_and_nothing_is_added(cli: Any, kb_dir: Path) -> None:
    before = _raw_names(kb_dir)
    result = cli("add", "", "--kb", str(kb_dir))
    assert result.exit_code == 2 and "empty path" in result.output
    assert _raw_names(kb_dir) == before


def test_the_knowledge_bases_own_files_are_never_sources(cli: Any, kb_dir: Path, tmp_path: Path) -> None:
    (kb_dir / "raw" / "2026-01-01_mine.md").write_text("# Mine\n\nMy own note on coroutines.\n", "utf-8")
    here = os.getcwd()
    os.chdir(kb_dir)
    try:
        result = cli("add", ".")
    finally:
        os.chdir(here)
    said = " ".join(result.output.split())
    assert "CLAUDE.md: part of the knowledge base itself" in said
    assert "wiki/INDEX.md: part of the knowledge base itself" in said
    names = _raw_names(kb_dir)
    assert not any("claude" in n or "index" in n or "user-questions" in n for n in names), names
    assert "2026-01-01_mine.md" in names  # a file already in raw/ is indexed in place
    outside = tmp_path / "papers"
    outside.mkdir()
    (outside / "p.md").write_text("# Paper\n\nTask groups structure concurrency.\n", "utf-8")
    assert cli("add", str(outside), str(kb_dir / "wiki"), "--kb", str(kb_dir)).exit_code == 1  # wiki/ skipped
    assert any(n.endswith("_p.md") for n in _raw_names(kb_dir))
