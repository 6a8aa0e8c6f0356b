"""A Chinese question answered from an English manual (text/glossary.py, docs/text.md "The glossary").

A research asked in Chinese over coreutils' English manual never resolved a question: 「命令日期时间显示」
and a lone 「以」 were "missing" from every English quote, so each round asked the same questions.
"""

from __future__ import annotations

from pathlib import Path

from autodidact.text.glossary import english_of
from autodidact.wiki.common.question_frame import held_terms, question_terms

QUESTION = "什么场景下适合在 date 命令日期时间显示和格式化中使用以 UTC 显示时间？"


def test_an_english_answer_holds_a_chinese_terms_meaning() -> None:
    terms = question_terms(QUESTION)
    assert "以" not in [t.word for t in terms]  # a lone character between names is no term
    answer = "Use ‘-u’ to display the date and time in UTC, in the format of the command ‘date -u’."
    assert held_terms(terms, answer)[1] == []
    # the English words have to be there: an answer about something else still misses them
    missing = [t.word for t in held_terms(terms, "Sort lines of text files numerically with -n.")[1]]
    assert "命令日期时间显示" in missing and "UTC" in missing
    # a Chinese answer is read as before: the words themselves, not a translation
    assert "命令日期时间显示" in [t.word for t in held_terms(terms, "用 date 显示 UTC 时间。")[1]]


def test_everyday_words_reach_english_documents_only() -> None:
    assert english_of("以 UTC 显示时间") == ["display", "show", "print", "time"]
    assert english_of("以 UTC 显示时间", general=False) == []
    assert english_of("版本固定", general=False) == ["pinning", "pin", "version"]


def test_a_chinese_facet_finds_an_english_manuals_section(tmp_path: Path) -> None:
    from autodidact.sources.ingest import index_corpus
    from autodidact.sources.outline import facet_outline

    corpus = tmp_path / "manual"
    corpus.mkdir()
    (corpus / "clock.md").write_text(
        "# clock\n\n## 1.1. Showing the time in UTC\n\nThe ‘-u’ option makes clock display the time in UTC, the"
        " universal time, instead of local time; the display format stays the same.\n\n"
        "## 1.2. Setting the alarm\n\nThe ‘-a’ option sets an alarm at the given hour and minute, and the"
        " alarm rings once at that hour.\n",
        encoding="utf-8",
    )
    index_corpus(tmp_path, [corpus], name="manual")
    outline = facet_outline(tmp_path, ["如何用 clock 命令以 UTC 显示时间和设置闹钟？"], "zh")
    assert "Showing the time in UTC" in {e.heading for e in outline}


def test_an_english_quote_answers_a_chinese_question_by_the_glossarys_words() -> None:
    """The evidence for 「如何读取和写入文件？」 quoted pathlib's write_text(), and the compile step
    dropped it as off the question: no Chinese word can stand in an English quote (a fresh-eyes
    trial). It is judged by the question's words as the glossary writes them in English."""
    from autodidact.wiki.compile.answers import QuestionTerms

    topic = "如何用 pathlib 处理文件路径：拼接路径、读取和写入文件、遍历目录？"
    terms = QuestionTerms.of("如何读取和写入文件？", "读取和写入文件", topic)
    assert terms.admits("write_text(data) Open the file in text mode, write to it, and close the file.")
    assert not terms.admits("rmdir(self) Remove this directory. The directory must be empty.")
    # a Chinese quote is judged by the Chinese words, as before
    assert terms.admits("读取文件时先打开它。") and not terms.admits("删除目录。")
