"""Run the wiki's async entry points from synchronous code, inside or outside an event loop.

Why: ``compile_wiki`` / ``check_wiki`` are called by the CLI (no loop running) and may be called by
an orchestrator that is itself async; ``asyncio.run`` fails inside a running loop, so there the
coroutine runs on a worker thread with its own loop instead.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Coroutine
from typing import TypeVar

T = TypeVar("T")


def run_blocking(factory: Callable[[], Coroutine[object, None, T]]) -> T:
    """Run the coroutine made by ``factory`` to completion and return its result."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(factory())
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(factory())).result()
