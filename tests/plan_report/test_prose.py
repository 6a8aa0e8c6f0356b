"""The report's prose rests on verified claims: drop rules, the offline writer's rendering, verify.

Model runs use the ScriptedModel answering from its prompt (testing/evidence_model.py), which with
``fabricate=True`` proposes one sentence per drop rule next to the good ones (docs/writing.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autodidact.config import ReportSettings, Settings
from autodidact.evidence.prose import (
    NO_CLAIM,
    UNKNOWN_CLAIM,
    UNSUPPORTED,
    admit,
    offline_sentences,
    plain,
    quotes_of,
    row_sentence,
)
from autodidact.evidence.write_task import ClaimIn
from autodidact.llm.base import Request
from autodidact.llm.ledger import read_totals
from autodidact.llm.runtime import Runtime
from autodidact.plan.offline import offline_plan
from autodidact.report.pipeline import NullReporter, run_report_sync
from autodidact.report.quoted_markdown import inline
from autodidact.report.references import clean_title, location
from autodidact.testing.corpora import write_pydoc_corpus
from autodidact.testing.evidence_files import claim, evidence_file, source
from autodidact.testing.evidence_model import FABRICATED
from autodidact.testing.evidence_model import reply as evidence_reply
from autodidact.testing.scripted import ScriptedModel
from autodidact.verify.checks import VerifyReport, check_report_folder

REQUEST = "How do Python generators work?"

CLAIMS = {
    "d1.c1": claim(
        "d1.c1",
        "According to Generators: A generator function returns a generator iterator.",
        snippets=["A generator function returns a generator iterator."],
    ),
    "d1.c2": claim(
        "d1.c2",
        "According to Generators: Calling next() resumes it; PEP 255 added them.",
        snippets=["Calling next() resumes it; PEP 255 added them."],
    ),
}


def test_admit_drops_uncited_unknown_unsupported_and_invented_numbers() -> None:
    written = admit(
        [
            ("A generator function returns a generator iterator.", ["d1.c1"]),
            ("Generators are always faster than lists.", []),
            ("A generator function returns a generator iterator.", ["d1.c9"]),
            ("Generators replace threads in every web server.", ["d1.c1"]),
            ("PEP 342 added generators.", ["d1.c2"]),  # the quote says 255
            ("Calling next() resumes it, as PEP 255 added them.", ["d1.c2"]),
        ],
        {cid: quotes_of(c) for cid, c in CLAIMS.items()},
    )
    assert [s.claim_ids for s in written.sentences] == [("d1.c1",), ("d1.c2",)]
    assert written.dropped == {NO_CLAIM: 1, UNKNOWN_CLAIM: 1, UNSUPPORTED: 2}


def test_the_offline_writer_reads_plainly() -> None:
    assert plain("According to Debian package management: dpkg is low level.") == "dpkg is low level."
    assert plain("据《Debian 软件包管理》：dpkg 是底层工具。") == "dpkg 是底层工具。"
    # Code stays code; the source's emphasis becomes plain words; a lone * cannot start italics.
    assert inline("The **basic** tool `apt-get` uses *package* and a lone * here") == (
        "The basic tool `apt-get` uses package and a lone \\* here"
    )
    assert inline("see [1] and <b>") == "see \\[1\\] and \\<b\\>"  # no forged marker, no HTML
    assert row_sentence("`dpkg -L` name | list contents of an installed package |") == (
        "`dpkg -L` name: list contents of an installed package"
    )
    # A claim that another one of the same block already says is written once (the longer stays).
    claims = [
        ClaimIn("a", "According to X: I edit the file.", "", ""),
        ClaimIn("b", "According to X: I edit the file. This avoids a slow update.", "", ""),
        ClaimIn("c", "According to X: Something else.", "", ""),
    ]
    assert [s.claim_ids for s in offline_sentences(claims)] == [("b",), ("c",)]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    full = tmp_path_factory.mktemp("pydoc_all")
    write_pydoc_corpus(full)
    small = tmp_path_factory.mktemp("pydoc_gen")
    for path in sorted(full.iterdir()):
        if path.name.startswith(("yield", "types--generator", "return", "for", "expressions")):
            (small / path.name).write_bytes(path.read_bytes())
    return small


def _model(fabricate: bool, refuse_first: bool = False) -> ScriptedModel:
    def answer(request: Request) -> str:
        if request.task == "plan.create":
            return json.dumps(offline_plan(REQUEST, "en").to_json())
        if refuse_first and request.task == "report.judge_support":
            reply = json.loads(evidence_reply(list(request.messages)))
            reply["verdicts"][0]["supported"] = False
            return json.dumps(reply)
        return evidence_reply(list(request.messages), fabricate=fabricate and request.task == "report.write_section")

    return ScriptedModel(fn=answer)


def _run(out: Path, corpus: Path, model: ScriptedModel, **report: Any) -> dict[str, Any]:
    settings = Settings(report=ReportSettings(**report))
    runtime = Runtime(model, ledger_path=out.parent / f"{out.name}-ledger.jsonl")
    run_report_sync(REQUEST, runtime=runtime, reporter=NullReporter(), report_dir=out, settings=settings,
                    corpus=[corpus])  # fmt: skip
    return dict(json.loads((out / "prose.json").read_text(encoding="utf-8")))


def _verify(out: Path) -> list[str]:
    report = VerifyReport(out)
    check_report_folder(out, report)
    return [p.message for p in report.problems]


def test_a_model_writes_the_prose_and_every_unbacked_sentence_is_dropped(tmp_path: Path, corpus: Path) -> None:
    out = tmp_path / "rep"
    model = _model(fabricate=True)
    record = _run(out, corpus, model)
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert any(r.task == "report.write_section" for r in model.requests)
    model_rows = [r for r in record["sentences"] if r["engine"] == "model"]
    assert model_rows and all(r["claim_ids"] for r in record["sentences"])
    assert FABRICATED not in markdown and "fastest construct" not in markdown
    assert record["dropped"][NO_CLAIM] >= 1 and record["dropped"][UNKNOWN_CLAIM] >= 1
    assert record["dropped"][UNSUPPORTED] >= 1
    assert "proposed sentences were not written" in markdown and "by the model" in markdown
    assert "According to" not in markdown.split("## References")[0]
    assert _verify(out) == []
    ledger = read_totals(tmp_path / "rep-ledger.jsonl")  # the drops are in the usage ledger too
    assert ledger["dropped"] == sum(record["dropped"].values())

    # Re-running the finished report reuses its prose: no model call at all.
    again = _model(fabricate=True)
    _run(out, corpus, again)
    assert again.requests == []


def test_verify_catches_an_edited_sentence_and_a_changed_claim(tmp_path: Path, corpus: Path) -> None:
    out = tmp_path / "rep"
    record = _run(out, corpus, _model(fabricate=False))
    row = next(r for r in record["sentences"] if r["engine"] == "model" and len(r["text"]) > 30)
    md = out / "report.md"
    text = md.read_text(encoding="utf-8")
    head = inline(row["text"])[:30]
    assert head in text
    md.write_text(text.replace(head, "Generators were invented in 1807", 1), encoding="utf-8")
    assert any("is not in report.md" in p for p in _verify(out))

    md.write_text(text, encoding="utf-8")
    record["sentences"][0]["claims"] = {i: "0" * 16 for i in record["sentences"][0]["claim_ids"]}
    (out / "prose.json").write_text(json.dumps(record), encoding="utf-8")
    assert any("whose quotes changed" in p for p in _verify(out))


def test_verify_catches_a_changed_tail_an_added_sentence_and_a_deleted_record(tmp_path: Path, corpus: Path) -> None:
    out = tmp_path / "rep"
    record = _run(out, corpus, _model(fabricate=False))
    md = out / "report.md"
    text = md.read_text(encoding="utf-8")
    assert _verify(out) == []
    row = max(record["sentences"], key=lambda r: len(r["text"]))
    tail = inline(row["text"])[-12:].rstrip(".")  # past the first characters verify compares
    assert tail in text
    md.write_text(text.replace(tail, " never by indexing", 1), encoding="utf-8")
    assert any("report.md changed since it was written" in p for p in _verify(out))
    md.write_text(
        text.replace("\n## References", "\nGenerators were invented in 1807 by Napoleon [1].\n\n## References")
    )
    assert any("report.md changed since it was written" in p for p in _verify(out))
    md.write_text(text, encoding="utf-8")
    (out / "prose.json").unlink()
    assert any("nothing can re-prove" in p for p in _verify(out))


def test_verify_reports_a_damaged_evidence_file_by_its_rule_code_only(tmp_path: Path, corpus: Path) -> None:
    """A file the evidence loader refuses is the validator's finding (a rule code), not a crash and
    not a list of sentences "citing claims no file holds": its claims are still there, damaged."""
    out = tmp_path / "rep"
    _run(out, corpus, _model(fabricate=False))
    path = next(p for p in sorted((out / "sub_reports").glob("*.evidence.json")))
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["claims"][0]["kind"]
    path.write_text(json.dumps(data), encoding="utf-8")
    problems = _verify(out)
    assert len(problems) == 1 and problems[0].startswith("V025 ")


def test_check_support_drops_what_the_judge_refuses(tmp_path: Path, corpus: Path) -> None:
    out = tmp_path / "rep"
    model = _model(fabricate=False, refuse_first=True)
    record = _run(out, corpus, model, check_support=True)
    assert any(r.task == "report.judge_support" for r in model.requests)
    assert record["dropped"].get("judged unsupported", 0) >= 1
    assert _verify(out) == []


def test_a_model_that_writes_nothing_usable_leaves_the_offline_writer_in_charge(tmp_path: Path, corpus: Path) -> None:
    def answer(request: Request) -> str:
        if request.task == "report.write_section":
            return json.dumps({"sentences": [{"text": "Generators are magic.", "claim_ids": []}]})
        if request.task == "plan.create":
            return json.dumps(offline_plan(REQUEST, "en").to_json())
        return evidence_reply(list(request.messages), fabricate=False)

    out = tmp_path / "rep"
    record = _run(out, corpus, ScriptedModel(fn=answer))
    assert record["sentences"] and {r["engine"] for r in record["sentences"]} == {"offline"}
    assert "magic" not in (out / "report.md").read_text(encoding="utf-8")
    assert record["dropped"][NO_CLAIM] >= 1
    assert _verify(out) == []


# -- references ----------------------------------------------------------------------------------


def test_reference_titles_and_locations_are_what_a_reader_can_use() -> None:
    assert clean_title("5. Data Structures¶ › 5.1. More on Lists") == "Data Structures"
    assert (
        clean_title("Chapter 2. Debian package management › 2.7.3. Tweaking") == "Chapter 2. Debian package management"
    )
    assert clean_title("Generators [1] guide") == "Generators guide"
    assert location("https://autodidact.invalid/corpus/sub/ch02.en.html") == "sub/ch02.en.html"
    assert location("https://docs.python.org/3/") == "https://docs.python.org/3/"


def test_references_parse_as_bibtex_and_csl_json_and_link_back(tmp_path: Path, corpus: Path) -> None:
    from citeproc.source.json import CiteProcJSON
    from pybtex.database import parse_string

    out = tmp_path / "rep"
    _run(out, corpus, _model(fabricate=False))
    citations = json.loads((out / "citations.json").read_text(encoding="utf-8"))["citations"]
    assert citations and all({"author", "published_at", "accessed_at", "location"} <= set(c) for c in citations)
    bib = parse_string((out / "references.bib").read_text(encoding="utf-8"), "bibtex")
    assert sorted(bib.entries) == sorted(f"ref{c['n']}" for c in citations)
    assert bib.entries["ref1"].fields["title"].strip("{}") == citations[0]["title"]
    items = json.loads((out / "references.json").read_text(encoding="utf-8"))
    source = CiteProcJSON(items)
    assert [str(source[f"ref{c['n']}"]["title"]) for c in citations] == [c["title"] for c in citations]
    markdown = (out / "report.md").read_text(encoding="utf-8")
    refs = markdown.split("## References")[1]
    assert "autodidact.invalid" not in refs  # a placeholder URL is never shown
    assert "Local document `" in refs and "[Snapshot](source_cache/" in refs
    assert "Cited in: [" in refs and "](#" in refs
    html = (out / "report.html").read_text(encoding="utf-8")
    assert 'id="executive-summary"' in html


def test_blocks_the_runtime_wrote_offline_are_labelled_offline(tmp_path: Path, corpus: Path) -> None:
    from autodidact.config import ModelSettings

    out = tmp_path / "rep"
    model = _model(fabricate=False)
    runtime = Runtime(model, settings=ModelSettings(step_calls=0))  # every step's budget is spent at once
    run_report_sync(REQUEST, runtime=runtime, reporter=NullReporter(), report_dir=out, settings=Settings(),
                    corpus=[corpus])  # fmt: skip
    record = json.loads((out / "prose.json").read_text(encoding="utf-8"))
    assert record["sentences"] and {r["engine"] for r in record["sentences"]} == {"offline"}
    assert not any(r.task == "report.write_section" for r in model.requests)


def test_verify_reads_a_sentence_as_the_citer_wrote_it() -> None:
    # The citer drops a final "!" (or "；") before its marker; a fresh report must verify.
    from autodidact.report.citations import Citer
    from autodidact.report.writing import _fingerprint, check_prose

    found = claim("d1.c1", "According to logging: Simply import logging and log away!",
                  snippets=["Simply import logging and log away!"])  # fmt: skip
    evidences = {"d1": evidence_file([found], [source("s1", "https://e.org/a", title="logging")])}
    text = plain(found.text)
    rendered = Citer(evidences).sentence(text, ["d1.c1"], "en")
    assert rendered == "Simply import logging and log away [1]."
    record = {"sentences": [{"block": "d1/kq1", "text": text, "claim_ids": ["d1.c1"], "engine": "offline",
                             "claims": {"d1.c1": _fingerprint(found)}}]}  # fmt: skip
    assert check_prose(record, evidences, f"# R\n\n{rendered}\n") == []
    assert check_prose(record, evidences, "# R\n\nSomething else [1].\n")  # an edited sentence still fails


def test_a_missing_corpus_path_is_refused_before_the_report_folder_exists(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from autodidact.cli import app

    out = tmp_path / "rep"
    result = CliRunner().invoke(app, ["report", REQUEST, "--corpus", str(tmp_path / "nope"), "--report-dir", str(out)])
    assert result.exit_code == 2 and "corpus path" in result.output and "does not exist" in result.output
    assert not out.exists()  # nothing left behind


def test_a_claims_table_names_what_each_row_answers_not_an_internal_tag(tmp_path: Path, corpus: Path) -> None:
    out = tmp_path / "rep"
    run_report_sync(REQUEST, runtime=Runtime(), reporter=NullReporter(), report_dir=out, settings=Settings(),
                    corpus=[corpus])  # fmt: skip
    markdown = (out / "report.md").read_text(encoding="utf-8")
    table = markdown.split("**Concept table (term, definition, source)**")[1].split("\n\n")[1]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert rows and all(line.split("|")[1].strip().endswith("?") for line in rows), rows[:2]


@pytest.mark.parametrize("shape", ["[1, 2]", '{"citations": 3}', '{"citations": [{"n": "1"}]}'])
def test_verify_reports_a_citations_file_of_another_shape_in_one_line(tmp_path: Path, corpus: Path, shape: str) -> None:
    """Valid JSON that is no citations object had crashed verify with an AttributeError."""
    out = tmp_path / "rep"
    _run(out, corpus, _model(fabricate=False))
    (out / "citations.json").write_text(shape, encoding="utf-8")
    problems = _verify(out)
    assert any('"citations" list of numbered entries' in p for p in problems), problems
