"""Which proxy, if any, a request to a host should go through: the standard environment variables.

Why our own reader: the guarded fetch connects to the address it checked (docs/hardening.md), so it
cannot simply hand the environment to httpx (``trust_env``), which would also route the loopback
servers a person allowed on purpose through a proxy that cannot reach them. The rules are the ones
curl, requests and httpx share: ``https_proxy``/``HTTPS_PROXY`` for https, ``http_proxy``/
``HTTP_PROXY`` for http, else ``all_proxy``/``ALL_PROXY``, the lower-case name first; ``no_proxy``/
``NO_PROXY`` lists hosts, domains (``example.com`` also covers ``docs.example.com``), addresses or
networks (``10.0.0.0/8``) to reach directly, ``*`` for all. As Python's urllib does, the upper-case
``HTTP_PROXY`` is ignored when ``REQUEST_METHOD`` says the process runs as a CGI script (a request
header could set it). Only http and https proxies are supported.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from autodidact.config import env
from autodidact.errors import SourceError


def _first(*names: str) -> str | None:
    for name in names:
        value = (env(name) or "").strip()
        if value:
            return value
    return None


def _bypassed(host: str, no_proxy: str) -> bool:
    host = host.strip("[]").lower().rstrip(".")
    try:
        address: ipaddress.IPv4Address | ipaddress.IPv6Address | None = ipaddress.ip_address(host)
    except ValueError:
        address = None
    for raw in no_proxy.split(","):
        entry = raw.strip().lower()
        if not entry:
            continue
        if entry == "*":
            return True
        if address is not None:
            try:
                if address in ipaddress.ip_network(entry.strip("[]"), strict=False):
                    return True
            except ValueError:
                pass
            continue
        name = entry.split(":", 1)[0].lstrip("*").lstrip(".").rstrip(".")
        if name and (host == name or host.endswith("." + name)):
            return True
    return False


def proxy_for(scheme: str, host: str) -> str | None:
    """The proxy URL for ``scheme://host`` from the environment, or None to connect directly.

    Raises :class:`~autodidact.errors.SourceError` for a proxy this program cannot use (a SOCKS one),
    naming the variable's value, rather than connecting around it.
    """
    if _bypassed(host, _first("no_proxy", "NO_PROXY") or ""):
        return None
    cgi = env("REQUEST_METHOD") is not None
    if scheme == "https":
        value = _first("https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY")
    else:
        value = _first("http_proxy", *(() if cgi else ("HTTP_PROXY",)), "all_proxy", "ALL_PROXY")
    if value is None:
        return None
    if "://" not in value:
        value = f"http://{value}"
    kind = urlsplit(value).scheme.lower()
    if kind not in {"http", "https"}:
        raise SourceError(
            f"proxy {value!r} from the environment is a {kind} proxy; only http and https proxies are supported",
            hint="set an http proxy, or fetch.proxy_from_env = false (AUTODIDACT_PROXY_FROM_ENV=0) to connect directly",
        )
    return value
