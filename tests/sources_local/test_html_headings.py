"""HTML h1–h3 survive extraction as markdown headings, so sections derive from the snapshot text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from autodidact.sources.extract import extract_bytes, refill_dropped_lines
from autodidact.sources.htmltext import parse_html
from autodidact.testing.corpora import write_pydoc_corpus
from autodidact.text.sections import headings, split_sections

DEBIAN = Path("/usr/share/debian-reference")
PARA = "This paragraph explains {what} in enough words that an extractor keeps it as main content. " * 2


def _section(n: int, title: str, extra: str = "") -> str:
    # DocBook's shape: the heading sits alone in nested titlepage divs (trafilatura drops those)
    return (
        f'<div class="section"><div class="titlepage"><div><div><h2 class="title"><a id="s{n}"/>{title}</h2>'
        f"</div></div></div><p>{PARA.format(what=title.lower())}</p>{extra}</div>"
    )


def _docbook_page() -> bytes:
    warning = '<div class="warning"><p>Use of pinning by a novice user is sure call for major troubles.</p></div>'
    shell = "<pre># apt-get update\n# apt-get dist-upgrade\n# cd /usr/share/doc</pre>"
    body = "".join(
        [
            _section(1, "2.1. Package configuration", warning),
            _section(2, "2.2. Basic operations", shell),
            _section(3, "2.3. Tweaking candidate version", warning),
            _section(4, "2.4. Updates and backports"),
        ]
    )
    html = (
        "<html><head><title>Chapter 2. Package management</title></head><body>"
        '<div class="chapter"><div class="titlepage"><div><div><h1 class="title">Chapter 2. Package management</h1>'
        f"</div></div></div><p>{PARA.format(what='the chapter')}</p>{body}</div></body></html>"
    )
    return html.encode()


def test_nested_docbook_headings_come_back_in_order_before_their_text() -> None:
    doc = extract_bytes(_docbook_page(), media_type="text/html", url="https://example.org/ch02.html")
    titles = [
        "Chapter 2. Package management",
        "2.1. Package configuration",
        "2.2. Basic operations",
        "2.3. Tweaking candidate version",
        "2.4. Updates and backports",
    ]
    # trafilatura may drop a section's text as boilerplate (it drops the last one here); a heading
    # comes back exactly when its text is in the extraction
    kept = [t for t in titles[1:] if f"explains {t.lower()}" in doc.text]
    assert len(kept) >= 3
    assert [(h.level, h.title) for h in headings(doc.text)] == [(1, titles[0])] + [(2, t) for t in kept]
    sections = {s.title: s.text_of(doc.text) for s in split_sections(doc.text, doc.title or "")}
    for title in kept:
        assert f"explains {title.lower()}" in sections[title]
    assert "explains 2.2. basic operations" not in sections["2.3. Tweaking candidate version"]


def test_shell_prompt_lines_are_escaped_not_headings() -> None:
    doc = extract_bytes(_docbook_page(), media_type="text/html", url="https://example.org/ch02.html")
    assert "apt-get dist-upgrade" in doc.text
    assert not re.search(r"^# (apt-get|cd) ", doc.text, re.M)
    assert all("apt-get" not in h.title for h in headings(doc.text))


def test_plain_article_headings_are_kept_once() -> None:
    html = (
        "<html><head><title>Generators</title></head><body><article><h1>Generators</h1>"
        f"<p>{PARA.format(what='generators')}</p><h2>Lazy evaluation</h2><p>{PARA.format(what='laziness')}</p>"
        f"<h3>Pitfalls</h3><p>{PARA.format(what='pitfalls')}</p></article></body></html>"
    )
    doc = extract_bytes(html.encode(), media_type="text/html", url="https://example.org/gen")
    assert [h.title for h in headings(doc.text)] == ["Generators", "Lazy evaluation", "Pitfalls"]
    assert doc.text.count("Lazy evaluation") == 1


def _debian_pairs() -> list[Path]:
    return [DEBIAN / f"ch02.{lang}.html" for lang in ("en", "zh-cn") if (DEBIAN / f"ch02.{lang}.html").is_file()]


@pytest.mark.skipif(not _debian_pairs(), reason="debian-reference is not installed")
@pytest.mark.parametrize("path", _debian_pairs(), ids=lambda p: p.name)
def test_debian_chapter_keeps_every_h1_to_h3_in_page_order(path: Path) -> None:
    data = path.read_bytes()
    doc = extract_bytes(data, media_type="text/html", filename=path.name)
    page = [" ".join(h.title.split()) for h in parse_html(data.decode("utf-8"))[2] if h.level <= 3]
    found = [h.title for h in headings(doc.text)]
    assert found == page and len(page) > 60
    sections = split_sections(doc.text, doc.title or "")
    assert len(sections) > 30
    # no section holds more than an eighth of the chapter (its longest is one big package table)
    assert max(s.end - s.start for s in sections) < len(doc.text) / 8


@pytest.mark.skipif(not (DEBIAN / "ch02.en.html").is_file(), reason="debian-reference is not installed")
def test_debian_tweaking_candidate_version_is_a_section_with_its_own_text() -> None:
    path = DEBIAN / "ch02.en.html"
    doc = extract_bytes(path.read_bytes(), media_type="text/html", filename=path.name)
    assert "### 2.7.3. Tweaking candidate version" in doc.text
    sections = {s.title: s for s in split_sections(doc.text, doc.title or "")}
    pinning = sections["2.7.3. Tweaking candidate version"].text_of(doc.text)
    assert "apt-cache policy" in pinning and "Pin-Priority" in pinning
    assert "2.7.4." not in pinning


def test_pydoc_corpus_sections_are_titled_by_the_topic(tmp_path: Path) -> None:
    files = write_pydoc_corpus(tmp_path)
    for path in files:
        doc = extract_bytes(path.read_bytes(), filename=path.name)
        sections = split_sections(doc.text, doc.title or "")
        first_line = path.read_text("utf-8").split("\n", 1)[0].removeprefix("# ").strip()
        assert sections[0].title.startswith(first_line.replace("**", "").replace("`", "")[:20].strip()), path.name
        assert all(s.end - s.start <= 6000 for s in sections)


def test_a_paragraph_with_one_long_link_still_anchors_its_heading() -> None:
    """A section opening with a short paragraph most of whose words are one link is not a table of
    contents: its heading goes before it, not after it (the manual's 5.1.1 lost its first sentence)."""
    link = '<a class="ulink" href="https://example.org/nss">NSS (the Name Service Switch of glibc)</a>'
    intro = f"<p>Resolution uses the {link} mechanism.</p>"
    body = _section(1, "5.1. Basic network", "") + (
        '<div class="section"><div class="titlepage"><div><div><h3 class="title">5.1.1. Hostname resolution</h3>'
        f"</div></div></div>{intro}<p>{PARA.format(what='the order of lookups')}</p></div>"
    )
    html = f"<html><head><title>Chapter 5. Network</title></head><body><div class='chapter'>{body}</div></body></html>"
    doc = extract_bytes(html.encode(), media_type="text/html", filename="ch05.html")
    sections = {s.title: s.text_of(doc.text) for s in split_sections(doc.text, doc.title or "")}
    own = next(text for title, text in sections.items() if title.endswith("Hostname resolution"))
    assert "Resolution uses the NSS" in own


def test_a_section_the_extractor_emptied_gets_the_pages_own_text_back() -> None:
    """trafilatura kept "9.4.13. 单次任务时间安排" of the Chinese manual and dropped its only sentence
    and example; the English page kept both. No section the page gives text to is written empty."""
    page = DEBIAN / "ch09.zh-cn.html"
    if not page.is_file():
        pytest.skip("debian-reference-zh-cn is not installed")
    text = extract_bytes(page.read_bytes(), media_type="text/html", url=page.as_uri()).text
    start = text.index("9.4.13. 单次任务时间安排")
    body = text[start : text.index("\n#", start)]
    assert "运行 at(1) 命令来安排一次性的工作" in body and "at 3:40 monday" in body, body


def test_lines_the_extractor_dropped_come_back_where_they_stood() -> None:
    """The plain parser's lines that the extracted text lacks go after the last line before them
    that it holds; the page's contents list (before the first line found) and a line said elsewhere
    on the page stay out, and nothing is put back twice."""
    fallback = "\n".join([
        "Table of Contents of this long manual page",
        "Use one of the following ways to get a backtrace:",
        "Crash it inside GDB:",
        "Raise the core size limit with ulimit -c unlimited first.",
        "Load the core dump file into the debugger afterwards.",
        "For an endless loop press Ctrl-C to stop the program.",
        "Use one of the following ways to get a backtrace:",
    ])  # fmt: skip
    text = (
        "Use one of the following ways to get a backtrace:\n\n- Crash it inside GDB:\n\n"
        "For an endless loop press Ctrl-C to stop the program.\n"
    )
    out = refill_dropped_lines(text, fallback)
    assert "Table of Contents" not in out
    assert out.count("Use one of the following ways") == 1
    limit = out.index("ulimit -c unlimited")
    assert out.index("Crash it inside GDB") < limit < out.index("Load the core dump") < out.index("endless loop")
    assert refill_dropped_lines(out, fallback) == out  # a second pass finds nothing lost


def test_debian_core_dump_steps_survive_extraction() -> None:
    """trafilatura dropped a nested list holding a <pre> block from the Chinese manual's "获得栈帧":
    the steps to make a crashing program leave a core dump were gone from the snapshot."""
    page = DEBIAN / "ch12.zh-cn.html"
    if not page.is_file():
        pytest.skip("debian-reference-zh-cn is not installed")
    text = extract_bytes(page.read_bytes(), media_type="text/html", url=page.as_uri()).text
    section = text[text.index("12.5.3. 获得栈帧") : text.index("12.5.4.")]
    assert 'ulimit -c unlimited"。' in section and "崩溃的程序产生一个 core dump" in section
    assert text.count('shell 提示符下输入 "ulimit -c unlimited"') == 1
