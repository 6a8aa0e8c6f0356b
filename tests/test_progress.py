"""One progress protocol (autodidact/progress.py): what long operations report, and how the
terminal shows it (cli/progress_view.py)."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from autodidact.cli.progress_view import ConsoleProgress
from autodidact.progress import Prefixed, RecordingProgress
from autodidact.sources.ingest import index_corpus


def _corpus(root: Path, n: int) -> Path:
    folder = root / "docs"
    folder.mkdir()
    for i in range(n):
        (folder / f"page{i}.md").write_text(f"# Page {i}\n\nPage {i} explains topic number {i} in a sentence.\n")
    (folder / "image.bin").write_bytes(b"\x00\x01")
    return folder


def test_indexing_reports_a_count_with_its_total_and_a_line_per_document(tmp_path: Path) -> None:
    seen = RecordingProgress()
    index_corpus(tmp_path / "report", [_corpus(tmp_path, 3)], progress=seen)
    advances = [text for kind, text in seen.events if kind == "advance"]
    total = advances[-1].split("/")[1]
    assert advances[0].startswith("0/") and advances[-1] == f"{total}/{total}" and int(total) >= 3
    assert sum(1 for kind, text in seen.events if kind == "message" and text.startswith("indexed")) == 3


def test_prefixed_names_whose_lines_they_are() -> None:
    seen = RecordingProgress()
    Prefixed(seen, "d2").message("kq1: 2 claims")
    Prefixed(seen, "d2").warning("source skipped")
    assert seen.events == [("message", "d2: kq1: 2 claims"), ("warning", "d2: source skipped")]
    assert seen.warnings == ["d2: source skipped"]


def test_a_terminal_gets_a_bar_and_a_pipe_gets_lines(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path, 2)
    piped = io.StringIO()
    with ConsoleProgress(Console(file=piped, width=100), "indexing") as shown:
        index_corpus(tmp_path / "a", [corpus], progress=shown)
    assert piped.getvalue().count("indexed:") == 2
    term = io.StringIO()
    with ConsoleProgress(Console(file=term, width=100, force_terminal=True), "indexing") as shown:
        index_corpus(tmp_path / "b", [corpus], progress=shown)
    assert "indexed:" not in term.getvalue() and "indexing" in term.getvalue()
