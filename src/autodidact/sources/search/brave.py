"""Brave Search API (``GET /res/v1/web/search``); key from ``BRAVE_API_KEY``, read at call time."""

from __future__ import annotations

from autodidact.errors import SourceError
from autodidact.jsontypes import JSONValue
from autodidact.sources.search._client import client_for
from autodidact.sources.search.base import KeyedProvider, SearchHit, hits_from_rows, require_key
from autodidact.sources.search.http import request_json

KEY_VAR = "BRAVE_API_KEY"
DEFAULT_BASE = "https://api.search.brave.com"


class BraveProvider(KeyedProvider):
    """Queries Brave's web search REST API."""

    name = "brave"
    key_var = KEY_VAR
    default_base = DEFAULT_BASE

    async def search(self, query: str, n: int) -> list[SearchHit]:
        key = require_key(self.key_var, self.name)
        url = f"{self.base_url}/res/v1/web/search"
        params = {"q": query, "count": str(max(1, min(n, 20)))}
        headers = {"X-Subscription-Token": key, "Accept": "application/json"}
        async with client_for(self.client, "autodidact/0.1") as client:
            data: JSONValue = await request_json(
                self.name, client, "GET", url, policy=self.policy, key_var=KEY_VAR, params=params, headers=headers
            )
        if not isinstance(data, dict):
            raise SourceError(f"{self.name}: malformed response from {url} (not an object)")
        web = data.get("web")
        if web is None:
            return []  # Brave omits "web" when nothing matched
        if not isinstance(web, dict) or "results" not in web:
            raise SourceError(f"{self.name}: malformed response from {url} (no web.results list)")
        return hits_from_rows(self.name, web["results"], "url", "title", "description", n)
