"""wiki check on hand-made wikis: each finding type lands in its section and the counts match."""

from __future__ import annotations

from pathlib import Path

import pytest

from autodidact.kb import KnowledgeBase
from autodidact.wiki.audit.check import check_wiki
from autodidact.wiki.audit.report_parser import parse_check_report

from .conftest import add_raw

ARTICLE = """---
title: "{title}"
aliases: []
sources:
  - "{raw}"
updated: "2026-12-01"
---

# {title}

{summary}

## Key points

{body}

## Related

{related}
"""


def write_article(kb: KnowledgeBase, stem: str, title: str, raw: str, body: list[str], related: list[str]) -> None:
    summary = f"{title} is described here in a short summary for the audit test. (source: {raw})"
    text = ARTICLE.format(
        title=title,
        raw=raw,
        summary=summary,
        body="\n".join(body),
        related="\n".join(f"- [[{r}]]" for r in related),
    )
    (kb.wiki / f"{stem}.md").write_text(text, "utf-8")


def write_index(kb: KnowledgeBase, stems: list[str]) -> None:
    lines = ["# Index", ""] + [f"- [[{s}]] — about {s}" for s in stems]
    (kb.wiki / "INDEX.md").write_text("\n".join(lines) + "\n", "utf-8")


@pytest.fixture
def clean(en_kb: KnowledgeBase) -> tuple[KnowledgeBase, str]:
    raw = add_raw(en_kb, "Source", "Anything at all is written in this source file for the tests.\n")
    write_article(
        en_kb,
        "generators",
        "generators",
        raw,
        [f"- Generators produce values lazily when a caller iterates over them. (source: {raw})"],
        ["iterators"],
    )
    write_article(
        en_kb,
        "iterators",
        "iterators",
        raw,
        [f"- Iterators implement the protocol with the next method in Python. (source: {raw})"],
        ["generators"],
    )
    write_index(en_kb, ["generators", "iterators"])
    return en_kb, raw


def sections(text: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    current = ""
    for line in text.splitlines():
        if line.startswith("## "):
            current = line[3:]
            out[current] = []
        elif current and line.strip():
            out[current].append(line)
    return out


def test_clean_wiki_has_empty_sections_and_zero_counts(clean: tuple[KnowledgeBase, str]) -> None:
    kb, _ = clean
    result = check_wiki(kb, None, 4, None)
    text = result.path.read_text("utf-8")
    assert result.path == kb.rounds / "round_4_check.md"
    # an English knowledge base's report reads in English (the parser reads both languages)
    assert text.startswith("# Knowledge audit report (round 4)\n")
    parts = sections(text)
    assert list(parts) == [
        "1. Question coverage",
        "2. Knowledge gaps",
        "3. Contradictions",
        "4. Missing sources",
        "5. Structural issues",
        "Audit summary",
    ]
    for name in list(parts)[:5]:
        assert parts[name] == ["none"], name
    assert parts["Audit summary"][:4] == [
        "- resolved: 0 / partial: 0 / open: 0",
        "- knowledge gaps: 0",
        "- contradictions: 0",
        "- missing sources: 0",
    ]
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in text)
    assert result.report.audit_issues_count == 0 and result.report.directions == []


def test_each_finding_type_is_detected_in_its_section(clean: tuple[KnowledgeBase, str]) -> None:
    kb, raw = clean
    write_article(
        kb,
        "coroutines",
        "coroutines",
        raw,
        [
            f"- Coroutines build on generators and the **Event Loop** schedules them. (source: {raw})",  # term 1
            f"- The market for coroutine tools was worth 500 million dollars in 2024. (source: {raw})",
            "- The market for coroutine tools was worth 900 million dollars in 2024. (source: 2026-12-05_other.md)",
            "- Therefore coroutines are always faster than threads for every workload.",  # unsupported conclusion
            "- Coroutines were first described by Melvin Conway in a paper.",  # uncited statement
            "- Await expressions suspend until the awaited object completes. (source: 2026-01-01_gone.md)",
            f"- Async generators combine both ideas, see [[Async Iterators]]. (source: {raw})",  # dangling
        ],
        ["generators"],
    )
    write_article(
        kb,
        "tasks",
        "tasks",
        raw,
        [
            f"- Tasks wrap coroutines so the **Event Loop** can run them concurrently. (source: {raw})",  # term 2
            f"- Tasks can be cancelled at any await point in the coroutine. (source: {raw})",
            "> ⚠️ 待核实: two sources disagree about cancellation semantics",
        ],
        ["coroutines", "generators"],
    )
    add_raw(
        kb,
        "Other",
        "The market for coroutine tools was worth 900 million dollars in 2024 per this.\n",
        date="2026-12-05",
    )
    write_index(kb, ["generators", "iterators", "coroutines", "ghost"])  # tasks missing, ghost stale
    result = check_wiki(kb, None, 2, None, topic="Python coroutines")
    rep = result.report
    text = result.path.read_text("utf-8")
    gaps = "\n".join(rep.gaps)
    assert "Async Iterators" in gaps  # [[X]] with no article
    assert "Event Loop" in gaps  # bold term in two articles, no article, no definition
    assert "Therefore coroutines" in gaps  # unsupported conclusion
    assert "limitations" in gaps  # framework subtopic nobody covers
    assert "Melvin Conway" not in gaps
    subtopics = sum(1 for g in rep.gaps if g.startswith("missing subtopic"))
    assert subtopics >= 1 and len(rep.gaps) == rep.gap_count == 3 + subtopics
    contra = "\n".join(rep.contradictions)
    assert "cancellation semantics" in contra and "500" in contra and "900" in contra
    assert rep.contradiction_count == len(rep.contradictions) == 2
    missing = "\n".join(rep.missing_sources)
    assert "Melvin Conway" in missing and "2026-01-01_gone.md" in missing
    assert "Therefore" not in missing
    assert rep.missing_source_count == len(rep.missing_sources) == 2
    structure = "\n".join(rep.structure)
    assert "[[Async Iterators]]" in structure
    assert "does not list wiki/tasks.md" in structure and "[[ghost]]" in structure
    assert "orphan article: no other article links to wiki/tasks.md" in structure
    assert "iterators.md" not in structure.replace("generators", "")  # iterators is linked from generators
    assert f"knowledge gaps: {rep.gap_count}" in text and f"contradictions: {rep.contradiction_count}" in text
    assert rep.audit_issues_count == rep.gap_count
    assert rep.directions and "Async Iterators" in rep.directions[0]


def test_marked_contradiction_is_not_counted_twice(clean: tuple[KnowledgeBase, str]) -> None:
    kb, raw = clean
    other = add_raw(kb, "Other", "Some other text in a second raw source file for the test.\n", date="2026-12-02")
    write_article(
        kb,
        "generators",
        "generators",
        raw,
        [
            f"- The widget market was worth 500 million dollars in 2024. (source: {raw})",
            f"- The widget market was worth 800 million dollars in 2024. (source: {other})",
            f"> ⚠️ 待核实: {other} says 800 million but {raw} says 500 million",
        ],
        ["iterators"],
    )
    rep = check_wiki(kb, None, 1, None).report
    assert rep.contradiction_count == 1


def test_phase_one_statuses_and_answers(clean: tuple[KnowledgeBase, str]) -> None:
    kb, raw = clean
    write_article(
        kb,
        "generators",
        "generators",
        raw,
        [
            f"- Generators produce values lazily when a caller iterates over them. (source: {raw})",
            f"- Generators are created by functions that contain a yield expression. (source: {raw})",
        ],
        ["iterators"],
    )
    questions = [
        {"id": "r1q1", "text": "How do generators produce values lazily?"},
        {"id": "r1q2", "question": "How do generators handle exceptions and cleanup?"},
        {"id": "r1q3", "text": "What is the history of COBOL compilers?"},
    ]
    result = check_wiki(kb, questions, 1, None)
    rep = result.report
    assert rep.question_status == {"r1q1": "resolved", "r1q2": "partial", "r1q3": "open"}
    assert (rep.resolved, rep.partial, rep.open) == (1, 1, 1)
    assert rep.audit_issues_count == rep.gap_count + 1
    answers = {q.qid: q.verdict for q in result.questions}
    assert "wiki/generators.md" in answers["r1q1"].answer
    assert "exception" in answers["r1q2"].gap.lower()
    text = result.path.read_text("utf-8")
    assert "- **r1q2** [partial]" in text and "  - gap: " in text
    assert any("exceptions" in d for d in rep.directions)


def test_chinese_check(zh_kb: KnowledgeBase) -> None:
    raw = add_raw(zh_kb, "来源", "备兑开仓是一种期权策略，投资者持有股票并卖出认购期权。\n")
    (zh_kb.wiki / "备兑开仓.md").write_text(
        '---\ntitle: "备兑开仓"\n---\n\n# 备兑开仓\n\n备兑开仓是一种期权策略。（来源：' + raw + "）\n\n## 要点\n\n"
        "- 备兑开仓是指持有标的证券并卖出认购期权。（来源：" + raw + "）\n- 因此备兑开仓总能跑赢大盘。\n"
        "- 它依赖「隐含波动率」。（来源：" + raw + "）\n",
        "utf-8",
    )
    (zh_kb.wiki / "INDEX.md").write_text("# 知识库索引\n\n- [[备兑开仓]] — 策略\n", "utf-8")
    result = check_wiki(zh_kb, [{"id": "r1q1", "text": "什么是备兑开仓？"}], 1, None)
    rep = result.report
    assert rep.question_status == {"r1q1": "resolved"}
    assert any("因此备兑开仓总能跑赢大盘" in g for g in rep.gaps)
    text = result.path.read_text("utf-8")
    assert "回答：" in text and "（来源：wiki/备兑开仓.md）" in text


def test_questions_file_formats(en_kb: KnowledgeBase, cli: object, tmp_path: Path) -> None:
    qfile = tmp_path / "questions.txt"
    qfile.write_text("What are generators?\n\n- What are iterators?\n", "utf-8")
    result = cli("wiki", "check", str(qfile), "--kb", str(en_kb.root), "--round", "2")  # type: ignore[operator]
    assert result.exit_code == 0, result.output
    rep = parse_check_report((en_kb.rounds / "round_2_check.md").read_text("utf-8"))
    assert rep.question_status == {"q1": "open", "q2": "open"}
    bad = tmp_path / "round_1_questions.json"
    bad.write_text("{not json", "utf-8")
    result = cli("wiki", "check", str(bad), "--kb", str(en_kb.root))  # type: ignore[operator]
    assert result.exit_code == 2 and "invalid JSON" in result.output


def test_an_option_asked_about_must_stand_in_the_answer_as_written() -> None:
    """ "-l 0" has no word the tokens keep, so any sentence about wget held "What does wget do when
    -l 0 is given?" (a newcomer's trial marked it answered with a sentence on HTML parsing)."""
    from autodidact.wiki.common.question_frame import held_terms, question_terms

    terms = question_terms("What does wget do when -l 0 is given?")
    assert "-l" in [t.word for t in terms]
    _, missing = held_terms(terms, "With HTTP URLs, Wget retrieves and parses the HTML given to it, level by level.")
    assert "-l" in [t.word for t in missing]
    _, missing = held_terms(terms, "Given ‘-l 0’, wget recurses to an infinite depth level.")
    assert missing == []
    assert [t.word for t in question_terms("find 的 -mtime 选项是什么意思？") if t.word.startswith("-")] == ["-mtime"]


def test_a_chinese_audit_answer_keeps_the_spaces_between_english_quotes() -> None:
    """ "…a list of expressions.This form of attack…": a Chinese knowledge base of English manuals
    read its answers glued (a newcomer's trial)."""
    from autodidact.wiki.audit.check_task import PassageIn, QuestionInputs, offline_answer

    text = (
        "- The find command searches a directory tree for files by their modification time. (来源：find.md)\n"
        "- The find command compares the modification time with -mtime in days. (来源：find.md)\n"
    )
    inputs = QuestionInputs(
        qid="r1q1",
        question="find 命令如何按 modification time 查找文件？",
        lang="zh",
        passages=[PassageIn(title="find", file="wiki/find.md", heading="find", text=text)],
    )
    answer = offline_answer(inputs).answer
    assert "time. The find command" in answer or "days. The find command" in answer, answer
