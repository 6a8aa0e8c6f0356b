"""Plain text: man-page headings become sections, margin bars stop ending sentences
(sources/plaintext.py; docs/sections.md, "Plain text")."""

from __future__ import annotations

from autodidact.sources.extract import extract_bytes
from autodidact.sources.plaintext import readable_plain
from autodidact.text.sections import headings
from autodidact.text.sentences import split_sentences

PYDOC = """Help on package logging:

NAME
    logging

DESCRIPTION
    Logging package for Python. Based on PEP 282.

CLASSES
    class Handler(Filterer)
     |  Handler instances dispatch logging events to specific
     |  destinations, which are set by subclasses of this
     |  class and by the caller.
     |
     |  Method resolution order:

DATA
    BASIC_FORMAT = '%(levelname)s:%(name)s:%(message)s'
"""


def test_capital_headings_with_an_indented_body_become_sections() -> None:
    text = extract_bytes(PYDOC.encode(), filename="logging.txt").text
    assert [h.title for h in headings(text)] == ["Name", "Description", "Classes", "class Handler", "Data"]
    sentences = split_sentences(text)
    assert "Logging package for Python." in sentences  # the heading no longer glued to it
    whole = "Handler instances dispatch logging events to specific destinations, which are set by subclasses"
    assert any(whole in s and s.endswith("by the caller.") for s in sentences)  # one sentence, not three lines


def test_only_margin_headings_with_a_body_below_are_headings() -> None:
    text = "Intro line.\nNOTE\n    glued to the line above\n\nWARNING\nnot indented below\n"
    assert readable_plain(text) == text
    table = "| a | b |\n| c | d |\n| e | f |\n"
    assert readable_plain(table) == table  # a table keeps its bars


def test_markdown_is_left_as_it_is() -> None:
    text = "# Title\n\nNAME\n    kept\n"
    assert extract_bytes(text.encode(), filename="notes.md").text.startswith("# Title\n\nNAME\n")


def test_each_pydoc_class_is_a_section_of_its_own() -> None:
    """A question about Condition reads Condition's documentation, not the first part of a listing
    of every class under one "Classes" heading."""
    import pydoc
    import threading

    from autodidact.text.sections import split_sections

    text = extract_bytes(pydoc.render_doc(threading, renderer=pydoc.plaintext).encode(), filename="threading.txt").text
    titles = [s.title for s in split_sections(text, "threading")]
    assert {"class Condition", "class Event", "class Semaphore"} <= {t.split(" (")[0] for t in titles}
    condition = next(s for s in split_sections(text, "threading") if s.title == "class Condition")
    assert "notify" in condition.text_of(text) and "class Event" not in condition.text_of(text)


def test_a_pydoc_class_alias_is_that_classs_section() -> None:
    """pydoc writes socket's own class as "SocketType = class socket(builtins.object)": read as no
    heading, socket's bind(), listen() and accept() were filed under the class above, SocketKind."""
    import pydoc
    import socket

    from autodidact.text.sections import split_sections

    text = extract_bytes(pydoc.render_doc(socket, renderer=pydoc.plaintext).encode(), filename="socket.txt").text
    sections = split_sections(text, "socket")
    kind = " ".join(s.text_of(text) for s in sections if s.title.startswith("class SocketKind"))
    own = " ".join(s.text_of(text) for s in sections if s.title.startswith("class socket"))
    assert "listen(" in own and "listen(" not in kind


def test_pydoc_inherited_members_are_documented_once() -> None:
    """Every handler class repeated Handler's docstrings ("Otherwise, use the default formatter for
    the module."), which then answered every question about formatters: inherited blocks and the
    method resolution order are left out, a class's own members stay."""
    import logging
    import pydoc

    raw = pydoc.render_doc(logging, renderer=pydoc.plaintext)
    text = extract_bytes(raw.encode(), filename="logging.txt").text
    assert raw.count("use the default formatter") > 1 and text.count("use the default formatter") == 1
    assert "Method resolution order" not in text
    # a base the page documents (Handler) is never repeated; one it does not (Filterer) is kept once
    assert "inherited from Handler" not in text and "inherited from builtins" not in text
    assert text.count("Methods inherited from Filterer") == 1
    assert "Open the specified file and use it as the stream for logging." in text  # FileHandler's own


def test_a_member_only_an_undocumented_base_documents_is_kept() -> None:
    """multiprocessing documents `exitcode` only as "inherited from multiprocessing.process.BaseProcess",
    a class the page does not document: left out, the page never said what an exit code is."""
    import multiprocessing
    import pydoc

    raw = pydoc.render_doc(multiprocessing, renderer=pydoc.plaintext)
    text = extract_bytes(raw.encode(), filename="multiprocessing.txt").text
    assert "Return exit code of process or `None` if it has yet to stop" in text


def test_a_comment_gutter_down_a_description_stops_ending_sentences() -> None:
    """pydoc shows a package's __init__ comments as its DESCRIPTION: every "#" line read as a heading."""
    doc = (
        "NAME\n    multiprocessing\n\nDESCRIPTION\n"
        "    # Package analogous to 'threading.py' but using processes\n    #\n"
        "    # This package is intended to duplicate the functionality (and much of\n"
        "    # the API) of threading.py but uses processes instead of threads.\n    #\n"
    )
    sentences = split_sentences(extract_bytes(doc.encode(), filename="multiprocessing.txt").text)
    assert any(s.endswith("of threading.py but uses processes instead of threads.") and "functionality" in s
               for s in sentences)  # fmt: skip
    # one "#" line is no gutter: a heading-like line of its own stays as it is
    assert readable_plain("intro\n    # one note\nmore") == "intro\n    # one note\nmore"


def test_a_pydoc_pages_module_reference_notice_is_left_out() -> None:
    """The generated-page notice stands on every pydoc page; a one-page corpus quoted it eight times."""
    from autodidact.sources.plaintext import readable_plain

    page = (
        "Help on module zipfile:\n\nNAME\n    zipfile - Read and write ZIP files.\n\n"
        "MODULE REFERENCE\n    https://docs.python.org/3.11/library/zipfile.html\n    \n"
        "    The following documentation is automatically generated from the Python\n"
        "    source files.  When in doubt, consult the module reference at the\n    location listed above.\n\n"
        "DESCRIPTION\n    ZIP files hold members.\n"
    )
    text = readable_plain(page)
    assert "When in doubt" not in text and "automatically generated" not in text
    assert "## Description" in text and "ZIP files hold members." in text and "## Name" in text
    plain = "MODULE REFERENCE\n    Our own manual's section keeps its words.\n"  # not a pydoc page
    assert "keeps its words" in readable_plain(plain)


def test_a_bar_inside_a_pydoc_line_does_not_end_its_run_of_margin_bars() -> None:
    """selectors' "events -- … EVENT_READ|EVENT_WRITE" line was read as a table row, and the rest of
    the entry kept its margin bars in every quote."""
    import pydoc
    import selectors

    text = readable_plain(pydoc.render_doc(selectors, renderer=pydoc.plaintext))
    assert "EVENT_READ|EVENT_WRITE" in text
    assert not any(line.lstrip().startswith("|") for line in text.splitlines())
    table = "| option | meaning |\n|---|---|\n| -a | all |\n| -b | brief |\n"
    assert readable_plain(table).strip() == table.strip()  # a table keeps its bars


def test_a_passage_is_searchable_by_the_words_of_its_entries_camel_case_names() -> None:
    """ "assertions" never met unittest's assertEqual, assertRaises … (one token each to every
    tokenizer): the section column also holds "assert Equal" (sources/passage_cuts.py)."""
    import pydoc
    import unittest

    from autodidact.sources.passage_cuts import cut_spans

    text = readable_plain(pydoc.render_doc(unittest, renderer=pydoc.plaintext))
    _, spans = cut_spans(text, "unittest")
    holding = [span for span in spans if "assertEqual(self, first, second" in text[span[0] : span[1]]]
    assert holding and all("assert Equal" in span[5] for span in holding)
    plain = [span for span in spans if "Hook method for setting up" in text[span[0] : span[1]]]
    assert plain and not any("Hook" in span[5] for span in plain)  # prose is not split into words
