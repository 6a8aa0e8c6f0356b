"""A facet's words that are the research subject's admit nothing by themselves (docs/wiki.md, "On
topic"): every page of the manual says them."""

from __future__ import annotations

from autodidact.wiki.compile.answers import QuestionTerms

TOPIC = (
    "How does Python resolve variable names: which constructs bind names and make them local, free variables "
    "and the nearest enclosing scope, the global and nonlocal statements, UnboundLocalError?"
)
FACET = "free variables and the nearest enclosing scope"


def test_a_subject_word_in_the_facet_does_not_admit_a_quote_alone() -> None:
    terms = QuestionTerms.of(f"What does a typical example of {FACET} look like?", FACET, TOPIC)
    slots = "Attempts to assign to an unlisted variable name raises AttributeError."
    assert not terms.admits(slots)  # "variable" is the subject's word
    assert terms.admits("If a variable is used in a code block but not defined there, it is a free variable.")
    assert terms.admits("The name is resolved in the nearest enclosing function scope.")


def test_a_part_of_the_subject_keeps_its_own_name() -> None:
    """ "marshal" is a part of "the pickle, marshal and shelve modules": its questions are answered by
    sentences naming it, though every one of its words is the subject's."""
    topic = "How do the pickle, marshal and shelve modules serialize Python objects?"
    terms = QuestionTerms.of("What are the limitations of marshal?", "marshal", topic)
    assert terms.admits("Not all Python object types are supported by marshal; in general it is not secure.")
