"""The validator: a valid file passes; each fixture breaking one rule gets exactly that rule code."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autodidact.evidence.validator import RULES, validate_evidence

Mut = Callable[[dict[str, Any]], None]

UP_ENTRY = {
    "dimension_id": "d0",
    "needed_for": "entity_selection",
    "consumed_claim_ids": ["d0.c1"],
    "scope_changes": ["Only search the three vendors d0 confirmed."],
    "skipped_searches": ["Vendor lists are not searched again."],
}


def _extra_source(**over: Any) -> Mut:
    def mut(d: dict[str, Any]) -> None:
        src = {"id": "extra_src", "url": "https://example.com/x", "title": "Extra", "quality": "secondary"}
        src.update(over)
        d["sources"].append(src)

    return mut


def _extra_claim(**over: Any) -> Mut:
    def mut(d: dict[str, Any]) -> None:
        claim = json.loads(json.dumps(d["claims"][0]))
        claim.update(over)
        d["claims"].append(claim)

    return mut


def _set(path: str, value: Any) -> Mut:
    """Set a value by a dotted path with integer indexes (``claims.0.text``)."""

    def mut(d: dict[str, Any]) -> None:
        parts = path.split(".")
        node: Any = d
        for p in parts[:-1]:
            node = node[int(p)] if isinstance(node, list) else node[p]
        last = parts[-1]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return mut


def _c1_from_blog(d: dict[str, Any]) -> None:
    ev = d["claims"][0]["evidence"][0]
    ev["source_id"] = "example_blog"
    ev["snippet"] = "The yield statement is only allowed inside a function body."
    ev["snapshot_ref"] = d["claims"][1]["evidence"][1]["snapshot_ref"]


CASES: list[tuple[str, Mut]] = [
    ("V001", _set("schema_version", "2.0")),
    ("V002", _set("dimension_id", "x1")),
    ("V003", _set("headline", "abc")),
    ("V004", _set("claims", [])),
    ("V005", _set("sources", {})),
    ("V006", lambda d: d["key_findings"].pop()),
    ("V007", _set("upstream_usage", "none")),
    ("V007", _set("upstream_usage", [dict(UP_ENTRY, scope_changes=[])])),
    ("V007", _set("upstream_usage", [dict(UP_ENTRY, consumed_claim_ids=["d5.c1"])])),
    ("V010", lambda d: d["sources"].append(5)),
    ("V011", _extra_source(id="Bad-Id")),
    ("V012", _extra_source(id="example_blog")),
    ("V013", _extra_source(url="")),
    ("V014", _extra_source(url="ftp://example.com/x")),
    ("V014", _extra_source(url="https:///nohost")),
    # the snapshot normal form (docs/contracts.md §3.1): credentials, bad IDNA, whitespace, controls
    ("V014", _extra_source(url="https://user:pw@example.com/x")),
    ("V014", _extra_source(url="https://u@example.com/x")),
    ("V014", _extra_source(url="https://a..b/x")),
    ("V014", _extra_source(url="https://example.com/a b")),
    ("V014", _extra_source(url="https://example.com/\x07x")),
    ("V014", _extra_source(url=" https://example.com/x")),
    ("V015", _extra_source(title=" ")),
    ("V016", _extra_source(quality="gold")),
    ("V017", _extra_source(published_at="2024-13")),
    ("V018", _set("mode", "fast")),
    ("V020", lambda d: d["claims"].append("x")),
    ("V021", _extra_claim(id="d1-c9")),
    ("V022", _extra_claim(id="d1.c1")),
    ("V023", _extra_claim(id="d2.c9")),
    ("V024", _set("claims.0.text", "abc")),
    ("V024", _set("claims.0.text", "x" * 501)),
    ("V025", _set("claims.0.kind", "normative")),
    ("V026", _set("claims.0.polarity", "pro")),
    ("V027", _set("claims.0.topic_tag", "Bad Tag")),
    ("V028", _set("claims.0.answers_key_question", "q1")),
    ("V029", _set("claims.0.evidence", [])),
    ("V030", lambda d: d["claims"][0]["evidence"].append(3)),
    ("V031", _set("claims.2.evidence.0.source_id", "nope")),
    ("V032", _set("claims.1.evidence.1.snippet", "  ")),
    ("V033", _set("claims.1.evidence.1.quote_type", "exact")),
    ("V034", _set("claims.1.evidence.1.snapshot_ref", "cache/x.md")),
    ("V034", lambda d: d["claims"][1]["evidence"][1].pop("snapshot_ref")),
    ("V035", lambda d: _set("claims.0.evidence.0.snapshot_ref", d["claims"][1]["evidence"][1]["snapshot_ref"])(d)),
    ("V035", _set("claims.0.evidence.0.snapshot_ref", "source_cache/" + "a" * 64 + "/" + "b" * 64 + ".md")),
    ("V036", _set("claims.0.evidence.0.snippet", "A generator is a coroutine.")),
    ("V040", _c1_from_blog),
    ("V041", lambda d: d["claims"][1]["evidence"].pop()),
    ("V050", lambda d: d["key_findings"].append("x")),
    ("V051", _set("key_findings.0.finding", "short")),
    ("V052", _set("key_findings.0.claim_ids", [])),
    ("V053", _set("key_findings.0.claim_ids", ["d1.c99"])),
    ("V053", _set("key_findings.0.claim_ids", [7])),
    ("V060", _set("writing_context", "x")),
    ("V060", _set("writing_context", [5])),
    ("V061", _set("writing_context.0.id", "d2.w1")),
    ("V061", lambda d: d["writing_context"].append(dict(d["writing_context"][0]))),
    ("V062", _set("writing_context.0.kind", "gap")),
    ("V063", _set("writing_context.0.text", "short")),
    ("V064", _set("writing_context.0.use", "short")),
    ("V065", _set("writing_context.0.source_ids", ["nope"])),
    ("V065", _set("writing_context.0.source_ids", ["example_blog", "example_blog"])),
    ("V066", _set("writing_context.0.applies_to", ["kq1", "kq1"])),
    ("V066", _set("writing_context.0.applies_to", ["q1"])),
]


def test_valid_file_passes_with_stats(valid: dict[str, Any], report_dir: Path) -> None:
    report = validate_evidence(valid, source_cache=report_dir / "source_cache", require_version="1.2")
    assert report.ok, report.errors
    stats = report.stats
    assert stats["claims"] == 3 and stats["sources"] == 2 and stats["key_findings"] == 2
    assert stats["snapshot_refs"] == 2
    assert stats["key_questions_answered"] == ["kq1", "kq2"]
    assert stats["extra_findings"] == 1
    assert stats["kind_distribution"] == {"factual": 1, "interpretive": 1, "projective": 1}
    assert stats["polarity_distribution"] == {"neutral": 2, "support": 1}


def test_report_folder_is_accepted_as_source_cache(valid: dict[str, Any], report_dir: Path) -> None:
    assert validate_evidence(valid, source_cache=report_dir).ok


@pytest.mark.parametrize(("rule", "mutate"), CASES, ids=[f"{r}-{i}" for i, (r, _) in enumerate(CASES)])
def test_each_rule_has_a_breaking_fixture(rule: str, mutate: Mut, fresh: Any, report_dir: Path) -> None:
    data = fresh()
    mutate(data)
    report = validate_evidence(data, source_cache=report_dir / "source_cache")
    assert not report.ok
    assert report.rules() == {rule}, report.errors
    assert all(e["severity"] == "error" and e["message"] for e in report.errors)


def test_top_level_not_object_is_v000() -> None:
    assert validate_evidence([1, 2]).rules() == {"V000"}


def test_require_version_pins_12(fresh: Any, report_dir: Path) -> None:
    data = fresh()
    data["schema_version"] = "1.1"
    cache = report_dir / "source_cache"
    assert validate_evidence(data, source_cache=cache).ok
    assert validate_evidence(data, source_cache=cache, require_version="1.2").rules() == {"V001"}


def test_v11_may_skip_cache_and_refs_but_12_may_not(fresh: Any) -> None:
    data = fresh()
    assert validate_evidence(data).rules() == {"V037"}
    data["schema_version"] = "1.1"
    del data["upstream_usage"]
    for claim in data["claims"]:
        for ev in claim["evidence"]:
            ev.pop("snapshot_ref")
    assert validate_evidence(data).ok


def test_tampered_snapshot_fails_v035(valid: dict[str, Any], report_dir: Path) -> None:
    ref = valid["claims"][0]["evidence"][0]["snapshot_ref"]
    (report_dir / ref).write_text("A generator is a function which returns a generator iterator. EDITED")
    report = validate_evidence(valid, source_cache=report_dir / "source_cache")
    assert "V035" in report.rules()


def test_v009_expected_mode_and_plan_with_quick(fresh: Any, report_dir: Path) -> None:
    cache = report_dir / "source_cache"
    assert validate_evidence(fresh(), source_cache=cache, expected_mode="quick").rules() == {"V009"}
    data = fresh()
    data["mode"] = "quick"
    plan = {"dimensions": [{"id": "d1", "dependency_inputs": []}]}
    assert validate_evidence(data, source_cache=cache, plan=plan).rules() == {"V009"}


def test_v008_quick_with_upstream_usage(fresh: Any, report_dir: Path) -> None:
    data = fresh()
    data["mode"] = "quick"
    data["upstream_usage"] = [UP_ENTRY]
    assert validate_evidence(data, source_cache=report_dir / "source_cache").rules() == {"V008"}


def _upstream(cited: bool) -> dict[str, Any]:
    return {
        "dimension_id": "d0",
        "claims": [{"id": "d0.c1"}, {"id": "d0.c2"}],
        "key_findings": [{"finding": "x" * 12, "claim_ids": ["d0.c1" if cited else "d0.c2"]}],
    }


def test_v008_plan_contract(fresh: Any, report_dir: Path) -> None:
    cache = report_dir / "source_cache"
    deps = [{"dimension_id": "d0", "needed_for": "entity_selection"}]
    plan = {"dimensions": [{"id": "d1", "dependency_inputs": deps}]}
    data = fresh()
    data["upstream_usage"] = [UP_ENTRY]
    ok = validate_evidence(data, source_cache=cache, plan=plan, upstream={"d0": _upstream(True)})
    assert ok.ok, ok.errors
    # missing upstream evidence for a declared dependency
    assert validate_evidence(data, source_cache=cache, plan=plan).rules() == {"V008"}
    # consumed claim exists upstream but no key finding cites it
    assert validate_evidence(data, source_cache=cache, plan=plan, upstream={"d0": _upstream(False)}).rules() == {"V008"}
    # consumed claim does not exist upstream
    data2 = fresh()
    data2["upstream_usage"] = [dict(UP_ENTRY, consumed_claim_ids=["d0.c9"])]
    assert validate_evidence(data2, source_cache=cache, plan=plan, upstream={"d0": _upstream(True)}).rules() == {"V008"}
    # usage absent although the plan declares it
    assert validate_evidence(fresh(), source_cache=cache, plan=plan, upstream={"d0": _upstream(True)}).rules() == {
        "V008"
    }
    # wrong needed_for
    data3 = fresh()
    data3["upstream_usage"] = [dict(UP_ENTRY, needed_for="time_window")]
    assert validate_evidence(data3, source_cache=cache, plan=plan, upstream={"d0": _upstream(True)}).rules() == {"V008"}
    # dimension missing from the plan
    other_plan = {"dimensions": [{"id": "d7"}]}
    assert validate_evidence(fresh(), source_cache=cache, plan=other_plan).rules() == {"V008"}


def test_quick_relaxes_v040_and_v041(fresh: Any, report_dir: Path) -> None:
    data = fresh()
    _c1_from_blog(data)
    data["claims"][1]["evidence"].pop()
    assert validate_evidence(data, source_cache=report_dir / "source_cache").rules() == {"V040", "V041"}
    data["mode"] = "quick"
    assert validate_evidence(data, source_cache=report_dir / "source_cache").ok


def test_every_rule_code_is_exercised_and_documented() -> None:
    tested = {rule for rule, _ in CASES} | {"V000", "V008", "V009", "V037"}
    assert tested == set(RULES)
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    assert "V001" in readme and "V066" in readme


def test_models_read_12_and_11_and_round_trip(fresh: Any) -> None:
    from autodidact.evidence.files import evidence_from_json
    from autodidact.evidence.models import EvidenceFile

    data = fresh()
    model = evidence_from_json(json.dumps(data), "d1.evidence.json")
    assert model.to_json() == data  # optional fields stay absent, answers_key_question null stays
    old = fresh()
    old["schema_version"] = "1.1"
    del old["upstream_usage"]
    for claim in old["claims"]:
        for ev in claim["evidence"]:
            ev.pop("snapshot_ref")
    assert evidence_from_json(json.dumps(old), "old.json").schema_version == "1.1"
    schema = EvidenceFile.model_json_schema()
    claim_props = schema["$defs"]["Claim"]["properties"]
    assert "never normative" in claim_props["text"]["description"]


def test_a_credential_in_a_source_url_is_never_repeated_in_the_message(fresh: Any, report_dir: Path, cli: Any) -> None:
    data = fresh()
    data["sources"][0]["url"] = "https://alice:s3cret-pw@example.com/page"
    path = report_dir / "ev.json"
    path.write_text(json.dumps(data), "utf-8")
    result = cli("evidence", "validate", str(path), "--source-cache", str(report_dir))
    assert result.exit_code != 0 and "V014" in result.output
    assert "s3cret-pw" not in result.output and "alice" not in result.output


def test_v008_consumed_claims_need_their_upstream_and_a_plan_needs_its_inputs(fresh: Any, report_dir: Path) -> None:
    # issue 13 item 14: both used to pass
    cache = report_dir / "source_cache"
    data = fresh()
    data["upstream_usage"] = [UP_ENTRY]  # consumes d0.c1
    other = dict(_upstream(True), dimension_id="d5")
    report = validate_evidence(data, source_cache=cache, upstream={"d5": other})
    assert report.rules() == {"V008"} and "pass its evidence" in report.errors[0]["message"]
    assert validate_evidence(data, source_cache=cache).ok  # no upstream files at all: a standalone check
    plan = {"dimensions": [{"id": "d1"}]}  # no dependency_inputs field: not the same as []
    assert "V008" in validate_evidence(fresh(), source_cache=cache, plan=plan).rules()
    assert validate_evidence(
        fresh(), source_cache=cache, plan={"dimensions": [{"id": "d1", "dependency_inputs": []}]}
    ).ok
