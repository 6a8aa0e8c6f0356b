"""kill -9 at the loop's crash points and inside the atomic-write sequence, then resume and verify.

Pass criteria (issue 8): the resumed knowledge base equals an uninterrupted run file for file
(timestamps masked), ``autodidact verify`` holds (so no temporary file is left and every snapshot,
quote and citation checks out), and whenever the process dies the state file is either absent or a
whole, valid state. A sample of points runs by default; ``pytest -m slow`` runs every one.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autodidact.loop.control import CRASH_EXIT_CODE

from .conftest import TOPIC, assert_same_tree, assert_verified, run_cli, run_driver, temp_files, tree

ARGS = ("research", TOPIC, "--max-rounds", "1")
KILLED = 87


def _state_is_whole(root: Path) -> None:
    """The state file, if present, parses and validates: the old or the new version, never half."""
    from autodidact.kb import KnowledgeBase
    from autodidact.loop.state import load_state

    if (root / "outputs" / "research_state.json").exists():
        assert load_state(KnowledgeBase(root)) is not None


def _resume_and_compare(root: Path, clean: dict[str, bytes], label: str) -> None:
    resumed = run_cli("research", "--kb", str(root))
    if resumed.returncode == 2 and "nothing to resume" in resumed.stderr:
        resumed = run_cli(*ARGS, "--kb", str(root))  # killed before the state file ever existed
    assert resumed.returncode == 0, f"{label}: {resumed.stderr[-3000:]}"
    assert "Traceback" not in resumed.stderr
    assert_same_tree(clean, tree(root), label)
    assert not temp_files(root), f"{label}: temporary files left: {temp_files(root)}"
    assert_verified(root)


def test_uninterrupted_run_verifies(counted_run: dict[str, Any]) -> None:
    assert_verified(counted_run["root"])
    assert not temp_files(counted_run["root"])


FAST_POINTS = ["r1.research.q2", "r1.check.before"]
SLOW_POINTS = ["r1.questions.written", "r1.research.raw1", "r1.compile.written", "r1.state.before"]


@pytest.mark.parametrize("point", FAST_POINTS + [pytest.param(p, marks=pytest.mark.slow) for p in SLOW_POINTS])
def test_crash_point_resume_equals_clean_and_verifies(
    point: str, fresh_kb: Callable[..., Path], counted_run: dict[str, Any]
) -> None:
    root = fresh_kb()
    crashed = run_cli(*ARGS, "--kb", str(root), env={"AUTODIDACT_CRASH_AT": point})
    assert crashed.returncode == CRASH_EXIT_CODE, f"{point} never reached: {crashed.stderr[-2000:]}"
    _state_is_whole(root)
    _resume_and_compare(root, counted_run["tree"], point)


def _kill_inside_write(mode: str, n: int, fresh_kb: Callable[..., Path], counted_run: dict[str, Any]) -> None:
    root = fresh_kb()
    died = run_driver({mode: n}, *ARGS, "--kb", str(root))
    assert died.returncode == KILLED, f"{mode}={n} never reached (exit {died.returncode}): {died.stderr[-2000:]}"
    _state_is_whole(root)
    _resume_and_compare(root, counted_run["tree"], f"{mode}={n}")


def _sample(total: int) -> list[int]:
    return sorted({1, 2, total // 3, total // 2, (2 * total) // 3, total - 1, total})


@pytest.mark.parametrize("which", [0, 3, 6] + [pytest.param(w, marks=pytest.mark.slow) for w in (1, 2, 4, 5)])
def test_kill_before_replace_leaves_old_or_new_and_resumes(
    which: int, fresh_kb: Callable[..., Path], counted_run: dict[str, Any]
) -> None:
    """Killed with a complete temp file written but not yet renamed over its target."""
    points = _sample(counted_run["counts"]["replace"])
    if which >= len(points):
        pytest.skip("fewer distinct sample points")
    _kill_inside_write("exit_before_replace", points[which], fresh_kb, counted_run)


@pytest.mark.parametrize("which", [3, pytest.param(0, marks=pytest.mark.slow)])
def test_kill_after_replace_before_dir_fsync_resumes(
    which: int, fresh_kb: Callable[..., Path], counted_run: dict[str, Any]
) -> None:
    points = _sample(counted_run["counts"]["replace"])
    _kill_inside_write("exit_after_replace", points[which], fresh_kb, counted_run)


@pytest.mark.parametrize(
    "fraction", [0.5, pytest.param(0.1, marks=pytest.mark.slow), pytest.param(0.9, marks=pytest.mark.slow)]
)
def test_kill_mid_temp_file_resumes(
    fraction: float, fresh_kb: Callable[..., Path], counted_run: dict[str, Any]
) -> None:
    """Killed at an fsync: a temp file (or a snapshot's temp) is written but not flushed or installed."""
    n = max(1, int(counted_run["counts"]["fsync"] * fraction))
    _kill_inside_write("exit_at_fsync", n, fresh_kb, counted_run)


@pytest.mark.slow
def test_kill_before_every_replace(fresh_kb: Callable[..., Path], counted_run: dict[str, Any], tmp_path: Path) -> None:
    for n in range(1, counted_run["counts"]["replace"] + 1):
        root = fresh_kb(f"kb{n}")
        died = run_driver({"exit_before_replace": n}, *ARGS, "--kb", str(root))
        assert died.returncode == KILLED, f"replace {n}: {died.stderr[-1500:]}"
        _state_is_whole(root)
        _resume_and_compare(root, counted_run["tree"], f"exit_before_replace={n}")
        shutil.rmtree(root)
