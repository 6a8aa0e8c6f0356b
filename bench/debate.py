"""Offline idea debates: how many random conversations stay clean, and what a reply costs.

Runs N random conversations (answers, don't-knows, commands, gap decisions; Chinese and English)
through the offline engine, checks each with the session checker and the store check, and times
every reply (load + plan + fsync'd append + snapshot + seal). Ratios: clean sessions / sessions
(target 1.0) and the 95th-percentile reply time relative to a 250 ms interactive budget.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from autodidact.debate.checker import check_session
from autodidact.debate.engine import Engine
from autodidact.debate.store import SessionStore
from autodidact.errors import InputError

ANSWERS = [
    "你定吧", "快速", "深度", "不知道", "我说的是主观感受，相比以前", "我最没把握的是第②条前提",
    "如果去掉这个原因，我预测会好一些", "也可能是别的原因，区别在于那一周", "保留，但修改措辞", "总结一下",
    "你觉得这个命题对吗？", "切换到推敲模式", "独立评估一下", "继续", "standard",
    "I mean the felt effort, compared to last year", "I don't know", "Alternatively it is the workload",
    "If I stop for two weeks I expect the count to go back up", "I keep it but revise the wording",
]  # fmt: skip
PROMPTS = [
    "我发现用AI写代码之后，我反而更累了",
    "Remote work makes people less creative because they miss chance encounters",
]
N = 60
BUDGET_MS = 250.0


def main() -> None:
    rng = random.Random(7)
    times: list[float] = []
    clean = 0
    with tempfile.TemporaryDirectory() as tmp:
        for index in range(N):
            folder = Path(tmp) / "debates" / f"b{index}"
            Engine(folder).start(rng.choice(PROMPTS))
            for _ in range(rng.randint(4, 20)):
                started = time.perf_counter()
                try:
                    Engine(folder).reply(rng.choice(ANSWERS))
                except InputError:
                    pass
                times.append((time.perf_counter() - started) * 1000)
            if check_session(folder)["ok"] and not SessionStore(folder).check():
                clean += 1
    p95 = statistics.quantiles(times, n=20)[18]
    print(f"{N} sessions, {len(times)} replies; clean {clean}/{N}")
    print(f"reply time: median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms")
    ratio = clean / N
    print(
        "BENCH " + json.dumps({"name": "debate_clean_sessions", "value": ratio, "target": ">= 1.0", "ok": ratio >= 1.0})
    )
    rel = p95 / BUDGET_MS
    print("BENCH " + json.dumps({"name": "debate_reply_p95_vs_250ms", "value": round(rel, 3), "target": "<= 1.0",
                                 "ok": rel <= 1.0}))  # fmt: skip


if __name__ == "__main__":
    main()
