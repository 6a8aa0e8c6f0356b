"""store/: atomic writes, the single-writer lock, slugs and path safety, JSONL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from autodidact.errors import IntegrityError, LockedError, PathSafetyError
from autodidact.store import atomic, jsonl
from autodidact.store.lock import WriterLock
from autodidact.store.paths import safe_join, safe_name, slugify


def test_atomic_write_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b.json"
    atomic.write_json(target, {"k": "值"})
    atomic.write_json(target, {"k": 2})
    assert target.read_text("utf-8") == '{\n  "k": 2\n}\n'
    assert [p.name for p in target.parent.iterdir()] == ["b.json"]


def test_atomic_write_failure_keeps_old_file(tmp_path: Path) -> None:
    target = tmp_path / "x.json"
    atomic.write_json(target, {"ok": 1})
    with pytest.raises(TypeError):
        atomic.write_json(target, {"bad": object()})
    assert target.read_text("utf-8") == '{\n  "ok": 1\n}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


def test_create_exclusive_never_overwrites(tmp_path: Path) -> None:
    target = tmp_path / "f"
    assert atomic.create_exclusive(target, b"one") is True
    assert atomic.create_exclusive(target, b"two") is False
    assert target.read_bytes() == b"one"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Python Generators & Coroutines", "python-generators-coroutines"),
        ("生成器 与 协程", "生成器-与-协程"),
        ("../../etc/passwd", "etc-passwd"),
        ("a\x00b\x07c", "abc"),
        ("CON", "con-file"),
        ("...", "untitled"),
    ],
)
def test_slugify(text: str, expected: str) -> None:
    assert slugify(text) == expected


def test_safe_join_refuses_escape(tmp_path: Path) -> None:
    assert safe_join(tmp_path, "a", "b.md") == (tmp_path / "a" / "b.md").resolve()
    for bad in ("../x", "/etc/passwd", "a/../../x"):
        with pytest.raises(PathSafetyError):
            safe_join(tmp_path, bad)
    with pytest.raises(PathSafetyError):
        safe_name("../s")


def test_jsonl_torn_tail_tolerated_inner_corruption_raises(tmp_path: Path) -> None:
    log = tmp_path / "l.jsonl"
    jsonl.append(log, {"a": 1})
    jsonl.append(log, {"a": 2})
    with open(log, "ab") as fh:
        fh.write(b'{"a": 3')
    assert [r["a"] for r in jsonl.read(log)] == [1, 2]
    log.write_bytes(b'{"a":1}\nnot json\n{"a":2}\n')
    with pytest.raises(IntegrityError, match="line 2"):
        list(jsonl.read(log))


HOLDER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from autodidact.store.lock import WriterLock
    lock = WriterLock(Path(sys.argv[1]))
    lock.acquire()
    print("held", flush=True)
    time.sleep(60)
    """
)


def test_second_writer_refused_then_takeover_after_kill(tmp_path: Path) -> None:
    lock_path = tmp_path / ".autodidact" / "lock"
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(lock_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "held"
        with pytest.raises(LockedError) as info:
            WriterLock(lock_path).acquire()
        assert f"pid {proc.pid}" in str(info.value)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        warnings: list[str] = []
        deadline = time.monotonic() + 5
        lock = WriterLock(lock_path, warn=warnings.append)
        lock.acquire()
        assert time.monotonic() < deadline
        assert any(str(proc.pid) in w for w in warnings)
        lock.release()
    finally:
        if proc.poll() is None:
            proc.kill()
