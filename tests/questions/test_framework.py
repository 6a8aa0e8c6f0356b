"""Topic types, subjects and the framework templates in both languages."""

from __future__ import annotations

import pytest

from autodidact.questions.framework import detect_topic_type, framework_questions, subject_of, subject_parts


@pytest.mark.parametrize(
    ("topic", "kind", "sure"),
    [
        ("什么是期权波动率曲面", "概念理解", True),
        ("分布式数据库的技术方案与架构", "技术研究", True),
        ("国内新能源汽车市场规模和竞争格局调研", "行业调研", True),
        ("面向独立开发者的创业机会和用户痛点", "创业方案", True),
        ("How do Python generators and coroutines work?", "概念理解", True),
        ("Vector database implementation techniques", "技术研究", True),
        ("Electric vehicle market size and competition", "行业调研", True),
        ("Startup opportunity: pain points of solo founders", "创业方案", True),
        ("期权策略", "概念理解", False),
        ("Rust lifetimes", "概念理解", False),
    ],
)
def test_topic_type(topic: str, kind: str, sure: bool) -> None:
    assert detect_topic_type(topic) == (kind, sure)


def test_subject_extraction_and_compound_parts() -> None:
    assert subject_of("How do Python generators and coroutines work?") == "Python generators and coroutines"
    assert subject_parts("Python generators and coroutines") == ["Python generators", "Python coroutines"]
    assert subject_of("Debian 软件包管理是如何工作的？") == "Debian 软件包管理"
    assert subject_parts("Python 生成器和协程") == ["Python 生成器", "Python 协程"]
    assert subject_of("What is a monad?") == "monad"


def test_templates_cover_every_type_and_language() -> None:
    for kind in ("概念理解", "技术研究", "行业调研", "创业方案"):
        zh = framework_questions("期权", "zh", kind, (1, 2, 3, 4))  # type: ignore[arg-type]
        en = framework_questions("options", "en", kind, (1, 2, 3, 4))  # type: ignore[arg-type]
        assert {q.level for q in zh} == {1, 2, 3, 4} == {q.level for q in en}
        assert all("期权" in q.text and q.layer.startswith("L") for q in zh)
        assert all("options" in q.text for q in en)
        assert all(q.text.endswith("？") for q in zh) and all(q.text.endswith("?") for q in en)


def test_compound_subject_gets_a_definition_per_part() -> None:
    qs = framework_questions("How do Python generators and coroutines work?", "en", "概念理解", (1,))
    texts = [q.text for q in qs]
    assert "What is the definition of Python generators?" in texts
    assert "What is the definition of Python coroutines?" in texts
