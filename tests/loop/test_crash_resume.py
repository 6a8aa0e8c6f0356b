"""Crash equivalence: kill the run hard at a named point, resume, and get the clean run's files.

Known timestamp fields (``started_at``, ``rounds[].timestamp`` in the state file) are the only
allowed differences. ``.autodidact/`` is derived (index, lock, ledger, last-good copy) and is not
compared. By default a sample of points runs; ``pytest -m slow`` runs every point of rounds 1–2.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from autodidact.loop.control import CRASH_EXIT_CODE, crash_points_for_round
from autodidact.testing.kbtree import assert_same_tree, kb_tree

from .conftest import ROOT, TOPIC, run_cli

ARGS = ("research", TOPIC, "--max-rounds", "2")
SAMPLE = ["r1.research.q2", "r2.research.raw1"]
# Generous counts; a point beyond what the clean run did (fewer questions or raw files) is skipped.
ALL_POINTS = crash_points_for_round(1, questions=10, raw_files=6) + crash_points_for_round(2, questions=10, raw_files=6)


def reachable(point: str, clean: dict[str, bytes]) -> bool:
    """Whether the clean run passed ``point`` (inner research points depend on the round's counts)."""
    round_part, step, when = point.split(".")
    if step != "research" or when in {"before", "written"}:
        return True
    state = json.loads(clean["outputs/research_state.json"])
    record = state["rounds"][int(round_part[1:]) - 1]
    k = int(when.lstrip("qraw"))
    return k <= (len(record["questions"]) if when.startswith("q") else len(record["new_raw_files"]))


def assert_same(clean: dict[str, bytes], resumed: dict[str, bytes], point: str) -> None:
    assert_same_tree(clean, resumed, f"{point} (after resume)")
    assert not [n for n in resumed if n.endswith(".tmp")], f"{point}: temporary files left"


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory: pytest.TempPathFactory, indexed_base: Path) -> dict[str, bytes]:
    import shutil

    root = tmp_path_factory.mktemp("clean") / "kb"
    shutil.copytree(indexed_base, root)
    done = run_cli(*ARGS, "--kb", str(root))
    assert done.returncode == 0, done.stderr
    return kb_tree(root)


def crash_and_resume(root: Path, point: str) -> None:
    crashed = run_cli(*ARGS, "--kb", str(root), env={"AUTODIDACT_CRASH_AT": point})
    assert crashed.returncode == CRASH_EXIT_CODE, f"{point} never reached: {crashed.stderr[-2000:]}"
    resumed = run_cli("research", "--kb", str(root))
    assert resumed.returncode == 0, resumed.stderr[-2000:]


@pytest.mark.parametrize("point", SAMPLE)
def test_crash_then_resume_equals_clean_run(
    point: str, fresh_kb: Callable[[str], Path], clean_run: dict[str, bytes]
) -> None:
    if not reachable(point, clean_run):
        pytest.skip(f"the clean run never reaches {point}")
    root = fresh_kb("kb")
    crash_and_resume(root, point)
    assert_same(clean_run, kb_tree(root), point)


@pytest.mark.slow
@pytest.mark.parametrize("point", [p for p in ALL_POINTS if p not in SAMPLE])
def test_every_crash_point(point: str, fresh_kb: Callable[[str], Path], clean_run: dict[str, bytes]) -> None:
    if not reachable(point, clean_run):
        pytest.skip(f"the clean run never reaches {point}")
    root = fresh_kb("kb")
    crash_and_resume(root, point)
    assert_same(clean_run, kb_tree(root), point)


def test_sigint_stops_cleanly_with_resume_hint(fresh_kb: Callable[[str], Path]) -> None:
    root = fresh_kb("kb")
    env = {"PYTHONPATH": str(ROOT / "src")}

    proc = subprocess.Popen(
        [sys.executable, "-m", "autodidact", "research", TOPIC, "--max-rounds", "1", "--kb", str(root)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
    )
    deadline = time.monotonic() + 60
    state = root / "outputs" / "research_state.json"
    while not state.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    if proc.returncode == 0:
        pytest.skip("the run finished before the signal arrived")
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "resume with: autodidact research --kb" in err
    assert not list(root.rglob("*.tmp"))
    resumed = run_cli("research", "--kb", str(root))
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(state.read_text("utf-8"))["status"] == "terminated"


def test_corrupt_state_is_a_clear_error(fresh_kb: Callable[[str], Path]) -> None:
    root = fresh_kb("kb")
    (root / "outputs" / "research_state.json").write_text('{"topic": "x", "rounds": [', "utf-8")
    done = run_cli("research", "--kb", str(root))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "research_state.json is not valid JSON" in done.stderr
    assert "hint:" in done.stderr


ASKED = ("What does the yield statement do?", "Can a generator be restarted after it is exhausted?")


def with_questions(root: Path) -> Path:
    from autodidact.kb import open_kb
    from autodidact.loop.inbox import add_question

    for text in ASKED:
        add_question(open_kb(root), text)
    return root


@pytest.fixture(scope="module")
def clean_run_with_questions(tmp_path_factory: pytest.TempPathFactory, indexed_base: Path) -> dict[str, bytes]:
    import shutil

    root = tmp_path_factory.mktemp("clean-asked") / "kb"
    shutil.copytree(indexed_base, root)
    done = run_cli(*ARGS, "--kb", str(with_questions(root)))
    assert done.returncode == 0, done.stderr
    return kb_tree(root)


@pytest.mark.parametrize("point", ["r1.state.settled", "r2.state.settled"])
def test_crash_while_settling_user_questions_resumes_to_the_clean_run(
    point: str, fresh_kb: Callable[[str], Path], clean_run_with_questions: dict[str, bytes]
) -> None:
    inbox = clean_run_with_questions["outputs/user_questions.md"].decode("utf-8")
    assert "~~" in inbox, "the clean run settled none of the user's questions: nothing to crash in"
    root = with_questions(fresh_kb("kb"))
    crash_and_resume(root, point)
    assert_same(clean_run_with_questions, kb_tree(root), point)
