"""Fixtures of the team-backend tests: the real CLI in subprocesses against a real PostgreSQL server.

The server is the session's throwaway cluster (``pg_server`` in tests/conftest.py); each test gets
its own database (``pg_url``). They skip, with the reason, only where PostgreSQL is not installed."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import autodidact

SRC = str(Path(autodidact.__file__).resolve().parent.parent)

Env = Callable[..., dict[str, str]]
Cli = Callable[..., subprocess.CompletedProcess[str]]
Spawn = Callable[..., subprocess.Popen[str]]


@pytest.fixture
def team_env() -> Env:
    """``team_env(url, **extra)``: a subprocess's environment with this checkout's package and the URL."""

    def make(url: str | None, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "AUTODIDACT_DATABASE_URL"}
        env["PYTHONPATH"] = SRC + os.pathsep + os.environ.get("PYTHONPATH", "")
        env["COLUMNS"] = "200"
        if url is not None:
            env["AUTODIDACT_DATABASE_URL"] = url
        env.update(extra)
        return env

    return make


@pytest.fixture
def run_cli() -> Cli:
    """``run_cli(*args, cwd=, env=)``: ``autodidact ARGS`` as its own process, waited for."""

    def run(*args: str, cwd: Path, env: dict[str, str], timeout: float = 900) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "autodidact", *args],
            cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip

    return run


@pytest.fixture
def spawn_cli() -> Iterator[Spawn]:
    """``spawn_cli(*args, cwd=, env=)``: ``autodidact ARGS`` started in the background."""
    started: list[subprocess.Popen[str]] = []

    def spawn(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "autodidact", *args],
            cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        started.append(proc)
        return proc

    yield spawn
    for proc in started:  # a failed test leaves no process behind
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=30)
