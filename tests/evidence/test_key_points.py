"""A "key points of “X”" question is answered from section X itself (evidence/kq_research.py,
evidence/extract_task.py key_point_sentences; docs/evidence.md)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from autodidact.config import Settings
from autodidact.evidence.agent import GatherResult, gather
from autodidact.evidence.focus import focus
from autodidact.evidence.payload import parse_payload
from autodidact.evidence.validator import validate_evidence

from .conftest import make_payload, offline_quotes

MANUAL = """# Chapter 2. Package management

The package system installs consistent sets of packages from the archive, and this chapter
describes how the tools that drive it fit together for daily administration work.

## 2.5.3. Archive level Release files

The archive level Release files are used for the rule of apt_preferences.
For normal archives the default Pin-Priority value is 500, while archives marked NotAutomatic get 1.
An archive marked NotAutomatic is never used as the automatic source of upgrades.
Each archive location listed in sources.list has its own Release file.

## 2.7.3. Tweaking candidate version

Without the preferences file, APT chooses the latest available version as the candidate version.
See Section 2.5.3, Archive level Release files, for how archive level Release files are read.

## 2.7.4. Backports

Archive level Release files of backports mark them NotAutomatic, see the Release files section.
Backports are rebuilt packages from testing for the stable release.
"""

QUESTION = "What are the key points of “Archive level Release files”?"


def run(payload: dict[str, Any], **kw: Any) -> GatherResult:
    from autodidact.llm.runtime import Runtime

    return asyncio.run(gather(parse_payload(payload), runtime=Runtime(), settings=Settings(), **kw))


def test_focus_reads_the_section_a_key_points_question_names() -> None:
    fx = focus(QUESTION)
    assert fx.aspect == "keypoints" and fx.section == "Archive level Release files"
    assert fx.literals == []  # the heading is a name, not code the quotes must contain
    assert focus("《调整候选版本》的要点是什么？").section == "调整候选版本"
    assert focus("What is apt-cache policy?").section == ""


def test_key_points_quote_the_named_section_and_not_the_pages_that_mention_it(tmp_path: Path) -> None:
    from autodidact.sources.ingest import index_corpus

    corpus = tmp_path / "manual"
    corpus.mkdir()
    (corpus / "ch02.md").write_text(MANUAL, encoding="utf-8")
    report = tmp_path / "report"
    index_corpus(report, [corpus], name="manual")
    kqs = [{"id": "kq1", "text": QUESTION}]
    result = run(make_payload(report, key_questions=kqs, name="Package management"))
    ev = result.evidence.to_json()
    assert validate_evidence(ev, source_cache=report, require_version="1.2").ok
    quotes = [e["snippet"] for c in ev["claims"] for e in c["evidence"]]
    section = MANUAL.split("## 2.5.3.")[1].split("## 2.7.3.")[0]
    assert len(quotes) >= 3
    assert all(" ".join(q.split()) in " ".join(section.split()) for q in quotes)
    # The fact the section exists for, though it never repeats the heading's words:
    assert any("default Pin-Priority value is 500" in q for q in quotes)


def test_code_like_names_are_literals_and_abbreviations_are_not() -> None:
    from autodidact.evidence.focus import literals

    assert literals("What is apt-get?") == ["apt-get"]
    assert literals("What is /etc/apt/sources.list, e.g. for Pin-Priority?") == [
        "/etc/apt/sources.list",
        "Pin-Priority",
    ]
    assert literals("What does dpkg --configure -a do?") == ["--configure"]
    assert literals("What is __next__ in os.path?") == ["__next__", "os.path"]
    assert literals("What is a generator?") == []


def _offline_quotes(question: str, title: str, text: str) -> list[str]:
    """The quotes the offline extractor takes for ``question`` from one passage."""
    return offline_quotes(question, [(title, text)])


def test_a_question_naming_code_is_answered_only_by_sentences_that_write_it() -> None:
    text = (
        "The ls command can list every file in a folder, and ls -a can list hidden ones as well. "
        "The archive is specified in the /etc/apt/sources.list file of the system. "
        "A list of mirrors is kept on the project website for anyone to browse."
    )
    quotes = _offline_quotes("What is sources.list?", "Debian archive basics", text)
    assert quotes == ["The archive is specified in the /etc/apt/sources.list file of the system."]


def test_a_name_written_by_its_distinctive_part_still_answers() -> None:
    text = (
        "Under systemd, networkd may be used to manage networks on servers without a desktop. "
        "The systemd journal keeps the logs of every service that the system runs at boot."
    )
    quotes = _offline_quotes("What is the role of systemd-networkd in networking on Debian?", "Network setup", text)
    assert quotes and all("networkd" in q for q in quotes)


def test_a_sections_opening_sentence_is_among_its_key_points() -> None:
    # The opening states what the section is about, though later sentences repeat each other's terms more.
    text = (
        "If finally is present, it specifies a cleanup handler. "
        "The try clause is executed, including any except and else clauses. "
        "If an exception occurs in any of the clauses and is not handled, the exception is temporarily saved. "
        "The finally clause is executed after the saved exception is kept. "
        "If there is a saved exception it is re-raised at the end of the finally clause. "
        "If the finally clause raises another exception, the saved exception is set as the context. "
        "If the finally clause executes a return statement, the saved exception is discarded. "
        "The exception information is not available to the program during the finally clause. "
    )
    fx = focus("What are the key points of “finally clause”?")
    from autodidact.evidence.extract_task import ExtractInputs, PassageIn, key_point_sentences

    inputs = ExtractInputs(
        language="en", kq_id="kq1", kq_text=fx.question, mode="initial", max_claims=3,
        passages=[PassageIn("P1", "finally clause", text, "primary", "https://example.org/a")],
        query_variants=[fx.terms], aspect=fx.aspect,
    )  # fmt: skip
    picked = [s for _, s in key_point_sentences(inputs)]
    assert len(picked) == 3 and picked[0] == "If finally is present, it specifies a cleanup handler."


def test_a_models_search_queries_never_replace_the_questions_own() -> None:
    # A weak model's valid but useless queries ("search words") must not starve retrieval.
    from autodidact.evidence.agent import _plans_by_kq
    from autodidact.evidence.search_plan import KQPlan, PlannedQuery

    template = KQPlan(kq_id="kq1", queries=[PlannedQuery(text="python generators", language="en", angle="neutral")])
    junk = KQPlan(kq_id="kq1", queries=[PlannedQuery(text="search words", language="en", angle="neutral")])
    texts = [q.text for q in _plans_by_kq([junk], [template])["kq1"].queries]
    assert texts == ["search words", "python generators"]


def test_a_heading_many_pages_share_is_read_in_the_document_the_question_names(tmp_path: Path) -> None:
    """Every module page has a "Description": the question names which one, and only that one is quoted."""
    from autodidact.sources.ingest import index_corpus

    corpus = tmp_path / "pages"
    corpus.mkdir()
    pages = {
        "marshal": "The format is specific to Python, but independent of machine architecture issues.",
        "pickle": "The pickle module implements binary protocols for serializing Python object structures.",
        "shelve": "A shelf is a persistent, dictionary-like object that stores arbitrary Python objects.",
    }
    for name, line in pages.items():
        text = f"# {name}\n\n## Description\n\n{line} Every {name} page describes the {name} module here.\n"
        (corpus / f"{name}.md").write_text(text, encoding="utf-8")
    report = tmp_path / "report"
    index_corpus(report, [corpus], name="pages")
    question = "What are the key points of “Description” in “marshal”?"
    assert focus(question).section == "Description" and focus(question).document == "marshal"
    result = run(make_payload(report, key_questions=[{"id": "kq1", "text": question}], name="Serialization"))
    quotes = " ".join(e.snippet for c in result.evidence.claims for e in c.evidence)
    assert "independent of machine architecture" in quotes
    assert "dictionary-like" not in quotes and "binary protocols" not in quotes


def test_a_chinese_sentence_around_inline_code_is_a_sentence() -> None:
    """Quotes and code marks are prose: the sentence that says where the resolution order is set
    is quotable, though a third of it is marked-up file names."""
    from autodidact.evidence.extract_task import _sentence_like

    assert _sentence_like('"`/etc/nsswitch.conf`" 文件里的 "`hosts: files dns`" 这段规定主机名解析顺序。')
    assert _sentence_like('如果 `resolvconf` 软件包没有安装，"`/etc/resolv.conf`" 是一个静态文件。')
    assert not _sentence_like("{ [ ( x ) ] } <= => ;; || && {{ }} == != [[ ]] <<>>")
    assert not _sentence_like("| a | b | c | d | e | f | g |")


def test_a_sections_statements_are_key_points_beside_its_table_rows() -> None:
    """The statement after a package table (what the main program is, how rules are saved) is one
    of the section's points, though it opens with a lowercase name (Chinese has no case)."""
    from autodidact.evidence.extract_task import ExtractInputs, PassageIn, key_point_sentences

    rows = "\n".join(
        f"| `shorewall{v}` | V:0, I:0 | 71 | Shoreline 防火墙, netfilter 配置文件生成器 ({v or '标准'}版) |"
        for v in ("", "-lite", "6", "6-lite", "-init", "-doc")
    )
    text = (
        "Netfilter 使用 Linux 内核模块提供状态防火墙和网络地址转换框架。\n\n"
        "| 软件包 | 流行度 | 大小 | 说明 |\n|---|---|---|---|\n" + rows + "\n\n"
        "netfilter 主要的用户层程序是 `iptables`(8)，使用 `iptables-save`(8) 保存当前状态。\n"
    )
    inputs = ExtractInputs(
        language="zh",
        kq_id="kq1",
        kq_text="《Netfilter 网络过滤框架》的要点是什么？",
        passages=[PassageIn("P1", "Netfilter 网络过滤框架", text, "primary", "https://example.org/ch05")],
        mode="initial",
        aspect="keypoints",
        max_claims=8,
    )
    picked = [s for _, s in key_point_sentences(inputs)]
    assert any(s.startswith("netfilter 主要的用户层程序") for s in picked), picked


def test_a_table_row_whose_first_cell_says_what_it_does_is_a_key_point() -> None:
    """「把制表符扩展成空格 | `col -x` | `expand`」: a table of tasks and the commands that do them
    states its facts in the first cell; the rows are what the section is for."""
    from autodidact.evidence.extract_task import ExtractInputs, PassageIn, key_point_sentences

    text = (
        "这里有一些转换 TAB 代码的专业工具。\n\n"
        "| 功能 | `bsdmainutils` | `coreutils` |\n|---|---|---|\n"
        '| 把制表符扩展成空格 | " `col -x`" | `expand` |\n'
        '| 将空格转换为制表符（unexpand） | " `col -h`" | `unexpand` |\n\n'
        "例如 `vim` 和 `emacs` 这样的编辑软件可以被用来扩展 TAB。\n"
    )
    inputs = ExtractInputs(
        language="zh",
        kq_id="kq1",
        kq_text="《TAB 转换》的要点是什么？",
        passages=[PassageIn("P1", "TAB 转换", text, "primary", "https://example.org/ch11")],
        mode="initial",
        aspect="keypoints",
        max_claims=8,
    )
    picked = [s for _, s in key_point_sentences(inputs)]
    assert any("把制表符扩展成空格" in s for s in picked), picked
    assert not any(s.startswith("| 功能") for s in picked), picked


def test_a_slash_between_names_is_or_and_a_path_stays_a_path() -> None:
    from autodidact.evidence.focus import literals

    assert literals("What is the definition of locks/RLock?") == ["RLock"]
    assert literals("How do task_done/join work?") == ["task_done"]
    assert literals("What is /etc/apt/sources.list?") == ["/etc/apt/sources.list"]
    assert literals("What is TCP/IP?") == []


def test_a_member_documented_under_its_signature_is_answered_from_there() -> None:
    """Reference pages document "Thread.join" as "join(self, timeout=None)" and its sentences never
    repeat the name: the passage that writes the call answers, a passage that does not stays out."""
    join_doc = (
        "join(self, timeout=None)\n    Wait until the thread terminates. When the timeout argument is present "
        "and not None, it is a floating point number of seconds the calling thread waits for the operation."
    )
    other = "The timeout of a socket thread is a floating point number of seconds for every blocking operation."
    quotes = offline_quotes(
        "What is the definition of Thread.join timeouts?", [("socket", other), ("threading", join_doc)]
    )
    assert quotes and all("socket" not in q for q in quotes)
    assert any("timeout argument is present" in q for q in quotes)


def _facet_points(
    kq: str,
    title: str,
    text: str,
    facet_terms: frozenset[str],
    lang: str = "en",
    topic: frozenset[str] = frozenset(),
    subject: list[str] | None = None,
) -> list[str]:
    from autodidact.evidence.extract_task import ExtractInputs, PassageIn, key_point_sentences

    inputs = ExtractInputs(
        language=lang,
        kq_id="kq1",
        kq_text=kq,
        passages=[PassageIn("P1", title, text, "primary", "https://example.org/" + title)],
        mode="initial",
        aspect="keypoints",
        max_claims=4,
        facet_terms=facet_terms,
        topic_terms=topic | facet_terms,
        subject=frozenset(subject or []),
    )
    return [s for _, s in key_point_sentences(inputs)]


FUNCTION_DEFINITIONS = (
    "A function definition defines a user-defined function object. "
    "Default parameter values are evaluated from left to right when the function definition is executed. "
    "A function definition may be wrapped by one or more decorator expressions. "
    "The annotation values are available as values of a dictionary keyed by the parameters. "
    "Free variables used in the nested function can access the local variables of the function containing the def. "
    "Default values are computed once, so a mutable default is shared between calls."
)


def test_a_section_found_for_one_sentence_gives_the_points_that_bear_on_its_facet() -> None:
    """ "Function definitions" was read for the facet "free variables and the nearest enclosing
    scope" because of one sentence; its central points (default values, decorators) are about
    something else and filled the facet's article. With the facet known, only what bears on it is
    quoted; without it, the section's key points are what they were."""
    from autodidact.text.tokens import terms

    kq = "What are the key points of “Function definitions”?"
    facet = frozenset(terms("free variables nearest enclosing scope"))
    picked = _facet_points(kq, "Function definitions", FUNCTION_DEFINITIONS, facet)
    assert picked == [
        "Free variables used in the nested function can access the local variables of the function containing the def."
    ]
    unfocused = _facet_points(kq, "Function definitions", FUNCTION_DEFINITIONS, frozenset())
    assert any(s.startswith("Default parameter values") for s in unfocused), unfocused


def test_a_section_named_for_its_facet_or_saying_none_of_its_words_keeps_all_its_points() -> None:
    """A section whose heading names the facet is the facet's own; a section that never says the
    facet's words was chosen for what it says in other words (the default Pin-Priority in
    "Archive level Release files"): both keep every key point. Chinese facets too."""
    from autodidact.text.tokens import terms

    facet = frozenset(terms("free variables nearest enclosing scope"))
    own = _facet_points("What are the key points of “Free variables”?", "Free variables", FUNCTION_DEFINITIONS, facet)
    assert len(own) >= 3
    resolution = (
        "A scope defines the visibility of a name within a block. "
        "The global namespace is searched first. "
        "If the names are not found there, the builtins namespace is searched."
    )
    for topic, subject in ((terms("how Python resolves variable names"), []), ([], terms("variable names"))):
        kq = "What are the key points of “Resolution of names”?"
        picked = _facet_points(kq, "Resolution of names", resolution, facet, topic=frozenset(topic), subject=subject)
        assert "The global namespace is searched first." in picked, picked
    functions = (
        "active_count() Return the number of Thread objects currently alive. "
        "get_native_id() Return the native integral Thread ID of the current thread assigned by the kernel. "
        "stack_size([size]) Return the thread stack size used when creating new threads."
    )
    kq = "What are the key points of “Functions” in “threading”?"
    picked = _facet_points(kq, "Functions", functions, frozenset(terms("listing live threads")), subject=["thread"])
    assert len(picked) == 3, picked  # the subject's own module page: every entry is one of its points
    memo = (
        "Pickler(file, protocol=None) This takes a binary file for writing a pickle data stream. "
        "The memo is the data structure that remembers which objects the pickler has already seen. "
        "clear_memo() Clears the pickler's memo."
    )
    kq = "What are the key points of “class Pickler”?"
    topic = frozenset(terms("Python's pickle module"))  # the stemmer files "pickler" apart from "pickle"
    picked = _facet_points(kq, "class Pickler", memo, frozenset(terms("protocol versions")), topic=topic)
    assert any(s.startswith("The memo is") for s in picked), picked
    release = (
        "The Release file of an archive states its suite and codename. "
        "The default Pin-Priority value is 500 for archives without NotAutomatic. "
        "Archives with NotAutomatic get the value 1."
    )
    facet = frozenset(terms("version pinning"))
    kq = "What are the key points of “Archive level Release files”?"
    assert any("500" in s for s in _facet_points(kq, "Archive level Release files", release, facet))
    zh = (
        "文本编辑器有很多种。"
        "Emacs 还有很多其他的特点，包括新手导读，目录编辑器，邮件客户端等等。"
        "好的编辑器可以处理 UTF-8 及其它编码的文本，例如用 vim 编辑 latin2 编码的文件。"
        "一些人甚至坚持认为最需要配备的就是 Emacs。"
        "Vim 里提供了帮助键，在同类工具中它的功能更强大。"
        "在此强烈推荐学习使用 Emacs 时候直接使用参考手册。"
    )
    picked = _facet_points("《常用工具》的要点是什么？", "常用工具", zh, frozenset(terms("编码的文件")), "zh")
    assert picked and all("编码" in s for s in picked), picked
    # a section a quarter or more of whose sentences say the facet's words is about it: all count
    closures = FUNCTION_DEFINITIONS + " A nested function sees free variables of the enclosing scope."
    scope = frozenset(terms("free variables nearest enclosing scope"))
    picked = _facet_points(
        "What are the key points of “Function definitions”?", "Function definitions", closures, scope
    )
    assert any(s.startswith("Default parameter values") for s in picked), picked


def test_the_advice_a_section_ends_on_is_a_key_point_when_it_says_the_topic() -> None:
    """Twelve steps of how the shell reads a line share their words and outrank, on centrality,
    the section's last paragraph, the one that says how to debug: in a research on debugging
    that paragraph is a key point. Ending on a detail that says no topic word, it is not."""
    from autodidact.evidence.extract_task import SPARE_CLAIMS, ExtractInputs, PassageIn, key_point_sentences
    from autodidact.text.tokens import terms

    steps = "\n".join(
        [
            "- shell 读取一行，shell 对该行各部分进行分组。",
            "- shell 会检查每一个 token 中的保留字来调整 shell 的行为。",
            "- shell 展开 token 中的别名，shell 展开 token 中的波浪线。",
            "- shell 将 token 中的变量展开为它的值。",
            "- shell 展开 token 中的命令替换，再查找命令并执行。",
        ]
    )
    ending = "在 shell 中执行 “`set -x`” 可以让 shell 显示出所有执行的命令。这对调试来说是非常方便的。"
    text = f"shell 大致按顺序处理一个脚本。\n\n{steps}\n\n{ending}\n"

    def points(topic: str, subject: str = "shell 脚本") -> list[str]:
        inputs = ExtractInputs(
            language="zh",
            kq_id="kq1",
            kq_text="《shell 命令行的处理顺序》的要点是什么？",
            passages=[PassageIn("P1", "shell 命令行的处理顺序", text, "primary", "https://example.org/ch12")],
            mode="initial",
            aspect="keypoints",
            max_claims=4,
            topic_terms=frozenset(terms(topic)),
            subject=frozenset(terms(subject)),
        )
        return [s for _, s in key_point_sentences(inputs)]

    assert any("set -x" in s for s in points("用 gdb 调试程序")), points("用 gdb 调试程序")
    # offline, the last SPARE_CLAIMS points are spares the file may cut: the closing point is kept
    kept = points("用 gdb 调试程序")[: 4 - SPARE_CLAIMS]
    assert any("set -x" in s for s in kept), kept
    # the research's subject counts as its words ("如何编写和调试程序" makes 「调试」 the subject's)
    assert any("set -x" in s for s in points("用 make 构建", subject="编写和调试 shell 程序"))
    assert not any("set -x" in s for s in points("用 make 构建")), points("用 make 构建")


@pytest.mark.parametrize(
    ("chapter", "language", "question", "topic", "note"),
    [
        (
            "ch11.zh-cn.html",
            "zh",
            "《用 iconv 命令来转换文本文件》的要点是什么？",
            "文本数据转换：iconv 转换和检查编码",
            '你需要使用 "`CP932`" 作为编码名来代替',
        ),
        (
            "ch11.en.html",
            "en",
            "What are the key points of “Converting a text file with iconv”?",
            "How do I convert text data on Debian: iconv and encodings?",
            "",  # the English note ranks below the table's rows on its own words and is not kept
        ),
    ],
)
def test_a_sections_note_is_among_its_key_points(
    tmp_path: Path, chapter: str, language: str, question: str, topic: str, note: str
) -> None:
    """The Debian Reference's section on iconv ends with a note on converting Shift-JIS data. In
    Chinese it ranks among the section's points but, standing last, was the one the section's order
    cut; now it takes the place of a lower-ranked point."""
    from autodidact.sources.ingest import index_corpus
    from autodidact.testing.corpora import debian_reference_zh

    folder = debian_reference_zh()
    if folder is None or not (folder / chapter).is_file():
        pytest.skip("debian-reference-zh-cn is not installed")
    report = tmp_path / "report"
    index_corpus(report, [folder / chapter], name="debian-reference")
    kqs = [{"id": "kq1", "text": question}]
    result = run(make_payload(report, language=language, key_questions=kqs, name="iconv", query=topic))
    quotes = [e.snippet for c in result.evidence.claims for e in c.evidence]
    assert not note or any(note in q for q in quotes)
    assert len(quotes) >= 4  # the note is one point among the section's others
    # a passage of the section ends at a line break inside the long table, not inside a row
    # (a row cut there was quoted as "52 | code page 1252, …")
    assert not any(re.match(r"\d+ \|", q) for q in quotes), quotes


def test_a_lead_in_is_quoted_with_the_example_it_announces() -> None:
    """coreutils' "Examples of date" lists what to do, each with its command set off below it:
    "• To print the date of the day three months and one day hence:" alone promised an answer."""
    from autodidact.evidence.extract_task import with_antecedents
    from autodidact.evidence.textscore import sentence_spans

    text = (
        "Here are a few examples.\n\n"
        "   • To print the date of the day three months and one day hence:\n\n"
        "          date --date='3 months 1 day'\n\n"
        "   • To print the current full month name and the day of the month:\n\n"
        "          date '+%B %d'\n\n"
        "     But this may not be what you want because for the first nine days\n"
        "     of the month, the ‘%d’ expands to a zero-padded two-digit field.\n"
    )
    pieces = [" ".join(text[s:e].split()) for s, e in with_antecedents(text, sentence_spans(text))]
    assert "• To print the date of the day three months and one day hence: date --date='3 months 1 day'" in pieces
    assert "• To print the current full month name and the day of the month: date '+%B %d'" in pieces
    # a paragraph set off under the item is a sentence of its own, not part of the example
    assert any(p.startswith("But this may not be what you want") for p in pieces)
