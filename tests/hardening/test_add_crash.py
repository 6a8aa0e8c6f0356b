"""`add` killed mid-batch: every document is whole or absent, and `verify` holds (issue 18).

`add` installs documents in batches (store/batch.py): temp files, a journal, one sync, links, a
second sync. The child process is killed hard (``os._exit``) at a named point of that sequence —
the n-th file staged, the journal written, the n-th link, a batch synced — chosen through
``AUTODIDACT_BATCH_CRASH_AT``, so nothing depends on timing. Batches hold 4 documents here, so a
kill also lands between batches. Then:

- right after the kill, every file present is whole (a raw copy is its source's bytes, a snapshot
  hashes to its name), and a raw copy is never there without its snapshot;
- once the next writer has taken the lock (which finishes or drops the journaled batch and removes
  temp files), every document is whole or absent and ``autodidact verify`` holds;
- ``add`` run again ends where an uninterrupted ``add`` ends, and ``verify`` holds.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from autodidact.store.batch import CRASH_ENV, CRASH_EXIT_CODE

from .conftest import _env, assert_verified, temp_files

DAY = "2026-12-07"
DOCS = 10
# The CLI with batches of 4 documents, so 10 documents make three batches, on a fixed day (the
# raw copies' names start with it).
_SCRIPT = (
    "import datetime, sys\n"
    "from autodidact.sources import ingest, ingest_batch\n"
    "ingest_batch.BATCH_DOCUMENTS = 4\n"
    "class Day(datetime.date):\n"
    "    @classmethod\n"
    "    def today(cls):\n"
    "        return cls(2026, 12, 7)\n"
    "ingest.date_cls = Day\n"
    "from autodidact.cli import app\n"
    "sys.argv = ['autodidact', *sys.argv[1:]]\n"
    "app()\n"
)


def _docs(folder: Path) -> dict[str, bytes]:
    folder.mkdir()
    out = {}
    for i in range(DOCS):
        text = f"# Note {i}\n\nNote {i} says that generator number {i} yields {i * i} values lazily.\n"
        path = folder / f"note{i:02d}.md"
        path.write_text(text, "utf-8")
        out[f"{DAY}_note{i:02d}.md"] = text.encode()
    return out


def _add(kb: Path, docs: Path, crash_at: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {CRASH_ENV: crash_at} if crash_at else {}
    return subprocess.run(
        [sys.executable, "-c", _SCRIPT, "add", str(docs), "--kb", str(kb)],
        capture_output=True,
        text=True,
        env=_env(env),
        timeout=180,
        check=False,
    )


def _snapshot_ref(kb: Path, raw_name: str, data: bytes) -> tuple[Path, Path]:
    from autodidact.sources.rawfiles import parse_raw_text

    md = kb / parse_raw_text(data.decode(), raw_name).snapshot_ref  # a person's file: its body's snapshot
    return md, md.with_name(md.name.removesuffix(".md") + ".meta.json")


def _files_whole(kb: Path, sources: dict[str, bytes]) -> None:
    """Every raw copy and snapshot file present holds whole bytes; no raw copy without its snapshot."""
    for path in (kb / "raw").iterdir():
        if path.name.startswith("."):
            continue  # a temp file: not a name anything reads
        assert path.read_bytes() == sources[path.name], path.name
    for md in (kb / "source_cache").glob("*/*.md"):
        assert hashlib.sha256(md.read_bytes()).hexdigest() == md.name.removesuffix(".md"), md
    for meta in (kb / "source_cache").glob("*/*.meta.json"):
        assert json.loads(meta.read_text("utf-8"))["content_hash"] == meta.name.removesuffix(".meta.json")
    for name, data in sources.items():
        if (kb / "raw" / name).exists():
            md, meta = _snapshot_ref(kb, name, data)
            assert md.is_file() and meta.is_file(), f"raw/{name} is there without its snapshot"


def _documents_whole_or_absent(kb: Path, sources: dict[str, bytes]) -> int:
    """Each document has its raw copy, snapshot text and metadata, or none of them; returns how many are whole."""
    whole = 0
    for name, data in sources.items():
        md, meta = _snapshot_ref(kb, name, data)
        present = [(kb / "raw" / name).exists(), md.exists(), meta.exists()]
        assert all(present) or not any(present), f"{name}: raw, text, metadata present = {present}"
        whole += all(present)
    return whole


def _outcome(kb: Path) -> dict[str, object]:
    """What an add leaves that must not depend on a crash: files, their bytes, what is indexed."""
    import sqlite3

    from autodidact.sources.passage_index import manifest_entries

    files = {
        str(p.relative_to(kb)): p.read_bytes()
        for folder in ("raw", "source_cache")
        for p in sorted((kb / folder).rglob("*"))
        if p.is_file()
    }
    conn = sqlite3.connect(kb / ".autodidact" / "index.sqlite")
    try:
        indexed = sorted(r[0] for r in conn.execute("SELECT snapshot_ref FROM src_documents"))
        passages = conn.execute("SELECT count(*) FROM src_passages").fetchone()[0]
    finally:
        conn.close()
    listed = sorted(str(e["snapshot_ref"]) for e in manifest_entries(kb))
    return {"files": files, "indexed": indexed, "passages": passages, "listed": listed}


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    from autodidact.kb import init_kb

    base = tmp_path_factory.mktemp("add_clean")
    sources = _docs(base / "docs")
    kb, _ = init_kb(base / "kb", lang="en")
    done = _add(kb.root, base / "docs")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "10 added" in done.stderr  # the console writes to stderr
    assert_verified(kb.root)
    return {"outcome": _outcome(kb.root), "sources": sources}


# staged:N — the N-th temp file (3 per document: text, metadata, raw copy); journaled/synced:N —
# the N-th batch's journal written or its names synced; linked:N — the N-th name linked.
# indexed:N — the N-th batch indexed, its manifest lines not yet appended.
POINTS = ["staged:2", "staged:14", "journaled:1", "linked:5", "linked:14", "synced:2", "indexed:2", "journaled:3"]


@pytest.mark.parametrize("point", POINTS)
def test_add_killed_mid_batch_leaves_documents_whole_or_absent(
    point: str, tmp_path: Path, clean: dict[str, object]
) -> None:
    from autodidact.kb import KnowledgeBase, init_kb

    sources = _docs(tmp_path / "docs")
    kb, _ = init_kb(tmp_path / "kb", lang="en")
    died = _add(kb.root, tmp_path / "docs", crash_at=point)
    assert died.returncode == CRASH_EXIT_CODE, f"{point} never reached: {died.stderr[-2000:]}"
    _files_whole(kb.root, sources)

    with KnowledgeBase(kb.root).lock():  # the next writer: finishes or drops the batch, sweeps temps
        pass
    assert not temp_files(kb.root), temp_files(kb.root)
    assert not (kb.internal / "batch.journal").exists()
    whole = _documents_whole_or_absent(kb.root, sources)
    if not point.startswith("staged") or point == "staged:14":  # staged:14 is in the second batch
        assert whole >= 4, f"{point}: a journaled batch is finished by the next writer ({whole} whole)"
    assert_verified(kb.root)

    again = _add(kb.root, tmp_path / "docs")
    assert again.returncode == 0, again.stderr[-2000:]
    assert _outcome(kb.root) == clean["outcome"], point
    assert_verified(kb.root)


def test_a_torn_journal_drops_its_batch(tmp_path: Path) -> None:
    """A journal that does not parse was never complete: nothing of its batch is installed."""
    from autodidact.store.batch import FileBatch, journal_path, recover

    root = tmp_path / "folder"
    batch = FileBatch(root, journal_path(root / ".autodidact"))
    batch.stage([(root / "a" / "one.md", b"one"), (root / "a" / "two.md", b"two")])
    batch.journal.parent.mkdir(parents=True)
    batch.journal.write_text('{"groups": [[["a/.one', "utf-8")
    assert recover(root, batch.journal) == 0
    assert not batch.journal.exists()
    assert not (root / "a" / "one.md").exists() and not (root / "a" / "two.md").exists()


def test_a_group_whose_temp_changed_is_not_installed(tmp_path: Path) -> None:
    """Recovery installs a group only when every temp still hashes to the journal (power loss
    during the first sync can leave a journal whose temps never reached the disk)."""
    from autodidact.store import batch as batch_mod

    root = tmp_path / "folder"
    batch = batch_mod.FileBatch(root, batch_mod.journal_path(root / ".autodidact"))
    batch.stage([(root / "a" / "one.md", b"one"), (root / "a" / "one.meta", b"meta")])
    batch.stage([(root / "b" / "two.md", b"two")])
    temps = [s.temp for g in batch.groups for s in g]
    # what commit writes before its first sync, then a "lost" temp
    entries = [
        [[batch_mod._rel(root, s.temp), batch_mod._rel(root, s.final), s.digest] for s in g] for g in batch.groups
    ]
    batch.journal.parent.mkdir(parents=True)
    batch.journal.write_text(json.dumps({"groups": entries}), "utf-8")
    temps[1].write_bytes(b"")
    assert batch_mod.recover(root, batch.journal) == 1
    assert not (root / "a" / "one.md").exists() and not (root / "a" / "one.meta").exists()
    assert (root / "b" / "two.md").read_bytes() == b"two"
    assert not any(t.exists() for t in temps) and not batch.journal.exists()


def test_syncs_per_batch_do_not_grow_with_its_documents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Group commit: 6 documents and 60 documents in one batch cost the same number of syncs."""
    import os

    from autodidact.kb import init_kb
    from autodidact.sources.ingest import add_paths
    from autodidact.store import batch as batch_mod

    counts = {"sync": 0}
    real_fsync, real_sync_all = os.fsync, batch_mod.sync_all

    def fsync(fd: int) -> None:
        counts["sync"] += 1
        real_fsync(fd)

    def sync_all(root: Path, files: list[Path], folders: set[Path]) -> None:
        counts["sync"] += 1  # one syncfs (where there is none, the fallback's fsyncs count too)
        real_sync_all(root, files, folders)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(batch_mod, "sync_all", sync_all)
    used = []
    for n in (6, 60):
        docs = tmp_path / f"docs{n}"
        docs.mkdir()
        for i in range(n):
            (docs / f"d{i}.md").write_text(f"# D{i}\n\nDocument {i} of {n} talks about coroutine {i}.\n", "utf-8")
        kb, _ = init_kb(tmp_path / f"kb{n}", lang="en")
        counts["sync"] = 0
        report = add_paths(kb, [docs])
        assert len(report.added) == n and all(a.new for a in report.added)
        used.append(counts["sync"])
    assert used[0] == used[1] and used[0] <= 8, used
