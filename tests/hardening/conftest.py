"""Fixtures for the fault and bad-input suites: the real CLI in a subprocess, loopback fakes, verify.

Every fault case runs ``python -m autodidact ...`` as a child process (a hard crash must not take
the test runner with it), then ``autodidact verify`` on the folder it touched. The knowledge base
with the Python-docs corpus indexed is built once per session and copied per test.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autodidact.testing.kbtree import assert_same_tree, kb_tree

tree = kb_tree  # the name the hardening tests use
__all__ = ["assert_same_tree", "tree"]

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
DRIVER = HERE / "driver.py"
TOPIC = "How do Python generators work?"
FAKE_OPENAI_KEY = "sk-hardening-FAKE-0p3nA1-d0n0tl3ak-93f1c7"
FAKE_ANTHROPIC_KEY = "sk-ant-hardening-FAKE-d0n0tl3ak-5be2a8"


def _env(extra: dict[str, str] | None) -> dict[str, str]:
    full = {**os.environ, **(extra or {})}
    full["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + full.get("PYTHONPATH", "")
    full.setdefault("COLUMNS", "200")
    return full


def run_cli(
    *args: str, env: dict[str, str] | None = None, timeout: float = 180, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m autodidact ARGS`` in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "autodidact", *args],
        capture_output=True,
        text=True,
        env=_env(env),
        timeout=timeout,
        input=stdin,
        check=False,
    )


def run_driver(
    faults: dict[str, Any], *args: str, env: dict[str, str] | None = None, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    """The CLI under ``driver.py``, which injects ``faults`` (kill at the Nth replace, ENOSPC, ...)."""
    return subprocess.run(
        [sys.executable, str(DRIVER), json.dumps(faults), *args],
        capture_output=True,
        text=True,
        env=_env(env),
        timeout=timeout,
        check=False,
    )


def verify(root: Path, *, report_dir: bool = False) -> dict[str, Any]:
    """``autodidact verify --json`` on a folder; returns the parsed report."""
    flag = "--report-dir" if report_dir else "--kb"
    done = run_cli("verify", flag, str(root), "--json")
    assert done.returncode in (0, 1), done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["ok"] == (done.returncode == 0)
    return dict(report)


def assert_verified(root: Path, *, report_dir: bool = False) -> None:
    report = verify(root, report_dir=report_dir)
    assert report["ok"], json.dumps(report["problems"], ensure_ascii=False, indent=1)


def assert_clean_error(done: subprocess.CompletedProcess[str], *needles: str, code: int | None = None) -> None:
    """A non-zero exit with one ``error:`` line (plus hint), the needles in it, and no traceback."""
    assert done.returncode != 0, done.stderr[-2000:]
    if code is not None:
        assert done.returncode == code, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr[-4000:]
    assert "error:" in done.stderr, done.stderr[-2000:]
    for needle in needles:
        assert needle in done.stderr, (needle, done.stderr[-2000:])


def temp_files(root: Path) -> list[str]:
    """Leftover ``.<name>.*.tmp`` files of interrupted atomic writes."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if re.match(r"^\..+\.tmp$", p.name))


@pytest.fixture(scope="session")
def pydoc_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from autodidact.testing.corpora import write_pydoc_corpus

    dest = tmp_path_factory.mktemp("hd_pydoc")
    write_pydoc_corpus(dest)
    return dest


@pytest.fixture(scope="session")
def indexed_base(tmp_path_factory: pytest.TempPathFactory, pydoc_corpus: Path) -> Path:
    """A knowledge base with the Python-docs corpus indexed (no research yet)."""
    from autodidact.kb import init_kb
    from autodidact.sources.ingest import index_corpus

    kb, _ = init_kb(tmp_path_factory.mktemp("hd_base") / "kb", topic=TOPIC, lang="en")
    report = index_corpus(kb.root, [pydoc_corpus], name="pydoc")
    assert len(report.added) >= 150
    return kb.root


@pytest.fixture
def fresh_kb(tmp_path: Path, indexed_base: Path) -> Callable[..., Path]:
    """``fresh_kb("name")``: a private copy of the indexed knowledge base."""

    def make(name: str = "kb", where: Path | None = None) -> Path:
        dest = (where or tmp_path) / name
        shutil.copytree(indexed_base, dest)
        lock = dest / ".autodidact" / "lock"
        if lock.exists():
            lock.unlink()
        return dest

    return make


@pytest.fixture(scope="session")
def counted_run(tmp_path_factory: pytest.TempPathFactory, indexed_base: Path) -> dict[str, Any]:
    """An uninterrupted one-round offline run under ``driver.py``: its files (the reference for
    crash equivalence), its root, and how many replace/fsync/link calls it made."""
    root = tmp_path_factory.mktemp("hd_counted") / "kb"
    shutil.copytree(indexed_base, root)
    count_file = root.parent / "counts.json"
    done = run_driver({"count_file": str(count_file)}, "research", TOPIC, "--max-rounds", "1", "--kb", str(root))
    assert done.returncode == 0, done.stderr[-3000:]
    counts = json.loads(count_file.read_text())
    assert counts["replace"] >= 10 and counts["fsync"] >= 10, counts
    return {"tree": tree(root), "counts": counts, "root": root}


@pytest.fixture(scope="session")
def clean_one_round(counted_run: dict[str, Any]) -> dict[str, bytes]:
    """The files of an uninterrupted one-round offline run."""
    return dict(counted_run["tree"])
