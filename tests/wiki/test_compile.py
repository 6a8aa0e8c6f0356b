"""wiki compile: idempotence, incremental updates, contradictions, slugs, Chinese, quality weighting."""

from __future__ import annotations

import json

from autodidact.kb import KnowledgeBase
from autodidact.store import atomic
from autodidact.wiki.audit.check import check_wiki
from autodidact.wiki.common.articles import load_article, load_wiki, parse_article, render_article
from autodidact.wiki.common.markdown import wikilinks
from autodidact.wiki.compile.compiler import compile_wiki

from .conftest import add_raw, snapshot

GEN_BODY = """Generators are functions that return an iterator and produce values lazily with the yield statement.
A generator function is defined like a normal function but uses the yield keyword instead of return.

## Memory use

Generators keep only one item in memory at a time, which suits large data streams well.
A generator expression looks like a list comprehension written with round brackets instead.
"""
DECO_BODY = """Decorators wrap a function in another function to extend its behaviour without editing it.
The @ syntax applies a decorator to the function defined on the following line of the module.
"""


def write_questions(kb: KnowledgeBase, n: int, questions: list[dict[str, str]]) -> None:
    atomic.write_json(kb.rounds / f"round_{n}_questions.json", {"questions": questions})


def test_compile_twice_changes_nothing(en_kb: KnowledgeBase) -> None:
    add_raw(en_kb, "Generators - Python Wiki", GEN_BODY)
    add_raw(en_kb, "Decorators explained", DECO_BODY, quality="中")
    first = compile_wiki(en_kb, None, None, today="2026-12-01")
    assert sorted(first.new) == ["Decorators explained", "Generators"]
    before = snapshot(en_kb.wiki)
    second = compile_wiki(en_kb, None, None, today="2026-12-09")
    assert second.new == [] and second.updated == []
    assert sorted(second.skipped) == sorted(first.compiled)
    assert snapshot(en_kb.wiki) == before  # byte-identical, `updated` kept


def test_render_parse_round_trip(en_kb: KnowledgeBase) -> None:
    add_raw(en_kb, "Generators", GEN_BODY)
    compile_wiki(en_kb, None, None)
    for path in en_kb.wiki.glob("*.md"):
        if path.name == "INDEX.md":
            continue
        text = path.read_text("utf-8")
        assert render_article(parse_article(text, path.stem)) == text


def test_adding_a_file_updates_only_the_articles_it_touches(en_kb: KnowledgeBase) -> None:
    add_raw(en_kb, "Generators", GEN_BODY, date="2026-12-01")
    add_raw(en_kb, "Decorators", DECO_BODY, date="2026-12-01")
    compile_wiki(en_kb, None, None, today="2026-12-01")
    deco_before = (en_kb.wiki / "decorators.md").read_bytes()
    gen_before = (en_kb.wiki / "generators.md").read_bytes()
    extra = "Generators can receive values from the caller through the send method of the generator object.\n"
    name = add_raw(en_kb, "Generators", extra, date="2026-12-02", url="https://example.org/other-gen")
    assert name.endswith("generators.md")
    result = compile_wiki(en_kb, [f"raw/{name}"], None, today="2026-12-02")
    assert result.updated == ["Generators"] and result.new == []
    assert (en_kb.wiki / "decorators.md").read_bytes() == deco_before
    gen_after = (en_kb.wiki / "generators.md").read_text("utf-8")
    assert gen_after.encode() != gen_before
    assert "send method" in gen_after and name in gen_after
    article = load_article(en_kb.wiki / "generators.md")
    assert article.updated == "2026-12-02" and name in article.sources


def test_contradicting_source_gets_marker_and_is_reported(en_kb: KnowledgeBase) -> None:
    write_questions(en_kb, 1, [{"id": "r1q1", "text": "What is the widget market size?"}])
    a = add_raw(
        en_kb, "Widget report A", "The global widget market was worth 500 million dollars in 2024.\n", qids=["r1q1"]
    )
    b = add_raw(
        en_kb, "Widget report B", "The global widget market was worth 800 million dollars in 2024.\n", qids=["r1q1"]
    )
    result = compile_wiki(en_kb, None, None)
    assert result.new == ["widget market size"]
    text = (en_kb.wiki / "widget-market-size.md").read_text("utf-8")
    marker = next(line for line in text.splitlines() if line.startswith("> ⚠️ 待核实: "))
    assert a in marker and b in marker and "500" in marker and "800" in marker
    report = check_wiki(en_kb, None, 1, None).report
    assert report.contradiction_count == 1 and "500" in report.contradictions[0]


def test_statement_from_two_sources_cites_both(en_kb: KnowledgeBase) -> None:
    same = "Generators are functions that return an iterator and produce values lazily with the yield statement.\n"
    a = add_raw(en_kb, "Generators", same, url="https://example.org/a")
    b = add_raw(en_kb, "Generators", same, url="https://example.org/b", date="2026-12-03")
    compile_wiki(en_kb, None, None)
    text = (en_kb.wiki / "generators.md").read_text("utf-8")
    assert text.count("produce values lazily") == 2  # once in the summary, once in the body
    assert f"(source: [{a}](../raw/{a}), [{b}](../raw/{b}))" in text


def test_slug_collision_gets_suffix(en_kb: KnowledgeBase) -> None:
    body = "{} is a programming language used for systems programming and many other tasks today.\n"
    for title in ("C", "C++", "C+"):
        add_raw(
            en_kb, title, body.format(title), url=f"https://example.org/{title.replace('+', 'p').replace('#', 's')}"
        )
    compile_wiki(en_kb, None, None)
    titles = {a.stem: a.title for a in load_wiki(en_kb.wiki)}
    assert set(titles) == {"c", "c-2", "c-3"}
    assert sorted(titles.values()) == ["C", "C+", "C++"]
    index = (en_kb.wiki / "INDEX.md").read_text("utf-8")
    assert "[[c-2|" in index and "[[c-3|" in index


def test_chinese_titles_citations_and_index(zh_kb: KnowledgeBase) -> None:
    write_questions(
        zh_kb, 1, [{"id": "r1q1", "text": "什么是备兑开仓？"}, {"id": "r1q2", "text": "期权波动率曲面是什么？"}]
    )
    a = add_raw(
        zh_kb,
        "备兑开仓策略详解",
        "备兑开仓是指投资者在持有标的证券的同时卖出相应数量的认购期权。\n这种策略可以在震荡市中增加持仓收益，但会限制上涨空间。\n",
        qids=["r1q1"],
    )
    b = add_raw(
        zh_kb,
        "波动率曲面入门",
        "期权波动率曲面描述了隐含波动率随行权价和到期时间变化的形状。\n交易员用波动率曲面比较不同合约的相对价格，也会参考备兑开仓的收益。\n",
        qids=["r1q2"],
        quality="中",
    )
    result = compile_wiki(zh_kb, None, None)
    assert sorted(result.new) == ["备兑开仓", "期权波动率曲面"]
    art = load_article(zh_kb.wiki / "备兑开仓.md")
    assert art.title == "备兑开仓" and "备兑开仓策略详解" in art.aliases
    text = (zh_kb.wiki / "备兑开仓.md").read_text("utf-8")
    assert f"（来源：[{a}](../raw/{a})）" in text and "## 要点" in text
    other = (zh_kb.wiki / "期权波动率曲面.md").read_text("utf-8")
    assert f"（来源：[{b}](../raw/{b})）" in other
    assert "[[备兑开仓]]" in other  # mentions the other article's title → link
    index = (zh_kb.wiki / "INDEX.md").read_text("utf-8")
    assert index.startswith("# 知识库索引") and "[[备兑开仓]]" in index and "[[期权波动率曲面]]" in index


def test_quality_weighting_and_pending(en_kb: KnowledgeBase) -> None:
    sentences = [
        f"Fact number {i} about generators says something specific and fairly detailed here." for i in range(15)
    ]
    prose = [
        f"Generators are described in paragraph {chr(65 + i)} with plain wording and no figures at all."
        for i in range(6)
    ]
    body = "\n".join(sentences) + "\n"
    for q, title in (("高", "High"), ("中", "Mid")):
        add_raw(en_kb, f"{title} generators", body, quality=q, url=f"https://example.org/{q}")
    low_body = (
        "\n".join(p.replace(" {chr}", "") for p in prose) + "\nGenerators were added to Python in 2001 by PEP 255.\n"
    )
    add_raw(en_kb, "Low generators", low_body, quality="低", url="https://example.org/low")
    (en_kb.raw / "my-notes.md").write_text("Generators are my favourite feature of the Python language by far.\n")
    result = compile_wiki(en_kb, None, None)
    assert result.pending_quality == ["my-notes.md"]
    counts = {}
    for art in load_wiki(en_kb.wiki):
        counts[art.title] = sum(len(s.blocks) for s in art.body_sections())
    assert counts["High generators"] == 12 and counts["Mid generators"] == 5
    low = (en_kb.wiki / "low-generators.md").read_text("utf-8")
    assert "PEP 255" in low and "paragraph A" not in low
    assert "my favourite feature" in (en_kb.wiki / "my-notes.md").read_text("utf-8")


def test_compile_leaves_no_dangling_links_and_related_sections(en_kb: KnowledgeBase) -> None:
    add_raw(
        en_kb,
        "Generators",
        GEN_BODY + "\nSee [[Coroutines]] and [[Decorators]] for more about how generators relate.\n",
    )
    add_raw(en_kb, "Decorators", DECO_BODY + "Decorators are often combined with generators in context managers.\n")
    compile_wiki(en_kb, None, None)
    stems = {a.stem for a in load_wiki(en_kb.wiki)}
    for art in load_wiki(en_kb.wiki):
        for target in wikilinks(art.text()):
            assert target in stems, target
    deco = (en_kb.wiki / "decorators.md").read_text("utf-8")
    assert "## Related\n\n- [[generators|Generators]]" in deco
    report = check_wiki(en_kb, None, 1, None).report
    assert not [s for s in report.structure if "does not exist" in s]


def test_unknown_file_is_a_clear_error(en_kb: KnowledgeBase, cli: object) -> None:
    result = cli("wiki", "compile", "--kb", str(en_kb.root), "--files", "raw/missing.md")  # type: ignore[operator]
    assert result.exit_code == 2
    assert "missing.md" in result.output


def test_cli_compile_and_check(en_kb: KnowledgeBase, cli: object, tmp_path) -> None:  # type: ignore[no-untyped-def]
    name = add_raw(en_kb, "Generators", GEN_BODY)
    result = cli("wiki", "compile", "--kb", str(en_kb.root))  # type: ignore[operator]
    assert result.exit_code == 0, result.output
    assert "1 new" in result.output and "+ Generators" in result.output
    qfile = tmp_path / "round_3_questions.json"
    qfile.write_text(json.dumps({"questions": [{"id": "r3q1", "text": "What are generators?"}]}), "utf-8")
    result = cli("wiki", "check", str(qfile), "--kb", str(en_kb.root))  # type: ignore[operator]
    assert result.exit_code == 0, result.output
    report = (en_kb.rounds / "round_3_check.md").read_text("utf-8")
    assert report.startswith("# Knowledge audit report (round 3)") and "**r3q1** [resolved]" in report
    assert name  # the raw file exists
