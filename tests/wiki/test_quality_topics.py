"""Article titles and directions: a question's frame is not its subject, the research topic is not an article.

On real pydoc text (the demo's sources) and small hand-written passages; each test pins a defect
seen in the demo wiki of "How do Python generators and coroutines work?".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from autodidact.kb import KnowledgeBase
from autodidact.store import atomic
from autodidact.wiki.audit.framework_gaps import missing_aspects, topic_subject
from autodidact.wiki.common.articles import load_wiki
from autodidact.wiki.common.topics import question_subject
from autodidact.wiki.compile.compiler import compile_wiki

from .conftest import QUESTIONS, SUBJECT, TOPIC, add_pydoc, snapshot, write_demo_kb


@pytest.mark.parametrize(
    "question",
    [
        f"What problem does {SUBJECT} solve, and what are its limitations?",
        f"What problems are solved by {SUBJECT}?",
        f"What are the main variants of {SUBJECT}?",
        f"What are the core components and the working mechanism of {SUBJECT}?",
        f"What does a typical example of {SUBJECT} look like?",
        f"What distinguishes {SUBJECT} from closely related concepts?",
        f"When should {SUBJECT} be used, and how does it compare with alternatives?",
        f"In which scenarios is {SUBJECT} the right choice?",
        f"How do alternative approaches compare with {SUBJECT}?",
        f"What are the core components of {SUBJECT}, and how does it work?",
        f"How do {SUBJECT} work?",
        f"What is the definition of {SUBJECT}?",
    ],
)
def test_english_question_frames_reduce_to_the_subject(question: str) -> None:
    assert question_subject(question) == SUBJECT


@pytest.mark.parametrize(
    "question",
    [
        "Python 生成器是什么？",
        "什么是Python 生成器？",
        "Python 生成器的原理",
        "Python 生成器的定义是什么？",
        "Python 生成器与相近概念有何区别？",
        "Python 生成器的核心组成部分和工作原理是什么？",
        "Python 生成器有哪些主要变体？",
        "Python 生成器的典型示例是怎样的？",
        "Python 生成器解决了什么问题？",
        "Python 生成器有哪些局限性？",
        "什么场景下适合使用Python 生成器？",
        "Python 生成器与替代方案相比如何？",
        "Python 生成器是如何工作的？",
    ],
)
def test_chinese_question_frames_reduce_to_the_subject(question: str) -> None:
    assert question_subject(question) == "Python 生成器"


def test_a_question_topic_is_reduced_to_its_subject_in_directions() -> None:
    assert topic_subject(TOPIC) == SUBJECT
    directions = [d for _, _, d in missing_aspects(TOPIC, "", zh=False)]
    assert len(directions) == 4
    for direction in directions:
        assert SUBJECT in direction and "How do" not in direction and "work," not in direction
    zh = [d for _, _, d in missing_aspects("Python 生成器的原理是什么？", "", zh=True)]
    assert zh and all(d.startswith("Python 生成器") or "Python 生成器" in d for d in zh)
    assert not any("原理是什么的" in d or "？的" in d for d in zh)
    assert "Python 生成器的准确定义是什么？与相近概念有何区别？" in zh  # no space before 的


def test_articles_are_named_after_topics_not_question_fragments(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    write_demo_kb(en_kb, pydoc_dir)
    result = compile_wiki(en_kb, None, None, today="2026-12-02")
    titles = sorted(a.title for a in load_wiki(en_kb.wiki))
    # questions about a part of the topic name their article; questions about the whole topic don't
    assert titles == [
        "Compound statements",
        "Generator functions",
        "Python coroutines",
        "Python generators",
        "finally clause",
    ]
    assert sorted(result.new) == titles
    for title in titles:
        assert not re.search(r"\b(?:problems?|solved?|does|variants)\b", title)
    index = (en_kb.wiki / "INDEX.md").read_text("utf-8")
    assert "[[finally-clause|finally clause]]" in index and "problem-does" not in index
    generators = next(a for a in load_wiki(en_kb.wiki) if a.title == "Python generators")
    assert generators.aliases == ["The yield statement"]  # the raw title, without its quote marks


def test_topic_argument_overrides_the_state_file(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    atomic.write_json(en_kb.rounds / "round_1_questions.json", {"questions": [{"id": "q1", "text": QUESTIONS["r2q3"]}]})
    add_pydoc(en_kb, pydoc_dir, "compound.md", ["q1"])
    compile_wiki(en_kb, None, None, topic=TOPIC)
    assert [a.title for a in load_wiki(en_kb.wiki)] == ["Compound statements"]


def test_without_a_research_topic_the_question_subject_names_the_article(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    atomic.write_json(en_kb.rounds / "round_1_questions.json", {"questions": [{"id": "q1", "text": QUESTIONS["r2q3"]}]})
    add_pydoc(en_kb, pydoc_dir, "compound.md", ["q1"])
    compile_wiki(en_kb, None, None)
    assert [a.title for a in load_wiki(en_kb.wiki)] == [SUBJECT]


def test_compile_is_deterministic_on_the_demo_files(tmp_path: Path, pydoc_dir: Path) -> None:
    from autodidact.kb import init_kb

    outputs = []
    for name in ("a", "b"):
        kb, _ = init_kb(tmp_path / name, topic=TOPIC, lang="en")
        write_demo_kb(kb, pydoc_dir)
        compile_wiki(kb, None, None, today="2026-12-02")
        outputs.append(snapshot(kb.wiki))
    assert outputs[0] == outputs[1] and len(outputs[0]) == 6
