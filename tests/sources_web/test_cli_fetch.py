"""``autodidact fetch`` and ``autodidact websearch`` through the real CLI, in process."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autodidact.sources.snapshots import SnapshotStore
from autodidact.testing.fake_searxng import FakeSearxng
from autodidact.testing.fakeweb import FakeWeb

from .conftest import stored_files


def test_fetch_prints_raw_file_and_snapshot_ref(
    cli: Any, kb_dir: Path, web: FakeWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AUTODIDACT_ALLOW_PRIVATE", web.allow_entry)
    result = cli("fetch", web.url("/zh.html"), "--kb", str(kb_dir), "--question-id", "q7")
    assert result.exit_code == 0, result.output
    raw_line, ref = result.stdout.strip().splitlines()
    assert raw_line.startswith("raw/") and (kb_dir / raw_line).is_file()
    assert "> Questions: q7" in (kb_dir / raw_line).read_text("utf-8")  # an English knowledge base
    assert "生成器表达式" in SnapshotStore.for_folder(kb_dir).read(ref, url=web.url("/zh.html"))
    found = cli("search", "生成器表达式", "--kb", str(kb_dir), "--json")
    assert json.loads(found.stdout)[0]["snapshot_ref"] == ref
    again = cli("fetch", web.url("/en.html"), "--kb", str(kb_dir), "--json")
    fetched = json.loads(again.stdout)  # --json: the result alone on stdout
    assert fetched["raw"].startswith("raw/") and (kb_dir / fetched["raw"]).is_file() and fetched["snapshot_ref"]


@pytest.mark.parametrize("path", ["/redirect/metadata", "/private/secret.html", "/image.png"])
def test_blocked_fetch_is_one_line_nonzero_and_stores_nothing(
    cli: Any, kb_dir: Path, web: FakeWeb, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    monkeypatch.setenv("AUTODIDACT_ALLOW_PRIVATE", web.allow_entry)
    result = cli("fetch", web.url(path), "--kb", str(kb_dir))
    assert result.exit_code != 0
    error_lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(error_lines) == 1 and web.url(path) in error_lines[0]
    assert "Traceback" not in result.output
    assert stored_files(kb_dir) == []


def test_fetch_without_allow_list_refuses_loopback(cli: Any, kb_dir: Path, web: FakeWeb) -> None:
    result = cli("fetch", web.url("/en.html"), "--kb", str(kb_dir))
    assert result.exit_code != 0 and "loopback" in result.stderr
    assert web.requests == [] and stored_files(kb_dir) == []


def test_ignore_robots_flag(cli: Any, kb_dir: Path, web: FakeWeb, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTODIDACT_ALLOW_PRIVATE", web.allow_entry)
    result = cli("fetch", web.url("/private/secret.html"), "--kb", str(kb_dir), "--ignore-robots")
    assert result.exit_code == 0, result.output
    assert not web.requested("/robots.txt")


def test_websearch_lists_hits_from_the_fake_searxng(cli: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    rows = [{"url": "https://example.org/gen", "title": "Generators", "content": "lazy values"}]
    with FakeSearxng({"python generators": rows}) as fake:
        monkeypatch.setenv("AUTODIDACT_SEARCH_PROVIDERS", "searxng")
        monkeypatch.setenv("AUTODIDACT_SEARXNG_URL", fake.base_url)
        monkeypatch.chdir(tmp_path)
        as_json = cli("websearch", "python generators", "--json")
        text = cli("websearch", "python generators", "-n", "1")
    assert as_json.exit_code == 0, as_json.output
    assert json.loads(as_json.stdout) == [
        {"url": "https://example.org/gen", "title": "Generators", "snippet": "lazy values", "provider": "searxng"}
    ]
    assert "https://example.org/gen" in text.stdout and "[searxng] lazy values" in text.stdout


def test_websearch_without_providers_is_a_clear_error(
    cli: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    result = cli("websearch", "anything")
    assert result.exit_code == 2
    assert "no web search provider is configured" in result.stderr
    assert "AUTODIDACT_SEARCH_PROVIDERS" in result.stderr
