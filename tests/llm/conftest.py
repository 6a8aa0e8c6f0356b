"""Fixtures for model-layer tests: a loopback fake server and runtimes built the way the CLI builds them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, Field

from autodidact.config import Settings, load_settings
from autodidact.llm.registry import build_runtime
from autodidact.llm.retry import RetryPolicy
from autodidact.llm.runtime import Runtime
from autodidact.llm.tasks import Message
from autodidact.testing.fake_llm import FakeLLM

FAKE_KEY = "sk-fake-DO-NOT-LEAK-7f3a9c2e41"
KEY_VARS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}


class Verdict(BaseModel):
    """Output of the test task."""

    topic: str
    confidence: int = Field(ge=0, le=10)


class VerdictTask:
    """A fixed prompt (no random data tags), so identical inputs give identical requests."""

    name = "verdict"
    Output = Verdict

    def build_prompt(self, inputs: str) -> list[Message]:
        return [
            Message(role="system", content="Judge the topic."),
            Message(role="user", content=f"Topic: {inputs}"),
        ]

    def offline(self, inputs: str) -> Verdict:
        return Verdict(topic=inputs, confidence=0)


FAST = RetryPolicy(max_attempts=3, base_delay=0.01, max_delay=0.05, jitter=0.1, attempt_timeout=5.0)


@pytest.fixture
def fake() -> Iterator[FakeLLM]:
    with FakeLLM() as server:
        yield server


@pytest.fixture(params=["openai", "anthropic"])
def provider(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test runs against the real openai SDK and the real anthropic SDK."""
    name = str(request.param)
    monkeypatch.setenv(KEY_VARS[name], FAKE_KEY)
    return name


@pytest.fixture
def make_runtime(fake: FakeLLM, provider: str) -> Callable[..., Runtime]:
    """``make_runtime(kb_root=None, policy=FAST, **llm_settings)`` → a runtime pointed at the fake."""

    def build(kb_root: Path | None = None, policy: RetryPolicy = FAST, no_cache: bool = False, **llm: Any) -> Runtime:
        base = fake.base_url if provider == "openai" else fake.root_url
        budget = llm.pop("budget", None)
        flags: dict[str, Any] = {"llm.model": f"{provider}:test-model", "llm.base_url": base}
        flags.update({f"llm.{k}": v for k, v in llm.items()})
        if budget:
            flags.update({f"budget.{k}": v for k, v in budget.items()})
        settings: Settings = load_settings(kb_root, flags)
        runtime = build_runtime(settings, kb_root, no_cache=no_cache)
        runtime.retry_policy = policy
        return runtime

    return build
