"""Every refused fetch is one clear BlockedError naming the URL, and stores nothing.

The URLs point at a live loopback server, so a guard that let one through would show up in the
server's request log (and in the knowledge base).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from autodidact.errors import BlockedError, SourceError
from autodidact.sources.passage_index import LocalIndex
from autodidact.testing.fakeweb import FakeWeb

from .conftest import fetch_into, settings_for, stored_files

ADDRESS_FORMS = [
    "http://127.0.0.1:{port}/en.html",
    "http://2130706433:{port}/en.html",
    "http://0x7f.1:{port}/en.html",
    "http://017700000001:{port}/en.html",
    "http://127.1:{port}/en.html",
    "http://0x7f000001:{port}/en.html",
    "http://0177.0.0.1:{port}/en.html",
    "http://127.0.0.1.:{port}/en.html",
    "http://0.0.0.0:{port}/en.html",
    "http://[::1]:{port}/en.html",
    "http://[::]:{port}/en.html",
    "http://[::ffff:127.0.0.1]:{port}/en.html",
    "http://[::ffff:7f00:1]:{port}/en.html",
    "http://[::127.0.0.1]:{port}/en.html",
    "http://[64:ff9b::7f00:1]:{port}/en.html",
    "http://[2002:7f00:1::]:{port}/en.html",
    "http://localhost:{port}/en.html",
    "http://app.localhost:{port}/en.html",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fd00:ec2::254]/latest/meta-data/",
    "http://100.100.100.200/latest/meta-data/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://100.64.0.1/",
    "http://10.0.0.1/",
    "http://172.16.0.1/",
    "http://192.168.0.1/",
    "http://[fe80::1]/",
    "http://[fc00::1]/",
    "http://224.0.0.1/",
    "http://[ff02::1]/",
    "http://1.2.3.4.5/",
    "https://autodidact.invalid/raw/notes.md",
]

SCHEMES_AND_SHAPES = [
    "file:///etc/passwd",
    "ftp://example.com/file.txt",
    "gopher://example.com/",
    "javascript:alert(1)",
    "data:text/html,<p>hi</p>",
    "http://user:secret@example.com/",
    "http://example.com\\@127.0.0.1/",
    "http://exa mple.com/",
    "//example.com/no-scheme",
]


def _refused(kb_dir: Path, web: FakeWeb, url: str, **overrides: object) -> BlockedError:
    with pytest.raises(BlockedError) as info:
        fetch_into(kb_dir, url, settings_for(**overrides))  # type: ignore[arg-type]
    message = info.value.message
    assert "\n" not in message
    assert message.startswith((url, repr(url)))  # one line that names the URL first
    assert stored_files(kb_dir) == []
    with LocalIndex(kb_dir) as index:
        assert index.search("generators") == []
    return info.value


@pytest.mark.parametrize("form", ADDRESS_FORMS)
def test_private_address_forms_are_refused(kb_dir: Path, web: FakeWeb, form: str) -> None:
    url = form.format(port=web.port)
    error = _refused(kb_dir, web, url)
    assert "refused" in error.message or "not a valid" in error.message
    assert web.requests == []


@pytest.mark.parametrize("url", SCHEMES_AND_SHAPES)
def test_non_http_schemes_and_odd_urls_are_refused(kb_dir: Path, web: FakeWeb, url: str) -> None:
    _refused(kb_dir, web, url)
    assert web.requests == []


def test_a_name_resolving_to_loopback_is_refused(kb_dir: Path, web: FakeWeb) -> None:
    # "localhost" is refused by name; a numeric name like 127.0.0.1.nip.io would need DNS, so the
    # resolver-level checks are covered in test_rebinding.py with an injected resolver.
    error = _refused(kb_dir, web, f"http://LOCALHOST:{web.port}/en.html")
    assert "loopback" in error.message


@pytest.mark.parametrize(
    "path",
    [
        "/redirect/other-port",
        "/redirect/metadata",
        "/redirect/ipv6-loopback",
        "/redirect/decimal",
        "/redirect/file",
        "/redirect/chain/6",
        "/redirect/loop",
    ],
)
def test_bad_redirects_are_refused_and_the_target_is_never_reached(kb_dir: Path, web: FakeWeb, path: str) -> None:
    with pytest.raises(BlockedError) as info:
        fetch_into(kb_dir, web.url(path), settings_for(web))
    assert web.url(path) in info.value.message
    assert not any(r.port == web.other_port for r in web.requests)
    assert not web.requested("/en.html")
    assert stored_files(kb_dir) == []


def test_redirect_cap_counts_hops(kb_dir: Path, web: FakeWeb) -> None:
    path, _ = fetch_into(kb_dir, web.url("/redirect/chain/5"), settings_for(web))
    assert path.is_file()
    with pytest.raises(BlockedError, match="more than 2 redirects"):
        fetch_into(kb_dir, web.url("/redirect/chain/3"), settings_for(web, max_redirects=2))


@pytest.mark.parametrize(
    ("path", "overrides", "fragment"),
    [
        ("/huge", {"max_bytes": 1_000_000}, "1000000-byte cap"),
        ("/huge-declared", {}, "declared size"),
        ("/gzip-bomb", {"max_bytes": 2_000_000}, "after decompression"),
        ("/slow-drip", {"deadline": 0.8}, "deadline"),
        ("/slow-headers", {"read_timeout": 0.3}, "timed out"),
        ("/image.png", {}, "PNG image"),
        ("/data.json", {}, "application/json is not allowed"),
        ("/mislabelled/png-as-html", {}, "declared text/html"),
        ("/private/secret.html", {}, "robots.txt"),
    ],
)
def test_size_time_type_and_robots_refusals(
    kb_dir: Path, web: FakeWeb, path: str, overrides: dict[str, object], fragment: str
) -> None:
    started = time.monotonic()
    with pytest.raises(BlockedError) as info:
        fetch_into(kb_dir, web.url(path), settings_for(web, **overrides))
    assert fragment in info.value.message
    assert web.url(path) in info.value.message
    assert "\n" not in info.value.message
    assert time.monotonic() - started < 8.0  # the stalled endpoints run 10 s and 60 s: a refusal, not a slow machine
    assert stored_files(kb_dir) == []
    if path == "/private/secret.html":
        assert not web.requested(path)


@pytest.mark.parametrize("path", ["/status/404", "/status/500", "/empty", "/nowhere", "/encrypted.pdf", "/corrupt.pdf"])
def test_http_errors_and_empty_bodies_store_nothing(kb_dir: Path, web: FakeWeb, path: str) -> None:
    with pytest.raises(SourceError):
        fetch_into(kb_dir, web.url(path), settings_for(web))
    assert stored_files(kb_dir) == []


def test_robots_redirect_into_private_space_is_not_followed(kb_dir: Path, web: FakeWeb) -> None:
    web.add_redirect("/robots.txt", web.other_url("/robots.txt"))
    path, _ = fetch_into(kb_dir, web.url("/en.html"), settings_for(web))
    assert path.is_file()
    assert not any(r.port == web.other_port for r in web.requests)


@pytest.mark.parametrize(("status", "allowed"), [(404, True), (410, True), (401, False), (403, False), (500, False)])
def test_robots_status_rules(kb_dir: Path, web: FakeWeb, status: int, allowed: bool) -> None:
    web.add_page("/robots.txt", "User-agent: *\nAllow: /\n", "text/plain", status)
    if allowed:
        path, _ = fetch_into(kb_dir, web.url("/en.html"), settings_for(web))
        assert path.is_file()
    else:
        with pytest.raises(BlockedError, match=r"robots\.txt"):
            fetch_into(kb_dir, web.url("/en.html"), settings_for(web))
        assert not web.requested("/en.html") and stored_files(kb_dir) == []


def test_robots_rules_for_our_user_agent(kb_dir: Path, web: FakeWeb) -> None:
    web.add_page("/robots.txt", "User-agent: autodidact\nDisallow: /en.html\n\nUser-agent: *\nAllow: /\n", "text/plain")
    with pytest.raises(BlockedError, match=r"robots\.txt"):
        fetch_into(kb_dir, web.url("/en.html"), settings_for(web))
    path, _ = fetch_into(kb_dir, web.url("/zh.html"), settings_for(web))
    assert path.is_file()
