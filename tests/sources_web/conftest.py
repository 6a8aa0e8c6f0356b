"""Fixtures for the guarded fetch and search tests: a fresh FakeWeb per test and store checks."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from autodidact.config import FetchSettings
from autodidact.kb import KnowledgeBase
from autodidact.sources.fetch import Fetcher, fetch_to_kb
from autodidact.testing.fakeweb import FakeWeb

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


@pytest.fixture(scope="session")
def _shared_web() -> Iterator[FakeWeb]:
    with FakeWeb(huge_size=8 * 1024 * 1024, bomb_size=32 * 1024 * 1024) as fake:
        yield fake


@pytest.fixture
def web(_shared_web: FakeWeb) -> FakeWeb:
    """The loopback web with an empty request log and only the default pages."""
    _shared_web.reset()
    return _shared_web


def settings_for(web: FakeWeb | None = None, **overrides: Any) -> FetchSettings:
    base: dict[str, Any] = {"deadline": 5.0, "read_timeout": 2.0}
    if web is not None:
        base["allow_private"] = [web.allow_entry]
    base.update(overrides)
    return FetchSettings(**base)


def fetch_into(kb_root: Path, url: str, settings: FetchSettings, question_ids: tuple[str, ...] = ()) -> Any:
    async def go() -> Any:
        async with Fetcher(settings) as fetcher:
            return await fetch_to_kb(KnowledgeBase(kb_root), url, fetcher, question_ids)

    return run(go())


def stored_files(kb_root: Path) -> list[Path]:
    """Every file in source_cache/ and raw/ (both must stay empty after a refused fetch)."""
    found: list[Path] = []
    for folder in (kb_root / "source_cache", kb_root / "raw"):
        if folder.exists():
            found.extend(p for p in folder.rglob("*") if p.is_file())
    return found
