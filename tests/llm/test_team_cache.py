"""The team backend's call cache and usage ledger: one cache and one ledger for every knowledge base
on the server (llm/pgcache.py, docs/team.md "Cache and ledger"), through the real SDKs."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from autodidact.llm.pgcache import team_totals
from autodidact.llm.runtime import Runtime
from autodidact.testing.fake_llm import FakeLLM

from .conftest import VerdictTask

GOOD = '{"topic": "generators", "confidence": 7}'


def test_a_reply_paid_for_in_one_knowledge_base_is_served_to_another_and_both_are_in_the_team_ledger(
    tmp_path: Path, pg_url: str, fake: FakeLLM, make_runtime: Callable[..., Runtime], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AUTODIDACT_DATABASE_URL", pg_url)
    fake.enqueue(GOOD, GOOD)
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    first = make_runtime(kb_root=alice)
    assert first.run_sync(VerdictTask(), "generators").confidence == 7
    asyncio.run(first.aclose())
    second = make_runtime(kb_root=bob)  # another knowledge base, another machine in effect
    assert second.run_sync(VerdictTask(), "generators").confidence == 7
    asyncio.run(second.aclose())
    assert len(fake.requests) == 1  # the second was served from the shared cache
    assert not (bob / ".autodidact" / "index.sqlite").exists()  # no local cache was used
    team = team_totals(pg_url)
    assert team["calls"] == 2 and team["cached_calls"] == 1 and team["by_task"]["verdict"]["calls"] == 2
    local = [json.loads(line) for line in (bob / ".autodidact" / "usage_ledger.jsonl").read_text().splitlines()]
    assert len(local) == 1 and local[0]["cached"] is True  # the folder's own ledger is still written


def test_without_the_server_the_cache_stays_in_each_folder(
    tmp_path: Path, fake: FakeLLM, make_runtime: Callable[..., Runtime]
) -> None:
    fake.enqueue(GOOD, GOOD)
    for name in ("alice", "bob"):
        runtime = make_runtime(kb_root=tmp_path / name)
        runtime.run_sync(VerdictTask(), "generators")
        asyncio.run(runtime.aclose())
    assert len(fake.requests) == 2 and (tmp_path / "bob" / ".autodidact" / "index.sqlite").is_file()
