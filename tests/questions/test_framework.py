"""The framework asked per facet: templates in both languages, grammatical for any facet phrase."""

from __future__ import annotations

import re

import pytest

from autodidact.questions.framework import framework_questions
from autodidact.text.topic import TOPIC_TYPES, decompose, detect_topic_type

EXAMPLES = [
    ("How does Debian package management work: dpkg vs apt, version pinning, and system upgrades?", "en"),
    ("How do Python generators and coroutines work?", "en"),
    ("Compare PostgreSQL and SQLite for embedded analytics", "en"),
    ("What is Rust's borrow checker and why does it reject some programs?", "en"),
    ("Python asyncio: event loop, tasks, cancellation, and installing packages", "en"),
    ("Debian 软件包管理是如何工作的：dpkg 与 apt 的关系、版本固定和系统升级", "zh"),
    ("Python 的生成器和协程是如何工作的？", "zh"),
    ("机器学习中的过拟合是什么？如何避免？", "zh"),
    ("比较 PostgreSQL 和 SQLite 在嵌入式分析中的表现", "zh"),
]
ALL_LEVELS = (1, 2, 3, 4)


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


def test_templates_cover_every_type_and_language() -> None:
    for kind in TOPIC_TYPES:
        zh = framework_questions("期权", "zh", kind, ALL_LEVELS)
        en = framework_questions("options", "en", kind, ALL_LEVELS)
        assert {q.level for q in zh} == {1, 2, 3, 4} == {q.level for q in en}
        assert all("期权" in q.text and q.layer.startswith("L") for q in zh)
        assert all("options" in q.text for q in en)
        assert all(q.text.endswith("？") for q in zh) and all(q.text.endswith("?") for q in en)


@pytest.mark.parametrize(("topic", "lang"), EXAMPLES)
def test_no_question_contains_the_whole_topic(topic: str, lang: str) -> None:
    whole = " ".join(topic.split()).rstrip("?？.。!！ ")
    for q in framework_questions(topic, lang, None, ALL_LEVELS):
        assert whole not in q.text, q.text


@pytest.mark.parametrize(("topic", "lang"), EXAMPLES)
def test_every_facet_gets_questions_and_a_first_question(topic: str, lang: str) -> None:
    frame = decompose(topic, lang)
    qs = framework_questions(frame, lang, None, ALL_LEVELS)
    for facet in frame.facets:
        own = [q for q in qs if q.facet == facet.name]
        assert own, facet.name
        assert sum(q.primary for q in own) == 1 and own[0].primary
    assert all(q.facet is None or frame.facet(q.facet) is not None for q in qs)


def _plural(phrase: str) -> bool:
    last = phrase.split()[-1]
    return " and " in phrase or (last.endswith("s") and not last.endswith(("ss", "us", "is")))


@pytest.mark.parametrize(("topic", "lang"), [e for e in EXAMPLES if e[1] == "en"])
def test_english_templates_never_make_a_facet_agree_with_a_verb(topic: str, lang: str) -> None:
    """'In which scenarios is system upgrades …' is wrong; templates keep facets out of agreement."""
    frame = decompose(topic, lang)
    phrases = {f.name for f in frame.facets} | set(frame.candidates) | {frame.subject}
    for q in framework_questions(frame, lang, None, ALL_LEVELS):
        for phrase in phrases:
            p = re.escape(phrase)
            if _plural(phrase):
                assert not re.search(
                    rf"\b(?:is|was|does|has)\s+(?:the\s+)?{p}\b|\b{p}\s+(?:is|was|does|has)\b", q.text
                ), q.text
            else:
                # "How do dpkg and apt relate" is a compound subject, plural and right
                singular_verb = rf"\b(?:are|were|do)\s+(?:the\s+)?{p}\b(?!\s+and\b)|(?<!\band\s){p}\s+(?:are|were|do)\b"
                assert not re.search(singular_verb, q.text), q.text
        assert q.text[0].isupper() and q.text.count("?") == 1 and "  " not in q.text


def test_english_templates_hold_for_singular_plural_and_verb_like_facets() -> None:
    topic = "Debian: system upgrades, version pinning, installing packages, the package cache"
    qs = framework_questions(topic, "en", None, ALL_LEVELS)
    texts = [q.text for q in qs]
    assert "What is the definition of system upgrades in Debian?" in texts
    assert "When should installing packages in Debian be used, and when not?" in texts
    assert not any(re.search(r"\bis (?:system upgrades|installing packages)\b", t) for t in texts)
    assert not any(re.search(r"\bare (?:version pinning|package cache)\b", t) for t in texts)
    assert not any("the the" in t for t in texts)


@pytest.mark.parametrize(("topic", "lang"), [e for e in EXAMPLES if e[1] == "zh"])
def test_chinese_templates_are_well_formed(topic: str, lang: str) -> None:
    for q in framework_questions(topic, lang, None, ALL_LEVELS):
        text = q.text
        assert text.endswith("？") and text.count("？") == 1, text
        for bad in ("的的", "的关系的", "的区别的", "？的", "是什么的", "  "):
            assert bad not in text, text
        assert not re.search(r"[\u4e00-\u9fff] [\u4e00-\u9fff]", text), text  # no space between ideographs
        assert not re.search(r"[A-Za-z][\u4e00-\u9fff]|[\u4e00-\u9fff][A-Za-z]", text), text  # Latin–Han spaced


def test_debian_facets_become_the_questions_the_issue_missed() -> None:
    en = [q.text for q in framework_questions(EXAMPLES[0][0], "en", None, (1, 2))]
    assert "What are the differences between dpkg and apt?" in en
    assert "What is the role of dpkg in Debian package management?" in en
    assert "What is the definition of version pinning in Debian package management?" in en
    assert "What is the definition of system upgrades in Debian package management?" in en
    zh = [q.text for q in framework_questions(EXAMPLES[5][0], "zh", None, (1, 2))]
    assert "dpkg 与 apt 有什么区别？" in zh
    assert "apt 在 Debian 软件包管理中起什么作用？" in zh
    assert "Debian 软件包管理中的版本固定是什么？" in zh
    assert "Debian 软件包管理中的系统升级是什么？" in zh
    assert not any("apt 的关系" in t for t in zh)


def test_compound_subject_gets_a_definition_per_part_and_one_comparison() -> None:
    qs = framework_questions("How do Python generators and coroutines work?", "en", None, (1,))
    by_facet = {(q.facet, q.text) for q in qs}
    assert ("Python generators", "What is the definition of Python generators?") in by_facet
    assert ("Python coroutines", "What is the definition of Python coroutines?") in by_facet
    assert (None, "What are the differences between Python generators and Python coroutines?") in by_facet
    assert not any("closely related" in q.text for q in qs)  # the parts' own comparison replaces it


def test_comparison_topic_asks_the_candidates_and_the_context() -> None:
    qs = framework_questions("Compare PostgreSQL and SQLite for embedded analytics", "en", None, ALL_LEVELS)
    texts = [q.text for q in qs]
    assert texts[0] == "What are the differences between PostgreSQL and SQLite for embedded analytics?"
    assert "What is the purpose of SQLite?" in texts
    assert "When should PostgreSQL be used over SQLite for embedded analytics, and when not?" in texts
    assert {q.facet for q in qs} == {"PostgreSQL vs SQLite"}
    zh = [q.text for q in framework_questions("比较 PostgreSQL 和 SQLite 在嵌入式分析中的表现", "zh", None, (1, 2))]
    assert "PostgreSQL 与 SQLite 在嵌入式分析场景下有什么区别？" in zh


def test_a_question_clause_is_asked_as_the_user_wrote_it() -> None:
    qs = framework_questions("What is Rust's borrow checker and why does it reject some programs?", "en", None, (1, 2))
    asked = [q for q in qs if q.facet == "why Rust's borrow checker rejects some programs"]
    assert [q.text for q in asked] == ["Why does Rust's borrow checker reject some programs?"]
    assert asked[0].level == 2 and asked[0].primary
    zh = framework_questions("机器学习中的过拟合是什么？如何避免？", "zh", None, (1, 2))
    assert [q.text for q in zh if q.facet == "如何避免过拟合"] == ["如何避免机器学习中的过拟合？"]


THREADS = (
    "How do I coordinate worker threads in Python: daemon threads and Thread.join timeouts, locks/RLock, "
    "Condition and Event synchronization, and a thread-safe Queue with task_done/join?"
)


def test_an_aspect_naming_several_things_asks_about_each_one() -> None:
    from autodidact.text.topic import aspect_members

    assert aspect_members("Condition and Event synchronization") == ["Condition", "Event"]
    assert aspect_members("locks/RLock") == ["locks", "RLock"]
    assert aspect_members("daemon threads and Thread.join timeouts") == ["daemon threads", "Thread.join timeouts"]
    assert aspect_members("thread-safe Queue with task_done/join") == ["Queue.task_done", "Queue.join"]
    assert aspect_members("protocol and format versions") == ["protocol versions", "format versions"]
    assert aspect_members("daemons and thread timeouts") == ["daemons", "thread timeouts"]
    assert aspect_members("cache with eviction and expiry") == ["eviction in cache", "expiry in cache"]
    assert aspect_members("version pinning") == []
    assert aspect_members("加密/签名") == ["加密", "签名"]
    assert aspect_members("GnuPG 加密签名和 MD5 校验和") == []  # 和 inside a Chinese phrase is not split
    qs = framework_questions(THREADS, "en", None, (1,))
    asked = {(q.facet, q.text) for q in qs}
    assert ("locks/RLock", "What does RLock do?") in asked
    assert ("Condition and Event synchronization", "What does Event do?") in asked
    assert ("thread-safe Queue with task_done/join", "What does Queue.join do?") in asked
    assert ("daemon threads and Thread.join timeouts", "What is meant by daemon threads?") in asked
    # every facet's own definition comes before any member's question
    first_member = next(i for i, q in enumerate(qs) if q.text.startswith(("What does", "What is meant")))
    defined = [q.facet for q in qs[:first_member] if q.text.startswith("What is the definition")]
    assert set(defined) >= {f.name for f in decompose(THREADS, "en").facets}


def test_a_task_aspect_is_asked_how_it_is_done_in_both_languages() -> None:
    from autodidact.text.topic import base_of_gerund, task_question

    topic = (
        "How do I use Python's sqlite3 module: opening connections, fetching rows, "
        "and committing or rolling back transactions?"
    )
    asked = [q.text for q in framework_questions(topic, "en", None, (1,))]
    assert "How do I open connections in Python's sqlite3 module?" in asked
    assert "How do I commit or roll back transactions in Python's sqlite3 module?" in asked
    assert not any("definition of opening" in q or "committing back" in q for q in asked), asked
    zh = [
        q.text
        for q in framework_questions(
            "在 Debian 上如何编写和调试程序：用 gdb 调试并获取栈帧、用 make 构建", "zh", None, (1,)
        )
    ]
    assert "如何用 gdb 调试并获取栈帧？" in zh and "如何用 make 构建？" in zh
    assert [base_of_gerund(w) for w in ("running", "parsing", "opening", "writing", "installing", "string")] == [
        "run", "parse", "open", "write", "install", None,
    ]  # fmt: skip
    assert task_question("quoting modes") is None  # a gerund that modifies a category is no task
    # a blind topic asked "How do I ignor specific exceptions with suppress?"
    assert [base_of_gerund(w) for w in ("ignoring", "storing", "monitoring")] == ["ignore", "store", "monitor"]


def test_a_placeholder_question_mark_does_not_split_a_question() -> None:
    from autodidact.questions.generate import split_or_drop
    from autodidact.questions.models import Candidate

    one = Candidate(text="How do I run queries with cursors and ? placeholders in sqlite3?", layer="L1-definition",
                    priority="high", source="framework", rationale="r")  # fmt: skip
    assert [c.text for c in split_or_drop(one)] == [one.text]
    two = one.model_copy(update={"text": "What is a cursor in sqlite3? How are rows fetched from a cursor?"})
    assert len(split_or_drop(two)) == 2


def test_a_name_written_as_code_is_asked_about_alone() -> None:
    # "What is the definition of __slots__ in Python class customize attribute access?" found nothing:
    # the subject's words kept the name's own section from answering, and the subject was no phrase
    topic = "How can a Python class customize attribute access: __getattr__ vs __getattribute__, and __slots__?"
    frame = decompose(topic, "en")
    assert frame.subject == "customizing attribute access in a Python class"
    texts = [q.text for q in framework_questions(frame, "en", None, ALL_LEVELS)]
    slots = [t for t in texts if "__slots__" in t]
    assert slots and not any("Python class" in t for t in slots)
    assert any(t == "What is the purpose of __getattr__?" for t in texts)


def test_the_two_sides_of_a_difference_stay_one_member() -> None:
    from autodidact.text.topic import aspect_members

    assert aspect_members("descriptors and the difference between data and non-data descriptors") == [
        "descriptors",
        "difference between data and non-data descriptors",
    ]


def test_a_member_written_as_code_is_asked_by_its_name() -> None:
    topic = "How do I inspect threads: thread names and identifiers (ident, native_id), and stack size?"
    frame = decompose(topic, "en")
    texts = [q.text for q in framework_questions(frame, "en", None, ALL_LEVELS)]
    assert "What does native_id do?" in texts
