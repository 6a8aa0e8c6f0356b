"""`autodidact verify`: a healthy knowledge base holds; each kind of damage is caught and named."""

from __future__ import annotations

import json
from pathlib import Path

from autodidact.kb import KnowledgeBase
from autodidact.sources.ingest import add_paths
from autodidact.verify import verify_folder
from autodidact.wiki.compile.compiler import compile_wiki

DOC_EN = """# Generators

A generator function contains a yield expression. Calling it returns a generator iterator.
Each call to next() resumes the function until the next yield expression.
"""

DOC_ZH = """# 协程

协程是可以暂停和恢复的函数。Python 使用 async def 定义协程，使用 await 等待结果。
"""


def _build(kb_dir: Path, tmp_path: Path) -> KnowledgeBase:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "generators.md").write_text(DOC_EN, "utf-8")
    (docs / "coroutines.md").write_text(DOC_ZH, "utf-8")
    kb = KnowledgeBase(kb_dir)
    add_paths(kb, [docs])
    compile_wiki(kb, None, today="2026-12-02")
    return kb


def test_healthy_kb_holds(kb_dir: Path, tmp_path: Path, cli) -> None:
    kb = _build(kb_dir, tmp_path)
    report = verify_folder(kb.root)
    assert report.ok, report.problems
    assert report.checked["snapshots"] >= 2
    assert report.checked["wiki_citations"] >= 1
    result = cli("verify", "--kb", str(kb.root), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["ok"] is True


def test_tampered_snapshot_is_caught(kb_dir: Path, tmp_path: Path, cli) -> None:
    kb = _build(kb_dir, tmp_path)
    snap = sorted(kb.source_cache.glob("*/*.md"))[0]
    snap.chmod(0o644)
    snap.write_text(snap.read_text("utf-8") + " tampered", "utf-8")
    result = cli("verify", "--kb", str(kb.root), "--json")
    assert result.exit_code == 1
    problems = json.loads(result.stdout)["problems"]
    assert [p["check"] for p in problems] == ["snapshots"]
    assert snap.name in problems[0]["path"]


def test_leftover_temp_and_dangling_citation(kb_dir: Path, tmp_path: Path) -> None:
    kb = _build(kb_dir, tmp_path)
    (kb.outputs / ".research_state.json.abc123.tmp").write_text("{", "utf-8")
    article = next(p for p in kb.wiki.glob("*.md") if p.name != "INDEX.md")
    article.write_text(article.read_text("utf-8") + "\nA new claim. (source: 2020-01-01_missing.md)\n", "utf-8")
    report = verify_folder(kb.root)
    checks = sorted(p.check for p in report.problems)
    assert checks == ["temp_files", "wiki_citations"]
    assert any("2020-01-01_missing.md" in p.message for p in report.problems)


def test_bad_state_file_is_named(kb_dir: Path, tmp_path: Path) -> None:
    kb = _build(kb_dir, tmp_path)
    kb.state_file.write_text('{"topic": 3}', "utf-8")
    report = verify_folder(kb.root)
    assert [p.check for p in report.problems] == ["state"]
    assert "research_state.json" in report.problems[0].path


def test_missing_report_dir_is_clear_error(tmp_path: Path, cli) -> None:
    result = cli("verify", "--report-dir", str(tmp_path / "nope"))
    assert result.exit_code == 2
    assert "does not exist" in result.output
