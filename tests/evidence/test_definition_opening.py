"""A definition question reads the opening of the section named for the thing it asks about
(evidence/kq_research.py ``_own_section_opening``; docs/evidence.md, "Finding passages")."""

from __future__ import annotations

import asyncio
from pathlib import Path

from autodidact.config import Settings
from autodidact.evidence.agent import gather
from autodidact.evidence.payload import parse_payload
from autodidact.llm.runtime import Runtime

from .conftest import make_payload

OPENING = "*__slots__* allow us to explicitly declare data members and deny the creation of a per-instance dictionary."
NOTES = [
    "When inheriting from a class without *__slots__*, the dictionary attribute of the instances is always there.",
    "Without a dictionary variable, instances cannot be assigned new variables not listed in *__slots__*.",
    "*__slots__* are implemented at the class level by creating descriptors for each variable name in *__slots__*.",
    "The action of a *__slots__* declaration is not limited to the class where *__slots__* is defined.",
    "*__slots__* declared in parents are available in child classes that declare *__slots__* of their own.",
    "A TypeError is raised if nonempty *__slots__* are defined for a class derived from a variable-length type.",
    "Any non-string iterable may be assigned to *__slots__*, and a mapping gives *__slots__* docstrings.",
    "Class assignment works only if both classes have the same *__slots__* and the same layout of *__slots__*.",
]


def _page() -> str:
    notes = "\n\n".join(f"* {n} Notes on *__slots__* repeat *__slots__* here." for n in NOTES * 3)
    return f"# __slots__\n\n{OPENING} The space saved can be significant.\n\nNotes on using *__slots__*:\n\n{notes}\n"


def test_a_definition_question_reads_the_opening_of_the_section_named_for_it(tmp_path: Path) -> None:
    from autodidact.sources.ingest import index_corpus

    corpus = tmp_path / "reference"
    corpus.mkdir()
    (corpus / "slots.md").write_text(_page(), encoding="utf-8")
    report = tmp_path / "report"
    index_corpus(report, [corpus], name="reference")
    payload = make_payload(
        report, key_questions=[{"id": "kq1", "text": "What is the definition of __slots__?"}], name="Slots"
    )
    result = asyncio.run(gather(parse_payload(payload), runtime=Runtime(), settings=Settings()))
    quotes = [" ".join(e["snippet"].split()) for c in result.evidence.to_json()["claims"] for e in c["evidence"]]
    assert any(q.startswith("*__slots__* allow us to explicitly declare data members") for q in quotes), quotes
