"""extract_bytes: charsets (GBK/GB2312/Big5), sniffing, PDF page markers, clear errors."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from autodidact.errors import SourceError
from autodidact.sources.extract import extract_bytes
from autodidact.sources.snapshots import SnapshotStore
from autodidact.testing.corpora import make_pdf

ZH_PAGE = """<html><head>{meta}<title>生成器简介</title></head><body>
<nav>首页 | 关于</nav>
<article><h1>生成器</h1>
<p>生成器是一种特殊的迭代器，它使用 yield 关键字逐个产生值，而不是一次性返回整个列表。</p>
<h2>惰性求值</h2>
<p>惰性求值意味着只有在需要时才计算下一个值，这样可以节省内存并处理无限序列。</p>
</article></body></html>"""


@pytest.mark.parametrize(
    ("meta", "media_type"),
    [
        ('<meta charset="gbk">', "text/html"),
        ('<meta http-equiv="Content-Type" content="text/html; charset=gb2312">', None),
        ("", "text/html; charset=GBK"),
        ("", "text/html"),  # no label anywhere: detection
    ],
)
def test_gbk_page_is_stored_as_correct_utf8(tmp_path: Path, meta: str, media_type: str | None) -> None:
    data = ZH_PAGE.format(meta=meta).encode("gbk")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    doc = extract_bytes(data, media_type=media_type, url="http://127.0.0.1/gbk")
    assert "生成器是一种特殊的迭代器" in doc.text
    assert "惰性求值意味着" in doc.text
    assert "# 生成器" in doc.text and "## 惰性求值" in doc.text  # headings kept
    assert doc.media_type == "text/html"
    snap, _ = SnapshotStore(tmp_path / "source_cache").store("http://127.0.0.1/gbk", doc.text)
    stored = (tmp_path / snap.snapshot_ref).read_bytes()
    assert "关键字逐个产生值".encode() in stored  # UTF-8 on disk


def test_big5_and_bom_and_wrong_header() -> None:
    big5 = "繁體中文測試頁面，這是一段使用傳統編碼的文字，用來確認偵測是否正確無誤。".encode("big5")
    assert "繁體中文測試頁面" in extract_bytes(big5, media_type="text/plain; charset=big5").text
    assert "偵測是否正確" in extract_bytes(big5, media_type="text/plain").text
    utf16 = codecs.BOM_UTF16_LE + "带 BOM 的文本".encode("utf-16-le")
    assert extract_bytes(utf16, filename="a.txt").text == "带 BOM 的文本"
    # a header that lies (latin-1) loses to the BOM
    assert extract_bytes(codecs.BOM_UTF8 + "中文".encode(), media_type="text/plain; charset=iso-8859-1").text == "中文"


def test_html_keeps_headings_title_author_date() -> None:
    html = b"""<html><head><title>Gen guide</title><meta name="author" content="Jane Doe">
    <meta name="date" content="2024-05-01"></head><body><article><h1>Generators in Python</h1>
    <p>A generator function uses the yield keyword to produce values lazily, one at a time, on demand.</p>
    <h2>Details</h2><p>Second paragraph explaining send() and close() on generator objects in detail.</p>
    </article></body></html>"""
    doc = extract_bytes(html, media_type="text/html")
    assert "# Generators in Python" in doc.text and "## Details" in doc.text
    assert doc.author == "Jane Doe" and doc.date == "2024-05-01"
    assert doc.title


def test_tiny_page_falls_back_to_visible_text() -> None:
    doc = extract_bytes(b"<html><body><p>hi</p></body></html>", media_type="text/html")
    assert doc.text == "hi"
    script = b"<html><head><script>var secret=1;</script></head><body><p>only this</p></body></html>"
    assert "secret" not in extract_bytes(script, media_type="text/html").text


def test_content_is_sniffed_over_declared_type() -> None:
    pdf = make_pdf(["mislabelled pdf page"])
    doc = extract_bytes(pdf, media_type="text/html", url="http://127.0.0.1/x.html")
    assert doc.media_type == "application/pdf" and "mislabelled pdf page" in doc.text
    html = b"<!DOCTYPE html><html><body><p>served as plain text but it is HTML</p></body></html>"
    assert extract_bytes(html, media_type="text/plain").media_type == "text/html"
    with pytest.raises(SourceError, match="unsupported"):
        extract_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00", media_type="image/png", url="http://127.0.0.1/i.png")


def test_pdf_page_markers_and_caps() -> None:
    pdf = make_pdf(["alpha page text", "beta page text", "gamma page text"])
    doc = extract_bytes(pdf, filename="doc.pdf")
    assert doc.text.index("[page 1]") < doc.text.index("alpha") < doc.text.index("[page 2]") < doc.text.index("beta")
    assert "[page 3]\ngamma page text" in doc.text
    capped = extract_bytes(pdf, filename="doc.pdf", max_pages=2)
    assert "[page 2]" in capped.text and "gamma" not in capped.text
    assert len(extract_bytes(("word " * 1000).encode(), filename="a.txt", max_chars=100).text) <= 100


@pytest.mark.parametrize(
    ("data", "pattern"),
    [
        (make_pdf(["secret"], encrypt="hunter2"), "encrypted"),
        (make_pdf(["x"])[:200], "corrupt"),
        (b"%PDF-1.4\n garbage garbage", "corrupt"),
        (b"", "empty"),
        (b"   \n\t ", "empty"),
        (make_pdf([""]), "no extractable text"),
    ],
)
def test_bad_documents_raise_clear_errors_naming_the_source(data: bytes, pattern: str) -> None:
    with pytest.raises(SourceError, match=pattern) as info:
        extract_bytes(data, filename="report.pdf")
    assert "report.pdf" in str(info.value)


def test_inline_code_wrapped_in_the_source_stays_inside_its_sentence() -> None:
    """A manual's HTML wraps lines inside <code>; the sentence around it must stay one sentence,
    while code in <pre> keeps its lines."""
    html = (
        "<html><head><title>Hostname resolution</title></head><body><article><h1>Hostname resolution</h1>"
        '<p>The "<code class="literal">hosts: files\ndns</code>" stanza in the nsswitch file stipulates '
        "the hostname resolution order on every Debian system.</p>"
        "<p>The resolver then asks the name servers listed in the resolver configuration file.</p>"
        '<pre class="screen">127.0.0.1 localhost\n127.0.1.1 myhost</pre></article></body></html>'
    )
    doc = extract_bytes(html.encode(), media_type="text/html", url="http://127.0.0.1/hosts")
    flat = " ".join(doc.text.split())
    assert 'hosts: files dns`" stanza in the nsswitch file stipulates the hostname resolution order' in flat
    assert "127.0.0.1 localhost\n127.0.1.1 myhost" in doc.text
