"""Fixtures for the wiki tests: knowledge bases and raw files written with the rawfiles writer."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from autodidact.kb import KnowledgeBase, init_kb
from autodidact.sources.rawfiles import RawFile, write_raw_file

AddRaw = Callable[..., str]


@pytest.fixture
def en_kb(tmp_path: Path) -> KnowledgeBase:
    kb, _ = init_kb(tmp_path / "kb-en", topic="Python generators", lang="en")
    return kb


@pytest.fixture
def zh_kb(tmp_path: Path) -> KnowledgeBase:
    kb, _ = init_kb(tmp_path / "kb-zh", topic="期权策略", lang="zh")
    return kb


def add_raw(
    kb: KnowledgeBase,
    title: str,
    body: str,
    *,
    quality: str = "高",
    qids: list[str] | None = None,
    date: str = "2026-12-01",
    url: str | None = None,
) -> str:
    """Write one raw file through the real writer; returns its file name."""
    rf = RawFile(
        filename="",
        title=title,
        url=url or f"https://example.org/{abs(hash((title, body))) % 10**8}",
        fetched_date=date,
        question_ids=qids or [],
        quality=quality,
        quality_note="test fixture",
        snapshot_ref="",
        body=body,
    )
    path, created = write_raw_file(kb.raw, rf, date=date)
    assert created
    return path.name


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
