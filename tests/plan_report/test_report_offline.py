"""The offline report pipeline over real corpora: validity, citations, snapshots, order, language."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from autodidact.config import Settings
from autodidact.evidence.validator import validate_evidence
from autodidact.llm.runtime import Runtime
from autodidact.plan.validate import validate_plan
from autodidact.report.citations import check_citations
from autodidact.report.pipeline import NullReporter, ReportResult, run_report_sync
from autodidact.sources.snapshots import SnapshotStore, quote_in_text
from autodidact.testing.corpora import debian_reference_zh_files, write_pydoc_corpus

CITE = re.compile(r"(?<!\\)\[(\d+)\]")


class Recorder(NullReporter):
    """Records every pipeline event in order."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def dimension_started(self, dim_id: str, name: str, mode: str) -> None:
        self.events.append(("started", dim_id))

    def dimension_done(self, dim_id: str, stats: dict[str, Any]) -> None:
        self.events.append(("done", dim_id))

    def dimension_skipped(self, dim_id: str, reason: str) -> None:
        self.events.append(("skipped", dim_id))


@pytest.fixture(scope="module")
def pydoc_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pydoc")
    write_pydoc_corpus(folder)
    return folder


@pytest.fixture(scope="module")
def en_report(tmp_path_factory: pytest.TempPathFactory, pydoc_corpus: Path) -> tuple[Path, ReportResult, Recorder]:
    out = tmp_path_factory.mktemp("report") / "rep"
    recorder = Recorder()
    result = run_report_sync(
        "Compare lists and dictionaries in Python",
        report_dir=out,
        runtime=Runtime(),
        settings=Settings(),
        corpus=[pydoc_corpus],
        mode="normal",
        reporter=recorder,
    )
    return out, result, recorder


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _evidences(rep: Path) -> dict[str, dict[str, Any]]:
    return {p.name.split(".")[0]: _load(p) for p in sorted((rep / "sub_reports").glob("*.evidence.json"))}


def test_plan_and_every_evidence_file_are_valid(en_report: tuple[Path, ReportResult, Recorder]) -> None:
    rep, result, _ = en_report
    assert not result.failed
    plan = _load(rep / "plan.json")
    assert validate_plan(plan).ok
    assert all(d["status"] == "done" for d in plan["dimensions"])
    evidences = _evidences(rep)
    assert set(evidences) == {d["id"] for d in plan["dimensions"]}
    for dim in plan["dimensions"]:
        ups = {d["dimension_id"]: evidences[d["dimension_id"]] for d in dim["dependency_inputs"]}
        report = validate_evidence(
            evidences[dim["id"]],
            source_cache=rep / "source_cache",
            plan=plan,
            expected_mode=evidences[dim["id"]]["mode"],
            require_version="1.2",
            upstream=ups,
        )
        assert report.ok, report.errors


def test_every_citation_resolves_and_none_is_orphaned(en_report: tuple[Path, ReportResult, Recorder]) -> None:
    rep, result, _ = en_report
    text = (rep / "report.md").read_text(encoding="utf-8")
    entries = _load(rep / "citations.json")["citations"]
    numbers = [e["n"] for e in entries]
    assert numbers == list(range(1, len(entries) + 1)) and len(entries) == result.citations >= 3
    first_use: list[int] = []
    for m in CITE.finditer(text):
        if int(m.group(1)) not in first_use:
            first_use.append(int(m.group(1)))
    assert first_use == numbers  # every number used, every use has an entry, numbered by first appearance
    assert check_citations(text, {"citations": entries}) == []
    assert check_citations(text + "\nStray [99].\n", {"citations": entries}) == ["[99] has no citation entry"]
    refs_section = text.split("## References", 1)[1]
    assert all(f"[{n}] " in refs_section for n in numbers)


def test_cited_claims_verify_against_their_snapshots(en_report: tuple[Path, ReportResult, Recorder]) -> None:
    rep, _, _ = en_report
    evidences = _evidences(rep)
    claims = {c["id"]: (dim, c) for dim, ev in evidences.items() for c in ev["claims"]}
    store = SnapshotStore.for_folder(rep)
    checked = 0
    for entry in _load(rep / "citations.json")["citations"]:
        assert entry["claim_ids"] and entry["snapshot_refs"]
        refs_seen: set[str] = set()
        for cid in entry["claim_ids"]:
            dim, claim = claims[cid]
            sources = {s["id"]: s for s in evidences[dim]["sources"]}
            for item in claim["evidence"]:
                src = sources[item["source_id"]]
                store.verify(item["snapshot_ref"], url=src["url"])
                if src["url"] == entry["url"]:
                    refs_seen.add(item["snapshot_ref"])
                if item["quote_type"] in {"direct", "numeric"}:
                    assert quote_in_text(item["snippet"], store.read(item["snapshot_ref"]))
                checked += 1
        assert set(entry["snapshot_refs"]) <= refs_seen
    assert checked >= 3


def test_outputs_follow_the_shape_and_folder_is_self_contained(en_report: tuple[Path, ReportResult, Recorder]) -> None:
    rep, _, _ = en_report
    plan = _load(rep / "plan.json")
    text = (rep / "report.md").read_text(encoding="utf-8")
    assert plan["report_shape"]["report_type"] == "comparison"
    for section in plan["report_shape"]["sections"]:
        assert f"\n## {section}\n" in text
    # the comparison table is built from claims and cites them
    table = text.split("**Comparison table", 1)[1].split("\n\n", 2)[1]
    assert table.startswith("| Candidate |") and CITE.search(table)
    assert "| lists |" in table and "| dictionaries |" in table
    for dim in plan["dimensions"]:
        sub = (rep / "sub_reports" / f"{dim['id']}.md").read_text(encoding="utf-8")
        for heading in (
            "Key questions",
            "Search coverage",
            "Evidence table",
            "Key findings",
            "Analysis",
            "Contribution to the report",
            "Uncertainties and gaps",
            "Questions for later dimensions",
        ):
            assert f"\n## {heading}\n" in sub, (dim["id"], heading)  # fmt: skip
    html = (rep / "report.html").read_text(encoding="utf-8")
    assert "<script" not in html and 'id="ref-1"' in html and 'href="#ref-1"' in html
    for path in rep.rglob("*"):
        if path.is_file() and path.suffix in {".md", ".json", ".html"}:
            assert str(rep.parent) not in path.read_text(encoding="utf-8"), path


def test_downstream_starts_after_upstream_and_uses_it(en_report: tuple[Path, ReportResult, Recorder]) -> None:
    rep, _, recorder = en_report
    plan = _load(rep / "plan.json")
    evidences = _evidences(rep)
    events = recorder.events
    with_deps = [d for d in plan["dimensions"] if d["dependency_inputs"]]
    assert with_deps
    for dim in with_deps:
        started = events.index(("started", dim["id"]))
        expected = set()
        for dep in dim["dependency_inputs"]:
            assert events.index(("done", dep["dimension_id"])) < started
            expected.add((dep["dimension_id"], dep["needed_for"]))
        usage = evidences[dim["id"]]["upstream_usage"]
        assert {(u["dimension_id"], u["needed_for"]) for u in usage} == expected
        for u in usage:
            upstream_ids = {c["id"] for c in evidences[u["dimension_id"]]["claims"]}
            assert set(u["consumed_claim_ids"]) <= upstream_ids


class Killed(Exception):
    """Stands for the process being killed right after a dimension finished."""


class StopAfterFirst(Recorder):
    """Simulates a kill: raises as soon as the first dimension is recorded as done."""

    def dimension_done(self, dim_id: str, stats: dict[str, Any]) -> None:
        super().dimension_done(dim_id, stats)
        raise Killed(dim_id)


def test_interrupted_run_resumes_without_redoing_finished_dimensions(tmp_path: Path, pydoc_corpus: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for path in sorted(pydoc_corpus.glob("*.md"))[:60]:
        (corpus / path.name).write_bytes(path.read_bytes())
    out = tmp_path / "rep"
    kwargs: dict[str, Any] = {"report_dir": out, "settings": Settings(), "corpus": [corpus], "mode": "normal"}
    request = "How does Python exception handling work?"
    stopper = StopAfterFirst()
    with pytest.raises(Killed):
        run_report_sync(request, runtime=Runtime(), reporter=stopper, **kwargs)
    first = next(d for kind, d in stopper.events if kind == "done")
    plan = _load(out / "plan.json")
    status = {d["id"]: d["status"] for d in plan["dimensions"]}
    assert status[first] == "done"
    assert not (out / "report.md").exists()
    finished = [d for d, s in status.items() if s == "done"]
    before = {d: (out / "sub_reports" / f"{d}.evidence.json").stat().st_mtime_ns for d in finished}

    recorder = Recorder()
    result = run_report_sync(request, runtime=Runtime(), reporter=recorder, **kwargs)
    assert set(result.reused) == set(finished)
    assert not set(result.ran) & set(finished)
    assert all(("started", d) not in recorder.events for d in finished)
    assert set(result.ran) | set(result.reused) == set(status)
    for d, mtime in before.items():
        assert (out / "sub_reports" / f"{d}.evidence.json").stat().st_mtime_ns == mtime
    assert (out / "report.md").is_file()

    # a third run with everything valid redoes nothing, even if a status was left at "running"
    plan = _load(out / "plan.json")
    plan["dimensions"][0]["status"] = "running"
    (out / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    again = run_report_sync(request, runtime=Runtime(), reporter=Recorder(), **kwargs)
    assert again.ran == [] and set(again.reused) == set(status)

    # an evidence file that no longer validates (a quote edited away from its snapshot) is redone, alone
    last = plan["execution_order"][-1]
    path = out / "sub_reports" / f"{last}.evidence.json"
    data = _load(path)
    data["claims"][0]["evidence"][0]["snippet"] = "A sentence that no snapshot contains."
    data["claims"][0]["evidence"][0]["quote_type"] = "direct"
    path.write_text(json.dumps(data), encoding="utf-8")
    fixed = run_report_sync(request, runtime=Runtime(), reporter=Recorder(), **kwargs)
    assert fixed.ran == [last] and set(fixed.reused) == set(status) - {last}
    report = validate_evidence(path, source_cache=out / "source_cache", expected_mode=_load(path)["mode"])
    assert report.ok


@pytest.mark.skipif(not debian_reference_zh_files(), reason="debian-reference-zh-cn is not installed")
def test_chinese_request_gives_chinese_plan_and_report(tmp_path: Path) -> None:
    files = [p for p in debian_reference_zh_files() if p.name.startswith(("ch01", "ch02"))]
    out = tmp_path / "zh"
    result = run_report_sync(
        "Debian 软件包管理（apt）的工作原理",
        report_dir=out,
        runtime=Runtime(),
        settings=Settings(),
        corpus=files,
        reporter=NullReporter(),
    )
    assert not result.failed
    plan = _load(out / "plan.json")
    assert plan["language"] == "zh" and validate_plan(plan).ok
    text = (out / "report.md").read_text(encoding="utf-8")
    assert text.startswith("# 研究报告：")
    assert "\n## 参考文献\n" in text and "\n## References\n" not in text
    for section in plan["report_shape"]["sections"]:
        assert f"\n## {section}\n" in text
    prose = [line for line in text.splitlines() if line and not line.startswith(("|", "[", "*"))]
    cjk = sum(1 for line in prose if re.search(r"[\u4e00-\u9fff]", line))
    assert cjk / len(prose) > 0.9
    assert check_citations(text, _load(out / "citations.json")) == []
    sub = (out / "sub_reports" / "d1.md").read_text(encoding="utf-8")
    assert "\n## 关键问题\n" in sub and "\n## 留给后续维度的问题\n" in sub
