"""``autodidact evidence validate``: JSON on stdout and exit codes 0 / 1 / 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def _write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_exit_0_on_valid(cli: Any, valid: dict[str, Any], report_dir: Path) -> None:
    path = _write(report_dir / "d1.evidence.json", valid)
    res = cli(
        "evidence", "validate", str(path), "--source-cache", str(report_dir / "source_cache"),
        "--require-version", "1.2", "--expected-mode", "initial",
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["ok"] is True and out["stats"]["claims"] == 3


def test_exit_1_on_invalid(cli: Any, valid: dict[str, Any], report_dir: Path) -> None:
    valid["claims"][0]["evidence"][0]["snippet"] = "not in the snapshot at all"
    path = _write(report_dir / "d1.evidence.json", valid)
    res = cli("evidence", "validate", str(path), "--source-cache", str(report_dir / "source_cache"))
    assert res.exit_code == 1
    out = json.loads(res.stdout)
    assert out["ok"] is False
    assert [e["rule"] for e in out["errors"]] == ["V036"]


def test_exit_1_without_cache_for_12(cli: Any, valid: dict[str, Any], report_dir: Path) -> None:
    path = _write(report_dir / "d1.evidence.json", valid)
    res = cli("evidence", "validate", str(path))
    assert res.exit_code == 1
    assert json.loads(res.stdout)["errors"][0]["rule"] == "V037"


def test_exit_2_on_bad_json_and_missing_file(cli: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    res = cli("evidence", "validate", str(bad))
    assert res.exit_code == 2
    assert json.loads(res.stdout)["ok"] is False
    res = cli("evidence", "validate", str(tmp_path / "missing.json"))
    assert res.exit_code == 2


def test_plan_and_upstream_options(cli: Any, valid: dict[str, Any], report_dir: Path) -> None:
    upstream = {
        "dimension_id": "d0",
        "claims": [{"id": "d0.c1"}],
        "key_findings": [{"finding": "Three vendors are confirmed.", "claim_ids": ["d0.c1"]}],
    }
    valid["upstream_usage"] = [
        {
            "dimension_id": "d0",
            "needed_for": "entity_selection",
            "consumed_claim_ids": ["d0.c1"],
            "scope_changes": ["Only the three vendors."],
            "skipped_searches": ["Vendor lists."],
        }
    ]
    deps = [{"dimension_id": "d0", "needed_for": "entity_selection"}]
    plan = {"dimensions": [{"id": "d1", "dependency_inputs": deps}]}
    ev = _write(report_dir / "d1.evidence.json", valid)
    up = _write(report_dir / "d0.evidence.json", upstream)
    pl = _write(report_dir / "plan.json", plan)
    cache = str(report_dir / "source_cache")
    args = ["evidence", "validate", str(ev), "--source-cache", cache, "--plan", str(pl)]
    res = cli(*args, "--upstream-evidence", str(up))
    assert res.exit_code == 0, res.stdout
    res = cli("evidence", "validate", str(ev), "--source-cache", cache, "--plan", str(pl))
    assert res.exit_code == 1
    assert {e["rule"] for e in json.loads(res.stdout)["errors"]} == {"V008"}


def test_gather_engine_flags_are_checked(cli: Any, tmp_path: Path) -> None:
    from .conftest import make_payload

    payload = _write(tmp_path / "payload.json", make_payload(tmp_path / "report"))
    res = cli("gather", "--payload", str(payload), "--engine", "turbo")
    assert res.exit_code == 2 and "--engine" in res.output
    res = cli("gather", "--payload", str(payload), "--engine", "model")
    assert res.exit_code == 2 and "needs a model" in res.output
    res = cli("gather", "--payload", str(tmp_path / "missing.json"))
    assert res.exit_code == 2 and "does not exist" in res.output


def test_gather_with_kb_option(cli: Any, pydoc_template: Path, tmp_path: Path) -> None:
    import shutil

    from .conftest import make_payload

    kb = tmp_path / "kb"
    shutil.copytree(pydoc_template, kb)
    report = tmp_path / "elsewhere" / "r1"
    payload = _write(tmp_path / "payload.json", make_payload(report))
    res = cli("gather", "--payload", str(payload), "--kb", str(kb))
    assert res.exit_code == 0, res.output
    out = report / "sub_reports" / "d1.evidence.json"
    res = cli("evidence", "validate", str(out), "--source-cache", str(report), "--require-version", "1.2")
    assert res.exit_code == 0, res.stdout
