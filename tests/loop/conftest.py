"""Fixtures for the loop tests: a knowledge base with the Python-docs corpus already indexed.

Indexing the corpus takes seconds, so it is done once per session and each test copies the
folder (the copy is a complete knowledge base: CLAUDE.md, raw/, source_cache/, index).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

TOPIC = "How do Python generators and coroutines work?"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def pydoc_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from autodidact.testing.corpora import write_pydoc_corpus

    dest = tmp_path_factory.mktemp("pydoc")
    write_pydoc_corpus(dest)
    return dest


@pytest.fixture(scope="session")
def indexed_base(tmp_path_factory: pytest.TempPathFactory, pydoc_corpus: Path) -> Path:
    from autodidact.kb import init_kb
    from autodidact.sources.ingest import index_corpus

    kb, _ = init_kb(tmp_path_factory.mktemp("base") / "kb", topic=TOPIC, lang="en")
    report = index_corpus(kb.root, [pydoc_corpus], name="pydoc")
    assert len(report.added) >= 150
    return kb.root


@pytest.fixture
def fresh_kb(tmp_path: Path, indexed_base: Path) -> Callable[[str], Path]:
    """``fresh_kb("name")`` copies the indexed base knowledge base to ``tmp_path/name``."""

    def make(name: str = "kb") -> Path:
        dest = tmp_path / name
        shutil.copytree(indexed_base, dest)
        lock = dest / ".autodidact" / "lock"
        if lock.exists():
            lock.unlink()
        return dest

    return make


def run_cli(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The real entry point in a subprocess (needed for hard crashes and signals)."""
    full_env = {**os.environ, **(env or {})}
    full_env.setdefault("PYTHONPATH", str(ROOT / "src"))
    return subprocess.run(
        [sys.executable, "-m", "autodidact", *args],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
        check=False,
    )
