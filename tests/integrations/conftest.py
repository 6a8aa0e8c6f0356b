"""Shared by the API and MCP tests: small documents written by the test, in English and Chinese."""

from __future__ import annotations

from pathlib import Path

import pytest

from autodidact.testing.corpora import APT_ZH_MD, GENERATORS_MD


@pytest.fixture
def english_docs(tmp_path: Path) -> Path:
    """A folder holding one English markdown document about generators."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "generators.md").write_text(GENERATORS_MD, encoding="utf-8")
    return folder


@pytest.fixture
def generators_text() -> str:
    """The English document's text."""
    return GENERATORS_MD


@pytest.fixture
def apt_zh_text() -> str:
    """A Chinese document about APT: dependencies and version pinning."""
    return APT_ZH_MD
