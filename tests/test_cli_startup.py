"""Startup stays light: what ``import autodidact.cli``, ``--help`` and ``status`` import (issue 18).

Timing is bench/startup.py's job; these tests check the cause instead, which does not depend on
how loaded the machine is: each runs in a fresh interpreter and reads ``sys.modules``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Packages --help never needs. (rich, with rich.markdown and markdown_it, is typer's to import when
# it renders help, so only importing the CLI is held to leave those out too.)
HEAVY = (
    "pydantic", "pydantic_core", "pydantic_settings", "httpx", "openai", "anthropic", "trafilatura", "lxml",
    "pypdf", "jinja2", "charset_normalizer", "asyncio", "sqlite3", "secrets",
)  # fmt: skip
# The only autodidact modules the command line may import before a command runs.
CLI_ONLY = ("autodidact", "autodidact.errors", "autodidact.progress")


def _modules_after(code: str, cwd: Path) -> list[str]:
    """``sys.modules`` of a fresh interpreter after running ``code`` (printed last, after a marker)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    script = f"import json, sys\n{code}\nprint('\\nMODULES ' + json.dumps(sorted(sys.modules)))\n"
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=cwd, env=env, check=False, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    line = proc.stdout.rsplit("\nMODULES ", 1)[1]
    modules: list[str] = json.loads(line)
    return modules


def _run(args: list[str]) -> str:
    return (
        "from autodidact.cli import app\n"
        "try:\n"
        f"    app({args!r})\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
    )


def _loaded(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return [m for m in modules if m.split(".")[0] in names or m in names]


def test_importing_the_cli_imports_no_heavy_module_and_no_domain_package(tmp_path: Path) -> None:
    modules = _modules_after("import autodidact.cli", tmp_path)
    assert "autodidact.cli.cmd_loop" in modules  # the commands are registered ...
    assert not _loaded(modules, (*HEAVY, "rich", "markdown_it"))  # ... without their dependencies
    domain = [m for m in modules if m.startswith("autodidact") and not m.startswith("autodidact.cli")]
    assert sorted(domain) == sorted(CLI_ONLY)


def test_help_imports_no_domain_package_and_no_model_layer(tmp_path: Path) -> None:
    modules = _modules_after(_run(["--help"]), tmp_path)
    assert "typer.rich_utils" in modules  # the help was rendered, by typer
    assert not _loaded(modules, HEAVY)
    domain = [m for m in modules if m.startswith("autodidact") and not m.startswith("autodidact.cli")]
    assert sorted(domain) == sorted(CLI_ONLY)


def test_status_reads_the_knowledge_base_without_the_network_model_or_index_layers(tmp_path: Path) -> None:
    from autodidact.kb import init_kb

    kb, _ = init_kb(tmp_path / "kb", topic="generators", lang="en")
    modules = _modules_after(_run(["status", "--kb", str(kb.root)]), tmp_path)
    assert "autodidact.loop.status" in modules
    light = ("httpx", "openai", "anthropic", "trafilatura", "lxml", "pypdf", "jinja2", "markdown_it", "sqlite3")
    assert not _loaded(modules, light)
    assert "rich.markdown" not in modules and "asyncio" not in modules
    assert not [m for m in modules if m.startswith(("autodidact.wiki", "autodidact.evidence", "autodidact.report"))]
