"""A model writes each answer block's answer; every kept sentence cites the quotes it rests on
(wiki/compile/answer_prose.py, docs/writing.md "Wiki answers"). The quotes come from real pydoc text."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autodidact.kb import KnowledgeBase
from autodidact.llm.base import Request
from autodidact.llm.ledger import read_totals
from autodidact.llm.runtime import Runtime
from autodidact.testing.scripted import ScriptedModel
from autodidact.verify.checks import VerifyReport, check_wiki
from autodidact.wiki.common.markdown import is_answer_paragraph
from autodidact.wiki.compile.answers_blocks import parse_block
from autodidact.wiki.compile.compiler import compile_evidence

from .test_compile_answers import Q1, Q2, article, block, round_one, sentence, write_round

Sentences = list[dict[str, Any]]


def writer(answers: Callable[[str], Sentences]) -> ScriptedModel:
    """A model that answers the wiki's writing task with ``answers(goal)`` and leaves summaries alone."""

    def reply(request: Request) -> str:
        user = request.messages[-1]["content"]
        if request.task == "report.write_section":
            goal = user.split("\n", 1)[0].removeprefix("Goal: ").strip()
            return json.dumps({"sentences": answers(goal)})
        return json.dumps({"summary": "", "sections": []})

    return ScriptedModel(fn=reply)


def written(kb: KnowledgeBase, title: str, question: str) -> list[str]:
    sec = article(kb, title).section(question)
    assert sec is not None
    return [b for b in sec.blocks if is_answer_paragraph(b)]


def test_a_supported_sentence_leads_its_block_with_the_citation_of_its_quote(
    en_kb: KnowledgeBase, pydoc_dir: Path
) -> None:
    raws = round_one(en_kb, pydoc_dir)
    good = "A function that uses the yield statement is called a generator function."

    def answers(goal: str) -> Sentences:
        if goal == Q1:
            return [{"text": good, "claim_ids": ["q1"]}]
        return []

    result = compile_evidence(en_kb, 1, Runtime(model=writer(answers)), today="2026-12-02")
    assert written(en_kb, "Generators", Q1) == [
        f"**Answer:** {good} (source: [{raws['genfn']}](../raw/{raws['genfn']}))"
    ]
    assert result.prose.blocks == 1 and result.prose.sentences == 1
    # the quotes stay below it, and the paragraph is not taken for one of them
    assert block(article(en_kb, "Generators"), Q1) == [
        sentence(pydoc_dir, "types--generator-functions.md", "is called")
    ]
    # no sentence came back for the other questions: no paragraph there
    assert written(en_kb, "Coroutines", Q2) == []
    report = VerifyReport(en_kb.root)
    check_wiki(en_kb.root, report)
    assert not [p for p in report.problems if p.check == "wiki_statements"], report.problems


def test_every_drop_rule_holds_and_a_block_with_nothing_left_has_no_answer(
    en_kb: KnowledgeBase, pydoc_dir: Path, tmp_path: Path
) -> None:
    round_one(en_kb, pydoc_dir)

    def answers(goal: str) -> Sentences:
        if goal != Q1:
            return []
        return [
            {"text": "Generator functions are called to make generators.", "claim_ids": []},  # no ids
            {"text": "A generator function uses yield.", "claim_ids": ["q9"]},  # an id not given
            {"text": "Generators were added to Python in version 2.2 by Guido.", "claim_ids": ["q1"]},  # says more
        ]

    ledger = tmp_path / "ledger.jsonl"
    runtime = Runtime(model=writer(answers), ledger_path=ledger)
    result = compile_evidence(en_kb, 1, runtime, today="2026-12-02")
    assert written(en_kb, "Generators", Q1) == []
    assert result.prose.sentences == 0
    assert dict(result.prose.dropped) == {
        "no claim ids": 1,
        "claim id not given": 1,
        "not supported by its quotes": 1,
    }
    assert read_totals(ledger)["dropped"] == 3


def test_an_answer_is_written_again_only_when_its_quotes_change(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    raws = round_one(en_kb, pydoc_dir)
    calls: list[str] = []

    def answers(goal: str) -> Sentences:
        calls.append(goal)
        if goal == Q1:
            return [{"text": "A function that uses the yield statement is called a generator function.",
                     "claim_ids": ["q1"]}]  # fmt: skip
        return []

    model = writer(answers)
    compile_evidence(en_kb, 1, Runtime(model=model), today="2026-12-02")
    first = calls.count(Q1)
    compile_evidence(en_kb, 1, Runtime(model=model), today="2026-12-02")  # same quotes: nothing to write
    assert calls.count(Q1) == first
    # a new quote for the question: the answer is written from both
    genfn = "types--generator-functions.md"
    extra = sentence(pydoc_dir, genfn, "always returns")
    write_round(en_kb, 2, [{"id": "r2q1", "text": Q1, "facet": "Generators"}],
                [(1, f"https://docs.invalid/{genfn}", extra)])  # fmt: skip
    compile_evidence(en_kb, 2, Runtime(model=model), today="2026-12-03")
    assert calls.count(Q1) == first + 1
    sec = article(en_kb, "Generators").section(Q1)
    assert sec is not None and next(b for b in sec.blocks if is_answer_paragraph(b)).endswith(
        f"(source: [{raws['genfn']}](../raw/{raws['genfn']}))"
    )
    assert len(parse_block(sec)[1]) == 2 and sum(is_answer_paragraph(b) for b in sec.blocks) == 1


def test_offline_compile_writes_no_answer_paragraph(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    round_one(en_kb, pydoc_dir)
    result = compile_evidence(en_kb, 1, None, today="2026-12-02")
    assert result.prose.blocks == 0
    assert all(not is_answer_paragraph(b) for p in en_kb.wiki.glob("*.md") for b in p.read_text("utf-8").split("\n\n"))


def test_a_hand_edited_answer_that_states_what_its_source_does_not_fails_verify(
    en_kb: KnowledgeBase, pydoc_dir: Path
) -> None:
    raws = round_one(en_kb, pydoc_dir)
    good = "A function that uses the yield statement is called a generator function."
    model = writer(lambda g: [{"text": good, "claim_ids": ["q1"]}] if g == Q1 else [])
    compile_evidence(en_kb, 1, Runtime(model=model), today="2026-12-02")
    path = en_kb.wiki / "generators.md"
    path.write_text(path.read_text("utf-8").replace("the yield statement", "the Await statement"), "utf-8")
    report = VerifyReport(en_kb.root)
    check_wiki(en_kb.root, report)
    assert any(p.check == "wiki_statements" and "Await" in p.message for p in report.problems), report.problems
    assert raws["genfn"]


def test_the_audit_reads_a_written_answer_without_its_label(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    from autodidact.wiki.audit.retrieval import WikiIndex
    from autodidact.wiki.common.articles import load_wiki

    round_one(en_kb, pydoc_dir)
    good = "A function that uses the yield statement is called a generator function."
    model = writer(lambda g: [{"text": good, "claim_ids": ["q1"]}] if g == Q1 else [])
    compile_evidence(en_kb, 1, Runtime(model=model), today="2026-12-02")
    passages = [p for p in WikiIndex(load_wiki(en_kb.wiki)).docs if p.heading == Q1]
    assert passages and good in passages[0].text and "Answer:" not in passages[0].text
