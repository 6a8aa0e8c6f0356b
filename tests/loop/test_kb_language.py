"""A knowledge base made without a language researches in its first topic's (docs/loop.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from autodidact.config import load_settings
from autodidact.kb import UNSETTLED_LANGUAGE, open_kb
from autodidact.llm.runtime import Runtime
from autodidact.loop.runner import research_sync
from autodidact.text.tokens import has_cjk


def test_a_chinese_first_topic_makes_a_chinese_knowledge_base(fresh_kb: Callable[[str], Path]) -> None:
    root = fresh_kb("kb")
    settings = root / "autodidact.toml"
    text = settings.read_text("utf-8")
    settings.write_text(re.sub(r'^language = "en"$', UNSETTLED_LANGUAGE, text, flags=re.M), "utf-8")  # as `init kb`
    kb = open_kb(root)
    research_sync(kb, topic="Python 生成器如何工作？", runtime=Runtime(), settings=load_settings(root), max_rounds=1)
    assert kb.language() == "zh"
    questions = json.loads((root / "outputs/rounds/round_1_questions.json").read_text("utf-8"))["questions"]
    assert questions and all(has_cjk(q["text"]) for q in questions)
    assert "轮" in (root / "outputs/research_summary.md").read_text("utf-8")


def test_a_file_added_before_the_language_is_settled_is_labelled_in_its_own(tmp_path: Path) -> None:
    """`init kb` then `add` wrote "> 质量评分: 待评估" into an English page's raw file: the labels
    followed the seed's Chinese default while the knowledge base's language waited for its first
    topic (a fresh-eyes trial: an English knowledge base must read in English)."""
    from autodidact.kb import init_kb
    from autodidact.sources.ingest import add_paths
    from autodidact.sources.rawfiles import parse_raw_file

    kb, _ = init_kb(tmp_path / "kb", topic=None, lang=None)
    assert UNSETTLED_LANGUAGE in (kb.root / "autodidact.toml").read_text("utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    page = "<html><head><title>{0}</title></head><body><h1>{0}</h1><p>{1}</p></body></html>"
    (docs / "argparse.html").write_text(page.format("argparse", "argparse parses command-line arguments."))
    (docs / "日志.html").write_text(page.format("日志", "日志模块记录程序运行时的事件。"))
    add_paths(kb, [docs])
    heads = {p.name: p.read_text("utf-8").split("---", 1)[0] for p in kb.raw.iterdir()}
    english = next(h for n, h in heads.items() if "argparse" in n)
    chinese = next(h for n, h in heads.items() if "argparse" not in n)
    assert "> Source:" in english and "质量评分" not in english
    assert "> 来源:" in chinese
    assert all(parse_raw_file(p).url for p in kb.raw.iterdir())  # both read back


def test_status_reads_in_the_knowledge_bases_language(fresh_kb: Callable[[str], Path], cli) -> None:  # type: ignore[no-untyped-def]
    """A Chinese knowledge base's `status` was English but for its topic and reasons (a fresh-eyes
    trial); the JSON report keeps its English keys for scripts."""
    import json

    root = fresh_kb("kb")
    settings = root / "autodidact.toml"
    text = settings.read_text("utf-8")
    settings.write_text(re.sub(r'^language = "en"$', UNSETTLED_LANGUAGE, text, flags=re.M), "utf-8")
    research_sync(
        open_kb(root), topic="Python 生成器如何工作？", runtime=Runtime(), settings=load_settings(root), max_rounds=1
    )
    plain = cli("status", "--kb", str(root)).stdout
    assert "状态：" in plain and "终止条件" in plain and "轮次" in plain, plain
    assert "termination (all four" not in plain and "questions asked" not in plain
    report = json.loads(cli("status", "--kb", str(root), "--json").stdout)
    assert report["rounds_completed"] == 1 and "termination" in report
