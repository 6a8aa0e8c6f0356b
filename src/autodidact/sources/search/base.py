"""The search-provider interface and the hit every provider returns.

Why a tiny protocol: the research agent asks "which pages might answer this?" and does not care
who answers. Each provider turns its own API into :class:`SearchHit` objects; everything after
that (dedupe, fetch, snapshot) is shared.

**A snippet is never evidence.** It is the provider's summary of a page, unverifiable and
possibly stale or invented; it only helps choose which URLs to fetch. Claims quote the fetched,
snapshotted text (docs/contracts.md §3.2), never ``SearchHit.snippet``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol, runtime_checkable
from urllib.parse import urlsplit

import httpx

from autodidact.config import secret
from autodidact.errors import ConfigError, SourceError
from autodidact.jsontypes import JSONValue
from autodidact.sources.search.http import RetryPolicy

_TAGS = re.compile(r"<[^>]{0,200}>")


@dataclass(frozen=True)
class SearchHit:
    """One search result: where to look, not what is true (the snippet is never evidence)."""

    url: str
    title: str
    snippet: str
    provider: str

    def as_dict(self) -> dict[str, str]:
        return {"url": self.url, "title": self.title, "snippet": self.snippet, "provider": self.provider}


@runtime_checkable
class SearchProvider(Protocol):
    """Anything with a name that answers a query with at most ``n`` hits."""

    name: str

    async def search(self, query: str, n: int) -> list[SearchHit]: ...


def clean(text: object) -> str:
    """A one-line string without HTML tags (providers highlight with ``<strong>``)."""
    if not isinstance(text, str):
        return ""
    return " ".join(_TAGS.sub("", text).split())


def hits_from_rows(
    provider: str, rows: JSONValue, url_key: str, title_key: str, snippet_key: str, n: int
) -> list[SearchHit]:
    """Turn a provider's list of result objects into hits; a wrong shape is a clear error."""
    if not isinstance(rows, list):
        raise SourceError(f"{provider}: malformed response: results is {type(rows).__name__}, not a list")
    hits: list[SearchHit] = []
    for row in rows:
        if not isinstance(row, dict):
            raise SourceError(f"{provider}: malformed response: a result is {type(row).__name__}, not an object")
        url = row.get(url_key)
        if not isinstance(url, str) or urlsplit(url).scheme not in ("http", "https"):
            continue  # a result without a fetchable URL is useless, not fatal
        title = clean(row.get(title_key)) or url
        hits.append(SearchHit(url=url.strip(), title=title, snippet=clean(row.get(snippet_key)), provider=provider))
        if len(hits) >= n:
            break
    return hits


def require_key(var: str, provider: str) -> str:
    """The key from the environment, or a clear error naming the variable (never the value)."""
    key = secret(var)
    if not key:
        raise ConfigError(f"{provider}: {var} is not set", hint=f"export {var}=... or remove {provider} from providers")
    return key


class KeyedProvider:
    """Set-up shared by REST providers that need an API key.

    The key is checked at construction, so a missing key fails before any search, and read again
    for every call rather than stored on the object.
    """

    name: str
    key_var: str
    default_base: str

    def __init__(
        self,
        *,
        base_url: str | None = None,
        client: httpx.AsyncClient | None = None,
        policy: RetryPolicy | None = None,
    ) -> None:
        require_key(self.key_var, self.name)
        self.base_url = (base_url or self.default_base).rstrip("/")
        self.client = client
        self.policy = policy or RetryPolicy()
