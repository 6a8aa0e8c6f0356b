"""The guarded fetch: the only way this program reads a web page.

Why so strict: pages are untrusted, and so is any URL a page or a model suggests. Each hop of a
fetch parses the URL itself (http/https only), resolves the host once, checks *every* resolved
address against :mod:`autodidact.sources.netguard`, and then connects to the very address that
was checked — the request goes to ``scheme://<address>:<port>/path`` with the original ``Host``
header and TLS ``server_hostname`` (SNI) — so a DNS answer that changes between check and connect
(rebinding) is never used. Redirects are never followed by httpx; each hop is checked again, at
most ``max_redirects`` of them. The body is streamed under a byte cap that also bounds the
decompressed size, the whole fetch runs under a total deadline as well as per-read timeouts, the
content is sniffed over its declared type and only HTML/XHTML, PDF, plain text and markdown pass.
robots.txt is respected unless ``respect_robots`` is off; each host has a concurrency limit and a
politeness delay; every request names itself with ``FetchSettings.user_agent``.

Every refusal is a :class:`BlockedError` whose one-line message names the URL and the reason.
A ``Fetcher`` belongs to one event loop; close it with ``await fetcher.aclose()``.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

import httpx

from autodidact.config import FetchSettings
from autodidact.errors import BlockedError, SourceError
from autodidact.sources.netguard import (
    Host,
    IPAddress,
    check_addresses,
    name_block_reason,
    parse_allow_entries,
    parse_host,
)
from autodidact.sources.robots import ROBOTS_MAX_BYTES, RobotsCache
from autodidact.sources.sniff import SNIFF_BYTES, CappedDecoder, decide_type, parse_content_type
from autodidact.sources.webkb import domain_quality, fetch_to_kb

__all__ = ["Document", "FetchResult", "Fetcher", "Resolver", "domain_quality", "fetch_to_kb", "system_resolver"]

if TYPE_CHECKING:
    from autodidact.sources.extract import Extracted

Resolver = Callable[[str, int], Awaitable[list[str]]]
"""``(host, port) -> [address, ...]``; injectable so tests can play any DNS answer."""

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
ACCEPT = "text/html,application/xhtml+xml,application/pdf;q=0.9,text/markdown;q=0.9,text/plain;q=0.8,*/*;q=0.1"


async def system_resolver(host: str, port: int) -> list[str]:
    """getaddrinfo in a worker thread; every distinct address, in the resolver's order."""
    loop = asyncio.get_running_loop()
    try:
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise SourceError(f"cannot resolve host {host}: {reason}", hint="check the URL and your network") from None
    seen: list[str] = []
    for info in infos:
        address = str(info[4][0])
        if address not in seen:
            seen.append(address)
    return seen


@dataclass(frozen=True)
class FetchResult:
    """What one guarded fetch returned (after redirects)."""

    url: str
    final_url: str
    status: int
    media_type: str
    content: bytes
    charset: str | None = None
    declared_type: str | None = None
    redirects: tuple[str, ...] = ()

    @property
    def content_type(self) -> str:
        """The media type plus the header charset, as ``extract_bytes`` takes it."""
        return f"{self.media_type}; charset={self.charset}" if self.charset else self.media_type


@dataclass(frozen=True)
class Document:
    """A fetched page turned into text."""

    url: str
    final_url: str
    extracted: Extracted


@dataclass(frozen=True)
class _Target:
    url: str
    scheme: str
    host: Host
    port: int
    addresses: tuple[IPAddress, ...]  # every one checked; tried in order
    target: str  # path + query, as sent

    @property
    def host_header(self) -> str:
        name = f"[{self.host.name}]" if ":" in self.host.name else self.host.name
        default = 443 if self.scheme == "https" else 80
        return name if self.port == default else f"{name}:{self.port}"

    def pinned_url(self, address: IPAddress) -> str:
        addr = f"[{address}]" if address.version == 6 else str(address)
        return f"{self.scheme}://{addr}:{self.port}{self.target}"


def _split_url(url: str) -> tuple[str, str, int, str]:
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 or ch == "\\" for ch in url):
        raise BlockedError(f"{url!r}: URL contains whitespace, control characters or backslashes")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise BlockedError(f"{url}: malformed URL ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise BlockedError(f"{url}: scheme {scheme or '(none)'!r} refused; only http and https are fetched")
    if "@" in parts.netloc:
        raise BlockedError(f"{url}: URLs with user information are refused")
    if parts.hostname is None:
        raise BlockedError(f"{url}: no host")
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return scheme, parts.hostname, port or (443 if scheme == "https" else 80), target


class Fetcher:
    """Guarded async fetches under one :class:`FetchSettings`."""

    def __init__(
        self,
        settings: FetchSettings | None = None,
        *,
        resolver: Resolver | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.settings = settings or FetchSettings()
        self._allow = parse_allow_entries(self.settings.allow_private)
        self._resolver = resolver or system_resolver
        self._transport = transport
        self._clients: dict[str, httpx.AsyncClient] = {}
        self._semaphores: dict[str, asyncio.Semaphore] = {}
        self._pace_locks: dict[str, asyncio.Lock] = {}
        self._last_request: dict[str, float] = {}
        self._robots = RobotsCache(self.settings.user_agent, self._get_robots)

    async def aclose(self) -> None:
        """Close every connection pool."""
        clients, self._clients = list(self._clients.values()), {}
        for client in clients:
            await client.aclose()

    async def __aenter__(self) -> Fetcher:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- public -------------------------------------------------------------------------------

    async def fetch(self, url: str) -> FetchResult:
        """Fetch one URL under every guard, or raise :class:`BlockedError` / :class:`SourceError`."""
        deadline = self.settings.deadline
        try:
            async with asyncio.timeout(deadline):
                result = await self._fetch(url, self.settings.respect_robots, self.settings.max_bytes, True)
        except TimeoutError:
            raise BlockedError(f"{url}: no complete answer within the {deadline:g}s deadline") from None
        if result.status >= 400:
            raise SourceError(f"{url}: HTTP {result.status} from {result.final_url}")
        if not result.content:
            raise SourceError(f"{url}: empty response body")
        return result

    async def fetch_document(self, url: str) -> Document:
        """Fetch and extract text (``extract_bytes``); extraction errors name the URL."""
        from autodidact.sources.extract import extract_bytes

        result = await self.fetch(url)
        extracted = await asyncio.to_thread(
            extract_bytes,
            result.content,
            media_type=result.content_type,
            url=result.final_url,
            max_chars=self.settings.max_chars,
            max_pages=self.settings.max_pdf_pages,
        )
        return Document(url=url, final_url=result.final_url, extracted=extracted)

    # -- internals ----------------------------------------------------------------------------

    async def _get_robots(self, robots_url: str) -> tuple[int, bytes]:
        result = await self._fetch(robots_url, False, ROBOTS_MAX_BYTES, False)
        return result.status, result.content

    async def _check(self, url: str) -> _Target:
        scheme, hostname, port, target = _split_url(url)
        host = parse_host(url, hostname)
        allowed_name = (host.name, port) in self._allow
        if host.address is not None:
            addresses: list[IPAddress] = [host.address]
        else:
            reason = name_block_reason(host.name)
            if reason is not None and not allowed_name:
                raise BlockedError(f"{url}: {host.name} is {reason}; refused")
            answers = await self._resolver(host.name, port)
            addresses = []
            for answer in answers:
                try:
                    addresses.append(parse_host(url, answer).address or _no_address(url, answer))
                except BlockedError:
                    raise BlockedError(f"{url}: {host.name} resolved to an unusable address {answer!r}") from None
        check_addresses(url, host, port, addresses, self._allow)
        return _Target(url, scheme, host, port, tuple(addresses), target)

    @asynccontextmanager
    async def _slot(self, host: str) -> AsyncIterator[None]:
        semaphore = self._semaphores.setdefault(host, asyncio.Semaphore(self.settings.per_host_concurrency))
        async with semaphore:
            delay = self.settings.politeness_delay
            if delay > 0:
                async with self._pace_locks.setdefault(host, asyncio.Lock()):
                    wait = self._last_request.get(host, -1e9) + delay - time.monotonic()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    self._last_request[host] = time.monotonic()
            yield

    def _client(self, host: str) -> httpx.AsyncClient:
        key = "" if self._transport is not None else host  # one pool per host: SNI never crosses hosts
        client = self._clients.get(key)
        if client is None:
            read = self.settings.read_timeout
            client = httpx.AsyncClient(
                transport=self._transport or httpx.AsyncHTTPTransport(retries=0),
                follow_redirects=False,
                trust_env=False,  # a proxy from the environment would bypass the address pinning
                timeout=httpx.Timeout(read, connect=min(read, 10.0)),
            )
            self._clients[key] = client
        return client

    def _proxy(self, target: _Target) -> str | None:
        """The environment's proxy for a public target (docs/hardening.md, "Proxies"), else None.

        A target with any non-public address was allowed on purpose (``fetch.allow_private``): a
        proxy cannot reach it, so it is always reached directly, as is everything with an injected
        transport (tests) or with ``fetch.proxy_from_env`` off.
        """
        if self._transport is not None or not self.settings.proxy_from_env:
            return None
        if not all(address.is_global for address in target.addresses):
            return None
        from autodidact.sources.proxies import proxy_for

        return proxy_for(target.scheme, target.host.name)

    async def _send_via_proxy(self, target: _Target, proxy: str, headers: dict[str, str]) -> httpx.Response:
        """Send through ``proxy``: the guard checked the name's addresses here, the proxy connects by name."""
        key = f"proxy {proxy}"
        client = self._clients.get(key)
        if client is None:
            read = self.settings.read_timeout
            client = httpx.AsyncClient(
                proxy=proxy,
                follow_redirects=False,
                trust_env=False,
                timeout=httpx.Timeout(read, connect=min(read, 10.0)),
            )
            self._clients[key] = client
        url = f"{target.scheme}://{target.host_header}{target.target}"
        sent = {k: v for k, v in headers.items() if k != "Host"}
        try:
            return await client.send(client.build_request("GET", url, headers=sent), stream=True)
        except httpx.TimeoutException:
            raise BlockedError(f"{target.url}: timed out waiting for the server (through proxy {proxy})") from None
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise SourceError(f"{target.url}: through proxy {proxy}: {type(exc).__name__}: {exc}") from None

    async def _send(self, target: _Target) -> httpx.Response:
        client = self._client(target.host.name)
        headers = {
            "Host": target.host_header,
            "User-Agent": self.settings.user_agent,
            "Accept": ACCEPT,
            "Accept-Encoding": "gzip, deflate",
        }
        proxy = self._proxy(target)
        if proxy is not None:
            return await self._send_via_proxy(target, proxy, headers)
        extensions = {}
        if target.scheme == "https" and target.host.address is None:
            extensions["sni_hostname"] = target.host.name  # TLS checks the name, not the pinned address
        last: Exception | None = None
        for address in target.addresses:  # only checked addresses; the next one if a connect fails
            try:
                pinned = target.pinned_url(address)
                request = client.build_request("GET", pinned, headers=headers, extensions=extensions)
                return await client.send(request, stream=True)
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                last = exc
            except httpx.TimeoutException:
                raise BlockedError(f"{target.url}: timed out waiting for the server") from None
            except (httpx.HTTPError, httpx.InvalidURL) as exc:
                raise SourceError(f"{target.url}: {type(exc).__name__}: {exc}") from None
        if isinstance(last, httpx.ConnectTimeout):
            raise BlockedError(f"{target.url}: timed out connecting to the server") from None
        raise SourceError(f"{target.url}: cannot connect ({last})", hint="check the URL; is the server up?")

    async def _fetch(self, url: str, respect_robots: bool, max_bytes: int, check_type: bool) -> FetchResult:
        current = url
        redirects: list[str] = []
        for _ in range(self.settings.max_redirects + 1):
            try:
                target = await self._check(current)
            except BlockedError as exc:
                if not redirects:
                    raise
                raise BlockedError(f"{url} redirected to a refused target: {exc.message}", hint=exc.hint) from None
            if respect_robots and not await self._robots.allowed(current):
                raise BlockedError(
                    f"{current}: disallowed by robots.txt",
                    hint="use --ignore-robots (or fetch.respect_robots = false) if you may read it anyway",
                )
            async with self._slot(target.host.name):
                response = await self._send(target)
                try:
                    if response.status_code in REDIRECT_STATUSES:
                        location = response.headers.get("location", "").strip()
                        if not location:
                            raise SourceError(f"{current}: HTTP {response.status_code} without a Location")
                        current = urljoin(current, location)
                        redirects.append(current)
                        continue
                    if response.status_code >= 400:
                        return FetchResult(url, current, response.status_code, "", b"", redirects=tuple(redirects))
                    return await self._read(response, url, current, max_bytes, check_type, tuple(redirects))
                finally:
                    await response.aclose()
        raise BlockedError(f"{url}: more than {self.settings.max_redirects} redirects (last: {current})")

    async def _read(
        self,
        response: httpx.Response,
        url: str,
        current: str,
        max_bytes: int,
        check_type: bool,
        redirects: tuple[str, ...],
    ) -> FetchResult:
        declared, charset = parse_content_type(response.headers.get("content-type"))
        length = response.headers.get("content-length", "").strip()
        if length.isdigit() and int(length) > max_bytes:
            raise BlockedError(f"{current}: declared size {length} bytes exceeds the {max_bytes}-byte cap")
        decoder = CappedDecoder(current, response.headers.get("content-encoding"), max_bytes)
        body = bytearray()
        wire = 0
        media: str | None = None
        try:
            async for chunk in response.aiter_raw():
                wire += len(chunk)
                if wire > max_bytes:
                    raise BlockedError(f"{current}: body exceeds the {max_bytes}-byte cap")
                body += decoder.feed(chunk)
                if check_type and media is None and len(body) >= SNIFF_BYTES:
                    media = decide_type(current, declared, bytes(body[:SNIFF_BYTES]))
            body += decoder.flush()
        except httpx.TimeoutException:
            raise BlockedError(f"{current}: read timed out after {self.settings.read_timeout:g}s") from None
        except httpx.HTTPError as exc:
            raise SourceError(f"{current}: {type(exc).__name__}: {exc}") from None
        if check_type and media is None:
            media = decide_type(current, declared, bytes(body))
        return FetchResult(
            url=url,
            final_url=current,
            status=response.status_code,
            media_type=media or declared or "text/plain",
            content=bytes(body),
            charset=charset,
            declared_type=declared,
            redirects=redirects,
        )


def _no_address(url: str, answer: str) -> IPAddress:
    raise BlockedError(f"{url}: resolver answered a name, not an address: {answer!r}")
