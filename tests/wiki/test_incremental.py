"""Incremental rounds (issue 18): what the audit and the compile keep between rounds, and that it
changes nothing they write.

The counters read here are the code's own (``WIKI_STATS.parsed``, the facts cache's ``STATS``, a
``FileMemo``'s ``reads``), not mocks: a test sees what the audit really did.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest

from autodidact.kb import KnowledgeBase
from autodidact.store import filememo
from autodidact.store.filememo import FileMemo
from autodidact.wiki.audit import findings_cache
from autodidact.wiki.audit.article_findings import (
    all_findings,
    citation_findings,
    link_facts,
    names_of,
    structure_findings,
)
from autodidact.wiki.audit.check import check_wiki, render_report
from autodidact.wiki.audit.findings_cache import CACHE_NAME
from autodidact.wiki.audit.retrieval import WikiIndex, article_units, keep_index, wiki_index
from autodidact.wiki.common.articles import (
    WIKI_STATS,
    Article,
    Section,
    forget_wiki_memory,
    load_wiki,
    resolver,
    wiki_files,
)
from autodidact.wiki.common.markdown import normalize_key, tokens
from autodidact.wiki.compile.linking import _mention_pattern, body_text, mentions

from .conftest import add_raw

TOPIC = "How do Python generators work?"
QUESTIONS = ["How do generators produce values lazily?", "What does the event loop schedule?"]


def article(title: str, raw: str, body: list[str], related: list[str] = ()) -> str:  # type: ignore[assignment]
    lines = [
        "---",
        f'title: "{title}"',
        "aliases: []",
        "sources:",
        f'  - "{raw}"',
        'updated: "2026-12-01"',
        "---",
        "",
        f"# {title}",
        "",
        f"{title} is described here in a short summary for the audit test. (source: {raw})",
        "",
        "## Key points",
        "",
        *body,
        "",
    ]
    if related:
        lines += ["## Related", "", *(f"- [[{r}]]" for r in related), ""]
    return "\n".join(lines)


@pytest.fixture
def wiki(en_kb: KnowledgeBase) -> tuple[KnowledgeBase, str]:
    """A wiki with a finding of every kind: dangling link, undefined term in two articles, uncited
    statement, unsupported conclusion, citation of a missing raw file, numbers that disagree, a
    marker, INDEX.md out of sync, an orphan."""
    raw = add_raw(en_kb, "Source", "Anything at all is written in this source file for the tests.\n")
    pages = {
        "generators": article(
            "generators",
            raw,
            [
                f"- Generators produce values lazily when a caller iterates over them. (source: {raw})",
                f"- The **Event Loop** resumes generators that wait. (source: {raw})",
                "- Therefore generators are always faster than lists for every workload.",
            ],
            ["iterators", "coroutine pipelines"],
        ),
        "iterators": article(
            "iterators",
            raw,
            [
                f"- Iterators implement the protocol with the next method in Python. (source: {raw})",
                f"- The **Event Loop** drives iterators too, in this test. (source: {raw})",
                "- Iterators were first described in a paper long ago.",
            ],
            ["generators"],
        ),
        "coroutines": article(
            "coroutines",
            raw,
            [
                f"- The market for coroutine tools was worth 500 million dollars in 2024. (source: {raw})",
                "- The market for coroutine tools was worth 900 million dollars in 2024. (source: 2026-12-05_b.md)",
                "> ⚠️ 待核实: the two figures disagree",
                "- Await expressions suspend until the awaited object completes. (source: 2026-01-01_gone.md)",
            ],
        ),
    }
    for stem, text in pages.items():
        (en_kb.wiki / f"{stem}.md").write_text(text, "utf-8")
    index = ["# Index", "", "- [[generators]] — lazy values", "- [[removed-article]] — gone"]
    (en_kb.wiki / "INDEX.md").write_text("\n".join(index) + "\n", "utf-8")
    return en_kb, raw


def audit(kb: KnowledgeBase, n: int = 1) -> str:
    return check_wiki(kb, QUESTIONS, n, None, topic=TOPIC).path.read_text("utf-8")


def uncached_report(
    kb: KnowledgeBase, n: int, questions: list[str] = QUESTIONS, topic: str = TOPIC, lang: str = "en"
) -> str:
    """The report phase 2 gives with every fact computed afresh (no cache, no memory)."""
    result = check_wiki(kb, questions, n, None, topic=topic)
    articles = load_wiki(kb.wiki)
    index = kb.wiki / "INDEX.md"
    findings = all_findings(
        articles,
        {p.name for p in kb.raw.iterdir()},
        index.read_text("utf-8") if index.is_file() else None,
        topic,
        lang,
    )
    return render_report(n, result.questions, findings, lang)


def forget() -> None:
    """What a new process would remember: nothing."""
    forget_wiki_memory()
    findings_cache.forget_memory()


def test_the_cached_audit_writes_the_uncached_report(wiki: tuple[KnowledgeBase, str]) -> None:
    kb, _ = wiki
    first = audit(kb, 1)
    assert first == uncached_report(kb, 1)
    for kind in ("orphan", "does not exist", "not supported by a source", "cites no raw/ file", "not in raw/"):
        assert kind in first, kind
    assert "Event Loop" in first and "disagree" in first and "to verify" in first
    second = audit(kb, 1)
    assert second == first


def test_findings_kept_with_the_facts_follow_raw_files_and_links(wiki: tuple[KnowledgeBase, str]) -> None:
    """What the audit keeps with each article's facts (the files it cites and its uncited findings,
    its orphan finding) is used only while it holds: a cited file that appears or disappears in
    raw/, a new link to an orphan and a renamed article give the report a fresh audit gives."""
    kb, raw = wiki

    def same_as_from_the_articles() -> None:  # the articles' own path, with no facts kept anywhere
        files = wiki_files(kb.wiki)
        articles = [f.article for f in files]
        facts = findings_cache.cached_facts(kb.internal, files, "en", TOPIC)
        raw_names = {p.name for p in kb.raw.iterdir()}
        assert citation_findings(articles, raw_names, False, facts) == citation_findings(articles, raw_names, False)
        index = (kb.wiki / "INDEX.md").read_text("utf-8")
        assert structure_findings(articles, index, False, facts) == structure_findings(articles, index, False)

    first = audit(kb, 1)
    assert "cites 2026-12-05_b.md, which is not in raw/" in first and f"cites {raw}," not in first
    assert "- orphan article: no other article links to wiki/coroutines.md\n" in first
    same_as_from_the_articles()
    (kb.raw / "2026-12-05_b.md").write_text((kb.raw / raw).read_text("utf-8"), "utf-8")  # was missing
    (kb.raw / raw).unlink()  # was there
    second = audit(kb, 2)
    assert second == uncached_report(kb, 2)
    assert "cites 2026-12-05_b.md, which" not in second and f"cites {raw}, which is not in raw/" in second
    same_as_from_the_articles()
    text = (kb.wiki / "iterators.md").read_text("utf-8")
    (kb.wiki / "iterators.md").write_text(text.replace("- [[generators]]", "- [[generators]]\n- [[coroutines]]"))
    os.rename(kb.wiki / "generators.md", kb.wiki / "generator-functions.md")
    report = audit(kb, 3)
    assert report == uncached_report(kb, 3)
    assert "orphan article: no other article links to wiki/coroutines.md" not in report
    assert "wiki/generators.md" not in report and "wiki/generator-functions.md" in report
    same_as_from_the_articles()


def _wiki_reads() -> int:
    from autodidact.wiki.common import articles

    return articles._FILES.reads


def test_unchanged_articles_are_neither_read_nor_parsed(
    wiki: tuple[KnowledgeBase, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    kb, _ = wiki
    monkeypatch.setattr(filememo, "RACY_NS", 0)
    audit(kb)
    audit(kb)  # the first audit's entries were taken inside the (zero) window: now trusted
    parsed, computed, reads = WIKI_STATS.parsed, findings_cache.STATS.computed, _wiki_reads()
    before = audit(kb, 2)
    assert (WIKI_STATS.parsed, findings_cache.STATS.computed, _wiki_reads()) == (parsed, computed, reads)
    # an edited article, and only it, is read, parsed and audited again
    path = kb.wiki / "iterators.md"
    path.write_text(path.read_text("utf-8").replace("first described", "first written up"), "utf-8")
    after = audit(kb, 2)
    assert WIKI_STATS.parsed - parsed == 1 and findings_cache.STATS.computed - computed == 1
    assert _wiki_reads() - reads == 1
    assert after != before and "first written up" in after
    assert after == uncached_report(kb, 2)


def test_an_edit_that_keeps_size_and_mtime_is_still_seen(wiki: tuple[KnowledgeBase, str]) -> None:
    kb, _ = wiki
    first = audit(kb)
    path = kb.wiki / "generators.md"
    st = path.stat()
    text = path.read_text("utf-8")
    path.write_text(text.replace("always faster", "always FASTER"), "utf-8")  # same size
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # mtime put back; ctime cannot be
    assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
    second = audit(kb)
    assert "always FASTER" in second and "always faster" not in second and "always faster" in first
    assert second == uncached_report(kb, 1)


def test_a_new_process_reads_the_facts_from_the_cache_file(wiki: tuple[KnowledgeBase, str]) -> None:
    kb, _ = wiki
    first = audit(kb)
    cache = kb.internal / CACHE_NAME
    assert cache.is_file()
    forget()
    computed, loads = findings_cache.STATS.computed, findings_cache.STATS.loads
    assert audit(kb) == first
    assert findings_cache.STATS.computed == computed  # every article's facts came from the file
    assert findings_cache.STATS.loads == loads + 1


def test_a_deleted_cache_file_is_rebuilt(wiki: tuple[KnowledgeBase, str]) -> None:
    kb, _ = wiki
    first = audit(kb)
    cache = kb.internal / CACHE_NAME
    written = cache.read_bytes()
    cache.unlink()
    forget()
    computed = findings_cache.STATS.computed
    assert audit(kb) == first
    assert findings_cache.STATS.computed - computed == 3  # all three articles read again
    assert cache.read_bytes() == written


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: "not json at all\n" + text,  # a foreign header
        lambda text: text + '{"name": "generators.md", "digest": \n',  # a damaged line
        lambda text: text[:-20],  # a torn last line
        lambda text: text.replace('"name_keys": [', '"name_keys": 7, "was": [', 1),  # a wrong shape
        lambda text: "\x00" * 64,  # garbage
    ],
)
def test_a_damaged_cache_file_is_ignored_and_rebuilt(wiki: tuple[KnowledgeBase, str], damage: object) -> None:
    kb, _ = wiki
    first = audit(kb)
    cache = kb.internal / CACHE_NAME
    good = cache.read_text("utf-8")
    cache.write_text(damage(good), "utf-8")  # type: ignore[operator]
    forget()
    computed, rebuilt = findings_cache.STATS.computed, findings_cache.STATS.rebuilt
    assert audit(kb) == first
    assert findings_cache.STATS.rebuilt == rebuilt + 1 and findings_cache.STATS.computed - computed == 3
    assert cache.read_text("utf-8") == good


def test_the_cache_holds_facts_for_this_code_language_and_topic_only(wiki: tuple[KnowledgeBase, str]) -> None:
    kb, _ = wiki
    audit(kb)
    cache = kb.internal / CACHE_NAME
    header = json.loads(cache.read_text("utf-8").splitlines()[0])
    assert header["lang"] == "en" and header["code"] == findings_cache.code_fingerprint()
    assert "generator" in header["subject"]
    forget()
    computed = findings_cache.STATS.computed
    check_wiki(kb, QUESTIONS, 1, None, topic="How does the Debian package manager work?")
    assert findings_cache.STATS.computed - computed == 3  # another topic: every fact read again


def test_appends_then_compacts(wiki: tuple[KnowledgeBase, str]) -> None:
    kb, _ = wiki
    audit(kb)
    cache = kb.internal / CACHE_NAME
    path = kb.wiki / "iterators.md"
    for n in range(3):  # each audit appends the one article it read again
        path.write_text(path.read_text("utf-8").replace("long ago", f"long ago ({n})", 1), "utf-8")
        audit(kb)
        assert len(cache.read_text("utf-8").splitlines()) == 1 + 3 + n + 1
    for n in range(80):  # stale lines past twice the live ones: rewritten whole
        path.write_text(path.read_text("utf-8").replace("long ago", f"long ago [{n}]", 1), "utf-8")
        audit(kb)
    lines = cache.read_text("utf-8").splitlines()
    assert len(lines) < 1 + 2 * 3 + 64 + 2
    forget()
    computed = findings_cache.STATS.computed
    report = audit(kb)
    assert findings_cache.STATS.computed == computed and report == uncached_report(kb, 1)
    names = [json.loads(line)["name"] for line in lines[1:]]
    assert set(names) == {"generators.md", "iterators.md", "coroutines.md"}


def test_a_deleted_article_leaves_the_report(wiki: tuple[KnowledgeBase, str]) -> None:
    kb, _ = wiki
    audit(kb)
    (kb.wiki / "coroutines.md").unlink()
    report = audit(kb)
    assert "coroutines.md" not in report and report == uncached_report(kb, 1)


def test_chinese_report_is_the_uncached_one(zh_kb: KnowledgeBase) -> None:
    raw = add_raw(zh_kb, "来源", "这是一个用于测试的来源文件，内容随意。\n")
    body = [
        f"- 「跨式组合」同时买入看涨期权和看跌期权。（来源：{raw}）",
        "- 因此跨式组合在任何行情下都能盈利。",
        f"- 期权的时间价值会随到期日临近而衰减。（来源：{raw}）",
    ]
    for stem, title in (("straddle", "跨式组合"), ("strangle", "宽跨式组合")):
        text = article(title, raw, body, ["期权定价"]).replace(" is described here in a short summary", "的概述")
        (zh_kb.wiki / f"{stem}.md").write_text(text, "utf-8")
    question = ["跨式组合如何盈利？"]
    first = check_wiki(zh_kb, question, 1, None, topic="期权策略").path.read_text("utf-8")
    assert "知识审计报告" in first and "孤立文章" in first and "没有来源支撑" in first
    forget()
    assert check_wiki(zh_kb, question, 1, None, topic="期权策略").path.read_text("utf-8") == first
    assert uncached_report(zh_kb, 1, question, "期权策略", "zh") == first


# -- the retrieval index kept between audits ----------------------------------------------------


def _random_article(rng: random.Random, stem: str) -> Article:
    words = ["generator", "yield", "loop", "event", "await", "iterator", "value", "send", "close", "frame"]
    heading = rng.choice(["Key points", "How do generators produce values lazily?", "Details"])
    blocks = [" ".join(rng.choices(words, k=rng.randint(3, 9))) + "." for _ in range(rng.randint(1, 3))]
    sections = [Section(heading, blocks)]
    if rng.random() < 0.5:
        other = "Key points" if heading != "Key points" else "More"
        sections.append(Section(other, [" ".join(rng.choices(words, k=5))]))
    summary = " ".join(rng.choices(words, k=6))
    return Article(stem=stem, title=stem.replace("-", " "), summary=summary, sections=sections)


def test_a_synced_index_ranks_as_a_new_one() -> None:
    rng = random.Random(18)
    arts = {f"a{i:02d}": _random_article(rng, f"a{i:02d}") for i in range(40)}
    index = wiki_index("/nowhere/wiki", [])
    queries = ["generator yield value", "event loop await", "How do generators produce values lazily?", "frame"]
    for step in range(12):
        for _ in range(rng.randint(1, 6)):  # edit, add and delete articles
            stem = f"a{rng.randrange(50):02d}"
            if stem in arts and rng.random() < 0.3:
                del arts[stem]
            else:
                arts[stem] = _random_article(rng, stem)
        ordered = [arts[s] for s in sorted(arts)]
        digest = {s: repr(arts[s]) for s in arts}
        index.sync([(f"{s}.md", digest[s], arts[s], article_units(arts[s])) for s in sorted(arts)])
        fresh = WikiIndex(ordered)
        assert index.docs == fresh.docs
        for q in queries:
            assert index.search(q, k=5, heading=q) == fresh.search(q, k=5, heading=q), (step, q)
            assert index.search(q, k=50) == fresh.search(q, k=50), (step, q)
    keep_index("/nowhere/wiki", index)


# -- links: only the pairs that can change are looked at, with the old result --------------------


def _all_pairs_mentions(articles: dict[str, Article], touched: set[str], new: set[str]) -> dict[str, set[str]]:
    """relink's mention scan as it was: every target name against every article's text."""
    texts = {stem: body_text(a) for stem, a in articles.items()}
    links: dict[str, set[str]] = {stem: set() for stem in articles}
    for target in sorted(articles):
        art = articles[target]
        for name in dict.fromkeys([art.title, *art.aliases]):
            pattern = _mention_pattern(name)
            toks = set(tokens(name))
            if pattern is None or not toks:
                continue
            for source, text in texts.items():
                if source == target or (source not in touched and target not in new):
                    continue
                if toks <= set(tokens(text)) and pattern.search(text):
                    links[source].add(target)
    return links


def test_mentions_match_the_all_pairs_scan() -> None:
    rng = random.Random(7)
    names = ["Generators", "Event loop", "Iterator protocol", "yield", "Coroutines", "生成器", "Send", "Await"]
    for _ in range(30):
        articles: dict[str, Article] = {}
        for i, name in enumerate(rng.sample(names, k=6)):
            others = rng.sample(names, k=3)
            text = f"{name} relates to {others[0]} and to {others[1].lower()}; see {others[2]}s. 生成器"
            articles[f"s{i}"] = Article(
                stem=f"s{i}", title=name, aliases=[n for n in others[:1] if rng.random() < 0.3],
                summary=text, sections=[Section("Key points", [text[::-1] if rng.random() < 0.2 else text])],
            )  # fmt: skip
        touched = set(rng.sample(sorted(articles), k=rng.randint(0, 3)))
        new = set(rng.sample(sorted(articles), k=rng.randint(0, 2)))
        assert mentions(articles, touched, new) == _all_pairs_mentions(articles, touched, new)


def test_names_from_facts_are_the_resolver() -> None:
    arts = [
        Article(stem="b", title="Alpha", aliases=["A-B", "Zeta"]),
        Article(stem="a", title="alpha"),
        Article(stem="zeta", title="Zeta"),
    ]
    facts = [link_facts(a) for a in arts]
    assert names_of(arts, facts) == resolver({a.stem: a for a in arts}) == {
        "a": "a", "b": "b", "zeta": "zeta", "alpha": "a", "ab": "b"
    }  # fmt: skip
    assert normalize_key("C++ and C#") == "c++andc#" and normalize_key("X" * 500) == "x" * 500


# -- the file memory -----------------------------------------------------------------------------


def test_file_memo_reads_a_settled_file_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.md"
    path.write_text("one", "utf-8")
    memo: FileMemo[str] = FileMemo()

    def upper(data: bytes, _digest: str) -> str:
        return data.decode().upper()

    assert memo.get(path, upper)[1] == "ONE"
    assert memo.get(path, upper)[1] == "ONE" and (memo.reads, memo.computed) == (2, 1)  # racy: read, not computed
    monkeypatch.setattr(filememo, "RACY_NS", 0)
    memo.get(path, upper)
    reads = memo.reads
    with memo.folder(tmp_path) as get:
        assert get("a.md", upper)[1] == "ONE"
    assert memo.reads == reads  # settled: the stat alone
    path.write_text("two", "utf-8")
    with memo.folder(tmp_path) as get:
        assert get("a.md", upper)[1] == "TWO"
    path.unlink()
    with pytest.raises(FileNotFoundError):
        memo.get(path, upper)


def test_wiki_files_list_what_load_wiki_did(en_kb: KnowledgeBase) -> None:
    for name in ("b.md", "a.md", "INDEX.md", ".hidden.md", "notes.txt", "C.MD"):
        (en_kb.wiki / name).write_text(f"# {name}\r\n\r\nbody\rline\n", "utf-8")
    (en_kb.wiki / "folder.md").mkdir()
    files = wiki_files(en_kb.wiki)
    assert [f.name for f in files] == ["a.md", "b.md"]
    assert all("\r" not in f.article.summary for f in files)
    copies = load_wiki(en_kb.wiki)
    copies[0].sections.append(Section("Edited", ["x"]))
    assert not any(s.heading == "Edited" for s in wiki_files(en_kb.wiki)[0].article.sections)
    assert re.fullmatch(r"[0-9a-f]{40}", files[0].digest)
