"""Path traversal through every name a person or a file can supply, via the real CLI.

Pass criteria (issue 8): a topic name, a raw file's name, a snapshot ref, a session id, a
dimension id in a plan or payload, and ``--report-dir`` can never make autodidact read or write
outside the folder it works on. Each case runs the command, then checks that nothing appeared or
changed outside the knowledge base (or report folder), and that a refused name is one clear line
without a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import assert_clean_error, assert_verified, run_cli

FAST = {"../../escape", "/tmp/abs-escape", "..\\..\\win", "a" * 300}
HOSTILE = ["../../escape", "..", "../", "/tmp/abs-escape", "a/../../b", "..\\..\\win", "~/home-escape", "x\ty"]


def _sample(values: list[str]) -> list[object]:
    return [v if v in FAST else pytest.param(v, marks=pytest.mark.slow) for v in values]


def outside(tmp_path: Path, inside: Path) -> dict[str, int]:
    """Every file under tmp_path that is not under ``inside``, with its size."""
    return {
        str(p): p.stat().st_size for p in tmp_path.rglob("*") if p.is_file() and inside not in p.parents and p != inside
    }


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    from autodidact.kb import init_kb

    work = tmp_path / "work"
    root, _ = init_kb(work / "kb", topic="Python generators", lang="en")
    return root.root


@pytest.mark.parametrize("topic", _sample([*HOSTILE, "../../../../../../tmp/escape-topic"]))
def test_topic_names_stay_inside(topic: str, kb: Path, tmp_path: Path) -> None:
    before = outside(tmp_path, kb)
    for args in (
        ("research", topic, "--kb", str(kb), "--max-rounds", "1"),
        ("wiki", "check", "--kb", str(kb), "--topic", topic),
    ):
        done = run_cli(*args)
        assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert outside(tmp_path, kb) == before
    assert not Path("/tmp/abs-escape").exists() and not Path("/tmp/escape-topic").exists()
    for path in kb.rglob("*"):
        assert kb.resolve() in path.resolve().parents or path.is_symlink()


def test_hostile_raw_file_names_are_handled_inside(kb: Path, tmp_path: Path) -> None:
    docs = tmp_path / "work" / "docs"
    docs.mkdir(parents=True)
    names = ["..md", "...md", ".hidden.md", "..\\..\\evil.md", "a\nb.md", "-rf.md", "x" * 240 + ".md", "‮gpj.md"]
    for name in names:
        (docs / name).write_text(f"# Doc {name!r}\n\nGenerators yield values lazily.\n", "utf-8")
    before = outside(tmp_path, kb)
    done = run_cli("add", str(docs), "--kb", str(kb))
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    after = outside(tmp_path, kb)
    assert after == before
    for path in (kb / "raw").iterdir():
        assert path.parent == kb / "raw" and "/" not in path.name and "\\" not in path.name.replace("..", "")
    done = run_cli("index", "rebuild", "--kb", str(kb))
    assert done.returncode == 0, done.stderr[-2000:]
    assert_verified(kb)


@pytest.mark.parametrize(
    "ref",
    [
        "source_cache/../../secret.md",
        "../secret.md",
        "/etc/passwd",
        "source_cache/" + "a" * 64 + "/../../../secret.md",
        "source_cache/" + "0" * 64 + "/" + "0" * 64 + ".md/../../../../secret.md",
    ],
)
def test_snapshot_refs_cannot_point_outside_the_cache(ref: str, kb: Path, tmp_path: Path) -> None:
    secret = tmp_path / "work" / "secret.md"
    secret.write_text("TOP SECRET generator text", "utf-8")
    done = run_cli("snapshot", "verify", "--source-cache", str(kb / "source_cache"), "--snapshot-ref", ref)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr and "TOP SECRET" not in done.stdout + done.stderr


def test_evidence_quote_cannot_be_verified_against_a_file_outside_the_cache(tmp_path: Path) -> None:
    """If the validator followed a traversing ref, this quote would verify against a file we planted."""
    report = tmp_path / "rep"
    (report / "source_cache").mkdir(parents=True)
    planted = tmp_path / "planted.md"
    planted.write_text("Generators produce values lazily, one at a time.", "utf-8")
    evidence = {
        "version": "1.2",
        "dimension_id": "d1",
        "headline": "Generators are lazy",
        "mode": "initial",
        "sources": [
            {"id": "s1", "url": "https://example.org/g", "title": "G", "quality": "primary", "type": "documentation"}
        ],
        "claims": [
            {
                "id": "d1.c1",
                "text": "Generators are lazy.",
                "kind": "factual",
                "evidence": [
                    {
                        "source_id": "s1",
                        "snippet": "Generators produce values lazily, one at a time.",
                        "quote_type": "direct",
                        "snapshot_ref": "source_cache/../../planted.md",
                    }
                ],
            }
        ],
    }
    path = report / "sub_reports" / "d1.evidence.json"
    path.parent.mkdir()
    path.write_text(json.dumps(evidence), "utf-8")
    done = run_cli("evidence", "validate", str(path), "--source-cache", str(report / "source_cache"))
    assert done.returncode != 0 and "Traceback" not in done.stderr
    verdict = json.loads(done.stdout)
    assert any("snapshot" in json.dumps(e).lower() for e in verdict["errors"]), verdict


@pytest.mark.parametrize("session_id", _sample([*HOSTILE, "s1/../../x", "CON", "a" * 300]))
def test_session_ids_are_single_safe_names(session_id: str, kb: Path, tmp_path: Path) -> None:
    before = outside(tmp_path, kb)
    for args in (
        ("debate", "start", "Generators are slow", "--kb", str(kb), "--no-input", "--depth", "quick",
         "--session-id", session_id),
        ("debate", "show", session_id, "--kb", str(kb)),
        ("debate", "reply", session_id, "yes", "--kb", str(kb)),
        ("debate", "close", session_id, "--kb", str(kb)),
    ):  # fmt: skip
        done = run_cli(*args)
        assert "Traceback" not in done.stderr, (args, done.stderr[-2000:])
        if args[1] == "start" and session_id in ("CON",):
            continue
        if args[1] == "start":
            assert done.returncode != 0 or (kb / "debates" / session_id).resolve().parent == (kb / "debates")
    assert outside(tmp_path, kb) == before


@pytest.mark.parametrize("dim", ["../../escape", "d1/../../../escape", "/tmp/abs-dim"])
def test_dimension_ids_in_a_payload_cannot_choose_the_output_path(dim: str, tmp_path: Path) -> None:
    report = tmp_path / "work" / "rep"
    report.mkdir(parents=True)
    payload = {
        "query": "python generators",
        "language": "en",
        "name": "Generators",
        "description": "How generators work",
        "key_questions": [{"id": "kq1", "text": "What is a generator?"}],
        "depth": "skim",
        "report_dir": str(report),
        "dimension_id": dim,
        "mode": "quick",
    }
    (report / "payload.json").write_text(json.dumps(payload), "utf-8")
    before = outside(tmp_path, report)
    done = run_cli("gather", "--payload", str(report / "payload.json"))
    assert_clean_error(done)
    assert outside(tmp_path, report) == before
    assert not Path("/tmp/abs-dim.evidence.json").exists()


@pytest.mark.parametrize("dim", ["../../escape", "d1/../../x"])
def test_dimension_ids_in_a_plan_cannot_choose_the_output_path(dim: str, tmp_path: Path) -> None:
    report = tmp_path / "work" / "rep"
    done = run_cli("plan", "create", "How do Python generators work?", "--report-dir", str(report))
    assert done.returncode == 0, done.stderr[-2000:]
    plan = json.loads((report / "plan.json").read_text("utf-8"))
    old = plan["dimensions"][0]["id"]
    text = json.dumps(plan).replace(f'"{old}"', json.dumps(dim))
    (report / "plan.json").write_text(text, "utf-8")
    verdict = run_cli("plan", "validate", str(report / "plan.json"))
    assert verdict.returncode == 1 and "P003" in verdict.stdout
    before = outside(tmp_path, report)
    done = run_cli("report", "How do Python generators work?", "--report-dir", str(report), "--mode", "quick")
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert outside(tmp_path, report) == before


@pytest.mark.parametrize("where", ["file", "kb_root"])
def test_report_dir_onto_an_existing_file_or_kb_is_refused_or_contained(where: str, kb: Path, tmp_path: Path) -> None:
    target = tmp_path / "work" / "plain.txt" if where == "file" else kb
    if where == "file":
        target.write_text("keep me", "utf-8")
    before = {str(p): p.read_bytes() for p in kb.rglob("*") if p.is_file()}
    done = run_cli("plan", "create", "How do Python generators work?", "--report-dir", str(target))
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    if where == "file":  # refused by the option's own check (a usage error, exit 2)
        assert done.returncode == 2 and "is a file" in done.stderr
        assert target.read_text("utf-8") == "keep me"
    else:
        after = {str(p): p.read_bytes() for p in kb.rglob("*") if p.is_file()}
        assert all(after[k] == v for k, v in before.items()), "a knowledge-base file was overwritten"
    verify = run_cli("verify", "--report-dir", str(tmp_path / "work" / "missing"))
    assert_clean_error(verify, "does not exist")
