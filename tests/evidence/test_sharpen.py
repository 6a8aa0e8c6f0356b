"""Questions are sharpened against the research's subject (docs/evidence.md)."""

from __future__ import annotations

from dataclasses import replace

from autodidact.evidence.extract_task import ExtractClaimsTask, ExtractInputs, PassageIn, with_antecedents
from autodidact.evidence.focus import focus
from autodidact.evidence.sharpen import sharpen, subject_terms, subject_words
from autodidact.text.sentences import sentence_spans
from autodidact.text.tokens import stem

from .conftest import one_passage_inputs

TOPIC = "How does Debian package management work: dpkg vs apt, version pinning, and system upgrades?"
# Sentences from the Debian Reference, chapters 2 and 10.
PACKAGES = (
    "Debian is a volunteer organization which builds consistent distributions of pre-compiled binary packages. "
    "Repository based package management operations on the Debian system can be performed by many APT-based "
    "package management tools available on the Debian system."
)
GPG = "Here are GNU Privacy Guard commands for the basic key management. Keys are stored in a keyring."
PINNING = (
    "When you install packages from mixed source of archives regularly, you can automate these complicated "
    "operations by creating the /etc/apt/preferences file with proper entries. This is called apt-pinning."
)


def _extract(question: str, passages: list[PassageIn]) -> list[str]:
    fx = focus(question)
    sharp = sharpen(fx, subject_terms(TOPIC, "en"), subject_words(TOPIC, "en"))
    inputs = ExtractInputs(
        language="en",
        kq_id="kq1",
        kq_text=question,
        passages=passages,
        mode="initial",
        max_claims=3,
        query_variants=[fx.terms],
        aspect=fx.aspect,
        heads=sharp.heads,
        min_head_hits=sharp.min_head_hits,
    )
    return [c.quotes[0].snippet for c in ExtractClaimsTask().offline(inputs).claims]


def test_the_subject_terms_become_modifiers_and_the_question_words_are_searched() -> None:
    sharp = sharpen(
        focus("What is the definition of version pinning in Debian package management?"),
        subject_terms(TOPIC, "en"),
        subject_words(TOPIC, "en"),
    )
    assert sharp.specific_query == "version pinning"
    assert "management" not in sharp.heads and sharp.min_head_hits == 1


def test_a_question_about_the_whole_subject_needs_two_of_its_terms() -> None:
    passages = [
        PassageIn("P1", "Chapter 10", GPG, "primary", "u1"),
        PassageIn("P2", "Chapter 2", PACKAGES, "primary", "u2"),
    ]
    quotes = _extract("What is the definition of Debian package management?", passages)
    assert quotes and all("Privacy Guard" not in q for q in quotes)


def test_a_sentence_that_names_the_term_is_quoted_with_its_antecedent() -> None:
    spans = with_antecedents(PINNING, sentence_spans(PINNING))
    assert len(spans) == 1 and PINNING[spans[0][0] : spans[0][1]].endswith("This is called apt-pinning.")
    quotes = _extract(
        "What is the definition of version pinning in Debian package management?",
        [PassageIn("P1", "Chapter 2", PINNING, "primary", "u1")],
    )
    assert any("/etc/apt/preferences" in q and "apt-pinning" in q for q in quotes)


TABLE = (
    "| command | description |\n|---|---|\n"
    "| `dpkg --audit` | audit system for partially installed packages |\n"
    "| `dpkg --configure -a` | configure all partially installed packages |\n"
)


def test_a_reference_table_row_with_a_description_is_quotable() -> None:
    quotes = _extract(
        "How are partially installed packages configured by dpkg?",
        [PassageIn("P1", "Chapter 2", TABLE, "primary", "u1")],
    )
    assert any("configure all partially installed packages" in q for q in quotes)
    assert all("---" not in q for q in quotes)


def test_sentences_earlier_rounds_quoted_give_way_to_new_ones() -> None:
    text = (
        "Pin-Priority value of each package is defined by Pin-Priority entries in the preferences file. "
        "For normal archives the default Pin-Priority value is 500. "
        "The Pin-Priority of an experimental archive is always 1."
    )
    fx = focus("What is the default Pin-Priority of an archive?")
    base = one_passage_inputs(fx, "Chapter 2", text, max_claims=2)
    first = [c.quotes[0].snippet for c in ExtractClaimsTask().offline(base).claims]
    known = frozenset(first)
    again = [c.quotes[0].snippet for c in ExtractClaimsTask().offline(replace(base, known_quotes=known)).claims]
    assert again[0] == first[0]  # the best answer is kept
    assert len(again) > len(first) and not set(again[len(first) :]) & known  # and something new is added


def test_a_compound_subjects_parts_stay_heads_and_only_what_they_share_is_a_modifier() -> None:
    assert subject_terms("How do Python generators and coroutines work?", "en") == frozenset({"python"})
    assert subject_terms("Python 的生成器和协程是如何工作的？", "zh") == frozenset({"python"})
    sharp = sharpen(focus("What is the definition of Python coroutines?"), frozenset({"python"}), ["Python"])
    assert sharp.heads == [stem("coroutine")] and sharp.min_head_hits == 1


def test_an_aside_in_parentheses_is_neither_the_questions_head_nor_a_name_it_requires() -> None:
    from autodidact.evidence.focus import focus

    fx = focus("What is the definition of opening connections (including in-memory databases) in sqlite3?")
    assert "connection" in fx.heads and "includ" not in fx.heads and "databas" not in fx.heads
    assert fx.literals == []  # "in-memory" qualifies; a sentence about connect() need not say it
    assert "memory" in fx.terms  # its words still search
    # a list's items are runs of their own: "reader objects, dialects" has two heads
    assert {"object", "dialect"} <= set(focus("What are reader objects, dialects?").heads)


def test_a_category_word_does_not_hide_the_word_that_names_the_thing() -> None:
    from autodidact.evidence.focus import focus
    from autodidact.text.tokens import stem

    # "csv.QUOTE_MINIMAL means only when required" never says "mode": "quoting" heads the question too
    heads = set(focus("What is the definition of quoting modes in csv?").heads)
    assert {stem("quoting"), stem("modes")} <= heads
    # a do-question's first run ends with its verb: the noun before it is the head
    assert focus("Where do unit files come from?").heads == [stem("file")]
    assert "connection" in focus("How do I open connections in sqlite3?").heads  # "I": the run is verb + object
    # a task verb with an object phrase of its own ("set the thread stack size") is not what is asked:
    # "Get the trace function as set by settrace()" says "set" and answers nothing about stack sizes
    assert focus("How do I set the thread stack size?").heads == [stem("size")]
    assert stem("set") in focus("How do I set the thread stack size?").terms  # the verb still searches
    assert focus("What is the set of valid sizes?").heads  # a noun "set" in another frame is untouched
    # particles are no content: "start up under systemd" is about starting and systemd
    assert not {"up", "under"} & set(focus("How does a Debian system start up under systemd?").terms)


def test_a_where_question_prefers_the_sentence_that_names_a_place() -> None:
    from autodidact.evidence.focus import focus
    from autodidact.evidence.relevance import sentence_bonus

    assert focus("Where do unit files come from?").aspect == "location"
    assert focus("Which file configures apt-pinning?").aspect == "location"
    assert focus("软件源档案库在哪里配置？").aspect == "location"
    place = '"/etc/systemd/system": system administrator configuration files which override the defaults'
    assert sentence_bonus("location", place, []) > 0
    assert sentence_bonus("location", "The archive is specified in the sources.list file.", []) > 0
    assert sentence_bonus("location", "List unit files installed on the system", []) == 0


def test_a_latin_name_in_a_chinese_question_is_its_head_not_a_frame_word() -> None:
    from autodidact.evidence.focus import focus
    from autodidact.text.tokens import stem

    # "make" frames an English question ("What makes X fast?"); in 「如何用 make 构建？」 it is the tool
    fx = focus("如何用 make 构建？")
    assert stem("make") in fx.terms and "构建" in fx.terms
    assert "用" not in fx.terms  # 「用」 is the glue of 「用 X 做 Y」, as "use" is a stopword
    assert stem("make") not in focus("What makes a build reproducible?").terms


def test_the_section_named_for_what_is_asked_answers_before_one_that_repeats_its_words() -> None:
    """「如何用 make 构建？」: the Meson section's history says "Make" and 「构建」 twice, the section "make"
    explains make without ever writing 「构建」; the section named for the tool is quoted too."""
    from autodidact.evidence.focus import focus

    meson = (
        "Ninja 在 2012 年初始发布，是为了取代 Make，进一步改善构建速度，它的输入文件由上层的构建系统来生成。"
        "Autotools 位于 Make 之上，是可移植构建架构的事实标准。"
    )
    make = "Make 是一个维护程序组的工具。一旦执行 make(1)，make 会读取规则文件 Makefile 并更新目标文件。"
    gdb = (
        "Debian 上原始的调试器是 gdb，它能让你在程序执行的时候检查程序。调试是程序中很重要的一部分。"
        "许多 gdb 命令都能被缩写。Tab 扩展跟在 shell 一样都能工作。"
    )
    fx = focus("如何用 make 构建？")
    inputs = ExtractInputs(
        language="zh", kq_id="kq1", kq_text=fx.question, mode="initial", max_claims=3,
        passages=[
            PassageIn("P1", "第 12 章 编程", meson, "primary", "u1", section="12.6.3. Meson"),
            PassageIn("P2", "第 12 章 编程", make, "primary", "u1", section="12.6.1. make"),
            PassageIn("P3", "第 12 章 编程", gdb, "primary", "u1", section="12.5.1. 基本的 gdb 使用命令"),
        ],
        query_variants=[fx.terms], aspect=fx.aspect, heads=fx.heads,
    )  # fmt: skip
    quotes = [c.quotes[0].snippet for c in ExtractClaimsTask().offline(inputs).claims]
    assert any("make 会读取规则文件" in q or q.startswith("Make 是一个维护程序组的工具") for q in quotes), quotes
    # without the section's name, only the sentences that repeat the question's words are quoted
    plain = [replace(p, section="") for p in inputs.passages]
    others = [c.quotes[0].snippet for c in ExtractClaimsTask().offline(replace(inputs, passages=plain)).claims]
    assert others and not any("Makefile" in q or "维护程序组" in q for q in others), others


def test_the_short_steps_a_lead_in_announces_are_quoted_with_it() -> None:
    text = (
        "使用如下方案之一，可以通过 gdb 取得栈帧信息：\n\n- 先奔溃的方案：\n  - 从这个 shell 提示符运行程序。\n"
        "  - 崩溃的程序产生一个 core dump 文件。\n\n对于无限循环或者键盘冻结的情况，你可以按 Ctrl-C 强制奔溃程序，"
        "然后在调试器里查看它的栈帧和参数信息。"
    )
    pieces = [text[s:e] for s, e in with_antecedents(text, sentence_spans(text))]
    assert any(p.startswith("使用如下方案之一") and p.endswith("core dump 文件。") for p in pieces), pieces
    assert any(p.startswith("对于无限循环") for p in pieces)  # a long sentence after the list stands alone


def test_a_run_whose_head_is_a_subject_word_is_headed_by_the_word_before_it() -> None:
    """ "exit code" in a research on running code: "code" is the subject's, so "exit" heads the question."""
    from autodidact.evidence.focus import focus

    topic = "How do I run code in parallel processes with Python's multiprocessing: a Process's lifecycle, pipes?"
    sub = subject_terms(topic, "en")
    assert stem("code") in sub
    sharp = sharpen(focus("What is meant by exit code in Process's lifecycle?"), sub, subject_words(topic, "en"))
    assert stem("exit") in sharp.heads


def test_two_words_are_also_searched_written_closed_as_code_writes_them() -> None:
    from autodidact.evidence.focus import closed_compounds
    from autodidact.evidence.kq_research import search_terms

    assert closed_compounds("What is meant by exit code in Process's lifecycle?") == [stem("exitcode")]
    assert closed_compounds("What does Process.join do?") == []
    assert [stem("exitcode")] in search_terms("What is meant by exit code?", [], "en")


def test_an_entry_asked_again_is_read_past_what_earlier_rounds_quoted() -> None:
    """A reference entry's description continues past the two sentences after its signature; once
    those are known, the question asked again reads on to the default behaviour."""
    text = (
        "basicConfig(**kwargs)\n    Do basic configuration for the logging system.\n\n"
        "    This function does nothing if the root logger already has handlers configured.\n"
        "    It is a convenience method intended for use by simple scripts.\n\n"
        "    The default behaviour is to create a StreamHandler which writes to sys.stderr.\n"
        "    A number of optional keyword arguments may be specified.\n\n"
        "captureWarnings(capture)\n    If capture is true, redirect all warnings to the logging package.\n"
    )
    fx = focus("How does basicConfig work?")
    base = one_passage_inputs(fx, "logging", text, max_claims=3)
    first = [c.quotes[0].snippet for c in ExtractClaimsTask().offline(base).claims]
    assert not any("default behaviour" in q for q in first)
    known = frozenset(q for q in first if "basicConfig" not in q)
    again = [c.quotes[0].snippet for c in ExtractClaimsTask().offline(replace(base, known_quotes=known)).claims]
    assert any("The default behaviour is to create a StreamHandler" in q for q in again)
    assert not any("captureWarnings" in q or "redirect all warnings" in q for q in again)  # the next entry


def test_an_english_compound_is_no_literal_and_slashed_names_are_each_a_head() -> None:
    """ "low-level mkstemp/mkdtemp": required as written, "low-level" kept no claim on a page that
    says "low- and high-level interfaces"; and mkstemp was only a modifier of mkdtemp."""
    from autodidact.evidence.focus import literals

    fx = focus("What are the limitations of low-level mkstemp/mkdtemp in Python's tempfile module?")
    assert fx.literals == [] and {"mkstemp", "mkdtemp"} <= set(fx.heads)
    assert literals("What is a read-only, non-blocking, built-in attribute?") == []
    assert literals("What do apt-get, ssh-agent and Pre-Depends do?") == ["apt-get", "ssh-agent", "Pre-Depends"]
