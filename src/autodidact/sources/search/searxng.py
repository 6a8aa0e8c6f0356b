"""SearXNG: a self-hosted metasearch engine with a JSON API (``/search?q=…&format=json``).

The instance must have ``json`` among its ``search.formats`` (settings.yml); a 403 usually means
it does not.
"""

from __future__ import annotations

import httpx

from autodidact.errors import ConfigError, SourceError
from autodidact.jsontypes import JSONValue
from autodidact.sources.search._client import client_for
from autodidact.sources.search.base import SearchHit, hits_from_rows
from autodidact.sources.search.http import RetryPolicy, request_json

USER_AGENT = "autodidact/0.1 (research bot)"


class SearxngProvider:
    """Queries one SearXNG instance."""

    name = "searxng"

    def __init__(self, base_url: str, *, client: httpx.AsyncClient | None = None, policy: RetryPolicy | None = None):
        if not base_url or not base_url.startswith(("http://", "https://")):
            raise ConfigError(
                f"searxng: search.searxng_url {base_url!r} is not an http(s) URL",
                hint="set AUTODIDACT_SEARXNG_URL or search.searxng_url, e.g. http://127.0.0.1:8888",
            )
        self.base_url = base_url.rstrip("/")
        self.client = client
        self.policy = policy or RetryPolicy()

    async def search(self, query: str, n: int) -> list[SearchHit]:
        url = f"{self.base_url}/search"
        params = {"q": query, "format": "json", "pageno": "1"}
        async with client_for(self.client, USER_AGENT) as client:
            try:
                data: JSONValue = await request_json(self.name, client, "GET", url, policy=self.policy, params=params)
            except SourceError as exc:
                if "HTTP 403" in exc.message:
                    raise SourceError(exc.message, hint="enable the json format in SearXNG's settings.yml") from None
                raise
        if not isinstance(data, dict) or "results" not in data:
            raise SourceError(f"{self.name}: malformed response from {url} (no 'results' list)")
        return hits_from_rows(self.name, data["results"], "url", "title", "content", n)
