"""A compile phrases the summaries of the articles it touched concurrently (issue 18: a round's
wall time follows the dependency graph of its calls; each summary depends on its own article only)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from autodidact.kb import KnowledgeBase
from autodidact.llm.base import Request
from autodidact.llm.runtime import Runtime
from autodidact.testing.scripted import ScriptedModel
from autodidact.wiki.compile.compiler import compile_evidence

from .test_compile_answers import round_one


def test_the_touched_articles_summaries_are_requested_together(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    round_one(en_kb, pydoc_dir)
    in_flight = 0
    most = 0
    second: asyncio.Event | None = None

    async def reply(request: Request) -> str:
        nonlocal in_flight, most, second
        if request.task != "wiki.compile_article":
            return json.dumps({"sentences": []})
        second = second or asyncio.Event()
        in_flight += 1
        most = max(most, in_flight)
        if in_flight >= 2:
            second.set()
        try:  # a compile that awaited each summary in turn never has a second one in flight
            await asyncio.wait_for(second.wait(), timeout=5)
        except TimeoutError:
            pass
        in_flight -= 1
        return json.dumps({"summary": "", "sections": []})  # an empty phrasing: the extractive summary stays

    model = ScriptedModel(fn=reply)
    compile_evidence(en_kb, 1, Runtime(model=model), today="2026-12-02")
    summaries = [r for r in model.requests if r.task == "wiki.compile_article"]
    assert len(summaries) >= 2  # round one touches the Generators and Coroutines articles
    assert most >= 2
