"""Audit findings and directions become searchable questions (seed 000, docs/seeds.md source A)."""

from __future__ import annotations

import pytest

from autodidact.questions.candidates import audit_question, concept_of, offline_candidates
from autodidact.questions.models import QuestionerInputs


@pytest.mark.parametrize(
    ("item", "lang", "expected"),
    [
        ("What is send(), and how does it relate to Generators?", "en", "What is send()?"),
        ("yield 表达式 是什么？它与生成器有什么关系？", "zh", "yield 表达式是什么？"),
        ("What are generator variants? (missing: variants, kinds)", "en", "What are generator variants?"),
        ("生成器有哪些变体？（尚缺：变体）", "zh", "生成器有哪些变体？"),
        ("Find a source for “lazy generators”", "en", "What do authoritative sources say about lazy generators?"),
        ("为「波动率曲面」补充来源", "zh", "波动率曲面有哪些权威来源？"),
        ("[[GIL]] 与 asyncio 的说法矛盾", "zh", "关于GIL，哪种说法正确？"),
        ("Explain [[await]]", "en", "What is await?"),
        ("Which is right, 3.5 or 3.7?", "en", "Which is right, 3.5 or 3.7?"),
        ("无", "zh", None),
    ],
)
def test_directions_become_questions(item: str, lang: str, expected: str | None) -> None:
    assert audit_question(item, lang) == expected


def test_findings_without_a_marked_concept_are_left_to_the_directions() -> None:
    assert audit_question("missing subtopic: limitations (framework L3)", "en", concept_only=True) is None
    assert audit_question("term “coroutine” is used in 3 articles", "en", concept_only=True) == "What is coroutine?"
    assert concept_of("概念 「事件循环」 被引用") == "事件循环"


def test_the_whole_topic_pasted_into_a_direction_is_replaced_by_its_subject() -> None:
    inputs = QuestionerInputs(
        topic="How do Python generators work?",
        round=2,
        directions=["What problem does How do Python generators work solve, and what are its limitations?"],
    )
    audit = [c for c in offline_candidates(inputs) if c.source == "audit"]
    assert audit[0].text == "What problem does Python generators solve, and what are its limitations?"
    assert audit[0].priority == "high"
