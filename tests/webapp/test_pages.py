"""Every page of the web app, through the ASGI app in-process: what it shows, and that it links right."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import unquote

from .conftest import ORIGIN, client_for, error_of, token_of


def test_an_empty_folder_offers_to_start_and_its_wiki_says_there_is_none(tmp_path: Path) -> None:
    with client_for(tmp_path / "new-kb") as client:
        page = client.get("/")
        assert page.status_code == 200 and "No research here yet" in page.text
        assert page.cookies.get("autodidact_session")
        wiki = client.get("/wiki")
        assert wiki.status_code == 404 and error_of(wiki.text) == "there is no research here yet"
        assert client.get("/debate").status_code == 200
        assert client.get("/research").status_code == 200


def test_the_overview_shows_topic_counts_charts_and_each_termination_condition(english_kb: Path) -> None:
    with client_for(english_kb) as client:
        text = client.get("/").text
    assert '<h1 id="topic">How do Python generators work?</h1>' in text
    assert re.search(r'status<b id="status">terminated', text)
    assert text.count('<svg class="chart"') == 3
    assert "audit issues per round" in text and "new raw files per round" in text
    assert "&gt; 0.7 ends" in text  # the overlap threshold drawn in
    assert text.count('class="threshold"') == 4
    table = text[text.index('id="termination"') :]
    assert re.search(r"the round limit is reached</td><td class=\"met\">met", table)
    assert re.search(r"above 0.7</td><td class=\"unmet\">not met", table)
    assert "$0.0000" in text


def test_the_wiki_index_links_articles_and_an_article_links_its_citations_to_the_quote(english_kb: Path) -> None:
    with client_for(english_kb) as client:
        index = client.get("/wiki").text
        assert 'href="/wiki/python-generators"' in index
        article = client.get("/wiki/python-generators").text
        links = re.findall(r'<a href="(/source/[^"]+)">([^<]+)</a>', article)
        assert links, "no citation links"
        href = html.unescape(links[0][0])
        quoted = unquote(href.split("?q=")[1])
        source = client.get(href)
        assert source.status_code == 200
        mark = re.search(r'<mark id="quote">(.*?)</mark>', source.text, re.DOTALL)
        assert mark and " ".join(mark.group(1).split()) == quoted
        snapshot = re.search(r'id="snapshot" href="([^"]+)"', source.text)
        assert snapshot, "the raw file names its snapshot"
        in_snapshot = client.get(html.unescape(snapshot.group(1)))
        assert in_snapshot.status_code == 200 and '<mark id="quote">' in in_snapshot.text
        assert client.get("/wiki/INDEX", follow_redirects=False).status_code == 307


def test_wiki_links_navigate_and_the_graph_draws_them(english_kb: Path, tmp_path: Path) -> None:
    extra = english_kb / "wiki" / "generator-pitfalls.md"
    extra.write_text(
        '---\ntitle: "Generator pitfalls"\n---\n\n# Generator pitfalls\n\nSee [[python-generators|the basics]].\n',
        encoding="utf-8",
    )
    try:
        with client_for(english_kb) as client:
            page = client.get("/wiki/generator-pitfalls").text
            assert '<a href="/wiki/python-generators">the basics</a>' in page
            graph = client.get("/wiki/graph").text
    finally:
        extra.unlink()
    assert "1 links between articles" in graph
    assert graph.count('class="edge"') == 1 and 'href="/wiki/generator-pitfalls"' in graph


def test_text_from_sources_is_escaped_everywhere(english_kb: Path) -> None:
    evil = "<script>alert(1)</script>"
    article = english_kb / "wiki" / "evil.md"
    raw = english_kb / "raw" / "evil.md"
    article.write_text(
        f'# Evil {evil}\n\nA claim with <img src=x onerror=alert(1)>. (source: evil.md)\n\n[[x"><b>|{evil}]]\n',
        encoding="utf-8",
    )
    raw.write_text(f"# Evil\n\n{evil} A claim with <img src=x onerror=alert(1)>.\n", encoding="utf-8")
    try:
        with client_for(english_kb) as client:
            page = client.get("/wiki/evil").text
            cited = re.search(r'<a href="(/source/evil.md[^"]+)"', page)
            assert cited
            source = client.get(html.unescape(cited.group(1))).text
            graph = client.get("/wiki/graph").text
    finally:
        article.unlink()
        raw.unlink()
    for text in (page, source, graph):
        assert "<script>alert" not in text and "<img src=x" not in text and "<b>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in source
    assert '<mark id="quote">A claim with &lt;img src=x onerror=alert(1)&gt;.</mark>' in source


def test_a_report_links_each_number_to_its_reference_and_back(english_kb: Path) -> None:
    with client_for(english_kb) as client:
        listing = client.get("/reports").text
        name = re.search(r'<a href="/reports/([^"/]+)/">', listing)
        assert name
        page = client.get(f"/reports/{name.group(1)}/").text
        cites = re.findall(r'<a class="cite" id="cite-(\d+)-(\d+)" href="#ref-(\d+)">', page)
        assert cites and all(a == c for a, _, c in cites)
        for n in {a for a, _, _ in cites}:
            assert f'<p id="ref-{n}">[{n}]' in page
            assert f'href="#cite-{n}-1"' in page
        snapshot = re.search(r'href="(source_cache/[^"]+)"', page)
        assert snapshot, "the references link their snapshots"
        served = client.get(f"/reports/{name.group(1)}/{snapshot.group(1)}")
        assert served.status_code == 200 and "Python generators" in served.text


def test_a_chinese_knowledge_base_renders_and_its_citations_open_the_quote(chinese_kb: Path) -> None:
    with client_for(chinese_kb) as client:
        overview = client.get("/").text
        assert "APT 如何管理软件包？" in overview
        assert '<html lang="zh-CN">' in overview  # a browser picks CJK fonts for it
        listing = client.get("/wiki").text
        names = re.findall(r'<li><a href="/wiki/([^"]+)">APT 软件包管理</a>', listing)
        assert names, "the article is listed under its Chinese title"
        article = client.get(f"/wiki/{names[0]}").text
        links = re.findall(r'（来源：<a href="(/source/[^"]+)">', article)
        assert links, "no Chinese citation links"
        source = client.get(html.unescape(links[0])).text
    mark = re.search(r'<mark id="quote">(.*?)</mark>', source, re.DOTALL)
    assert mark, "the quoted Chinese passage is marked"
    assert mark.group(1) == "使用 apt install 命令安装软件包，使用 apt remove 命令删除软件包。"


def test_a_debate_is_started_answered_shown_and_closed_from_forms(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    with client_for(kb) as client:
        token = token_of(client, "/debate")
        started = client.post(
            "/debate/start",
            data={"token": token, "prompt": "Generators make code harder to read", "depth": "quick"},
            headers={"origin": ORIGIN},
            follow_redirects=False,
        )
        assert started.status_code == 303
        page_url = started.headers["location"]
        page = client.get(page_url).text
        question = re.search(r'id="open-question">([^<]+)<', page)
        turn = re.search(r'name="turn" value="(\d+)"', page)
        assert question and turn
        replied = client.post(
            f"{page_url}/reply",
            data={"token": token, "turn": turn.group(1), "answer": "I mean pipelines of three chained generators"},
            headers={"origin": ORIGIN},
        )
        assert replied.status_code == 200
        assert "I mean pipelines of three chained generators" in replied.text  # the transcript
        stale = client.post(
            f"{page_url}/reply",
            data={"token": token, "turn": turn.group(1), "answer": "again"},
            headers={"origin": ORIGIN},
        )
        assert stale.status_code == 409, "a reply to a turn that moved on is refused"
        closed = client.post(f"{page_url}/close", data={"token": token}, headers={"origin": ORIGIN})
        assert closed.status_code == 200 and 'id="debate-state">CLOSED' in closed.text
        assert page_url.rsplit("/", 1)[1] in client.get("/debate").text
    from autodidact.api import Debate

    assert "three chained generators" in Debate(page_url.rsplit("/", 1)[1], kb=kb).transcript()


def test_the_quote_of_a_citation_is_the_statement_right_before_it() -> None:
    from autodidact.webapp.render import highlight, quote_before, wiki_html

    line = "- First point. (source: a.md) Second point about [[gen|generators]] here. (source: b.md)"
    assert quote_before(line, line.rindex("(source")) == "Second point about generators here."
    zh = "使用 apt install 安装。（来源：a.md）APT 解析依赖关系。（来源：a.md）"
    assert quote_before(zh, zh.rindex("（来源")) == "APT 解析依赖关系。"
    rendered = wiki_html(line)
    assert 'href="/source/b.md?q=Second%20point%20about%20generators%20here."' in rendered
    assert '<a href="/wiki/gen">generators</a>' in rendered
    marked = highlight("Second point about\n   generators here. More.", "Second point about generators here.")
    assert marked.found and marked.html == '<mark id="quote">Second point about\n   generators here.</mark> More.'
    assert not highlight("nothing like it", "Second point").found


def test_citations_written_as_links_and_plainly_both_open_their_source() -> None:
    """The compile cites a raw file as a markdown link (``[x.md](../raw/x.md)``, which Obsidian and
    GitHub follow); older articles cite it plainly. Both open the source at the quoted statement,
    and a Chinese citation keeps its 、."""
    from autodidact.webapp.render import wiki_html

    html = wiki_html(
        "A generator suspends. (source: [a b.md](<../raw/a b.md>), c.md)\n\n"
        "生成器暂停。（来源：[x.md](../raw/x.md)、y.md）"
    )
    for name in ("a%20b.md", "c.md", "x.md", "y.md"):
        assert f'href="/source/{name}?q=' in html, html
    assert "../raw/" not in html and "、<a" in html
