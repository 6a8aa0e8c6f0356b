"""Model calls honour the environment's proxy variables, and ``llm.proxy_from_env = false`` turns that off.

The real openai and anthropic SDKs against the loopback fake; the "proxy" is a port where nothing
listens, so a call that went through it cannot reach the fake.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from autodidact.errors import ModelError
from autodidact.llm.runtime import Runtime
from autodidact.testing.fake_llm import FakeLLM

from .conftest import Verdict, VerdictTask

GOOD = '{"topic": "generators", "confidence": 7}'


def test_model_calls_go_through_the_proxy_unless_the_setting_says_not_to(
    fake: FakeLLM, make_runtime: Callable[..., Runtime], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # nothing listens there
    fake.enqueue(GOOD)
    direct = make_runtime(proxy_from_env=False).run_sync(VerdictTask(), "generators")
    assert direct == Verdict(topic="generators", confidence=7)
    assert len(fake.requests) == 1
    with pytest.raises(ModelError):  # through the (dead) proxy: the fake is never reached
        make_runtime(fallback="none").run_sync(VerdictTask(), "generators")
    assert len(fake.requests) == 1
