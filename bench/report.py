"""The report pipeline's parallelism and cost (issue 6 benchmark).

Setup: an OpenAI-compatible fake model answering after 300 ms (real HTTP, real openai SDK), the
Python-docs corpus indexed into the report folder, and a three-dimension normal report whose plan
has one real dependency chain (a timeline request: d1 chronology, then d2 drivers and d3 impact,
both consuming d1's key findings).

1. wall time / critical path. The critical path is the longest chain of dependent model calls:
   plan (1 call), then for each dimension on the longest dependency chain the agent's sequential
   calls (search plan → extraction round(s) → synthesis; the number of extraction rounds is
   measured from the call count). d2 and d3 must overlap, and so must the key questions inside
   each dimension. The SDK's one-time start-up is excluded by a warm-up call. Target <= 1.5.
The total model tokens and the tokens per cited claim are printed, with no target: they have no
reference to be measured against here (bench/gather.py holds the agent's tokens to one).

Run: .venv/bin/python bench/report.py
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from autodidact.config import Settings
from autodidact.llm.base import Request
from autodidact.llm.registry import build_runtime
from autodidact.plan.offline import offline_plan
from autodidact.report.pipeline import NullReporter, run_report
from autodidact.sources.ingest import index_corpus
from autodidact.testing.corpora import write_pydoc_corpus
from autodidact.testing.evidence_model import reply as evidence_reply
from autodidact.testing.fake_llm import FakeLLM

MODEL_LATENCY = 0.3
REQUEST = "The history of Python exception handling"


def answer(body: dict[str, Any]) -> str:
    """Plans like the offline planner would; everything else as the evidence helper's scripted model."""
    messages = body["messages"]
    if messages[0]["content"] == "warm-up":
        return "ok"
    if messages[0]["content"].startswith("You are a research planner"):
        return json.dumps(offline_plan(REQUEST, "en").to_json())
    return evidence_reply(messages, fabricate=False)


class Timeline(NullReporter):
    def __init__(self) -> None:
        self.events: list[tuple[float, str, str]] = []
        self.started = 0.0

    def stage(self, name: str, detail: str = "") -> None:
        self.events.append((time.perf_counter(), "stage", name))

    def dimension_started(self, dim_id: str, name: str, mode: str) -> None:
        self.events.append((time.perf_counter(), "start", dim_id))

    def dimension_done(self, dim_id: str, stats: dict[str, Any]) -> None:
        self.events.append((time.perf_counter(), "done", dim_id))


def main() -> int:
    os.environ.setdefault("OPENAI_API_KEY", "sk-bench-not-a-real-key")
    with tempfile.TemporaryDirectory() as tmp, FakeLLM(answer) as llm:
        llm.set_latency(MODEL_LATENCY)
        corpus = Path(tmp) / "corpus"
        write_pydoc_corpus(corpus)
        report_dir = Path(tmp) / "report"
        index_corpus(report_dir, [corpus])
        settings = Settings()
        settings.llm.base_url = llm.base_url
        settings.llm.concurrency = 8
        timeline = Timeline()

        async def once() -> tuple[float, Any, int, tuple[int, int]]:
            runtime = build_runtime(settings, None, model="openai:bench-model")
            # The SDK's one-time start-up (import, client, first connection) is not pipeline time.
            await runtime.complete(Request(messages=[{"role": "system", "content": "warm-up"}], task="warm-up"))
            warm_calls, warm_usage = len(llm.requests), llm.reported_usage
            started = timeline.started = time.perf_counter()
            result = await run_report(
                REQUEST, report_dir=report_dir, runtime=runtime, settings=settings, mode="normal", reporter=timeline
            )
            wall = time.perf_counter() - started
            timeline.events.append((time.perf_counter(), "end", "run"))
            await runtime.aclose()
            return wall, result, warm_calls, warm_usage

        wall, result, warm_calls, warm_usage = asyncio.run(once())
        calls = len(llm.requests) - warm_calls
        plan = result.plan
        depth: dict[str, int] = {}
        for dim_id in plan.execution_order:
            ups = plan.dimension(dim_id).depends_on
            depth[dim_id] = 1 + max((depth[u] for u in ups), default=0)
        chain = max(depth.values())
        # The agent's sequential calls per dimension: search plan, extraction round(s), synthesis.
        # Rounds are measured from the call count: agent calls = dims * 2 + rounds * key questions.
        kqs = sum(len(d.key_questions) for d in plan.dimensions)
        plan_calls = 1
        rounds = max(1, math.ceil((calls - plan_calls - 2 * len(plan.dimensions)) / kqs))
        per_dim = 2 + rounds
        critical = MODEL_LATENCY * (plan_calls + per_dim * chain)
        ratio = wall / critical
        in_tok = llm.reported_usage[0] - warm_usage[0]
        out_tok = llm.reported_usage[1] - warm_usage[1]
        tokens = in_tok + out_tok
        cites = json.loads((report_dir / "citations.json").read_text(encoding="utf-8"))["citations"]
        cited = {cid for entry in cites for cid in entry["claim_ids"]}
        per_claim = tokens / max(1, len(cited))
        print(
            f"{len(plan.dimensions)} dimensions (longest chain {chain}), failed: {result.failed or 'none'}; "
            f"{calls} model calls ({rounds} extraction round(s) per key question, so {per_dim} sequential calls "
            f"per dimension); wall {wall:.2f}s vs critical path {critical:.2f}s"
        )
        t0 = timeline.started
        for at, kind, dim_id in timeline.events:
            print(f"  {at - t0:6.2f}s {kind:5} {dim_id}")
        print(
            f"model tokens: {in_tok} in + {out_tok} out = {tokens}; {len(cited)} cited claims, {len(cites)} sources; "
            f"{per_claim:.0f} tokens per cited claim"
        )
    ok_dims = len(plan.dimensions) == 3 and not result.failed
    bench("report_wall_over_critical_path", ratio, "<= 1.5", ratio <= 1.5 and ok_dims)
    return 0


def bench(name: str, value: float, target: str, ok: bool) -> None:
    print("BENCH " + json.dumps({"name": name, "value": round(value, 3), "target": target, "ok": ok}))


if __name__ == "__main__":
    raise SystemExit(main())
