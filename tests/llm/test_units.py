"""Pure pieces of the model layer: JSON extraction, retry timing, model specs, Retry-After parsing."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from autodidact.config import load_settings
from autodidact.errors import ConfigError, ModelError
from autodidact.llm.base import TransientModelError, parse_retry_after
from autodidact.llm.registry import PRESETS, build_runtime, parse_model_spec
from autodidact.llm.retry import RetryPolicy, call_with_retry
from autodidact.llm.structured import ReplyError, extract_json, parse_output


class Item(BaseModel):
    name: str
    n: int


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "a", "n": 1}',
        '```json\n{"name": "a", "n": 1}\n```',
        '<think>maybe {"name": "wrong"}</think>\nHere you go: {"name": "a", "n": 1} hope it helps',
        'Sure!\n```\n{"name": "a", "n": 1}\n```\nDone.',
        '</think>{"name": "a", "n": 1}',
        '结果如下：{"name": "a", "n": 1}。',
    ],
)
def test_extract_json_finds_the_object(text: str) -> None:
    assert parse_output(text, Item) == Item(name="a", n=1)


def test_validation_error_names_the_field() -> None:
    with pytest.raises(ReplyError, match=r"n: Input should be a valid integer"):
        parse_output('{"name": "a", "n": "many"}', Item)
    with pytest.raises(ReplyError, match="no JSON object"):
        extract_json("<think>{unfinished reasoning")


@given(st.text(max_size=300))
def test_extract_json_never_crashes(text: str) -> None:
    try:
        value = extract_json(text)
    except ReplyError:
        return
    assert isinstance(value, dict)


@given(st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=8), max_size=5), st.text(max_size=40))
def test_extract_json_recovers_any_object_after_prose(obj: dict[str, object], prose: str) -> None:
    prose = prose.replace("{", "(").replace("}", ")").replace("`", "'").replace("<", "(")
    assert extract_json(prose + "\n" + json.dumps(obj, ensure_ascii=False)) == obj


def test_backoff_grows_and_is_capped() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=5.0, jitter=0.5)
    delays = [policy.backoff(n, rng=lambda: 0.0) for n in range(1, 6)]
    assert delays == [1.0, 2.0, 4.0, 5.0, 5.0]
    assert policy.backoff(1, rng=lambda: 1.0) == 1.5


def test_retry_after_sets_the_floor_and_attempts_are_bounded() -> None:
    slept: list[float] = []
    calls = 0

    async def fake_sleep(seconds: float) -> None:
        slept.append(seconds)

    async def failing() -> str:
        nonlocal calls
        calls += 1
        raise TransientModelError("busy", status=429, retry_after=3.0)

    policy = RetryPolicy(max_attempts=3, base_delay=0.1)
    with pytest.raises(ModelError, match=r"failed after 3 attempt\(s\) \(HTTP 429\)"):
        asyncio.run(call_with_retry(failing, policy, what="m", sleep=fake_sleep))
    assert calls == 3
    assert slept == [3.0, 3.0]


def test_an_absurd_retry_after_fails_fast() -> None:
    async def failing() -> str:
        raise TransientModelError("busy", status=429, retry_after=3600)

    with pytest.raises(ModelError, match="wait 3600 s"):
        asyncio.run(call_with_retry(failing, RetryPolicy(max_retry_after=60), what="m"))


def test_parse_retry_after_forms() -> None:
    assert parse_retry_after({"retry-after": "2"}) == 2.0
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert parse_retry_after({}) is None
    when = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert 25 < (parse_retry_after({"retry-after": when}) or 0) <= 30
    assert parse_retry_after({"retry-after": "soon"}) is None


def test_model_specs_and_presets() -> None:
    choice = parse_model_spec("ollama:qwen2.5:7b")
    assert choice is not None and choice.name == "qwen2.5:7b" and choice.preset.base_url.startswith("http://127.0.0.1")
    dashscope = parse_model_spec("dashscope")
    assert dashscope is not None and dashscope.preset.name == "qwen" and dashscope.name == "qwen-plus"
    assert parse_model_spec("offline") is None and parse_model_spec("") is None
    with pytest.raises(ConfigError, match="no default model"):
        parse_model_spec("vllm")
    assert PRESETS["llamacpp"].response_format == "json_object_schema"  # llama.cpp 500s on json_schema
    assert not PRESETS["llamacpp"].supports_json_schema
    assert {"openai", "deepseek", "qwen", "ollama", "vllm", "llamacpp", "openrouter", "anthropic"} <= set(PRESETS)


def test_autodidact_model_env_selects_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTODIDACT_MODEL", "ollama:llama3.2")
    runtime = build_runtime(load_settings(None), None)
    assert not runtime.is_offline
    assert runtime.describe() == "ollama:llama3.2 at http://127.0.0.1:11434/v1"
    assert build_runtime(load_settings(None), None, model="offline").is_offline


def test_autodidact_offline_refuses_remote_servers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTODIDACT_OFFLINE", "1")
    monkeypatch.setenv("OPENROUTER_API_KEY", "k")
    with pytest.raises(ConfigError, match="AUTODIDACT_OFFLINE"):
        build_runtime(load_settings(None), None, model="openrouter")
    assert not build_runtime(load_settings(None), None, model="llamacpp").is_offline  # loopback is fine
