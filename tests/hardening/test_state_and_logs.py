"""A damaged state file and damaged append-only logs, through the real CLI.

Pass criteria (issue 8): a truncated, empty or wrong-shaped ``research_state.json`` → one error
line naming the file and the field, a hint naming the last good copy, no traceback, from every
command that reads it (``research``, ``status``, ``verify``); following the hint brings the
research back. A torn last line of a log (the usage ledger, a debate's events) is dropped and
reported; damage earlier in a log stops with the file and line and repairs nothing.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .conftest import TOPIC, assert_clean_error, assert_verified, run_cli, verify

STATE = "outputs/research_state.json"


@pytest.fixture(scope="module")
def researched(tmp_path_factory: pytest.TempPathFactory, indexed_base: Path) -> Path:
    root = tmp_path_factory.mktemp("hd_researched") / "kb"
    shutil.copytree(indexed_base, root)
    done = run_cli("research", TOPIC, "--kb", str(root), "--max-rounds", "1")
    assert done.returncode == 0, done.stderr[-2000:]
    return root


@pytest.fixture
def kb_copy(researched: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "kb"
    shutil.copytree(researched, dest)
    return dest


def _good(root: Path) -> dict[str, object]:
    return dict(json.loads((root / STATE).read_text("utf-8")))


def _damage(kind: str, root: Path) -> str:
    """Damage the state file; returns the text the error must contain."""
    path = root / STATE
    text = path.read_text("utf-8")
    data = json.loads(text)
    if kind == "empty":
        path.write_text("", "utf-8")
        return "is empty"
    if kind == "truncated":
        path.write_text(text[: len(text) // 2], "utf-8")
        return "is not valid JSON"
    if kind == "not_utf8":
        path.write_bytes(b"\xff\xfe" + text.encode("utf-16-le"))
        return "not UTF-8"
    if kind == "array":
        path.write_text("[]", "utf-8")
        return "must hold a JSON object"
    if kind == "missing_field":
        del data["rounds"]
        path.write_text(json.dumps(data), "utf-8")
        return "field 'rounds'"
    if kind == "wrong_type":
        data["max_rounds"] = "many"
        path.write_text(json.dumps(data), "utf-8")
        return "field 'max_rounds'"
    if kind == "deep_wrong_type":
        data["rounds"][0]["termination_check"]["decision"] = "maybe"
        path.write_text(json.dumps(data), "utf-8")
        return "field 'rounds.0.termination_check.decision'"
    if kind == "bad_progress":
        data["current_round_progress"] = {"round": 0, "step1_done": "yes"}
        path.write_text(json.dumps(data), "utf-8")
        return "field 'current_round_progress.round'"
    if kind == "unknown_field":
        data["surprise"] = 1
        path.write_text(json.dumps(data), "utf-8")
        return "field 'surprise'"
    raise AssertionError(kind)


KINDS = [
    "empty",
    "truncated",
    "not_utf8",
    "array",
    "missing_field",
    "wrong_type",
    "deep_wrong_type",
    "bad_progress",
    "unknown_field",
]


FAST_KINDS = {"empty", "truncated", "missing_field", "deep_wrong_type"}


@pytest.mark.parametrize("kind", [k if k in FAST_KINDS else pytest.param(k, marks=pytest.mark.slow) for k in KINDS])
def test_damaged_state_is_a_clear_error_with_a_way_back(kind: str, kb_copy: Path) -> None:
    good = _good(kb_copy)
    needle = _damage(kind, kb_copy)
    for args in (("research", "--kb", str(kb_copy)), ("status", "--kb", str(kb_copy))):
        done = run_cli(*args)
        assert_clean_error(done, "research_state.json", needle)
        assert "research_state.last-good.json" in done.stderr  # the way back
    report = verify(kb_copy)
    assert not report["ok"]
    assert any(p["check"] == "state" and needle in p["message"] for p in report["problems"]), report["problems"]
    # follow the hint: restore the last good copy, and the knowledge base is whole again
    shutil.copyfile(kb_copy / ".autodidact" / "research_state.last-good.json", kb_copy / STATE)
    assert _good(kb_copy) == good
    again = run_cli("research", "--kb", str(kb_copy))
    assert again.returncode == 0, again.stderr[-2000:]
    assert_verified(kb_copy)


def test_damaged_round_files_are_named(kb_copy: Path) -> None:
    (kb_copy / "outputs" / "rounds" / "round_1_questions.json").write_text('{"round": 1, "questions": [', "utf-8")
    report = verify(kb_copy)
    assert any("round_1_questions.json" in p["path"] for p in report["problems"]), report


# -- the usage ledger -------------------------------------------------------------------------

LINE = {
    "task": "questions.propose",
    "provider": "openai",
    "model": "m",
    "input_tokens": 100,
    "output_tokens": 20,
    "cached": False,
    "cost_usd": 0.5,
    "seconds": 1.0,
}


def _ledger(root: Path, content: bytes) -> Path:
    path = root / ".autodidact" / "usage_ledger.jsonl"
    path.write_bytes(content)
    return path


def test_torn_last_ledger_line_is_dropped(kb_copy: Path) -> None:
    good = json.dumps(LINE).encode() + b"\n"
    _ledger(kb_copy, good * 2 + json.dumps(LINE).encode()[:40])
    done = run_cli("usage", "--kb", str(kb_copy), "--json")
    assert done.returncode == 0, done.stderr
    totals = json.loads(done.stdout)
    assert totals["calls"] == 2 and totals["input_tokens"] == 200


def test_torn_last_ledger_line_is_reported(kb_copy: Path) -> None:
    good = json.dumps(LINE).encode() + b"\n"
    _ledger(kb_copy, good * 2 + json.dumps(LINE).encode()[:40])
    report = verify(kb_copy)
    assert any("usage_ledger" in p["path"] and "torn last line 3" in p["message"] for p in report["problems"]), report


def test_append_after_a_torn_ledger_line_keeps_the_ledger_readable(kb_copy: Path) -> None:
    from autodidact.llm.ledger import Ledger, LedgerEntry, read_totals

    path = _ledger(kb_copy, json.dumps(LINE).encode() + b"\n" + json.dumps(LINE).encode()[:40])
    Ledger(path).record(LedgerEntry("t", "openai", "m", 1, 1, False, 0.0, 0.1))
    totals = read_totals(path)
    assert totals["calls"] == 2
    assert list(path.parent.glob("usage_ledger.jsonl.torn-*"))  # the fragment is kept aside


@pytest.mark.parametrize("bad", [b"{not json", b"[1, 2]", b"\xff\xfe garbage"])
def test_ledger_corruption_before_the_last_line_stops_with_file_and_line(kb_copy: Path, bad: bytes) -> None:
    good = json.dumps(LINE).encode() + b"\n"
    path = _ledger(kb_copy, good + bad + b"\n" + good)
    before = path.read_bytes()
    done = run_cli("usage", "--kb", str(kb_copy))
    assert_clean_error(done, "usage_ledger.jsonl", "line 2")
    report = verify(kb_copy)
    assert any("usage_ledger" in p["path"] and "line 2" in p["message"] for p in report["problems"]), report
    assert path.read_bytes() == before  # repaired nothing


# -- debate events ----------------------------------------------------------------------------


@pytest.fixture
def debate_kb(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "dkb"
    assert run_cli("init", str(root), "--lang", "en").returncode == 0
    done = run_cli(
        "debate", "start", "Generators are always faster than lists", "--kb", str(root), "--no-input",
        "--depth", "quick", "--session-id", "s1",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    session = root / "debates" / "s1"
    assert (session / "events.jsonl").is_file()
    assert_verified(root)
    return root, session


def test_torn_event_line_is_reported_then_recovered(debate_kb: tuple[Path, Path]) -> None:
    root, session = debate_kb
    events = session / "events.jsonl"
    good = events.read_bytes()
    events.write_bytes(good + b'{"seq": 99, "event_id": "tor')
    report = verify(root)
    assert any("torn" in p["message"] for p in report["problems"]), report
    check = run_cli("session", "check", str(session))
    assert check.returncode != 0 and "torn" in (check.stdout + check.stderr)
    shown = run_cli("debate", "show", "s1", "--kb", str(root))
    assert "Traceback" not in shown.stderr
    recovered = run_cli("session", "recover", str(session))
    assert recovered.returncode == 0, recovered.stderr
    assert events.read_bytes() == good  # the valid prefix, byte for byte
    assert list(session.glob("events.jsonl.corrupt-tail-*"))  # the torn bytes are kept aside, not lost


def test_event_corruption_before_the_last_line_stops_and_repairs_nothing(debate_kb: tuple[Path, Path]) -> None:
    root, session = debate_kb
    events = session / "events.jsonl"
    lines = events.read_bytes().split(b"\n")
    lines[1] = b'{"seq": 2, "broken'
    events.write_bytes(b"\n".join(lines))
    before = events.read_bytes()
    recovered = run_cli("session", "recover", str(session))
    out = recovered.stdout + recovered.stderr  # the session commands answer in JSON (docs/contracts.md §4)
    assert recovered.returncode != 0 and "Traceback" not in out
    assert "events.jsonl: line 2 is corrupt" in out and "nothing was repaired" in out
    report = verify(root)
    assert any("line 2" in p["message"] for p in report["problems"]), report
    assert events.read_bytes() == before


# -- the index manifest (store.jsonl.append) ---------------------------------------------------


def test_append_after_a_torn_manifest_line_seals_it_and_keeps_the_log_readable(tmp_path: Path) -> None:
    from autodidact.kb import init_kb
    from autodidact.sources.passage_index import manifest_entries

    kb, _ = init_kb(tmp_path / "kb", topic="generators", lang="en")
    first, second = tmp_path / "a.md", tmp_path / "b.md"
    first.write_text("# Generators\n\nA generator yields values lazily.\n", "utf-8")
    second.write_text("# Iterators\n\nAn iterator has a __next__ method.\n", "utf-8")
    assert run_cli("add", str(first), "--kb", str(kb.root)).returncode == 0
    manifest = kb.internal / "documents.jsonl"
    whole = manifest.read_bytes()
    manifest.write_bytes(whole + b'{"snapshot_ref": "source_cache/ab')  # died mid-append
    report = verify(kb.root)
    assert any("documents.jsonl" in p["path"] and "torn last line 2" in p["message"] for p in report["problems"])
    done = run_cli("add", str(second), "--kb", str(kb.root))
    assert done.returncode == 0, done.stderr[-2000:]
    assert len(manifest_entries(kb.root)) == 2  # both documents, no fused line
    assert manifest.read_bytes().startswith(whole)
    assert [p.name for p in kb.internal.glob("documents.jsonl.torn-*")]  # the fragment is kept aside
    assert run_cli("index", "rebuild", "--kb", str(kb.root)).returncode == 0
    assert_verified(kb.root)
