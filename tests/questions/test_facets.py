"""Rounds asked per facet: coverage of named facets, the facet field, facet-aware dedup, off-topic drops."""

from __future__ import annotations

import asyncio
import json

import pytest

from autodidact.llm.runtime import Runtime
from autodidact.questions.generate import generate_questions, select_questions
from autodidact.questions.models import Candidate, HistoryItem, QuestionerInputs, RawDigest, RoundQuestions
from autodidact.questions.similarity import THRESHOLD, similarity
from autodidact.text.topic import decompose

DEBIAN_EN = "How does Debian package management work: dpkg vs apt, version pinning, and system upgrades?"
DEBIAN_ZH = "Debian 软件包管理是如何工作的：dpkg 与 apt 的关系、版本固定和系统升级"
TOPICS = [
    (DEBIAN_EN, "en"),
    (DEBIAN_ZH, "zh"),
    ("How do Python generators and coroutines work?", "en"),
    ("Python 的生成器和协程是如何工作的？", "zh"),
    ("Compare PostgreSQL and SQLite for embedded analytics", "en"),
    ("What is Rust's borrow checker and why does it reject some programs?", "en"),
    ("机器学习中的过拟合是什么？如何避免？", "zh"),
    ("Debian: sources.list, version pinning, system upgrades, dpkg triggers, apt-cache, unattended-upgrades", "en"),
]


def gen(inputs: QuestionerInputs) -> RoundQuestions:
    return asyncio.run(generate_questions(inputs, Runtime()))


def run_rounds(topic: str, lang: str, rounds: int, **round_two: object) -> list[RoundQuestions]:
    history: list[HistoryItem] = []
    out = []
    for n in range(1, rounds + 1):
        extra = round_two if n == 2 else {}
        rq = gen(QuestionerInputs(topic=topic, round=n, language=lang, history=history, **extra))  # type: ignore[arg-type]
        out.append(rq)
        history += [HistoryItem(id=q.id, text=q.text) for q in rq.questions]
    return out


@pytest.mark.parametrize(("topic", "lang"), TOPICS)
def test_every_named_facet_is_asked_within_two_rounds(topic: str, lang: str) -> None:
    # round 2 has a full audit list competing for the slots
    directions = [f"Explain [[{decompose(topic).subject} detail {i}]]" for i in range(8)]
    rounds = run_rounds(topic, lang, 2, directions=directions)
    asked = {q.facet for rq in rounds for q in rq.questions}
    assert {f.name for f in decompose(topic, lang).facets} <= asked
    for rq in rounds:
        assert 5 <= len(rq.questions) <= 10


@pytest.mark.parametrize(("topic", "lang"), TOPICS)
def test_no_round_pastes_the_whole_topic(topic: str, lang: str) -> None:
    whole = " ".join(topic.split()).rstrip("?？.。!！ ")
    for rq in run_rounds(topic, lang, 3):
        assert not any(whole in q.text for q in rq.questions)


def test_cold_start_keeps_seed_order_and_tags_every_question() -> None:
    rq = gen(QuestionerInputs(topic=DEBIAN_EN, round=1, language="en"))
    assert [q.priority for q in rq.questions] == sorted(
        (q.priority for q in rq.questions), key=["high", "medium"].index
    )
    assert rq.questions[0].text == "What is the definition of Debian package management?"
    first_per_facet = {}
    for q in rq.questions:
        first_per_facet.setdefault(q.facet, q.layer)
    assert all(layer.startswith("L1") for layer in first_per_facet.values())
    assert [q.facet for q in rq.questions[:4]] == [None, "dpkg vs apt", "version pinning", "system upgrades"]


def test_later_rounds_ask_facets_not_asked_before_deepening_others() -> None:
    history = [
        HistoryItem(id="r1q1", text="What is the definition of Debian package management?"),
        HistoryItem(id="r1q2", text="What are the differences between dpkg and apt?"),
        HistoryItem(id="r1q3", text="What is the role of dpkg in Debian package management?"),
    ]
    rq = gen(QuestionerInputs(topic=DEBIAN_EN, round=2, language="en", history=history))
    facets = [q.facet for q in rq.questions]
    assert facets[:2] == ["version pinning", "system upgrades"]
    assert all(q.priority == "high" for q in rq.questions[:2])
    assert "not asked before" in rq.questions[0].rationale
    # a facet recorded in the history counts as asked even when its words are elsewhere
    tagged = [*history, HistoryItem(id="r1q4", text="How are holds set?", facet="version pinning")]
    again = gen(QuestionerInputs(topic=DEBIAN_EN, round=2, language="en", history=tagged))
    assert again.questions[0].facet == "system upgrades" and again.questions[1].priority != "high"


def test_questions_about_different_facets_are_not_duplicates() -> None:
    dpkg = "What is the role of dpkg in Debian package management?"
    apt = "What is the role of apt in Debian package management?"
    assert similarity(dpkg, apt) >= THRESHOLD  # alike in wording ...
    rq = gen(QuestionerInputs(topic=DEBIAN_EN, round=1, language="en"))
    texts = [q.text for q in rq.questions]
    assert dpkg in texts and apt in texts  # ... yet both asked
    # against history too, and overlap agrees with dedup
    history = [HistoryItem(id="r1q1", text=dpkg)]
    cand = Candidate(text=apt, layer="L1-definition", priority="medium", source="audit", rationale="x")
    same = Candidate(text=dpkg, layer="L1-definition", priority="medium", source="audit", rationale="x")
    inputs = QuestionerInputs(topic=DEBIAN_EN, round=2, language="en", history=history, min_questions=1)
    picked = select_questions(inputs, [cand, same])
    assert [q.text for q in picked.questions] == [apt]
    assert [d.text for d in picked.deduped_questions] == [dpkg]
    assert picked.overlap_ratio == 0.0


def test_off_topic_concepts_from_raw_files_and_audit_gaps_are_dropped() -> None:
    raw = RawDigest(
        filename="2026-01-01_auth.md",
        title="Chapter 4. Authentication",
        body="## Name Service Switch\n`nsswitch.conf` maps **PAM** … and **apt-pinning**",
    )
    inputs = QuestionerInputs(
        topic=DEBIAN_EN,
        round=4,
        language="en",
        gaps=["[[Name Service Switch]] is mentioned but not explained", "[[Pin-Priority]] has no article"],
        directions=["Explain [[unattended-upgrades]]", "Explain [[Data management]]"],
        new_raw_files=[raw],
    )
    rq = gen(inputs)
    texts = [q.text for q in rq.questions]
    assert not any("Name Service Switch" in t or "nsswitch" in t or "PAM" in t for t in texts)
    assert "What is Name Service Switch?" in rq.off_topic_questions
    assert "What is Data management?" in rq.off_topic_questions  # generic words do not make it on topic
    assert "What is unattended-upgrades?" in texts and "What is Pin-Priority?" in texts
    by_text = {q.text: q.facet for q in rq.questions}
    assert by_text["What is Pin-Priority?"] == "version pinning"
    assert by_text["What is unattended-upgrades?"] == "system upgrades"


def test_a_user_question_brings_its_terms_on_topic() -> None:
    inputs = QuestionerInputs(
        topic=DEBIAN_EN,
        round=2,
        language="en",
        user_questions=["Does debconf ask questions during upgrades?"],
        gaps=["[[debconf]] is mentioned but not explained"],
    )
    rq = gen(inputs)
    assert "What is debconf?" in [q.text for q in rq.questions]
    assert rq.questions[0].source == "user" and rq.questions[0].facet == "system upgrades"


def test_chinese_off_topic_concept_is_dropped() -> None:
    inputs = QuestionerInputs(
        topic=DEBIAN_ZH,
        round=3,
        language="zh",
        gaps=["[[名称服务切换]] 被提及但没有解释", "[[软件包签名]] 没有条目"],
    )
    rq = gen(inputs)
    assert "名称服务切换是什么？" in rq.off_topic_questions
    assert "软件包签名是什么？" in [q.text for q in rq.questions]


def test_facet_field_round_trips_and_old_files_still_load() -> None:
    rq = gen(QuestionerInputs(topic=DEBIAN_ZH, round=1, language="zh"))
    data = json.loads(rq.model_dump_json())
    assert {q["facet"] for q in data["questions"]} == {None, "dpkg 与 apt 的关系", "版本固定", "系统升级"}
    assert RoundQuestions.model_validate(data) == rq
    old = {
        "questions": [
            {
                "id": "r1q1",
                "text": "什么是 dpkg？",
                "layer": "L1-定义",
                "priority": "high",
                "source": "framework",
                "depends_on": [],
                "rationale": "x",
            }
        ],
        "overlap_ratio": None,
        "deduped_questions": [],
        "incorporated_user_questions": [],
    }
    loaded = RoundQuestions.model_validate(old)
    assert loaded.questions[0].facet is None and loaded.off_topic_questions == []


def test_appended_topic_gets_its_own_facets() -> None:
    inputs = QuestionerInputs(
        topic="How do Python generators work?",
        round=3,
        language="en",
        extension_topics=["Python asyncio: event loop and cancellation"],
        history=[HistoryItem(id="r1q1", text="What is the definition of Python generators?")],
    )
    rq = gen(inputs)
    facets = {q.facet for q in rq.questions}
    assert {"event loop", "cancellation"} <= facets
    assert "What is the definition of event loop in Python asyncio?" in [q.text for q in rq.questions]


def test_a_topic_of_common_words_still_gets_its_questions() -> None:
    rq = gen(QuestionerInputs(topic="Data management", round=1, language="en", gaps=["[[Name Service Switch]] x"]))
    assert len(rq.questions) == 5 and rq.questions[0].text == "What is the definition of Data management?"
    assert rq.off_topic_questions == ["What is Name Service Switch?"]
    zh = gen(QuestionerInputs(topic="数据管理", round=1, language="zh"))
    assert zh.questions[0].text == "数据管理的定义是什么？"


def test_a_bare_pronoun_item_takes_what_the_item_before_acted_on() -> None:
    # "starting it" asked as "How do I start it?" found nothing: "it" is the thread of the item before
    frame = decompose("How do I use widgets: giving a widget its data, drawing it, and resizing the window?")
    names = [f.name for f in frame.facets]
    assert "drawing a widget" in names and not any(n.endswith(" it") for n in names)
