"""Topic decomposition: subject, facets, comparison candidates, key terms (autodidact.text.topic)."""

from __future__ import annotations

import re

import pytest

from autodidact.text.topic import (
    decompose,
    detect_topic_type,
    key_terms,
    mentions,
    shares_key_term,
    stem,
    subject_of,
    subject_parts,
    topic_type,
)

DEBIAN_EN = "How does Debian package management work: dpkg vs apt, version pinning, and system upgrades?"
DEBIAN_ZH = "Debian 软件包管理是如何工作的：dpkg 与 apt 的关系、版本固定和系统升级"


def names(topic: str) -> list[tuple[str, str]]:
    return [(f.kind, f.name) for f in decompose(topic).facets]


@pytest.mark.parametrize(
    ("topic", "subject", "facets"),
    [
        (
            DEBIAN_EN,
            "Debian package management",
            [("comparison", "dpkg vs apt"), ("aspect", "version pinning"), ("aspect", "system upgrades")],
        ),
        (
            "How do Python generators and coroutines work?",
            "Python generators and coroutines",
            [("part", "Python generators"), ("part", "Python coroutines")],
        ),
        (
            "Compare PostgreSQL and SQLite for embedded analytics",
            "PostgreSQL and SQLite",
            [("comparison", "PostgreSQL vs SQLite")],
        ),
        (
            "What is Rust's borrow checker and why does it reject some programs?",
            "Rust's borrow checker",
            [("question", "why Rust's borrow checker rejects some programs")],
        ),
        (
            DEBIAN_ZH,
            "Debian 软件包管理",
            [("comparison", "dpkg 与 apt 的关系"), ("aspect", "版本固定"), ("aspect", "系统升级")],
        ),
        (
            "Python 的生成器和协程是如何工作的？",
            "Python 的生成器和协程",
            [("part", "Python 的生成器"), ("part", "Python 的协程")],
        ),
        ("机器学习中的过拟合是什么？如何避免？", "机器学习中的过拟合", [("question", "如何避免过拟合")]),
        (
            # an enumerated subject before a colon: each thing it names is a facet beside the aspects,
            # and the kind word that ends the list ("modules") belongs to every item
            "How do Python's json, csv and sqlite3 modules store data: file formats, error handling, and security?",
            "Python's json, csv and sqlite3 modules",
            [
                ("question", "how Python's json, csv and sqlite3 modules store data"),
                ("part", "Python's json module"),
                ("part", "Python's csv module"),
                ("part", "Python's sqlite3 module"),
                ("aspect", "file formats"),
                ("aspect", "error handling"),
                ("aspect", "security"),
            ],
        ),
        (
            "Python 的 json、csv 和 sqlite3 模块如何存储数据：文件格式、错误处理和安全性",
            "Python 的 json、csv 和 sqlite3 模块",
            [
                ("question", "Python 的 json、csv 和 sqlite3 模块如何存储数据"),
                ("part", "Python 的 json 模块"),
                ("part", "Python 的 csv 模块"),
                ("part", "Python 的 sqlite3 模块"),
                ("aspect", "文件格式"),
                ("aspect", "错误处理"),
                ("aspect", "安全性"),
            ],
        ),
        (
            "How do threads and processes differ in Python: the GIL and shared state?",
            "threads and processes",
            [("comparison", "threads vs processes"), ("aspect", "GIL"), ("aspect", "shared state")],
        ),
        (
            "What is overfitting in machine learning, and how can it be avoided?",
            "overfitting in machine learning",
            [("question", "how overfitting in machine learning can be avoided")],
        ),
        (
            "Python asyncio: event loop, tasks and cancellation",
            "Python asyncio",
            [("aspect", "event loop"), ("aspect", "tasks"), ("aspect", "cancellation")],
        ),
        ("dpkg 和 apt 有什么区别？", "dpkg 和 apt", [("comparison", "dpkg 与 apt")]),
        ("Rust lifetimes", "Rust lifetimes", [("part", "Rust lifetimes")]),
        ("Python 3.12: typing and asyncio", "Python 3.12", [("aspect", "typing"), ("aspect", "asyncio")]),
        ("Read https://debian.org docs", "Read https://debian.org docs", [("part", "Read https://debian.org docs")]),
        ("参与式预算和公民监督", "参与式预算和公民监督", [("part", "参与式预算"), ("part", "公民监督")]),
        # the verb of "How does X <verb> …" and 「X 是如何<动词>…的」 ends the subject, as "work" does, but
        # unlike "work" it asks something: the topic's own question is a facet, asked as written
        (
            "How does sqlite cache pages: the pager, the journal and checkpoints?",
            "caching pages in sqlite",  # what is asked is the caching, in sqlite
            [
                ("question", "how sqlite caches pages"),
                ("aspect", "pager"),
                ("aspect", "journal"),
                ("aspect", "checkpoints"),
            ],
        ),
        (
            "sqlite 是如何缓存页面的：页管理器、日志和检查点",
            "sqlite",
            [("question", "sqlite 如何缓存页面"), ("aspect", "页管理器"), ("aspect", "日志"), ("aspect", "检查点")],
        ),
    ],
)
def test_example_topics_decompose(topic: str, subject: str, facets: list[tuple[str, str]]) -> None:
    frame = decompose(topic)
    assert frame.subject == subject
    assert names(topic) == facets
    assert subject_of(topic) == subject


def test_comparison_candidates_and_context() -> None:
    assert decompose(DEBIAN_EN).candidates == ["dpkg", "apt"]
    assert decompose(DEBIAN_ZH).candidates == ["dpkg", "apt"]
    pg = decompose("Compare PostgreSQL and SQLite for embedded analytics").facets[0]
    assert pg.candidates == ["PostgreSQL", "SQLite"] and pg.context == "for embedded analytics"
    threads = decompose("What is the difference between threads and processes in Python?").facets[0]
    assert threads.candidates == ["threads", "processes"] and threads.context == "in Python"
    assert decompose("apt versus aptitude").candidates == ["apt", "aptitude"]


def test_question_clauses_keep_the_users_question_with_pronouns_resolved() -> None:
    rust = decompose("What is Rust's borrow checker and why does it reject some programs?").facets[0]
    assert rust.question == "Why does Rust's borrow checker reject some programs?"
    zh = decompose("机器学习中的过拟合是什么？如何避免？").facets[0]
    assert zh.question == "如何避免机器学习中的过拟合？"
    limits = decompose("What is a monad, and what are its limitations?").facets[0]
    assert limits.question == "What are the limitations of monad?"


def test_facet_terms_tell_facets_apart() -> None:
    frame = decompose(DEBIAN_EN)
    assert [f.terms for f in frame.facets] == [["dpkg", "apt"], ["version", "pinning"], ["system", "upgrades"]]
    # the subject's words are not a facet's: every question of the research has them
    parts = decompose("How do Python generators and coroutines work?")
    assert [f.terms for f in parts.facets] == [["generators"], ["coroutines"]]
    assert decompose("机器学习中的过拟合是什么？如何避免？").facets[0].terms == ["避免"]
    assert decompose(DEBIAN_ZH).facets[1].terms == ["版本固定"]


def test_facet_for_assigns_questions_by_their_words() -> None:
    frame = decompose(DEBIAN_EN)
    assert frame.facet_for("How does Pin-Priority control version pinning?") == "version pinning"
    assert frame.facet_for("What does unattended-upgrades do?") == "system upgrades"
    assert frame.facet_for("What is apt-get?") == "dpkg vs apt"
    assert frame.facet_for("What is the definition of Debian package management?") is None
    zh = decompose(DEBIAN_ZH)
    assert zh.facet_for("如何固定软件包的版本？") == "版本固定"
    assert zh.facet_for("Debian 软件包管理的定义是什么？") is None


def test_relevance_uses_distinctive_terms_only() -> None:
    frame = decompose(DEBIAN_EN)
    assert not frame.is_relevant("What is Name Service Switch?")
    assert not frame.is_relevant("What is data management?")  # "management" is too common to count
    assert frame.is_relevant("What is Pin-Priority?")  # pin ~ pinning
    assert frame.is_relevant("What is apt-get?")
    assert frame.is_relevant("What is a shell?", extra=["Which shell runs maintainer scripts?"])
    zh = decompose(DEBIAN_ZH)
    assert not zh.is_relevant("名称服务切换是什么？")
    assert zh.is_relevant("软件包签名是什么？")


def test_type_detection_is_one_classifier() -> None:
    assert topic_type(DEBIAN_EN) == "概念理解" == decompose(DEBIAN_EN).topic_type
    assert detect_topic_type("Compare PostgreSQL and SQLite for embedded analytics") == ("概念理解", False)
    assert topic_type("国内新能源汽车市场规模和竞争格局调研") == "行业调研"
    # a market is studied as a whole: no facet split
    assert names("国内新能源汽车市场规模和竞争格局调研") == [("part", "国内新能源汽车市场规模和竞争格局")]


def test_subject_parts_share_their_prefix() -> None:
    assert subject_parts("Python generators and coroutines") == ["Python generators", "Python coroutines"]
    assert subject_parts("Python 生成器和协程") == ["Python 生成器", "Python 协程"]
    assert subject_parts("Python 的生成器和协程") == ["Python 的生成器", "Python 的协程"]
    assert subject_parts("和平与发展") == ["和平", "发展"]  # 和 inside 和平 is not "and"
    assert subject_of("What is a monad?") == "monad"


def test_key_terms_and_mentions() -> None:
    assert key_terms("How does Debian package management work?") == ["debian", "package", "management"]
    assert key_terms("How does Debian package management work?", generic=False) == ["debian", "package"]
    assert key_terms("Debian 软件包管理是如何工作的") == ["debian", "软件包管理"]
    assert stem("pinning") == stem("pin") == stem("pinned")
    assert mentions("Upgrading the system", "upgrades")
    assert mentions("软件包的依赖", "软件包管理")  # half the bigrams
    assert mentions("升级系统", "系统升级")
    assert not mentions("文件系统", "系统升级")
    assert shares_key_term("sources.list lists the mirrors", ["sources"])
    # "vs" joins a comparison's sides: it is no term ("files vs directories" had filed the section
    # "apt vs. apt-get" under the permission bits)
    from autodidact.text.tokens import terms

    assert terms("rwx bits for files vs directories") == ["rwx", "bit", "fil", "directory"]


def test_decompose_is_deterministic() -> None:
    assert decompose(DEBIAN_ZH) == decompose(DEBIAN_ZH)
    assert decompose(DEBIAN_EN, "zh").language == "zh" and decompose(DEBIAN_EN).language == "en"


def test_the_verb_between_subject_and_place_is_not_part_of_the_subject() -> None:
    from autodidact.text.topic import decompose

    frame = decompose(
        "How does networking work on Debian: interface configuration, DNS name resolution, and firewalls?"
    )
    assert frame.subject == "networking on Debian"
    assert decompose("How does garbage collection work in Java?").subject == "garbage collection in Java"


def test_a_passive_questions_participle_is_its_frame() -> None:
    from autodidact.text.topic import decompose

    frame = decompose("How is networking configured on Debian: NetworkManager vs systemd-networkd, and the firewall?")
    assert frame.subject == "networking on Debian"
    assert [f.name for f in frame.facets] == ["NetworkManager vs systemd-networkd", "firewall"]
    assert decompose("How is memory managed in CPython?").subject == "memory in CPython"
    assert decompose("How is Python used?").subject == "Python"
    assert decompose("How are signed packages verified?").subject == "signed packages"  # "signed" is the subject's
    assert decompose("What is a red-black tree?").subject == "red-black tree"  # not passive: nothing removed


def test_a_chinese_how_verb_object_subject_reads_as_a_noun_phrase() -> None:
    from autodidact.text.topic import decompose

    frame = decompose("Debian 如何配置网络：NetworkManager、DNS 解析和防火墙", "zh")
    assert frame.subject == "Debian 网络配置"
    assert decompose("Debian 软件包管理是如何工作的", "zh").subject == "Debian 软件包管理"


def test_a_person_is_never_the_subject() -> None:
    assert decompose("How do I install packages on Debian?").subject != "I"


def test_enumerated_parts_are_told_apart_by_their_own_names() -> None:
    """Each part's terms are its own name, not the words all parts share ("Python", "module")."""
    frame = decompose("How do Python json and csv modules work?")
    assert [(f.name, f.terms) for f in frame.facets] == [
        ("Python json module", ["json"]),
        ("Python csv module", ["csv"]),
    ]
    assert subject_parts("the pickle, marshal and shelve modules") == [
        "the pickle module",
        "the marshal module",
        "the shelve module",
    ]
    # a kind word inside the first part is not an enumeration's: nothing is moved
    assert subject_parts("Python generators and coroutines") == ["Python generators", "Python coroutines"]


@pytest.mark.parametrize(
    ("clause", "question"),
    [
        ("how shelves deal with mutable entries", "how do shelves deal with mutable entries"),
        ("how pickle handles shared objects", "how does pickle handle shared objects"),
        ("how a shelf is opened", "how is a shelf opened"),
        ("which object types each can handle", "which object types can each handle"),
        ("which types a shelf can store", "which types can a shelf store"),
        # a subject that cannot be told apart stays as written, never a wrong inversion
        (
            "which object types Python's pickle module can handle",
            "which object types Python's pickle module can handle",
        ),
        ("how to pin a package", "how to pin a package"),
        ("how does it work", "how does it work"),
    ],
)
def test_an_embedded_clause_becomes_a_direct_question(clause: str, question: str) -> None:
    from autodidact.text.topic import _direct_question

    assert _direct_question(clause) == question


def test_a_facet_asked_of_each_part_is_asked_once_per_part() -> None:
    from autodidact.questions.framework import framework_questions

    topic = "How do Python's pickle and marshal modules work: which object types each can handle?"
    asked = [q.text for q in framework_questions(topic, "en", None, (1, 2, 3, 4))]
    assert "Which object types can Python's pickle module handle?" in asked
    assert "Which object types can Python's marshal module handle?" in asked
    assert not any("each" in q for q in asked)
    zh = "Python 的 pickle 和 marshal 模块如何工作：它们各自能处理哪些对象类型？"
    asked_zh = [q.text for q in framework_questions(zh, "zh", None, (1, 2, 3, 4))]
    assert "Python 的 pickle 模块能处理哪些对象类型？" in asked_zh
    assert not any("各自" in q or "它们" in q for q in asked_zh)


def test_an_enumerations_kind_word_ends_the_subject_whatever_verb_follows() -> None:
    frame = decompose("How do Python's pickle, marshal and shelve modules persist objects?")
    assert frame.subject == "Python's pickle, marshal and shelve modules"
    assert [f.terms for f in frame.facets if f.kind == "part"] == [["pickle"], ["marshal"], ["shelve"]]
    # what the topic asks of them is a facet of its own, by the words it adds
    assert (frame.facets[0].kind, frame.facets[0].terms) == ("question", ["persist", "objects"])


def test_a_how_does_topic_keeps_its_own_question_but_how_it_works_does_not() -> None:
    frame = decompose("How does a Debian system start up under systemd: where unit files come from?")
    assert frame.subject == "Debian system"
    first = frame.facets[0]
    assert (first.kind, first.name, first.question) == (
        "question",
        "how a Debian system starts up under systemd",
        "How does a Debian system start up under systemd?",
    )
    assert first.terms == ["starts", "systemd"]  # "up", "under": particles, no key term
    assert all(f.kind != "question" for f in decompose("How does Debian package management work: dpkg vs apt").facets)
    assert all(f.kind != "question" for f in decompose("Debian 软件包管理是如何工作的：dpkg 与 apt、版本固定").facets)


def test_two_chinese_verbs_sharing_an_object_are_one_task() -> None:
    frame = decompose(
        "在 Debian 上如何编写和调试程序：编写可移植的 shell 脚本、用 gdb 调试并获取栈帧，以及用 make 构建？"
    )
    assert frame.subject == "Debian 程序编写和调试"
    assert "part" not in {f.kind for f in frame.facets}  # not 「Debian」 and 「调试」 as two things
    assert frame.facets[0].question == "在 Debian 上如何编写和调试程序？"


def test_a_task_with_two_verbs_keeps_both_and_the_tool() -> None:
    frame = decompose("How do I read and write CSV files with Python's csv module: reader objects, quoting modes?")
    assert frame.subject == "reading and writing CSV files with Python's csv module"


def test_a_how_do_i_topic_is_about_the_task_not_about_i() -> None:
    frame = decompose("How do I coordinate worker threads in Python: locks/RLock, Condition and Event?")
    assert frame.subject == "coordinating worker threads in Python"
    assert decompose("How can we set up a firewall on Debian?").subject == "setting up a firewall on Debian"
    from autodidact.questions.framework import framework_questions

    asked = [q.text for q in framework_questions(frame, "en", None, (1,))]
    assert not any(re.search(r"\b(?:of|is|about) I\b", q) or q.startswith("I ") for q in asked), asked
    # a task subject is asked how it is done, in the user's own "How do I"
    assert asked[0] == "How do I coordinate worker threads in Python?"


def test_a_topic_about_using_a_thing_is_about_the_thing() -> None:
    """ "How do I use Python's sqlite3 module" asked "What is the definition of using Python's sqlite3
    module?": the thing used is the subject, in every phrasing and in Chinese."""
    frame = decompose("How do I use Python's sqlite3 module: connecting to a database, committing transactions?")
    assert frame.subject == "Python's sqlite3 module"
    assert [f.name for f in frame.facets] == ["connecting to a database", "committing transactions"]
    assert decompose("How to use argparse: positional arguments, subcommands?").subject == "argparse"
    assert decompose("How to configure networking on Debian?").subject == "configuring networking on Debian"
    zh = decompose("如何使用 Python 的 sqlite3 模块：连接数据库、提交事务？", "zh")
    assert zh.subject == "Python 的 sqlite3 模块"
    assert decompose("Debian 如何配置网络？", "zh").subject == "Debian 网络配置"


def test_a_chinese_comparison_shares_its_owner_and_keeps_its_question_apart() -> None:
    frame = decompose("比较 Python 的列表和元组，各自在什么情况下使用？", "zh")
    (cmp, question) = frame.facets
    assert cmp.candidates == ["Python 的列表", "Python 的元组"]
    assert question.kind == "question" and question.question.endswith("各自在什么情况下使用？")
    bare = decompose("比较列表和元组各自在什么情况下使用", "zh")
    assert bare.facets[0].candidates == ["列表", "元组"]


def test_a_task_is_told_from_a_noun_that_ends_in_ing() -> None:
    from autodidact.text.topic import is_action_phrase

    assert is_action_phrase("Tracking testing") and is_action_phrase("capturing output")
    assert not is_action_phrase("string handling") and not is_action_phrase("thing types")


def test_where_a_chinese_task_is_done_is_not_its_subject() -> None:
    """「Debian 中如何安排定时任务」 was read as the subject 「Debian 中」, which asked
    「Debian 中中的 at 一次性任务是什么？」."""
    frame = decompose("Debian 中如何安排定时任务：at 一次性任务、anacron，以及 systemd 定时器", "zh")
    assert frame.subject == "Debian 定时任务安排"
    assert decompose("在 Debian 中如何配置网络？", "zh").subject == "Debian 网络配置"
    assert decompose("Linux 上如何查看进程？", "zh").subject == "Linux 进程查看"
    assert decompose("机器学习中的过拟合是什么？如何避免？", "zh").subject == "机器学习中的过拟合"
    # 「如何在 X 上 Y」 says the same as 「在 X 上如何 Y」; 转换 is a task verb like 配置
    assert decompose("如何在 Debian 上配置网络？", "zh").subject == "Debian 网络配置"
    assert decompose("在 Debian 上如何转换文本数据：iconv、换行符", "zh").subject == "Debian 文本数据转换"
    from autodidact.questions.framework import framework_questions

    asked = [q.text for q in framework_questions(frame, "zh", None, (1, 2, 3, 4))]
    assert not any("中中" in q for q in asked), asked


def test_a_task_subject_is_one_task_and_a_one_letter_side_is_no_member() -> None:
    """ "How do I set up locales and keyboard input on Debian" asked "What are the differences between
    setting up locales and keyboard input on Debian?", and "console and X" asked "What does X do?"."""
    frame = decompose(
        "How do I set up locales and keyboard input on Debian: reconfiguring the locale, "
        "keyboard layout for console and X, and IBus input methods?"
    )
    assert [f.kind for f in frame.facets] == ["aspect", "aspect", "aspect"]
    assert frame.facet("keyboard layout for console and X").members == []
    from autodidact.questions.framework import framework_questions

    asked = [q.text for q in framework_questions(frame, "en", None, (1, 2))]
    assert "What does X do?" not in asked and not any("differences between setting up" in q for q in asked)
    # an enumeration of things still splits
    assert len(decompose("How do Python generators and coroutines work?").facets) == 2


def test_an_embedded_clause_with_a_plural_noun_before_its_verb_asks_with_do() -> None:
    frame = decompose("How does a Debian system boot: where unit files come from, how pickle handles shared objects")
    asked = [f.question for f in frame.facets if f.kind == "question"]
    assert "Where do unit files come from?" in asked
    assert "How does pickle handle shared objects?" in asked


def test_a_chinese_bare_verb_frames_the_subject_and_asks_nothing_more() -> None:
    frame = decompose("Debian 系统的网络如何设置：主机名解析、网络接口配置")
    assert frame.subject == "Debian 系统的网络"
    assert all(f.kind != "question" for f in frame.facets)


def test_a_list_inside_parentheses_stays_with_its_facet() -> None:
    # "(uuencode, base64, MIME)" names what the facet covers; split at its commas the facets were
    # "mail data encoding (uuencode" and "MIME)", and so were the article titles and their links
    en = decompose("Data conversion on Debian: text encoding with iconv, mail data encoding (uuencode, base64, MIME)")
    assert [f.name for f in en.facets] == ["text encoding with iconv", "mail data encoding (uuencode, base64, MIME)"]
    zh = decompose("Debian 网络应用：邮件服务器 (MTA, exim4 配置)、SSH 远程访问、端口转发")
    assert [f.name for f in zh.facets] == ["邮件服务器 (MTA, exim4 配置)", "SSH 远程访问", "端口转发"]


def test_a_facet_that_lists_its_own_names_stays_one_facet() -> None:
    """Split at every comma, "sharing state with Value, Array or a Manager" was two facets, one of
    them "Array or a Manager", and "scheduling jobs with at, cron and anacron" three, one "cron"."""
    frame = decompose(
        "How do I monitor and control processes on Debian: adjusting scheduling priority with nice and renice, "
        "inspecting processes with ps and top, and scheduling jobs with at, cron and anacron?"
    )
    assert [f.name for f in frame.facets] == [
        "adjusting scheduling priority with nice and renice",
        "inspecting processes with ps and top",
        "scheduling jobs with at, cron and anacron",
    ]
    assert frame.facets[-1].members == [
        "at in scheduling jobs",
        "cron in scheduling jobs",
        "anacron in scheduling jobs",
    ]
    assert frame.subject == "monitoring and controlling processes on Debian"  # "control" doubles its l
    mp = decompose(
        "Python's multiprocessing: sharing state with Value, Array or a Manager, using a Pool, start methods"
    )
    assert [f.name for f in mp.facets] == [
        "sharing state with Value, Array or a Manager",
        "using a Pool",
        "start methods",
    ]
    assert mp.facets[0].members == ["Value", "Array", "Manager"]
    # a facet's own phrase after a "with" is a facet still
    conv = decompose("Data conversion on Debian: text encoding with iconv, mail data encoding, archive formats")
    assert [f.name for f in conv.facets] == ["text encoding with iconv", "mail data encoding", "archive formats"]


def test_an_asides_list_names_the_members_it_covers() -> None:
    from autodidact.text.topic import aspect_members

    assert aspect_members("a Process's lifecycle (start, join, terminate or kill, exit code)") == [
        "Process.start", "Process.join", "Process.terminate", "Process.kill", "exit code in Process's lifecycle",
    ]  # fmt: skip
    assert aspect_members("mail data encoding (uuencode, base64)") == [
        "uuencode in mail data encoding", "base64 in mail data encoding",
    ]  # fmt: skip
    assert aspect_members("opening connections (including in-memory databases)") == []  # no list: an aside


def test_what_a_possessive_ends_the_subject_with_is_its_name() -> None:
    from autodidact.text.topic import subject_names

    assert subject_names("running code in parallel processes with Python's multiprocessing") == ["multiprocessing"]
    assert subject_names("Python's configparser") == ["configparser"]
    assert subject_names("Debian's package management") == []  # "'s" is no name, nor a common noun phrase
    assert subject_names("Python's generators and coroutines") == []
    # "a Python class" is any class: its pages ("Customizing attribute access") never write "Python"
    assert subject_names("customizing attribute access in a Python class") == []
    assert subject_names("the Python json module") == ["json"]


def test_a_pair_joined_by_a_reciprocal_verb_is_one_facet() -> None:
    """「在 DOS 与 Unix 换行符之间转换」 is one task between two sides, not the facets 「在 DOS」 and
    「Unix 换行符之间转换」; a plain 和 still splits."""
    frame = decompose("在 Debian 上如何转换文本数据：在 DOS 与 Unix 换行符之间转换、TAB 与空格互换、iconv 和 vim", "zh")
    names = [f.name for f in frame.facets]
    assert "在 DOS 与 Unix 换行符之间转换" in names and "TAB 与空格互换" in names, names
    assert "iconv" in names and "vim" in names and "在 DOS" not in names
    from autodidact.questions.framework import framework_questions

    asked = [q.text for q in framework_questions(frame, "zh", None, (1,))]
    assert "如何在 DOS 与 Unix 换行符之间转换？" in asked, asked


def test_a_pronoun_a_noun_before_it_can_take_is_not_the_subject() -> None:
    """ "make them local": them = the names just mentioned, not "Python"; "its methods" after "a class
    body's scope" is the class body's. A pronoun with nothing before it is still the subject."""
    topic = (
        "How does Python resolve variable names: which constructs bind names and make them local, and why a "
        "class body's scope does not extend into its methods?"
    )
    questions = [f.question for f in decompose(topic, "en").facets if f.question]
    assert "Which constructs bind names and make them local?" in questions, questions
    assert "Why does a class body's scope not extend into its methods?" in questions, questions
    rust = decompose("Rust's borrow checker: why does it reject some programs?", "en")
    assert any("Rust's borrow checker reject" in (f.question or "") for f in rust.facets)


def test_how_does_x_verb_an_object_is_about_the_doing_not_about_x() -> None:
    """ "How does Python resolve variable names" asked "What is the definition of Python?", which
    drew the debugger's and the data model's pages; the subject is the resolving, in Python. A verb
    without an object ("start up under systemd") still leaves the thing as the subject."""
    assert decompose("How does Python resolve variable names?", "en").subject == "resolving variable names in Python"
    assert decompose("How does a Debian system start up under systemd?", "en").subject == "Debian system"
    from autodidact.questions.framework import framework_questions

    frame = decompose("How does Python resolve variable names: free variables, the global statement", "en")
    asked = [q.text for q in framework_questions(frame, "en", None, (1,))]
    assert "What is the definition of Python?" not in asked
    assert not any("in resolving" in q for q in asked), asked  # an aspect is placed in Python


def test_an_adverb_before_the_verb_stays_an_adverb() -> None:
    """A blind topic ("How do I safely create temporary files …") became "safelying create …"."""
    topic = "How do I safely create temporary files with Python's tempfile module: mkstemp, NamedTemporaryFile?"
    assert decompose(topic, "en").subject.startswith("safely creating temporary files")
    assert decompose("How do I apply patches with quilt: push, pop?", "en").subject == "applying patches with quilt"


def test_names_joined_by_slashes_are_the_members_of_an_aspect() -> None:
    from autodidact.text.topic import aspect_members

    assert aspect_members("low-level mkstemp/mkdtemp (return values, permissions, who cleans up)") == [
        "mkstemp",
        "mkdtemp",
    ]
    assert aspect_members("temporarily redirecting stdout/stderr") == ["stdout", "stderr"]
    # a kind after the names stays with each ("setuid bits"); "run()" is no aside
    assert aspect_members("setuid/setgid/sticky bits") == ["setuid bits", "setgid bits", "sticky bits"]
    assert aspect_members("giving a thread its work (a target or an overridden run())") == []
    # "asdict()" is a name written as code, not an empty aside
    assert aspect_members("converting instances with asdict() and astuple()") == ["asdict()", "astuple()"]


def test_what_two_things_are_compared_on_is_not_a_side() -> None:
    topic = "How do I use tempfile: NamedTemporaryFile vs TemporaryFile and the delete flag, mkstemp?"
    facet = next(f for f in decompose(topic, "en").facets if f.kind == "comparison")
    assert facet.candidates == ["NamedTemporaryFile", "TemporaryFile"]


def test_two_chinese_verbs_joined_by_he_share_their_object() -> None:
    topic = "Debian 的邮件系统：智能主机、查看和刷新邮件队列"
    names = [f.name for f in decompose(topic, "zh").facets]
    assert "查看和刷新邮件队列" in names and "查看" not in names


def test_a_question_clause_and_its_noun_owned_part_are_two_facets() -> None:
    """ "what the @dataclass decorator generates and its order/frozen/kw_only options": "its" is the
    decorator's, not the topic subject's; the clause is a question of its own, the options a part
    whose members are each asked about."""
    from autodidact.text.topic import decompose

    topic = (
        "How do I use Python's dataclasses module: what the @dataclass decorator generates and its "
        "order/frozen/kw_only options, converting instances with asdict() and astuple()?"
    )
    facets = decompose(topic, "en").facets
    assert facets[0].kind == "question" and facets[0].question == "What does the @dataclass decorator generate?"
    assert facets[1].name == "@dataclass decorator's order/frozen/kw_only options"
    assert facets[1].members == ["order", "frozen", "kw_only"]
    assert "Python's dataclasses module's" not in " ".join(f.name for f in facets)
    # an owner written with "'s" is a subject as "the …" is: it was asked "What grep's exit status means?"
    grep = decompose("How do I search files with grep: context lines, and what grep's exit status means?", "en")
    assert grep.facets[-1].question == "What does grep's exit status mean?"


def test_a_what_does_question_is_about_its_subject_and_a_verb_of_getting_names_no_task() -> None:
    """A newcomer's questions, as typed: "What does X forbid?" is about X (the verb that ends the
    question is no part of it), and 「如何在 Debian 中获得 root shell？」 about the root shell (it had
    read as a question about "Debian" alone, and every question was a template about Debian)."""
    from autodidact.plan.offline import offline_plan

    assert decompose("What does the Bash restricted shell forbid?", "en").subject == "Bash restricted shell"
    assert decompose("What does apt-get upgrade do?", "en").subject == "apt-get upgrade"
    assert decompose("What does Python's GIL protect against?", "en").subject == "Python's GIL"
    assert decompose("What do I need to run Debian?", "en").subject != "I need to run"
    assert "root shell" in decompose("如何在 Debian 中获得 root shell？", "zh").subject
    goal = offline_plan("What does the Bash restricted shell forbid?", "en").research_goal
    assert "what Bash restricted shell is" in goal and "What does" not in goal, goal


def test_a_what_does_question_with_a_clause_is_about_its_subject_and_asked_as_written() -> None:
    """ "What does sed do when the -i option is given a suffix?" is about sed, and asks what it does
    then (a newcomer's trial: the subject had read "sed do when the -i option is given a", and an
    article was titled "what sed do when the -i option is given a suffixes")."""
    frame = decompose("What does sed do when the -i option is given a suffix?", "en")
    assert frame.subject == "sed"
    own = next(f for f in frame.facets if f.kind == "question")
    assert own.name == "what sed does when the -i option is given a suffix"
    assert own.question == "What does sed do when the -i option is given a suffix?"
    assert decompose("What does git pull do if the branch has diverged?", "en").subject == "git pull"
    assert not any(f.kind == "question" for f in decompose("What does apt-get upgrade do?", "en").facets)


def test_a_chinese_topic_that_asks_how_to_use_a_tool_has_the_tool_and_task_as_subject() -> None:
    """「如何用 date 命令显示和格式化日期时间：…」 kept 「如何用」 in its subject and asked
    「如何用 date 命令显示的定义是什么？」."""
    from autodidact.text.topic import decompose

    frame = decompose("如何用 date 命令显示和格式化日期时间：以 + 开头的格式字符串、用 -d 显示指定的日期？", "zh")
    assert frame.subject == "date 命令 日期时间显示和格式化"
    assert all("如何" not in f.name for f in frame.facets)
    assert decompose("如何用 iconv 转换文本编码：检查编码、换行符？", "zh").subject == "iconv 文本编码转换"
    assert decompose("如何用 gzip 压缩和解压文件：压缩级别、保留原文件？", "zh").subject == "gzip 文件压缩和解压"
    # where the task is done still leads the subject, as before
    assert decompose("在 Debian 上如何用 SSH 远程访问服务器：配置文件？", "zh").subject == "Debian"


def test_a_list_of_tasks_done_with_a_tool_is_decomposed_without_a_colon() -> None:
    """A fresh-eyes trial over GnuPG's manual: with no colon, "How do I generate a GnuPG key pair,
    export and import public keys, and sign and verify files with gpg?" was one facet and every
    question pasted it whole ("What is the definition of generating a GnuPG key pair, export …")."""
    from autodidact.text.topic import decompose, subject_tools

    frame = decompose(
        "How do I generate a GnuPG key pair, export and import public keys, and sign and verify files with gpg?", "en"
    )
    assert frame.subject == "using gpg" and subject_tools(frame.subject) == ["gpg"]
    assert [f.name for f in frame.facets] == [
        "generating a GnuPG key pair",
        "exporting and importing public keys",
        "signing and verifying files",
    ]
    # after a colon, two verbs of one object stay one task
    listed = decompose("How do I work with gpg: making keys, and signing and verifying files?", "en")
    assert "signing and verifying files" in [f.name for f in listed.facets]
    # not a list of tasks: unchanged
    assert decompose("How do I search files with grep?", "en").subject == "searching files with grep"


def test_a_chinese_task_done_with_two_tools_is_one_facet() -> None:
    """「用 msginit 和 msgmerge 维护 .po 文件」 read 「用 msginit」 and 「msgmerge 维护 .po 文件」, and the
    subject kept 「如何」 (「如何用 gettext 为 C 程序做国际化的定义是什么？」 was a finding)."""
    from autodidact.text.topic import decompose, subject_tools

    frame = decompose(
        "如何用 gettext 为 C 程序做国际化：用 xgettext 提取字符串、用 msginit 和 msgmerge 维护 .po 文件、"
        "用 msgfmt 编译 .mo 文件？",
        "zh",
    )
    assert frame.subject == "用 gettext 为 C 程序做国际化" and subject_tools(frame.subject) == ["gettext"]
    assert [f.name for f in frame.facets] == [
        "用 xgettext 提取字符串",
        "用 msginit 和 msgmerge 维护 .po 文件",
        "用 msgfmt 编译 .mo 文件",
    ]


def test_a_task_and_what_is_done_after_it_are_one_subject() -> None:
    """ "How do I make a detached signature with gpg and verify it?" gave two articles, "how I make a
    detached signature with gpg and verify it" and "making a detached signature with gpg and verify
    it", linking each other (a fresh-eyes trial)."""
    from autodidact.text.topic import decompose

    frame = decompose("How do I make a detached signature with gpg and verify it?", "en")
    assert frame.subject == "making a detached signature with gpg and verifying it"
    assert [f.name for f in frame.facets] == ["making a detached signature with gpg and verifying it"]
    assert not any(f.kind == "question" for f in decompose("How do I safely create temporary files?", "en").facets)
    # a question about a thing, not about "I", keeps its own facet
    assert any(f.kind == "question" for f in decompose("How does a Debian system start up under systemd?", "en").facets)


def test_a_chinese_chain_of_tasks_each_with_its_tool_is_one_facet_per_task() -> None:
    """「如何用 find 按名称和修改时间查找文件，并用 sed 批量替换文本？」 was read as one question: its 和
    split 「按名称和修改时间」 and moved the verb to the end, and every question pasted 「时间查找文件,并用 sed
    批量替换文本修改」 (a fresh-eyes trial)."""
    from autodidact.text.topic import decompose

    frame = decompose("如何用 find 按名称和修改时间查找文件，并用 sed 批量替换文本？", "zh")
    assert frame.subject == "find 和 sed"
    assert [f.name for f in frame.facets] == ["用 find 按名称和修改时间查找文件", "用 sed 批量替换文本"]
    # two criteria of one task: each is looked for on its own
    assert frame.facets[0].members == ["用 find 按名称查找文件", "用 find 按修改时间查找文件"]
    assert frame.facets[1].members == []
    assert [f.name for f in decompose("如何用 tar 打包目录，再用 gzip 压缩？", "zh").facets] == [
        "用 tar 打包目录",
        "用 gzip 压缩",
    ]
    # 「，并设置压缩方式」: a clause without a tool is done with the one before it; a list of verbs of
    # one object is one member per verb (a second fresh-eyes trial read 「zipfile 和解压 ZIP 压缩包,
    # 并设置压缩方式创建、读取」 as the subject)
    zip_frame = decompose("如何用 zipfile 创建、读取和解压 ZIP 压缩包，并设置压缩方式？", "zh")
    assert zip_frame.subject == "zipfile"
    assert [f.name for f in zip_frame.facets] == ["用 zipfile 创建、读取和解压 ZIP 压缩包", "用 zipfile 设置压缩方式"]
    assert zip_frame.facets[0].members == [
        "用 zipfile 创建 ZIP 压缩包",
        "用 zipfile 读取 ZIP 压缩包",
        "用 zipfile 解压 ZIP 压缩包",
    ]
    # one tool, or a colon's list: as before
    assert decompose("如何用 find 查找文件？", "zh").subject != "find"
    assert decompose("如何用 gettext 做国际化：用 xgettext 提取字符串、用 msgfmt 编译 .mo 文件？", "zh").subject == (
        "用 gettext 做国际化"
    )


def test_every_verb_of_a_listed_task_becomes_a_gerund() -> None:
    """ "How do I parse, search and modify XML …" read "parsing , search and modify XML", and every
    question pasted it (a second fresh-eyes trial)."""
    from autodidact.text.topic import decompose

    topic = "How do I parse, search and modify XML with xml.etree.ElementTree: parsing files, finding elements?"
    frame = decompose(topic, "en")
    assert frame.subject == "parsing, searching and modifying XML with xml.etree.ElementTree"
    assert [f.name for f in frame.facets] == ["parsing files", "finding elements"]  # the verbs are no parts
    assert decompose("How do I read and write CSV files?", "en").subject == "reading and writing CSV files"


def test_a_chinese_chain_of_tasks_without_tools_is_one_facet_per_task() -> None:
    """「如何配置网络，并检查连接？」 moved the first verb behind the whole chain: the subject
    「网络,并检查连接配置」 was pasted into every question."""
    from autodidact.text.topic import decompose

    frame = decompose("如何配置网络，并检查连接？", "zh")
    assert [f.name for f in frame.facets] == ["配置网络", "检查连接"] and "并" not in frame.subject
    # a bare verb, or a pronoun, is about the first task's object
    assert [f.name for f in decompose("如何备份数据，然后恢复？", "zh").facets] == ["备份数据", "恢复数据"]
    assert [f.name for f in decompose("如何编写 shell 脚本，并调试它？", "zh").facets] == [
        "编写 shell 脚本",
        "调试 shell 脚本",
    ]
    # no chain: as before
    assert len(decompose("如何配置网络？", "zh").facets) >= 1 and "，" not in decompose("如何配置网络？", "zh").subject


def test_a_comparison_in_parentheses_compares_kinds_of_its_head() -> None:
    """ "regular expression syntax (basic vs extended)" was split at the vs: "What is the role of
    extended) in searching files with grep?" (a fresh-eyes trial)."""
    from autodidact.text.topic import decompose

    topic = "How do I search files with grep: regular expression syntax (basic vs extended), recursive search?"
    facet = decompose(topic, "en").facets[0]
    assert facet.kind == "comparison"
    assert facet.candidates == ["basic regular expression syntax", "extended regular expression syntax"]


def test_a_chinese_list_item_after_its_conjunction_is_a_question() -> None:
    """「，以及如何把日志写到文件」 was the aspect 「以及如何把日志写到文件」, and 「处理器」 (a verb made a
    noun) was asked 「如何处理器？」 (a fresh-eyes trial)."""
    from autodidact.questions.framework import framework_questions
    from autodidact.text.topic import decompose

    frame = decompose("如何用 logging 模块记录日志：日志级别、处理器和格式化器，以及如何把日志写到文件？", "zh")
    kinds = {f.name: f.kind for f in frame.facets}
    assert kinds["处理器"] == "aspect" and kinds["格式化器"] == "aspect"
    assert not any("以及" in name for name in kinds)
    assert any(kind == "question" and "如何把日志写到文件" in name for name, kind in kinds.items())
    texts = [q.text for q in framework_questions(frame, "zh", frame.topic_type, (1, 2))]
    assert "如何处理器？" not in texts and "如何格式化器？" not in texts
    assert not any("以及" in t for t in texts)
