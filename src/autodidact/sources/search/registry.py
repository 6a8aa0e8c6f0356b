"""Every search provider name the program accepts, in one place, and how to build each.

``search.providers`` (or ``AUTODIDACT_SEARCH_PROVIDERS``) lists names from :data:`PROVIDERS`
in the order they are asked. :func:`search_all` asks each, keeps the first hit per URL and
records, rather than raises, a single provider's failure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import httpx

from autodidact.config import SearchSettings
from autodidact.errors import AutodidactError, ConfigError, SourceError
from autodidact.sources.search.base import SearchHit, SearchProvider


def _searxng(settings: SearchSettings, client: httpx.AsyncClient | None) -> SearchProvider:
    from autodidact.sources.search.searxng import SearxngProvider

    if not settings.searxng_url:
        raise ConfigError(
            "searxng is listed in search.providers but search.searxng_url is not set",
            hint="set AUTODIDACT_SEARXNG_URL (or search.searxng_url), e.g. http://127.0.0.1:8888",
        )
    return SearxngProvider(settings.searxng_url, client=client)


def _tavily(settings: SearchSettings, client: httpx.AsyncClient | None) -> SearchProvider:
    from autodidact.sources.search.tavily import TavilyProvider

    return TavilyProvider(client=client)


def _brave(settings: SearchSettings, client: httpx.AsyncClient | None) -> SearchProvider:
    from autodidact.sources.search.brave import BraveProvider

    return BraveProvider(client=client)


def _duckduckgo(settings: SearchSettings, client: httpx.AsyncClient | None) -> SearchProvider:
    from autodidact.sources.search.duckduckgo import DuckDuckGoProvider

    return DuckDuckGoProvider()


PROVIDERS: dict[str, Callable[[SearchSettings, httpx.AsyncClient | None], SearchProvider]] = {
    "searxng": _searxng,
    "tavily": _tavily,
    "brave": _brave,
    "duckduckgo": _duckduckgo,
}
"""Provider name → factory. The only list of provider names."""


def build_providers(settings: SearchSettings, *, client: httpx.AsyncClient | None = None) -> list[SearchProvider]:
    """The configured providers, in order; an unknown name or missing key is a clear error."""
    providers: list[SearchProvider] = []
    for raw in settings.providers:
        name = raw.strip().lower()
        factory = PROVIDERS.get(name)
        if factory is None:
            raise ConfigError(
                f"unknown search provider {raw!r} in search.providers",
                hint=f"known providers: {', '.join(PROVIDERS)}",
            )
        providers.append(factory(settings, client))
    return providers


@dataclass
class SearchOutcome:
    """Hits from every provider (first per URL wins) and one line per provider that failed."""

    hits: list[SearchHit] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


async def search_all(providers: Sequence[SearchProvider], query: str, n: int) -> SearchOutcome:
    """Ask every provider; a provider's failure is recorded; all failing raises the first error."""
    from autodidact.sources.snapshots import normalize_url

    outcome = SearchOutcome()
    seen: set[str] = set()
    first_error: AutodidactError | None = None
    for provider in providers:
        try:
            hits = await provider.search(query, n)
        except AutodidactError as exc:
            outcome.errors.append(exc.message)
            first_error = first_error or exc
            continue
        for hit in hits:
            try:
                key = normalize_url(hit.url)
            except AutodidactError:
                continue
            if key not in seen:
                seen.add(key)
                outcome.hits.append(hit)
    if providers and first_error is not None and len(outcome.errors) == len(providers):
        if isinstance(first_error, SourceError | ConfigError):
            raise first_error
        raise SourceError(first_error.message)
    return outcome
