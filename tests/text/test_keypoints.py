"""Key-points questions and section headings (text/keypoints.py, text/sections.py)."""

from __future__ import annotations

import pytest

from autodidact.questions.similarity import best_match, features, is_duplicate
from autodidact.text.keypoints import key_points_heading, key_points_question
from autodidact.text.sections import bare_heading, section_named, split_sections


@pytest.mark.parametrize(
    ("heading", "language"),
    [("Tweaking candidate version", "en"), ('Archive level "Release" files', "en"), ("调整候选版本", "zh")],
)
def test_a_key_points_question_names_its_heading(heading: str, language: str) -> None:
    assert key_points_heading(key_points_question(heading, language)) == heading


def test_other_questions_name_no_heading() -> None:
    assert key_points_heading("What is apt-cache policy?") == ""
    assert key_points_heading("What are the key points?") == ""
    assert key_points_heading("版本固定是什么？") == ""


@pytest.mark.parametrize(
    ("title", "bare"),
    [
        ("2.7.3. Tweaking candidate version", "Tweaking candidate version"),
        ("Chapter 2. Debian package management", "Debian package management"),
        ("第 2 章 Debian 软件包管理", "Debian 软件包管理"),
        ("Reference › 2.4.1. Advanced operations (2/3)", "Advanced operations"),
        ('The "try" statement', 'The "try" statement'),
        ("2024 annual report", "2024 annual report"),
    ],
)
def test_bare_heading_drops_numbering_parts_and_chapter(title: str, bare: str) -> None:
    assert bare_heading(title) == bare


def test_section_named_finds_every_part_of_a_cut_section() -> None:
    body = "\n\n".join(f"Paragraph {i} about pinning and priorities, long enough to count." for i in range(60))
    intro = "Intro text here, long enough to be a section of its own: it says what the chapter covers."
    text = f"# Chapter 2. Packages\n\n{intro}\n\n## 2.7.3. Pinning\n\n{body}\n"
    sections = split_sections(text, "ch02", max_chars=1200)
    parts = section_named(sections, "pinning")
    assert len(parts) >= 2 and all(p.title.startswith("2.7.3. Pinning (") for p in parts)
    assert section_named(sections, "Packages")[0].start == 0
    assert section_named(sections, "Unpinning") == []


def test_key_points_questions_about_different_sections_are_not_duplicates() -> None:
    a = features("What are the key points of “Advanced package management operations with commandline”?")
    b = features("What are the key points of “Basic package management operations”?")
    c = features("What are the key points of “Tweaking candidate version”?")
    assert not is_duplicate(best_match(b, [("a", a)])[1])
    assert not is_duplicate(best_match(c, [("a", a)])[1])
    same = features("What are the key points of “Tweaking candidate version”?")
    assert is_duplicate(best_match(same, [("c", c)])[1])
    assert "#key" in a.intents and "key" not in a.content


def test_the_glossary_gives_english_for_chinese_technical_words() -> None:
    from autodidact.text.glossary import english_of

    assert english_of("版本固定") == ["pinning", "pin", "version"]
    assert english_of("生成器和协程") == ["generator", "coroutine"]
    assert english_of("Debian package management") == []


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_key_points_question_may_name_the_document_of_a_shared_heading(language: str) -> None:
    from autodidact.text.keypoints import key_points_document

    question = key_points_question('Archive level "Release" files', language, "marshal")
    assert key_points_heading(question) == 'Archive level "Release" files'
    assert key_points_document(question) == "marshal"
    assert key_points_document(key_points_question("Description", language)) == ""
