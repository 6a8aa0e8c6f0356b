"""The CLI surface: every subcommand has --help, and README.md documents every subcommand."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from typer.main import get_command
from typer.testing import CliRunner

from autodidact.cli import app

ROOT = Path(__file__).resolve().parent.parent


def _command_paths() -> list[tuple[str, ...]]:
    root = get_command(app)
    found: list[tuple[str, ...]] = []

    def walk(cmd: object, path: tuple[str, ...]) -> None:
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in subs.items():
                if getattr(sub, "hidden", False):
                    continue
                walk(sub, (*path, name))
        elif path:
            found.append(path)

    walk(root, ())
    return found


def test_every_subcommand_has_help() -> None:
    runner = CliRunner()
    paths = _command_paths()
    assert ("init",) in paths
    for path in paths:
        result = runner.invoke(app, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)
        assert "Usage" in result.output


def test_every_subcommand_is_in_readme() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    missing = [" ".join(p) for p in _command_paths() if f"autodidact {' '.join(p)}" not in readme]
    assert not missing, f"README.md does not mention: {missing}"


def test_real_entry_point_runs_and_reports_expected_errors_in_one_line(tmp_path: Path) -> None:
    target = tmp_path / "plain-file"
    target.write_text("x", "utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "autodidact", "init", str(target)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: ")
    assert "Traceback" not in proc.stderr


def test_help_lists_the_main_job_first() -> None:
    output = CliRunner().invoke(app, ["--help"]).output
    assert output.index(" research ") < output.index(" init ") < output.index(" snapshot ")


def test_research_refuses_a_missing_corpus_or_an_empty_topic_before_creating_anything(cli: Any, tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    result = cli("research", "How does X work?", "--kb", str(kb), "--corpus", str(tmp_path / "nope"))
    assert result.exit_code == 2 and "corpus path" in result.output and "does not exist" in result.output
    assert not kb.exists()  # nothing created, no round run over nothing
    result = cli("research", "   ", "--kb", str(kb))
    assert result.exit_code == 2 and "the research topic is empty" in result.output
    assert not kb.exists()
