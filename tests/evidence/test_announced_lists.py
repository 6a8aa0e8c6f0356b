"""A list a sentence announces with a colon is quoted with that sentence (docs/evidence.md, "Extracting
claims", lists): alone, "the following are disallowed or not performed:" answers nothing."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from autodidact.evidence.extract_task import LIST_MAX_CHARS, with_antecedents
from autodidact.evidence.kq_research import announced_end
from autodidact.evidence.textscore import sentence_spans
from autodidact.wiki.compile.answers import QuestionTerms, split_long

RESTRICTED = (
    "A restricted shell behaves identically to 'bash' with the exception that the following are "
    "disallowed or not performed:\n\n"
    "   * Changing directories with the 'cd' builtin.\n"
    "   * Setting or unsetting the values of the 'SHELL', 'PATH', 'HISTFILE',\n"
    "     'ENV', or 'BASH_ENV' variables.\n"
    "   * Specifying command names containing slashes.\n"
    "   * Importing function definitions from the shell environment at\n"
    "     startup.\n\n"
    "These restrictions are enforced after any startup files are read.\n"
)


def _pieces(text: str) -> list[str]:
    return [text[s:e] for s, e in with_antecedents(text, sentence_spans(text))]


def test_a_colon_takes_its_items_even_when_they_are_sentences() -> None:
    pieces = _pieces(RESTRICTED)
    lead = next(p for p in pieces if p.startswith("A restricted shell"))
    assert "Changing directories" in lead and "Importing function definitions" in lead
    assert "These restrictions are enforced after any startup files are read." in pieces  # after the list


def test_a_list_longer_than_the_limit_keeps_its_first_items_and_the_rest_stand_alone() -> None:
    items = "".join(f"   * Item number {n} says something about the shell and its settings.\n" for n in range(60))
    text = "The shell refuses the following actions:\n\n" + items
    pieces = _pieces(text)
    assert "Item number 0 " in pieces[0] and len(pieces[0]) <= LIST_MAX_CHARS
    assert any(p.startswith("Item number 59") for p in pieces)


def test_a_label_heads_entries_that_each_answer_for_their_own_name() -> None:
    """ "Keyword Arguments:" is no sentence; "- nargs -- The number of …" answers what nargs is."""
    text = (
        "Keyword Arguments:\n\n"
        "  - nargs -- The number of command-line arguments that should be consumed.\n"
        "  - choices -- A container of values that should be allowed.\n"
    )
    assert any(p.startswith("choices -- A container") for p in _pieces(text))
    entries = (
        "The parser takes these keyword arguments:\n\n"
        "  - nargs -- The number of command-line arguments that should be consumed.\n"
    )
    assert any(p.startswith("nargs -- The number") for p in _pieces(entries))


def test_a_passage_cut_at_the_colon_takes_in_whole_items_of_the_list() -> None:
    cut = RESTRICTED.index("performed:") + len("performed:")
    end = announced_end(RESTRICTED, 0, cut)
    assert RESTRICTED[:end].rstrip().endswith("startup.")  # the last item, whole; not the prose after
    long_list = "Avoid the following:\n\n" + "".join(f"- item {n} of a very long list\n" for n in range(200))
    end = announced_end(long_list, 0, long_list.index(":") + 1)
    assert long_list[:end].endswith("of a very long list") and end < len(long_list) - 100


def test_the_wiki_keeps_an_announced_list_whole_when_its_lead_answers() -> None:
    flat = " ".join(RESTRICTED.split("\n\nThese")[0].split())
    long = flat + " " + " ".join(f"* Item {n} that the shell refuses to do." for n in range(12))
    assert len(long) > 500
    terms = QuestionTerms.of("What does a restricted shell forbid?", "restricted shell", None)
    assert split_long(long, terms) == [long]
    prose = "The shell is restricted. " * 30  # long prose is still cut into its sentences
    assert len(split_long(prose.strip(), terms)) > 1


@pytest.mark.skipif(not Path("/usr/share/doc/bash/RBASH").is_file(), reason="bash's RBASH document is not installed")
def test_a_research_on_what_a_restricted_shell_forbids_lists_it(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The user's question is asked as written, and its answer holds the list (bash's own RBASH
    document, shipped with every Debian system)."""
    corpus = tmp_path / "docs"
    corpus.mkdir()
    shutil.copyfile("/usr/share/doc/bash/RBASH", corpus / "rbash.txt")
    posix = Path("/usr/share/doc/bash/POSIX.gz")
    if posix.is_file():
        (corpus / "posix.txt").write_bytes(gzip.decompress(posix.read_bytes()))
    kb = tmp_path / "kb"
    result = cli("research", "What does a restricted shell forbid?", "--kb", str(kb), "--corpus", str(corpus),
                 "--max-rounds", "1")  # fmt: skip
    assert result.exit_code == 0, result.output
    article = (kb / "wiki" / "what-a-restricted-shell-forbids.md").read_text("utf-8")
    assert "## What does a restricted shell forbid?" in article
    answer = article.split("## What does a restricted shell forbid?")[1]
    assert "Changing directories with the 'cd' builtin." in answer
    assert "Turning off restricted mode" in answer
