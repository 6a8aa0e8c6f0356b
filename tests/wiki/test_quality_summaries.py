"""Summaries, index lines and selected statements are whole sentences, not changelog notes or fragments.

On real pydoc text (the demo's sources) and small hand-written passages; each test pins a defect
seen in the demo wiki of "How do Python generators and coroutines work?".
"""

from __future__ import annotations

from pathlib import Path

from autodidact.kb import KnowledgeBase
from autodidact.wiki.common.articles import Article, Section, load_wiki
from autodidact.wiki.common.markdown import split_sentences, strip_citations, summary_worthy
from autodidact.wiki.compile.compile_task import SectionText, SourceMeta, make_summary
from autodidact.wiki.compile.compiler import compile_wiki
from autodidact.wiki.compile.index_page import describe

from .conftest import write_demo_kb


def test_summary_and_index_line_skip_fragments_and_version_notes() -> None:
    blocks = [
        "- Changed in version 3.8: Prior to Python 3.8, a continue statement was illegal in it. (source: f.md)",
        "- generator* function, and are only used in the body of the generator function. (source: f.md)",
        "- For example, the yield statements (source: f.md)",
        "- The finally clause is always executed on the way out of a try statement. (source: f.md)",
        "- A saved exception is re-raised at the end of the clause. (source: f.md)",
    ]
    summary = make_summary(
        "finally clause",
        [SectionText(heading="Key points", blocks=blocks)],
        {"f.md": SourceMeta(quality="高")},
        1,
        "en",
    )
    statements = split_sentences(strip_citations(summary))[1:]
    assert statements == [
        "The finally clause is always executed on the way out of a try statement.",
        "A saved exception is re-raised at the end of the clause.",
    ]
    art = Article(
        stem="finally-clause", title="finally clause", summary=summary, sections=[Section("Key points", blocks)]
    )
    assert describe(art) == "The finally clause is always executed on the way out of a try statement."
    hand = Article(
        stem="x", title="Widgets", summary="Changed in version 2.0: widgets grew. Widgets are small machines."
    )
    assert describe(hand) == "Widgets are small machines."


def test_index_lines_on_the_demo_files_are_whole_sentences(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    write_demo_kb(en_kb, pydoc_dir)
    compile_wiki(en_kb, None, None, today="2026-12-02")
    lines = [ln for ln in (en_kb.wiki / "INDEX.md").read_text("utf-8").splitlines() if ln.startswith("- [[")]
    assert len(lines) == 5
    for line in lines:
        description = line.split(" — ", 1)[1]
        if description.endswith("…"):  # cut at the line limit: judge the start, with an end put back
            description = description[:-1] + "."
        assert summary_worthy(description), line
        assert not description.startswith("Changed in version") and "*" not in description
    for art in load_wiki(en_kb.wiki):
        statements = split_sentences(strip_citations(art.summary))[1:]
        assert 1 <= len(statements) <= 3 and all(summary_worthy(s) for s in statements), art.summary
        body = [b for s in art.body_sections() for b in s.blocks]
        fragments = ("- generator*", "- *PEP", "- yield <expr>", "- For example, the yield", "- manager = (")
        assert not any(b.startswith(fragments) for b in body), body


def test_emphasis_markers_never_reach_articles_in_either_script(zh_kb: KnowledgeBase) -> None:
    from .conftest import add_raw

    body = (
        "APT 可以让用户从档案库安装**统一设置的二进制软件包**到系统中。\n\n"
        "*Debian* 软件包管理系统有丰富的历史，有许多可供选择的前端程序。\n"
    )
    add_raw(zh_kb, "软件包管理", body)
    compile_wiki(zh_kb, None, None)
    (art,) = load_wiki(zh_kb.wiki)
    text = art.text()
    assert "统一设置的二进制软件包到系统中" in text and "Debian 软件包管理系统" in text
    assert "*" not in text
