"""kill -9 inside the report pipeline's writes, then re-run: the same report folder as a clean run.

Pass criteria (issue 8): ``autodidact report`` killed at the N-th atomic rename (the temp file
complete, the target untouched) or mid snapshot store, then run again with the same arguments,
gives byte-identical files to an uninterrupted run (the derived ``.autodidact/`` excluded), no
temp file, and ``autodidact verify --report-dir`` holds (snapshots, quotes, ``[N]`` citations).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import assert_same_tree, assert_verified, run_cli, run_driver, temp_files, tree

REQUEST = "How do Python generators work?"
KILLED = 87


def _args(report: Path, corpus: Path) -> tuple[str, ...]:
    return ("report", REQUEST, "--report-dir", str(report), "--corpus", str(corpus), "--mode", "quick")


@pytest.fixture(scope="module")
def clean_report(tmp_path_factory: pytest.TempPathFactory, pydoc_corpus: Path) -> dict[str, Any]:
    report = tmp_path_factory.mktemp("hd_report") / "rep"
    counts = report.parent / "counts.json"
    done = run_driver({"count_file": str(counts)}, *_args(report, pydoc_corpus))
    assert done.returncode == 0, done.stderr[-3000:]
    assert_verified(report, report_dir=True)
    return {"tree": tree(report), "counts": json.loads(counts.read_text())}


def _kill_then_rerun(fault: dict[str, int], tmp_path: Path, corpus: Path, clean: dict[str, Any]) -> None:
    report = tmp_path / "rep"
    died = run_driver(fault, *_args(report, corpus))
    assert died.returncode == KILLED, f"{fault} never reached: {died.stderr[-1500:]}"
    again = run_cli(*_args(report, corpus))
    assert again.returncode == 0, again.stderr[-3000:]
    assert "Traceback" not in again.stderr
    assert_same_tree(clean["tree"], tree(report), str(fault))
    assert not temp_files(report)
    assert_verified(report, report_dir=True)


@pytest.mark.parametrize("fraction", [0.5, *(pytest.param(f, marks=pytest.mark.slow) for f in (0.1, 0.3, 0.7, 0.95))])
def test_report_killed_before_a_rename_reruns_to_the_clean_result(
    fraction: float, tmp_path: Path, pydoc_corpus: Path, clean_report: dict[str, Any]
) -> None:
    n = max(1, int(clean_report["counts"]["replace"] * fraction))
    _kill_then_rerun({"exit_before_replace": n}, tmp_path, pydoc_corpus, clean_report)


@pytest.mark.slow
@pytest.mark.parametrize("fraction", [0.2, 0.6, 0.9])
def test_report_killed_mid_snapshot_store_reruns_to_the_clean_result(
    fraction: float, tmp_path: Path, pydoc_corpus: Path, clean_report: dict[str, Any]
) -> None:
    n = max(1, int(clean_report["counts"]["fsync"] * fraction))
    _kill_then_rerun({"exit_at_fsync": n}, tmp_path, pydoc_corpus, clean_report)
