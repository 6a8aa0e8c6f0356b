"""The address policy of the guarded fetch: which hosts and addresses may ever be contacted.

Why a module of its own: server-side request forgery is the main way a fetched page (or a model
told by one) could make this program reach something it should not — a cloud metadata service,
a router's admin page, a database on localhost. The rules are small and must be exact, so they
live apart from the HTTP code and are tested (and fuzzed) on their own.

The policy:

* Only ``http`` and ``https``; no user information, no percent-encoded or scoped hosts.
* A host whose last label is a number is an IPv4 address and is parsed with ``inet_aton``
  semantics (``2130706433``, ``0x7f.1``, ``017700000001``, ``127.1`` are all 127.0.0.1), so no
  numeric spelling slips past the check; one that does not parse is refused, never resolved.
* Every address a name resolves to is checked; one bad answer refuses the whole host. Refused:
  private, loopback, link-local, multicast, reserved, unspecified, site-local, CGNAT
  (100.64.0.0/10), anything ``ipaddress`` does not call global, and the cloud metadata addresses.
  IPv6 addresses that embed IPv4 (IPv4-mapped, IPv4-compatible, NAT64, 6to4) are refused when the
  embedded address is refused.
* ``FetchSettings.allow_private`` lists ``host:port`` entries (a name or an address) that bypass
  the address rules: the way to reach a local server on purpose (tests use it for loopback).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass

from autodidact.errors import BlockedError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a) for a in ("169.254.169.254", "fd00:ec2::254", "100.100.100.200", "169.254.170.2")
)
METADATA_NAMES = frozenset({"metadata.google.internal", "metadata", "instance-data", "instance-data.ec2.internal"})
CGNAT = ipaddress.ip_network("100.64.0.0/10")
NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
IPV4_COMPAT = ipaddress.ip_network("::/96")
_LABEL = re.compile(r"^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$")
_NUMERIC_LABEL = re.compile(r"^(?:0[xX][0-9a-fA-F]*|[0-9]+)$")


@dataclass(frozen=True)
class Host:
    """A parsed URL host: an address literal or a DNS name (IDNA, lowercase)."""

    name: str
    address: IPAddress | None = None


def _ipv4_part(part: str) -> int | None:
    if part[:2] in ("0x", "0X"):
        digits = part[2:]
        if digits == "":
            return 0
        return int(digits, 16) if all(c in "0123456789abcdefABCDEF" for c in digits) else None
    if not part or not part.isdigit() or not part.isascii():
        return None
    if len(part) > 1 and part[0] == "0":
        return int(part, 8) if all(c in "01234567" for c in part) else None
    return int(part, 10)


def parse_ipv4_numeric(host: str) -> ipaddress.IPv4Address | None:
    """``inet_aton`` semantics: 1–4 parts, each decimal, octal (``0``) or hex (``0x``).

    The last part fills the remaining bytes (``127.1`` → 127.0.0.1, ``2130706433`` → 127.0.0.1).
    Returns None when ``host`` is not such a number.
    """
    if len(host) > 64:
        return None
    parts = host.split(".")
    if len(parts) > 1 and parts[-1] == "":
        parts = parts[:-1]
    if not 1 <= len(parts) <= 4:
        return None
    values: list[int] = []
    for part in parts:
        value = _ipv4_part(part)
        if value is None:
            return None
        values.append(value)
    *head, last = values
    if any(v > 255 for v in head) or last >= 256 ** (5 - len(values)):
        return None
    number = 0
    for v in head:
        number = number * 256 + v
    number = (number << (8 * (5 - len(values)))) + last
    return ipaddress.IPv4Address(number)


def parse_host(url: str, hostname: str) -> Host:
    """Parse a URL host strictly, or raise :class:`BlockedError` naming the URL."""
    host = hostname.strip().lower()
    if not host:
        raise BlockedError(f"{url}: no host")
    if "%" in host:
        raise BlockedError(f"{url}: percent-encoded or scoped host {hostname!r} refused")
    if ":" in host:
        try:
            address = ipaddress.IPv6Address(host.strip("[]"))
        except ValueError:
            raise BlockedError(f"{url}: invalid IPv6 host {hostname!r}") from None
        return Host(str(address), address)
    stripped = host[:-1] if host.endswith(".") else host
    last_label = stripped.rsplit(".", 1)[-1]
    if _NUMERIC_LABEL.match(last_label):
        v4 = parse_ipv4_numeric(host)
        if v4 is None:
            raise BlockedError(f"{url}: host {hostname!r} looks numeric but is not a valid IPv4 address")
        return Host(str(v4), v4)
    try:
        name = stripped.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise BlockedError(f"{url}: host {hostname!r} is not a valid domain name") from None
    labels = name.split(".")
    if len(name) > 253 or not all(_LABEL.match(label) for label in labels):
        raise BlockedError(f"{url}: host {hostname!r} is not a valid domain name")
    return Host(name)


def embedded_ipv4(address: ipaddress.IPv6Address) -> tuple[str, ipaddress.IPv4Address] | None:
    """The IPv4 address an IPv6 address carries, with the name of the form."""
    if address.ipv4_mapped is not None:
        return "IPv4-mapped", address.ipv4_mapped
    if address.sixtofour is not None:
        return "6to4", address.sixtofour
    for net in NAT64:
        if address in net:
            return "NAT64", ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address in IPV4_COMPAT and int(address) > 1:
        return "IPv4-compatible", ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.teredo is not None:
        return "Teredo", address.teredo[1]
    return None


def block_reason(address: IPAddress) -> str | None:
    """Why this address may not be contacted, or None when it is a public unicast address."""
    if address in METADATA_ADDRESSES:
        return "a cloud metadata address"
    if isinstance(address, ipaddress.IPv6Address):
        embedded = embedded_ipv4(address)
        if embedded is not None:
            form, v4 = embedded
            inner = block_reason(v4)
            if inner is not None:
                return f"{form} IPv6 embedding {v4}, {inner}"
        if address.is_site_local:
            return "a site-local address"
    checks = (
        ("unspecified", address.is_unspecified),
        ("loopback", address.is_loopback),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("CGNAT (100.64.0.0/10)", isinstance(address, ipaddress.IPv4Address) and address in CGNAT),
        ("private", address.is_private),
        ("reserved", address.is_reserved),
    )
    for label, hit in checks:
        if hit:
            return f"a {label} address"
    if not address.is_global:
        return "not a public address"
    return None


def parse_allow_entries(entries: Iterable[str]) -> frozenset[tuple[str, int]]:
    """``host:port`` / ``[v6]:port`` entries → normalised (host, port) pairs; bad entries raise."""
    pairs: set[tuple[str, int]] = set()
    for entry in entries:
        host, sep, port = entry.strip().rpartition(":")
        if not sep or not port.isdigit() or not host:
            raise BlockedError(
                f"allow_private entry {entry!r} is not host:port", hint="write entries like 127.0.0.1:8080"
            )
        host = host.strip("[]").lower()
        try:
            host = str(ipaddress.ip_address(host))
        except ValueError:
            pass
        pairs.add((host, int(port)))
    return frozenset(pairs)


def name_block_reason(name: str) -> str | None:
    """Names refused before any DNS look-up (RFC 6761 special names and metadata aliases)."""
    if name in METADATA_NAMES:
        return "a cloud metadata host name"
    if name == "localhost" or name.endswith(".localhost"):
        return "a loopback host name"
    if name.endswith(".invalid") or name == "invalid":
        return "a reserved .invalid name (local documents are never fetched)"
    return None


def check_addresses(
    url: str, host: Host, port: int, addresses: list[IPAddress], allow: frozenset[tuple[str, int]]
) -> None:
    """Refuse unless every address is public or explicitly allowed (by name or address)."""
    if not addresses:
        raise BlockedError(f"{url}: {host.name} resolved to no address")
    if (host.name, port) in allow:
        return
    for address in addresses:
        if (str(address), port) in allow:
            continue
        reason = block_reason(address)
        if reason is not None:
            shown = host.name if host.address is not None else f"{host.name} resolves to {address}, which"
            raise BlockedError(
                f"{url}: {shown} is {reason}; refused",
                hint="to reach a local server on purpose, add host:port to fetch.allow_private",
            )
