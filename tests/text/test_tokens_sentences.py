"""The one text layer: terms and sentences agree across languages (docs/text.md)."""

from __future__ import annotations

from autodidact.text.sentences import sentence_spans, split_sentences
from autodidact.text.tokens import has_cjk, shared_cjk_bigrams, stem, term_set, terms


def test_plural_and_tense_forms_share_a_stem() -> None:
    assert stem("coroutines") == stem("coroutine")
    assert stem("configured") == stem("configuring")
    assert stem("libraries") == "library"
    assert stem("class") == "class"  # -ss is not a plural
    assert stem("boxes") == stem("box")


def test_a_doubled_consonant_before_ing_or_ed_is_undoubled() -> None:
    assert stem("pinning") == stem("pinned") == "pin"  # so "version pinning" finds "Pin-Priority"
    assert stem("stopped") == "stop"
    assert stem("installed") == "install" and stem("passed") == "pass"  # ll, ss are the word's own
    assert stem("added") == "add"  # too short to undouble


def test_a_silent_e_goes_so_every_form_of_a_verb_agrees() -> None:
    # "quoting modes" must meet "quotes should be generated"; "configure" must meet "configuring"
    assert stem("quote") == stem("quotes") == stem("quoted") == stem("quoting") == "quot"
    assert stem("configure") == stem("configured") == stem("configuring")
    assert stem("cache") == stem("caches") and stem("file") == stem("files")
    assert stem("free") == "free" and stem("tree") == "tree" and stem("one") == "one"  # ee, short words keep it


def test_an_irregular_participle_meets_the_other_forms_of_its_verb() -> None:
    # "a target or an overridden run()" must meet "by overriding the run() method in a subclass"
    assert stem("overridden") == stem("overriding") == stem("override") == stem("overrides")
    assert stem("written") == stem("writing") and stem("chosen") == stem("choose")
    assert stem("garden") == "garden"  # a word that only ends in -en is no participle


def test_terms_drop_function_words_and_keep_content() -> None:
    assert terms("What is the default Pin-Priority of an archive?") == ["default", "pin", "priority", "archiv"]
    assert terms("the for statement", keep=frozenset({"for"})) == ["for", "statement"]


def test_chinese_becomes_bigrams_without_question_frame() -> None:
    got = terms("什么是软件包管理？")
    assert "软件" in got and "件包" in got and "管理" in got
    assert "什么" not in got and "么是" not in got and "是软" not in got  # frame and glue bigrams dropped
    assert has_cjk("dpkg 与 apt") and not has_cjk("dpkg vs apt")


def test_full_width_forms_match_ascii() -> None:
    assert term_set("ＡＰＴ") == term_set("APT")


def test_sentences_are_exact_substrings_in_both_languages() -> None:
    text = "dpkg is the lowest level tool. apt is for interactive use!\n\n它非常强大。必须小心使用！"
    spans = sentence_spans(text)
    pieces = [text[s:e] for s, e in spans]
    assert pieces == ["dpkg is the lowest level tool.", "apt is for interactive use!", "它非常强大。", "必须小心使用！"]


def test_decimals_and_single_line_breaks_do_not_end_a_sentence() -> None:
    assert split_sentences("Python 3.12 added it\nin one release. Next one.") == [
        "Python 3.12 added it in one release.",
        "Next one.",
    ]


def test_an_abbreviation_does_not_end_a_sentence() -> None:
    text = 'It is found from the metaclasses (i.e. "type(cls)") of all bases. Use e.g. apt-get in scripts.'
    assert split_sentences(text) == [
        'It is found from the metaclasses (i.e. "type(cls)") of all bases.',
        "Use e.g. apt-get in scripts.",
    ]
    assert split_sentences("Tools, files, etc. Then more. Apples, pears, etc. are fruit.") == [
        "Tools, files, etc.",
        "Then more.",
        "Apples, pears, etc. are fruit.",
    ]


def test_a_full_stop_inside_inline_code_ends_no_sentence() -> None:
    from autodidact.text.sentences import split_sentences as text_split
    from autodidact.wiki.common.markdown import split_sentences as wiki_split

    text = 'Check it with "`dpkg --compare-versions 1.1 gt 1.1~1; echo $?`". Then run `a. B` again. 好的。'
    expected = ['Check it with "`dpkg --compare-versions 1.1 gt 1.1~1; echo $?`".', "Then run `a. B` again.", "好的。"]
    assert text_split(text) == expected
    assert wiki_split(text) == expected  # the wiki audit splits the same way


def test_a_sentence_that_opens_in_bold_keeps_its_opening_marks() -> None:
    """ "**UTF** stands for …" was cut to "UTF** stands for …" (the marks read as a list marker),
    and the wiki showed the broken bold."""
    from autodidact.text.sentences import sentence_spans

    text = "Use **UTF-8** now.  **UTF** stands for Unicode Transformation Format.\n* a list item."
    pieces = [text[s:e] for s, e in sentence_spans(text)]
    assert "**UTF** stands for Unicode Transformation Format." in pieces
    assert "a list item." in pieces  # a list marker is still no part of its sentence


def test_a_possessive_is_the_word_it_belongs_to() -> None:
    from autodidact.wiki.common.markdown import tokens

    # "exit code in Process's lifecycle" is about a process; "process'" matched nothing
    assert tokens("Process's lifecycle") == tokens("process lifecycle")
    assert tokens("the user’s call") == tokens("the user call")


def test_a_question_template_is_not_a_key_term() -> None:
    from autodidact.wiki.common.question_frame import key_terms

    assert key_terms("What is meant by exit code?") == ["exit", "code"]


def test_a_noun_in_ation_meets_its_verb_in_ate() -> None:
    """ "What is propagation?" must meet the manual's "the propagate attribute"."""
    from autodidact.text.tokens import stem

    for noun, verb in [("propagation", "propagate"), ("validations", "validated"), ("creation", "creating")]:
        assert stem(noun) == stem(verb), (noun, verb)
    assert stem("station") != stem("state") and stem("nation") == "nation"  # short words keep theirs


def test_shared_chinese_words_leave_out_the_bigram_across_a_word_edge() -> None:
    # 「文本编」 is common to both; 「编」 begins 「编码」 in one and 「编辑」 in the other
    assert shared_cjk_bigrams("检查文本编码", "1.4.6 文本编辑器") == {"文本"}
    assert shared_cjk_bigrams("检查文本编码", "用 iconv 检查文件是不是 UTF-8 编码") == {"检查", "编码"}
    # an even run sits on whole words: every bigram of it is shared
    assert shared_cjk_bigrams("检查文本编码格式", "转换文本编码工具") == {"文本", "本编", "编码"}
    assert shared_cjk_bigrams("文本数据", "文本编辑器") == {"文本"}
    assert shared_cjk_bigrams("apt pinning", "文本") == set()
