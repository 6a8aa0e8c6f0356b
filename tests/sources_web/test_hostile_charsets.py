"""A hostile charset is one bad source, never a crashed run (issue: hostile testing, item 2).

``charset=base64`` (or hex, zlib, rot13, punycode, undefined), in the HTTP header or in
``<meta charset>``, used to raise LookupError/UnicodeError out of decode_text and end fetch, add,
research and report in a traceback, on every resume.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from autodidact.sources.extract import decode_text
from autodidact.testing.fakeweb import FakeWeb

HOSTILE = ["base64", "hex", "zlib", "rot13", "punycode", "undefined", "idna", "unicode_escape", "x-no-such"]
BODY = "Generators pause at yield and resume where they left off, keeping their local state."


@pytest.mark.parametrize("charset", HOSTILE)
def test_decode_text_ignores_a_charset_that_is_not_a_text_encoding(charset: str) -> None:
    data = BODY.encode("utf-8")
    assert decode_text(data, charset) == BODY
    html = f'<html><head><meta charset="{charset}"></head><body><p>{BODY}</p></body></html>'.encode()
    assert BODY in decode_text(html, None, html=True)
    assert decode_text("生成器在 yield 处暂停。".encode("gbk"), charset)  # detection still runs


@pytest.mark.parametrize("charset", ["base64", "zlib", "undefined", "punycode"])
def test_fetch_with_a_hostile_header_charset_stores_the_page(
    cli: Any, kb_dir: Path, web: FakeWeb, monkeypatch: pytest.MonkeyPatch, charset: str
) -> None:
    monkeypatch.setenv("AUTODIDACT_ALLOW_PRIVATE", web.allow_entry)
    url = web.add_page(f"/hostile-{charset}.txt", BODY, content_type=f"text/plain; charset={charset}")
    result = cli("fetch", url, "--kb", str(kb_dir))
    assert result.exit_code == 0, result.output
    raw_line = result.stdout.strip().splitlines()[0]
    assert "Generators pause at yield" in (kb_dir / raw_line).read_text("utf-8")


def test_add_a_page_with_a_hostile_meta_charset_next_to_a_good_one(cli: Any, kb_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "bad.html").write_text(
        f'<html><head><meta charset="zlib"><title>Bad</title></head><body><p>{BODY}</p></body></html>', "utf-8"
    )
    (folder / "good.html").write_text(
        "<html><head><title>Good</title></head><body><p>Coroutines are awaited inside async functions.</p>"
        "</body></html>",
        "utf-8",
    )
    result = cli("add", str(folder), "--kb", str(kb_dir))
    assert result.exit_code == 0, result.output
    found = cli("search", "yield resume local state", "--kb", str(kb_dir), "--json")
    assert found.exit_code == 0 and "Generators pause" in found.stdout
    assert "Coroutines are awaited" in cli("search", "coroutines awaited", "--kb", str(kb_dir)).stdout
