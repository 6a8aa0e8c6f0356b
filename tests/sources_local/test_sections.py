"""Sections of a document (autodidact.text.sections): headings, PDF pages, sizes, quotes."""

from __future__ import annotations

import itertools

import pytest

from autodidact.sources.extract import extract_bytes
from autodidact.testing.corpora import make_pdf
from autodidact.text.sections import (
    QuoteLocator,
    Section,
    headings,
    label,
    section_at,
    split_sections,
)

BODY = "Body text that explains the subject of this section in a full sentence or two. " * 3


def _covers(text: str, sections: list[Section]) -> None:
    """Sections tile the text: first at 0, last at the end, each starting where the previous ended."""
    assert sections[0].start == 0 and sections[-1].end == len(text)
    assert all(a.end == b.start for a, b in itertools.pairwise(sections))


def test_markdown_headings_make_sections_that_tile_the_text() -> None:
    text = f"# Guide\n\nIntro. {BODY}\n\n## Install\n\n{BODY}\n\n### Options\n\n{BODY}\n\n## Use\n\n{BODY}\n"
    sections = split_sections(text, "Guide")
    _covers(text, sections)
    assert [(s.title, s.level) for s in sections] == [("Guide", 1), ("Install", 2), ("Options", 3), ("Use", 2)]
    install = sections[1]
    assert install.text_of(text).startswith("## Install") and "### Options" not in install.text_of(text)
    assert section_at(sections, text.index("### Options") + 5).title == "Options"


def test_chinese_headings() -> None:
    body = "软件包管理系统负责安装、升级和删除软件包，并检查依赖关系。" * 4
    text = f"# 第 2 章 Debian 软件包管理\n\n{body}\n\n## 2.7.3. 调整候选版本\n\n{body}\n"
    sections = split_sections(text, "第 2 章 Debian 软件包管理")
    assert [s.title for s in sections] == ["第 2 章 Debian 软件包管理", "2.7.3. 调整候选版本"]
    _covers(text, sections)


def test_hash_lines_in_code_and_shell_sessions_are_not_headings() -> None:
    text = (
        f"# Title\n\n{BODY}\n\n"
        "```\n# a comment in fenced code\nx = 1\n```\n\n"
        "Run these as root.\n\n"
        "\\# apt-get update\n# apt-get dist-upgrade\n# apt-get install fakeroot\n\n"
        "# cd /usr/share/doc\n\n"
        "# sort ls1.txt | uniq | less\n\n"
        "    # indented code comment\n\n"
        f"## Real heading\n\n{BODY}\n"
    )
    titles = [h.title for h in headings(text)]
    assert titles == ["Title", "Real heading"]


def test_unclosed_fence_does_not_hide_the_headings_after_it() -> None:
    text = f"# A\n\n{BODY}\n\nsee “\n```\n”.\n\n## B\n\n{BODY}\n\n## C\n\n{BODY}\n"
    assert [h.title for h in headings(text)] == ["A", "B", "C"]


def test_heading_text_keeps_its_words_and_drops_markup() -> None:
    text = f'# *__class_getitem__* versus **`__getitem__`**\n\n{BODY}\n\n## "except" clause\n\n{BODY}'
    assert [h.title for h in headings(text)] == ["*__class_getitem__* versus __getitem__", '"except" clause']


def test_no_headings_is_one_section_titled_by_the_document() -> None:
    text = "Just a paragraph.\n\nAnd another one."
    assert split_sections(text, "Notes") == [Section("Notes", 0, 0, len(text))]


def test_heading_without_body_is_merged_with_the_next_section() -> None:
    text = f"# Doc\n\n{BODY}\n\n## 2.7. Tips\n\n### 2.7.1. How to pick packages\n\n{BODY}\n"
    sections = split_sections(text, "Doc")
    assert [s.title for s in sections] == ["Doc", "2.7.1. How to pick packages"]
    assert sections[1].text_of(text).startswith("## 2.7. Tips")


def test_long_section_is_cut_at_paragraphs_into_numbered_parts() -> None:
    paragraphs = "\n\n".join(f"Paragraph {i}. {BODY}" for i in range(40))
    text = f"# Long\n\n{paragraphs}\n"
    sections = split_sections(text, "Long", max_chars=2000)
    _covers(text, sections)
    n = len(sections)
    assert n >= len(text) // 2000
    assert [s.title for s in sections] == [f"Long ({k}/{n})" for k in range(1, n + 1)]
    assert all(s.end - s.start <= 2000 for s in sections)
    assert all(text[s.start :].startswith("Paragraph") for s in sections[1:])  # cut at paragraph starts


def test_pdf_pages_are_sections() -> None:
    pages = [f"Page {i} talks about topic number {i} at some length." for i in range(1, 4)]
    text = extract_bytes(make_pdf(pages), filename="doc.pdf").text
    per_page = split_sections(text, "doc", min_chars=1)
    assert [s.title for s in per_page] == ["page 1", "page 2", "page 3"]
    assert "topic number 2" in per_page[1].text_of(text)
    merged = split_sections(text, "doc")  # pages this short are merged
    assert [s.title for s in merged] == ["pages 1–3"]
    _covers(text, merged)


def test_chinese_pdf_pages_are_titled_in_chinese() -> None:
    text = "[page 1]\n" + "第一页的内容。" * 30 + "\n\n[page 2]\n" + "第二页的内容。" * 30
    assert [s.title for s in split_sections(text, "文档")] == ["第 1 页", "第 2 页"]


def test_quote_locator_uses_the_quote_matching_rule() -> None:
    text = "First line of text.\n\nThe default   Pin-Priority\nvalue is 500, while others differ."
    found = QuoteLocator(text).find("default Pin-Priority value is 500")
    assert found is not None
    assert text[found[0] : found[1]] == "default   Pin-Priority\nvalue is 500"
    assert QuoteLocator(text).find("not there") is None
    assert QuoteLocator(text).find("   ") is None


@pytest.mark.parametrize(
    ("doc", "section", "expected"),
    [
        ("Chapter 2", "2.7.3. Tweaking", "Chapter 2 › 2.7.3. Tweaking"),
        ("Chapter 2", "Chapter 2", "Chapter 2"),
        ("Chapter 2", "", "Chapter 2"),
        ("", "Intro", "Intro"),
    ],
)
def test_label(doc: str, section: str, expected: str) -> None:
    assert label(doc, section) == expected
