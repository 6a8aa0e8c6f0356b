"""DuckDuckGo through the optional ``ddgs`` package (``pip install 'autodidact[ddg]'``).

ddgs scrapes; it breaks when the site changes. It is imported lazily (only when this provider is
used) and any exception it raises becomes a :class:`SourceError` naming the provider.
"""

from __future__ import annotations

import asyncio
import importlib
from typing import Any

from autodidact.errors import ConfigError, SourceError
from autodidact.sources.search.base import SearchHit, hits_from_rows


def _load_ddgs() -> Any:  # the optional ddgs package ships no type information
    try:
        module = importlib.import_module("ddgs")
    except ImportError:
        raise ConfigError(
            "duckduckgo: the optional 'ddgs' package is not installed",
            hint="pip install 'autodidact[ddg]', or remove duckduckgo from search.providers",
        ) from None
    return module.DDGS


class DuckDuckGoProvider:
    """Keyless DuckDuckGo search (best effort)."""

    name = "duckduckgo"

    def __init__(self) -> None:
        self._ddgs = _load_ddgs()

    async def search(self, query: str, n: int) -> list[SearchHit]:
        def run() -> Any:  # ddgs's rows, untyped (read by hits_from_rows)
            return self._ddgs().text(query, max_results=n)

        try:
            rows = await asyncio.to_thread(run)
        except Exception as exc:  # ddgs raises its own tree (rate limits, timeouts, parse errors)
            raise SourceError(
                f"duckduckgo: {type(exc).__name__}: {exc}", hint="ddgs scrapes; try again later"
            ) from None
        return hits_from_rows(self.name, list(rows or []), "href", "title", "body", n)
