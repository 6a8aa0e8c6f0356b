"""A full disk and two writers, through the real CLI.

Pass criteria (issue 8): ENOSPC (injected at the N-th fsync by ``driver.py``, or a real full tmpfs
when this machine lets us mount one) → one clear error line, non-zero exit, no traceback, the state
file whole, and once space is back a resume completes with the files of an uninterrupted run and
``verify`` holding. Two runs on one knowledge base → exactly one proceeds, the other exits 3
naming the holder; a lock left by a dead process is taken over with a warning.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import (
    TOPIC,
    _env,
    assert_clean_error,
    assert_same_tree,
    assert_verified,
    run_cli,
    run_driver,
    temp_files,
    tree,
)

ARGS = ("research", TOPIC, "--max-rounds", "1")


def _state_whole(root: Path) -> dict[str, object] | None:
    path = root / "outputs" / "research_state.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text("utf-8"))
    from autodidact.kb import KnowledgeBase
    from autodidact.loop.state import load_state

    assert load_state(KnowledgeBase(root)) is not None
    return dict(data)


@pytest.mark.parametrize("fraction", [0.5, 0.9] + [pytest.param(f, marks=pytest.mark.slow) for f in (0.05, 0.25, 0.75)])
def test_enospc_is_a_clear_error_and_a_later_resume_completes(
    fraction: float, fresh_kb: Callable[..., Path], counted_run: dict[str, Any]
) -> None:
    n = max(1, int(counted_run["counts"]["fsync"] * fraction))
    clean_one_round = counted_run["tree"]
    root = fresh_kb()
    full = run_driver({"enospc_at_fsync": n}, *ARGS, "--kb", str(root))
    assert_clean_error(full, "No space left on device")
    assert "hint:" in full.stderr
    _state_whole(root)
    resumed = run_cli("research", "--kb", str(root)) if _state_whole(root) else run_cli(*ARGS, "--kb", str(root))
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert_same_tree(clean_one_round, tree(root), f"enospc_at_fsync={n}")
    assert not temp_files(root)
    assert_verified(root)


def test_enospc_on_snapshot_install_is_clear(fresh_kb: Callable[..., Path], clean_one_round: dict[str, bytes]) -> None:
    """The snapshot store installs with os.link; a full disk there is the same clear, resumable error."""
    root = fresh_kb()
    full = run_driver({"enospc_at_link": 3}, *ARGS, "--kb", str(root))
    assert_clean_error(full, "No space left on device")
    resumed = run_cli("research", "--kb", str(root))
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert_same_tree(clean_one_round, tree(root), "enospc_at_link=3")
    assert_verified(root)


@pytest.fixture
def small_tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A real tmpfs mount (root only; skipped where mounting is not allowed)."""
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    size = 64 * 1024 * 1024
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True, check=False)


def test_real_full_disk_then_free_space_resumes(
    small_tmpfs: Path, fresh_kb: Callable[..., Path], clean_one_round: dict[str, bytes]
) -> None:
    root = fresh_kb("kb", where=small_tmpfs)
    free = shutil.disk_usage(small_tmpfs).free
    filler = small_tmpfs / "filler"
    with open(filler, "wb") as fh:  # leave ~40 KB: the run fills it part-way through the round
        fh.truncate(0)
        fh.write(b"\0" * max(0, free - 40 * 1024))
    full = run_cli(*ARGS, "--kb", str(root))
    assert_clean_error(full)
    assert "space" in full.stderr.lower() or "full" in full.stderr.lower(), full.stderr[-1500:]
    _state_whole(root)
    filler.unlink()
    resumed = run_cli("research", "--kb", str(root)) if _state_whole(root) else run_cli(*ARGS, "--kb", str(root))
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert_same_tree(clean_one_round, tree(root), "tmpfs full")
    assert_verified(root)


def test_two_runs_on_one_kb_exactly_one_proceeds(fresh_kb: Callable[..., Path]) -> None:
    root = fresh_kb()
    cmd = [sys.executable, "-m", "autodidact", *ARGS, "--kb", str(root)]
    procs = [
        subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(None))
        for _ in range(2)
    ]
    results = [(p.wait(timeout=180), p.communicate()[1]) for p in procs]
    codes = sorted(code for code, _ in results)
    if codes == [0, 0]:
        pytest.skip("the first run finished before the second started")  # pragma: no cover
    assert codes == [0, 3], results
    refused = next(err for code, err in results if code == 3)
    assert "in use by pid" in refused and "Traceback" not in refused
    assert_verified(root)


def test_stale_lock_of_a_dead_process_is_taken_over(fresh_kb: Callable[..., Path]) -> None:
    root = fresh_kb()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(dead.stdout)
    lock = root / ".autodidact" / "lock"
    lock.write_text(json.dumps({"pid": pid, "since": "2026-01-01T00:00:00"}) + "\n")
    done = run_cli(*ARGS, "--kb", str(root))
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"stale lock left by pid {pid}" in done.stderr
    assert_verified(root)


def test_lock_held_by_a_live_process_refuses_with_its_pid(fresh_kb: Callable[..., Path]) -> None:
    root = fresh_kb()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from autodidact.kb import KnowledgeBase; from pathlib import Path\n"
            "with KnowledgeBase(Path(sys.argv[1])).lock():\n    print('held', flush=True); time.sleep(60)",
            str(root),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=_env(None),
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        for args in (ARGS, ("wiki", "compile"), ("fetch", "http://127.0.0.1:9/x")):
            done = run_cli(*args, "--kb", str(root))
            assert_clean_error(done, f"in use by pid {holder.pid}", code=3)
    finally:
        holder.kill()
        holder.wait()
    assert not (root / "outputs" / "research_state.json").exists()
    assert os.path.exists(root / ".autodidact" / "lock")


def test_read_only_file_system_is_a_clear_error_then_resumes(
    small_tmpfs: Path, fresh_kb: Callable[..., Path], clean_one_round: dict[str, bytes]
) -> None:
    root = fresh_kb("kb", where=small_tmpfs)
    remount = subprocess.run(["mount", "-o", "remount,ro", str(small_tmpfs)], capture_output=True)
    if remount.returncode != 0:
        pytest.skip("cannot remount read-only here")
    try:
        done = run_cli(*ARGS, "--kb", str(root))
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(small_tmpfs)], capture_output=True, check=True)
    assert_clean_error(done, "Read-only file system")
    resumed = run_cli(*ARGS, "--kb", str(root))
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert_same_tree(clean_one_round, tree(root), "read-only then writable")
    assert_verified(root)
