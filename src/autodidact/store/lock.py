"""Single-writer lock for a knowledge base.

Why: two loops writing one knowledge base would interleave rounds and corrupt the state file.
The lock is an ``fcntl`` advisory lock on ``.autodidact/lock`` (released by the kernel when the
holder dies, so ``kill -9`` never leaves a knowledge base locked forever) plus the holder's pid and
start time written inside, so the refusal can say who holds it. A lock file whose recorded pid is
dead is taken over with a warning.

With the team backend (docs/team.md, "Locks") the same lock is also taken on the PostgreSQL server
(``remote``), so a writer on another machine is refused too.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from autodidact.errors import LockedError
from autodidact.store.atomic import pid_alive
from autodidact.store.pglock import AdvisoryLock


class WriterLock:
    """Exclusive, non-blocking writer lock; use as a context manager."""

    def __init__(
        self,
        path: Path,
        warn: Callable[[str], None] | None = None,
        on_acquire: Callable[[], None] | None = None,
        remote: AdvisoryLock | None = None,
    ) -> None:
        self.path = Path(path)
        self.remote = remote
        self._fd: int | None = None
        self._warn = warn
        self._on_acquire = on_acquire

    def acquire(self) -> None:
        """Take the lock or raise :class:`LockedError` naming the holder's pid and start time."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        previous = self._read_holder(fd)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            pid = previous.get("pid", "?")
            since = previous.get("since", "?")
            raise LockedError(
                f"knowledge base in use by pid {pid} since {since}",
                hint="wait for that run to finish, or stop it; a dead holder's lock is taken over",
            ) from None
        if previous.get("pid") and previous.get("pid") != os.getpid():
            pid = int(str(previous["pid"]))
            if not pid_alive(pid) and self._warn is not None:
                self._warn(f"taking over a stale lock left by pid {pid} (no longer running)")
        os.ftruncate(fd, 0)
        info = {"pid": os.getpid(), "since": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        os.pwrite(fd, (json.dumps(info) + "\n").encode(), 0)
        os.fsync(fd)
        self._fd = fd
        if self.remote is not None:
            try:
                self.remote.acquire()  # after the local lock: a local rival is named by its pid
            except BaseException:
                self.release()
                raise
        if self._on_acquire is not None:
            try:
                self._on_acquire()  # e.g. sweep what a dead writer left; we are the only writer now
            except BaseException:
                self.release()
                raise

    @staticmethod
    def _read_holder(fd: int) -> dict[str, object]:
        try:
            raw = os.pread(fd, 4096, 0).decode("utf-8", "replace").strip()
            data = json.loads(raw) if raw else {}
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    def release(self) -> None:
        """Release the lock (idempotent). The file stays; its content marks no holder."""
        if self.remote is not None:
            self.remote.release()
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, 0)
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> WriterLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
