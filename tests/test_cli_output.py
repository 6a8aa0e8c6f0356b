"""What the command line prints (issue 19, item 4), through the real CLI.

``--json`` puts the result, and only the result, on stdout (everything else goes to stderr);
output that is not a terminal is not hard-wrapped at 80 columns; shell completion is on; the live
status line says where a run is and when it waits for the model.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from autodidact.cli import app
from autodidact.cli.live_status import LiveStatus
from autodidact.llm.base import Request
from autodidact.llm.runtime import Runtime
from autodidact.testing.scripted import ScriptedModel

ROOT = Path(__file__).resolve().parent.parent

DOC = """# Generators

A generator function contains a yield expression. Calling it returns a generator iterator.
Each call to next() resumes the function until the next yield expression.
"""


def _run(*args: str) -> Any:
    """The CLI in-process; stdout and stderr apart (``result.stdout`` is stdout alone)."""
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result


def _only_json(result: Any) -> Any:
    """stdout parsed as one JSON document: anything else there makes this fail."""
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_commands_print_only_json_on_stdout(tmp_path: Path) -> None:
    root = tmp_path / "kb"
    made = _only_json(_run("init", str(root), "--topic", "Python generators", "--json"))
    assert made["kb"] == str(root.resolve()) and ".obsidian/app.json" in made["created"]
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "generators.md").write_text(DOC, "utf-8")
    added = _only_json(_run("add", str(docs), "--kb", str(root), "--json"))
    assert [a["new"] for a in added["added"]] == [True] and added["skipped"] == []
    raw_name = added["added"][0]["raw_file"]
    rebuilt = _only_json(_run("index", "rebuild", "--kb", str(root), "--json"))
    assert rebuilt["documents"] >= 1 and rebuilt["skipped"] == []
    compiled = _only_json(_run("wiki", "compile", "--kb", str(root), "--json"))
    assert compiled["new"] and raw_name.removeprefix("raw/") in " ".join(compiled["compiled"])
    checked = _only_json(_run("wiki", "check", "--kb", str(root), "--json"))
    assert Path(checked["report"]).is_file() and "audit_issues_count" in checked
    asked = _only_json(_run("ask", "Can a generator be restarted?", "--kb", str(root), "--json"))
    assert asked["question"] == "Can a generator be restarted?"
    doctor = _only_json(_run("doctor", "--kb", str(root), "--json"))
    assert doctor["offline"] is True and doctor["settings"]["llm"]["model"] in (None, "")
    found = _only_json(_run("search", "yield expression", "--kb", str(root), "--json"))
    assert found and found[0]["raw_file"]


def test_without_json_a_command_speaks_to_people(tmp_path: Path) -> None:
    root = tmp_path / "kb"
    made = _run("init", str(root))
    assert made.exit_code == 0 and made.stdout == ""  # messages are on stderr
    assert "initialised knowledge base" in made.stderr
    with pytest.raises(json.JSONDecodeError):
        json.loads(made.stderr)


def test_piped_output_is_not_wrapped_at_80_columns(tmp_path: Path) -> None:
    """A real process with its output in pipes: a long line stays one line."""
    deep = tmp_path / ("a-folder-with-a-rather-long-name-" * 3) / "knowledge-base"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "", "TERM": "dumb"}
    env.pop("COLUMNS")
    proc = subprocess.run(
        [sys.executable, "-m", "autodidact", "init", str(deep)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    line = next(x for x in proc.stderr.splitlines() if "initialised knowledge base" in x)
    assert str(deep.resolve()) in line and len(line) > 80


def test_shell_completion_is_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # the shell named, not detected: detection reads the process's ancestors, and a run with no
    # shell among them (started detached, as `nohup … &`) found none — "Shell  not supported."
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    shown = CliRunner().invoke(app, ["--show-completion", "bash"], prog_name="autodidact")
    assert shown.exit_code == 0 and "_AUTODIDACT_COMPLETE=complete_bash" in shown.stdout, shown.output
    env = {"_AUTODIDACT_COMPLETE": "complete_bash", "COMP_WORDS": "autodidact res", "COMP_CWORD": "1"}
    completed = CliRunner().invoke(app, [], env=env, prog_name="autodidact")
    assert completed.stdout.split() == ["research"]


def test_the_live_line_says_where_the_run_is_and_when_it_waits_for_the_model() -> None:
    seen: list[str] = []

    def reply(request: Request) -> str:
        seen.append(status.text())  # what the line reads while the request is out
        return '{"ok": true}'

    runtime = Runtime(model=ScriptedModel(fn=reply))
    terminal = Console(file=io.StringIO(), force_terminal=True, width=100)
    status = LiveStatus(terminal, runtime)
    status.set("round", "round 2/5")
    status.set("step", "step 2 research")
    status.set("questions", "key questions 3/7")
    assert status.shown
    status.start()
    try:
        request = Request(messages=[{"role": "user", "content": "ok?"}], task="t", max_tokens=8)
        asyncio.run(runtime.complete(request))
    finally:
        status.stop()
    assert seen == ["round 2/5 · step 2 research · key questions 3/7 · waiting for the model (1 call)"]
    assert runtime.calls_in_flight == 0
    assert status.text() == "round 2/5 · step 2 research · key questions 3/7"
    zh = LiveStatus(terminal, runtime, zh=True)
    zh.set("round", "第 1/3 轮")
    assert zh.text() == "第 1/3 轮"


def test_off_a_terminal_nothing_is_drawn() -> None:
    piped = Console(file=io.StringIO())
    status = LiveStatus(piped)
    status.start()
    assert not status.shown and status.live is None
    status.stop()


def test_researchs_result_is_on_stdout_and_its_progress_on_stderr(tmp_path: Path) -> None:
    """A fresh-eyes trial found stdout empty after `research`: its result block went to stderr,
    though the README says a command's result goes to stdout."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "generators.md").write_text(DOC, "utf-8")
    root = tmp_path / "kb"
    result = _run(
        "research", "How do Python generators work?", "--kb", str(root), "--corpus", str(docs), "--max-rounds", "1"
    )
    assert result.exit_code == 0, result.output
    assert "status:" in result.stdout and f"- summary: {root.resolve()}" in result.stdout
    assert "step 1" in result.stderr or "→" in result.stderr  # progress stays on stderr
    assert "→" not in result.stdout
    as_json = _only_json(
        _run(
            "research",
            "How do Python generators work?",
            "--kb",
            str(tmp_path / "kb2"),
            "--corpus",
            str(docs),
            "--max-rounds",
            "1",
            "--json",
        )
    )
    assert as_json["rounds"] == 1


def test_search_into_a_pipe_prints_plain_lines(tmp_path: Path) -> None:
    """A box table drawn for a 300-column "terminal" was what `search … | less` got (a fresh-eyes trial)."""
    root = tmp_path / "kb"
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "generators.md").write_text(DOC, "utf-8")
    assert _run("add", str(docs), "--kb", str(root)).exit_code == 0
    found = _run("search", "yield expression", "--kb", str(root))
    lines = found.stdout.splitlines()
    assert lines[0].startswith("1. ") and "(raw/" in lines[0] and "Generators" in lines[0]
    assert lines[1].startswith("   ") and "yield expression" in lines[1]
    assert not any(ch in found.stdout for ch in "┏│━")


def test_add_makes_a_new_knowledge_base_folder_but_never_adopts_another(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "generators.md").write_text(DOC, "utf-8")
    made = _run("add", str(docs), "--kb", str(tmp_path / "new-kb"))
    assert made.exit_code == 0 and "initialised knowledge base" in made.stderr
    assert (tmp_path / "new-kb" / "raw").is_dir()
    plain = tmp_path / "plain"
    plain.mkdir()
    refused = _run("add", str(docs), "--kb", str(plain))  # a folder that exists and is no knowledge base
    assert refused.exit_code != 0 and not (plain / "raw").exists()
    missing = _run("add", str(tmp_path / "nowhere"), "--kb", str(tmp_path / "other-kb"))
    assert missing.exit_code != 0 and not (tmp_path / "other-kb").exists()  # bad input leaves nothing behind
