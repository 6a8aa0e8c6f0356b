"""Which files of a folder changed since a moment, told by the kernel (Linux inotify) instead of a ``stat`` each.

Why: :mod:`autodidact.store.filememo` tells an unchanged file by its ``stat``, and a research round
passes over every article of ``wiki/`` and every file of ``raw/`` about eight times (docs/architecture.md,
"Incremental rounds"). At 5,000 articles those stats were half of what a round's cost grew by. A
watch on the folder reports every name created, written, truncated, renamed, deleted or whose
attributes changed through that folder — by this process or any other — so a pass needs to ``stat``
only the names the kernel reported since the file was last checked.

The kernel queues an event inside the system call that changes the file, so a change that finished
before :meth:`Watch.drain` is among the events it returns, and one that finishes later is among the
next drain's. A memory entry checked (stat, maybe read) after the drain that gave sequence ``s`` is
unchanged while no event for its name has a sequence above ``s``.

What a folder's watch cannot see, and how it is kept out:

- a file written through another path: a hard link from elsewhere (``st_nlink > 1``) or the target
  of a symbolic link. Callers give the fast path only to entries that were a plain file with one
  link when checked (:func:`plain_file`), and every other entry is ``stat``-ed at every use as before.
  A link made *later* from outside the folder raises only the file's own ``ctime``, which no folder
  event shows: a file linked from elsewhere after it was read and then written through that other
  name is seen when it is next changed through the folder, or by a new process (the same blind
  spot as writes through ``mmap``, which raise no event either);
- a file system whose changes need not pass through this kernel (NFS, SMB, FUSE, overlay layers):
  watches are made only on the local file systems of :data:`_LOCAL_FS`;
- a lost event: the kernel's queue overflowed, the folder was moved or deleted, or the folder's path
  now names another folder (checked by inode at each pass): the watch is dropped and every entry
  checked under it is ``stat``-ed again;
- another process sharing the descriptor after ``fork``: a watch belongs to the process that made it.

Where inotify is missing or refused (another OS, the per-user limits reached), :func:`watch` returns
``None`` and callers ``stat`` every file, as before.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import os
import stat as stat_mod
import struct
import sys
import threading
from dataclasses import dataclass, field

# inotify(7) event bits
IN_MODIFY = 0x00000002
IN_ATTRIB = 0x00000004
IN_CLOSE_WRITE = 0x00000008
IN_MOVED_FROM = 0x00000040
IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_DELETE = 0x00000200
IN_DELETE_SELF = 0x00000400
IN_MOVE_SELF = 0x00000800
IN_UNMOUNT = 0x00002000
IN_Q_OVERFLOW = 0x00004000
IN_IGNORED = 0x00008000
IN_ONLYDIR = 0x01000000
IN_NONBLOCK = os.O_NONBLOCK
IN_CLOEXEC = os.O_CLOEXEC

_MASK = (
    IN_MODIFY
    | IN_ATTRIB
    | IN_CLOSE_WRITE
    | IN_MOVED_FROM
    | IN_MOVED_TO
    | IN_CREATE
    | IN_DELETE
    | IN_DELETE_SELF
    | IN_MOVE_SELF
    | IN_ONLYDIR
)
_LISTING = IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE  # events that change the folder's names
_GONE = IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT | IN_IGNORED
_HEADER = struct.Struct("iIII")  # wd, mask, cookie, len

# statfs(2) magic numbers of file systems whose every change goes through this kernel.
_LOCAL_FS = frozenset(
    {
        0xEF53,  # ext2/3/4
        0x58465342,  # xfs
        0x9123683E,  # btrfs
        0x01021994,  # tmpfs
        0xF2F52010,  # f2fs
        0x2FC12FC1,  # zfs
        0xCA451A4E,  # bcachefs
        0x3153464A,  # jfs
    }
)
_LOG_LIMIT = 100_000  # events logged per folder before the log starts over
_NAMES_LIMIT = 100_000  # names remembered per folder before the watch starts over (temp files come and go)


def plain_file(st: os.stat_result) -> bool:
    """Whether a folder's watch sees every change of the file ``st`` describes (a regular file with
    one link; ``st`` from ``lstat``, so a symbolic link is not plain)."""
    return stat_mod.S_ISREG(st.st_mode) and st.st_nlink == 1


@dataclass
class Watch:
    """One watched folder: the last sequence at which each name had an event."""

    feed: _Feed
    wd: int
    ident: tuple[int, int]  # (st_dev, st_ino) of the folder watched
    since: int  # the sequence the watch was made at: entries checked before it know nothing
    names: dict[str, int] = field(default_factory=dict)
    listing: int = 0  # the last sequence at which a name was created, removed or renamed
    alive: bool = True
    log: list[tuple[int, str]] = field(default_factory=list)  # (sequence, name) of each event, in order
    log_floor: int = 0  # the log holds every event with a sequence above any ``s >= log_floor``

    def drain(self) -> int:
        """Take in the events queued so far; the sequence an entry checked from now on is stamped with."""
        return self.feed.drain()

    def unchanged(self, name: str, checked: int) -> bool:
        """Whether ``name`` had no event since it was checked at sequence ``checked`` (under this watch)."""
        return self.alive and checked >= self.since and self.names.get(name, -1) <= checked

    def changed_since(self, checked: int) -> set[str] | None:
        """The names with an event since sequence ``checked`` (under this watch); None when the watch
        cannot tell (dropped, made later, or its log was cut since), and every name must be checked."""
        if not self.alive or checked < self.since or checked < self.log_floor:
            return None
        out: set[str] = set()
        with self.feed.lock:
            for seq, name in reversed(self.log):
                if seq <= checked:
                    break
                out.add(name)
        return out

    def listing_unchanged(self, checked: int) -> bool:
        """Whether no name was created, removed or renamed since the listing made at ``checked``."""
        return self.alive and checked >= self.since and self.listing <= checked


class _Feed:
    """The process's inotify descriptor and its watches, one per folder."""

    def __init__(self, libc: ctypes.CDLL, fd: int) -> None:
        self.libc = libc
        self.fd = fd
        self.pid = os.getpid()
        # Sequences go on from the last feed's (one inherited through fork, say): an entry checked
        # under an earlier feed has a lower stamp than any watch of this one was made at.
        self.seq = _LAST_SEQ[0] + 1
        self.by_wd: dict[int, Watch] = {}
        self.by_ident: dict[tuple[int, int], Watch] = {}
        self.lock = threading.Lock()

    def drain(self) -> int:
        with self.lock:
            got = False
            while True:
                try:
                    data = os.read(self.fd, 65536)
                except BlockingIOError:
                    break
                except OSError:
                    self._drop_all()
                    break
                if not data:
                    break
                if not got:
                    self._advance()  # events read now are later than every check made before this drain
                    got = True
                self._take(data)
            return self.seq

    def _advance(self) -> None:
        self.seq += 1
        _LAST_SEQ[0] = self.seq

    def _take(self, data: bytes) -> None:
        offset = 0
        while offset + _HEADER.size <= len(data):
            wd, mask, _cookie, length = _HEADER.unpack_from(data, offset)
            raw = data[offset + _HEADER.size : offset + _HEADER.size + length]
            offset += _HEADER.size + length
            if mask & IN_Q_OVERFLOW:
                self._drop_all()
                continue
            w = self.by_wd.get(wd)
            if w is None:
                continue
            if mask & _GONE:
                self._drop(w)
                continue
            name = raw.split(b"\0", 1)[0]
            if not name:
                continue  # the folder's own attributes: no file of it changed
            key = os.fsdecode(name)
            w.names[key] = self.seq
            if len(w.log) >= _LOG_LIMIT:  # events before now can no longer be told apart
                w.log.clear()
                w.log_floor = self.seq
            w.log.append((self.seq, key))
            if mask & _LISTING:
                w.listing = self.seq
            if len(w.names) > _NAMES_LIMIT:
                self._drop(w)

    def _drop(self, w: Watch) -> None:
        w.alive = False
        self.by_wd.pop(w.wd, None)
        if self.by_ident.get(w.ident) is w:
            del self.by_ident[w.ident]
        with contextlib.suppress(Exception):
            self.libc.inotify_rm_watch(self.fd, w.wd)

    def _drop_all(self) -> None:
        for w in list(self.by_wd.values()):
            self._drop(w)

    def watch(self, path: str, fd: int) -> Watch | None:
        st = os.fstat(fd)
        ident = (st.st_dev, st.st_ino)
        self.drain()
        with self.lock:
            w = self.by_ident.get(ident)
            if w is not None and w.alive:
                return w
            if not _local(fd):
                return None
            # The watch is made on the path; the folder it then names must be the one ``fd`` holds.
            wd = self.libc.inotify_add_watch(self.fd, os.fsencode(path), _MASK)
            if wd < 0:
                return None
            after = os.stat(path)
            if (after.st_dev, after.st_ino) != ident:
                with contextlib.suppress(Exception):
                    self.libc.inotify_rm_watch(self.fd, wd)
                return None
            old = self.by_wd.get(wd)  # the same folder under another path: one watch
            if old is not None:
                return old if old.alive and old.ident == ident else None
            self._advance()
            w = Watch(self, wd, ident, self.seq, log_floor=self.seq)
            self.by_wd[wd] = w
            self.by_ident[ident] = w
            return w


class _StatFs(ctypes.Structure):
    _fields_ = [("f_type", ctypes.c_long), ("_rest", ctypes.c_byte * 112)]


def _local(fd: int) -> bool:
    """Whether the folder open at ``fd`` is on a file system of :data:`_LOCAL_FS`."""
    libc = _libc()
    if libc is None:
        return False
    buf = _StatFs()
    if libc.fstatfs(fd, ctypes.byref(buf)) != 0:
        return False
    return (buf.f_type & 0xFFFFFFFF) in _LOCAL_FS


_STATE: dict[str, object] = {}
_LAST_SEQ = [1]  # the highest sequence any feed of this process (or its parent, before a fork) gave


def _libc() -> ctypes.CDLL | None:
    if "libc" not in _STATE:
        lib: ctypes.CDLL | None = None
        if sys.platform.startswith("linux"):
            try:
                lib = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
                lib.inotify_init1.argtypes = [ctypes.c_int]
                lib.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
                lib.inotify_rm_watch.argtypes = [ctypes.c_int, ctypes.c_int]
                lib.fstatfs.argtypes = [ctypes.c_int, ctypes.c_void_p]
            except (OSError, AttributeError):
                lib = None
        _STATE["libc"] = lib
    return _STATE["libc"]  # type: ignore[return-value]


def _feed() -> _Feed | None:
    if os.environ.get("AUTODIDACT_NO_INOTIFY"):  # stat every file, as where inotify is missing
        return None
    feed = _STATE.get("feed")
    if isinstance(feed, _Feed) and feed.pid == os.getpid():
        return feed
    if _STATE.get("disabled"):
        return None
    libc = _libc()
    if libc is None:
        _STATE["disabled"] = True
        return None
    fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
    if fd < 0:
        if ctypes.get_errno() in (errno.EMFILE, errno.ENFILE, errno.ENOMEM):
            return None  # a limit: try again later
        _STATE["disabled"] = True
        return None
    made = _Feed(libc, fd)
    _STATE["feed"] = made  # a feed inherited through fork is left alone: its events are the parent's
    return made


def watch(path: str, fd: int) -> Watch | None:
    """The watch on the folder open at ``fd`` (named ``path``), made on first use; ``None`` where the
    kernel cannot watch it (see the module's docstring), and callers ``stat`` every file."""
    feed = _feed()
    if feed is None:
        return None
    try:
        return feed.watch(path, fd)
    except OSError:
        return None


def reset() -> None:
    """Drop every watch (tests: the next pass ``stat``-s every file, as without a watch)."""
    feed = _STATE.get("feed")
    if isinstance(feed, _Feed):
        with feed.lock:
            feed._drop_all()
