"""robots.txt, read through the guarded fetch and cached per origin.

Why: a research bot that ignores robots.txt gets blocked, and deserves it. The standard library's
parser does the matching; this module only decides how a missing or failing robots.txt counts
(RFC 9309): 4xx → everything allowed, except 401/403 → nothing allowed; 5xx or unreachable →
nothing allowed. The file itself is fetched with the same address checks as any page, so a
robots.txt that redirects into private space is never followed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit
from urllib.robotparser import RobotFileParser

from autodidact.errors import BlockedError, SourceError

ROBOTS_MAX_BYTES = 512_000

# (url) -> (status, body bytes)
RobotsGetter = Callable[[str], Awaitable[tuple[int, bytes]]]


class _Parser(RobotFileParser):
    """The stdlib parser, with the two flags it sets (undeclared in its stubs) declared."""

    allow_all: bool
    disallow_all: bool


def origin_of(url: str) -> str:
    """``scheme://netloc`` of a URL."""
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


class RobotsCache:
    """One parsed robots.txt per origin, fetched once (concurrent callers wait for it)."""

    def __init__(self, user_agent: str, getter: RobotsGetter) -> None:
        self.user_agent = user_agent
        self._getter = getter
        self._parsers: dict[str, _Parser] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def _load(self, origin: str) -> _Parser:
        parser = _Parser()
        robots_url = f"{origin}/robots.txt"
        parser.set_url(robots_url)
        try:
            status, body = await self._getter(robots_url)
        except BlockedError:
            parser.allow_all = True  # the page itself is still checked on its own
            return parser
        except SourceError:
            parser.disallow_all = True
            return parser
        if status in (401, 403) or status >= 500:
            parser.disallow_all = True
        elif status >= 400:
            parser.allow_all = True
        else:
            parser.parse(body.decode("utf-8", errors="replace").splitlines())
            parser.modified()  # parse() alone leaves the parser saying "not read yet"
        return parser

    async def allowed(self, url: str) -> bool:
        """Whether robots.txt of the URL's origin lets our user agent fetch it."""
        origin = origin_of(url)
        lock = self._locks.setdefault(origin, asyncio.Lock())
        async with lock:
            parser = self._parsers.get(origin)
            if parser is None:
                parser = await self._load(origin)
                self._parsers[origin] = parser
        return parser.can_fetch(self.user_agent, url)
