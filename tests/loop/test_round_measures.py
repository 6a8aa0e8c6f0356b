"""What a round added (novelty), how a user question settles, and reading an audit's answers back."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from autodidact.errors import IntegrityError
from autodidact.evidence.models import Claim, EvidenceFile
from autodidact.kb import KnowledgeBase, init_kb
from autodidact.loop.audit_answers import parse_audited_questions
from autodidact.loop.inbox import add_question, read_inbox, settle_questions
from autodidact.loop.novelty import RoundNovelty, round_novelty
from autodidact.loop.state import RoundQuestion, RoundRecord, TerminationCheck
from autodidact.loop.steps import read_round_evidence
from autodidact.loop.user_answers import MAX_USER_QUESTION_ROUNDS, key_question_ids, user_question_outcomes
from autodidact.questions.models import Question, RoundQuestions
from autodidact.testing.evidence_files import claim as make_claim
from autodidact.testing.evidence_files import evidence_file, source


def claim(kq: str, *snippets: str) -> Claim:
    return make_claim(f"d1.c{next(_ids)}", "A claim of the round.", kq=kq, snippets=snippets, source_id="s0")


def evidence(claims: list[Claim], urls: list[str]) -> EvidenceFile:
    # a file holds at least one claim: an old quote stands in for "no new claim"
    claims = claims or [claim("kq1", "A generator  function\nreturns an iterator.")]
    return evidence_file(claims, [source(f"s{i}", u) for i, u in enumerate(urls)])


_ids = itertools.count(1)


def test_a_requoted_sentence_is_not_new_however_it_is_spaced_or_cased() -> None:
    earlier = [evidence([claim("kq1", "A generator  function\nreturns an iterator.")], ["https://a.example/x"])]
    current = evidence(
        [
            claim("kq1", "a generator function returns an iterator."),  # same quote, re-flowed and re-cased
            claim("kq2", "Await suspends the coroutine."),  # new
            claim("kq2", "Await suspends the coroutine."),  # the same new quote again: not a second new claim
            claim("kq3", "a generator function returns an iterator.", "yield from delegates."),  # one new quote
        ],
        ["https://a.example/x"],
    )
    got = round_novelty(earlier, current, [])
    assert got == RoundNovelty(new_claims=2, new_sources=0, new_claims_by_kq={"kq2": 1, "kq3": 1})


def test_new_sources_are_new_urls_or_the_rounds_raw_files() -> None:
    earlier = [evidence([], ["https://a.example/x"])]
    current = evidence([], ["https://a.example/x", "https://a.example/y"])
    assert round_novelty(earlier, current, []).new_sources == 1
    # a raw file for the new URL is the same source; one for an old URL (a new excerpt) is new
    assert round_novelty(earlier, current, ["https://a.example/y"]).new_sources == 1
    assert round_novelty(earlier, current, ["https://a.example/x", "raw/notes.md"]).new_sources == 3
    assert round_novelty([], None, []) == RoundNovelty(0, 0, {})  # a round whose research found nothing


def test_a_damaged_evidence_file_is_a_clear_error(tmp_path: Path) -> None:
    assert read_round_evidence(tmp_path / "missing.json") is None
    bad = tmp_path / "round_2_evidence.json"
    bad.write_text('{"claims": [', "utf-8")
    with pytest.raises(IntegrityError, match=r"round_2_evidence\.json cannot be read \(.*not valid JSON"):
        read_round_evidence(bad)
    bad.write_text('{"claims": []}', "utf-8")  # JSON, but not an evidence file
    with pytest.raises(IntegrityError, match=r"round_2_evidence\.json cannot be read \(.*not an evidence file"):
        read_round_evidence(bad)


def question(qid: str, text: str, source: str = "framework") -> Question:
    return Question(id=qid, text=text, layer="user", priority="high", source=source, rationale="r")  # type: ignore[arg-type]


def record(n: int, *user_texts: str) -> RoundRecord:
    check = TerminationCheck(
        audit_issues_count=0,
        pending_user_questions=0,
        new_raw_files=0,
        overlap_ratio=None,
        decision="continue",
        reason="",
    )
    qs = [
        RoundQuestion(id=f"r{n}q{k}", text=t, layer="user", priority="high", source="user")
        for k, t in enumerate(user_texts, 1)
    ]
    return RoundRecord(
        round=n,
        timestamp="t",
        questions=qs,
        new_raw_files=[],
        user_contributed_raw_files=[],
        wiki_topics_updated=[],
        check_report=None,
        termination_check=check,
    )


def test_user_question_settles_by_audit_status_and_new_evidence() -> None:
    rq = RoundQuestions(
        questions=[
            question("r4q1", "Answered?", "user"),
            question("r4q2", "Partly, with new evidence?", "user"),
            question("r4q3", "Partly, nothing new?", "user"),
            question("r4q4", "Not in the audit?", "user"),
            question("r4q5", "A framework question", "framework"),
        ],
        overlap_ratio=0.5,
    )
    statuses = {"r4q1": "resolved", "r4q2": "partial", "r4q3": "partial", "r4q5": "open"}
    novelty = RoundNovelty(new_claims=3, new_sources=1, new_claims_by_kq={"kq2": 2, "kq5": 1})
    got = user_question_outcomes(rq, statuses, novelty, [], key_question_ids(rq))
    # "Partly, with new evidence?" is absent: it stays pending, the next round asks it again
    assert got == {"Answered?": None, "Partly, nothing new?": "partial", "Not in the audit?": "open"}
    # asked in MAX_USER_QUESTION_ROUNDS rounds: it settles even with new evidence
    earlier = [record(k, "Partly, with new evidence?") for k in range(1, MAX_USER_QUESTION_ROUNDS)]
    capped = user_question_outcomes(rq, statuses, novelty, earlier, key_question_ids(rq))
    assert capped["Partly, with new evidence?"] == "partial"


def test_key_questions_are_numbered_without_the_lost_questions() -> None:
    rq = RoundQuestions(
        questions=[question("r2q1", "a"), question("r2q2", "b"), question("r2q3", "c")], overlap_ratio=0
    )
    assert key_question_ids(rq) == {"r2q1": "kq1", "r2q2": "kq2", "r2q3": "kq3"}
    assert key_question_ids(rq, ["r2q1"]) == {"r2q2": "kq1", "r2q3": "kq2"}


@pytest.fixture
def kb(tmp_path: Path) -> KnowledgeBase:
    return init_kb(tmp_path / "kb", topic="generators", lang="en")[0]


def test_settled_questions_carry_how_they_ended(kb: KnowledgeBase) -> None:
    for text in ("Answered?", "Half answered?", "Kept?"):
        add_question(kb, text)
    moved = settle_questions(kb, {"Answered?": None, "Half answered?": "partial"}, 5)
    assert moved == ["Answered?", "Half answered?"]
    view = read_inbox(kb.user_questions)
    assert view.pending == ["Kept?"]
    assert view.done == ["~~Answered?~~ [r5]", "~~Half answered?~~ [r5, partial]"]
    assert settle_questions(kb, {"Half answered?": "open"}, 6) == []  # idempotent
    assert read_inbox(kb.user_questions).done == view.done


REPORT_EN = """# 知识审计报告（第 3 轮）

## 一、问题覆盖情况

- **r3q1** [resolved] What is a generator?
  - answer: A generator function returns an iterator. It runs until yield. (source: wiki/generators.md)
- **r3q2** [partial] When should coroutines be used?
  - gap: when to use coroutines
  - answer: Coroutines can be suspended. Not yet covered: when to use coroutines. (source: wiki/coroutines.md)
- **r3q3** [open] Can a generator be restarted?

## 二、知识漏洞

无

## 审计摘要

- resolved: 1 / partial: 1 / open: 1
- 知识漏洞：0
"""

REPORT_HAND = """# 知识审计报告（第 2 轮）

### 1. 问题覆盖情况

* r2q1（部分解决）生成器如何工作？
    * 缺口：send 方法
    * 回答：生成器函数返回迭代器。（来源：wiki/生成器.md）
* r2q2 [未解决] 协程是什么？

### 2. 知识漏洞

无

**审计摘要**

- resolved: 0 / partial: 1 / open: 1
- 知识漏洞: 0
"""


def test_audit_questions_are_read_back_with_answers_and_gaps() -> None:
    items = parse_audited_questions(REPORT_EN)
    assert [(i.qid, i.status, i.question) for i in items] == [
        ("r3q1", "resolved", "What is a generator?"),
        ("r3q2", "partial", "When should coroutines be used?"),
        ("r3q3", "open", "Can a generator be restarted?"),
    ]
    assert items[0].answer.startswith("A generator function returns an iterator.")
    assert items[0].answer.endswith("(source: wiki/generators.md)")
    assert items[1].gap == "when to use coroutines" and items[2].answer == ""


def test_a_hand_written_chinese_report_is_read_back_too() -> None:
    items = parse_audited_questions(REPORT_HAND)
    assert [(i.qid, i.status, i.question) for i in items] == [
        ("r2q1", "partial", "生成器如何工作？"),
        ("r2q2", "open", "协程是什么？"),
    ]
    assert items[0].gap == "send 方法" and items[0].answer == "生成器函数返回迭代器。（来源：wiki/生成器.md）"
