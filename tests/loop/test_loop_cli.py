"""The loop's commands in-process: research creates and resumes, ask, status --json, lock, fallback."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autodidact.config import load_settings
from autodidact.errors import LockedError
from autodidact.kb import open_kb
from autodidact.llm.runtime import Runtime
from autodidact.loop.inbox import add_question
from autodidact.loop.progress import RecordingReporter
from autodidact.loop.runner import research_sync

from .conftest import TOPIC


def test_research_ask_status_commands(fresh_kb: Callable[[str], Path], cli: Any, pydoc_corpus: Path) -> None:
    root = fresh_kb("kb")
    done = cli("research", TOPIC, "--kb", str(root), "--max-rounds", "1")
    assert done.exit_code == 0, done.output
    assert "## research: How do Python generators" in done.output and "status: terminated" in done.output
    asked = cli("ask", "Is yield from the same as await?", "--kb", str(root))
    assert asked.exit_code == 0
    status = cli("status", "--kb", str(root), "--json")
    report = json.loads(status.stdout)
    # the report a person asked for goes to stdout, so `autodidact status | less` shows it
    plain = cli("status", "--kb", str(root))
    assert "status: terminated" in plain.stdout and "termination (all four conditions" in plain.stdout
    assert report["rounds_completed"] == 1 and report["status"] == "terminated"
    assert report["counts"]["pending_user_questions"] == 1
    assert report["rounds"][0]["overlap_ratio"] is None
    assert report["termination"]["no_pending_user_questions"] is False
    assert report["termination"]["diminishing_gaps"] is False
    assert report["termination"]["stalled"] is False and report["termination"]["stall"]["new_claims"] > 0
    assert report["termination"]["user_waiting_extends_max_rounds"] is True
    preview = cli("questions", "generate", "--kb", str(root), "--json")
    assert preview.exit_code == 0
    assert json.loads(preview.stdout)["questions"][0]["text"] == "Is yield from the same as await?"
    # plain `research` resumes: the pending question re-opens it and raises the cap it reached
    again = cli("research", "--kb", str(root))
    assert again.exit_code == 0, again.output
    assert "max_rounds raised from 1 to 2" in " ".join(again.output.split())
    after = json.loads(cli("status", "--kb", str(root), "--json").stdout)
    assert after["rounds_completed"] == 2 and after["max_rounds"] == 2


def test_research_line_counts_what_status_counts(fresh_kb: Callable[[str], Path], cli: Any, pydoc_corpus: Path) -> None:
    """The step-2 line says how many claims are new, per round, with the numbers `status` shows (a
    round that re-finds known quotes reads "9 claims (0 new)", not "9 claims" beside a 0 in status)."""
    import re

    root = fresh_kb("kb")
    done = cli("research", TOPIC, "--kb", str(root), "--max-rounds", "3")
    assert done.exit_code == 0, done.output
    text = " ".join(done.output.split())
    lines = re.findall(r"(\d+) sources? \((\d+) new\), (\d+) claims? \((\d+) new\)", text)
    rounds = json.loads(cli("status", "--kb", str(root), "--json").stdout)["rounds"]
    assert len(lines) == len(rounds) >= 2
    for (_, new_sources, claims, new_claims), r in zip(lines, rounds, strict=True):
        assert int(new_claims) == r["new_claims"] and int(new_sources) == r["new_sources"]
        assert int(new_claims) <= int(claims)


def test_new_kb_from_scratch_with_corpus(tmp_path: Path, cli: Any, pydoc_corpus: Path) -> None:
    corpus = tmp_path / "docs"
    corpus.mkdir()
    for path in sorted(pydoc_corpus.glob("*.md")):
        if any(word in path.name for word in ("yield", "async", "coroutine", "generator", "lambda", "if")):
            (corpus / path.name).write_bytes(path.read_bytes())
    assert len(list(corpus.iterdir())) >= 5
    root = tmp_path / "new-kb"
    done = cli("research", TOPIC, "--kb", str(root), "--corpus", str(corpus), "--max-rounds", "1")
    assert done.exit_code == 0, done.output
    assert (root / "CLAUDE.md").is_file() and list((root / "raw").iterdir())
    nothing = cli("research", "--kb", str(tmp_path / "missing"))
    assert nothing.exit_code == 2 and "does not exist" in nothing.output


def test_second_writer_is_refused(fresh_kb: Callable[[str], Path]) -> None:
    root = fresh_kb("kb")
    kb = open_kb(root)
    with kb.lock(), pytest.raises(LockedError):
        research_sync(kb, topic=TOPIC, runtime=Runtime(), settings=load_settings(root), max_rounds=1)


def test_missing_previous_check_report_falls_back_with_warning(fresh_kb: Callable[[str], Path]) -> None:
    root = fresh_kb("kb")
    kb = open_kb(root)
    research_sync(kb, topic=TOPIC, runtime=Runtime(), settings=load_settings(root), max_rounds=2)
    (root / "outputs/rounds/round_2_check.md").unlink()
    add_question(kb, "Is a coroutine a kind of generator?")  # re-opens the research whatever ended it
    reporter = RecordingReporter()
    research_sync(kb, topic=None, runtime=Runtime(), settings=load_settings(root), max_rounds=3, reporter=reporter)
    warning = "⚠️ using the round 1 check report (round 2's is missing)"
    assert ("warning", warning) in reporter.events
    summary = next(text for name, text in reporter.events if name == "message" and "Round 3" in text)
    assert warning in summary


def test_research_json_is_all_that_reaches_stdout(fresh_kb: Callable[[str], Path], cli: Any) -> None:
    """``research --json``: the run's outcome as JSON on stdout; progress and the final block on stderr."""
    root = fresh_kb("kb")
    done = cli("research", TOPIC, "--kb", str(root), "--max-rounds", "1", "--json")
    assert done.exit_code == 0, done.output
    outcome = json.loads(done.stdout)
    assert outcome["status"] == "terminated" and outcome["rounds"] == 1
    assert Path(outcome["summary"]).is_file() and Path(outcome["wiki"]).is_dir()
    assert "## research: How do Python generators" in done.stderr and "── done ──" in done.stderr
    assert "key questions" not in done.stderr  # the live line is drawn on terminals only


def test_the_files_a_person_added_are_not_read_as_a_sum_gone_wrong() -> None:
    """Round 1 after `add` of 23 files read "2 sources (23 new)" (a fresh-eyes trial)."""
    from autodidact.cli.cmd_loop import _done_zh, _research_line_en
    from autodidact.loop.progress import StepInfo

    info: StepInfo = {"sources": 2, "new_sources": 23, "claims": 9, "new_claims": 9, "raw_files": 0, "dropped": 0}
    line = _research_line_en(info)
    assert line.startswith("2 sources quoted, 23 new counting the files you added, 9 claims (9 new)")
    assert _done_zh("research", info).startswith("引用 2 个来源，连同你加入的文件共新增 23 个")
    usual: StepInfo = {**info, "new_sources": 1}
    assert _research_line_en(usual).startswith("2 sources (1 new), 9 claims")
