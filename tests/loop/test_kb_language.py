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
