"""wiki compile edge cases: hand-written articles, bad raw files, chunked prompts, topic subjects."""

from __future__ import annotations

import json

import pytest

from autodidact.kb import KnowledgeBase
from autodidact.llm.base import Request
from autodidact.llm.runtime import Runtime
from autodidact.testing.scripted import ScriptedModel
from autodidact.wiki.common.articles import load_article
from autodidact.wiki.common.topics import question_subject
from autodidact.wiki.compile.compiler import compile_wiki

from .conftest import add_raw


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("What is the widget market size?", "widget market size"),
        ("How do generators produce values lazily?", "generators"),
        ("What are the limitations of asyncio?", "asyncio"),
        ("How does the GIL work?", "GIL"),
        ("什么是备兑开仓？", "备兑开仓"),
        ("期权波动率曲面是什么？", "期权波动率曲面"),
        ("Python 生成器有哪些局限性？", "Python 生成器"),
        ("Python 生成器的工作原理是什么？", "Python 生成器"),
        ("国内期权市场规模有多大？", "国内期权市场规模"),
    ],
)
def test_question_subject(question: str, subject: str) -> None:
    assert question_subject(question) == subject


def test_hand_written_article_is_merged_not_replaced(en_kb: KnowledgeBase) -> None:
    (en_kb.wiki / "generators.md").write_text(
        "# Generators\n\nMy own summary of generators, written by hand.\n\n## Notes\n\nA paragraph I wrote myself.\n",
        "utf-8",
    )
    name = add_raw(en_kb, "Generators", "Generators are lazy iterators that produce one value at a time on request.\n")
    result = compile_wiki(en_kb, None, None)
    assert result.updated == ["Generators"] and result.new == []
    art = load_article(en_kb.wiki / "generators.md")
    assert art.summary == "My own summary of generators, written by hand."  # a person's summary is kept
    assert art.section("Notes") is not None and art.section("Notes").blocks == ["A paragraph I wrote myself."]  # type: ignore[union-attr]
    assert any(name in b for s in art.sections for b in s.blocks)
    assert art.sources == [name]


def test_bad_and_empty_raw_files_do_not_block(en_kb: KnowledgeBase) -> None:
    (en_kb.raw / "broken.md").write_bytes(b"\x00\x01binary\x00" * 10)
    (en_kb.raw / "tiny.md").write_text("ok\n", "utf-8")
    good = add_raw(en_kb, "Generators", "Generators are lazy iterators that produce one value at a time on request.\n")
    result = compile_wiki(en_kb, None, None)
    assert [f.split(":")[0] for f in result.failed] == ["broken.md"]
    assert result.empty == ["tiny.md"] and result.compiled == [good]
    assert sorted(p.name for p in en_kb.wiki.glob("*.md")) == ["INDEX.md", "generators.md"]


def test_long_article_is_sent_in_chunks(en_kb: KnowledgeBase) -> None:
    sections = "\n\n".join(
        f"## Part {i}\n\n- Part {i} text about generators {'and more words ' * 40}(source: old.md)" for i in range(30)
    )
    (en_kb.wiki / "generators.md").write_text(
        f"# Generators\n\nSummary here. (source: old.md)\n\n{sections}\n", "utf-8"
    )
    before = (en_kb.wiki / "generators.md").read_text("utf-8")
    assert len(before) > 16_000
    name = add_raw(
        en_kb, "Generators", "## Part 7\n\nGenerators in part seven gained a brand new capability in this release.\n"
    )

    def reply(request: Request) -> str:
        current = request.messages[1]["content"]
        assert "Part 7" in current
        return json.dumps(
            {
                "summary": "",
                "sections": [{"heading": "Part 7", "blocks": [f"- Part seven gained a capability. (source: {name})"]}],
            }
        )

    model = ScriptedModel(fn=reply)
    compile_wiki(en_kb, [name], Runtime(model=model))
    prompt = sum(len(m["content"]) for m in model.requests[0].messages)
    assert prompt < 12_000
    sent = model.requests[0].messages[1]["content"]
    assert "Part 29" in sent and "Part 29 text" not in sent  # listed under sections_not_shown, not sent
    art = load_article(en_kb.wiki / "generators.md")
    assert art.section("Part 7").blocks == [f"- Part seven gained a capability. (source: {name})"]  # type: ignore[union-attr]
    assert art.section("Part 20").blocks[0].startswith("- Part 20 text")  # type: ignore[union-attr]
    assert art.summary == "Summary here. (source: old.md)"


def test_sync_entry_points_work_inside_a_running_loop(en_kb: KnowledgeBase) -> None:
    import asyncio

    from autodidact.wiki.audit.check import check_wiki

    add_raw(en_kb, "Generators", "Generators are lazy iterators that produce one value at a time on request.\n")

    async def orchestrator() -> tuple[list[str], int]:
        result = compile_wiki(en_kb, None, None)
        report = check_wiki(en_kb, [{"id": "q1", "text": "What are generators?"}], 1, None).report
        return result.new, report.resolved + report.partial

    assert asyncio.run(orchestrator()) == (["Generators"], 1)
