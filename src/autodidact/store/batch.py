"""Group commit for new, immutable files: many files made durable with a bounded number of syncs.

Why: ``add`` of thousands of documents used to install each file on its own (temp file, fsync,
link, folder fsync): seven fsyncs per document, 93% of its time (issue 18). The files it writes
are new and never overwritten (raw copies, content-addressed snapshots), so they can be
installed the way a database commits a group of transactions:

1. :meth:`FileBatch.stage` writes each file's bytes to a temp file beside its final name, with
   no fsync. Files come in *groups* (one document: its snapshot, metadata and raw copy).
2. :meth:`FileBatch.commit` writes a journal naming every temp file, its final name and its
   sha256, then makes the temps and the journal durable with **one** sync, links every temp to
   its final name (``os.link`` never overwrites), makes the names durable with a **second** sync,
   and deletes the temps and the journal. Two syncs per batch, whatever its size.

A sync is ``syncfs(2)`` of the folder's file system where the C library has it (Linux); elsewhere
every staged file and folder is fsynced, which is what a single install costs anyway.

Crash semantics. Every name appears by ``os.link`` of a complete temp file, so a file is whole or
absent at any moment. A process killed before the journal is complete leaves only temp files,
which the next writer deletes (``atomic.sweep_stale_temps``): the batch is absent. Killed after
the journal is durable, it leaves a batch that :func:`recover` (run by the next writer before the
sweep) finishes: each group whose temps all still hash to the journal's digests is linked in
full, so a document is never half installed (a snapshot without its metadata, a raw copy
without its snapshot). Power loss during the first sync can leave a journal whose temps did not
reach the disk; their digests no longer match and those groups are dropped, never installed
half-written. docs/architecture.md, "Adding many documents", has the whole sequence.

Fault injection: ``AUTODIDACT_BATCH_CRASH_AT=<point>:<n>`` makes the process exit hard
(``os._exit(87)``) at the n-th ``staged`` file, at the n-th ``linked`` file, or at the n-th
``journaled`` or ``synced`` batch (and at the n-th ``indexed`` one, between the index's commit and
the manifest's append: sources/passage_index.py) — how the crash tests kill an ``add`` at a known point.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from autodidact.errors import IntegrityError
from autodidact.store.atomic import FILE_MODE, fsync_dir, temp_prefix

JOURNAL_NAME = "batch.journal"
CRASH_ENV = "AUTODIDACT_BATCH_CRASH_AT"
CRASH_EXIT_CODE = 87
_counts: dict[str, int] = {}


def crash_point(point: str) -> None:
    """Exit hard at the configured occurrence of ``point`` (tests only; unset in normal runs)."""
    wanted = os.environ.get(CRASH_ENV)
    if not wanted:
        return
    name, _, nth = wanted.partition(":")
    if name != point:
        return
    _counts[point] = _counts.get(point, 0) + 1
    if str(_counts[point]) == nth:
        os._exit(CRASH_EXIT_CODE)


@functools.cache
def _syncfs() -> Callable[[int], int] | None:
    """The C library's ``syncfs``, or None where it has none (loaded on first use: ctypes is not
    for every command that imports this module)."""
    import ctypes

    try:
        fn = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int]
    fn.restype = ctypes.c_int

    def call(fd: int) -> int:
        if int(fn(fd)) != 0:
            return ctypes.get_errno() or 5  # EIO when errno was not set
        return 0

    return call


def sync_all(root: Path, files: list[Path], folders: set[Path]) -> None:
    """Make ``files`` and the entries of ``folders`` durable: one ``syncfs`` of ``root``'s file
    system when available, else an fsync of each file and each folder."""
    syncfs = _syncfs()
    if syncfs is not None:
        fd = os.open(root, os.O_RDONLY)
        try:
            err = syncfs(fd)
        finally:
            os.close(fd)
        if err:
            raise OSError(err, os.strerror(err), str(root))
        return
    for path in files:  # pragma: no cover - platforms without syncfs
        with contextlib.suppress(FileNotFoundError):
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    for folder in sorted(folders):  # pragma: no cover
        fsync_dir(folder)


def journal_path(internal: Path) -> Path:
    """Where a folder's batch journal lives (``internal`` is its ``.autodidact`` folder)."""
    return Path(internal) / JOURNAL_NAME


@dataclass
class _Staged:
    temp: Path
    final: Path
    digest: str


@dataclass
class FileBatch:
    """New files installed together; see the module docstring. Not thread-safe; one writer."""

    root: Path  # the folder everything lives under (journal paths are relative to it)
    journal: Path
    groups: list[list[_Staged]] = field(default_factory=list)
    _by_final: dict[Path, bytes] = field(default_factory=dict)
    _folders: set[Path] = field(default_factory=set)
    size: int = 0

    def staged(self, path: Path) -> bytes | None:
        """The bytes staged for ``path`` in this batch, or None (a name being claimed but not yet
        on disk counts as taken)."""
        return self._by_final.get(Path(path))

    def __len__(self) -> int:
        return len(self.groups)

    def stage(self, files: list[tuple[Path, bytes]]) -> list[bool]:
        """Stage one group of new files; returns, per file, whether it will be written.

        A file already on disk (or staged) with the same bytes is not written again; one with
        different bytes raises :class:`IntegrityError` before anything of the group is written.
        The group is staged whole or not at all.
        """
        todo: list[tuple[Path, bytes]] = []
        written: list[bool] = []
        for path, data in files:
            path = Path(path)
            existing = self._by_final.get(path)
            if existing is None and path.is_file():
                existing = path.read_bytes()
            if existing is not None:
                if existing != data:
                    raise IntegrityError(
                        f"{path.name} already exists with different bytes; it is never overwritten",
                        hint="run `autodidact verify`; the folder may have been edited by hand",
                    )
                written.append(False)
                continue
            if any(p == path for p, _ in todo):
                written.append(False)
                continue
            todo.append((path, data))
            written.append(True)
        group: list[_Staged] = []
        try:
            for path, data in todo:
                folder = path.parent
                if not folder.is_dir():
                    folder.mkdir(parents=True, exist_ok=True)
                    self._folders.add(folder.parent)
                fd, tmp = tempfile.mkstemp(prefix=temp_prefix(path.name), suffix=".tmp", dir=folder)
                group.append(_Staged(Path(tmp), path, hashlib.sha256(data).hexdigest()))
                with os.fdopen(fd, "wb") as fh:
                    if hasattr(os, "fchmod"):
                        os.fchmod(fh.fileno(), FILE_MODE)
                    fh.write(data)
                crash_point("staged")
        except BaseException:
            for item in group:
                with contextlib.suppress(OSError):
                    item.temp.unlink()
            raise
        for path, data in todo:
            self._by_final[path] = data
            self._folders.add(path.parent)
            self.size += len(data)
        if group:
            self.groups.append(group)
        return written

    def commit(self) -> None:
        """Install every staged file durably: journal, sync, link, sync, clean up."""
        if not self.groups:
            return
        entries = [[[_rel(self.root, s.temp), _rel(self.root, s.final), s.digest] for s in g] for g in self.groups]
        self.journal.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.journal.with_name(f"{temp_prefix(self.journal.name)}j.tmp")
        tmp.write_text(json.dumps({"groups": entries}, separators=(",", ":")) + "\n", "utf-8")
        os.replace(tmp, self.journal)
        crash_point("journaled")
        temps = [s.temp for g in self.groups for s in g]
        sync_all(self.root, [*temps, self.journal], {*self._folders, self.journal.parent})
        for group in self.groups:
            for item in group:
                _link(item.temp, item.final, self._by_final[item.final])
                crash_point("linked")
        sync_all(self.root, [], self._folders)  # the data is durable since the first sync: names only
        crash_point("synced")
        self._cleanup()

    def abandon(self) -> None:
        """Drop everything staged (nothing was linked): the temps go, the batch is absent."""
        self._cleanup()

    def _cleanup(self) -> None:
        for group in self.groups:
            for item in group:
                with contextlib.suppress(OSError):
                    item.temp.unlink()
        with contextlib.suppress(OSError):
            self.journal.unlink()
        self.groups = []
        self._by_final = {}
        self._folders = set()
        self.size = 0


def _rel(root: Path, path: Path) -> str:
    return Path(os.path.relpath(path, root)).as_posix()


def _link(temp: Path, final: Path, data: bytes | None) -> None:
    """Give ``temp`` its final name; an existing file must hold the same bytes (never replaced)."""
    try:
        os.link(temp, final)
    except FileExistsError:
        if data is None or final.read_bytes() != data:
            raise IntegrityError(
                f"{final.name} appeared with different bytes while it was being installed",
                hint="another program writes into this folder; run the command again",
            ) from None


def _sha256_file(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def recover(root: Path, journal: Path) -> int:
    """Finish a batch a dead writer left (see the module docstring); returns the groups installed.

    Run by the next writer, under the writer lock, before temp files are swept. A journal that
    does not parse was never complete, so its batch was never started: it is removed. Every path
    in it must stay inside ``root``; a journal naming anything else is ignored.
    """
    journal = Path(journal)
    try:
        data = json.loads(journal.read_text("utf-8"))
        groups = data["groups"]
    except FileNotFoundError:
        return 0
    except (OSError, ValueError, KeyError, TypeError):
        with contextlib.suppress(OSError):
            journal.unlink()
        return 0
    base = Path(root).resolve()
    done = 0
    linked: list[Path] = []
    folders: set[Path] = set()
    temps: list[Path] = []
    for group in groups if isinstance(groups, list) else []:
        items: list[tuple[Path, Path, str]] = []
        for entry in group if isinstance(group, list) else []:
            if not (isinstance(entry, list) and len(entry) == 3 and all(isinstance(x, str) for x in entry)):
                items = []
                break
            temp, final = (base / entry[0]).resolve(), (base / entry[1]).resolve()
            if base not in temp.parents or base not in final.parents:
                items = []
                break
            items.append((temp, final, entry[2]))
        temps += [t for t, _, _ in items]
        # whole or nothing: every file of the group is on disk already or in a temp that hashes right
        if not items or not all(
            _sha256_file(final) == digest if final.exists() else _sha256_file(temp) == digest
            for temp, final, digest in items
        ):
            continue
        for temp, final, _ in items:
            if not final.exists():
                _link(temp, final, None)
                linked.append(final)
                folders.add(final.parent)
        done += 1
    if linked:
        sync_all(base, linked, folders)
    for temp in temps:
        with contextlib.suppress(OSError):
            temp.unlink()
    with contextlib.suppress(OSError):
        journal.unlink()
    return done
