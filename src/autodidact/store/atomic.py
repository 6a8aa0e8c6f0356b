"""Atomic file writes: a reader sees the old file or the new one, never half of either.

Why: every step of the loop records its output and then marks itself done; a crash between
the two must leave a file that is either absent or complete. The recipe is the classic one:
temp file in the same folder, fsync, ``os.replace``, fsync the folder.

A process killed inside that sequence leaves its temp file behind. Temp names carry the writer's
pid (``.<name>.p<pid>.<random>.tmp``), so whoever next takes a knowledge base's writer lock can
remove the leftovers of dead writers (:func:`sweep_stale_temps`) without touching a live one's.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from autodidact.store.jsontext import dumps_indented

TEMP_RE = re.compile(r"^\..+\.tmp$")
_PID_RE = re.compile(r"\.p(\d+)\.[^.]*\.tmp$")
UNMARKED_TEMP_MAX_AGE = 600.0  # seconds; a temp name without a pid is swept only when this old
_SKIP_DIRS = {".git", ".venv", "__pycache__", "node_modules"}


def temp_prefix(name: str) -> str:
    """The ``mkstemp`` prefix for a temp file standing in for ``name``: hidden, with our pid."""
    return f".{name}.p{os.getpid()}."


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid runs (signal 0 tests without sending; another user's counts)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def sweep_stale_temps(root: Path) -> list[Path]:
    """Delete temp files under ``root`` left by writers that died mid-write; returns what was removed.

    A temp file whose recorded pid is alive is kept (that writer may still rename it); one without
    a pid is kept unless it is older than :data:`UNMARKED_TEMP_MAX_AGE`.
    """
    removed: list[Path] = []
    now = time.time()
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in _SKIP_DIRS]
        for name in files:
            if not TEMP_RE.match(name):
                continue
            path = Path(folder) / name
            match = _PID_RE.search(name)
            try:
                if match:
                    if pid_alive(int(match.group(1))):
                        continue
                elif now - path.stat().st_mtime < UNMARKED_TEMP_MAX_AGE:
                    continue
                path.unlink()
                removed.append(path)
            except OSError:
                continue
    return removed


def fsync_dir(path: Path) -> None:
    """Flush a directory entry so a rename inside it survives power loss."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _process_umask() -> int:
    """The umask, read once at import (reading it means setting it; import is single-threaded)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# mkstemp creates 0600 files whatever the umask; the files a person keeps (wiki, raw, reports) get
# the mode any other tool would give them: 0666 less the umask (docs/hardening.md, "File modes").
FILE_MODE = 0o666 & ~_process_umask()


@contextlib.contextmanager
def _temp_in(folder: Path, name: str) -> Iterator[tuple[int, Path]]:
    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(name), suffix=".tmp", dir=folder)
    tmp_path = Path(tmp)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, FILE_MODE)
        yield fd, tmp_path
    except BaseException:
        with contextlib.suppress(OSError):
            os.close(fd)
        with contextlib.suppress(OSError):
            tmp_path.unlink()
        raise


def write_bytes(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (creating parent folders)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with _temp_in(path.parent, path.name) as (fd, tmp):
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    fsync_dir(path.parent)


def write_text(path: Path, text: str) -> None:
    """Replace ``path`` with UTF-8 ``text`` atomically."""
    write_bytes(path, text.encode("utf-8"))


def dumps_json(data: object) -> str:
    """The project's JSON style for human-read files: indented, UTF-8, trailing newline."""
    return dumps_indented(data) + "\n"  # json.dumps(..., ensure_ascii=False, indent=2), faster


def write_json(path: Path, data: object) -> None:
    """Replace ``path`` with ``data`` as pretty UTF-8 JSON, atomically."""
    write_text(path, dumps_json(data))


def create_exclusive(path: Path, data: bytes) -> bool:
    """Install ``data`` at ``path`` only if nothing is there; never overwrite.

    Returns True when this call created the file, False when a file already existed. The
    content is complete before the name appears (temp file + ``os.link``), so a concurrent
    reader never sees a partial file and two racing writers both succeed with one file.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with _temp_in(path.parent, path.name) as (fd, tmp):
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)
            created = True
        except FileExistsError:
            created = False
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()
    if created:
        fsync_dir(path.parent)
    return created
