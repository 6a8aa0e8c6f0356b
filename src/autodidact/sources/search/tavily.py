"""Tavily search API (``POST /search``); key from ``TAVILY_API_KEY``, read at call time."""

from __future__ import annotations

from autodidact.errors import SourceError
from autodidact.jsontypes import JSONValue
from autodidact.sources.search._client import client_for
from autodidact.sources.search.base import KeyedProvider, SearchHit, hits_from_rows, require_key
from autodidact.sources.search.http import request_json

KEY_VAR = "TAVILY_API_KEY"
DEFAULT_BASE = "https://api.tavily.com"


class TavilyProvider(KeyedProvider):
    """Queries Tavily's REST API."""

    name = "tavily"
    key_var = KEY_VAR
    default_base = DEFAULT_BASE

    async def search(self, query: str, n: int) -> list[SearchHit]:
        key = require_key(self.key_var, self.name)
        url = f"{self.base_url}/search"
        body = {"query": query, "max_results": max(1, min(n, 20)), "search_depth": "basic"}
        headers = {"Authorization": f"Bearer {key}"}
        async with client_for(self.client, "autodidact/0.1") as client:
            data: JSONValue = await request_json(
                self.name, client, "POST", url, policy=self.policy, key_var=KEY_VAR, json=body, headers=headers
            )
        if not isinstance(data, dict) or "results" not in data:
            raise SourceError(f"{self.name}: malformed response from {url} (no 'results' list)")
        return hits_from_rows(self.name, data["results"], "url", "title", "content", n)
