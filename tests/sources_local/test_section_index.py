"""The local index by section: passages never cross sections, hits name theirs, old indexes rebuild."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from autodidact.cli import app
from autodidact.kb import init_kb
from autodidact.sources.ingest import add_paths, index_corpus
from autodidact.sources.passage_index import LocalIndex, PassageIndex, open_index
from autodidact.sources.snapshots import SnapshotStore, local_url
from autodidact.store.derived_db import index_path
from autodidact.text.sections import split_sections

DEBIAN = Path("/usr/share/debian-reference")
FILLER = "The archive keeps many versions of each package for every release and architecture. "
BOOK = (
    "# Package handbook\n\n"
    + FILLER * 4
    + "\n\n## 2.5. Release files\n\n"
    + FILLER * 6
    + "Normal archives get the default priority 500.\n\n"
    + "## 2.7.3. Tweaking candidate version\n\n"
    + "Without a preferences file the newest version wins. "
    + FILLER * 3
    + "\n\n## 2.7.4. Updates and backports\n\n"
    + FILLER * 5
)


def _store(root: Path, name: str, text: str, title: str = "") -> PassageIndex:
    snap, _ = SnapshotStore.for_folder(root).store(local_url("corpus/demo", name), text)
    index = open_index(root)
    index.add_document(snap, text, title, "corpus")
    return index


@pytest.mark.usefixtures("index_backend")  # SQLite and PostgreSQL
def test_every_passage_lies_inside_the_section_it_names(tmp_path: Path) -> None:
    with _store(tmp_path, "book.md", BOOK) as index:
        hits = index.search("archive versions package release", k=50)
        sections = {s.title: s for s in split_sections(BOOK, "Package handbook")}
        assert {h.section for h in hits} >= {"2.5. Release files", "2.7.4. Updates and backports"}
        for hit in hits:
            sec = sections[hit.section] if hit.section else sections["Package handbook"]
            assert (hit.section_start, hit.section_end) == (sec.start, sec.end)
            assert sec.start <= hit.start < hit.end <= sec.end
            assert BOOK[hit.start : hit.end] == hit.text


@pytest.mark.usefixtures("index_backend")  # SQLite and PostgreSQL
def test_section_title_is_searched_and_returned(tmp_path: Path) -> None:
    with _store(tmp_path, "book.md", BOOK) as index:
        hit = index.search("tweaking candidate", k=1)[0]
        assert hit.section == "2.7.3. Tweaking candidate version"
        assert hit.label == "Package handbook › 2.7.3. Tweaking candidate version"


@pytest.mark.usefixtures("index_backend")  # SQLite and PostgreSQL
def test_later_passages_of_a_section_match_its_title(tmp_path: Path) -> None:
    text = "# Guide\n\n" + FILLER * 3 + "\n\n## Pinning\n\n" + (FILLER * 8 + "\n\n") * 2 + "A zebra stripe here.\n"
    with _store(tmp_path, "guide.md", text) as index:
        hits = index.search("pinning zebra", k=3)  # "pinning" stands only in the heading line
    assert hits and "zebra" in hits[0].text and hits[0].section == "Pinning"
    assert "## Pinning" not in hits[0].text


@pytest.mark.usefixtures("index_backend")  # SQLite and PostgreSQL
def test_a_document_without_headings_has_no_section_name(tmp_path: Path) -> None:
    text = "Plain notes without any heading. " * 5
    with _store(tmp_path, "notes.txt", text, title="Notes") as index:
        hit = index.search("plain notes", k=1)[0]
        assert hit.section == "" and hit.label == "Notes"


def test_index_written_before_sections_is_rebuilt_on_open(tmp_path: Path) -> None:
    kb, _ = init_kb(tmp_path / "kb", topic="apt", lang="en")
    (tmp_path / "book.md").write_text(BOOK, encoding="utf-8")
    index_corpus(kb.root, [tmp_path / "book.md"], name="demo")
    conn = sqlite3.connect(index_path(kb.root))
    with conn:  # the old layout: passages without section columns
        conn.executescript(
            "DROP TABLE src_passages; CREATE TABLE src_passages (id INTEGER PRIMARY KEY, snapshot_ref TEXT NOT NULL,"
            ' start INTEGER NOT NULL, "end" INTEGER NOT NULL, text TEXT NOT NULL);'
        )
    conn.close()
    with LocalIndex(kb.root) as index:
        hit = index.search("tweaking candidate", k=1)[0]
    assert hit.section == "2.7.3. Tweaking candidate version"


@pytest.mark.usefixtures("index_backend")  # SQLite and PostgreSQL
def test_added_file_is_unchanged_in_raw_but_indexed_by_section(tmp_path: Path) -> None:
    kb, _ = init_kb(tmp_path / "kb", topic="apt", lang="en")
    source = tmp_path / "handbook.md"
    source.write_text(BOOK, encoding="utf-8")
    report = add_paths(kb, [source], date="2026-01-02")
    raw = kb.raw / report.added[0].raw_file
    assert raw.read_text("utf-8") == BOOK
    with open_index(kb.root) as index:
        hit = index.search("newest version wins", k=1)[0]
    assert hit.raw_file == raw.name and hit.section == "2.7.3. Tweaking candidate version"


@pytest.mark.usefixtures("index_backend")  # SQLite and PostgreSQL
def test_cli_search_shows_document_and_section(tmp_path: Path) -> None:
    kb, _ = init_kb(tmp_path / "kb", topic="apt", lang="en")
    (tmp_path / "book.md").write_text(BOOK, encoding="utf-8")
    index_corpus(kb.root, [tmp_path / "book.md"], name="demo")
    runner = CliRunner()
    shown = runner.invoke(
        app, ["search", "tweaking candidate", "--kb", str(kb.root), "-k", "1"], env={"COLUMNS": "200"}
    )
    assert shown.exit_code == 0, shown.output
    assert "Package handbook › 2.7.3. Tweaking candidate" in shown.output
    # where the document is, as a reader can find it: never the placeholder address of a local file
    assert "demo/book.md" in shown.output and ".invalid" not in shown.output
    as_json = runner.invoke(app, ["search", "tweaking candidate", "--kb", str(kb.root), "-k", "1", "--json"])
    hit = json.loads(as_json.output)[0]
    assert hit["section"] == "2.7.3. Tweaking candidate version"
    assert hit["label"] == "Package handbook › 2.7.3. Tweaking candidate version"


@pytest.mark.skipif(not (DEBIAN / "ch02.en.html").is_file(), reason="debian-reference is not installed")
@pytest.mark.usefixtures("index_backend")  # SQLite and PostgreSQL
def test_debian_pinning_hit_names_its_section(tmp_path: Path) -> None:
    index_corpus(tmp_path, [DEBIAN / "ch02.en.html"], name="debian")
    with open_index(tmp_path) as index:
        hits = index.search("apt-pinning situation apt-cache policy", k=3)
    assert hits[0].label == "Chapter 2. Debian package management › 2.7.3. Tweaking candidate version"
