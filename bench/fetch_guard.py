"""Cost of the fetch guard: guarded fetches vs plain httpx GETs of the same loopback pages.

Both sides fetch the same page N times with the same concurrency from FakeWeb on 127.0.0.1. The
guarded side also parses and checks the host, pins the address, sniffs the type and streams under
the byte cap; robots.txt is fetched once and cached. The ratio (guarded time / plain time) shows
what that safety costs on the fastest possible network, where it is most visible.

The two sides alternate, plain then guarded then guarded then plain, for ROUNDS rounds after one
untimed warm-up of each, so both see the same load from whatever else runs on the machine; the
figure is the median of the per-round ratios.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time

import httpx

from autodidact.config import FetchSettings
from autodidact.sources.fetch import Fetcher
from autodidact.testing.fakeweb import FakeWeb

N = 400
CONCURRENCY = 8
ROUNDS = 5


async def plain(url: str) -> float:
    semaphore = asyncio.Semaphore(CONCURRENCY)
    async with httpx.AsyncClient() as client:

        async def one() -> None:
            async with semaphore:
                response = await client.get(url)
                assert response.status_code == 200

        started = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(N)))
        return time.perf_counter() - started


async def guarded(url: str, allow: str) -> float:
    settings = FetchSettings(allow_private=[allow], per_host_concurrency=CONCURRENCY)
    async with Fetcher(settings) as fetcher:
        started = time.perf_counter()
        await asyncio.gather(*(fetcher.fetch(url) for _ in range(N)))
        return time.perf_counter() - started


def main() -> None:
    with FakeWeb() as web:
        url = web.url("/en.html")
        asyncio.run(plain(url))  # warm up both sides
        asyncio.run(guarded(url, web.allow_entry))
        plain_times: list[float] = []
        guarded_times: list[float] = []
        for round_no in range(ROUNDS):
            sides = ("plain", "guarded") if round_no % 2 == 0 else ("guarded", "plain")
            for side in sides:
                if side == "plain":
                    plain_times.append(asyncio.run(plain(url)))
                else:
                    guarded_times.append(asyncio.run(guarded(url, web.allow_entry)))
    ratios = [g / p for p, g in zip(plain_times, guarded_times, strict=True)]
    ratio = statistics.median(ratios)
    print(
        f"{N} fetches, concurrency {CONCURRENCY}, {ROUNDS} alternating rounds: plain httpx median "
        f"{statistics.median(plain_times):.3f} s, guarded median {statistics.median(guarded_times):.3f} s; "
        f"per-round ratios {', '.join(f'{r:.2f}' for r in ratios)}"
    )
    result = {"name": "fetch_guard_overhead", "value": round(ratio, 3), "target": "<= 1.5", "ok": ratio <= 1.5}
    print("BENCH " + json.dumps(result))


if __name__ == "__main__":
    main()
