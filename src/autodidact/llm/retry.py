"""Bounded retries with exponential backoff, jitter and ``Retry-After``, around any model call.

Why here and not in the SDKs: the openai and anthropic clients are built with ``max_retries=0``,
so this one loop decides for every provider — the same bounds, the same honouring of the server's
``Retry-After`` (never sooner than asked), the same clear error at the end — and it is tested once
against loopback servers. Only :class:`~autodidact.llm.base.TransientModelError` (429, 5xx,
timeouts, dropped connections) is retried; auth, context-length and bad-request errors are not.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from autodidact.errors import ModelTimedOut, ModelUnavailable
from autodidact.llm.base import TransientModelError

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How hard to try: attempts in total, backoff bounds, and the per-attempt deadline."""

    max_attempts: int = 5
    base_delay: float = 0.5
    max_delay: float = 30.0
    jitter: float = 0.25
    attempt_timeout: float = 120.0
    max_retry_after: float = 300.0

    def backoff(self, attempt: int, rng: Callable[[], float] = random.random) -> float:
        """Delay after failed attempt ``attempt`` (1-based): base·2^(n-1), capped, plus jitter."""
        delay = min(self.max_delay, self.base_delay * (2.0 ** (attempt - 1)))
        return delay * (1.0 + self.jitter * rng())


RetryCallback = Callable[[int, float, TransientModelError], None]


async def call_with_retry(
    call: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    *,
    what: str,
    on_retry: RetryCallback | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> T:
    """Run ``call`` until it succeeds, a non-transient error is raised, or attempts run out.

    ``what`` names the call in the final error (e.g. ``"openai:gpt-4o-mini (task plan)"``).
    """
    last: TransientModelError | None = None
    timeouts = 0
    for attempt in range(1, max(1, policy.max_attempts) + 1):
        try:
            async with asyncio.timeout(policy.attempt_timeout):  # no extra task, unlike wait_for
                return await call()
        except TimeoutError:
            last = TransientModelError(f"no complete reply within {policy.attempt_timeout:g} s")
            timeouts += 1
        except TransientModelError as exc:
            last = exc
        if attempt >= policy.max_attempts:
            break
        delay = policy.backoff(attempt)
        if last.retry_after is not None:
            if last.retry_after > policy.max_retry_after:
                raise ModelUnavailable(
                    f"{what}: server asked to wait {last.retry_after:g} s before retrying ({last.message})",
                    hint="try again later, or lower the request rate with [llm] concurrency",
                )
            delay = max(delay, last.retry_after)
        if on_retry is not None:
            on_retry(attempt, delay, last)
        await sleep(delay)
    assert last is not None
    status = f" (HTTP {last.status})" if last.status else ""
    error = ModelTimedOut if timeouts == policy.max_attempts else ModelUnavailable
    raise error(
        f"{what}: failed after {policy.max_attempts} attempt(s){status}: {last.message}",
        hint="the model server is unavailable or overloaded; check it (autodidact doctor --check) and re-run "
        "— completed work is kept",
    )
