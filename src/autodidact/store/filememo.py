"""Values derived from a file, kept in memory while the file is unchanged.

Why: a research round reads every article of the wiki (and every file of raw/) several times,
and both folders grow with the knowledge base while a round changes a handful of files. Reading
and parsing them all each time made a round's cost grow with the knowledge base.

When is a file "unchanged"? Its bytes are the truth, and a person may edit it at any time. A
file whose stat — inode, device, size, mtime and ctime, all to the nanosecond — is the one seen
when it was read is taken as unchanged without reading it. That is safe only for a file whose
last change is clearly older than the read: a file changed within :data:`RACY_NS` of being read
could change again within the same clock tick and keep its stat, so such an entry is checked
against the file's content hash on every use until it is old enough (git's "racily clean" rule).
ctime cannot be set back by a program, so an edit that restores the old mtime still shows. An
atomic write (temp file, rename) gives the file a new inode.

A pass over a folder (:meth:`FileMemo.folder`, :meth:`FolderMemo.get`) asks the kernel which names
changed instead (:mod:`autodidact.store.changefeed`, a Linux inotify watch on the folder): an entry
whose name had no event since it was checked is not even ``stat``-ed, so a pass costs what changed,
not what the folder holds. Entries the watch cannot vouch for (links, other file systems, a lost
event) are ``stat``-ed as above.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat as stat_mod
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar, cast

from autodidact.store import changefeed

V = TypeVar("V")

RACY_NS = 2_000_000_000  # a change closer than this to the read is re-checked by content
_LIMIT = 200_000  # files remembered before the memory starts over
_STAT_DIR_FD = os.stat in os.supports_dir_fd  # a folder's files can be looked up relative to it


def content_hash(data: bytes) -> str:
    """The hash a file's content is known by here (BLAKE2b, 160 bits, hex)."""
    return hashlib.blake2b(data, digest_size=20).hexdigest()


@dataclass
class _Entry(Generic[V]):
    signature: tuple[int, int, int, int, int]
    digest: str
    value: V
    trusted: bool  # the stat alone shows the content (the last change is older than the read)
    checked: int = 0  # the folder watch's sequence when the stat was taken (0: no watch)
    watched: bool = False  # a plain file with one link: its folder's watch sees every change of it


class FileMemo(Generic[V]):
    """``path → (content hash, compute(bytes, hash))``, computed again only when the content changed."""

    def __init__(self) -> None:
        self._entries: dict[str, _Entry[V]] = {}
        self._passes: dict[tuple[str, str], _Pass] = {}  # (folder, tag) → its last :meth:`pass_over`
        self.reads = 0  # files read (tests read these counters)
        self.computed = 0

    def get(self, path: Path | str, compute: Callable[[bytes, str], V]) -> tuple[str, V]:
        """The file's content hash and derived value. Raises ``OSError`` as reading the file would."""
        key = os.fspath(path)
        return self._get(key, os.stat(key), compute)

    @contextlib.contextmanager
    def folder(self, path: Path | str) -> Iterator[Callable[[str, Callable[[bytes, str], V]], tuple[str, V]]]:
        """``get`` for the files of one folder, by name: the folder is opened once and each file is
        looked up relative to it (a pass over a large folder costs one short ``stat`` per file)."""
        with self._folder(path) as (get, _watch, _stamp):
            yield get

    def pass_over(
        self,
        path: Path | str,
        names: Sequence[str],
        compute_for: Callable[[str], Callable[[bytes, str], V]],
        skip: tuple[type[Exception], ...] = (),
        tag: str = "",
    ) -> list[V]:
        """``[get(name, compute_for(name))[1] for name in names]`` in one :meth:`folder` pass, leaving
        out the names whose ``get`` raised one of ``skip`` (any other error propagates).

        Why: several passes a round go over every article of ``wiki/``, and even a lookup per file
        grows with the wiki. The last pass over the same names is kept; under the folder watch
        (:mod:`autodidact.store.changefeed`) only the names the kernel reported since that pass
        began, and those the watch cannot vouch for (links, names that failed), are looked at
        again — each exactly as :meth:`folder`'s ``get`` looks at it — and the others keep the value
        they had, which ``get`` would return unchanged too (no event: no ``stat``, no read). Callers
        that pass over different names of one folder keep their passes apart by ``tag``."""
        key = os.fspath(path)
        listed = tuple(names)
        with self._folder(key) as (get, watch, stamp):
            last = self._passes.get((key, tag))
            changed = (
                watch.changed_since(last.stamp)
                if watch is not None and last is not None and last.watch is watch and last.names == listed
                else None
            )
            if last is None or changed is None:
                slots: list[object] = [_FAILED] * len(names)
                todo: Iterable[int] = range(len(names))
                index = {name: i for i, name in enumerate(names)}
            else:
                slots, index = list(last.slots), last.index
                todo = sorted({index[n] for n in changed if n in index} | last.recheck)
            prefix = os.path.join(key, "")
            recheck: set[int] = set()
            for i in todo:
                name = listed[i]
                try:
                    slots[i] = get(name, compute_for(name))[1]
                except skip:
                    slots[i] = _FAILED
                if slots[i] is _FAILED or not self._watched(prefix + name):
                    recheck.add(i)
            if watch is not None:
                self._passes[(key, tag)] = _Pass(listed, index, slots, watch, stamp, recheck)
            else:
                self._passes.pop((key, tag), None)
        if any(slots[i] is _FAILED for i in recheck):  # every failed name is rechecked
            return [cast(V, v) for v in slots if v is not _FAILED]
        return cast(list[V], list(slots))

    def _watched(self, key: str) -> bool:
        hit = self._entries.get(key)
        return hit is not None and hit.watched

    @contextlib.contextmanager
    def _folder(
        self, path: Path | str
    ) -> Iterator[tuple[Callable[[str, Callable[[bytes, str], V]], tuple[str, V]], changefeed.Watch | None, int]]:
        base = os.fspath(path)
        fd: int | None = None
        if _STAT_DIR_FD:
            with contextlib.suppress(OSError):
                fd = os.open(base, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))

        prefix = os.path.join(base, "")
        watch = changefeed.watch(base, fd) if fd is not None else None
        stamp = watch.drain() if watch is not None else 0

        def get(name: str, compute: Callable[[bytes, str], V]) -> tuple[str, V]:
            key = prefix + name  # os.path.join(base, name) for a plain file name
            if watch is None:
                return self._get(key, os.stat(name, dir_fd=fd) if fd is not None else os.stat(key), compute)
            hit = self._entries.get(key)
            if hit is not None and hit.watched and watch.unchanged(name, hit.checked):
                # No event for it since the drain its last check followed: its content is the one
                # read then, racy window or not (a change in the same clock tick raises an event too).
                return hit.digest, hit.value
            lst = os.stat(name, dir_fd=fd, follow_symlinks=False)
            st = os.stat(name, dir_fd=fd) if stat_mod.S_ISLNK(lst.st_mode) else lst
            return self._get(key, st, compute, stamp, changefeed.plain_file(lst))

        try:
            yield get, watch, stamp
        finally:
            if fd is not None:
                os.close(fd)

    def _get(
        self, key: str, st: os.stat_result, compute: Callable[[bytes, str], V], checked: int = 0, watched: bool = False
    ) -> tuple[str, V]:
        signature = (st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        hit = self._entries.get(key)
        if hit is not None and hit.trusted and hit.signature == signature:
            hit.checked, hit.watched = checked, watched
            return hit.digest, hit.value
        with open(key, "rb") as fh:
            data = fh.read()
        self.reads += 1
        digest = content_hash(data)
        if hit is not None and hit.digest == digest:
            value = hit.value
        else:
            self.computed += 1
            value = compute(data, digest)
        settled = time.time_ns() - RACY_NS
        trusted = st.st_mtime_ns < settled and st.st_ctime_ns < settled
        if len(self._entries) >= _LIMIT:
            self._entries.clear()
        self._entries[key] = _Entry(signature, digest, value, trusted, checked, watched)
        return digest, value

    def forget(self) -> None:
        """Drop every entry (the next :meth:`get` of each file reads it, as a new process would)."""
        self._entries.clear()
        self._passes.clear()


_FAILED = object()  # a name whose get raised an error the caller skips


@dataclass
class _Pass:
    """One :meth:`FileMemo.pass_over`: its names, each one's value, and what the next pass must redo."""

    names: tuple[str, ...]
    index: dict[str, int]
    slots: list[object]  # each name's value, or _FAILED
    watch: changefeed.Watch
    stamp: int  # the watch's sequence the pass's checks were made after
    recheck: set[int]  # names the watch cannot vouch for (a link, a failure): looked at every pass


class FolderMemo(Generic[V]):
    """``folder → value worked out from its listing``, worked out again only when the listing changed.

    Why: raw/ is listed several times a round and grows with the knowledge base, while a round adds
    a handful of files. A folder's mtime and ctime change whenever an entry is created, removed or
    renamed in it (an atomic write renames), so a folder whose stat is the one seen at the last
    listing lists the same names — under the same racy rule as :class:`FileMemo`: a folder changed
    within :data:`RACY_NS` of the listing is listed again at every use until it is old enough.
    What the stat cannot show (a symbolic link pointed elsewhere, a file type behind a link) is the
    caller's to exclude: ``scan`` returns ``(value, cacheable)``, and an uncacheable value is never kept.
    """

    def __init__(self) -> None:
        self._entries: dict[str, tuple[tuple[int, int, int, int], V, int]] = {}
        self.scans = 0  # listings made (tests read it)

    def get(self, path: Path | str, scan: Callable[[], tuple[V, bool]]) -> V:
        """The value of ``scan()`` for the folder as it is now. Raises ``OSError`` as ``os.stat`` would.

        Under a folder watch (:mod:`autodidact.store.changefeed`) a kept listing stays valid until a
        name is created, removed or renamed in the folder, racy window or not: the kernel reports
        every such change made after the watch's drain, and the listing is made after it."""
        key = os.fspath(path)
        fd: int | None = None
        with contextlib.suppress(OSError):
            fd = os.open(key, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            st = os.fstat(fd) if fd is not None else os.stat(key)
            watch = changefeed.watch(key, fd) if fd is not None else None
            stamp = watch.drain() if watch is not None else 0
        finally:
            if fd is not None:
                os.close(fd)
        signature = (st.st_ino, st.st_dev, st.st_mtime_ns, st.st_ctime_ns)
        hit = self._entries.get(key)
        if hit is not None:
            if hit[2]:  # kept under a watch, racy window or not: only the watch may vouch for it
                if watch is not None and watch.listing_unchanged(hit[2]) and hit[0][:2] == signature[:2]:
                    return hit[1]
            elif hit[0] == signature:
                return hit[1]
        self.scans += 1
        value, cacheable = scan()  # listed after the stat: a change in between shows as a new signature
        settled = time.time_ns() - RACY_NS
        if cacheable and (watch is not None or (st.st_mtime_ns < settled and st.st_ctime_ns < settled)):
            if len(self._entries) >= _LIMIT:
                self._entries.clear()
            self._entries[key] = (signature, value, stamp)
        else:
            self._entries.pop(key, None)
        return value

    def forget(self) -> None:
        """Drop every entry (the next :meth:`get` of each folder lists it again)."""
        self._entries.clear()
