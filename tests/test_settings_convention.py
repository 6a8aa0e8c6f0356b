"""Settings that follow convention (issue 19 item 5): XDG_CONFIG_HOME, and a model name checked first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from autodidact.config import load_settings, user_config_path


def _user_file(folder: Path, concurrency: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text(f"[llm]\nconcurrency = {concurrency}\n", "utf-8")


def test_the_user_file_follows_xdg_config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AUTODIDACT_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    _user_file(tmp_path / "xdg" / "autodidact", 3)
    _user_file(tmp_path / "home" / ".config" / "autodidact", 5)
    assert user_config_path() == tmp_path / "xdg" / "autodidact" / "config.toml"
    assert load_settings(None).llm.concurrency == 3
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/xdg")  # the specification says: ignore a relative path
    assert load_settings(None).llm.concurrency == 5
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert load_settings(None).llm.concurrency == 5
    monkeypatch.setenv("AUTODIDACT_HOME", str(tmp_path / "own"))  # still wins
    _user_file(tmp_path / "own", 7)
    assert load_settings(None).llm.concurrency == 7


@pytest.mark.parametrize("how", ["flag", "env"])
def test_a_model_without_a_provider_is_refused_before_the_knowledge_base_exists(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    kb = tmp_path / "kb"
    flag = ["--model", "gpt-4o"] if how == "flag" else []
    if how == "env":
        monkeypatch.setenv("AUTODIDACT_MODEL", "gpt-4o")
    result = cli("research", "How does apt pin versions?", "--kb", str(kb), *flag)
    assert result.exit_code == 2 and "unknown model provider 'gpt-4o'" in result.output
    assert not kb.exists()
    result = cli("debate", "start", "Remote work slows juniors", "--kb", str(kb), "--no-input", *flag)
    assert result.exit_code == 2 and "gpt-4o" in result.output
    assert not kb.exists()
