"""Wiki compile and check time on synthetic wikis of 100 and 1,000 articles (issue 5 benchmark).

For each size: offline compile of N raw files (one topic each), then the audit with 20 questions.
The measured ratio is phase-1 time per question (BM25 retrieval over the wiki's sections plus the
offline answer) at 1,000 articles ÷ at 100 articles; target <= 3 for 10x the articles. Index build
and the full check (phase 2 scans every article, so it is linear in the wiki) are printed too.

Run: .venv/bin/python bench/wiki.py
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
from pathlib import Path

from autodidact.kb import KnowledgeBase, init_kb
from autodidact.llm.runtime import Runtime
from autodidact.sources.rawfiles import RawFile, write_raw_file
from autodidact.wiki.audit.check import answer_questions, check_wiki
from autodidact.wiki.audit.retrieval import WikiIndex
from autodidact.wiki.common.articles import load_wiki
from autodidact.wiki.compile.compiler import compile_wiki

QUESTIONS = 20
SHARED = ["engine", "fuel", "gear", "battery", "motion", "tuning", "service", "spring", "manual", "design"]


def make_kb(root: Path, n: int, seed: int = 7) -> KnowledgeBase:
    rng = random.Random(seed)
    kb, _ = init_kb(root, topic="synthetic engines", lang="en")
    for k in range(n):
        words = rng.sample(SHARED, 4)
        body = "\n".join(
            [
                f"Widget{k} engines convert {words[0]} into motion using gear{k} assemblies and careful {words[1]}.",
                f"Each widget{k} unit weighs about {k % 90 + 10} kilograms and runs on cell{k} batteries for hours.",
                f"## Maintenance\n\nEngineers service widget{k} units every {words[2]} with tool{k} kits and manuals.",
                f"The widget{k} {words[3]} was changed in the latest revision to reduce noise and wear.",
            ]
        )
        rf = RawFile(
            filename="",
            title=f"Widget{k} engine",
            url=f"https://example.org/w{k}",
            fetched_date="2026-12-01",
            quality="高",
            body=body + "\n",
        )
        write_raw_file(kb.raw, rf)
    return kb


def questions(n: int) -> list[dict[str, str]]:
    rng = random.Random(3)
    return [
        {"id": f"q{i}", "text": f"How much does a widget{k} engine weigh, and what do engineers service it with?"}
        for i, k in enumerate(rng.randrange(n) for _ in range(QUESTIONS))
    ]


def measure(n: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        kb = make_kb(Path(tmp) / "kb", n)
        t0 = time.perf_counter()
        compile_wiki(kb, None, None)
        t_compile = time.perf_counter() - t0
        articles = load_wiki(kb.wiki)
        t0 = time.perf_counter()
        index = WikiIndex(articles)
        t_index = time.perf_counter() - t0
        qs = questions(n)
        pairs = [(q["id"], q["text"]) for q in qs]
        runtime = Runtime()
        asyncio.run(answer_questions(kb, pairs, runtime, "en", index))  # warm-up
        t0 = time.perf_counter()
        for _ in range(5):
            asyncio.run(answer_questions(kb, pairs, runtime, "en", index))
        t_per_q = (time.perf_counter() - t0) / (5 * QUESTIONS)
        t0 = time.perf_counter()
        result = check_wiki(kb, qs, 1, None)
        t_check = time.perf_counter() - t0
        return {
            "articles": len(articles),
            "compile_s": t_compile,
            "index_s": t_index,
            "per_question_ms": t_per_q * 1000,
            "check_s": t_check,
            "resolved": result.report.resolved,
        }


def main() -> None:
    small, large = measure(100), measure(1000)
    for row in (small, large):
        print(
            f"{row['articles']:>5.0f} articles: compile {row['compile_s']:.2f}s, index {row['index_s']:.3f}s, "
            f"phase 1 {row['per_question_ms']:.2f} ms/question, full check ({QUESTIONS} q) {row['check_s']:.2f}s, "
            f"resolved {row['resolved']:.0f}/{QUESTIONS}"
        )
    ratio = large["per_question_ms"] / small["per_question_ms"]
    print(f"check time per question, 1000 vs 100 articles: x{ratio:.2f}")
    bench = {"name": "wiki_check_per_question_10x", "value": round(ratio, 3), "target": "<= 3", "ok": ratio <= 3}
    print("BENCH " + json.dumps(bench))
    compile_ratio = large["compile_s"] / small["compile_s"]
    print(f"compile time 1000 vs 100 articles: x{compile_ratio:.2f} (10x the input)")


if __name__ == "__main__":
    main()
