"""Shared fixtures: an isolated home, a fresh knowledge base, and a CLI runner.

Every test runs with ``AUTODIDACT_HOME`` pointing at a temporary folder, so no developer's
config leaks in, and pytest-socket (configured in pyproject) allows only loopback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

sys._called_from_test = True  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("AUTODIDACT_HOME", str(home))
    for var in list(os.environ):
        if var.startswith("AUTODIDACT_") and var != "AUTODIDACT_HOME":
            monkeypatch.delenv(var, raising=False)
    for var in (
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "DEEPSEEK_API_KEY",
        "DASHSCOPE_API_KEY",
        "OPENROUTER_API_KEY",
        "VLLM_API_KEY",
        "TAVILY_API_KEY",
        "BRAVE_API_KEY",
        "OPENAI_BASE_URL",
        # a proxy of the machine running the tests would reroute the loopback fakes
        *(name for base in ("http_proxy", "https_proxy", "all_proxy", "no_proxy") for name in (base, base.upper())),
    ):
        monkeypatch.delenv(var, raising=False)
    yield home


@pytest.fixture
def kb_dir(tmp_path: Path) -> Path:
    """A freshly initialised English knowledge base."""
    from autodidact.kb import init_kb

    kb, _ = init_kb(tmp_path / "kb", topic="Python generators", lang="en")
    return kb.root


@pytest.fixture
def cli() -> object:
    """Invoke the real CLI in-process: ``cli("init", str(path))`` returns a click Result."""
    from autodidact.cli import app

    runner = CliRunner()

    def invoke(*args: str, input: str | None = None) -> object:
        return runner.invoke(app, list(args), input=input, catch_exceptions=False)

    return invoke


@pytest.fixture(scope="session")
def pg_server() -> Iterator[object]:
    """One throwaway PostgreSQL cluster for the session (autodidact/testing/pgserver.py); skips with
    the reason when PostgreSQL or psycopg is not installed."""
    from autodidact.testing.pgserver import missing_reason, start_server

    reason = missing_reason()
    if reason is not None:
        pytest.skip(reason)
    server = start_server()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server: object) -> str:
    """The URL of a fresh, empty database on the session's server (tests never share tables)."""
    from autodidact.testing.pgserver import PgServer

    assert isinstance(pg_server, PgServer)
    return pg_server.create_database()


@pytest.fixture(params=["sqlite", "postgres"])
def index_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test once on the SQLite default and once on the PostgreSQL team backend (a fresh
    database, selected by AUTODIDACT_DATABASE_URL as a user would select it)."""
    if request.param == "postgres":
        monkeypatch.setenv("AUTODIDACT_DATABASE_URL", request.getfixturevalue("pg_url"))
    return str(request.param)
