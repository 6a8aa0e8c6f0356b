"""The check-report parser: round trips of the checker's own reports and model-style variations."""

from __future__ import annotations

import pytest

from autodidact.errors import InputError
from autodidact.kb import KnowledgeBase
from autodidact.wiki.audit.article_findings import CONTRADICTIONS, GAPS, MISSING, STRUCTURE, Finding
from autodidact.wiki.audit.check import QuestionResult, render_report
from autodidact.wiki.audit.check_task import QuestionAnswer
from autodidact.wiki.audit.report_parser import ParseError, parse_check_report

from .conftest import add_raw

MODEL_STYLE = """# 知识审计报告（第３轮）


### 1. 问题覆盖情况

* **r3q2**：partial — 期权的波动率曲面是什么？
    * 缺口：缺少构建方法
* **r3q1**：resolved — 备兑开仓被行权后怎么操作？

* r3q3 【open】 国内有没有期权私募？

**二、知识漏洞**

1. wiki/期权策略.md 提到「波动率曲面」但没有解释
2. 结论“备兑开仓收益稳定”缺乏来源


### 三：矛盾
（无）

## 四、来源缺失
- wiki/备兑开仓.md：历史收益率没有来源

## 五、结构问题

无

## 审计摘要

- **resolved**：１ ／ **partial**：１ ／ **open**：１
- **知识漏洞数**：２
- **矛盾**：０
- **来源缺失**：１
- **建议下一轮重点方向**：[期权波动率曲面（Volatility Surface）是什么？；国内ETF期权备兑开仓策略的实际历史回测数据？]
"""


def finding(section: str, text: str) -> Finding:
    return Finding(section, "k", text, direction=f"look into {text}")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_round_trip_of_rendered_reports(lang: str) -> None:
    results = [
        QuestionResult("r1q1", "What is X?", QuestionAnswer(status="resolved", answer="X is Y. (source: wiki/x.md)")),
        QuestionResult("r1q2", "Why Z?", QuestionAnswer(status="partial", answer="Z partly. Gap.", gap="causes")),
        QuestionResult("r1q3", "Open [thing]?", QuestionAnswer(status="open")),
    ]
    findings = [
        finding(GAPS, "gap one, with a comma"),
        finding(GAPS, "gap two; with a semicolon"),
        finding(CONTRADICTIONS, "contra"),
        finding(MISSING, "missing"),
        finding(STRUCTURE, "structure"),
        finding(STRUCTURE, "structure 2"),
    ]
    text = render_report(7, results, findings, lang)
    rep = parse_check_report(text)
    assert rep.round == 7
    assert (rep.resolved, rep.partial, rep.open) == (1, 1, 1)
    assert rep.question_status == {"r1q1": "resolved", "r1q2": "partial", "r1q3": "open"}
    assert rep.gaps == ["gap one, with a comma", "gap two; with a semicolon"]
    assert rep.contradictions == ["contra"] and rep.missing_sources == ["missing"]
    assert rep.structure == ["structure", "structure 2"]
    assert rep.gap_count == 2 and rep.audit_issues_count == 3
    assert rep.directions[0] == ("Why Z?（尚缺：causes）" if lang == "zh" else "Why Z? (missing: causes)")
    assert "look into gap two; with a semicolon" in rep.directions


def test_round_trip_of_checker_output(en_kb: KnowledgeBase) -> None:
    from autodidact.wiki.audit.check import check_wiki

    raw = add_raw(en_kb, "S", "Some text for the source file used in this parser test.\n")
    (en_kb.wiki / "a.md").write_text(
        f"# a\n\nA is a letter. (source: {raw})\n\n## Points\n\n- uncited claim here\n", "utf-8"
    )
    result = check_wiki(en_kb, [{"id": "q1", "text": "What is a?"}], 1, None)
    again = parse_check_report(result.path.read_text("utf-8"))
    assert again == result.report
    assert again.missing_source_count == 1 and again.missing_sources[0].endswith("cites no raw/ file")


def test_model_style_variations() -> None:
    rep = parse_check_report(MODEL_STYLE)
    assert rep.round == 3
    assert (rep.resolved, rep.partial, rep.open) == (1, 1, 1)
    assert rep.question_status == {"r3q1": "resolved", "r3q2": "partial", "r3q3": "open"}
    assert rep.gaps == ["wiki/期权策略.md 提到「波动率曲面」但没有解释", "结论“备兑开仓收益稳定”缺乏来源"]
    assert rep.contradictions == []
    assert rep.missing_sources == ["wiki/备兑开仓.md：历史收益率没有来源"]
    assert rep.structure == []
    assert rep.gap_count == 2 and rep.contradiction_count == 0 and rep.missing_source_count == 1
    assert rep.audit_issues_count == 3
    assert rep.directions == [
        "期权波动率曲面（Volatility Surface）是什么？",
        "国内ETF期权备兑开仓策略的实际历史回测数据？",
    ]


def test_directions_as_a_bullet_list_and_counts_from_items() -> None:
    text = """# 知识审计报告（第 2 轮）

## 一、问题覆盖情况
- q1 [partial] A?
- q2 [partial] B?
- q3 [resolved] C?

## 二、知识漏洞
- one
- two
- three

## 审计摘要
建议下一轮重点方向：
1. 第一个方向
2. 第二个方向
"""
    rep = parse_check_report(text)
    assert (rep.resolved, rep.partial, rep.open) == (1, 2, 0)
    assert rep.gap_count == 3 and rep.audit_issues_count == 5
    assert rep.directions == ["第一个方向", "第二个方向"]


def test_unreadable_report_names_the_file() -> None:
    with pytest.raises(ParseError) as err:
        parse_check_report("# something else\n\njust prose\n", source="round_9_check.md")
    assert "round_9_check.md" in str(err.value) and "resolved" in str(err.value)
    assert isinstance(err.value, InputError)
    with pytest.raises(ParseError, match="知识漏洞"):
        parse_check_report("## 审计摘要\n- resolved: 1 / partial: 0 / open: 0\n", source="r.md")


def test_reordered_summary_and_spacing() -> None:
    text = """# 知识审计报告（第 5 轮）

## 二、知识漏洞

- gap a


- gap b

## 一、问题覆盖情况

- **q2** [open] B?
- **q1** [resolved] A?

## 审计摘要

- 建议下一轮重点方向：["d1", "d2"]
- 来源缺失 ： 4
- 知识漏洞 ： 2
- open: 1 / resolved: 1 / partial: 0
- 矛盾：3
"""
    rep = parse_check_report(text)
    assert rep.gaps == ["gap a", "gap b"] and rep.gap_count == 2
    assert (rep.resolved, rep.partial, rep.open) == (1, 0, 1)
    assert rep.contradiction_count == 3 and rep.missing_source_count == 4
    assert rep.directions == ["d1", "d2"] and rep.question_status == {"q1": "resolved", "q2": "open"}


def test_read_check_report(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from autodidact.errors import NotFoundError
    from autodidact.wiki.audit.report_parser import read_check_report

    with pytest.raises(NotFoundError, match=r"round_2_check\.md"):
        read_check_report(tmp_path / "round_2_check.md")
    path = tmp_path / "round_1_check.md"
    path.write_text(render_report(1, [], [finding(GAPS, "g")], "zh"), "utf-8")
    assert read_check_report(path).gap_count == 1
    path.write_text("nothing here", "utf-8")
    with pytest.raises(ParseError, match=r"round_1_check\.md"):
        read_check_report(path)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_rendered_report_in_either_language_parses_back_to_its_numbers(lang: str) -> None:
    from autodidact.wiki.audit.article_findings import CONTRADICTIONS, GAPS, MISSING, STRUCTURE, Finding
    from autodidact.wiki.audit.check import QuestionResult, render_report
    from autodidact.wiki.audit.check_task import QuestionAnswer

    results = [
        QuestionResult("r2q1", "What is dpkg?", QuestionAnswer(status="resolved", answer="dpkg installs .deb files.")),
        QuestionResult("r2q2", "What is apt?", QuestionAnswer(status="partial", answer="apt is a front end.", gap="x")),
        QuestionResult("r2q3", "What is aptitude?", QuestionAnswer(status="open")),
    ]
    findings = [
        Finding(GAPS, "concept", "concept [[Pinning]] has no article", direction="What is pinning?"),
        Finding(GAPS, "concept", "concept [[Release file]] has no article"),
        Finding(CONTRADICTIONS, "numbers", "a.md says 500 but b.md says 990"),
        Finding(MISSING, "uncited", "wiki/apt.md: a sentence with no citation"),
        Finding(STRUCTURE, "index", "INDEX.md does not list wiki/apt.md"),
    ]
    text = render_report(2, results, findings, lang)
    cjk = any("\u4e00" <= ch <= "\u9fff" for ch in text)
    assert cjk == (lang == "zh")
    rep = parse_check_report(text)
    assert (rep.round, rep.resolved, rep.partial, rep.open) == (2, 1, 1, 1)
    assert (rep.gap_count, rep.contradiction_count, rep.missing_source_count) == (2, 1, 1)
    assert rep.audit_issues_count == 3 and len(rep.structure) == 1
    assert rep.question_status == {"r2q1": "resolved", "r2q2": "partial", "r2q3": "open"}
    assert rep.directions


def test_python_names_keep_their_underscores_while_bold_labels_lose_them() -> None:
    text = (
        "# Knowledge audit report (round 1)\n\n## 1. Question coverage\n\n"
        '- **r1q1** [resolved] What is a docstring?\n  - answer: It becomes the "__doc__" attribute; '
        "__init_subclass__() and __set_name__() run at class creation. (source: wiki/a.md)\n\n"
        "## 2. Knowledge gaps\n\nnone\n\n## Audit summary\n\n- __knowledge gaps__: 0\n"
    )
    rep = parse_check_report(text)
    answer = rep.questions[0].answer
    assert '"__doc__"' in answer and "__init_subclass__()" in answer and "__set_name__()" in answer
    assert rep.gap_count == 0
