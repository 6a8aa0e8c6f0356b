"""``autodidact doctor`` / ``usage`` and the shared engine options, through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autodidact.testing.fake_llm import FakeLLM

from .conftest import FAKE_KEY, VerdictTask


def test_doctor_offline_shows_settings_engine_and_masks_secrets(
    cli: Any, kb_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    result = cli("doctor", "--kb", str(kb_dir))
    assert result.exit_code == 0, result.output
    assert "engine: offline (no model configured)" in result.output
    assert "llm.concurrency = 4" in result.output
    assert f"OPENAI_API_KEY: set ({len(FAKE_KEY)} chars)" in result.output
    assert "ANTHROPIC_API_KEY: (not set)" in result.output
    assert "local full-text search (always)" in result.output
    assert FAKE_KEY not in result.output


def test_doctor_names_a_missing_key_without_failing(cli: Any, kb_dir: Path) -> None:
    result = cli("doctor", "--kb", str(kb_dir), "--model", "deepseek")
    assert result.exit_code == 0
    assert "DEEPSEEK_API_KEY is not set" in result.output


def test_doctor_check_makes_one_call_and_one_speed_call(
    cli: Any, kb_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    counting = " ".join(str(n) for n in range(1, 121))
    with FakeLLM(['{"ok": true}', counting]) as fake:
        monkeypatch.setenv("AUTODIDACT_BASE_URL", fake.base_url)
        result = cli("doctor", "--kb", str(kb_dir), "--model", "openai:test-model", "--check")
        assert result.exit_code == 0, result.output
        assert "model server OK" in result.output
        assert "openai:test-model at " + fake.base_url in result.output
        assert "generation speed: ~" in result.output and "tokens_per_second" in result.output
        assert len(fake.requests) == 2
        assert fake.requests[0].body["model"] == "test-model"


def test_doctor_check_reports_refused_key(cli: Any, kb_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
    with FakeLLM(api_key="another") as fake:
        monkeypatch.setenv("AUTODIDACT_BASE_URL", fake.root_url)
        result = cli("doctor", "--kb", str(kb_dir), "--model", "anthropic:claude-test", "--check")
        assert result.exit_code != 0
        assert "ANTHROPIC_API_KEY" in result.output
        assert FAKE_KEY not in result.output
        assert len(fake.requests) == 1
    for path in kb_dir.rglob("*"):
        if path.is_file():
            assert FAKE_KEY.encode() not in path.read_bytes(), path


def test_usage_totals_by_task_and_model(cli: Any, kb_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from autodidact.cli.engine_opts import make_runtime

    empty = cli("usage", "--kb", str(kb_dir))
    assert empty.exit_code == 0 and "no model calls" in empty.output
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    with FakeLLM(lambda body: '{"topic": "t", "confidence": 3}', usage=(120, 30)) as fake:
        monkeypatch.setenv("AUTODIDACT_BASE_URL", fake.base_url)
        runtime = make_runtime(kb_dir, "openai:test-model")
        for topic in ("a", "b", "a"):
            runtime.run_sync(VerdictTask(), topic)
    result = cli("usage", "--kb", str(kb_dir), "--json")
    assert result.exit_code == 0
    totals = json.loads(result.stdout)
    assert totals["calls"] == 3 and totals["cached_calls"] == 1
    assert (totals["input_tokens"], totals["output_tokens"]) == (240, 60)
    assert totals["by_model"]["openai:test-model"]["calls"] == 3
    assert totals["unpriced_models"] == ["openai:test-model"]
    table = cli("usage", "--kb", str(kb_dir))
    assert "verdict" in table.output and "240 input + 60 output tokens" in table.output


def test_make_runtime_announces_the_engine(capsys: pytest.CaptureFixture[str], kb_dir: Path) -> None:
    from autodidact.cli.engine_opts import make_runtime

    runtime = make_runtime(kb_dir, None, max_cost=0.5)
    assert runtime.is_offline
    assert "engine: offline (no model configured)" in capsys.readouterr().err
    offline = make_runtime(kb_dir, "offline")
    assert offline.is_offline and "--model offline" in offline.describe()


def test_unknown_provider_is_a_clear_error(cli: Any, kb_dir: Path) -> None:
    result = cli("doctor", "--kb", str(kb_dir), "--model", "nosuch:model", "--check")
    assert result.exit_code == 2
    assert "unknown model provider 'nosuch'" in result.output


def test_cost_cap_without_a_price_is_warned(
    capsys: pytest.CaptureFixture[str], kb_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from autodidact.cli.engine_opts import make_runtime

    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    runtime = make_runtime(kb_dir, "openai:test-model", max_cost=1.0)
    err = capsys.readouterr().err
    assert "engine: openai:test-model at https://api.openai.com/v1 (max cost $1)" in err
    assert "no price for openai:test-model" in err
    assert runtime.budget.budget.max_cost == 1.0


def test_doctor_lists_web_search_providers_and_their_problems(
    cli: Any, kb_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AUTODIDACT_SEARCH_PROVIDERS", "searxng")
    monkeypatch.setenv("AUTODIDACT_SEARXNG_URL", "http://127.0.0.1:8888")
    ok = cli("doctor", "--kb", str(kb_dir))
    assert "web: searxng" in ok.output
    monkeypatch.setenv("AUTODIDACT_SEARCH_PROVIDERS", "searxng,brave")
    missing = cli("doctor", "--kb", str(kb_dir))
    assert missing.exit_code == 0
    assert "web search not usable" in missing.output and "BRAVE_API_KEY" in missing.output
