"""A Chinese topic end to end over Debian's Chinese reference (skipped when it is not installed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from autodidact.config import load_settings
from autodidact.evidence.validator import validate_evidence
from autodidact.kb import init_kb
from autodidact.llm.runtime import Runtime
from autodidact.loop.runner import research_sync
from autodidact.questions.models import RoundQuestions
from autodidact.testing.corpora import debian_reference_zh_files
from autodidact.wiki.audit.report_parser import parse_check_report

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_chinese_topic_over_debian_reference(tmp_path: Path) -> None:
    files = [f for f in debian_reference_zh_files() if f.name in {"ch02.zh-cn.html", "pr01.zh-cn.html"}]
    if not files:
        pytest.skip("debian-reference-zh-cn is not installed")
    kb, _ = init_kb(tmp_path / "kb", topic="Debian 软件包管理是如何工作的？")
    assert kb.language() == "zh"
    result = research_sync(
        kb,
        topic="Debian 软件包管理是如何工作的？",
        runtime=Runtime(),
        settings=load_settings(kb.root),
        max_rounds=2,
        corpus=files,
    )
    assert result.rounds == 2
    for n in (1, 2):
        rq = RoundQuestions.model_validate_json((kb.rounds / f"round_{n}_questions.json").read_text("utf-8"))
        assert rq.questions and all(CJK.search(q.text) and q.text.endswith("？") for q in rq.questions)
        report_text = (kb.rounds / f"round_{n}_check.md").read_text("utf-8")
        assert report_text.startswith(f"# 知识审计报告（第 {n} 轮）")
        parse_check_report(report_text)
        evidence = kb.rounds / f"round_{n}_evidence.json"
        assert validate_evidence(evidence, source_cache=kb.source_cache, require_version="1.2").ok
        assert json.loads(evidence.read_text("utf-8"))["claims"]
    articles = [p for p in kb.wiki.glob("*.md") if p.name != "INDEX.md"]
    assert articles and all(CJK.search(p.read_text("utf-8")) for p in articles)
    assert any("（来源：" in p.read_text("utf-8") for p in articles)
    summary = kb.summary_file.read_text("utf-8")
    assert summary.startswith("# 研究摘要：Debian 软件包管理是如何工作的？")
    for heading in ("## 研究概况", "## 核心发现", "## 未解决问题", "## 知识图谱"):
        assert heading in summary
    state = json.loads(kb.state_file.read_text("utf-8"))
    assert "达到最大轮次" in state["rounds"][-1]["termination_check"]["reason"]
    assert any(CJK.search(name) for name in state["all_raw_files_processed"])


def test_a_chinese_research_reports_its_progress_in_chinese() -> None:
    from autodidact.cli.cmd_loop import RichReporter
    from autodidact.cli.common import console

    reporter = RichReporter()
    with console.capture() as captured:
        reporter.run_started(
            topic="Debian 网络应用：邮件服务器、SSH 远程访问", kb_root="kb", resumed_round=None, max_rounds=5
        )
        reporter.round_started(1, 5)
        reporter.step_started(1, "questions")
        reporter.step_done(1, "questions", {"questions": 5, "overlap": 0.4})
        reporter.step_done(1, "research", {"sources": 2, "claims": 7, "raw_files": 3, "dropped": 0})
    text = captured.get()
    assert "第 1 步 提问" in text and "5 个问题" in text and "7 条论据" in text
    assert not any(word in text for word in ("step 1", "questions", "claims", "sources", "round 1"))
    english = RichReporter()
    with console.capture() as captured:
        english.run_started(topic="Debian networking", kb_root="kb", resumed_round=None, max_rounds=5)
        english.step_done(1, "questions", {"questions": 5})
    assert "5 questions" in captured.get()
