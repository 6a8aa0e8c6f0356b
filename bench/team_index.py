"""The team backend's index beside the SQLite default, on the same corpora: recall, query p95, build/MB.

For every corpus of the quality eval (``eval/cases.toml``: Python's docs and modules, Debian's
reference in English and Chinese when installed), the corpus is indexed once into a folder, then
each backend builds its index from the same snapshots (``rebuild``, timed) and answers the same
queries: each gold fact's plain sub-question (a fact counts as found when one of its phrases stands
in the top 3 hits, as eval/run.py's search baseline counts it) and 2–3 word phrases taken from the
corpus (latency only). Targets, so the benchmark can fail:

- recall of the gold facts on PostgreSQL >= SQLite's (ratio >= 1.0);
- PostgreSQL query p95 < 250 ms (a server round trip and BM25 in SQL; SQLite's p95 is printed beside);
- PostgreSQL build time per MB <= 6x SQLite's (a client/server COPY against an embedded file).

The server: ``AUTODIDACT_DATABASE_URL`` when set, else a throwaway cluster (Debian's
``postgresql`` package; autodidact/testing/pgserver.py). Usage: ``.venv/bin/python bench/team_index.py``.
"""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "eval"))

from run import CASES, Fact, load_cases, normalise, write_corpus  # noqa: E402

from autodidact.sources.ingest import index_corpus  # noqa: E402
from autodidact.sources.passage_index import LocalIndex, PassageIndex  # noqa: E402
from autodidact.sources.pgindex import PgIndex  # noqa: E402

TOP = 3
PHRASE_QUERIES = 60
TARGET_P95_MS = 250.0
TARGET_BUILD_RATIO = 6.0


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def phrases(texts: list[str], n: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    words = [w for t in texts for w in re.findall(r"[A-Za-z_]{4,}|[\u4e00-\u9fff]{2,4}", t)]
    return [" ".join(words[i : i + rng.randint(2, 3)]) for i in (rng.randrange(len(words) - 3) for _ in range(n))]


class Side:
    """One backend's figures over every corpus."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.found = 0
        self.facts = 0
        self.build_seconds = 0.0
        self.latencies: list[float] = []
        self.answers: list[list[tuple[str, int]]] = []  # each query's hits, to compare the backends

    def timed_search(self, index: PassageIndex, query: str) -> list[str]:
        t = time.perf_counter()
        hits = index.search(query, TOP)
        self.latencies.append((time.perf_counter() - t) * 1000)
        self.answers.append([(h.snapshot_ref, h.start) for h in hits])
        return [h.text for h in hits]


def measure(side: Side, index: PassageIndex, facts: list[Fact], queries: list[str]) -> list[bool]:
    t = time.perf_counter()
    index.rebuild()
    side.build_seconds += time.perf_counter() - t
    for q in queries[:5]:  # warm caches on both sides alike
        index.search(q, TOP)
    found = []
    for fact in facts:
        haystack = normalise("\n".join(side.timed_search(index, fact.question)))
        found.append(fact.found_in(haystack))
    for q in queries:
        side.timed_search(index, q)
    side.found += sum(found)
    side.facts += len(facts)
    return found


def server_url() -> tuple[str, Callable[[], None]]:
    url = os.environ.get("AUTODIDACT_DATABASE_URL")
    if url:
        return url, lambda: None
    from autodidact.testing.pgserver import missing_reason, start_server

    reason = missing_reason()
    if reason:
        raise SystemExit(f"no PostgreSQL server: {reason} (or set AUTODIDACT_DATABASE_URL)")
    server = start_server()
    return server.create_database("bench"), server.stop


def main() -> int:
    url, stop = server_url()
    os.environ.pop("AUTODIDACT_DATABASE_URL", None)  # the folders' own (SQLite) index for ingest
    cases = load_cases(CASES)
    by_corpus: dict[str, list[Fact]] = {}
    for case in cases:
        known = {f.question for f in by_corpus.setdefault(case.corpus, [])}
        by_corpus[case.corpus].extend(f for f in case.facts if f.question not in known)  # shared gold sets once
    sqlite, postgres = Side("SQLite FTS5"), Side("PostgreSQL")
    megabytes = 0.0
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for kind, facts in sorted(by_corpus.items()):
                corpus = write_corpus(kind, Path(tmp) / kind / "corpus")
                if corpus is None:
                    print(f"{kind}: corpus not installed, skipped")
                    continue
                root = Path(tmp) / kind / "folder"
                index_corpus(root, [corpus], name=kind)
                local = LocalIndex(root)
                texts = [text for _, text in local.store.iter_texts()]
                megabytes += sum(len(t.encode("utf-8")) for t in texts) / 1e6
                queries = phrases(texts, PHRASE_QUERIES)
                a = measure(sqlite, local, facts, queries)
                local.close()
                with PgIndex(root, url, f"bench-{kind}") as remote:
                    b = measure(postgres, remote, facts, queries)
                rows.append((kind, len(facts), sum(a), sum(b)))
                lost = [f.question for f, x, y in zip(facts, a, b, strict=True) if x and not y]
                gained = [f.question for f, x, y in zip(facts, a, b, strict=True) if y and not x]
                if lost or gained:
                    print(f"{kind}: found by SQLite only: {lost}; by PostgreSQL only: {gained}")
    finally:
        stop()
    if not sqlite.facts:
        print("no corpus available")
        return 1
    print(f"{'corpus':18}{'facts':>7}{'SQLite':>8}{'PostgreSQL':>12}")
    for kind, n, a_found, b_found in rows:
        print(f"{kind:18}{n:>7}{a_found:>8}{b_found:>12}")
    recall_a, recall_b = sqlite.found / sqlite.facts, postgres.found / postgres.facts
    p95_a, p95_b = pct(sqlite.latencies, 95), pct(postgres.latencies, 95)
    per_mb_a, per_mb_b = sqlite.build_seconds / megabytes, postgres.build_seconds / megabytes
    same = sum(a == b for a, b in zip(sqlite.answers, postgres.answers, strict=True))
    print(f"\n{megabytes:.1f} MB of text, {len(sqlite.latencies)} queries per backend, "
          f"{same} with the same top {TOP} on both")  # fmt: skip
    print(f"{'':22}{'SQLite FTS5':>14}{'PostgreSQL':>14}{'ratio':>8}")
    print(f"{'gold-fact recall@3':22}{recall_a:>14.3f}{recall_b:>14.3f}{recall_b / max(recall_a, 1e-9):>8.2f}")
    print(f"{'query p50 (ms)':22}{statistics.median(sqlite.latencies):>14.2f}"
          f"{statistics.median(postgres.latencies):>14.2f}")  # fmt: skip
    print(f"{'query p95 (ms)':22}{p95_a:>14.2f}{p95_b:>14.2f}{p95_b / p95_a:>8.2f}")
    print(f"{'build (s per MB)':22}{per_mb_a:>14.2f}{per_mb_b:>14.2f}{per_mb_b / per_mb_a:>8.2f}")
    results = [
        {"name": "team_recall_vs_sqlite", "value": round(recall_b / max(recall_a, 1e-9), 3), "target": ">= 1.0",
         "ok": recall_b >= recall_a},
        {"name": "team_query_p95_ms", "value": round(p95_b, 2), "target": f"< {TARGET_P95_MS:g}",
         "ok": p95_b < TARGET_P95_MS},
        {"name": "team_build_per_mb_vs_sqlite", "value": round(per_mb_b / per_mb_a, 2),
         "target": f"<= {TARGET_BUILD_RATIO:g}", "ok": per_mb_b / per_mb_a <= TARGET_BUILD_RATIO},
    ]  # fmt: skip
    for row in results:
        print("BENCH " + json.dumps(row))
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
