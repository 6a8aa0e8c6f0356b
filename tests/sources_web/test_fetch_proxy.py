"""Fetching honours the standard proxy variables (issue 19 item 5), and a setting turns that off.

A real forward proxy on 127.0.0.1 (``http.server`` answering absolute-form requests) stands in for
a corporate proxy; the "public" host resolves through the injected resolver, so nothing leaves the
machine. Loopback servers allowed on purpose are never sent to the proxy.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from autodidact.config import FetchSettings, load_settings
from autodidact.errors import SourceError
from autodidact.sources.fetch import Fetcher
from autodidact.sources.proxies import proxy_for

PUBLIC = "93.184.215.14"  # a global address: the guard lets it through; nothing connects to it


class _Proxy(BaseHTTPRequestHandler):
    seen: list[str] = []

    def do_GET(self) -> None:
        type(self).seen.append(self.path)  # absolute form: http://host/path
        if self.path.endswith("/robots.txt"):
            self.send_response(404)
            self.end_headers()
            return
        body = b"<html><head><title>Pinning</title></head><body><p>Pin-Priority 500 is the default.</p></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def proxy() -> Iterator[str]:
    _Proxy.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Proxy)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


async def _public(host: str, port: int) -> list[str]:
    return [PUBLIC]


def _fetch(url: str, settings: FetchSettings) -> bytes:
    async def run() -> bytes:
        async with Fetcher(settings, resolver=_public) as fetcher:
            return (await fetcher.fetch(url)).content

    return asyncio.run(run())


def test_a_public_page_is_fetched_through_the_environment_proxy(proxy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTP_PROXY", proxy)
    content = _fetch("http://docs.example/apt/pinning", FetchSettings())
    assert b"Pin-Priority 500" in content
    assert "http://docs.example/apt/pinning" in _Proxy.seen  # the proxy was asked for the page by name


def test_no_proxy_and_the_setting_keep_the_proxy_out(proxy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", proxy)
    monkeypatch.setenv("NO_PROXY", "localhost,.internal.example,10.0.0.0/8")
    assert proxy_for("https", "docs.example") == proxy
    assert proxy_for("https", "wiki.internal.example") is None and proxy_for("https", "internal.example") is None
    assert proxy_for("https", "10.1.2.3") is None
    assert proxy_for("http", "docs.example") is None  # HTTPS_PROXY is for https only
    monkeypatch.setenv("ALL_PROXY", "proxy.example:3128")
    assert proxy_for("http", "docs.example") == "http://proxy.example:3128"
    monkeypatch.setenv("https_proxy", "socks5://127.0.0.1:1080")
    with pytest.raises(SourceError, match="socks5 proxy"):
        proxy_for("https", "docs.example")
    monkeypatch.setenv("NO_PROXY", "*")
    assert proxy_for("https", "docs.example") is None
    monkeypatch.setenv("AUTODIDACT_PROXY_FROM_ENV", "0")
    settings = load_settings(None)
    assert settings.fetch.proxy_from_env is False and settings.llm.proxy_from_env is False


@pytest.mark.filterwarnings("ignore:A test tried to use socket")
def test_with_the_setting_off_the_proxy_is_never_asked(proxy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTP_PROXY", proxy)
    # connecting directly to the public address is what the setting asks for; pytest-socket stops it here
    with pytest.raises((SourceError, RuntimeError, ExceptionGroup)):
        _fetch("http://docs.example/apt/pinning", FetchSettings(proxy_from_env=False, deadline=5.0))
    assert _Proxy.seen == []


def test_an_allowed_loopback_server_is_reached_directly_even_with_a_proxy_set(
    proxy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = ThreadingHTTPServer(("127.0.0.1", 0), _Proxy)  # serves the same page to a direct request
    threading.Thread(target=target.serve_forever, daemon=True).start()
    port = target.server_address[1]
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # nothing listens there: using it would fail
    try:

        async def run() -> bytes:
            settings = FetchSettings(allow_private=[f"127.0.0.1:{port}"])
            async with Fetcher(settings) as fetcher:
                return (await fetcher.fetch(f"http://127.0.0.1:{port}/page")).content

        assert b"Pin-Priority 500" in asyncio.run(run())
        assert "/page" in _Proxy.seen  # origin form: it came straight to the server, not via a proxy
    finally:
        target.shutdown()
        target.server_close()
