"""Search providers: SearXNG against a loopback fake, Tavily/Brave parsers on stored bodies."""

from __future__ import annotations

import json
import sys
import types
from typing import Any

import httpx
import pytest

from autodidact.config import SearchSettings
from autodidact.errors import ConfigError, SourceError
from autodidact.sources.search.base import SearchHit, SearchProvider
from autodidact.sources.search.brave import BraveProvider
from autodidact.sources.search.http import RetryPolicy
from autodidact.sources.search.registry import PROVIDERS, build_providers, search_all
from autodidact.sources.search.searxng import SearxngProvider
from autodidact.sources.search.tavily import TavilyProvider
from autodidact.testing.fake_searxng import FakeSearxng

from .conftest import run

FAST = RetryPolicy(attempts=3, base_delay=0.0, timeout=5.0)
ROWS = [
    {"url": "http://127.0.0.1:1/en.html", "title": "Python <b>generators</b>", "content": "Lazy   iterators."},
    {"url": "javascript:alert(1)", "title": "not fetchable", "content": "skipped"},
    {"url": "https://example.org/zh", "title": "生成器", "content": "惰性求值"},
    {"url": "https://example.org/3", "title": "", "content": ""},
]

TAVILY_BODY = {
    "query": "python generators",
    "answer": None,
    "results": [
        {
            "title": "Generators - Python Wiki",
            "url": "https://wiki.python.org/moin/Generators",
            "content": "Generator functions allow you to declare a function that behaves like an iterator.",
            "score": 0.98,
        },
        {
            "title": "PEP 255",
            "url": "https://peps.python.org/pep-0255/",
            "content": "Simple generators.",
            "score": 0.91,
        },
    ],
    "response_time": 1.02,
}
BRAVE_BODY = {
    "type": "search",
    "query": {"original": "python generators"},
    "web": {
        "type": "search",
        "results": [
            {
                "title": "How to Use <strong>Generators</strong>",
                "url": "https://realpython.com/introduction-to-python-generators/",
                "description": "Learn about <strong>generators</strong> and yield.",
                "language": "en",
            },
            {"title": "PEP 255", "url": "https://peps.python.org/pep-0255/", "description": "Simple generators."},
        ],
    },
}


def test_searxng_against_the_fake() -> None:
    with FakeSearxng({"python generators": ROWS}) as fake:
        hits = run(SearxngProvider(fake.base_url, policy=FAST).search("python generators", 5))
    assert [h.url for h in hits] == ["http://127.0.0.1:1/en.html", "https://example.org/zh", "https://example.org/3"]
    assert hits[0] == SearchHit("http://127.0.0.1:1/en.html", "Python generators", "Lazy iterators.", "searxng")
    assert hits[2].title == "https://example.org/3"  # no title: the URL stands in
    assert fake.queries == ["python generators"]


def test_searxng_chinese_query_and_limit() -> None:
    with FakeSearxng(lambda q: [{"url": f"https://e.org/{i}", "title": q, "content": ""} for i in range(9)]) as fake:
        hits = run(SearxngProvider(fake.base_url, policy=FAST).search("生成器 惰性", 3))
    assert len(hits) == 3 and hits[0].title == "生成器 惰性"
    assert fake.queries == ["生成器 惰性"]


def test_429_then_503_then_200_is_retried() -> None:
    with FakeSearxng({"q": ROWS}, failures=[429, 503]) as fake:
        hits = run(SearxngProvider(fake.base_url, policy=FAST).search("q", 5))
    assert len(hits) == 3
    assert fake.queries == ["q", "q", "q"]


def test_retries_are_bounded() -> None:
    with (
        FakeSearxng({"q": ROWS}, failures=[503, 503, 503, 503]) as fake,
        pytest.raises(SourceError, match=r"searxng: giving up after 3 attempts \(HTTP 503\)"),
    ):
        run(SearxngProvider(fake.base_url, policy=FAST).search("q", 5))
    assert len(fake.queries) == 3


@pytest.mark.parametrize("mode", ["not-json", "no-results", "bad-shape"])
def test_malformed_searxng_answers_are_clear_errors(mode: str) -> None:
    with (
        FakeSearxng({"q": ROWS}, malformed=mode) as fake,
        pytest.raises(SourceError, match=r"^searxng: malformed response"),
    ):
        run(SearxngProvider(fake.base_url, policy=FAST).search("q", 5))


def test_unreachable_searxng_is_a_clear_error() -> None:
    with FakeSearxng() as fake:
        url = fake.base_url
    with pytest.raises(SourceError, match="searxng: giving up after 3 attempts"):
        run(SearxngProvider(url, policy=FAST).search("q", 5))


def _mock(body: Any, seen: list[httpx.Request], status: int = 200) -> httpx.AsyncClient:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        text = body if isinstance(body, str) else json.dumps(body)
        return httpx.Response(status, content=text.encode(), headers={"content-type": "application/json"})

    return httpx.AsyncClient(transport=httpx.MockTransport(handler))


def test_tavily_parses_a_stored_body_and_sends_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-test-123")
    seen: list[httpx.Request] = []
    hits = run(TavilyProvider(client=_mock(TAVILY_BODY, seen), policy=FAST).search("python generators", 5))
    assert [h.url for h in hits] == ["https://wiki.python.org/moin/Generators", "https://peps.python.org/pep-0255/"]
    assert hits[0].provider == "tavily" and hits[0].snippet.startswith("Generator functions allow")
    assert seen[0].method == "POST" and seen[0].headers["authorization"] == "Bearer tvly-test-123"
    assert json.loads(seen[0].content)["query"] == "python generators"


def test_brave_parses_a_stored_body_and_strips_highlight_tags(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", "brave-test-456")
    seen: list[httpx.Request] = []
    hits = run(BraveProvider(client=_mock(BRAVE_BODY, seen), policy=FAST).search("python generators", 1))
    assert hits == [
        SearchHit(
            "https://realpython.com/introduction-to-python-generators/",
            "How to Use Generators",
            "Learn about generators and yield.",
            "brave",
        )
    ]
    assert seen[0].headers["x-subscription-token"] == "brave-test-456"
    assert seen[0].url.params["q"] == "python generators"


def test_brave_without_web_section_means_no_hits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", "k")
    assert run(BraveProvider(client=_mock({"type": "search"}, []), policy=FAST).search("q", 5)) == []
    with pytest.raises(SourceError, match="brave: malformed response"):
        run(BraveProvider(client=_mock({"web": {"results": "x"}}, []), policy=FAST).search("q", 5))
    with pytest.raises(SourceError, match="brave: malformed response"):
        run(BraveProvider(client=_mock("<html>", []), policy=FAST).search("q", 5))


@pytest.mark.parametrize("cls,var", [(TavilyProvider, "TAVILY_API_KEY"), (BraveProvider, "BRAVE_API_KEY")])
def test_missing_or_refused_keys_name_the_variable_never_the_value(
    monkeypatch: pytest.MonkeyPatch, cls: type, var: str
) -> None:
    with pytest.raises(ConfigError, match=f"{var} is not set"):
        cls()
    monkeypatch.setenv(var, "sekrit-value-789")
    with pytest.raises(ConfigError) as info:
        run(cls(client=_mock({"error": "bad key"}, [], status=401), policy=FAST).search("q", 5))
    assert var in (info.value.hint or "") and "sekrit-value-789" not in info.value.message


def test_duckduckgo_without_ddgs_is_a_clear_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ddgs", None)  # as if not installed
    with pytest.raises(ConfigError, match="ddgs"):
        build_providers(SearchSettings(providers=["duckduckgo"]))


def test_duckduckgo_adapter_maps_rows_and_wraps_library_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    class FakeDDGS:  # stands in for the third-party scraper, not for our adapter
        def text(self, query: str, max_results: int) -> list[dict[str, str]]:
            if query == "boom":
                raise RuntimeError("202 Ratelimit")
            return [{"href": "https://example.org/a", "title": "A", "body": "about " + query}] * max_results

    module = types.ModuleType("ddgs")
    module.DDGS = FakeDDGS  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ddgs", module)
    provider = build_providers(SearchSettings(providers=["duckduckgo"]))[0]
    hits = run(provider.search("generators", 2))
    assert [h.snippet for h in hits] == ["about generators", "about generators"]
    with pytest.raises(SourceError, match="duckduckgo: RuntimeError: 202 Ratelimit"):
        run(provider.search("boom", 2))


def test_registry_names_and_errors() -> None:
    assert set(PROVIDERS) == {"searxng", "tavily", "brave", "duckduckgo"}
    assert build_providers(SearchSettings()) == []
    with pytest.raises(ConfigError, match="unknown search provider 'bing'"):
        build_providers(SearchSettings(providers=["bing"]))
    with pytest.raises(ConfigError, match="searxng_url is not set"):
        build_providers(SearchSettings(providers=["searxng"]))
    providers = build_providers(SearchSettings(providers=["SearXNG"], searxng_url="http://127.0.0.1:9"))
    assert isinstance(providers[0], SearchProvider) and providers[0].name == "searxng"


class _Broken:
    name = "broken"

    async def search(self, query: str, n: int) -> list[SearchHit]:
        raise SourceError("broken: HTTP 500")


def test_search_all_dedupes_and_records_a_failing_provider() -> None:
    with (
        FakeSearxng({"q": ROWS}) as one,
        FakeSearxng({"q": [*ROWS[2:], {"url": "https://b.org/", "title": "B"}]}) as two,
    ):
        providers = [_Broken(), SearxngProvider(one.base_url, policy=FAST), SearxngProvider(two.base_url, policy=FAST)]
        outcome = run(search_all(providers, "q", 10))
    assert [h.url for h in outcome.hits] == [
        "http://127.0.0.1:1/en.html",
        "https://example.org/zh",
        "https://example.org/3",
        "https://b.org/",
    ]
    assert outcome.errors == ["broken: HTTP 500"]
    with pytest.raises(SourceError, match="broken"):
        run(search_all([_Broken()], "q", 3))


def test_empty_results_are_no_hits() -> None:
    with FakeSearxng({}) as fake:
        assert run(SearxngProvider(fake.base_url, policy=FAST).search("nothing matches", 5)) == []


def test_retry_after_is_honoured_and_capped() -> None:
    from autodidact.sources.search.http import request_json

    answers = iter([(429, {"retry-after": "7"}), (503, {"retry-after": "100"}), (200, {})])
    waits: list[float] = []

    def handler(request: httpx.Request) -> httpx.Response:
        status, headers = next(answers)
        return httpx.Response(status, headers=headers, json={"results": []})

    async def fake_sleep(seconds: float) -> None:
        waits.append(seconds)

    async def go() -> Any:
        async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
            policy = RetryPolicy(attempts=3, base_delay=0.5, max_delay=10.0)
            return await request_json("searxng", client, "GET", "http://s/search", policy=policy, sleep=fake_sleep)

    assert run(go()) == {"results": []}
    assert waits == [7.0, 10.0]
