"""wiki compile from evidence: answer blocks per question under facet articles, on real pydoc text.

The evidence files are written by hand, but every quote is a sentence cut from a real pydoc topic
(the raw file's body), so the locator, the filters and the merge all work on text nobody wrote for
the test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autodidact.kb import KnowledgeBase
from autodidact.llm.runtime import Runtime
from autodidact.sources.rawfiles import parse_raw_file
from autodidact.sources.snapshots import quote_in_text
from autodidact.store import atomic
from autodidact.testing.scripted import ScriptedModel
from autodidact.wiki.common.articles import Article, load_article, load_wiki, render_article
from autodidact.wiki.common.markdown import citations, split_sentences
from autodidact.wiki.compile.answers_blocks import cited_chunks, is_question_heading, parse_block
from autodidact.wiki.compile.compiler import compile_evidence, compile_wiki

from .conftest import TOPIC, add_pydoc, add_raw, snapshot

Q1 = "What is a generator function?"
Q2 = "What does the await keyword do in a coroutine?"
Q3 = "Which statements may appear in the body of a generator function?"
Q4 = "What does the finally clause of a try statement do?"


def sentence(folder: Path, name: str, *words: str) -> str:
    """The first sentence of a pydoc topic containing all ``words`` (whitespace folded)."""
    body = " ".join((folder / name).read_text("utf-8").split("\n", 1)[1].split())
    found = next((s for s in split_sentences(body) if all(w in s for w in words)), None)
    assert found is not None, (name, words)
    return found


def url(name: str) -> str:
    return f"https://docs.invalid/{name}"


def write_round(kb: KnowledgeBase, n: int, questions: list[dict[str, Any]], claims: list[tuple[int, str, str]]) -> None:
    """``round_n_questions.json`` and ``round_n_evidence.json``; a claim is (question number, url, quote)."""
    atomic.write_json(kb.rounds / f"round_{n}_questions.json", {"questions": questions})
    urls = sorted({u for _, u, _ in claims})
    sid = {u: f"s{i}" for i, u in enumerate(urls, start=1)}
    evidence = {
        "schema_version": "1.2",
        "mode": "initial",
        "dimension_id": "d1",
        "upstream_usage": [],
        "headline": f"round {n}",
        "key_findings": [],
        "claims": [
            {
                "id": f"d1.c{i}",
                "text": f"According to the docs: {quote}",
                "kind": "factual",
                "polarity": "neutral",
                "topic_tag": "t",
                "answers_key_question": f"kq{q}",
                "evidence": [{"source_id": sid[u], "snippet": quote, "quote_type": "direct"}],
            }
            for i, (q, u, quote) in enumerate(claims, start=1)
        ],
        "sources": [{"id": sid[u], "url": u, "title": u, "quality": "primary"} for u in urls],
    }
    atomic.write_json(kb.rounds / f"round_{n}_evidence.json", evidence)


def article(kb: KnowledgeBase, title: str) -> Article:
    found = [a for a in load_wiki(kb.wiki) if a.title == title]
    assert found, f"no article {title!r} in {[a.title for a in load_wiki(kb.wiki)]}"
    return found[0]


def block(art: Article, question: str) -> list[str]:
    sec = art.section(question)
    assert sec is not None, f"{art.title} has no block for {question!r}: {[s.heading for s in art.sections]}"
    return [it.text for it in parse_block(sec)[1]]


def assert_quotes_hold(kb: KnowledgeBase) -> None:
    """Every cited statement of every article stands in each raw file it cites."""
    for art in load_wiki(kb.wiki):
        for sec in art.body_sections():
            for item in parse_block(sec)[1]:
                for name in item.sources:
                    assert quote_in_text(item.text, parse_raw_file(kb.raw / name).body), (name, item.text)


def round_one(kb: KnowledgeBase, pydoc: Path) -> dict[str, str]:
    atomic.write_json(kb.state_file, {"topic": TOPIC, "rounds": []})
    raws = {
        "genfn": add_pydoc(kb, pydoc, "types--generator-functions.md", ["r1q1"]),
        "yield": add_pydoc(kb, pydoc, "yield.md", ["r1q3"]),
        "coro": add_pydoc(kb, pydoc, "async--coroutine-function-definition.md", ["r1q2"]),
        "finally": add_pydoc(kb, pydoc, "try--finally-clause.md", ["r1q4"]),
    }
    questions = [
        {"id": "r1q1", "text": Q1, "facet": "Generators"},
        {"id": "r1q2", "text": Q2, "facet": "Coroutines"},
        {"id": "r1q3", "text": Q3},
        {"id": "r1q4", "text": Q4, "facet": None},
    ]
    genfn, fin, coro = (
        "types--generator-functions.md",
        "try--finally-clause.md",
        "async--coroutine-function-definition.md",
    )
    claims = [
        (1, url(genfn), sentence(pydoc, genfn, "is called")),
        (1, url(fin), sentence(pydoc, fin, "information is not")),  # off topic for question 1
        (2, url(coro), sentence(pydoc, coro, '"await" expressions')),
        (3, url("yield.md"), sentence(pydoc, "yield.md", "only used in the body")),
        (4, url(fin), sentence(pydoc, fin, "cleanup")),
        (4, "https://docs.invalid/never-fetched.md", "The finally clause runs on the way out of the try statement."),
        (2, url("yield.md"), sentence(pydoc, "types--coroutine-functions.md", "returns a")),  # not in yield.md
    ]
    write_round(kb, 1, questions, claims)
    return raws


def test_each_question_gets_an_answer_block_under_its_facet(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    raws = round_one(en_kb, pydoc_dir)
    result = compile_evidence(en_kb, 1, None, today="2026-12-02")
    assert sorted(result.new) == ["Coroutines", "Generators", "Python generators and coroutines"]
    assert result.answered == ["r1q1", "r1q2", "r1q3", "r1q4"]
    generators = article(en_kb, "Generators")
    assert block(generators, Q1) == [sentence(pydoc_dir, "types--generator-functions.md", "is called")]
    # no facet: the article whose title its key terms cover ("generator")
    assert block(generators, Q3) == [sentence(pydoc_dir, "yield.md", "only used in the body")]
    coroutines = article(en_kb, "Coroutines")
    assert block(coroutines, Q2) == [sentence(pydoc_dir, "async--coroutine-function-definition.md", '"await"')]
    # no facet and no article it matches: the topic's subject article
    assert block(article(en_kb, "Python generators and coroutines"), Q4) == [
        sentence(pydoc_dir, "try--finally-clause.md", "cleanup")
    ]
    text = (en_kb.wiki / "generators.md").read_text("utf-8")
    assert f"## {Q1}\n\n- A function or method which uses" in text
    assert f"*generator function*. (source: [{raws['genfn']}](../raw/{raws['genfn']}))" in text
    assert_quotes_hold(en_kb)


def test_off_topic_and_unlocatable_claims_are_left_out_and_counted(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    round_one(en_kb, pydoc_dir)
    result = compile_evidence(en_kb, 1, None, today="2026-12-02")
    assert result.off_topic == 1  # the "finally" sentence offered for "What is a generator function?"
    assert result.unmatched_claims == 2  # a URL with no raw file; a quote its raw file does not hold
    wiki = "\n".join(render_article(a) for a in load_wiki(en_kb.wiki))
    assert "information is not available" not in wiki
    assert "on the way out of the try statement" not in wiki
    assert "returns a *coroutine* object" not in wiki


def test_summary_is_made_from_the_answers(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    round_one(en_kb, pydoc_dir)
    compile_evidence(en_kb, 1, None, today="2026-12-02")
    for art in load_wiki(en_kb.wiki):
        chunks = cited_chunks(art.summary)
        assert chunks and 1 <= len(chunks) <= 4, art.summary
        body = " ".join(t for s in art.body_sections() for t in (it.text for it in parse_block(s)[1]))
        for text, names in chunks:
            assert text in body and names
        assert not art.summary.startswith("This article collects")
    index = (en_kb.wiki / "INDEX.md").read_text("utf-8")
    assert "[[generators|Generators]] — A function or method which uses" in index


def test_new_evidence_from_an_already_compiled_source_is_merged(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    raws = round_one(en_kb, pydoc_dir)
    compile_evidence(en_kb, 1, None, today="2026-12-02")
    first = sentence(pydoc_dir, "types--generator-functions.md", "is called")
    second = sentence(pydoc_dir, "types--generator-functions.md", "StopIteration")
    mirror = add_raw(
        en_kb,
        "Generator functions (mirror)",
        (pydoc_dir / "types--generator-functions.md").read_text("utf-8").split("\n", 1)[1],
        url="https://mirror.invalid/generator-functions",
        date="2026-12-03",
    )
    write_round(
        en_kb,
        2,
        [{"id": "r2q1", "text": Q1, "facet": "Generators"}],
        [
            (1, url("types--generator-functions.md"), second),  # a source compiled in round 1
            (1, url("types--generator-functions.md"), first),  # the same quote again
            (1, "https://mirror.invalid/generator-functions", first),  # the same quote from another file
        ],
    )
    result = compile_evidence(en_kb, 2, None, today="2026-12-03")
    assert result.updated == ["Generators"] and result.new == []
    generators = article(en_kb, "Generators")
    quotes = block(generators, Q1)
    assert sorted(quotes) == sorted([first, second])  # merged, the duplicate once
    text = (en_kb.wiki / "generators.md").read_text("utf-8")
    assert text.count(f"## {Q1}") == 1
    assert f"(source: [{raws['genfn']}](../raw/{raws['genfn']}), [{mirror}](../raw/{mirror}))" in text
    assert generators.updated == "2026-12-03" and mirror in generators.sources
    # the raw-file path would have skipped this source: it is already in the article
    assert raws["genfn"] in compile_wiki(en_kb, [raws["genfn"]], None).skipped
    assert_quotes_hold(en_kb)


def test_recompiling_the_same_rounds_changes_no_byte(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    round_one(en_kb, pydoc_dir)
    compile_evidence(en_kb, 1, None, today="2026-12-02")
    genfn, coro = "types--generator-functions.md", "async--coroutine-function-definition.md"
    write_round(
        en_kb,
        2,
        [{"id": "r2q1", "text": Q1, "facet": "Generators"}, {"id": "r2q2", "text": Q2, "facet": "Generators"}],
        [
            (1, url(genfn), sentence(pydoc_dir, genfn, "StopIteration")),
            (2, url(coro), sentence(pydoc_dir, coro, "even if")),
        ],
    )
    compile_evidence(en_kb, 2, None, today="2026-12-03")
    before = snapshot(en_kb.wiki)
    for n, day in ((1, "2026-12-09"), (2, "2026-12-09"), (2, "2026-12-10")):
        again = compile_evidence(en_kb, n, None, today=day)
        assert again.new == [] and again.updated == []
    assert snapshot(en_kb.wiki) == before
    # the re-asked question kept its block in the article it started in, though its facet changed
    assert "even if they do not contain" in " ".join(block(article(en_kb, "Coroutines"), Q2))
    assert article(en_kb, "Generators").section(Q2) is None


def test_a_person_s_summary_is_kept_and_new_answers_still_merge(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    round_one(en_kb, pydoc_dir)
    compile_evidence(en_kb, 1, None, today="2026-12-02")
    path = en_kb.wiki / "generators.md"
    art = load_article(path)
    art.summary = "My own notes on generators, written by hand."
    atomic.write_text(path, render_article(art))
    write_round(
        en_kb,
        2,
        [{"id": "r2q1", "text": Q1, "facet": "Generators"}],
        [
            (
                1,
                url("types--generator-functions.md"),
                sentence(pydoc_dir, "types--generator-functions.md", "StopIteration"),
            )
        ],
    )
    compile_evidence(en_kb, 2, None, today="2026-12-03")
    art = load_article(path)
    assert art.summary == "My own notes on generators, written by hand."
    assert len(block(art, Q1)) == 2


def test_a_model_phrases_the_summary_only_with_valid_citations(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    raws = round_one(en_kb, pydoc_dir)

    def reply(summary: str) -> ScriptedModel:
        return ScriptedModel(fn=lambda _request: json.dumps({"summary": summary, "sections": []}))

    # A phrasing that says more than the block's quote ("return an iterator") is refused...
    more = f"Generator functions use yield and return an iterator. (source: {raws['genfn']})"
    compile_evidence(en_kb, 1, Runtime(model=reply(more)), today="2026-12-02")
    assert article(en_kb, "Generators").summary != more
    # ...one its quote supports is kept.
    good = f"A function or method that uses the yield statement is a generator function. (source: {raws['genfn']})"
    compile_evidence(en_kb, 1, Runtime(model=reply(good)), today="2026-12-02")
    art = article(en_kb, "Generators")
    assert art.summary == good
    assert block(art, Q1) == [sentence(pydoc_dir, "types--generator-functions.md", "is called")]  # quotes stay
    for other in load_wiki(en_kb.wiki):  # the other articles cite other files: the phrasing is refused
        if other.title != "Generators":
            assert other.summary != good and citations(other.summary)
    # the next round's answers are phrased again (the summary is compile's, unchanged since)...
    write_round(
        en_kb,
        2,
        [{"id": "r2q1", "text": Q1, "facet": "Generators"}],
        [
            (
                1,
                url("types--generator-functions.md"),
                sentence(pydoc_dir, "types--generator-functions.md", "StopIteration"),
            )
        ],
    )
    better = f"Generator functions return an iterator that raises StopIteration at the end. (source: {raws['genfn']})"
    compile_evidence(en_kb, 2, Runtime(model=reply(better)), today="2026-12-03")
    assert article(en_kb, "Generators").summary == better
    # ...but a phrasing citing a file the answers do not cite is refused: the extractive summary stands
    write_round(
        en_kb,
        3,
        [{"id": "r3q1", "text": Q1, "facet": "Generators"}],
        [(1, url("types--generator-functions.md"), sentence(pydoc_dir, "types--generator-functions.md", "Such a"))],
    )
    compile_evidence(en_kb, 3, Runtime(model=reply("Generators are great. (source: invented.md)")), today="2026-12-04")
    art = article(en_kb, "Generators")
    assert "invented.md" not in render_article(art) and art.summary.startswith("A function or method")


def test_answer_blocks_are_what_the_audit_reads(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    from autodidact.wiki.audit.check import check_wiki

    round_one(en_kb, pydoc_dir)
    compile_evidence(en_kb, 1, None, today="2026-12-02")
    questions = json.loads((en_kb.rounds / "round_1_questions.json").read_text("utf-8"))["questions"]
    report = check_wiki(en_kb, questions, 1, None, topic=TOPIC).report
    assert report.missing_source_count == 0 and report.structure == []  # no dangling link, no orphan
    assert report.question_status["r1q1"] in {"resolved", "partial"}
    for art in load_wiki(en_kb.wiki):
        assert all(is_question_heading(s.heading) for s in art.body_sections())


def test_chinese_knowledge_base_reads_in_chinese(tmp_path: Path) -> None:
    import re
    import shutil

    from autodidact.kb import init_kb
    from autodidact.sources.snapshots import local_url
    from autodidact.testing.corpora import debian_reference_zh_files

    chapter = next((f for f in debian_reference_zh_files() if f.name == "ch02.zh-cn.html"), None)
    if chapter is None:
        pytest.skip("debian-reference-zh-cn is not installed")
    topic = "Debian 软件包管理是如何工作的：dpkg 与 apt 的关系、版本固定和系统升级"
    kb, _ = init_kb(tmp_path / "kb-zh", topic=topic, lang="zh")
    atomic.write_json(kb.state_file, {"topic": topic, "rounds": []})
    shutil.copy(chapter, kb.raw / chapter.name)  # a person's own document, cited by its portable URL
    # Line breaks kept: the restored section headings (docs/sections.md) stay on their own lines.
    body = parse_raw_file(kb.raw / chapter.name).body

    def quote(*words: str) -> str:
        return next(s.lstrip("- ") for s in split_sentences(body) if all(w in s for w in words))

    questions = [
        {"id": "r1q1", "text": "dpkg 是什么？", "facet": "dpkg 与 apt 的关系"},
        {"id": "r1q2", "text": "apt 命令用于哪些操作？", "facet": "dpkg 与 apt 的关系"},
        {"id": "r1q3", "text": "什么是 apt-pinning？", "facet": "版本固定"},
    ]
    here = local_url("raw", chapter.name)
    write_round(
        kb,
        1,
        questions,
        [
            (1, here, quote("dpkg", "最底层")),
            (2, here, quote("`apt`(8)", "交互式")),
            (3, here, quote("禁用apt-pinning")),
            (3, here, quote("`aptitude`(8)", "文本界面")),  # names neither apt-pinning nor 版本固定
        ],
    )
    result = compile_evidence(kb, 1, None, today="2026-12-02")
    assert sorted(result.new) == ["dpkg 与 apt 的关系", "版本固定"] and result.off_topic == 1
    cjk = re.compile(r"[\u4e00-\u9fff]")
    for art in load_wiki(kb.wiki):
        text = render_article(art)
        assert all(cjk.search(line) for line in text.splitlines() if line.startswith("#")), text
        assert f"（来源：[{chapter.name}](../raw/{chapter.name})）" in text and "(source:" not in text
        assert cited_chunks(art.summary) and " (" not in art.summary
    relation = (kb.wiki / "dpkg-与-apt-的关系.md").read_text("utf-8")
    assert "## dpkg 是什么？\n\n- `dpkg`(1) 是 Debian 软件包管理中最底层的工具。（来源：" in relation
    assert "## apt 命令用于哪些操作？" in relation
    assert "文本界面" not in (kb.wiki / "版本固定.md").read_text("utf-8")
    assert (kb.wiki / "INDEX.md").read_text("utf-8").startswith("# 知识库索引")
    assert_quotes_hold(kb)


def test_the_loop_builds_its_wiki_from_answers(tmp_path: Path, pydoc_dir: Path) -> None:
    """Two offline rounds over the pydoc corpus: every article section answers a question of a round,
    every statement stands in the raw file it cites, and every admitted quote of every round is in its
    block unless the block is full of better ones."""
    from autodidact.config import load_settings
    from autodidact.kb import init_kb
    from autodidact.loop.runner import research_sync
    from autodidact.sources.ingest import index_corpus
    from autodidact.wiki.compile.answers import RawLocator, round_answers
    from autodidact.wiki.compile.answers_blocks import MAX_QUOTES

    kb, _ = init_kb(tmp_path / "kb", topic=TOPIC, lang="en")
    index_corpus(kb.root, [pydoc_dir], name="pydoc")
    research_sync(kb, topic=TOPIC, runtime=Runtime(), settings=load_settings(kb.root), max_rounds=2)
    state = json.loads(kb.state_file.read_text("utf-8"))
    asked = {q["text"] for record in state["rounds"] for q in record["questions"]}
    articles = load_wiki(kb.wiki)
    assert articles
    titles = {a.title for a in articles}
    for art in articles:
        for sec in art.body_sections():
            assert sec.heading in asked, sec.heading  # no chapter headings, no "Key points" dumps
    assert_quotes_hold(kb)
    placed = 0
    for record in state["rounds"]:
        assert set(record["wiki_topics_updated"]) <= titles
        found = round_answers(kb, record["round"], TOPIC, RawLocator(kb.raw))
        for answer in found.answers:
            if not answer.quotes:
                continue
            holder = [a for a in articles if a.section(answer.question.text)]
            assert len(holder) <= 1, answer.question.text  # one block per question text
            if not holder:
                # every quote already stood under another question of its article: no heading
                # repeating it (answers_blocks._says_nothing_new)
                body = " ".join(" ".join(a.text().split()) for a in articles)
                assert all(" ".join(q.text.split()) in body for q in answer.quotes), answer.question.text
                continue
            section = holder[0].section(answer.question.text)
            assert section is not None
            items = parse_block(section)[1]
            have = {" ".join(it.text.split()) for it in items}
            # a quote another block of the same article shows is not shown twice (merge_quotes)
            shown = " ".join(
                " ".join(it.text.split()) for sec in holder[0].body_sections() for it in parse_block(sec)[1]
            )
            for quote in answer.quotes:
                inside = any(quote.text in h for h in have)
                assert inside or quote.text in shown or len(items) == MAX_QUOTES, (answer.question.text, quote.text)
                placed += inside
    assert placed >= 3


def test_a_chinese_key_points_question_admits_the_english_section_it_quoted() -> None:
    from autodidact.wiki.compile.answers import QuestionTerms

    terms = QuestionTerms.of("《Classes》的要点是什么？", None, "argparse 是如何解析命令行参数的：解析器、参数和子命令")
    # no word can be shared across the languages; the evidence agent quoted the named section
    assert terms.admits("Information about how to convert command line strings to Python objects.")
    english = QuestionTerms.of("What are the key points of “Classes”?", None, "How does argparse parse arguments?")
    assert not english.admits("Blob positioning defaults to os.SEEK_SET.")


def test_a_key_point_quoted_from_the_named_section_enters_whatever_its_words(tmp_path: Path) -> None:
    """ "The wait() method blocks until the flag is true." names neither "class Event" nor the topic's
    words, yet it is what the section says; the same sentence from another section stays out."""
    from autodidact.sources.rawfiles import RawFile
    from autodidact.testing.evidence_files import claim, evidence_file, source
    from autodidact.wiki.compile.answers import Question, RawLocator, collect_answers

    raw = tmp_path / "raw"
    raw.mkdir()
    body = "An event manages a flag. The wait() method blocks until the flag is true. The flag is initially false.\n"
    for name, title, link in [
        ("event.md", "asyncio.locks › class Event", "https://docs.invalid/locks"),
        ("other.md", "selectors › class BaseSelector", "https://docs.invalid/selectors"),
    ]:
        rf = RawFile(filename=name, title=title, url=link, fetched_date="2026-12-04", body=body)
        (raw / name).write_text(rf.render(), "utf-8")
    quote = "The wait() method blocks until the flag is true."
    evidence = evidence_file(
        [claim(f"d1.c{i}", quote, kq=f"kq{i}", source_id=sid) for i, sid in ((1, "s1"), (2, "s2"))],
        [source("s1", "https://docs.invalid/locks"), source("s2", "https://docs.invalid/selectors")],
    )
    questions = [
        Question("r1q1", "What are the key points of “class Event”?", "Lock and Event"),
        Question("r1q2", "What are the key points of “class Event”?", "Lock and Event"),
    ]
    topic = "How do I coordinate asyncio coroutines: Lock and Event?"
    got = collect_answers(evidence, questions, RawLocator(raw), topic)
    assert [q.text for q in got.answers[0].quotes] == [quote]
    assert got.answers[1].quotes == [] and got.off_topic_quotes == 1


def test_a_quote_another_block_of_the_article_shows_is_not_shown_again(en_kb: KnowledgeBase, pydoc_dir: Path) -> None:
    """Five questions about one facet answered by one sentence showed it five times in one article;
    a question whose every quote another block already shows gets no block of its own."""
    round_one(en_kb, pydoc_dir)
    compile_evidence(en_kb, 1, None, today="2026-12-02")
    genfn = "types--generator-functions.md"
    first = sentence(pydoc_dir, genfn, "is called")
    other = sentence(pydoc_dir, genfn, "StopIteration")
    q5, q6 = "What problems are solved by generator functions?", "What are the limitations of generator functions?"
    write_round(
        en_kb,
        2,
        [{"id": "r2q1", "text": q5, "facet": "Generators"}, {"id": "r2q2", "text": q6, "facet": "Generators"}],
        [(1, url(genfn), first), (1, url(genfn), other), (2, url(genfn), first)],
    )
    compile_evidence(en_kb, 2, None, today="2026-12-03")
    generators = article(en_kb, "Generators")
    assert block(generators, Q1) == [first]
    assert block(generators, q5) == [other]  # Q1's block shows the first sentence already
    assert generators.section(q6) is None  # its one answer stands under Q1 already
    assert first in " ".join(generators.text().split())
    assert_quotes_hold(en_kb)


def _compile_rounds(kb: KnowledgeBase, pydoc: Path, forget: bool) -> dict[str, bytes]:
    """Round 1, a hand edit, round 2 and a person's own file compiled, with the process's memory of
    the parsed wiki kept (as in a research run) or forgotten before each compile (as a new process)."""
    from autodidact.wiki.common.articles import forget_wiki_memory, wiki_files

    def compile_step(run: Any) -> None:
        if forget:
            forget_wiki_memory()
        parsed = {f.name: (f.article, render_article(f.article)) for f in wiki_files(kb.wiki)}
        run()
        for name, (art, text) in parsed.items():  # the compile edits copies, never the shared parse
            assert render_article(art) == text, name

    round_one(kb, pydoc)
    compile_step(lambda: compile_evidence(kb, 1, None, today="2026-12-02"))
    generators = kb.wiki / "generators.md"
    text = generators.read_text("utf-8")
    assert 'title: "Generators"' in text or "title: Generators" in text
    generators.write_text(
        text.replace("title: Generators", "title: Generator functions").replace(
            'title: "Generators"', 'title: "Generator functions"'
        )
    )
    genfn, coro = "types--generator-functions.md", "async--coroutine-function-definition.md"
    questions = [{"id": "r2q1", "text": Q1, "facet": "Generators"}, {"id": "r2q2", "text": Q2, "facet": "Awaiting"}]
    claims = [
        (1, url(genfn), sentence(pydoc, genfn, "StopIteration")),
        (2, url(coro), sentence(pydoc, coro, "even if")),
    ]
    write_round(kb, 2, questions, claims)
    compile_step(lambda: compile_evidence(kb, 2, None, today="2026-12-03"))
    own = add_raw(kb, "Coroutines in practice", "Coroutines are awaited by the event loop.\n\nA Generator yields.")
    compile_step(lambda: compile_wiki(kb, [own], None, today="2026-12-04"))
    compile_step(lambda: compile_evidence(kb, 2, None, today="2026-12-05"))
    return snapshot(kb.wiki)


def test_what_a_compile_keeps_per_parsed_article_writes_what_a_fresh_parse_writes(
    tmp_path: Path, pydoc_dir: Path
) -> None:
    """The compile reads the articles it does not edit as parsed and keeps what its whole-wiki steps
    take from each (topic keys, headings, names, INDEX.md lines) with the parse: the wiki it writes
    is the one a compile that parses everything afresh writes, through new articles, a hand edit
    of a title, and a person's own file."""
    from autodidact.kb import init_kb

    kept, fresh = (init_kb(tmp_path / name, topic="Python generators", lang="en")[0] for name in ("kept", "fresh"))
    assert _compile_rounds(kept, pydoc_dir, forget=False) == _compile_rounds(fresh, pydoc_dir, forget=True)
