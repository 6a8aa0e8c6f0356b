"""Text primitives shared by compile and check: citations, links, tokens, numeric conflicts."""

from __future__ import annotations

import pytest

from autodidact.wiki.common.markdown import (
    citations,
    numeric_conflict,
    render_citation,
    split_sentences,
    tokens,
    unlink,
    wikilinks,
)


def test_both_citation_forms_are_read_and_written() -> None:
    zh = "备兑开仓是一种策略。" + render_citation(["a.md", "b.md"], "zh")
    en = "Covered calls are a strategy. " + render_citation(["a.md", "b.md"], "en")
    assert zh.endswith("（来源：[a.md](../raw/a.md)、[b.md](../raw/b.md)）")
    assert en.endswith("(source: [a.md](../raw/a.md), [b.md](../raw/b.md))")
    assert citations(zh) == citations(en) == ["a.md", "b.md"]
    assert (
        citations("备兑开仓是一种策略。（来源：a.md、b.md）") == citations("x (source: a.md, b.md)") == ["a.md", "b.md"]
    )
    assert citations("x (Sources: raw/c.md; d.md)") == ["c.md", "d.md"]
    assert citations("a (see page 3)") == []


def test_links_and_unlink() -> None:
    text = "See [[python-生成器|Python 生成器]], [[Missing#part]] and [[other]]."
    assert wikilinks(text) == ["python-生成器", "Missing", "other"]
    assert unlink(text, {"python生成器", "other"}) == "See [[python-生成器|Python 生成器]], Missing and [[other]]."


def test_tokens_are_words_and_cjk_bigrams() -> None:
    assert tokens("Generators yield values") == ["generator", "yield", "value"]
    assert tokens("期权波动率") == ["期权", "权波", "波动", "动率"]


def test_sentence_split_keeps_decimals() -> None:
    assert split_sentences("Python 3.12 was released. It is fast! 第一句。第二句？") == [
        "Python 3.12 was released.",
        "It is fast!",
        "第一句。",
        "第二句？",
    ]


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (
            "The global widget market was worth 500 million dollars in 2024.",
            "The global widget market was worth 800 million dollars in 2024.",
            ("500 million", "800 million"),
        ),
        ("2023 年国内期权市场规模达到 500 亿元。", "2023 年国内期权市场规模达到 800 亿元。", ("500 亿", "800 亿")),
        ("In 2020 the market was 5 billion dollars.", "In 2021 the market was 7 billion dollars.", None),
        ("Version 2 added feature X to the library.", "Version 3 added feature Y to the library.", None),
        ("The widget market was worth 500 million dollars.", "The widget market was worth 500 million dollars.", None),
        ("Rust has 35 keywords in its grammar.", "Bananas contain 12 grams of sugar each.", None),
    ],
)
def test_numeric_conflict(a: str, b: str, expected: tuple[str, str] | None) -> None:
    assert numeric_conflict(a, b) == expected


def test_a_sentence_opening_with_a_call_is_a_sentence_of_its_own() -> None:
    """pydoc entries open with a lowercase signature; glued to the sentence before, a summary that
    shows each sentence once showed "…is closed." twice (once inside "…is closed. setStream(…) …")."""
    from autodidact.wiki.common.markdown import split_sentences

    text = "FileHandler closes its stream. setStream(self, stream) Sets the stream. See e.g. foo() for more."
    assert split_sentences(text) == [
        "FileHandler closes its stream.",
        "setStream(self, stream) Sets the stream.",
        "See e.g. foo() for more.",
    ]


def test_an_exclamation_inside_parentheses_ends_no_sentence() -> None:
    from autodidact.wiki.common.markdown import split_sentences

    text = "The values (not the keys!) in a shelf can be objects. Really? Yes! 好吗？好。"
    assert split_sentences(text) == [
        "The values (not the keys!) in a shelf can be objects.",
        "Really?",
        "Yes!",
        "好吗？",
        "好。",
    ]


def test_a_star_quoted_as_itself_is_no_emphasis() -> None:
    """Dropped, "doesn't contain a ‘*’" read "doesn't contain a ‘’" in a research summary (a
    newcomer's trial over sed's manual): the opposite of what it says."""
    from autodidact.wiki.common.markdown import strip_emphasis

    assert (
        strip_emphasis("if the extension doesn’t contain a ‘*’, then") == "if the extension doesn’t contain a ‘*’, then"
    )
    assert strip_emphasis('匹配 "*" 字符，以及 (*) 和 `*`') == '匹配 "*" 字符，以及 (*) 和 `*`'
    assert strip_emphasis("**UTF-8** stands for *this*") == "UTF-8 stands for this"


def test_only_paired_stars_are_emphasis() -> None:
    """Every star hugging a word was dropped, so quotes changed what they said: pydoc's
    ``**kwargs`` and unittest's ``pattern='test*.py'`` (a fresh-eyes trial; verify failed it)."""
    from autodidact.wiki.common.markdown import strip_emphasis

    assert (
        strip_emphasis("ABCMeta(name, bases, namespace, /, **kwargs)") == "ABCMeta(name, bases, namespace, /, **kwargs)"
    )
    assert (
        strip_emphasis("discover(self, start_dir, pattern='test*.py')")
        == "discover(self, start_dir, pattern='test*.py')"
    )
    assert strip_emphasis("*args and **kwargs are passed on") == "*args and **kwargs are passed on"
    assert strip_emphasis("files like test*") == "files like test*"
    cross_reference = "*Note Recursive Download::, for more details."  # an Info manual's, not half a pair
    assert strip_emphasis(cross_reference) == cross_reference
    assert strip_emphasis("用 **apt** 安装，**词**很好") == "用 apt 安装，词很好"  # Chinese glues words to markers
    assert strip_emphasis("***both*** and *f(x)*") == "both and f(x)"
    # halves a sentence split cut off a pair
    assert strip_emphasis("**Note.") == "Note." and strip_emphasis("the rest in bold.**") == "the rest in bold."


def test_a_citation_between_english_quotes_of_a_chinese_article_leaves_a_space() -> None:
    """「…Invocation::).（来源：…）‘PO-Revision-Date’ The value …」 read as one sentence once the
    citation was dropped, and the summary showed it beside its first half: one sentence twice."""
    from autodidact.wiki.common.markdown import split_sentences, strip_citations

    cite = "（来源：[a.md](../raw/a.md)）"
    text = f"It has support (note Invocation::).{cite}‘PO-Revision-Date’ The value is taken.{cite}"
    assert split_sentences(strip_citations(text)) == [
        "It has support (note Invocation::).",
        "‘PO-Revision-Date’ The value is taken.",
    ]
    assert strip_citations("中文句子。（来源：[a.md](../raw/a.md)）下一句。") == "中文句子。下一句。"
    assert strip_citations("One. (source: [a.md](../raw/a.md)) Two.") == "One. Two."


def test_an_info_cross_reference_is_no_summary_sentence() -> None:
    """ "Note Recursive Download::, for more details." led wget's article on recursive downloads."""
    from autodidact.wiki.common.markdown import summary_worthy

    assert not summary_worthy("*Note Recursive Download::, for more details.")
    assert not summary_worthy("Note Recursive Download::, for more details.")
    assert summary_worthy("Note that recursive downloads follow links up to five levels deep.")


def test_an_option_entry_with_its_description_is_a_complete_sentence() -> None:
    """wget's "‘-c’ ‘--continue’ Continue getting a partially-downloaded file." answers "How do I
    resume partial downloads?"; ranked below prose for not starting like a sentence, the summary
    left it out (a fresh-eyes trial)."""
    from autodidact.wiki.common.markdown import is_complete_sentence, summary_worthy

    assert summary_worthy("‘-c’ ‘--continue’ Continue getting a partially-downloaded file.")
    assert summary_worthy("-c, --continue Continue getting a partially-downloaded file.")
    assert summary_worthy("`--limit-rate=AMOUNT` Limit the download speed to AMOUNT bytes per second.")
    assert not is_complete_sentence("-- and then it goes on.")
    assert not is_complete_sentence("‘-c’ ‘--continue’ continue getting")
