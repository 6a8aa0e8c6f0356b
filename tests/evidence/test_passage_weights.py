"""Within a document, the passage about what the question asks beyond the subject comes first."""

from __future__ import annotations

from autodidact.evidence.collect import Doc, best_spans
from autodidact.evidence.extract_task import MODIFIER_WEIGHT

# Two passages of a module page: its description repeats the subject's words (reading, writing,
# CSV, files, module); the reader entry says "reader" and what it reads, but the subject's words once.
DESCRIPTION = (
    "This module provides classes that assist in the reading and writing of Comma Separated Value "
    "(CSV) files, and implements the interface described by PEP 305. The module supports reading and "
    "writing CSV files with a dialect; the csv module reads and writes files in many formats, and "
    "writing files is as simple as reading files. " * 2
)
ENTRY = (
    "reader(iterable, dialect='excel')\n    Return a reader object which will iterate over lines of the "
    "given iterable. The iterable argument can be any object that returns a line of input for each "
    "iteration; each iteration of the reader returns a row. A reader is what turns lines into rows, and "
    "the object it returns is an iterator. " * 2
)


def test_the_subjects_words_weigh_less_than_the_questions_own_when_passages_are_ranked() -> None:
    doc = Doc(
        url="https://example.org/csv", title="csv", kind="corpus", snapshot_ref="s1",
        text=DESCRIPTION + "\n\n" + ENTRY, quality="primary", quality_reason="",
    )  # fmt: skip
    # "What is meant by reader objects in reading and writing CSV files with Python's csv module?"
    question = ["reader", "object", "read", "writ", "csv", "fil", "python", "modul"]
    weights = {t: MODIFIER_WEIGHT for t in question if t not in {"reader", "object"}}
    plain, _ = best_spans(doc, [question], limit=1)
    weighted, _ = best_spans(doc, [question], limit=1, weights=weights)
    assert "This module provides" in doc.text[plain[0][0] : plain[0][1]]
    assert "reader object" in doc.text[weighted[0][0] : weighted[0][1]]
