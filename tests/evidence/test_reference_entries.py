"""API reference pages: a member is documented under its signature, then described without its
name (evidence/extract_task.py "carried on", evidence/kq_research.py entry_end, docs/evidence.md)."""

from __future__ import annotations

from autodidact.evidence.extract_task import ExtractInputs, PassageIn
from autodidact.evidence.focus import focus
from autodidact.evidence.kq_research import entry_end

from .conftest import offline_quotes, one_passage_inputs

QUEUE = (
    "    get_nowait(self)\n        Remove and return an item from the queue without blocking.\n\n"
    "    join(self)\n        Blocks until all items in the Queue have been gotten and processed.\n\n"
    "    task_done(self)\n        Indicate that a formerly enqueued task is complete.\n"
)
THREAD = (
    "    join(self, timeout=None)\n        Wait until the thread terminates.\n\n"
    "        This blocks the calling thread until the thread whose join() method is called terminates.\n"
    "        A thread can be join()ed many times.\n"
)
FUNCTIONS = (
    "    Lock = allocate_lock(...)\n        Create a new lock object.\n\n"
    "    RLock(*args, **kwargs)\n        Factory function that returns a new reentrant lock.\n\n"
    "        A reentrant lock must be released by the thread that acquired it. Once a\n"
    "        thread has acquired a reentrant lock, the same thread may acquire it again\n"
    "        without blocking.\n\n"
    "    active_count()\n        Return the number of Thread objects currently alive.\n"
)


def test_a_members_entry_opening_with_its_lowercase_signature_is_a_sentence() -> None:
    quotes = offline_quotes("What does Queue.task_done do?", [("queue", QUEUE)])
    assert "task_done(self) Indicate that a formerly enqueued task is complete." in quotes
    coroutine = "    async join(self)\n        Block until all items in the queue have been gotten and processed.\n"
    assert offline_quotes("What does Queue.join do?", [("asyncio.queues", coroutine)]) == [
        "async join(self) Block until all items in the queue have been gotten and processed."
    ]


def test_a_dotted_member_is_answered_by_its_owners_entry_not_a_namesake() -> None:
    """Thread.join is another method called join(): asked about Queue.join, its sentences stay out,
    even when the queue page is not among the passages at all."""
    quotes = offline_quotes("What does Queue.join do?", [("threading", THREAD), ("queue", QUEUE)])
    assert quotes and all("thread" not in q.casefold() for q in quotes)
    assert any("Blocks until all items in the Queue" in q for q in quotes)
    assert offline_quotes("What does Queue.join do?", [("threading", THREAD)]) == []


def test_the_sentences_after_an_entry_are_what_it_says_about_the_member() -> None:
    quotes = offline_quotes("What does RLock do?", [("threading", FUNCTIONS)])
    assert "A reentrant lock must be released by the thread that acquired it." in quotes
    # the next entry is another member
    assert not any("Thread objects currently alive" in q for q in quotes)


PROPERTIES = (
    "    Readonly properties defined here:\n\n"
    "    ident\n        Thread identifier of this thread or None if it has not been started.\n\n"
    "        This is a nonzero integer. See the get_ident() function. Thread\n"
    "        identifiers may be recycled when a thread exits and another thread is\n"
    "        created.\n\n"
    "    native_id\n        Native integral thread ID of this thread, or None if it has not been started.\n"
)


def test_a_property_named_alone_on_its_line_is_an_entry_its_next_sentences_describe() -> None:
    """pydoc writes a property's name on a line of its own: what it says after the first sentence
    (identifiers are recycled) is about the property though it never repeats the name."""
    quotes = offline_quotes("What is meant by ident in thread names and identifiers?", [("threading", PROPERTIES)])
    assert any("may be recycled" in q for q in quotes)
    assert not any("Native integral" in q for q in quotes)  # the next entry is another member
    # a line that wraps after one word goes on in lower case: no entry
    from autodidact.evidence.extract_task import _ENTRY

    assert _ENTRY.match("ident\n        Thread identifier of this thread.")
    assert not _ENTRY.match("Thread\n        identifiers may be recycled when a thread exits.")


def test_a_passage_ending_in_an_entrys_first_line_goes_on_to_the_entrys_end() -> None:
    cut = FUNCTIONS.index("reentrant lock.") + len("reentrant lock.")
    end = entry_end(FUNCTIONS, 0, cut)
    assert "may acquire it again" in FUNCTIONS[:end]
    assert "active_count" not in FUNCTIONS[:end]
    # a passage that ends in prose keeps its end
    prose = "A queue is a list. It is also a line.\n\nMore text follows here."
    assert entry_end(prose, 0, prose.index("line.") + 5) == prose.index("line.") + 5


UNPICKLER = (
    "This takes a binary file for reading a pickle data stream. "
    "The protocol version of the pickle data stream is detected automatically, so no protocol argument is needed. "
    "Bytes past the pickled object's representation in the data stream are ignored. "
    "The argument file must have two methods that read the pickle data stream from the file. "
    "The file can be an on-disk file opened for binary reading of a pickle data stream. "
    "Optional keyword arguments control the reading of a pickle data stream generated by Python 2. "
)


def test_a_sections_key_points_put_what_the_research_asks_about_first() -> None:
    """A section's central sentences repeat its common words ("object", "file"); the one a research
    on protocol versions needs says "protocol" and "version" once."""
    from autodidact.evidence.extract_task import key_point_sentences

    fx = focus("What are the key points of “class Unpickler”?")

    def picked(topic_terms: frozenset[str]) -> list[str]:
        inputs = ExtractInputs(
            language="en", kq_id="kq1", kq_text=fx.question, mode="initial", max_claims=3,
            passages=[PassageIn("P1", "pickle", UNPICKLER, "primary", "https://example.org/pickle")],
            query_variants=[fx.terms], aspect=fx.aspect, topic_terms=topic_terms,
        )  # fmt: skip
        return [s for _, s in key_point_sentences(inputs)]

    detected = next(s for s in UNPICKLER.split(". ") if "detected" in s) + "."
    assert detected not in picked(frozenset())
    assert detected in picked(frozenset({"protocol", "version", "object"}))


def test_a_clause_a_semicolon_began_is_quoted_with_its_sentence() -> None:
    text = (
        "Not all Python object types are supported; in general, only objects whose value is independent "
        "from a particular invocation of Python can be written and read by this module."
    )
    quotes = offline_quotes("Which Python object types can be written and read by this module?", [("marshal", text)])
    assert quotes == [" ".join(text.split())]


def test_a_statement_about_several_quoted_names_is_a_sentence_and_a_list_of_names_is_not() -> None:
    from autodidact.evidence.extract_task import _sentence_like

    said = (
        "对于使用 `systemd` 的现代 Debian 桌面系统，网络接口通常由两个服务进行初始化：`lo` 接口通常在"
        "“`networking.service`”处理，而其它接口则由“`NetworkManager.service`”处理。"
    )
    listed = 'The features are "absolute_import", "division", "generators", "nested_scopes" and "print_function".'
    assert _sentence_like(said)
    assert not _sentence_like(listed)


def test_a_question_about_a_capitalised_name_reads_only_passages_that_write_it() -> None:
    logging_filter = (
        "Filter instances are used to perform arbitrary filtering. If no name is specified, allow every event."
    )
    locks = (
        "class Event(builtins.object)\n    Asynchronous equivalent to threading.Event.\n\n"
        "    Class implementing event objects. An event manages a flag that can be set to true with the set() method."
    )
    quotes = offline_quotes("What does Event do?", [("logging", logging_filter), ("asyncio.locks", locks)])
    assert quotes and all("allow every event" not in q for q in quotes)
    assert offline_quotes("What does Event do?", [("logging", logging_filter)]) == []


def test_a_package_catalog_leaves_room_for_the_statement_after_it() -> None:
    from autodidact.evidence.extract_task import key_point_sentences

    rows = "\n".join(
        f"| `{name}` | V:{v}, I:{i} | {size} | netfilter 配置工具，{what} |"
        for name, v, i, size, what in [
            ("iptables", 315, 889, 2408, "用于 IPv4 的 netfilter 管理工具"),
            ("arptables", 0, 2, 100, "用于 ARP 的 netfilter 管理工具"),
            ("ebtables", 13, 31, 264, "用于以太网桥的 netfilter 管理工具"),
            ("iptstate", 0, 3, 119, "持续性监控 netfilter 状态的工具"),
            ("shorewall", 0, 1, 85, "Shoreline 防火墙的 netfilter 配置文件生成器"),
        ]
    )
    text = (
        "Netfilter 使用 Linux 内核模块提供了状态防火墙和网络地址转换的基础架构。\n\n"
        "| 软件包 | 流行度 | 大小 | 说明 |\n|---|---|---|---|\n" + rows + "\n\n"
        "netfilter 主要的用户层程序是 iptables(8)，你可以使用 iptables-save(8) 保存当前状态。\n"
    )
    fx = focus("《Netfilter 网络过滤框架》的要点是什么？")
    inputs = ExtractInputs(
        language="zh", kq_id="kq1", kq_text=fx.question, mode="initial", max_claims=4,
        passages=[PassageIn("P1", "第 5 章 网络设置", text, "primary", "https://example.org/ch05")],
        query_variants=[fx.terms], aspect=fx.aspect,
    )  # fmt: skip
    picked = [s for _, s in key_point_sentences(inputs)]
    assert sum(1 for s in picked if "V:" in s) <= 2
    assert any("iptables-save" in s for s in picked)


def test_a_cross_reference_does_not_make_a_sentence_about_the_section_it_names() -> None:
    text = (
        "Set the system mail name to the host's fully qualified name (see Section 5.1.1, Hostname resolution). "
        "Hostname resolution is done by the NSS mechanism, and the hosts line of nsswitch.conf sets its order."
    )
    quotes = offline_quotes("How does hostname resolution work?", [("manual", text)])
    assert quotes and all("mail name" not in q for q in quotes)


def test_a_sentence_announcing_a_list_is_quoted_with_its_items() -> None:
    """「MSS 和 MTU 的关系如下.」 says nothing alone, and its items ("对于 IPv4， MSS = MTU - 40") are not
    sentences: the quote is the announcement with its list."""
    text = (
        "最大分片大小 (MSS) 是另外一种衡量包大小的方法。MSS 和 MTU 的关系如下.\n\n"
        "- 对于 IPv4， MSS = MTU - 40\n- 对于 IPv6，MSS = MTU - 60\n\n下一段讲别的内容，与此无关的句子。"
    )
    quotes = offline_quotes("MSS 和 MTU 之间是什么关系？", [("网络设置", text)])
    assert any("MSS = MTU - 40" in q and "MSS = MTU - 60" in q for q in quotes), quotes


def test_list_items_that_are_sentences_stand_on_their_own() -> None:
    from autodidact.evidence.extract_task import with_antecedents
    from autodidact.text.sentences import sentence_spans

    text = (
        "Please note the following.\n\n- All system configuration and installation commands require to be run "
        "from root.\n- Unlike aptitude which uses regex, other package management commands use glob patterns.\n"
    )
    pieces = [text[s:e] for s, e in with_antecedents(text, sentence_spans(text))]
    assert any(p.startswith("All system configuration") for p in pieces), pieces


def test_the_subjects_own_name_is_not_required_of_a_facets_answer() -> None:
    """Every question of a research on concurrent.futures says "concurrent.futures"; the page's
    entries never repeat it, so requiring it left "submitting callables" without an answer."""
    from autodidact.evidence.kq_research import own_literals

    subject = frozenset({"concurrent.futures"})
    assert own_literals(["concurrent.futures", "Executor.submit"], subject) == ["Executor.submit"]
    assert own_literals(["sources.list"], subject) == ["sources.list"]


def test_a_sentence_ending_in_a_colon_is_quoted_with_the_command_it_introduces() -> None:
    """「You need to configure it as:」 answers nothing without "# dpkg-reconfigure locales"; a
    sentence after a colon that is a sentence of its own stays apart."""
    from autodidact.evidence.extract_task import _sentence_like, with_antecedents
    from autodidact.text.sentences import sentence_spans

    text = (
        "The `locales` package does not come with pre-compiled locale data. You need to configure it as:\n\n"
        "\\# dpkg-reconfigure locales\n\nThis process involves 2 steps.\n"
    )
    pieces = [text[s:e] for s, e in with_antecedents(text, sentence_spans(text))]
    joined = next(p for p in pieces if "dpkg-reconfigure" in p)
    assert joined.startswith("You need to configure it as:") and _sentence_like(joined)
    assert "This process involves 2 steps." in pieces
    prose = "Note the following:\n\nThe default is 500 for every archive."
    assert "The default is 500 for every archive." in [
        prose[s:e] for s, e in with_antecedents(prose, sentence_spans(prose))
    ]


def test_a_definition_lists_lowercase_entry_is_a_sentence_a_fragment_is_not() -> None:
    from autodidact.evidence.extract_task import _sentence_like

    assert _sentence_like("delimiter - specifies a one-character string to use as the field separator.")
    assert _sentence_like("csv.QUOTE_NONNUMERIC means that quotes are always placed around non-numeric fields.")
    assert not _sentence_like("and the rest of the list goes on in the same way here.")
    assert not _sentence_like("which means that the call fails when the queue is full.")


def test_a_passage_ending_in_an_announcement_takes_in_what_it_announces() -> None:
    from autodidact.evidence.kq_research import announced_end

    text = (
        "These binary log data are accessed by the journalctl(1) command. For example, you can "
        "display log from the last boot as:\n\n$ journalctl -b\n\n**Table 3.5. Typical snippets**\n"
    )
    cut = text.index("as:") + 3
    assert text[: announced_end(text, 0, cut)].endswith("$ journalctl -b")
    prose = text.index("command.") + len("command.")
    assert announced_end(text, 0, prose) == prose  # a sentence that announces nothing keeps its end


def test_a_reference_entry_without_a_full_stop_is_still_a_statement() -> None:
    """pydoc writes "join(self, timeout=None) Wait until child process terminates" with no full
    stop: "What does Process.join do?" had no answer while the entry stood in the passage."""
    from autodidact.evidence.extract_task import _sentence_like

    assert _sentence_like("join(self, timeout=None) Wait until child process terminates")
    assert not _sentence_like("join(self, timeout=None) Wait")  # a signature and one word says nothing
    assert not _sentence_like("Wait until child process terminates")  # no entry, no stop: a fragment
    # a data descriptor: its name, then what it is
    assert _sentence_like("exitcode Return exit code of process or `None` if it has yet to stop")
    assert not _sentence_like("process Returns")  # a name and one word
    assert not _sentence_like("the API) of threading.py but uses processes instead of threads.")  # a fragment


ATTRIBUTES = (
    "object.__setattr__(self, name, value)\n\n"
    "   Called when an attribute assignment is attempted.  This is called\n"
    "   instead of the normal mechanism (i.e. store the value in the\n"
    "   instance dictionary).\n\n"
    "   For certain sensitive attribute assignments, raises an auditing\n"
    '   event "object.__setattr__" with arguments "obj", "name", "value".\n\n'
    "object.__delattr__(self, name)\n\n"
    '   Like "__setattr__()" but for attribute deletion instead of\n'
    "   assignment.  This should only be implemented if the deletion is meaningful.\n\n"
    "   For certain sensitive attribute deletions, raises an auditing event\n"
    '   "object.__delattr__" with arguments "obj" and "name".\n'
)


def test_the_description_under_a_signature_line_answers_for_the_member_it_names() -> None:
    """pydoc's "object.__setattr__(self, name, value)" stands alone; "Called when an attribute
    assignment is attempted" under it never repeats the name, and the auditing notes, which do,
    outranked it."""
    quotes = offline_quotes(
        "How do I intercept assignment and deletion with __setattr__ and __delattr__?",
        [("attribute-access", ATTRIBUTES)],
    )
    assert any("Called when an attribute assignment is attempted" in q for q in quotes)


MKSTEMP = (
    "    mkdtemp(suffix=None, prefix=None, dir=None)\n"
    "        User-callable function to create and return a unique temporary\n"
    "        directory.  The return value is the pathname of the directory.\n\n"
    "    mkstemp(suffix=None, prefix=None, dir=None, text=False)\n"
    "        User-callable function to create and return a unique temporary\n"
    "        file.  The return value is a pair (fd, name) where fd is the\n"
    "        file descriptor returned by os.open, and name is the filename.\n\n"
    "    mktemp(suffix='', prefix='tmp', dir=None)\n"
    "        Arguments are similar to mkstemp, except that the 'text' argument is not accepted.\n"
)


def test_a_name_asked_about_within_the_research_subject_is_answered_by_its_entry() -> None:
    """ "What is meant by mkstemp in Python's tempfile module?": beyond the subject it asks only
    about mkstemp, whose entry never repeats "tempfile module"; two shared words kept no claim."""
    from autodidact.evidence.extract_task import ExtractClaimsTask
    from autodidact.evidence.sharpen import sharpen, subject_terms, subject_words

    topic = "How do I safely create temporary files with Python's tempfile module: mkstemp/mkdtemp, suffix/prefix"
    fx = focus("What is meant by mkstemp in Python's tempfile module?")
    subject = subject_terms(topic, "en")
    sharp = sharpen(fx, subject, subject_words(topic, "en"))
    base = one_passage_inputs(fx, "tempfile", MKSTEMP, heads=sharp.heads, min_head_hits=sharp.min_head_hits)
    from dataclasses import replace

    assert ExtractClaimsTask().offline(base).claims == []  # without knowing the subject
    quotes = [c.quotes[0].snippet for c in ExtractClaimsTask().offline(replace(base, subject=subject)).claims]
    assert quotes[0].startswith("mkstemp(suffix=None")  # the entry's opening says what it is
    assert any("The return value is a pair (fd, name)" in q for q in quotes)
    assert not any("pathname of the directory" in q for q in quotes)  # mkdtemp's entry


ACTION = (
    "    class Action(_AttributeHolder)\n"
    "        Action(option_strings, dest, nargs=None, const=None, default=None, type=None, choices=None)\n\n"
    "        Keyword Arguments:\n\n"
    "            - nargs -- The number of command-line arguments that should be\n"
    "                consumed.\n\n"
    "            - choices -- A container of values that should be allowed. If not None,\n"
    "                after a command-line argument has been converted to the appropriate\n"
    "                type, an exception will be raised if it is not a member of this\n"
    "                collection.\n\n"
    "            - required -- True if the action must always be specified at the\n"
    "                command line.\n"
)


def test_a_definition_lists_item_answers_what_its_name_means() -> None:
    """ "choices" is frame vocabulary ("the right choice"), yet it is what "What is meant by choices
    in argparse?" asks about; its answer is the item "- choices -- A container …", not the
    signature that merely lists choices=None."""
    fx = focus("What is meant by choices in argparse?")
    assert "choic" in fx.terms and "choic" in fx.heads
    quotes = offline_quotes(fx.question, [("argparse", ACTION)])
    assert quotes and quotes[0].startswith("choices -- A container of values that should be allowed.")
    assert not any(q.startswith("Action(option_strings") for q in quotes)  # a bare signature says nothing
    assert not any("True if the action must always" in q for q in quotes)  # the next item is another name


def test_a_pages_name_line_is_no_statement_but_a_definition_item_is() -> None:
    from autodidact.evidence.extract_task import _sentence_like

    assert not _sentence_like("configparser - Configuration file parser.")  # pydoc's NAME line
    assert _sentence_like("choices -- A container of values that should be allowed.")
    assert not _sentence_like("BooleanOptionalAction(option_strings, dest, default=None, type=None, choices=None)")


CONTEXTLIB = (
    "    class ExitStack(_BaseExitStack, AbstractContextManager)\n"
    "        Context manager for dynamic management of a stack of exit callbacks.\n\n"
    "        For example:\n"
    "            with ExitStack() as stack:\n"
    "                files = [stack.enter_context(open(fname)) for fname in filenames]\n\n"
    "    class suppress(AbstractContextManager)\n"
    "        suppress(*exceptions)\n\n"
    "        Context manager to suppress specified exceptions\n\n"
    "        After the exception is suppressed, execution proceeds with the next\n"
    "        statement following the with statement.\n"
)


def test_a_class_entrys_description_is_what_the_class_is() -> None:
    """pydoc's one-line summary under a class or signature line has no full stop and never repeats
    the name; it is still the answer to what the class is for."""
    quotes = offline_quotes("What is meant by ExitStack?", [("contextlib", CONTEXTLIB)])
    assert quotes and "Context manager for dynamic management of a stack of exit callbacks." in quotes[0]
    quotes = offline_quotes("How do I ignore specific exceptions with suppress?", [("contextlib", CONTEXTLIB)])
    assert "Context manager to suppress specified exceptions" in quotes


def test_pydocs_class_tree_is_no_statement() -> None:
    from autodidact.evidence.extract_task import _sentence_like

    tree = "abc.ABC(builtins.object) AbstractAsyncContextManager AsyncExitStack(_BaseExitStack, AbstractContextManager)"
    assert not _sentence_like(tree)
    assert _sentence_like("Use os.path.join(a, b) to join the parts of a path.")


DATACLASS = (
    "    dataclass(cls=None, /, *, init=True, repr=True, eq=True, order=False, frozen=False, kw_only=False)\n"
    "        Add dunder methods based on the fields defined in the class.\n\n"
    "        Examines PEP 526 __annotations__ to determine fields.\n\n"
    "        If init is true, an __init__() method is added to the class. If repr\n"
    "        is true, a __repr__() method is added. If order is true, rich\n"
    "        comparison dunder methods are added. If frozen is true, fields may not be\n"
    "        assigned to after instance creation.\n\n"
    "    field(*, default, default_factory, init=True)\n"
    "        Return an object to identify dataclass fields.\n\n"
    "        default is the default value of the field.  default_factory is a\n"
    "        0-argument function called to initialize a field's value.\n\n"
    "        The parameters init, repr, eq, order, unsafe_hash, and frozen are passed to\n"
    "        dataclass().\n"
)


def test_what_a_parameter_does_is_what_happens_when_it_is_set() -> None:
    """ "If order is true, rich comparison dunder methods are added." is what `order` means; the
    sentence that merely lists it among the parameters is not."""
    quotes = offline_quotes("What is meant by order in Python's dataclasses module?", [("dataclasses", DATACLASS)])
    assert quotes and quotes[0] == "If order is true, rich comparison dunder methods are added."
    assert offline_quotes("What does default_factory do?", [("dataclasses", DATACLASS)])[0].startswith(
        "default_factory is a"
    )  # a sentence whose subject is a code name opens in lower case


def test_a_passage_opening_with_an_example_starts_with_the_paragraph_announcing_it() -> None:
    from autodidact.evidence.kq_research import announcing_start

    text = (
        "Intro paragraph.\n\n    Once a connection has been established, create a Cursor object and call\n"
        "    its execute() method to perform SQL queries:\n    \n        cu = cx.cursor()\n"
    )
    at = text.find("        cu =")
    assert text[announcing_start(text, at) :].lstrip().startswith("Once a connection has been established")
    plain = "A sentence. Another one.\n\nThe next paragraph."
    assert announcing_start(plain, plain.find("The next")) == plain.find("The next")  # nothing announced


# pydoc writes a module function that is a bound method with its owner after the signature.
BOUND = (
    "    set_executable(executable) method of multiprocessing.context.DefaultContext instance\n"
    "        Sets the path to a python.exe or pythonw.exe binary used to run\n"
    "        child processes instead of sys.executable when using the 'spawn'\n"
    "        start method.  Useful for people embedding Python.\n\n"
    "    set_start_method(method, force=False) method of multiprocessing.context.DefaultContext instance\n\n"
    "    randint(a, b) method of random.Random instance\n"
    "        Return random integer in range [a, b], including both end points.\n"
)


def test_a_bound_method_entry_is_an_entry_and_its_description_a_sentence() -> None:
    from autodidact.sources.passages import entry_heads

    assert [name for _, name in entry_heads(BOUND)] == ["set_executable", "randint"]
    quotes = offline_quotes("What is a start method?", [("multiprocessing", BOUND)])
    assert any("when using the 'spawn'" in q and q.startswith("set_executable(executable)") for q in quotes)
    # the bare signature says nothing of its own
    assert not any(q.startswith("set_start_method") for q in quotes)
    assert any(
        "Return random integer in range [a, b]" in q
        for q in offline_quotes("What does randint return?", [("random", BOUND)])
    )


TEMPFILE = (
    "    NamedTemporaryFile(mode='w+b', buffering=-1, encoding=None, newline=None, suffix=None, prefix=None, "
    "dir=None, delete=True, *, errors=None)\n"
    "        Create and return a temporary file.\n"
    "        'delete' -- whether the file is deleted on close (default True).\n\n"
    "        Returns an object with a file-like interface; the name of the file\n"
    "        is accessible as its 'name' attribute.  The file will be automatically\n"
    "        deleted when it is closed unless the 'delete' argument is set to False.\n\n"
    "        On POSIX, NamedTemporaryFiles cannot be automatically deleted if\n"
    "        the creating process is terminated abruptly with a SIGKILL signal.\n"
    "        Windows can delete the file even in this case.\n\n"
    "    TemporaryFile(mode='w+b', buffering=-1, encoding=None, newline=None, suffix=None, prefix=None, "
    "dir=None, *, errors=None)\n"
    "        Create and return a temporary file.\n"
)
DATA = "    TMP_MAX = 238328\n    __all__ = ['NamedTemporaryFile', 'TemporaryFile', 'SpooledTemporaryFil...\n"


def test_a_comparison_quotes_each_side_and_no_data_line() -> None:
    question = "What are the differences between NamedTemporaryFile and TemporaryFile regarding the delete flag?"
    assert focus(question).heads[:2] == ["namedtemporaryfil", "temporaryfil"]  # "regarding" is no head
    quotes = offline_quotes(question, [("tempfile", TEMPFILE), ("tempfile data", DATA)])
    assert any(q.startswith("NamedTemporaryFile(") for q in quotes)
    # the side the page says less about still gets its entry, a long all-names signature included
    assert any(q.startswith("TemporaryFile(") and q.endswith("Create and return a temporary file.") for q in quotes)
    assert not any("TMP_MAX" in q for q in quotes)  # pydoc's DATA section binds names; it states nothing


GETTERS = (
    "    get(self, section, option, *, raw=False, vars=None, fallback=<object object at 0x7f9928c6df80>)\n"
    "        Get an option value for a given section.\n\n"
    "        If the key is not found and `fallback` is provided, it is used as\n"
    "        a fallback value. `None` can be provided as a `fallback` value.\n\n"
    "    getfloat(self, section, option, *, raw=False, vars=None, fallback=<object object at 0x7f9928c6df80>)\n\n"
    "    getint(self, section, option, *, raw=False, vars=None, fallback=<object object at 0x7f9928c6df80>)\n"
)


def test_a_bare_signature_under_another_is_no_description() -> None:
    quotes = offline_quotes("How do I get options with fallbacks?", [("configparser", GETTERS)])
    assert not any(q.startswith(("getint(", "getfloat(")) for q in quotes)
