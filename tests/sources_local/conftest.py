"""Fixtures for the local-sources tests: real corpora ingested once per session."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def pydoc_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A knowledge base holding Python's documentation, ingested through ``add_paths``."""
    from autodidact.kb import init_kb
    from autodidact.sources.ingest import add_paths
    from autodidact.testing.corpora import write_pydoc_corpus

    base = tmp_path_factory.mktemp("pydoc")
    files = write_pydoc_corpus(base / "pydoc")
    kb, _ = init_kb(base / "kb", lang="en")
    report = add_paths(kb, [base / "pydoc"], date="2026-01-02")
    assert not report.skipped
    assert len(report.added) == len(files)
    return kb.root
