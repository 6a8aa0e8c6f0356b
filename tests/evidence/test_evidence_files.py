"""The one evidence loader: every file the validator passes loads, and no file crashes it.

The validator reads raw JSON and reports rule codes; the loader (evidence/files.py) is the typed
edge every consumer reads through (docs/evidence.md, "Evidence in code"). Loading must never be
stricter than the validator in a way that matters: a valid file (1.2 or 1.1, with unknown keys)
loads; a malformed one is an InputError naming the file, and the validator still reports it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autodidact.errors import InputError, NotFoundError
from autodidact.evidence.files import evidence_from_json, load_evidence, write_evidence
from autodidact.evidence.validator import validate_evidence

from .test_validator import CASES, Mut


def _write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", "utf-8")
    return path


def test_a_file_written_from_the_model_is_the_file_read(fresh: Any, tmp_path: Path) -> None:
    data = fresh()
    # the agent writes a gap entry's id after its source_ids; the model keeps that order
    data["writing_context"] = [
        {k: w[k] for k in ("kind", "text", "use", "source_ids", "id", "applies_to")} for w in data["writing_context"]
    ]
    src = _write(tmp_path / "a.json", data)
    out = tmp_path / "b.json"
    write_evidence(out, load_evidence(src))
    assert out.read_bytes() == src.read_bytes()


def test_files_the_validator_passes_load(fresh: Any, report_dir: Path) -> None:
    cache = report_dir / "source_cache"
    variants = []
    old = fresh()  # 1.1: no snapshot refs, upstream_usage null
    old["schema_version"] = "1.1"
    old["upstream_usage"] = None
    for claim in old["claims"]:
        for ev in claim["evidence"]:
            ev.pop("snapshot_ref")
    variants.append(old)
    extra = fresh()  # keys the contract does not name, anywhere
    extra["note"] = "hand-written"
    extra["claims"][0]["reviewed"] = True
    extra["claims"][0]["evidence"][0]["page"] = 3
    extra["sources"][0]["language"] = "en"
    variants.append(extra)
    long_author = fresh()  # the validator does not bound an author
    long_author["sources"][0]["author"] = "A" * 300
    variants.append(long_author)
    no_kq = fresh()  # a missing answers_key_question is an extra finding, as null is
    del no_kq["claims"][2]["answers_key_question"]
    variants.append(no_kq)
    for data in variants:
        assert validate_evidence(data, source_cache=cache).ok
        evidence = evidence_from_json(json.dumps(data), "d1.evidence.json")
        assert [c.id for c in evidence.claims] == ["d1.c1", "d1.c2", "d1.c3"]
    assert evidence_from_json(json.dumps(no_kq), "x").claims[2].answers_key_question is None


@pytest.mark.parametrize(("rule", "mutate"), CASES, ids=[f"{r}-{i}" for i, (r, _) in enumerate(CASES)])
def test_a_broken_file_is_a_rule_code_and_never_a_crash(
    rule: str, mutate: Mut, fresh: Any, report_dir: Path, tmp_path: Path
) -> None:
    data = fresh()
    mutate(data)
    path = _write(tmp_path / "d1.evidence.json", data)
    assert validate_evidence(path, source_cache=report_dir / "source_cache").rules() == {rule}
    try:
        load_evidence(path)  # rules about content (V008, V036, V041, ...) are the validator's alone
    except InputError as exc:
        assert exc.message.startswith("d1.evidence.json: not an evidence file: ")
        assert "evidence validate" in (exc.hint or "")


def test_unreadable_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match="does not exist"):
        load_evidence(tmp_path / "missing.json")
    with pytest.raises(InputError, match="is a folder"):
        load_evidence(tmp_path)
    bad = tmp_path / "round_2_evidence.json"
    bad.write_text('{"claims": [', "utf-8")
    with pytest.raises(InputError, match=r"round_2_evidence\.json: not valid JSON"):
        load_evidence(bad)
    bad.write_text("[1, 2]", "utf-8")
    with pytest.raises(InputError, match="the top level must be a JSON object"):
        load_evidence(bad)
    bad.write_text('{"claims": "nope"}', "utf-8")
    with pytest.raises(InputError, match="not an evidence file: "):
        load_evidence(bad)
