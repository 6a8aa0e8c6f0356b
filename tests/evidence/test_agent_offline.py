"""The research agent on the offline engine over the Python-docs corpus (no model, no network)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from autodidact.config import Settings
from autodidact.errors import InputError, NotFoundError
from autodidact.evidence.agent import GatherResult, gather
from autodidact.evidence.files import load_evidence
from autodidact.evidence.payload import parse_payload
from autodidact.evidence.validator import validate_evidence
from autodidact.llm.runtime import Runtime
from autodidact.sources.snapshots import SnapshotStore, quote_in_text

from .conftest import KQ_UNANSWERABLE, Recorder, make_payload


def run(payload: dict[str, Any], **kw: Any) -> GatherResult:
    return asyncio.run(gather(parse_payload(payload), runtime=Runtime(), settings=Settings(), **kw))


def test_three_key_questions_offline_validate_via_cli(pydoc_report: Path, cli: Any) -> None:
    rec = Recorder()
    payload = make_payload(pydoc_report)
    payload["key_questions"].append(KQ_UNANSWERABLE)
    result = run(payload, reporter=rec)
    path = pydoc_report / "sub_reports" / "d1.evidence.json"
    assert result.path == path and path.is_file()
    res = cli(
        "evidence", "validate", str(path), "--source-cache", str(pydoc_report / "source_cache"),
        "--require-version", "1.2", "--expected-mode", "initial",
    )  # fmt: skip
    assert res.exit_code == 0, res.stdout
    evidence = json.loads(path.read_text(encoding="utf-8"))
    assert evidence == result.evidence.to_json()  # the file is the typed result's JSON form, byte for byte:
    assert path.read_text("utf-8") == json.dumps(evidence, ensure_ascii=False, indent=2) + "\n"
    assert load_evidence(path) == result.evidence
    store = SnapshotStore.for_folder(pydoc_report)
    urls = {s["id"]: s["url"] for s in evidence["sources"]}
    for claim in evidence["claims"]:
        for ev in claim["evidence"]:
            assert ev["quote_type"] == "direct"
            assert quote_in_text(ev["snippet"], store.read(ev["snapshot_ref"], urls[ev["source_id"]]))
    answered = {c["answers_key_question"] for c in evidence["claims"]}
    gaps = {
        kq for w in evidence.get("writing_context", []) for kq in w["applies_to"] if w["kind"] == "availability_gap"
    }
    assert {"kq1", "kq2", "kq3"} <= answered
    assert "kq4" in gaps and "kq4" not in answered
    assert answered | gaps == {"kq1", "kq2", "kq3", "kq4"}
    # moderate depth: at least two distinct sources per answered question
    for kq in ("kq1", "kq2", "kq3"):
        srcs = {ev["source_id"] for c in evidence["claims"] if c["answers_key_question"] == kq for ev in c["evidence"]}
        assert len(srcs) >= 2, kq
    assert all(s["quality"] == "primary" for s in evidence["sources"])  # an official-docs corpus
    assert any("kq1" in line and "claim(s) kept" in line for line in rec.lines)
    assert {u.text_kind for u in result.used_sources} == {"corpus"}
    assert all(u.snapshot_ref.startswith("source_cache/") and u.kq_ids for u in result.used_sources)


def test_chinese_payload_writes_chinese_text(pydoc_report: Path) -> None:
    kqs = [
        {"id": "kq1", "text": "生成器函数中的 yield 表达式有什么作用？"},
        {"id": "kq2", "text": "with 语句如何使用上下文管理器（context manager）？"},
    ]
    result = run(make_payload(pydoc_report, language="zh", key_questions=kqs))
    ev = result.evidence.to_json()
    assert validate_evidence(ev, source_cache=pydoc_report / "source_cache").ok
    assert all(c["text"].startswith("据") for c in ev["claims"])
    assert "关键问题" in ev["headline"]


def test_quick_mode(pydoc_report: Path, cli: Any) -> None:
    payload = make_payload(pydoc_report, mode="quick", depth="skim")
    result = run(payload)
    ev = result.evidence.to_json()
    assert ev["mode"] == "quick" and ev["upstream_usage"] == []
    assert 1 <= len(ev["key_findings"]) <= 3
    for kq in ("kq1", "kq2", "kq3"):
        srcs = {e["source_id"] for c in ev["claims"] if c["answers_key_question"] == kq for e in c["evidence"]}
        assert len(srcs) <= 1, kq
    res = cli(
        "evidence", "validate", str(result.path), "--source-cache", str(pydoc_report),
        "--require-version", "1.2", "--expected-mode", "quick",
    )  # fmt: skip
    assert res.exit_code == 0, res.stdout


def test_supplement_keeps_earlier_claims_and_continues_numbering(pydoc_report: Path) -> None:
    first = run(make_payload(pydoc_report, key_questions=make_payload(pydoc_report)["key_questions"][:2]))
    before = first.evidence.claims
    top = max(int(c.id.split(".c")[1]) for c in before)
    second = run(make_payload(pydoc_report, mode="supplement"))
    after = second.evidence.claims
    assert second.path == first.path
    assert after[: len(before)] == before
    new = after[len(before) :]
    assert new, "the supplement added claims for kq3"
    assert [int(c.id.split(".c")[1]) for c in new] == list(range(top + 1, top + 1 + len(new)))
    assert any(c.answers_key_question == "kq3" for c in new)
    report = validate_evidence(second.evidence.to_json(), source_cache=pydoc_report, expected_mode="supplement")
    assert report.ok, report.errors


def test_supplement_without_a_file_is_an_error(pydoc_report: Path) -> None:
    with pytest.raises(NotFoundError, match="supplement"):
        run(make_payload(pydoc_report, mode="supplement"))


def test_downstream_consumes_only_claims_cited_by_upstream_findings(pydoc_report: Path, cli: Any) -> None:
    up = run(make_payload(pydoc_report))
    cited = {cid for kf in up.evidence.key_findings for cid in kf.claim_ids}
    all_ids = {c.id for c in up.evidence.claims}
    assert cited < all_ids or cited == all_ids
    inputs = [
        {
            "dimension_id": "d1",
            "evidence_path": "sub_reports/d1.evidence.json",
            "needed_for": "entity_selection",
            "consume": "key_findings",
            "scope_rule": "Only the statements d1 found for generators and context managers",
        }
    ]
    kqs = [{"id": "kq1", "text": "How does a generator's close method raise GeneratorExit?"}]
    down = run(make_payload(pydoc_report, dimension_id="d2", key_questions=kqs, upstream_inputs=inputs))
    usage = down.evidence.to_json()["upstream_usage"]
    assert len(usage) == 1 and usage[0]["dimension_id"] == "d1"
    assert usage[0]["needed_for"] == "entity_selection"
    assert set(usage[0]["consumed_claim_ids"]) <= cited
    assert usage[0]["scope_changes"] and usage[0]["skipped_searches"]
    plan = {
        "dimensions": [
            {"id": "d1", "dependency_inputs": []},
            {"id": "d2", "dependency_inputs": [{"dimension_id": "d1", "needed_for": "entity_selection"}]},
        ]
    }
    plan_path = pydoc_report / "plan.json"
    plan_path.write_text(json.dumps(plan), encoding="utf-8")
    res = cli(
        "evidence", "validate", str(down.path), "--source-cache", str(pydoc_report), "--plan", str(plan_path),
        "--upstream-evidence", str(up.path), "--require-version", "1.2",
    )  # fmt: skip
    assert res.exit_code == 0, res.stdout


def test_missing_upstream_is_an_error_naming_it(pydoc_report: Path) -> None:
    inputs = [
        {
            "dimension_id": "d1",
            "evidence_path": "sub_reports/d1.evidence.json",
            "needed_for": "time_window",
            "consume": "key_findings",
            "scope_rule": "Use the time window d1 established for releases",
        }
    ]
    with pytest.raises(NotFoundError) as info:
        run(make_payload(pydoc_report, dimension_id="d2", upstream_inputs=inputs))
    assert "d1" in info.value.message and "time_window" in info.value.message
    assert not (pydoc_report / "sub_reports" / "d2.evidence.json").exists()


def test_kb_index_passages_are_copied_into_the_report(pydoc_template: Path, tmp_path: Path) -> None:
    import shutil

    kb = tmp_path / "kb"
    shutil.copytree(pydoc_template, kb)
    report = tmp_path / "kb" / "reports" / "r1"
    result = run(make_payload(report, key_questions=make_payload(report)["key_questions"][:1]), kb_root=kb)
    refs = {e.snapshot_ref for c in result.evidence.claims for e in c.evidence}
    assert refs and all((report / r).is_file() for r in refs)
    assert validate_evidence(result.evidence.to_json(), source_cache=report / "source_cache").ok


def test_no_evidence_at_all_writes_nothing(pydoc_report: Path) -> None:
    from autodidact.errors import SourceError

    with pytest.raises(SourceError, match="no verifiable evidence"):
        run(make_payload(pydoc_report, key_questions=[KQ_UNANSWERABLE]))
    assert not (pydoc_report / "sub_reports" / "d1.evidence.json").exists()


def test_bad_payload_names_the_field(tmp_path: Path, cli: Any) -> None:
    with pytest.raises(InputError, match="depth"):
        parse_payload(make_payload(tmp_path, depth="deep"))
    with pytest.raises(InputError, match="key_questions"):
        parse_payload(make_payload(tmp_path, key_questions=[]))
    bad = tmp_path / "payload.json"
    bad.write_text(json.dumps(make_payload(tmp_path, dimension_id="dim1")), encoding="utf-8")
    res = cli("gather", "--payload", str(bad))
    assert res.exit_code == 2
    assert "dimension_id" in res.output


def test_gather_cli_offline(pydoc_report: Path, cli: Any) -> None:
    payload = pydoc_report / "payload.json"
    payload.write_text(json.dumps(make_payload(pydoc_report)), encoding="utf-8")
    out = pydoc_report / "custom.evidence.json"
    res = cli("gather", "--payload", str(payload), "--engine", "offline", "--out", str(out))
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["ok"] and summary["claims"] >= 3 and summary["path"] == str(out)
    assert "kq1" in res.stderr and "claim(s) kept" in res.stderr


def test_thorough_depth_reads_three_sources_per_question(pydoc_report: Path) -> None:
    kqs = make_payload(pydoc_report)["key_questions"][:2]
    result = run(make_payload(pydoc_report, key_questions=kqs, depth="thorough"))
    for kq in ("kq1", "kq2"):
        srcs = {e.source_id for c in result.evidence.claims if c.answers_key_question == kq for e in c.evidence}
        assert len(srcs) >= 3, kq
    assert validate_evidence(result.evidence.to_json(), source_cache=pydoc_report).ok


def test_raw_file_header_rating_sets_source_quality(tmp_path: Path) -> None:
    from autodidact.kb import init_kb
    from autodidact.sources.ingest import scan_raw
    from autodidact.sources.rawfiles import RawFile, write_raw_file

    kb, _ = init_kb(tmp_path / "kb", topic="generators", lang="en")
    body = (
        "A generator function returns a generator iterator when it is called, and each yield expression "
        "suspends the generator function until the next value is requested."
    )
    rf = RawFile(
        "", "Forum post on generators", "https://forum.example.net/t/42", "2024-05-01", quality="低", body=body
    )
    write_raw_file(kb.raw, rf)
    scan_raw(kb)
    kqs = [{"id": "kq1", "text": "What does a generator function return when it is called?"}]
    result = run(make_payload(kb.root / "reports" / "r1", key_questions=kqs, mode="quick"), kb_root=kb.root)
    assert [s.quality for s in result.evidence.sources] == ["tertiary"]
    # outside quick mode a factual claim needs a primary/secondary source: nothing admissible is left
    from autodidact.errors import SourceError

    with pytest.raises(SourceError):
        run(make_payload(kb.root / "reports" / "r2", key_questions=kqs), kb_root=kb.root)


def test_chinese_corpus_chinese_questions(tmp_path: Path) -> None:
    from autodidact.sources.ingest import index_corpus
    from autodidact.testing.corpora import debian_reference_zh_files

    files = [f for f in debian_reference_zh_files() if f.name.startswith("ch02.")]
    if not files:
        pytest.skip("debian-reference-zh-cn is not installed")
    report = tmp_path / "report"
    index_corpus(report, files, name="debian-reference")
    kqs = [
        {"id": "kq1", "text": "如何使用 apt 安装和升级软件包？"},
        {"id": "kq2", "text": "Debian 的软件包管理系统 dpkg 有什么作用？"},
    ]
    result = run(make_payload(report, language="zh", key_questions=kqs, name="Debian 软件包管理"))
    ev = result.evidence.to_json()
    assert validate_evidence(ev, source_cache=report, require_version="1.2").ok
    assert {c["answers_key_question"] for c in ev["claims"]} == {"kq1", "kq2"}
    assert all(any("\u4e00" <= ch <= "\u9fff" for ch in e["snippet"]) for c in ev["claims"] for e in c["evidence"])
    assert ev["headline"].startswith("Debian 软件包管理：")


def test_a_facet_question_is_answered_by_entries_that_never_repeat_the_subjects_name(tmp_path: Path) -> None:
    """Every question of a research on concurrent.futures says "concurrent.futures"; the reference
    entry that answers "submitting callables" ("Submits a callable to be executed with the given
    arguments.") does not, and is still quoted."""
    from autodidact.sources.ingest import index_corpus
    from autodidact.testing.corpora import write_pydoc_module_corpus

    files = write_pydoc_module_corpus(tmp_path / "pages", ["concurrent.futures", "json", "csv"])
    folder = tmp_path / "report"
    folder.mkdir()
    index_corpus(folder, files, name="pydoc")
    topic = "How do I run tasks in parallel with concurrent.futures: submitting callables, and shutting down?"
    kqs = [{"id": "kq1", "text": "What is the definition of submitting callables in running tasks in parallel with "
                                 "concurrent.futures?"}]  # fmt: skip
    payload = make_payload(folder, query=topic, key_questions=kqs, name="concurrent.futures", description="")
    quotes = [ev.snippet for c in run(payload).evidence.claims for ev in c.evidence]
    assert any("Submits a callable" in q for q in quotes), quotes
