"""Allowed fetches: fetched, extracted, snapshotted, written to raw/, indexed and found."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from autodidact.config import FetchSettings
from autodidact.errors import BlockedError
from autodidact.sources.fetch import Fetcher, domain_quality
from autodidact.sources.passage_index import LocalIndex
from autodidact.sources.rawfiles import parse_raw_file
from autodidact.sources.snapshots import SnapshotStore
from autodidact.sources.sniff import CappedDecoder
from autodidact.testing.fakeweb import GBK_TEXT, INJECTION_CLOSER, FakeWeb, gzip_bomb

from .conftest import fetch_into, run, settings_for, stored_files


def test_allowed_page_is_stored_and_found_by_search(kb_dir: Path, web: FakeWeb) -> None:
    path, snapshot = fetch_into(kb_dir, web.url("/en.html"), settings_for(web), ("q1", "q2"))
    rf = parse_raw_file(path)
    assert rf.title == "Python generators explained"
    assert rf.url == web.url("/en.html")
    assert rf.question_ids == ["q1", "q2"]
    assert rf.quality == "待评估"
    assert rf.snapshot_ref == snapshot.snapshot_ref
    text = SnapshotStore.for_folder(kb_dir).read(snapshot.snapshot_ref, url=web.url("/en.html"))
    assert "yield from statement delegates" in text
    assert "yield from statement delegates" in rf.body
    with LocalIndex(kb_dir) as index:
        hits = index.search("yield from subgenerator delegates")
    assert hits and hits[0].snapshot_ref == snapshot.snapshot_ref
    assert hits[0].kind == "web" and hits[0].raw_file == path.name


def test_a_stored_url_is_not_fetched_again(kb_dir: Path, web: FakeWeb) -> None:
    first = fetch_into(kb_dir, web.url("/en.html"), settings_for(web))
    count = len(web.requests)
    second = fetch_into(kb_dir, web.url("/en.html"), settings_for(web))
    assert second == first
    assert len(web.requests) == count
    assert len(stored_files(kb_dir)) == 3  # .md + .meta.json + the raw file


def test_gbk_page_is_stored_as_utf8(kb_dir: Path, web: FakeWeb) -> None:
    path, snapshot = fetch_into(kb_dir, web.url("/gbk.html"), settings_for(web))
    raw_text = path.read_bytes().decode("utf-8")  # strict: raises if not UTF-8
    assert GBK_TEXT in raw_text
    assert "惰性求值" in (kb_dir / snapshot.snapshot_ref).read_bytes().decode("utf-8")
    with LocalIndex(kb_dir) as index:
        assert index.search("惰性求值")[0].snapshot_ref == snapshot.snapshot_ref


def test_gbk_declared_only_in_meta_also_decodes(kb_dir: Path, web: FakeWeb) -> None:
    path, _ = fetch_into(kb_dir, web.url("/gbk-meta.html"), settings_for(web))
    assert "迭代器协议" in path.read_text("utf-8")


@pytest.mark.parametrize("path", ["/doc.pdf", "/mislabelled/pdf-as-html"])
def test_pdf_keeps_page_markers_even_when_mislabelled(kb_dir: Path, web: FakeWeb, path: str) -> None:
    _raw, snapshot = fetch_into(kb_dir, web.url(path), settings_for(web))
    text = (kb_dir / snapshot.snapshot_ref).read_text("utf-8")
    assert "[page 1]" in text and "[page 2]" in text
    assert "send method resumes a generator" in text


@pytest.mark.parametrize(
    ("path", "needle"),
    [
        ("/mislabelled/html-as-octet", "generator expression"),
        ("/gzip.html", "generator expression"),
        ("/redirect/chain/3", "generator expression"),
        ("/redirect/relative", "generator expression"),
        ("/notes.txt", "lazy iterators"),
        ("/readme.md", "Generators"),
        ("/malformed.html", "Second paragraph about iterators"),
        ("/zh.html", "生成器表达式"),
    ],
)
def test_other_allowed_content(kb_dir: Path, web: FakeWeb, path: str, needle: str) -> None:
    _raw, snapshot = fetch_into(kb_dir, web.url(path), settings_for(web))
    assert needle in (kb_dir / snapshot.snapshot_ref).read_text("utf-8")


def test_redirected_page_is_stored_under_its_final_url(kb_dir: Path, web: FakeWeb) -> None:
    raw, snapshot = fetch_into(kb_dir, web.url("/redirect/chain/2"), settings_for(web))
    assert parse_raw_file(raw).url == web.url("/en.html")
    assert SnapshotStore.for_folder(kb_dir).lookup(web.url("/en.html")) == [snapshot]


def test_robots_can_be_overridden(kb_dir: Path, web: FakeWeb) -> None:
    with pytest.raises(BlockedError, match="robots"):
        fetch_into(kb_dir, web.url("/private/secret.html"), settings_for(web))
    raw, _ = fetch_into(kb_dir, web.url("/private/secret.html"), settings_for(web, respect_robots=False))
    assert "robots say no" in raw.read_text("utf-8")
    assert not web.requested("/robots.txt") or web.paths().count("/robots.txt") == 1


def test_prompt_injection_page_is_stored_as_data_and_nothing_it_asks_happens(kb_dir: Path, web: FakeWeb) -> None:
    raw, snapshot = fetch_into(kb_dir, web.url("/injection.html"), settings_for(web))
    text = (kb_dir / snapshot.snapshot_ref).read_text("utf-8")
    assert "Ignore previous instructions" in text and INJECTION_CLOSER.lstrip("<") in text
    assert not web.requested("/exfil")
    assert not (kb_dir.parent / "pwned.txt").exists() and not (kb_dir / "pwned.txt").exists()
    assert sorted(p.name for p in (kb_dir / "raw").iterdir()) == [raw.name]


def test_requests_carry_the_user_agent(web: FakeWeb) -> None:
    async def go() -> None:
        async with Fetcher(settings_for(web, user_agent="autodidact-test/9 (+contact)")) as fetcher:
            await fetcher.fetch(web.url("/en.html"))

    run(go())
    agents = {r.headers.get("user-agent") for r in web.requests}
    assert agents == {"autodidact-test/9 (+contact)"}


def test_politeness_delay_and_per_host_concurrency(web: FakeWeb) -> None:
    settings = settings_for(web, politeness_delay=0.15, per_host_concurrency=1, respect_robots=False)

    async def go() -> float:
        async with Fetcher(settings) as fetcher:
            started = time.monotonic()
            await asyncio.gather(*(fetcher.fetch(web.url(p)) for p in ("/en.html", "/zh.html", "/notes.txt")))
            return time.monotonic() - started

    elapsed = run(go())
    assert elapsed >= 0.29  # three requests to one host, 0.15 s apart


def test_per_host_concurrency_is_capped(web: FakeWeb) -> None:
    settings = settings_for(web, per_host_concurrency=2, respect_robots=False)

    async def go() -> float:
        async with Fetcher(settings) as fetcher:
            started = time.monotonic()
            await asyncio.gather(*(fetcher.fetch(web.url(f"/sleep?i={i}")) for i in range(6)))
            return time.monotonic() - started

    elapsed = run(go())
    assert 1 <= web.max_in_flight <= 2
    assert elapsed >= 0.55  # six 0.2 s requests, at most two at a time
    assert len(web.requests) == 6


def test_system_resolver_with_a_name_allowed_by_entry(web: FakeWeb) -> None:
    # "localhost" is refused by name unless allowed; the real getaddrinfo answers (::1 and/or
    # 127.0.0.1), and an address that refuses the connection is skipped for the next checked one.
    async def go() -> bytes:
        async with Fetcher(settings_for(allow_private=[f"localhost:{web.port}"])) as fetcher:
            return (await fetcher.fetch(f"http://localhost:{web.port}/notes.txt")).content

    assert b"lazy iterators" in run(go())
    assert web.requests[-1].headers["host"] == f"localhost:{web.port}"


def test_decompression_never_exceeds_the_cap_even_in_one_chunk() -> None:
    bomb = gzip_bomb(32 * 1024 * 1024)
    decoder = CappedDecoder("http://x/bomb", "gzip", 1_000_000)
    with pytest.raises(BlockedError, match="after decompression"):
        decoder.feed(bomb)
    assert decoder.total <= 1_000_001


def test_gzip_page_within_the_cap_decodes_fully() -> None:
    import gzip

    data = b"<html><body>" + b"generators " * 5000 + b"</body></html>"
    decoder = CappedDecoder("http://x/", "gzip", 10_000_000)
    packed = gzip.compress(data) + gzip.compress(b"<p>second member</p>")
    out = b"".join(decoder.feed(packed[i : i + 100]) for i in range(0, len(packed), 100)) + decoder.flush()
    assert out == data + b"<p>second member</p>"


@pytest.mark.parametrize(
    ("url", "quality"),
    [
        ("https://www.nist.gov/page", "高"),
        ("https://docs.python.org/3/", "高"),
        ("https://en.wikipedia.org/wiki/Generator", "中"),
        ("https://blog.example.com/post", "待评估"),
        ("https://notgov.com/", "待评估"),
    ],
)
def test_domain_quality_rules(url: str, quality: str) -> None:
    assert domain_quality(url)[0] == quality


def test_default_settings_refuse_loopback_without_allow_list(web: FakeWeb) -> None:
    async def go() -> None:
        async with Fetcher(FetchSettings()) as fetcher:
            await fetcher.fetch(web.url("/en.html"))

    with pytest.raises(BlockedError, match="loopback"):
        run(go())
    assert web.requests == []
