"""Source quality rules and the sentence/term machinery of the offline extractor."""

from __future__ import annotations

import pytest

from autodidact.evidence.assemble import source_id_for
from autodidact.evidence.quality import classify, from_raw_rating, refine
from autodidact.evidence.textscore import sentence_spans, terms
from autodidact.sources.snapshots import local_url


@pytest.mark.parametrize(
    ("url", "kind", "quality"),
    [
        ("https://docs.python.org/3/reference/expressions.html", "web", "primary"),
        ("https://www.stats.gov.cn/sj/", "web", "primary"),
        ("https://cs.stanford.edu/people/x/", "web", "primary"),
        ("https://www.rfc-editor.org/rfc/rfc9110", "web", "primary"),
        ("https://www.reuters.com/technology/x", "web", "secondary"),
        ("https://en.wikipedia.org/wiki/Generator_(computer_programming)", "web", "secondary"),
        ("https://stackoverflow.com/questions/1756096", "web", "tertiary"),
        ("https://www.zhihu.com/question/1", "web", "tertiary"),
        ("https://example.com/blog/my-yield-tips", "web", "tertiary"),
        ("https://example.com/docs/generators", "web", "primary"),
        ("https://example.com/some/page", "web", "secondary"),
        (local_url("corpus/pydoc", "yield.md"), "corpus", "primary"),
        (local_url("raw", "notes.md"), "raw", "secondary"),
    ],
)
def test_classify_by_domain_path_and_kind(url: str, kind: str, quality: str) -> None:
    got, reason = classify(url, kind)
    assert got == quality and reason


def test_model_refines_by_one_class_at_most() -> None:
    assert refine("tertiary", "primary", "web") == "secondary"
    assert refine("secondary", "primary", "web") == "primary"
    assert refine("primary", "tertiary", "web") == "secondary"
    assert refine("primary", "tertiary", "corpus") == "primary"  # official corpus: the rule stands
    assert refine("secondary", None, "web") == "secondary"
    assert refine("secondary", "gold", "web") == "secondary"


def test_raw_header_ratings() -> None:
    assert [from_raw_rating(r) for r in ("高", "中", "低", "待评估", None)] == [
        "primary", "secondary", "tertiary", None, None,
    ]  # fmt: skip


def test_sentences_are_exact_substrings_in_both_languages() -> None:
    text = (
        "# Generators\n\nA generator function returns an iterator. It pauses at each\nyield expression, "
        "keeping its state!\n\n生成器函数在每次 yield 时暂停执行。它会保存局部状态；调用方继续迭代！最后一句没有标点"
    )
    spans = sentence_spans(text)
    sentences = [text[s:e] for s, e in spans]
    assert "A generator function returns an iterator." in sentences
    assert "It pauses at each\nyield expression, keeping its state!" in sentences  # a wrapped line is one sentence
    assert "生成器函数在每次 yield 时暂停执行。" in sentences
    assert "调用方继续迭代！" in sentences
    assert all(text[s:e] == sent for (s, e), sent in zip(spans, sentences, strict=True))


def test_terms_mix_words_and_cjk_bigrams() -> None:
    got = terms("What does the yield expression do in 生成器函数?")
    assert "yield" in got and "expression" in got
    assert {"生成", "成器", "器函", "函数"} <= set(got)
    assert "the" not in got and "what" not in got


def test_source_ids_are_stable_and_valid() -> None:
    assert source_id_for("https://docs.python.org/3/glossary.html") == "docs_python_glossary"
    assert source_id_for(local_url("corpus/pydoc", "yield.md")) == "pydoc_yield"
    assert source_id_for("http://127.0.0.1:8080/x.html")[0].isalpha()
    assert source_id_for("https://例子.测试/路径") == source_id_for("https://例子.测试/路径")


def test_a_concession_is_not_contrary_evidence() -> None:
    from autodidact.evidence.extract_task import _REFUTE_CUES

    assert not _REFUTE_CUES.search("Although aptitude is a very nice interactive tool, you should know some facts.")
    assert not _REFUTE_CUES.search("但是这个命令也可以在脚本中使用。")
    assert _REFUTE_CUES.search("The main drawback of apt-pinning is that a novice breaks the system.")
    assert _REFUTE_CUES.search("该方法已经弃用。")


def test_a_sentence_that_only_points_elsewhere_is_not_quoted() -> None:
    from autodidact.evidence.relevance import pointer_only

    assert pointer_only("For daily upgrade in `unstable`, see Section 2.4.3, “Safeguarding for package problems”.")
    assert pointer_only("See the table below for the list of operations.")
    assert pointer_only("详见第 2.4.3 节。")
    # a fact with a pointer inside it stays quotable
    assert not pointer_only("Archive level Release files (see Section 2.5.3, “Release files”) are used for the rule.")
    assert not pointer_only("Seeing is believing, they said about the new tool.")


def test_a_passage_edge_inside_a_long_sentence_moves_to_a_sentence_start() -> None:
    from autodidact.evidence.kq_research import widen

    text = "x" * 300 + " the dynamic kernel module support. It rebuilds modules. " + "y" * 300
    start = text.index("rnel module")
    s, e = widen(text, start, start + 60)
    assert text[s:].startswith("It rebuilds modules.")  # not "rnel module support…"
    assert text[s:e].rstrip().endswith(".")


def test_a_short_line_that_only_introduces_what_follows_is_not_quoted() -> None:
    from autodidact.evidence.relevance import lead_in

    assert lead_in("Help on module logging.config in logging:")
    assert lead_in("下面是常用的命令：")
    assert not lead_in("The apt command is a high-level commandline interface for package management.")
    assert not lead_in("When you list all required archives in the sources.list file, add these lines:")


def test_a_chinese_request_with_facets_researches_its_subject_not_the_whole_sentence() -> None:
    from autodidact.plan.terms import extract_terms

    terms = extract_terms("sqlite 是如何缓存页面的：页管理器、日志和检查点", "zh")
    assert terms.subject == "sqlite" and terms.objects == ["sqlite"]


def test_candidates_come_from_documents_that_name_the_subject_when_some_do() -> None:
    from autodidact.evidence.agent import about_subject
    from autodidact.evidence.collect import Candidate, Doc
    from autodidact.evidence.textscore import terms

    def cand(text: str) -> Candidate:
        return Candidate(Doc("file:///x", "x", "corpus", text[:8], text, "primary", ""), [(0, 10)], 1.0)

    argparse_page = cand("argparse handles positional arguments and optional arguments.")
    sqlite_page = cand("The origin argument defaults to os.SEEK_SET for blob positioning.")
    assert about_subject([sqlite_page, argparse_page], frozenset(terms("argparse"))) == [argparse_page]
    # nobody names it (a subject the documents spell otherwise): every candidate stays
    assert about_subject([sqlite_page], frozenset(terms("argparse"))) == [sqlite_page]


def test_a_chinese_summary_of_english_quotes_keeps_the_spaces_between_them() -> None:
    from autodidact.text.sentences import join_sentences

    assert join_sentences(["Objects convert strings.", "Action objects parse one argument."], True) == (
        "Objects convert strings. Action objects parse one argument."
    )
    assert join_sentences(["甲是乙。", "丙是丁。"], True) == "甲是乙。丙是丁。"
    assert join_sentences(["甲是乙。", "C is d."], True) == "甲是乙。C is d."
    # a citation's bracket is no full stop to glue an English quote to (a Chinese article's lead
    # read 「…（来源：a.md）class PyZipFile …」)
    assert join_sentences(["要点。（来源：a.md）", "class PyZipFile creates archives."], True) == (
        "要点。（来源：a.md） class PyZipFile creates archives."
    )


def test_a_question_in_the_topics_words_reads_its_home_chapters_when_they_have_candidates() -> None:
    from autodidact.evidence.agent import in_homes
    from autodidact.evidence.collect import Candidate, Doc

    def cand(url: str, text: str) -> Candidate:
        return Candidate(Doc(url, "x", "corpus", url[-8:], text, "primary", ""), [(0, 10)], 1.0)

    proxy = cand("file:///ch02.html", "为 APT 部署一个本地代理服务器可以节省 Debian 系统的网络带宽。")
    network = cand("file:///ch05.html", "让我们来回顾一下现代 Debian 操作系统中的基本网络架构。")
    homes = frozenset({"file:///ch05.html"})
    assert in_homes([proxy, network], homes) == [network]
    # no home candidate (or no homes at all): every candidate stays
    assert in_homes([proxy], homes) == [proxy]
    assert in_homes([proxy, network], frozenset()) == [proxy, network]


def test_only_questions_in_the_topics_own_words_keep_to_its_home_chapters() -> None:
    from autodidact.evidence.agent import in_topics_words

    topic = "How does Debian package management work: dpkg vs apt, version pinning, and system upgrades?"
    assert in_topics_words("What are the limitations of system upgrades?", topic)
    assert in_topics_words("What is meant by version pinning in Debian package management?", topic)
    assert not in_topics_words("How do I set a proxy for apt?", topic)  # a user's question reads anywhere
    assert not in_topics_words("What are the key points of “System wide upgrade”?", topic)
    zh = "Debian 系统的网络是如何设置的：主机名解析、网络接口配置、MTU 优化和 Netfilter 防火墙？"
    assert in_topics_words("Debian 系统的网络的定义是什么？", zh)
    assert not in_topics_words("如何为 APT 设置代理？", zh)


def test_a_subject_that_names_modules_keeps_candidates_to_the_pages_that_write_one() -> None:
    from autodidact.evidence.agent import about_subject
    from autodidact.evidence.collect import Candidate, Doc
    from autodidact.evidence.textscore import terms
    from autodidact.text.topic import subject_names

    def cand(text: str) -> Candidate:
        return Candidate(Doc("file:///x", "x", "corpus", text[:8], text, "primary", ""), [(0, 10)], 1.0)

    names = subject_names("reading and writing CSV files with Python's csv module")
    assert [n.casefold() for n in names] == ["csv", "csv"] or {n.casefold() for n in names} == {"csv"}
    csv_page = cand("The csv module's reader and writer objects read and write sequences.")
    marshal_page = cand("dump(value, file) Write the value on the open file; load reads one value.")
    wanted = frozenset(terms(" ".join(names)))
    assert about_subject([marshal_page, csv_page], wanted, names=True) == [csv_page]
    # a phrase of common words is no name: without names=True a several-word subject filters nothing
    assert about_subject([marshal_page, csv_page], frozenset({"read", "write"})) == [marshal_page, csv_page]
    assert subject_names("Python's pickle, marshal and shelve modules") == ["shelve", "marshal", "pickle"]
    assert subject_names("Python 的 csv 模块") == ["csv"]
    assert subject_names("Python exceptions") == [] and subject_names("log files") == []
