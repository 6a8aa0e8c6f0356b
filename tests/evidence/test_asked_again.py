"""A question asked again reads and quotes what earlier rounds did not (evidence/research._spans_to_read,
evidence/extract_task FRESH_SHARE, docs/evidence.md "Finding passages")."""

from __future__ import annotations

from autodidact.evidence.collect import Candidate, Doc
from autodidact.evidence.extract_task import ExtractClaimsTask
from autodidact.evidence.focus import focus
from autodidact.evidence.kq_research import SPANS_READ, _spans_to_read

from .conftest import one_passage_inputs

# Entries of pydoc's sqlite3 Connection class, as the page writes them.
CONNECTION = (
    "    __exit__(self, type, value, traceback, /)\n"
    "        Called when the connection is used as a context manager.\n\n"
    "        If there was any exception, a rollback takes place; otherwise we commit.\n\n"
    "    commit(self, /)\n        Commit any pending transaction to the database.\n\n"
    "        If there is no open transaction, this method is a no-op.\n\n"
    "    rollback(self, /)\n        Roll back to the start of any pending transaction.\n\n"
    "        If there is no open transaction, this method is a no-op.\n"
)
COMMIT = "commit(self, /) Commit any pending transaction to the database."
ROLLBACK = "rollback(self, /) Roll back to the start of any pending transaction."
NO_OP = "If there is no open transaction, this method is a no-op."
EXIT = "If there was any exception, a rollback takes place; otherwise we commit."


def _quotes(known: frozenset[str]) -> list[str]:
    fx = focus("What does a typical example of committing or rolling back transactions look like?")
    inputs = one_passage_inputs(fx, "sqlite3", CONNECTION, known_quotes=known, max_claims=5)
    return [q.snippet for c in ExtractClaimsTask().offline(inputs).claims for q in c.quotes]


def test_a_question_asked_again_quotes_what_the_wiki_lacks_though_it_says_less_of_the_question() -> None:
    first = _quotes(frozenset())
    assert COMMIT in first and EXIT not in first  # first time: the entries that say it best
    again = _quotes(frozenset({COMMIT, ROLLBACK, NO_OP}))
    assert EXIT in again


def _doc(paragraphs: list[str]) -> tuple[Doc, list[tuple[int, int]]]:
    text, spans = "", []
    for p in paragraphs:
        spans.append((len(text), len(text) + len(p)))
        text += p + "\n\n"
    doc = Doc(
        url="https://example.org/sqlite3", title="sqlite3", kind="corpus", snapshot_ref="s1",
        text=text, quality="primary", quality_reason="",
    )  # fmt: skip
    return doc, spans


def test_passages_whose_quotes_the_wiki_holds_bring_in_as_many_unread_ones() -> None:
    paragraphs = [f"Paragraph {i} says fact number {i} about transactions." for i in range(SPANS_READ + 3)]
    doc, spans = _doc(paragraphs)
    cand = Candidate(doc, spans[: SPANS_READ + 1], 1.0, reserve=spans[SPANS_READ + 1 :])
    assert _spans_to_read(cand, frozenset()) == spans[:SPANS_READ]  # a first round reads the best only
    known = frozenset({paragraphs[0], paragraphs[2]})
    # two of the best passages were quoted before: the next two unquoted ones are read as well
    assert _spans_to_read(cand, known) == spans[:SPANS_READ] + spans[SPANS_READ : SPANS_READ + 2]
    # a further passage already quoted is no fresh one
    known_more = known | {paragraphs[SPANS_READ]}
    assert _spans_to_read(cand, known_more) == spans[:SPANS_READ] + spans[SPANS_READ + 1 : SPANS_READ + 3]
