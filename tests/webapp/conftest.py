"""Knowledge bases the web app tests read: one English research with a report, one Chinese research.

Built once per module (a research takes seconds) under an isolated ``AUTODIDACT_HOME``; tests that
change files make their own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from autodidact.testing.corpora import APT_ZH_MD, GENERATORS_MD
from autodidact.webapp.app import create_app

ORIGIN = "http://testserver"


def _isolated(factory: pytest.TempPathFactory) -> pytest.MonkeyPatch:
    patch = pytest.MonkeyPatch()
    patch.setenv("AUTODIDACT_HOME", str(factory.mktemp("home")))
    patch.delenv("AUTODIDACT_MODEL", raising=False)
    return patch


@pytest.fixture(scope="module")
def english_kb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A finished two-round English research over one document, with a quick report."""
    from autodidact.api import report, research

    patch = _isolated(tmp_path_factory)
    base = tmp_path_factory.mktemp("en")
    (base / "docs").mkdir()
    (base / "docs" / "generators.md").write_text(GENERATORS_MD, encoding="utf-8")
    kb = base / "kb"
    research("How do Python generators work?", kb=kb, corpus=[base / "docs"], max_rounds=2)
    report("How do Python generators work?", kb=kb, mode="quick")
    yield kb
    patch.undo()


@pytest.fixture(scope="module")
def chinese_kb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A finished Chinese research over one document."""
    from autodidact.api import research

    patch = _isolated(tmp_path_factory)
    base = tmp_path_factory.mktemp("zh")
    (base / "docs").mkdir()
    (base / "docs" / "apt.md").write_text(APT_ZH_MD, encoding="utf-8")
    kb = base / "kb"
    research("APT 如何管理软件包？", kb=kb, corpus=[base / "docs"], max_rounds=1)
    yield kb
    patch.undo()


def client_for(kb: Path) -> TestClient:
    """A test client for the app over ``kb`` (Host ``testserver`` allowed, as the client sends it)."""
    return TestClient(create_app(kb, allowed_hosts=["testserver"]))


def token_of(client: TestClient, page: str = "/research") -> str:
    """The form token a page carries for the client's session (the first GET sets the cookie)."""
    match = re.search(r'name="token" value="([0-9a-f]+)"', client.get(page).text)
    assert match, f"no form token on {page}"
    return match.group(1)


def error_of(html: str) -> str:
    """The one-line message of an error page."""
    match = re.search(r'<p class="error" id="error">([^<]*)</p>', html)
    assert match, "not an error page"
    return match.group(1)
