"""A Chinese question writes the research's subject without its spaces and wraps it in a template;
neither the seams nor the template's words are something the question asks beyond the subject
(docs/evidence.md, "Finding passages")."""

from __future__ import annotations

from autodidact.evidence.agent import in_topics_words
from autodidact.evidence.focus import focus
from autodidact.evidence.sharpen import sharpen, subject_terms, subject_words
from autodidact.text.tokens import glued
from autodidact.text.topic import decompose
from autodidact.wiki.compile.answers import QuestionTerms

TOPIC = "在 Debian 笔记本上如何设置打印系统：打印队列的组成、CUPS 的网页界面以及驱动程序的选择？"


def test_glued_takes_out_only_the_spaces_between_chinese_characters() -> None:
    assert glued("Debian 移动工作站 邮件系统设置") == "Debian 移动工作站邮件系统设置"
    assert glued("CUPS 网页 界面 and more") == "CUPS 网页界面 and more"


def test_a_template_around_the_glued_subject_asks_nothing_beyond_it() -> None:
    subject = decompose(TOPIC, "zh").subject
    assert glued(subject) != subject  # "Debian 笔记本 打印系统设置": parts apart, glued in the questions
    for template in ("{s}的定义和边界是什么？", "{s}的主流技术方案有哪些？", "什么场景下哪种方案最适合{s}？"):
        question = template.format(s=glued(subject))
        assert in_topics_words(question, TOPIC, subject), (question, focus(question).terms)
    assert not in_topics_words(f"{glued(subject)}中打印队列的组成是什么？", "打印", subject)


def test_seams_are_the_subjects_terms_so_a_whole_subject_question_has_no_made_up_head() -> None:
    subject = decompose(TOPIC, "zh").subject
    question = f"{glued(subject)}的定义和边界是什么？"
    own = subject_terms(TOPIC, "zh")
    sharp = sharpen(focus(question), own, subject_words(TOPIC, "zh"))
    assert sharp.min_head_hits == 2 and set(sharp.heads) <= own, sharp  # the subject's terms, two of them
    terms = QuestionTerms.of(question, None, TOPIC)
    assert terms.distinct == [], terms.distinct


def test_the_frame_keeps_a_word_that_holds_a_frame_word() -> None:
    """ "工作" is the frame of 「如何工作」, and a part of 「工作站」: the workstation stays whole."""
    assert {"工作", "作站"} <= set(focus("移动工作站上的邮件如何工作？").terms)
    assert "工作" not in focus("打印系统如何工作？").terms
