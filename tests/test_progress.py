"""One progress protocol (autodidact/progress.py): what long operations report, and how the
terminal shows it (cli/progress_view.py)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
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


def test_indexing_reports_a_count_with_its_total_and_a_line_per_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A count per document (a bar and an ETA), and one line per batch, not one per document:
    a log of an `add` of 5,000 files has a line per 256 of them (issue 18)."""
    from autodidact.sources import ingest_batch

    monkeypatch.setattr(ingest_batch, "BATCH_DOCUMENTS", 2)
    seen = RecordingProgress()
    index_corpus(tmp_path / "report", [_corpus(tmp_path, 5)], progress=seen)
    advances = [text for kind, text in seen.events if kind == "advance"]
    total = advances[-1].split("/")[1]
    assert advances[0].startswith("0/") and advances[-1] == f"{total}/{total}" and int(total) == 6
    lines = [text for kind, text in seen.events if kind == "message"]
    assert len(lines) == 3, lines  # batches of 2, 2 and 1 documents
    assert lines[0].startswith("3/6 files: 2 indexed, 0 unchanged, 1 skipped")  # image.bin sorts first
    assert lines[-1] == "6/6 files: 5 indexed, 0 unchanged, 1 skipped"


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
    assert piped.getvalue().count("files: 2 indexed") == 1  # one line for the one batch
    term = io.StringIO()
    with ConsoleProgress(Console(file=term, width=100, force_terminal=True), "indexing") as shown:
        index_corpus(tmp_path / "b", [corpus], progress=shown)
    assert "files:" not in term.getvalue() and "indexing" in term.getvalue()
