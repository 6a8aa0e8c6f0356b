"""What a reader sees of offline-written report elements (report/elements.py, report/quoted_markdown.py,
text/sections.py): headings without permalinks, source escapes shown once, each bullet once,
findings without the synthesis's bookkeeping (docs/writing.md)."""

from __future__ import annotations

from typing import Any

from autodidact.evidence.models import EvidenceFile, KeyFinding
from autodidact.plan.offline import offline_plan
from autodidact.report.citations import Citer
from autodidact.report.elements import findings_list, risk_list
from autodidact.report.quoted_markdown import inline
from autodidact.testing.evidence_files import claim, evidence_file, item, source
from autodidact.text.keypoints import key_points_question
from autodidact.text.sections import bare_heading, headings


def test_a_sphinx_permalink_is_not_part_of_a_heading() -> None:
    text = "# 5. Data Structures¶\n\nLists are mutable.\n\n## 5.3. Tuples and Sequences¶\n\nTuples are immutable.\n"
    assert [h.title for h in headings(text)] == ["5. Data Structures", "5.3. Tuples and Sequences"]
    assert bare_heading("Data Structures › 5.3. Tuples and Sequences¶") == "Tuples and Sequences"
    assert "¶" not in key_points_question(bare_heading("5.3. Tuples and Sequences¶"), "en")


def test_a_source_escape_is_shown_once() -> None:
    assert inline(r"so \[0\] \* 3 gives a list") == r"so \[0\] \* 3 gives a list"
    assert inline("a *word* and **bold** stay plain") == "a word and bold stay plain"
    assert inline("see [1] here") == r"see \[1\] here"  # no marker can be forged


def _evidence(dim_id: str, claims: list[tuple[str, str]]) -> EvidenceFile:
    found = [claim(f"{dim_id}.{cid}", text, kq=None, snippets=["quoted"], polarity="refute") for cid, text in claims]
    finding = KeyFinding(
        finding=f"On 'What is it?': According to Data Structures: {claims[0][1]} (2 claims from 1 source)",
        claim_ids=[found[0].id],
    )
    ds = source("s1", "https://example.org/ds", title="Data Structures")
    return evidence_file(found, [ds], dimension_id=dim_id, key_findings=[finding])


def test_each_bullet_once_and_findings_read_as_statements() -> None:
    plan = offline_plan("Python lists vs tuples: mutability and performance", "en")
    same = "However, tuples cannot be modified in place."
    evidences = {d.id: _evidence(d.id, [("c1", same), ("c2", f"Claim of {d.id} alone.")]) for d in plan.dimensions}
    citer = Citer(evidences)
    risks = risk_list("Risks and limits", plan, evidences, citer, "en")
    assert sum(1 for line in risks if same.rstrip(".") in line) == 1
    findings = findings_list(plan, evidences, citer, "en")
    assert findings and not any("On '" in f or "claims from" in f or "According to" in f for f in findings)
    assert sum(1 for line in findings if same.rstrip(".") in line) == 1


def test_a_compared_object_is_found_by_its_own_words() -> None:
    """ "Lists are mutable" is about "Python lists": the row is not empty because the claim does not
    spell out "python lists"; and the facet list after the colon is no object of research."""
    from autodidact.report.elements import comparison_table

    plan = offline_plan("Compare Python lists and tuples: mutability, performance and when to use each", "en")
    assert plan.scope.objects == ["Python lists", "tuples"]
    dim = plan.dimensions[0].id
    evidences = {dim: _evidence(dim, [("c1", "Lists are mutable sequences."), ("c2", "Tuples are immutable.")])}
    rows = comparison_table(plan, evidences, Citer(evidences), "en")
    lists_row = next(r for r in rows if r.startswith("| Python lists"))
    assert "Lists are mutable" in lists_row and "Tuples are immutable" not in lists_row


def test_a_dunder_name_is_code_not_bold() -> None:
    assert inline("__init__(self, name, level=0) Initialize the handler") == (
        "`__init__`(self, name, level=0) Initialize the handler"
    )
    assert inline("a __bold phrase__ stays plain") == "a bold phrase stays plain"


def test_a_question_one_dimension_answered_is_no_gap_of_another() -> None:
    from autodidact.report.compose import _gaps

    plan = offline_plan("How does Debian package management work: dpkg vs apt, version pinning?", "en")
    first, second = plan.dimensions[0], plan.dimensions[1]
    shared = "What are the key points of “Tweaking candidate version”?"
    plan = plan.model_copy(
        update={
            "dimensions": [
                first.model_copy(update={"key_questions": [first.key_questions[0], shared]}),
                second.model_copy(update={"key_questions": [second.key_questions[0], shared]}),
                *plan.dimensions[2:],
            ]
        }
    )
    answered = _evidence(first.id, [("c1", "Pin-Priority decides the candidate version.")])
    answered.claims[0].answers_key_question = "kq2"
    unanswered = _evidence(second.id, [("c1", "Pinning keeps a package at one version.")])
    unanswered.claims[0].answers_key_question = "kq1"
    gaps = _gaps(plan, {first.id: answered, second.id: unanswered}, "en")
    assert not any("Tweaking candidate version" in g for g in gaps), gaps
    assert any(first.key_questions[0][:30] in g for g in gaps)  # a real gap is still listed


def test_a_reference_is_one_section_of_a_long_document(tmp_path: Any) -> None:
    """A report built on one 40-page chapter had one "[1]" for sixty claims: each section a quote
    stands in is a reference of its own, named in the references, and the opening is the document."""
    from autodidact.report.pipeline import snapshot_sections
    from autodidact.report.references import bibtex, csl_json, enrich, markdown_lines
    from autodidact.sources.snapshots import SnapshotStore

    filler = "Each archive is listed with its suite, its components and the keys that sign it. " * 8
    text = (
        f"# Chapter 2. Packages\n\nThis chapter is about packages. {filler}\n\n"
        f"### 2.7.3. Tweaking candidate version\n\nThe default Pin-Priority is 500. {filler}\n\n"
        f"### 2.7.4. Upgrades\n\nUse apt full-upgrade to upgrade. {filler}\n"
    )
    snap, _ = SnapshotStore.for_folder(tmp_path).store("https://autodidact.invalid/corpus/ch02.html", text)
    ref = snap.snapshot_ref

    def quoting(n: int, quote: str) -> Any:
        return claim(f"d1.c{n}", quote, kq=None, evidence=[item(quote, "ch02", snapshot_ref=ref)])

    quotes = ["This chapter is about packages.", "The default Pin-Priority is 500.", "Use apt full-upgrade to upgrade."]
    ch02 = source("ch02", "https://autodidact.invalid/corpus/ch02.html", title="Chapter 2. Packages")
    evidences = {"d1": evidence_file([quoting(i + 1, q) for i, q in enumerate(quotes)], [ch02])}
    citer = Citer(evidences, snapshot_sections(tmp_path))
    assert [citer.numbers([f"d1.c{i}"]) for i in (1, 2, 3, 2)] == [[1], [2], [3], [2]]
    entries = citer.as_json()["citations"]
    enrich(entries, {}, "2026-12-05")
    assert "section" not in entries[0] and entries[1]["section"] == "2.7.3. Tweaking candidate version"
    assert "Section “2.7.4. Upgrades”" in markdown_lines(entries, {}, "en")[4]
    assert "chapter = {{2.7.3. Tweaking candidate version}}" in bibtex(entries)
    assert csl_json(entries)[2]["section"] == "2.7.4. Upgrades"
    # without sections (no snapshot to read), one number per document as before
    assert Citer(evidences).numbers(["d1.c1", "d1.c2", "d1.c3"]) == [1]
