"""The knowledge base opened as an Obsidian vault (issue 19, item 3).

Snapshots and internals are excluded through ``.obsidian/app.json`` (merged into a person's own
settings); citations are links Obsidian and GitHub follow, and every parser reads both forms; the
front matter is YAML a YAML parser reads, and a person's edits to it survive a compile.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from autodidact.errors import InputError
from autodidact.kb import KnowledgeBase, init_kb
from autodidact.obsidian import APP_JSON, IGNORE_FILTERS
from autodidact.verify import verify_folder
from autodidact.wiki.common.articles import parse_article, render_article
from autodidact.wiki.common.markdown import citation_links, citations, render_citation, strip_citations
from autodidact.wiki.compile.compiler import compile_wiki

from .conftest import add_raw

GEN_BODY = """Generators are functions that return an iterator and produce values lazily with the yield statement.
A generator function is defined like a normal function but uses the yield keyword instead of return.
"""
ZH_BODY = """协程是可以暂停和恢复的函数，Python 使用 async def 定义协程并用 await 等待结果。
事件循环负责调度协程，在等待输入输出时切换到其他协程继续执行。
"""


def _front(text: str) -> dict[str, object]:
    """The front matter of ``text`` as a YAML parser reads it."""
    assert text.startswith("---\n")
    block = text[4 : text.index("\n---\n", 4)]
    loaded = yaml.safe_load(block)
    assert isinstance(loaded, dict)
    return loaded


def _articles(kb: KnowledgeBase) -> list[Path]:
    return [p for p in sorted(kb.wiki.glob("*.md")) if p.name != "INDEX.md"]


# --- .obsidian/app.json -------------------------------------------------------------------------


def test_init_excludes_snapshots_and_internals(tmp_path: Path) -> None:
    kb, created = init_kb(tmp_path / "kb", topic="Python generators")
    settings_file = kb.root / APP_JSON
    assert APP_JSON.as_posix() in created
    data = json.loads(settings_file.read_text("utf-8"))
    assert data["userIgnoreFilters"][:2] == ["source_cache/", ".autodidact/"]
    before = settings_file.read_bytes()
    _, again = init_kb(kb.root)
    assert again == [] and settings_file.read_bytes() == before  # nothing to add: untouched


def test_a_persons_obsidian_settings_are_merged_not_replaced(tmp_path: Path) -> None:
    root = tmp_path / "kb"
    (root / ".obsidian").mkdir(parents=True)
    mine = {"vimMode": True, "userIgnoreFilters": ["drafts/", "source_cache/"]}
    (root / APP_JSON).write_text(json.dumps(mine), "utf-8")
    init_kb(root)
    data = json.loads((root / APP_JSON).read_text("utf-8"))
    assert data["vimMode"] is True
    assert data["userIgnoreFilters"] == ["drafts/", "source_cache/", *IGNORE_FILTERS[1:]]


def test_unreadable_obsidian_settings_are_left_alone(tmp_path: Path) -> None:
    root = tmp_path / "kb"
    (root / ".obsidian").mkdir(parents=True)
    (root / APP_JSON).write_text("{not json", "utf-8")
    _, created = init_kb(root)
    assert APP_JSON.as_posix() not in created
    assert (root / APP_JSON).read_text("utf-8") == "{not json"


# --- citations as links -------------------------------------------------------------------------


def test_citation_links_read_in_both_forms() -> None:
    plain = "Generators are lazy. (source: a.md, b.md)"
    linked = "Generators are lazy. (source: [a.md](../raw/a.md), [b c.md](../raw/b%20c.md))"
    assert citations(plain) == ["a.md", "b.md"]
    assert citations(linked) == ["a.md", "b c.md"]
    assert citation_links(linked) == [("a.md", "../raw/a.md"), ("b c.md", "../raw/b c.md")]
    assert strip_citations(linked) == strip_citations(plain) == "Generators are lazy."
    zh = "协程可以暂停。" + render_citation(["2026-12-02_第-2-章.md", "b.md"], "zh")
    assert zh.endswith("（来源：[2026-12-02_第-2-章.md](../raw/2026-12-02_第-2-章.md)、[b.md](../raw/b.md)）")
    assert citations(zh) == ["2026-12-02_第-2-章.md", "b.md"]
    assert citations("协程可以暂停。（来源：a.md、b.md）") == ["a.md", "b.md"]


def test_the_eval_reads_both_citation_forms() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "eval"))
    try:
        from run import cited_names  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    text = "A. (source: a.md, [b.md](../raw/b.md))\nB。（来源：[中.md](../raw/中.md)、c.md）"
    assert cited_names(text) == ["a.md", "b.md", "中.md", "c.md"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_compiled_citations_are_links_to_files_that_exist(tmp_path: Path, lang: str) -> None:
    kb, _ = init_kb(tmp_path / "kb", lang=lang)
    add_raw(kb, "Generators" if lang == "en" else "协程", GEN_BODY if lang == "en" else ZH_BODY)
    compile_wiki(kb, None, None, today="2026-12-01")
    links = [(a, link) for a in _articles(kb) for link in citation_links(a.read_text("utf-8"))]
    assert links
    for article, (name, target) in links:
        resolved = (article.parent / target).resolve()
        assert resolved == (kb.raw / name).resolve() and resolved.is_file()
    report = verify_folder(kb.root)
    assert report.ok, report.problems


def test_verify_checks_where_a_citation_links(tmp_path: Path) -> None:
    kb, _ = init_kb(tmp_path / "kb", lang="en")
    name = add_raw(kb, "Generators", GEN_BODY)
    compile_wiki(kb, None, None, today="2026-12-01")
    article = _articles(kb)[0]
    text = article.read_text("utf-8")
    article.write_text(text.replace(f"](../raw/{name})", "](../raw/elsewhere.md)", 1), "utf-8")
    problems = verify_folder(kb.root).problems
    assert [p.check for p in problems] == ["wiki_citations"]
    assert f"links {name} to ../raw/elsewhere.md" in problems[0].message


def test_plain_citations_of_an_existing_knowledge_base_still_verify(tmp_path: Path) -> None:
    kb, _ = init_kb(tmp_path / "kb", lang="en")
    name = add_raw(kb, "Generators", GEN_BODY)
    compile_wiki(kb, None, None, today="2026-12-01")
    article = _articles(kb)[0]
    article.write_text(article.read_text("utf-8").replace(f"[{name}](../raw/{name})", name), "utf-8")
    assert "(source: " + name in article.read_text("utf-8")
    report = verify_folder(kb.root)
    assert report.ok, report.problems
    assert report.checked["wiki_citations"] >= 1


# --- YAML front matter --------------------------------------------------------------------------


def test_the_written_vault_parses_as_yaml(tmp_path: Path) -> None:
    kb, _ = init_kb(tmp_path / "kb", lang="en")
    name = add_raw(kb, "Generators: a tour", GEN_BODY)
    compile_wiki(kb, None, None, today="2026-12-01")
    for article in _articles(kb):
        front = _front(article.read_text("utf-8"))
        parsed = parse_article(article.read_text("utf-8"), article.stem)
        assert front["title"] == parsed.title
        assert front["sources"] == parsed.sources == [name]
        assert front["updated"] == "2026-12-01"


def test_a_persons_front_matter_edits_survive_a_compile(tmp_path: Path) -> None:
    kb, _ = init_kb(tmp_path / "kb", lang="en")
    add_raw(kb, "Generators", GEN_BODY, date="2026-12-01")
    compile_wiki(kb, None, None, today="2026-12-01")
    article = kb.wiki / "generators.md"
    text = article.read_text("utf-8")
    body = text[4:].split("\n---\n", 1)[1]
    sources = _front(text)["sources"]
    edited = (
        "---\n"
        "title: >-\n  Generators and\n  lazy iteration\n"
        "aliases: ['async, await', yes]\n"
        f"sources: {json.dumps(sources)}\n"
        "updated: 2026-12-01\n"
        "cssclasses:\n  - wide   # my layout\n"
        "tags: [python, iteration]\n"
        "---\n" + body
    )
    article.write_text(edited, "utf-8")
    more = "Generators can receive values from the caller through the send method of the generator object.\n"
    name = add_raw(kb, "Generators", more, date="2026-12-02", url="https://example.org/other-gen")
    compile_wiki(kb, [f"raw/{name}"], None, today="2026-12-02")
    after = article.read_text("utf-8")
    front = _front(after)
    assert front["title"] == "Generators and lazy iteration"
    assert front["aliases"] == ["async, await", "yes"]  # one alias with a comma; `yes` stays text
    assert front["cssclasses"] == ["wide"] and front["tags"] == ["python", "iteration"]
    assert "  - wide   # my layout" in after  # the person's lines, as written
    assert name in front["sources"] and front["updated"] == "2026-12-02"
    assert "send method" in after


def test_invalid_front_matter_is_a_clear_error_naming_the_file() -> None:
    with pytest.raises(InputError) as err:
        parse_article("---\ntitle: [unclosed\n---\n# X\n", "my-topic")
    assert "wiki/my-topic.md" in str(err.value) and "YAML" in str(err.value)
    assert "\n" not in str(err.value)


def test_verify_names_an_article_whose_front_matter_is_not_yaml(tmp_path: Path) -> None:
    kb, _ = init_kb(tmp_path / "kb", lang="en")
    add_raw(kb, "Generators", GEN_BODY)
    compile_wiki(kb, None, None, today="2026-12-01")
    article = _articles(kb)[0]
    article.write_text(article.read_text("utf-8").replace("aliases: []", "aliases: [unclosed", 1), "utf-8")
    problems = verify_folder(kb.root).problems
    assert [p.check for p in problems] == ["wiki_articles"]
    assert f"wiki/{article.name}" in problems[0].message and "line 3" in problems[0].message


def test_old_front_matter_reads_and_renders_unchanged() -> None:
    old = (
        '---\ntitle: "Python generators"\naliases: []\nsources:\n  - "2026-12-02_generator-functions.md"\n'
        'updated: "2026-12-02"\ncompiled_summary: "0123456789abcdef"\n---\n\n# Python generators\n\n'
        "A generator function is called a generator. (source: 2026-12-02_generator-functions.md)\n"
    )
    assert render_article(parse_article(old, "python-generators")) == old


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=200, deadline=None)
@given(title=_TEXT.filter(lambda t: t.strip() == t and len(t.splitlines()) == 1), aliases=st.lists(_TEXT, max_size=3))
def test_any_title_and_aliases_round_trip_through_a_yaml_parser(title: str, aliases: list[str]) -> None:
    """Whatever a title (one line: it is the H1 too) or alias holds, a YAML parser reads it back."""
    art = parse_article("---\ntitle: x\n---\n\n# x\n", "x")
    art.title = title
    art.aliases = [a for a in aliases if a]
    rendered = render_article(art)
    front = _front(rendered)
    assert front["title"] == title and front["aliases"] == art.aliases
    again = parse_article(rendered, "x")
    assert (again.title, again.aliases) == (title, art.aliases)
    assert render_article(again) == rendered
