"""Documents ingested in batches: files staged together, made durable together, indexed together.

Why: ``add`` of thousands of documents paid seven fsyncs per document (issue 18). Here a batch of
documents is written with a bounded number of syncs (store/batch.py: two for the files of every
document, one for the index's commit, one for the manifest), and indexed in one transaction.

The order is what makes a crash harmless (docs/architecture.md, "Adding many documents"):

1. each document's snapshot text, metadata and raw copy are staged as one group (temp files);
2. the group commit installs every group whole (the raw copy last), durably;
3. the index commits the batch's documents in one transaction (WAL fsynced);
4. the manifest gets the batch's lines in one append.

A process killed anywhere leaves every document whole or absent: before (2) completes nothing is
installed (or the next writer finishes the journaled batch, group by group), and a document
installed but not yet indexed is indexed by the next ``add`` of it, the next research round
(raw/ scan) or ``index rebuild``, as a file dropped into raw/ by hand is.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from autodidact.errors import AutodidactError, SourceError
from autodidact.progress import Progress
from autodidact.sources.passage_index import PassageIndex
from autodidact.sources.rawfiles import RawFile, header_language
from autodidact.sources.snapshots import Snapshot, SnapshotStore
from autodidact.store.batch import FileBatch, journal_path
from autodidact.store.derived_db import INDEX_DIRNAME

# A batch closes at this many documents or bytes, whichever comes first: large enough that the
# syncs cost nothing per document, small enough that a crash loses little and memory stays flat.
BATCH_DOCUMENTS = 256
BATCH_BYTES = 64_000_000


@dataclass
class Pending:
    """One document staged in the open batch: what to index and what to report."""

    shown: str
    raw_file: str
    snapshot: Snapshot
    text: str
    title: str
    kind: str
    record_raw: str | None
    meta: dict[str, str]


def snapshot_text(store: SnapshotStore, rf: RawFile) -> str:
    """The text a raw file is snapshotted and indexed with: its snapshot's text when it names one
    that verifies (a fetched source: the snapshot is the truth), else its body."""
    text = rf.body
    if rf.snapshot_ref:
        try:
            text = store.read(rf.snapshot_ref, rf.url)
        except AutodidactError:
            text = rf.body
    if not text.strip():
        raise AutodidactError(f"raw file {rf.filename} has no text", hint="raw files need a body")
    return text


class IngestBatch:
    """The open batch of one ingest run over a folder (a knowledge base or a report folder);
    ``what`` is ``add``, ``corpus`` or ``scan`` (raw/ files dropped in by hand)."""

    def __init__(self, root: Path, index: PassageIndex, progress: Progress, total: int, what: str) -> None:
        self.root = Path(root)
        self.store = SnapshotStore.for_folder(self.root)
        self.files = FileBatch(self.root, journal_path(self.root / INDEX_DIRNAME))
        self.index = index
        self.progress = progress
        self.pending: list[Pending] = []
        self.total, self.what = total, what
        self.started = time.monotonic()
        self.counts = {"new": 0, "present": 0}
        self.language = header_language(self.root)  # read once: raw headers an add writes (rawfiles.LABELS)

    def stage(
        self,
        shown: str,
        url: str,
        text: str,
        *,
        title: str,
        kind: str,
        raw_file: str = "",
        raw: tuple[Path, bytes] | None = None,
        meta: dict[str, str] | None = None,
    ) -> Snapshot:
        """Stage one document: its snapshot of ``text`` under ``url``, then ``raw`` (its new raw
        copy, installed after the snapshot). ``raw_file`` names its file in raw/ ("" for a corpus
        document). Raises :class:`AutodidactError` (nothing staged) when it cannot be stored."""
        snap, _ = self.store.stage(url, text, self.files, (raw,) if raw else ())
        self.pending.append(Pending(shown, raw_file, snap, text, title, kind, raw_file or None, meta or {}))
        return snap

    def full(self) -> bool:
        """Whether the batch should be committed before another document joins it."""
        return len(self.pending) >= BATCH_DOCUMENTS or self.files.size >= BATCH_BYTES

    def commit(self, done: int, skipped: int, *, last: bool = False) -> list[tuple[Pending, bool]]:
        """Install, index and record the batch; returns each document with whether it was new to
        the index. ``done`` and ``skipped`` are the run's counts so far, for the progress line;
        the ``last`` commit of a run gives its final line even when its batch is empty."""
        if not self.pending:
            if last and self.total:
                self.progress.message(self._line(done, skipped))
            return []
        try:
            self.files.commit()
        except OSError as exc:
            raise SourceError(
                f"could not install {len(self.pending)} documents: {exc.strerror or exc}",
                hint="free some disk space and run the command again; the next run finishes or drops this batch",
            ) from None
        items = [(p.snapshot, p.text, p.title, p.kind, p.record_raw) for p in self.pending]
        extra = {p.snapshot.snapshot_ref: p.meta for p in self.pending if p.meta}
        # a scan runs every round: it does not read the manifest to mend it (an `add` does)
        new = self.index.index_documents(items, extra=extra or None, mend=self.what != "scan")
        out = [(p, p.snapshot.snapshot_ref in new) for p in self.pending]
        # one ref staged twice in a batch is new once, as when indexed one at a time
        seen: set[str] = set()
        for i, (p, is_new) in enumerate(out):
            if is_new and p.snapshot.snapshot_ref in seen:
                out[i] = (p, False)
            seen.add(p.snapshot.snapshot_ref)
        self.pending = []
        fresh = sum(1 for _, is_new in out if is_new)
        self.counts["new"] += fresh
        self.counts["present"] += len(out) - fresh
        self.progress.message(self._line(done, skipped))
        return out

    def _line(self, done: int, skipped: int) -> str:
        """``1024/5000 files: 1000 added, 24 already present, 0 skipped, about 40 s left``."""
        new_word, old_word = ("added", "already present") if self.what == "add" else ("indexed", "unchanged")
        line = (
            f"{done}/{self.total} files: {self.counts['new']} {new_word}, {self.counts['present']} {old_word}, "
            f"{skipped} skipped"
        )
        elapsed = time.monotonic() - self.started
        if 0 < done < self.total and elapsed > 0:
            line += f", about {(self.total - done) * elapsed / done:.0f} s left"
        return line
