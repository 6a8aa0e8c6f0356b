"""DNS answers are checked once per hop and the connection goes to the checked address.

The resolver is injected (it plays a rebinding DNS server: public first, loopback afterwards) and
the transport is httpx's MockTransport standing in for the network, so the test sees exactly
which address every request was sent to.
"""

from __future__ import annotations

import httpx
import pytest

from autodidact.config import FetchSettings
from autodidact.errors import BlockedError, SourceError
from autodidact.sources.fetch import Fetcher

from .conftest import run

PUBLIC = "93.184.216.34"


class RebindingResolver:
    """First answer public, every later answer loopback."""

    def __init__(self, answers: list[list[str]] | None = None) -> None:
        self.calls: list[tuple[str, int]] = []
        self.answers = answers

    async def __call__(self, host: str, port: int) -> list[str]:
        self.calls.append((host, port))
        if self.answers is not None:
            return self.answers[min(len(self.calls) - 1, len(self.answers) - 1)]
        return [PUBLIC] if len(self.calls) == 1 else ["127.0.0.1"]


def _fetch(url: str, resolver: RebindingResolver, handler, **settings: object):  # type: ignore[no-untyped-def]
    seen: list[httpx.Request] = []

    def record(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return handler(request)

    async def go():  # type: ignore[no-untyped-def]
        async with Fetcher(FetchSettings(**settings), resolver=resolver, transport=httpx.MockTransport(record)) as f:  # type: ignore[arg-type]
            return await f.fetch(url)

    return run(go()), seen


class _Body(httpx.AsyncByteStream):
    """A body streamed like a network response (``content=`` would arrive pre-read)."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    async def __aiter__(self):  # type: ignore[no-untyped-def]
        yield self.data


def _page(request: httpx.Request) -> httpx.Response:
    if request.url.path == "/robots.txt":
        return httpx.Response(404, stream=_Body(b""))
    return httpx.Response(200, headers={"content-type": "text/plain"}, stream=_Body(b"public text about generators"))


def test_connection_goes_to_the_checked_address_not_a_later_answer() -> None:
    resolver = RebindingResolver()
    result, seen = _fetch("http://rebind.example/page", resolver, _page)
    assert result.content == b"public text about generators"
    # robots.txt asked DNS again and got loopback: refused; the page went to the checked address.
    assert [r.url.host for r in seen] == [PUBLIC]
    assert seen[0].headers["host"] == "rebind.example"
    assert all(r.url.host != "127.0.0.1" for r in seen)


def test_without_robots_dns_is_asked_once_per_hop() -> None:
    resolver = RebindingResolver()
    _result, seen = _fetch("http://rebind.example:8080/page", resolver, _page, respect_robots=False)
    assert resolver.calls == [("rebind.example", 8080)]
    assert [(r.url.host, r.url.port, r.headers["host"]) for r in seen] == [(PUBLIC, 8080, "rebind.example:8080")]


def test_a_redirect_hop_that_now_resolves_private_is_refused() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/start":
            return httpx.Response(302, headers={"location": "http://rebind.example/next"})
        return _page(request)

    resolver = RebindingResolver()
    with pytest.raises(BlockedError, match=r"rebind\.example resolves to 127\.0\.0\.1"):
        _fetch("http://rebind.example/start", resolver, handler, respect_robots=False)


@pytest.mark.parametrize(
    "answer",
    [
        [PUBLIC, "127.0.0.1"],
        ["10.0.0.7"],
        ["::ffff:127.0.0.1"],
        ["fd00:ec2::254"],
        ["169.254.169.254"],
        ["100.64.1.1"],
        ["fe80::1%eth0"],
        [],
    ],
)
def test_any_bad_dns_answer_refuses_the_host(answer: list[str]) -> None:
    resolver = RebindingResolver([answer])
    with pytest.raises(BlockedError, match=r"^http://intranet\.example/"):
        _fetch("http://intranet.example/", resolver, _page, respect_robots=False)


def test_https_sends_sni_and_host_for_the_name_while_connecting_to_the_address() -> None:
    resolver = RebindingResolver([[PUBLIC]])
    _result, seen = _fetch("https://secure.example/doc", resolver, _page, respect_robots=False)
    request = seen[0]
    assert request.url.scheme == "https" and request.url.host == PUBLIC and request.url.port in (None, 443)
    assert request.extensions.get("sni_hostname") == "secure.example"
    assert request.headers["host"] == "secure.example"


def test_resolution_failure_is_a_clear_source_error() -> None:
    async def failing(host: str, port: int) -> list[str]:
        raise SourceError(f"cannot resolve host {host}: Name or service not known")

    async def go() -> None:
        async with Fetcher(FetchSettings(respect_robots=False), resolver=failing) as fetcher:
            await fetcher.fetch("http://nowhere.example/")

    with pytest.raises(SourceError, match=r"cannot resolve host nowhere\.example"):
        run(go())
