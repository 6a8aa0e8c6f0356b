"""Settings precedence and clear errors naming file, line and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from autodidact.config import load_settings, user_config_path
from autodidact.errors import ConfigError


def test_precedence_flags_env_kb_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kb_dir: Path) -> None:
    user = user_config_path()
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text('[llm]\nmodel = "openai:user"\nconcurrency = 2\n[fetch]\ndeadline = 5.0\n', "utf-8")
    (kb_dir / "autodidact.toml").write_text('[llm]\nmodel = "openai:kb"\n', "utf-8")
    s = load_settings(kb_dir)
    assert s.llm.model == "openai:kb"
    assert s.llm.concurrency == 2
    assert s.fetch.deadline == 5.0
    monkeypatch.setenv("AUTODIDACT_MODEL", "openai:env")
    assert load_settings(kb_dir).llm.model == "openai:env"
    assert load_settings(kb_dir, {"llm.model": "openai:flag"}).llm.model == "openai:flag"


def test_invalid_value_names_file_line_and_key(kb_dir: Path) -> None:
    (kb_dir / "autodidact.toml").write_text('language = "en"\n\n[llm]\nconcurrency = "many"\n', "utf-8")
    with pytest.raises(ConfigError) as info:
        load_settings(kb_dir)
    msg = str(info.value)
    assert "autodidact.toml:4" in msg and "llm.concurrency" in msg


def test_unknown_key_and_bad_toml(kb_dir: Path) -> None:
    (kb_dir / "autodidact.toml").write_text("[llm]\nmodle = 'x'\n", "utf-8")
    with pytest.raises(ConfigError, match=r"autodidact.toml:2.*llm.modle"):
        load_settings(kb_dir)
    (kb_dir / "autodidact.toml").write_text("[llm\n", "utf-8")
    with pytest.raises(ConfigError, match="invalid TOML"):
        load_settings(kb_dir)


def test_bad_env_value_names_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTODIDACT_MAX_COST", "lots")
    with pytest.raises(ConfigError, match=r"environment.*budget.max_cost"):
        load_settings(None)
