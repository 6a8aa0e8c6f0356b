"""Tavily search API (``POST /search``); key from ``TAVILY_API_KEY``, read at call time."""

from __future__ import annotations

from typing import Any

import httpx

from autodidact.config import secret
from autodidact.errors import ConfigError, SourceError
from autodidact.sources.search._client import client_for
from autodidact.sources.search.base import SearchHit, hits_from_rows
from autodidact.sources.search.http import RetryPolicy, request_json

KEY_VAR = "TAVILY_API_KEY"
DEFAULT_BASE = "https://api.tavily.com"


def require_key(var: str, provider: str) -> str:
    """The key from the environment, or a clear error naming the variable (never the value)."""
    key = secret(var)
    if not key:
        raise ConfigError(f"{provider}: {var} is not set", hint=f"export {var}=... or remove {provider} from providers")
    return key


class TavilyProvider:
    """Queries Tavily's REST API."""

    name = "tavily"

    def __init__(
        self,
        *,
        base_url: str = DEFAULT_BASE,
        client: httpx.AsyncClient | None = None,
        policy: RetryPolicy | None = None,
    ) -> None:
        require_key(KEY_VAR, self.name)
        self.base_url = base_url.rstrip("/")
        self.client = client
        self.policy = policy or RetryPolicy()

    async def search(self, query: str, n: int) -> list[SearchHit]:
        key = require_key(KEY_VAR, self.name)
        url = f"{self.base_url}/search"
        body = {"query": query, "max_results": max(1, min(n, 20)), "search_depth": "basic"}
        headers = {"Authorization": f"Bearer {key}"}
        async with client_for(self.client, "autodidact/0.1") as client:
            data: Any = await request_json(
                self.name, client, "POST", url, policy=self.policy, key_var=KEY_VAR, json=body, headers=headers
            )
        if not isinstance(data, dict) or "results" not in data:
            raise SourceError(f"{self.name}: malformed response from {url} (no 'results' list)")
        return hits_from_rows(self.name, data["results"], "url", "title", "content", n)
