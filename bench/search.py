"""Local search at scale: build time and query latency over 100k passages of real text.

Passages come from Python's own documentation (``pydoc_data.topics``): documents are assembled
from randomly chosen real paragraphs (seeded, so every run indexes the same text) until the
index holds ~100k passages. Queries are 2–3 word phrases taken from the same text plus a few
known ones. The same passages and queries run through ``bm25s``, the reference BM25 library, in a
separate process, and the figures are printed side by side. Targets: query p95 < 50 ms, and query
p95 no slower than bm25s's (<= 1.0). The build time is printed beside bm25s's in-memory build, with
no target here (the index build's reference is a bare FTS5 build).

bm25s is a bench dependency (``pip install -e '.[bench]'``; ``make bench`` installs it), or
``BM25S_PYTHON`` names another interpreter that has it. Without it the comparison row fails.
Usage: ``.venv/bin/python bench/search.py [PASSAGES]`` (default 100000).
"""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from autodidact.sources.passage_index import LocalIndex
from autodidact.sources.passages import chunk_spans
from autodidact.sources.snapshots import Snapshot, local_url, normalize_url
from autodidact.store.hashing import sha256_text

KNOWN = ["yield expression", "context manager with statement", "augmented assignment", "string methods split"]


def paragraphs() -> list[str]:
    from pydoc_data.topics import topics

    out = []
    for key in sorted(topics):
        out += [p.strip() for p in re.split(r"\n\s*\n", topics[key]) if len(p.strip()) > 80]
    return out


def documents(target_passages: int, seed: int = 7) -> list[tuple[Snapshot, str]]:
    rng = random.Random(seed)
    pool = paragraphs()
    docs: list[tuple[Snapshot, str]] = []
    count = 0
    while count < target_passages:
        text = "\n\n".join(rng.choice(pool) for _ in range(rng.randint(6, 14)))
        url = local_url("corpus/bench", f"doc{len(docs)}.md")
        norm = normalize_url(url)
        uhash, chash = sha256_text(norm), sha256_text(text)
        docs.append((Snapshot(f"source_cache/{uhash}/{chash}.md", uhash, chash, norm), text))
        count += len(chunk_spans(text))
    return docs


def queries(n: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    words = [w for p in paragraphs() for w in re.findall(r"[A-Za-z_]{4,}", p)]
    out = list(KNOWN)
    while len(out) < n:
        i = rng.randrange(len(words) - 3)
        out.append(" ".join(words[i : i + rng.randint(2, 3)]))
    return out


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


_BM25S_SCRIPT = r"""
import json, sys, time
import bm25s
data = json.load(open(sys.argv[1]))
t0 = time.perf_counter()
tokens = bm25s.tokenize(data["passages"], stopwords="en", show_progress=False)
retriever = bm25s.BM25()
retriever.index(tokens, show_progress=False)
build = time.perf_counter() - t0
lat = []
for q in data["queries"]:
    t = time.perf_counter()
    retriever.retrieve(bm25s.tokenize([q], stopwords="en", show_progress=False), k=10, show_progress=False)
    lat.append((time.perf_counter() - t) * 1000)
print(json.dumps({"build": build, "latencies": lat}))
"""


def run_bm25s(passages: list[str], qs: list[str]) -> dict[str, object] | None:
    python = os.environ.get("BM25S_PYTHON")
    if not python:
        try:
            import bm25s  # noqa: F401
        except ImportError:
            return None
        python = sys.executable
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump({"passages": passages, "queries": qs}, fh)
    try:
        proc = subprocess.run([python, "-c", _BM25S_SCRIPT, fh.name], capture_output=True, text=True, check=False)
    finally:
        os.unlink(fh.name)
    if proc.returncode != 0:
        print(f"bm25s failed: {proc.stderr.strip().splitlines()[-1:]}")
        return None
    result: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main(target: int) -> None:
    docs = documents(target)
    qs = queries(200)
    with tempfile.TemporaryDirectory() as tmp:
        index = LocalIndex(Path(tmp))
        t0 = time.perf_counter()
        for i in range(0, len(docs), 500):  # batches: one transaction each
            index.add_documents([(snap, text, "", "corpus", None) for snap, text in docs[i : i + 500]], record=False)
        build = time.perf_counter() - t0
        stats = index.stats()
        for q in qs[:10]:  # warm the page cache
            index.search(q, 10)
        latencies = []
        for q in qs:
            t = time.perf_counter()
            index.search(q, 10)
            latencies.append((time.perf_counter() - t) * 1000)
        top = index.search("yield expression", 1)
        passages_text = [t for _, t in docs]
        index.close()
    p50, p95 = statistics.median(latencies), pct(latencies, 95)
    print(f"indexed {stats['documents']} documents / {stats['passages']} passages in {build:.1f}s")
    print(f"{len(qs)} queries: p50 {p50:.2f} ms, p95 {p95:.2f} ms, max {max(latencies):.1f} ms")
    print(f"top hit for 'yield expression': {top[0].text[:70]!r}" if top else "no hit for 'yield expression'")
    print("BENCH " + json.dumps({"name": "search_p95_ms_100k", "value": round(p95, 2), "target": "< 50",
                                 "ok": p95 < 50}))  # fmt: skip
    # bm25s gets the same passages (each chunk as one passage) and the same queries
    chunks = [t[s:e] for t in passages_text for s, e in chunk_spans(t)]
    other = run_bm25s(chunks, qs)
    if other is None:
        print("bm25s unavailable: it is a bench dependency (pip install -e '.[bench]', or set BM25S_PYTHON)")
        print("BENCH " + json.dumps({"name": "search_p95_vs_bm25s", "value": None, "target": "<= 1.0",
                                     "ok": False}))  # fmt: skip
        return
    lat = [float(x) for x in other["latencies"]]  # type: ignore[union-attr]
    b50, b95, bbuild = statistics.median(lat), pct(lat, 95), float(other["build"])  # type: ignore[arg-type]
    print(f"{'':18}{'autodidact FTS5':>18}{'bm25s':>12}")
    print(f"{'build (s)':18}{build:>18.1f}{bbuild:>12.1f}")
    print(f"{'query p50 (ms)':18}{p50:>18.2f}{b50:>12.2f}")
    print(f"{'query p95 (ms)':18}{p95:>18.2f}{b95:>12.2f}")
    print(f"build: x{build / bbuild:.2f} bm25s's in-memory build (indexed on disk, one transaction per 500)")
    ratio = p95 / b95
    print("BENCH " + json.dumps({"name": "search_p95_vs_bm25s", "value": round(ratio, 3), "target": "<= 1.0",
                                 "ok": ratio <= 1.0}))  # fmt: skip


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
