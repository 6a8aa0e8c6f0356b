"""The audit on hand-edited wikis (issue #12): faults seen on real documents, English and Chinese.

Each test pins one fault: a verdict of ``resolved`` whose answer never names the question's subject;
INDEX.md lines in the forms people write (``- [[APT]]：…``); an INDEX entry with no article; an
uncited sentence after a cited one in the same paragraph; a model that echoes the schema. The rules
are in docs/audit.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autodidact.config import ModelSettings
from autodidact.kb import KnowledgeBase
from autodidact.llm.base import Request
from autodidact.llm.runtime import Runtime
from autodidact.testing.scripted import ScriptedModel
from autodidact.wiki.audit.check import check_wiki
from autodidact.wiki.audit.check_task import (
    PassageIn,
    QuestionAnswer,
    QuestionInputs,
    answer_body,
    honest_verdict,
    offline_answer,
)
from autodidact.wiki.audit.report_parser import parse_check_report
from autodidact.wiki.audit.retrieval import WikiIndex
from autodidact.wiki.common.articles import load_wiki
from autodidact.wiki.common.question_frame import held_terms, question_terms

from .conftest import add_raw

# -- hand-edited wikis --------------------------------------------------------------------------

EN_ARTICLES = {
    "apt": (
        "# APT\n\nAPT is the high-level package manager of Debian systems. (source: {raw})\n\n"
        "## Key points\n\n- apt-get is meant for scripts and stays stable between releases. (source: {raw})\n\n"
        "## Related\n\n- [[dpkg]]\n"
    ),
    "dpkg": "# dpkg\n\ndpkg is the lowest-level tool that installs .deb files. (source: {raw})\n\n"
    "## Related\n\n- [[APT]]\n",
    "apt-get": "# apt-get\n\napt-get installs and upgrades packages from the command line. (source: {raw})\n\n"
    "## Related\n\n- [[APT]]\n",
    "sources-list": '---\ntitle: "sources.list"\n---\n\n# sources.list\n\n'
    "The sources.list file names the archives APT downloads from. (source: {raw})\n\n## Related\n\n- [[APT]]\n",
    "pinning": "# Version pinning\n\nPinning gives an archive a priority in /etc/apt/preferences. (source: {raw})\n\n"
    "## Related\n\n- [[APT]]\n",
}
EN_INDEX = """# Index

- [[APT]]: the high-level package tool
- [[dpkg|DPKG, the low-level tool]]; installs .deb files
* **[[apt-get#Usage]]**, for scripts
1. [[sources-list.md]] — where packages come from
- See [Version pinning](wiki/pinning.md): priorities
- [[Aptitude]]: another front end
"""
ZH_ARTICLES = {
    "apt": (
        "# APT\n\nAPT 是 Debian 的高级软件包管理工具。（来源：{raw}）\n\n"
        "## 要点\n\n- apt-get 适合在脚本中使用，各版本之间行为稳定。（来源：{raw}）\n\n## 相关主题\n\n- [[dpkg]]\n"
    ),
    "dpkg": "# dpkg\n\ndpkg 是最底层的软件包工具，负责安装 .deb 文件。（来源：{raw}）\n\n## 相关主题\n\n- [[APT]]\n",
    "apt-get": "# apt-get\n\napt-get 在命令行中安装和升级软件包。（来源：{raw}）\n\n## 相关主题\n\n- [[APT]]\n",
    "sources-list": '---\ntitle: "sources.list"\n---\n\n# sources.list\n\n'
    "sources.list 文件列出 APT 下载软件包的档案库。（来源：{raw}）\n\n## 相关主题\n\n- [[APT]]\n",
    "pinning": "# 版本固定\n\n版本固定在 /etc/apt/preferences 中为档案库设定优先级。（来源：{raw}）\n\n"
    "## 相关主题\n\n- [[APT]]\n",
}
ZH_INDEX = """# 知识库索引

- [[APT]]：高级软件包管理工具
- [[dpkg|DPKG 工具]]，底层工具
* **[[apt-get#用法]]**；适合脚本
1. [[sources-list.md]]——软件源
- 参见［［pinning｜版本固定］］：优先级
- [[Aptitude]]：另一个前端
"""


def _write_wiki(kb: KnowledgeBase, articles: dict[str, str], index: str) -> str:
    raw = add_raw(kb, "Debian package management", "APT and dpkg manage the packages of a Debian system.\n")
    for stem, text in articles.items():
        (kb.wiki / f"{stem}.md").write_text(text.format(raw=raw), "utf-8")
    (kb.wiki / "INDEX.md").write_text(index, "utf-8")
    return raw


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_index_links_in_every_hand_written_form_count_as_listed(
    lang: str, en_kb: KnowledgeBase, zh_kb: KnowledgeBase
) -> None:
    kb = en_kb if lang == "en" else zh_kb
    _write_wiki(kb, EN_ARTICLES if lang == "en" else ZH_ARTICLES, EN_INDEX if lang == "en" else ZH_INDEX)
    result = check_wiki(kb, None, 1, None)
    kinds = [f.kind for f in result.findings]
    assert "index-missing-entry" not in kinds, [f.text for f in result.findings if f.kind == "index-missing-entry"]
    stale = [f.text for f in result.findings if f.kind == "index-stale-entry"]
    assert len(stale) == 1 and "[[Aptitude]]" in stale[0]  # the entry with no article, under 结构问题
    assert any("[[Aptitude]]" in s for s in result.report.structure)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_index_that_misses_an_article_is_still_reported(
    lang: str, en_kb: KnowledgeBase, zh_kb: KnowledgeBase
) -> None:
    kb = en_kb if lang == "en" else zh_kb
    index = (EN_INDEX if lang == "en" else ZH_INDEX).replace("[[dpkg|", "[[nothing-here|")
    _write_wiki(kb, EN_ARTICLES if lang == "en" else ZH_ARTICLES, index)
    structure = "\n".join(check_wiki(kb, None, 1, None).report.structure)
    assert "wiki/dpkg.md" in structure and "[[nothing-here]]" in structure


# -- uncited sentences anywhere in a paragraph -------------------------------------------------------


def test_uncited_sentence_after_a_cited_one_is_reported_in_english(en_kb: KnowledgeBase) -> None:
    raw = add_raw(en_kb, "Debian", "APT is the high-level package manager of Debian systems.\n")
    (en_kb.wiki / "apt.md").write_text(
        f"# APT\n\nAPT is the high-level package manager of Debian systems. (source: {raw}) "
        "It also resolves every dependency automatically.\n\n"
        "## Key points\n\n"
        f"- apt-get suits scripts well. Its output stays stable between releases. (source: {raw})\n"
        f"- apt-cache policy prints the pin priorities. (source: {raw}) Aptitude offers a text interface too.\n"
        f"- Upgrades run through apt upgrade on stable systems. (source: {raw}) "
        "Therefore full-upgrade is always safe for everyone.\n"
        "> ⚠️ 待核实: two sources disagree about the default priority\n"
        "- See [[dpkg]] and [[sources.list]].\n\n"
        "## Usage notes\n\n"
        "The archives are listed in one file on each machine.\n"
        f"Each line names one archive and its components here. (source: {raw})\n",
        "utf-8",
    )
    rep = check_wiki(en_kb, None, 1, None).report
    missing = "\n".join(rep.missing_sources)
    assert "It also resolves every dependency automatically" in missing  # after a cited sentence
    assert "Aptitude offers a text interface" in missing  # in a bullet, after its cited sentence
    assert "The archives are listed in one file" in missing  # a paragraph line without a citation
    assert "Its output stays stable" not in missing  # a line with one trailing citation is covered
    assert "Each line names one archive" not in missing and "high-level package manager" not in missing
    assert "disagree" not in missing and "See " not in missing  # marker and link-only lines are exempt
    assert any("Therefore full-upgrade is always safe" in g for g in rep.gaps)  # uncited conclusion
    assert rep.missing_source_count == len(rep.missing_sources) == 3


def test_uncited_sentence_after_a_cited_one_is_reported_in_chinese(zh_kb: KnowledgeBase) -> None:
    raw = add_raw(zh_kb, "Debian", "APT 是 Debian 的高级软件包管理工具。\n")
    (zh_kb.wiki / "apt.md").write_text(
        f"# APT\n\nAPT 是 Debian 的高级软件包管理工具。（来源：{raw}）它还能自动处理所有依赖关系。\n\n"
        "## 要点\n\n"
        f"- apt-get 适合在脚本中使用。它的输出在各版本之间保持稳定。（来源：{raw}）\n"
        f"- apt-cache policy 显示各档案库的优先级。（来源：{raw}）aptitude 还提供文本界面。\n"
        f"- 系统升级通常使用 apt upgrade 命令。（来源：{raw}）因此 full-upgrade 对所有人都安全。\n"
        "> ⚠️ 待核实: 两个来源对默认优先级说法不一\n"
        "- 参见 [[dpkg]]、[[sources.list]]。\n",
        "utf-8",
    )
    rep = check_wiki(zh_kb, None, 1, None).report
    missing = "\n".join(rep.missing_sources)
    assert "它还能自动处理所有依赖关系" in missing
    assert "aptitude 还提供文本界面" in missing
    assert "它的输出在各版本之间保持稳定" not in missing and "高级软件包管理工具" not in missing
    assert "说法不一" not in missing and "参见" not in missing
    assert any("因此 full-upgrade 对所有人都安全" in g for g in rep.gaps)
    assert rep.missing_source_count == 2


# -- resolved only when the answer holds the key terms ---------------------------------------------


def _passage(text: str, file: str = "wiki/t.md", heading: str = "") -> PassageIn:
    return PassageIn(title="T", file=file, heading=heading, text=text)


def _assert_answer_holds_terms(question: str, verdict: QuestionAnswer) -> None:
    if verdict.status == "resolved":
        _, missing = held_terms(question_terms(question), answer_body(verdict.answer))
        assert not missing, (verdict.answer, [t.word for t in missing])


EN_APT_HEAVY = (
    "- APT is a package manager that installs software from the configured repositories. (source: a.md)\n"
    "- APT is the tool most administrators use for interactive package management. (source: a.md)\n"
    "- APT is a front end that downloads packages and their dependencies. (source: a.md)\n"
    "- APT is the recommended interface for upgrading a whole Debian system. (source: a.md)\n"
    "- dpkg works directly on single package files without any repository (source: a.md)\n"
)
ZH_APT_HEAVY = (
    "- APT 是一种从软件源安装软件的包管理器。（来源：a.md）\n"
    "- APT 是大多数管理员交互使用的软件包管理工具。（来源：a.md）\n"
    "- APT 是一个下载软件包及其依赖的前端。（来源：a.md）\n"
    "- APT 是升级整个 Debian 系统时推荐的接口。（来源：a.md）\n"
    "- dpkg 直接处理单个软件包文件而不需要软件源\n"
)


@pytest.mark.parametrize(
    ("question", "lang", "text"),
    [("What are dpkg and APT?", "en", EN_APT_HEAVY), ("dpkg 和 APT 是什么？", "zh", ZH_APT_HEAVY)],
)
def test_resolved_answer_holds_every_key_term(question: str, lang: str, text: str) -> None:
    """Four strong sentences about APT outrank the one about dpkg: the answer must still name dpkg."""
    verdict = offline_answer(QuestionInputs(qid="q", question=question, lang=lang, passages=[_passage(text)]))
    assert verdict.status == "resolved"
    assert "dpkg" in verdict.answer and "APT" in verdict.answer
    _assert_answer_holds_terms(question, verdict)


@pytest.mark.parametrize(
    ("question", "lang", "missing"),
    [
        ("How do dpkg and APT handle version pinning?", "en", "pinning"),
        ("dpkg 和 APT 如何处理版本固定？", "zh", "固定"),
    ],
)
def test_some_key_terms_give_partial_naming_the_missing_ones(question: str, lang: str, missing: str) -> None:
    text = EN_APT_HEAVY if lang == "en" else ZH_APT_HEAVY
    verdict = offline_answer(QuestionInputs(qid="q", question=question, lang=lang, passages=[_passage(text)]))
    assert verdict.status == "partial" and missing in verdict.gap


@pytest.mark.parametrize(("question", "lang"), [("What is debconf?", "en"), ("debconf 是什么？", "zh")])
def test_no_key_term_in_the_wiki_is_open(question: str, lang: str) -> None:
    text = EN_APT_HEAVY if lang == "en" else ZH_APT_HEAVY
    verdict = offline_answer(QuestionInputs(qid="q", question=question, lang=lang, passages=[_passage(text)]))
    assert verdict.status == "open" and verdict.answer == ""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_resolved_verdict_on_a_hand_edited_wiki_holds_its_terms(
    lang: str, en_kb: KnowledgeBase, zh_kb: KnowledgeBase
) -> None:
    kb = en_kb if lang == "en" else zh_kb
    _write_wiki(kb, EN_ARTICLES if lang == "en" else ZH_ARTICLES, EN_INDEX if lang == "en" else ZH_INDEX)
    questions = (
        ["What is dpkg?", "What is APT?", "What is sources.list?", "How does version pinning work?", "What is debconf?"]
        if lang == "en"
        else ["dpkg 是什么？", "APT 是什么？", "sources.list 是什么？", "版本固定如何工作？", "debconf 是什么？"]
    )
    result = check_wiki(kb, [{"id": f"r1q{n}", "text": q} for n, q in enumerate(questions, 1)], 1, None)
    for res in result.questions:
        _assert_answer_holds_terms(res.question, res.verdict)
    assert result.report.question_status["r1q5"] == "open"
    assert result.report.audit_issues_count == result.report.gap_count + result.report.partial


# -- the model path (scripted model) ---------------------------------------------------------------


def _scripted(answers: dict[str, dict[str, object]]) -> Runtime:
    """A model that answers each question (found in the prompt) with the scripted verdict."""

    def reply(request: Request) -> str:
        user = "\n".join(m["content"] for m in request.messages if m["role"] == "user")  # a re-ask too
        for question, verdict in answers.items():
            if question in user:
                return json.dumps(verdict, ensure_ascii=False)
        raise AssertionError(f"unscripted question in {user[:80]!r}")

    # As a local server's runtime: a reply that stays invalid (an echo of the schema) is done offline.
    return Runtime(model=ScriptedModel(fn=reply), settings=ModelSettings(fallback="offline"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_model_resolved_without_the_key_terms_is_downgraded(
    lang: str, en_kb: KnowledgeBase, zh_kb: KnowledgeBase
) -> None:
    kb = en_kb if lang == "en" else zh_kb
    _write_wiki(kb, EN_ARTICLES if lang == "en" else ZH_ARTICLES, EN_INDEX if lang == "en" else ZH_INDEX)
    if lang == "en":
        none, some, full = "What is dpkg?", "What are dpkg and APT?", "What is APT?"
        apt_only = "APT is the high-level package manager of Debian systems. (source: wiki/apt.md)"
        both = "APT is the high-level package manager. apt-get is meant for scripts. (source: wiki/apt.md)"
    else:
        none, some, full = "dpkg 是什么？", "dpkg 和 APT 是什么？", "APT 是什么？"
        apt_only = "APT 是 Debian 的高级软件包管理工具。（来源：wiki/apt.md）"
        both = "APT 是高级软件包管理工具。apt-get 适合在脚本中使用。（来源：wiki/apt.md）"
    runtime = _scripted(
        {
            none: {"status": "resolved", "answer": apt_only, "gap": "", "files": ["wiki/apt.md"]},
            some: {"status": "resolved", "answer": apt_only, "gap": "", "files": ["wiki/apt.md"]},
            full: {"status": "resolved", "answer": both, "gap": "", "files": ["wiki/apt.md", "wiki/nowhere.md"]},
        }
    )
    qs = [{"id": "r2q1", "text": none}, {"id": "r2q2", "text": some}, {"id": "r2q3", "text": full}]
    result = check_wiki(kb, qs, 2, runtime)
    assert result.report.question_status == {"r2q1": "open", "r2q2": "partial", "r2q3": "resolved"}
    verdicts = {r.qid: r.verdict for r in result.questions}
    assert "dpkg" in verdicts["r2q2"].gap
    assert verdicts["r2q3"].files == ["wiki/apt.md"]  # a file that was not among the passages is dropped
    assert result.report.audit_issues_count == result.report.gap_count + 1
    entries = {e.qid: e for e in result.report.questions}
    assert "dpkg" in entries["r2q2"].gap and entries["r2q1"].answer == ""


@pytest.mark.parametrize(
    "echo",
    [
        "2-5 sentences from the passages, ending with the wiki file cited",
        "resolved = specific, sufficient coverage; partial = related but incomplete; open = nothing",
        "根据给出的段落判断：resolved=具体且充分；partial=相关但不完整",
    ],
)
def test_an_answer_that_echoes_the_schema_is_rejected(echo: str, en_kb: KnowledgeBase) -> None:
    _write_wiki(en_kb, EN_ARTICLES, EN_INDEX)
    question = "What is dpkg?"
    runtime = _scripted({question: {"status": "resolved", "answer": echo, "gap": "", "files": ["wiki/dpkg.md"]}})
    result = check_wiki(en_kb, [{"id": "r1q1", "text": question}], 1, runtime)
    verdict = result.questions[0].verdict
    assert echo not in verdict.answer
    index = WikiIndex(load_wiki(en_kb.wiki))
    passages = [
        PassageIn(title=p.title, file=f"wiki/{p.stem}.md", heading=p.heading, text=p.text)
        for p in index.search(question, k=5, terms=["dpkg"], heading=question)
    ]
    offline = offline_answer(QuestionInputs(qid="r1q1", question=question, lang="en", passages=passages))
    assert verdict == offline and "dpkg is the lowest-level tool" in verdict.answer


def test_echo_detection_does_not_reject_real_answers() -> None:
    inputs = QuestionInputs(
        qid="q",
        question="Which wiki file cites the passages?",
        lang="en",
        passages=[_passage("- The wiki file apt.md cites the passages of the manual. (source: a.md)")],
    )
    real = QuestionAnswer(
        status="resolved",
        answer="The wiki file apt.md cites the passages of the manual. (source: wiki/t.md)",
        files=["wiki/t.md"],
    )
    assert honest_verdict(inputs, real).status == "resolved"


# -- answer blocks: a section written for the question is preferred -----------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_section_headed_by_the_question_is_preferred(lang: str, en_kb: KnowledgeBase, zh_kb: KnowledgeBase) -> None:
    kb = en_kb if lang == "en" else zh_kb
    raw = add_raw(kb, "Debian", "dpkg is the lowest-level tool.\n")
    if lang == "en":
        question = "What is dpkg?"
        noise = "".join(f"- dpkg dpkg log line {n} mentions dpkg again. (source: {raw})\n" for n in range(3))
        block = f"## What is dpkg?\n\n- “dpkg is the lowest-level tool that installs .deb files.” (source: {raw})\n"
        quote = "dpkg is the lowest-level tool"
    else:
        question = "dpkg 是什么？"
        noise = "".join(f"- dpkg dpkg 日志第 {n} 行再次提到 dpkg。（来源：{raw}）\n" for n in range(3))
        block = f"## dpkg 是什么？\n\n- “dpkg 是最底层的工具，负责安装 .deb 文件。”（来源：{raw}）\n"
        quote = "dpkg 是最底层的工具"
    for n in range(3):
        (kb.wiki / f"logs-{n}.md").write_text(f"# Logs {n}\n\n## Notes\n\n{noise}", "utf-8")
    (kb.wiki / "debian-packages.md").write_text(
        f"# Debian packages\n\nPackages are archives of files. (source: {raw})\n\n{block}", "utf-8"
    )
    index = WikiIndex(load_wiki(kb.wiki))
    first = index.search(question, k=5, terms=["dpkg"], heading=question)[0]
    assert first.stem == "debian-packages" and first.heading == question
    result = check_wiki(kb, [{"id": "r1q1", "text": question}], 1, None)
    verdict = result.questions[0].verdict
    assert verdict.files[0] == "wiki/debian-packages.md" and quote in verdict.answer


# -- the report reads back ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_written_report_parses_back_with_its_answers(
    lang: str, en_kb: KnowledgeBase, zh_kb: KnowledgeBase
) -> None:
    kb = en_kb if lang == "en" else zh_kb
    _write_wiki(kb, EN_ARTICLES if lang == "en" else ZH_ARTICLES, EN_INDEX if lang == "en" else ZH_INDEX)
    questions = (
        ["What is dpkg?", "How do dpkg and APT handle version pinning [priorities]?", "What is debconf?"]
        if lang == "en"
        else ["dpkg 是什么？", "dpkg 和 APT 如何处理版本固定（优先级）？", "debconf 是什么？"]
    )
    result = check_wiki(kb, [{"id": f"r3q{n}", "text": q} for n, q in enumerate(questions, 1)], 3, None)
    again = parse_check_report(result.path.read_text("utf-8"), source=result.path.name)
    assert again == result.report
    assert [(e.qid, e.status, e.question) for e in again.questions] == [
        (r.qid, r.verdict.status, r.question) for r in result.questions
    ]
    for entry, res in zip(again.questions, result.questions, strict=True):
        assert entry.gap == " ".join(res.verdict.gap.split())
        assert entry.answer == (" ".join(res.verdict.answer.split()) if res.verdict.status != "open" else "")
    assert again.audit_issues_count == again.gap_count + again.partial
    assert {r.verdict.status for r in result.questions} >= {"partial", "open"}


def test_model_style_report_gives_question_entries(tmp_path: Path) -> None:
    text = (
        "# 知识审计报告（第３轮）\n\n### 1. 问题覆盖情况\n\n"
        "* **r3q2**：partial — 期权的波动率曲面是什么（定义）？\n    * 缺口：缺少构建方法\n"
        "    * 回答：波动率曲面描述隐含波动率。（来源：wiki/a.md）\n"
        "* r3q3 【open】 国内有没有期权私募？\n\n## 审计摘要\n\n- resolved: 0 / partial: 1 / open: 1\n- 知识漏洞：0\n"
    )
    rep = parse_check_report(text)
    first, second = rep.questions
    assert (first.qid, first.status, first.question) == ("r3q2", "partial", "期权的波动率曲面是什么（定义）？")
    assert first.gap == "缺少构建方法" and first.answer.startswith("波动率曲面描述隐含波动率")
    assert (second.qid, second.status, second.question, second.answer) == ("r3q3", "open", "国内有没有期权私募？", "")


def test_a_title_with_a_full_stop_is_not_cut_into_an_uncited_sentence(en_kb: KnowledgeBase) -> None:
    raw = add_raw(en_kb, "Debian", "Chapter 2 describes Debian package management.\n")
    (en_kb.wiki / "chapter-2.md").write_text(
        '---\ntitle: "Chapter 2. Debian package management"\n---\n\n# Chapter 2. Debian package management\n\n'
        "This article collects the key points about Chapter 2. Debian package management from 1 source. "
        f"(source: {raw}) Packages are installed with apt. (source: {raw}) Version 10. Debian moved on quickly.\n",
        "utf-8",
    )
    missing = check_wiki(en_kb, None, 1, None).report.missing_sources
    assert len(missing) == 1 and "Debian moved on quickly" in missing[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_model_answer_that_says_more_than_its_passages_is_not_kept(
    lang: str, en_kb: KnowledgeBase, zh_kb: KnowledgeBase
) -> None:
    # "It calls dpkg underneath" stands in no article: the answer feeds the termination rule and the
    # research summary, so the offline verdict from the same passages replaces it.
    kb = en_kb if lang == "en" else zh_kb
    _write_wiki(kb, EN_ARTICLES if lang == "en" else ZH_ARTICLES, EN_INDEX if lang == "en" else ZH_INDEX)
    question = "What is APT?" if lang == "en" else "APT 是什么？"
    invented = (
        "APT is the high-level package manager. It calls dpkg underneath via libapt. (source: wiki/apt.md)"
        if lang == "en"
        else "APT 是高级软件包管理工具。它通过 libapt 在底层调用 dpkg。（来源：wiki/apt.md）"
    )
    runtime = _scripted({question: {"status": "resolved", "answer": invented, "gap": "", "files": ["wiki/apt.md"]}})
    result = check_wiki(kb, [{"id": "r2q1", "text": question}], 2, runtime)
    (verdict,) = [r.verdict for r in result.questions]
    assert "libapt" not in verdict.answer and verdict.answer
