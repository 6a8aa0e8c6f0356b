"""The address policy on its own: numeric host spellings, every refused range, fuzzing."""

from __future__ import annotations

import ipaddress
import socket

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodidact.errors import BlockedError
from autodidact.sources.netguard import (
    block_reason,
    check_addresses,
    parse_allow_entries,
    parse_host,
    parse_ipv4_numeric,
)

LOOPBACK_SPELLINGS = [
    "127.0.0.1",
    "2130706433",
    "0x7f.1",
    "0X7F.1",
    "017700000001",
    "127.1",
    "0x7f000001",
    "0177.0.0.1",
    "0x7f.0x0.0x0.0x1",
    "127.0.1",
    "127.0.0.1.",
]


@pytest.mark.parametrize("spelling", LOOPBACK_SPELLINGS)
def test_every_numeric_spelling_of_loopback_parses_to_127_0_0_1(spelling: str) -> None:
    host = parse_host("http://x/", spelling)
    assert host.address == ipaddress.IPv4Address("127.0.0.1")
    assert block_reason(host.address) == "a loopback address"


@pytest.mark.parametrize(
    "bad", ["1.2.3.4.5", "999.1.1.1", "0x100000000", "4294967296", "08.1.1.1", "1.256.1.1", "1..2"]
)
def test_numeric_looking_hosts_that_do_not_parse_are_refused_not_resolved(bad: str) -> None:
    with pytest.raises(BlockedError, match=r"numeric|valid"):
        parse_host(f"http://{bad}/", bad)


@pytest.mark.parametrize(
    ("address", "fragment"),
    [
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("192.168.1.1", "private"),
        ("100.64.0.1", "CGNAT"),
        ("100.127.255.254", "CGNAT"),
        ("169.254.169.254", "metadata"),
        ("100.100.100.200", "metadata"),
        ("fd00:ec2::254", "metadata"),
        ("169.254.1.1", "link-local"),
        ("0.0.0.0", "unspecified"),
        ("224.0.0.1", "multicast"),
        ("240.0.0.1", "address"),
        ("255.255.255.255", "address"),
        ("::1", "loopback"),
        ("::", "unspecified"),
        ("fe80::1", "link-local"),
        ("fc00::1", "private"),
        ("ff02::1", "multicast"),
        ("fec0::1", "site-local"),
        ("::ffff:127.0.0.1", "IPv4-mapped"),
        ("::ffff:10.0.0.1", "IPv4-mapped"),
        ("::ffff:169.254.169.254", "IPv4-mapped"),
        ("::127.0.0.1", "IPv4-compatible"),
        ("64:ff9b::127.0.0.1", "NAT64"),
        ("64:ff9b::a9fe:a9fe", "NAT64"),
        ("2002:7f00:1::", "6to4"),
        ("2002:a9fe:a9fe::", "6to4"),
        ("2001:db8::1", "address"),
    ],
)
def test_refused_ranges_name_their_reason(address: str, fragment: str) -> None:
    reason = block_reason(ipaddress.ip_address(address))
    assert reason is not None and fragment in reason


@pytest.mark.parametrize("address", ["8.8.8.8", "93.184.216.34", "2606:4700::1111", "2002:808:808::"])
def test_public_addresses_pass(address: str) -> None:
    assert block_reason(ipaddress.ip_address(address)) is None


def test_check_addresses_refuses_if_any_answer_is_private() -> None:
    host = parse_host("http://mixed.example/", "mixed.example")
    answers = [ipaddress.ip_address("93.184.216.34"), ipaddress.ip_address("127.0.0.1")]
    with pytest.raises(BlockedError, match=r"http://mixed\.example/: mixed\.example resolves to 127\.0\.0\.1"):
        check_addresses("http://mixed.example/", host, 80, answers, frozenset())


def test_allow_entries_match_name_or_address_and_port_only() -> None:
    allow = parse_allow_entries(["127.0.0.1:8080", "[::1]:9000", "Dev.Local:81"])
    loop4 = [ipaddress.ip_address("127.0.0.1")]
    check_addresses("u", parse_host("u", "127.0.0.1"), 8080, loop4, allow)
    check_addresses("u", parse_host("u", "dev.local"), 81, loop4, allow)
    check_addresses("u", parse_host("u", "::1"), 9000, [ipaddress.ip_address("::1")], allow)
    with pytest.raises(BlockedError):
        check_addresses("u", parse_host("u", "127.0.0.1"), 8081, loop4, allow)
    with pytest.raises(BlockedError, match="host:port"):
        parse_allow_entries(["127.0.0.1"])


@pytest.mark.parametrize("host", ["exa%6dple.com", "fe80::1%25eth0", "exa mple.com", "a" * 64 + ".com", "-bad.com"])
def test_odd_hosts_are_refused(host: str) -> None:
    with pytest.raises(BlockedError):
        parse_host("http://odd/", host)


def test_unicode_hosts_are_idna_encoded() -> None:
    assert parse_host("http://例子.测试/", "例子.测试").name == "xn--fsqu00a.xn--0zwm56d"


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=80))
def test_parse_host_never_crashes(text: str) -> None:
    try:
        host = parse_host("http://fuzz/", text)
    except BlockedError as exc:
        assert "http://fuzz/" in exc.message
        return
    if host.address is not None:
        ipaddress.ip_address(host.name)  # an address host is a canonical address string


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789abcdefxX.", max_size=24))
def test_numeric_parser_agrees_with_inet_aton(text: str) -> None:
    try:
        expected = socket.inet_ntoa(socket.inet_aton(text))
    except OSError:
        return  # our parser may accept more (WHATWG forms); never less
    assert str(parse_ipv4_numeric(text)) == expected


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_all_spellings_of_an_ipv4_address_agree(number: int) -> None:
    address = ipaddress.IPv4Address(number)
    a, b, c, d = address.packed
    spellings = [
        str(number),
        hex(number),
        "0" + oct(number)[2:] if number else "0",
        f"{a}.{b}.{c}.{d}",
        f"{hex(a)}.{hex(b)}.{hex(c)}.{hex(d)}",
        f"{a}.{b}.{(c << 8) | d}",
        f"{a}.{(b << 16) | (c << 8) | d}",
    ]
    for spelling in spellings:
        assert parse_ipv4_numeric(spelling) == address, spelling
        assert parse_host("http://x/", spelling).address == address


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.integers(0, 2**32 - 1).map(ipaddress.IPv4Address), st.integers(0, 2**128 - 1).map(ipaddress.IPv6Address)
    )
)
def test_anything_accepted_as_public_is_public_per_ipaddress(
    address: ipaddress.IPv4Address | ipaddress.IPv6Address,
) -> None:
    if block_reason(address) is None:
        assert address.is_global
        assert not (address.is_private or address.is_loopback or address.is_link_local or address.is_multicast)
        assert not (address.is_reserved or address.is_unspecified)
        assert address not in ipaddress.ip_network("100.64.0.0/10")


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1).map(ipaddress.IPv4Address))
def test_ipv6_embeddings_of_a_refused_ipv4_are_refused(v4: ipaddress.IPv4Address) -> None:
    if block_reason(v4) is None:
        return
    n = int(v4)
    for v6 in (
        ipaddress.IPv6Address(0xFFFF << 32 | n),  # IPv4-mapped
        ipaddress.IPv6Address((0x64FF9B << 96) | n),  # NAT64
        ipaddress.IPv6Address((0x2002 << 112) | (n << 80)),  # 6to4
    ):
        assert block_reason(v6) is not None, v6
