"""Cost of the fetch guard: guarded fetches vs plain httpx GETs of the same loopback pages.

Both sides fetch the same page N times with the same concurrency from FakeWeb on 127.0.0.1. The
guarded side also parses and checks the host, pins the address, sniffs the type and streams under
the byte cap; robots.txt is fetched once and cached. The ratio (guarded time / plain time) shows
what that safety costs on the fastest possible network, where it is most visible.
"""

from __future__ import annotations

import asyncio
import json
import time

import httpx

from autodidact.config import FetchSettings
from autodidact.sources.fetch import Fetcher
from autodidact.testing.fakeweb import FakeWeb

N = 400
CONCURRENCY = 8


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
        asyncio.run(plain(url))  # warm up
        plain_s = min(asyncio.run(plain(url)) for _ in range(3))
        guarded_s = min(asyncio.run(guarded(url, web.allow_entry)) for _ in range(3))
    ratio = guarded_s / plain_s
    print(f"{N} fetches, concurrency {CONCURRENCY}: plain httpx {plain_s:.3f} s, guarded {guarded_s:.3f} s")
    result = {"name": "fetch_guard_overhead", "value": round(ratio, 3), "target": "<= 1.5", "ok": ratio <= 1.5}
    print("BENCH " + json.dumps(result))


if __name__ == "__main__":
    main()
