"""`add` in batches keeps what `add` one document at a time did (issue 18): names claimed inside a
batch count as taken, a document given twice is added once, and batches split anywhere end alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from autodidact.kb import init_kb
from autodidact.progress import RecordingProgress
from autodidact.sources.ingest import add_paths
from autodidact.sources.passage_index import LocalIndex, manifest_entries

DAY = "2026-12-07"


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def test_same_names_in_one_batch_get_suffixes_and_a_repeat_is_present(tmp_path: Path) -> None:
    a = _write(tmp_path / "a" / "notes.md", "# A\n\nNotes from folder a about generators.\n")
    b = _write(tmp_path / "b" / "notes.md", "# B\n\nNotes from folder b about coroutines.\n")
    page = _write(
        tmp_path / "c" / "notes.html",
        "<html><head><title>C</title></head><body><p>Notes from c about await expressions.</p></body></html>",
    )
    kb, _ = init_kb(tmp_path / "kb", lang="en")
    report = add_paths(kb, [a, b, page, a], date=DAY)
    assert not report.skipped
    assert [(x.raw_file, x.new) for x in report.added] == [
        (f"{DAY}_notes.md", True),
        (f"{DAY}_notes-2.md", True),
        (f"{DAY}_notes-3.md", True),
        (f"{DAY}_notes.md", False),
    ]
    assert (kb.raw / f"{DAY}_notes.md").read_bytes() == a.read_bytes()
    assert (kb.raw / f"{DAY}_notes-2.md").read_bytes() == b.read_bytes()
    assert "await expressions" in (kb.raw / f"{DAY}_notes-3.md").read_text("utf-8")
    assert len(manifest_entries(kb.root)) == 3
    again = add_paths(kb, [a, b, page], date=DAY)
    assert [x.new for x in again.added] == [False, False, False]
    assert len(manifest_entries(kb.root)) == 3


@pytest.mark.parametrize("size", [1, 3, 256])
def test_batch_size_changes_nothing_but_the_progress_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    from autodidact.sources import ingest_batch

    monkeypatch.setattr(ingest_batch, "BATCH_DOCUMENTS", size)
    docs = tmp_path / "docs"
    for i in range(7):
        _write(docs / f"d{i}.md", f"# Doc {i}\n\nDocument {i} explains how generator {i} suspends at yield.\n")
    _write(docs / "skip.bin", "x")
    kb, _ = init_kb(tmp_path / "kb", lang="en")
    seen = RecordingProgress()
    report = add_paths(kb, [docs], date=DAY, progress=seen)
    assert [x.raw_file for x in report.added] == [f"{DAY}_d{i}.md" for i in range(7)]
    assert [s.source for s in report.skipped] == [str(docs / "skip.bin")]
    with LocalIndex(kb.root) as index:
        assert index.stats()["documents"] == 7
        assert index.search("generator 5 suspends", 1)[0].raw_file == f"{DAY}_d5.md"
    lines = [text for kind, text in seen.events if kind == "message"]
    # one per batch, and the run's last line (a batch of 1 was full before skip.bin was looked at)
    assert len(lines) == {1: 8, 3: 3, 256: 1}[size], lines
    assert lines[-1] == "8/8 files: 7 added, 0 already present, 1 skipped"


def test_a_pydoc_page_saved_as_text_is_added_as_the_sections_it_reads_as(tmp_path: Path) -> None:
    """`add`'s copy of `python -m pydoc selectors > selectors.txt` was quoted with pydoc's margin
    bars ("… | Select-based selector. | | Method resolution order: …"); `--corpus` read it as
    sections. A plain note stays the person's file, byte for byte."""
    import pydoc
    import selectors

    page = _write(tmp_path / "docs" / "selectors.txt", pydoc.render_doc(selectors, renderer=pydoc.plaintext))
    note = _write(tmp_path / "docs" / "notes.txt", "My notes\n\nA selector waits for readiness events.\n")
    kb, _ = init_kb(tmp_path / "kb", lang="en")
    report = add_paths(kb, [page, note], date=DAY)
    assert [x.raw_file for x in report.added] == [f"{DAY}_selectors.md", f"{DAY}_notes.txt"]
    body = (kb.raw / f"{DAY}_selectors.md").read_text("utf-8")
    assert "### class SelectSelector" in body and "Method resolution order" not in body
    assert not any(line.lstrip().startswith("|") for line in body.splitlines())
    assert (kb.raw / f"{DAY}_notes.txt").read_bytes() == note.read_bytes()
