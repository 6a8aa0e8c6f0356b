"""HTTP for search APIs: bounded retries with backoff on 429/5xx, clear errors.

Why not the fetch guard: a search API is a host the user configured (a SearXNG instance, Tavily,
Brave), not a URL from an untrusted page, and a self-hosted SearXNG often lives on localhost.
So providers use plain httpx — but every failure still becomes one clear :class:`SourceError`
naming the provider, and a malformed body never reaches the caller.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx

from autodidact.errors import ConfigError, SourceError
from autodidact.jsontypes import JSONValue

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


@dataclass(frozen=True)
class RetryPolicy:
    """At most ``attempts`` tries; waits ``base_delay * 2**i`` or Retry-After, capped at ``max_delay``."""

    attempts: int = 3
    base_delay: float = 0.5
    max_delay: float = 10.0
    timeout: float = 20.0


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after", "").strip()
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None


async def request_json(
    provider: str,
    client: httpx.AsyncClient,
    method: str,
    url: str,
    *,
    policy: RetryPolicy,
    key_var: str | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    **kwargs: Any,  # httpx's request options, passed through
) -> JSONValue:
    """Send with bounded retries; return the parsed JSON body or raise a clear error."""
    last = ""
    for attempt in range(policy.attempts):
        wait = min(policy.max_delay, policy.base_delay * 2**attempt)
        try:
            response = await client.request(method, url, timeout=policy.timeout, **kwargs)
        except httpx.HTTPError as exc:
            last = f"{type(exc).__name__}: {exc}"
        else:
            if response.status_code in (401, 403) and key_var:
                raise ConfigError(
                    f"{provider}: the server refused the key (HTTP {response.status_code})",
                    hint=f"check the {key_var} environment variable",
                )
            if response.status_code in RETRY_STATUSES:
                last = f"HTTP {response.status_code}"
                after = _retry_after(response)
                if after is not None:
                    wait = min(policy.max_delay, after)
            elif response.status_code >= 400:
                raise SourceError(f"{provider}: HTTP {response.status_code} from {url}")
            else:
                try:
                    body: JSONValue = response.json()
                    return body
                except ValueError:
                    raise SourceError(f"{provider}: malformed response from {url} (not JSON)") from None
        if attempt + 1 < policy.attempts:
            await sleep(wait)
    raise SourceError(f"{provider}: giving up after {policy.attempts} attempts ({last})", hint="try again later")
