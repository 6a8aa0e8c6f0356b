"""The documents' outline per facet becomes key-points questions (sources/outline.py, docs/questions.md)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from autodidact.kb import KnowledgeBase
from autodidact.questions.candidates import OUTLINE_PER_FACET, outline_candidates
from autodidact.questions.generate import select_questions
from autodidact.questions.models import HistoryItem, OutlineEntry, QuestionerInputs
from autodidact.sources.outline import PER_FACET, facet_outline
from autodidact.sources.passage_index import LocalIndex
from autodidact.text.keypoints import key_points_heading

from .conftest import TOPIC


def test_each_facet_gets_sections_that_name_it(fresh_kb: Callable[[str], Path]) -> None:
    kb = fresh_kb("kb")
    outline = facet_outline(kb, [TOPIC], "en")
    by_facet: dict[str | None, list[str]] = {}
    for entry in outline:
        by_facet.setdefault(entry.facet, []).append(entry.heading)
    assert set(by_facet) >= {"Python generators", "Python coroutines"}
    assert all(len(h) <= PER_FACET for h in by_facet.values())
    assert any("oroutine" in h or "await" in h.lower() for h in by_facet["Python coroutines"])
    # The index's stemmer files "generic" with "generators"; the outline does not.
    assert not any("generic" in h.lower() for h in by_facet["Python generators"])
    # Named once in passing ("from __future__ import generators") is not being about generators.
    assert "Future statements" not in by_facet["Python generators"]
    assert 'The "yield" statement' in by_facet["Python generators"]
    # A page about something else says "generator" twice in passing; the yield page says it throughout.
    assert not {"Frame objects", "Special Attributes"} & set(by_facet["Python generators"])
    # Headings come without their numbering and name a section the index really has.
    with LocalIndex(kb) as index:
        for heading in by_facet["Python generators"]:
            assert not heading[:1].isdigit()
            assert any(heading in (hit.section or hit.title) for hit in index.search(heading, k=20))


def test_no_index_no_outline(tmp_path: Path) -> None:
    assert facet_outline(tmp_path, [TOPIC], "en") == []


def _inputs(outline: list[OutlineEntry], history: list[str] | None = None) -> QuestionerInputs:
    return QuestionerInputs(
        topic="How does Debian package management work: dpkg vs apt, version pinning, and system upgrades?",
        round=2,
        language="en",
        outline=outline,
        history=[HistoryItem(id=f"r1q{i + 1}", text=t) for i, t in enumerate(history or [])],
    )


OUTLINE = [
    OutlineEntry(facet="version pinning", heading="Tweaking candidate version"),
    OutlineEntry(facet="version pinning", heading='Archive level "Release" files'),
    OutlineEntry(facet="version pinning", heading="Tracking testing with some packages from unstable"),
    OutlineEntry(facet="system upgrades", heading="System wide upgrade"),
    OutlineEntry(facet=None, heading="Debian package management"),
]


def test_outline_questions_take_turns_across_facets_and_skip_what_was_asked() -> None:
    asked = ["What are the key points of “Tweaking candidate version”?"]
    got = [(c.facet, key_points_heading(c.text)) for c in outline_candidates(_inputs(OUTLINE, asked))]
    assert got[:3] == [
        ("version pinning", 'Archive level "Release" files'),
        ("system upgrades", "System wide upgrade"),
        (None, "Debian package management"),
    ]
    assert sum(1 for f, _ in got if f == "version pinning") == OUTLINE_PER_FACET
    assert ("version pinning", "Tweaking candidate version") not in got


def test_outline_questions_survive_the_filters_even_when_their_words_are_not_the_topics() -> None:
    # "Archive level Release files" shares no word with the topic; it was found for the facet.
    inputs = _inputs(OUTLINE)
    chosen = [q.text for q in select_questions(inputs, outline_candidates(inputs)).questions]
    assert 'What are the key points of “Archive level "Release" files”?' in chosen
    assert "What are the key points of “System wide upgrade”?" in chosen


def test_chinese_outline_questions_read_as_chinese() -> None:
    inputs = QuestionerInputs(
        topic="Debian 软件包管理是如何工作的：dpkg 与 apt 的关系、版本固定和系统升级",
        round=2,
        language="zh",
        outline=[OutlineEntry(facet="版本固定", heading="调整候选版本")],
    )
    (cand,) = outline_candidates(inputs)
    assert cand.text == "《调整候选版本》的要点是什么？"
    assert "版本固定" in cand.rationale and key_points_heading(cand.text) == "调整候选版本"


def _debian_zh_kb(tmp_path: Path, topic: str, chapters: list[str]) -> KnowledgeBase:
    """A Chinese knowledge base with the named chapters of the Debian Reference indexed (the test
    is skipped where the package is not installed)."""
    from autodidact.kb import init_kb
    from autodidact.sources.ingest import index_corpus
    from autodidact.testing.corpora import debian_reference_zh_files

    files = [f for f in debian_reference_zh_files() if f.name.split(".")[0] in chapters]
    if len(files) < len(chapters):
        pytest.skip("debian-reference-zh-cn is not installed")
    kb, _ = init_kb(tmp_path / "kb", topic=topic, lang="zh")
    index_corpus(kb.root, files, name="debian-reference")
    return kb


def test_debian_chinese_outline_finds_the_pinning_section(tmp_path: Path) -> None:
    topic = "Debian 软件包管理是如何工作的：dpkg 与 apt 的关系、版本固定和系统升级"
    kb = _debian_zh_kb(tmp_path, topic, ["ch02", "ch05"])
    outline = facet_outline(kb.root, [topic], "zh")
    pairs = {(e.facet, e.heading) for e in outline}
    assert ("版本固定", "调整候选版本") in pairs
    # the glossary's English (pin, version) finds what the manual writes in English (Pin-Priority),
    # so the facet's sections are about pinning, not any page that says 版本
    pinning = {h for f, h in pairs if f == "版本固定"}
    assert "登录 shell" not in pinning
    assert (None, "Debian 软件包管理") in {(e.facet, e.heading) for e in outline}


def test_a_chinese_facet_needs_more_than_one_shared_bigram(tmp_path: Path) -> None:
    """「优化」 alone does not make a file-system section one of 「MTU 优化」's, nor 「配置」 a
    partitioning section one of 「网络接口配置」's: the facet's Latin words and half its bigrams."""
    topic = "Debian 系统的网络是如何设置的：主机名解析、网络接口配置、MTU 优化和 Netfilter 防火墙？"
    kb = _debian_zh_kb(tmp_path, topic, ["ch05", "ch09"])
    by_facet: dict[str | None, set[str]] = {}
    for entry in facet_outline(kb.root, [topic], "zh"):
        by_facet.setdefault(entry.facet, set()).add(entry.heading)
    assert "找出最佳 MTU" in by_facet["MTU 优化"]
    assert all("MTU" in h or "网络" in h for h in by_facet["MTU 优化"]), by_facet["MTU 优化"]
    assert not any("硬盘" in h or "文件系统" in h for h in by_facet["网络接口配置"]), by_facet["网络接口配置"]


def test_a_heading_every_page_has_names_its_document_and_furniture_has_no_key_points(tmp_path: Path) -> None:
    """pydoc pages all have "Description" and "Module reference": the outline says whose
    description it means, and skips a section that says only what every page says."""
    from autodidact.kb import init_kb
    from autodidact.sources.ingest import index_corpus
    from autodidact.testing.corpora import write_pydoc_module_corpus

    files = write_pydoc_module_corpus(tmp_path / "pages", ["json", "csv", "pickle", "marshal", "shelve", "queue"])
    topic = "How do Python's pickle, marshal and shelve modules persist objects?"
    kb, _ = init_kb(tmp_path / "kb", topic=topic, lang="en")
    index_corpus(kb.root, files, name="pydoc")
    outline = facet_outline(kb.root, [topic], "en")
    assert ("Python's marshal module", "Description", "marshal") in {(e.facet, e.heading, e.document) for e in outline}
    assert not any(e.heading == "Module reference" for e in outline)
    # a heading only one page has stands alone
    assert all(
        e.document == "" for e in outline if e.heading not in {"Description", "Name", "Data", "Classes", "Functions"}
    )


def test_a_facet_naming_alternatives_needs_the_words_of_one_of_them() -> None:
    from autodidact.sources.outline import _Need
    from autodidact.text.tokens import term_set

    facet = "Condition and Event synchronization"
    need = _Need.of(facet, [], term_set(facet), comparison=False)
    assert need.met(term_set("class Condition: a condition variable lets threads wait"))
    assert need.met(term_set("Event synchronization between threads"))
    assert not need.met(term_set("class Semaphore counts releases"))
    locks = _Need.of("locks/RLock", [], term_set("locks/RLock"), comparison=False)
    assert locks.met(term_set("RLock returns a new reentrant lock")) and locks.met(term_set("a lock object"))
    whole = _Need.of("exception chaining", [], term_set("exception chaining"), comparison=False)
    assert not whole.met(term_set("chained comparisons")) and whole.met(term_set("exception chaining works"))


def test_a_chinese_facet_that_writes_a_latin_name_needs_it_and_one_of_its_bigrams() -> None:
    from autodidact.sources.outline import _Need
    from autodidact.text.tokens import term_set

    facet = "用 gdb 调试并获取栈帧"  # half its bigrams straddle its words: 「试并」「并获」「取栈」
    need = _Need.of(facet, [], term_set(facet), comparison=False)
    assert need.met(term_set("获得栈帧：用 gdb 的 bt 命令显示栈帧"))
    assert not need.met(term_set("获得栈帧：显示调用栈"))  # no gdb: another tool's section
    assert not need.met(term_set("gdb 是 GNU 的工具"))  # gdb alone, nothing of what the facet asks
    # a facet with no Latin word still needs half its bigrams: one shared 「优化」 is not enough
    tune = _Need.of("网络接口优化", [], term_set("网络接口优化"), comparison=False)
    assert not tune.met(term_set("通过超级块优化文件系统"))


def test_each_thing_an_aspect_names_finds_its_own_section(tmp_path: Path) -> None:
    """ "Condition and Event synchronization" names two classes; asked as one phrase, only the
    section repeating most of its words was found, and class Event never was (docs/questions.md)."""
    from autodidact.kb import init_kb
    from autodidact.sources.ingest import index_corpus
    from autodidact.testing.corpora import write_pydoc_module_corpus

    files = write_pydoc_module_corpus(tmp_path / "pages", ["threading", "queue", "json"])
    topic = "How do I coordinate worker threads in Python: Condition and Event synchronization, and a Queue with join?"
    kb, _ = init_kb(tmp_path / "kb", topic=topic, lang="en")
    index_corpus(kb.root, files, name="pydoc")
    found = {(e.facet, e.heading) for e in facet_outline(kb.root, [topic], "en")}
    assert ("Condition and Event synchronization", "class Event") in found
    assert ("Condition and Event synchronization", "class Condition") in found
    assert ("Queue with join", "class Queue") in found


def test_the_subjects_words_name_no_facet(tmp_path: Path) -> None:
    """Every heading of a networking chapter says 「网络」: that 《网络优化》 says it too does not
    make it 「网络接口配置」's section, and the facet's room goes to 《Iproute2 命令》."""
    topic = "Debian 系统的网络是如何设置的：主机名解析、网络接口配置、MTU 优化和 Netfilter 防火墙？"
    kb = _debian_zh_kb(tmp_path, topic, ["ch05"])
    interfaces = [e.heading for e in facet_outline(kb.root, [topic], "zh") if e.facet == "网络接口配置"]
    assert "Iproute2 命令" in interfaces, interfaces


def test_a_section_not_naming_its_facet_keeps_to_the_chapters_that_do(tmp_path: Path) -> None:
    """The mail chapter repeats 主机 and 解析 (an MTA resolves host names) and the kernel-module
    section names netfilter; neither is where the manual treats 主机名解析 or the firewall, which
    chapter 5 titles by name."""
    topic = "Debian 系统的网络是如何设置的：主机名解析、网络接口配置、MTU 优化和 Netfilter 防火墙？"
    kb = _debian_zh_kb(tmp_path, topic, ["ch03", "ch04", "ch05", "ch06"])
    pairs = {(e.facet, e.heading) for e in facet_outline(kb.root, [topic], "zh")}
    assert ("主机名解析", "主机名解析") in pairs and ("Netfilter 防火墙", "Netfilter 网络过滤框架") in pairs
    assert not {h for f, h in pairs if f == "主机名解析"} & {"邮件传输代理 (MTA)", "其它网络应用服务"}
    assert "内核模块初始化" not in {h for f, h in pairs if f == "Netfilter 防火墙"}


def test_a_facet_whose_sections_were_all_asked_reads_them_again_once() -> None:
    """A long section says more than one answer shows; the second reading skips what is quoted."""
    from autodidact.text.keypoints import is_further, key_points_document

    first = [
        "What are the key points of “System wide upgrade”?",
        "What are the key points of “Debian package management”?",
    ]
    got = {(c.facet, c.text) for c in outline_candidates(_inputs(OUTLINE, first))}
    further = ("system upgrades", "What are the further key points of “System wide upgrade”?")
    assert further in got
    # pinning still has sections never asked: those come first, no re-reading yet
    assert not any(f == "version pinning" and is_further(t) for f, t in got)
    assert key_points_heading(further[1]) == "System wide upgrade" and is_further(further[1])
    # read twice is enough
    again = [c.text for c in outline_candidates(_inputs(OUTLINE, [*first, further[1]]))]
    assert further[1] not in again
    # both languages, and a heading named in its document
    zh = "《marshal》中《Description》的要点还有哪些？"
    assert key_points_heading(zh) == "Description" and key_points_document(zh) == "marshal" and is_further(zh)
    # the questioner lets it through though its words repeat the first question's
    inputs = _inputs(OUTLINE, first)
    chosen = [q.text for q in select_questions(inputs, outline_candidates(inputs)).questions]
    assert further[1] in chosen
    # asked again itself (an audit re-asking it), it is a repeat like any other
    from autodidact.questions.models import Candidate

    repeat = Candidate(text=further[1], layer="audit", priority="high", source="audit", rationale="partial")
    later = _inputs(OUTLINE, [*first, further[1]]).model_copy(update={"min_questions": 0})  # no top-up re-asks
    assert further[1] not in [q.text for q in select_questions(later, [repeat]).questions]
    # nor by the top-up: a section read twice has nothing more (the demo asked one a third time
    # and listed it as an open question, "no answer found")
    topped = _inputs(OUTLINE, [*first, further[1]]).model_copy(update={"min_questions": 3})
    assert further[1] not in [q.text for q in select_questions(topped, [repeat]).questions]


def test_sections_with_alike_headings_are_different_questions() -> None:
    """The demo never read "Coroutine functions": its key-points question was taken for a repeat of
    the one about "Coroutine function definition", round after round."""
    outline = [
        OutlineEntry(facet="Python coroutines", heading="Coroutine function definition"),
        OutlineEntry(facet="Python coroutines", heading="Coroutine functions"),
    ]
    inputs = _inputs(outline, ["What are the key points of “Coroutine function definition”?"])
    inputs = inputs.model_copy(update={"topic": "How do Python generators and coroutines work?"})
    chosen = [q.text for q in select_questions(inputs, outline_candidates(inputs)).questions]
    assert "What are the key points of “Coroutine functions”?" in chosen
    # both new in one round: both asked
    fresh = _inputs(outline).model_copy(update={"topic": "How do Python generators and coroutines work?"})
    chosen = [q.text for q in select_questions(fresh, outline_candidates(fresh)).questions]
    assert {
        "What are the key points of “Coroutine functions”?",
        "What are the key points of “Coroutine function definition”?",
    } <= set(chosen)


def test_the_topics_home_chapters_are_where_its_facets_are_headings(tmp_path: Path) -> None:
    """The package chapter says 「Debian 系统」 and 「网络」 (an APT proxy saves network bandwidth) but
    titles no section after a networking facet; the networking chapter does."""
    from autodidact.sources.outline import topic_homes

    topic = "Debian 系统的网络是如何设置的：主机名解析、网络接口配置、MTU 优化和 Netfilter 防火墙？"
    kb = _debian_zh_kb(tmp_path, topic, ["ch02", "ch05"])
    with LocalIndex(kb.root) as index:
        homes = topic_homes(index, topic, "zh")
        pkg_homes = topic_homes(index, "Debian 软件包管理是如何工作的：dpkg 与 apt 的关系、版本固定和系统升级", "zh")
    assert {h.rsplit("/", 1)[-1] for h in homes} == {"ch05.zh-cn.html"}
    assert {h.rsplit("/", 1)[-1] for h in pkg_homes} == {"ch02.zh-cn.html"}


def test_a_tasks_verb_is_not_required_of_its_section(tmp_path: Path) -> None:
    """No reference page writes "handling": the section on Future, which says exception, raise and
    call, is where "handling exceptions raised by calls" is answered."""
    from autodidact.kb import init_kb
    from autodidact.sources.ingest import index_corpus
    from autodidact.testing.corpora import write_pydoc_module_corpus

    files = write_pydoc_module_corpus(tmp_path / "pages", ["concurrent.futures", "json", "csv"])
    topic = "How do I run tasks in parallel with concurrent.futures: handling exceptions raised by calls?"
    kb, _ = init_kb(tmp_path / "kb", topic=topic, lang="en")
    index_corpus(kb.root, files, name="pydoc")
    found = {(e.facet, e.heading) for e in facet_outline(kb.root, [topic], "en")}
    assert ("handling exceptions raised by calls", "class Future") in found, found


def test_the_section_named_for_a_chinese_facets_tool_is_the_facets(tmp_path: Path) -> None:
    """「用 make 构建」: the manual's "12.6.1. make" explains make and never writes 「构建」; named for
    the facet's own Latin word, it is the facet's section all the same."""
    topic = "在 Debian 上如何编写和调试程序：用 gdb 调试并获取栈帧，以及用 make 构建？"
    kb = _debian_zh_kb(tmp_path, topic, ["ch12"])
    headings = {e.heading for e in facet_outline(kb.root, [topic], "zh") if e.facet == "用 make 构建"}
    assert "make" in headings, headings
    assert not any("gdb" in h for h in headings)


def test_a_facets_outline_keeps_to_the_subsections_of_its_own_section(tmp_path: Path) -> None:
    """「编写可移植的 shell 脚本」 kept six sections in the index's order, two from other chapters or
    parts, and never 《Shell 条件语句》 (12.1.3), a subsection of the facet's own 12.1 that is mostly a
    list of tests; the subsections of the facet's section come first, found even when unranked."""
    topic = "在 Debian 上如何编写和调试程序：编写可移植的 shell 脚本、用 gdb 调试并获取栈帧，以及用 make 构建？"
    kb = _debian_zh_kb(tmp_path, topic, ["ch01", "ch12"])
    entries = [e for e in facet_outline(kb.root, [topic], "zh") if e.facet == "编写可移植的 shell 脚本"]
    headings = [e.heading for e in entries]
    assert "Shell 条件语句" in headings, headings
    assert all(e.number.startswith("12.1") for e in entries), [(e.heading, e.number) for e in entries]


def test_a_short_command_name_is_not_the_ordinary_word_in_a_heading() -> None:
    """ "inspecting processes with ps and top" names the command ``top``: "Top level "Release" file and
    authenticity" uses the ordinary word and is no section of that facet; "The top command" is."""
    from autodidact.sources.outline import _as_written
    from autodidact.text.tokens import term_set

    topic = "How do I monitor processes: inspecting processes with ps and top, scheduling jobs with at"
    assert _as_written({"top"}, 'Top level "Release" file and authenticity', topic) == set()
    assert _as_written({"top"}, "The top command", topic) == {"top"}
    assert _as_written(term_set("Scheduling"), "Scheduling tasks once", topic) == term_set("Scheduling")  # long words
    # a tool named by a proper noun is capitalised in headings as a name: "10.5.2. Basic Git commands"
    assert _as_written({"git"}, "Basic Git commands", "version control with git and svn") == {"git"}


def test_a_word_many_headings_say_does_not_name_a_facets_section(tmp_path: Path) -> None:
    """「文件」 stands in dozens of the manual's headings: it does not file 《在文件上使用 GnuPG》 or
    《从源代码文件导出差异》 under 「转换旧系统文件名的编码」; the sections that name the task do."""
    topic = "在 Debian 上如何转换文本数据：转换旧系统文件名的编码、TAB 与空格互换"
    kb = _debian_zh_kb(tmp_path, topic, ["ch01", "ch08", "ch10", "ch11"])
    by_facet: dict[str | None, set[str]] = {}
    for entry in facet_outline(kb.root, [topic], "zh"):
        by_facet.setdefault(entry.facet, set()).add(entry.heading)
    names = by_facet.get("转换旧系统文件名的编码", set())
    assert "文件名编码" in names or "使用 iconv 转换文件名" in names, by_facet
    assert not any("GnuPG" in h or "差异" in h for h in names), names
    assert "TAB 转换" in by_facet.get("TAB 与空格互换", set()), by_facet


def test_a_chinese_facet_naming_two_things_may_leave_one_unsaid() -> None:
    """The manual's section on line endings writes "MSDOS", never "DOS": a facet naming two things
    side by side is answered by a section that says one of them and half its own words; a facet
    naming one thing still needs it."""
    from autodidact.sources.outline import _Need
    from autodidact.text.tokens import term_set

    facet = "在 DOS 与 Unix 换行符之间转换"
    need = _Need.of(facet, [], term_set(facet), comparison=False)
    assert need.paired
    assert need.met(term_set("换行符转换：对于混合 MSDOS 和 Unix 式样的文件，统一换行符"))
    assert not need.met(term_set("Unix 文件基础：文件名区分大小写"))  # one name and nothing of the rest
    vim = "用 vim 编辑非 UTF-8 编码的文件"
    single = _Need.of(vim, [], term_set(vim), comparison=False)
    assert not single.paired and not single.met(term_set("UTF-8 编码的文件"))


def test_the_line_endings_facet_gets_its_section_not_unix_basics(tmp_path: Path) -> None:
    topic = "在 Debian 上如何转换文本数据：转换旧系统文件名的编码、在 DOS 与 Unix 换行符之间转换、TAB 与空格互换？"
    kb = _debian_zh_kb(tmp_path, topic, ["ch01", "ch11"])
    endings = {e.heading for e in facet_outline(kb.root, [topic], "zh") if e.facet == "在 DOS 与 Unix 换行符之间转换"}
    assert "换行符转换" in endings, endings
    assert "Unix 文件基础" not in endings, endings


def test_the_word_all_members_share_titles_no_section(tmp_path: Path) -> None:
    """ "statement" is what "global statements" and "nonlocal statements" both are: "Assignment
    statements" is not their section, and the pdb page, which says "statement" throughout and
    "global" once, is not either."""
    from autodidact.kb import init_kb
    from autodidact.sources.ingest import index_corpus
    from autodidact.testing.corpora import write_pydoc_corpus

    files = write_pydoc_corpus(tmp_path / "pages")
    topic = "How does Python resolve variable names: the global and nonlocal statements, and UnboundLocalError?"
    kb, _ = init_kb(tmp_path / "kb", topic=topic, lang="en")
    index_corpus(kb.root, files, name="pydoc")
    sections = {e.heading for e in facet_outline(kb.root, [topic], "en") if e.facet == "global and nonlocal statements"}
    assert any("global" in h for h in sections), sections
    assert "Assignment statements" not in sections and "Debugger Commands" not in sections, sections


def test_a_heading_of_a_facets_own_words_is_its_section(tmp_path: Path) -> None:
    """Over bc's manual only one of five facets found a section: "5. Functions" names nothing beyond
    generic words (it was taken for the subject's overview), and "5.1. Math Library Functions" writes
    "preloaded", never "loaded", so "the math library loaded with -l" met no section."""
    from autodidact.sources.ingest import index_corpus

    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "calc.md").write_text(
        "# calc\n\n## 2.1. Numbers\n\nNumbers in calc have a length and a scale; the scale is the count of"
        " digits after the point, and every number keeps both of them.\n\n"
        "## 5. Functions\n\nYou can define your own functions with the define keyword; a function takes"
        " parameters and may return a value to its caller.\n\n"
        "## 5.1. Math Library Functions\n\nIf calc is invoked with the -l option, a math library is preloaded,"
        " and its functions are s for the sine and c for the cosine of a number.\n",
        encoding="utf-8",
    )
    index_corpus(tmp_path, [pages], name="pages")
    topic = (
        "How do I calculate with calc: the scale of numbers, the math library loaded with -l,"
        " defining my own functions?"
    )
    found = {(e.facet, e.heading) for e in facet_outline(tmp_path, [topic], "en")}
    assert ("math library loaded with -l", "Math Library Functions") in found, found
    assert ("defining my own functions", "Functions") in found, found
