"""The real openai and anthropic SDKs against the loopback fake: every resilience promise of issue 2."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from pathlib import Path

import pytest

from autodidact.errors import BudgetExceeded, ContextLengthError, ModelAuthError, ModelError, ModelOutputInvalid
from autodidact.llm.guards import bounded_schema
from autodidact.llm.ledger import read_totals
from autodidact.llm.retry import RetryPolicy
from autodidact.llm.runtime import Runtime
from autodidact.testing.fake_llm import FakeLLM, Fault, think

from .conftest import FAKE_KEY, Verdict, VerdictTask

GOOD = '{"topic": "generators", "confidence": 7}'
MakeRuntime = Callable[..., Runtime]


def test_schema_output_is_parsed(fake: FakeLLM, provider: str, make_runtime: MakeRuntime) -> None:
    fake.enqueue(GOOD)
    out = make_runtime().run_sync(VerdictTask(), "generators")
    assert out == Verdict(topic="generators", confidence=7)
    (req,) = fake.requests
    schema = bounded_schema(Verdict.model_json_schema())  # what is sent: with maxLength/maxItems
    if provider == "openai":
        assert req.path == "/v1/chat/completions"
        assert req.body["response_format"]["json_schema"]["schema"] == schema
        assert req.body["messages"][1] == {"role": "user", "content": "Topic: generators"}
    else:
        assert req.path == "/v1/messages"
        assert json.dumps(schema) in req.body["system"]  # no native schema mode: instructed
        assert req.body["messages"] == [{"role": "user", "content": "Topic: generators"}]


def test_think_block_and_code_fence_are_stripped(fake: FakeLLM, make_runtime: MakeRuntime) -> None:
    fake.enqueue(think("```json\n" + GOOD + "\n```"))
    assert make_runtime().run_sync(VerdictTask(), "x").confidence == 7
    assert len(fake.requests) == 1


def test_invalid_then_valid_json_is_exactly_one_reask(fake: FakeLLM, provider: str, make_runtime: MakeRuntime) -> None:
    fake.enqueue('{"topic": "generators", "confidence": "very"', GOOD, GOOD)
    out = make_runtime().run_sync(VerdictTask(), "generators")
    assert out.confidence == 7
    assert len(fake.requests) == 2
    second = fake.requests[1].body["messages"]
    assert second[-2]["role"] == "assistant" and "very" in second[-2]["content"]
    assert second[-1]["role"] == "user" and "not valid" in second[-1]["content"]


def test_two_invalid_replies_fail_naming_the_task(fake: FakeLLM, make_runtime: MakeRuntime) -> None:
    fake.enqueue('{"topic": 1}', "I cannot answer in JSON.", GOOD)
    with pytest.raises(ModelOutputInvalid, match="task verdict"):
        make_runtime().run_sync(VerdictTask(), "x")
    assert len(fake.requests) == 2


def test_429_retry_after_is_honoured(fake: FakeLLM, make_runtime: MakeRuntime) -> None:
    fake.enqueue(Fault.rate_limit(retry_after=1), GOOD)
    assert make_runtime().run_sync(VerdictTask(), "x").confidence == 7
    first, second = fake.requests
    assert second.at - first.at >= 1.0  # never sooner than the server asked


def test_repeated_500_gives_a_clear_error_after_bounded_attempts(fake: FakeLLM, make_runtime: MakeRuntime) -> None:
    fake.enqueue(*[Fault.server_error()] * 5)
    with pytest.raises(ModelError) as info:
        make_runtime().run_sync(VerdictTask(), "x")
    assert "failed after 3 attempt(s) (HTTP 500)" in info.value.message
    assert "test-model" in info.value.message and info.value.hint
    assert len(fake.requests) == 3


def test_401_is_not_retried_and_names_the_variable_not_the_key(
    fake: FakeLLM, provider: str, make_runtime: MakeRuntime
) -> None:
    fake.state.api_key = "the-right-key"  # the fake echoes the presented key in its 401 body
    with pytest.raises(ModelAuthError) as info:
        make_runtime().run_sync(VerdictTask(), "x")
    assert len(fake.requests) == 1
    var = "OPENAI_API_KEY" if provider == "openai" else "ANTHROPIC_API_KEY"
    text = f"{info.value.message} {info.value.hint}"
    assert var in text
    assert FAKE_KEY not in text and FAKE_KEY[-8:] not in text
    presented = fake.requests[0].headers.get("authorization", "") + fake.requests[0].headers.get("x-api-key", "")
    assert FAKE_KEY in presented  # the key really was sent, and really was not echoed back to the user


def test_context_length_error_is_its_own_type_and_not_retried(fake: FakeLLM, make_runtime: MakeRuntime) -> None:
    fake.enqueue(Fault.context_length(), GOOD)
    with pytest.raises(ContextLengthError, match="task verdict"):
        make_runtime().run_sync(VerdictTask(), "x")
    assert len(fake.requests) == 1


def test_hang_times_out_and_is_retried(fake: FakeLLM, make_runtime: MakeRuntime) -> None:
    fake.enqueue(Fault.hang(), GOOD)
    policy = RetryPolicy(max_attempts=2, base_delay=0.01, attempt_timeout=0.5)
    assert make_runtime(policy=policy).run_sync(VerdictTask(), "x").confidence == 7
    assert len(fake.requests) == 2


def test_sdk_read_timeout_is_retried(fake: FakeLLM, make_runtime: MakeRuntime) -> None:
    fake.enqueue(Fault.hang(), GOOD)
    policy = RetryPolicy(max_attempts=2, base_delay=0.01, attempt_timeout=30)
    assert make_runtime(policy=policy, timeout=0.5).run_sync(VerdictTask(), "x").confidence == 7
    assert len(fake.requests) == 2


def test_invalid_response_body_is_retried(fake: FakeLLM, make_runtime: MakeRuntime) -> None:
    fake.enqueue(Fault.invalid_body(), GOOD)
    assert make_runtime().run_sync(VerdictTask(), "x").confidence == 7
    assert len(fake.requests) == 2


def test_cached_call_sends_no_second_request(fake: FakeLLM, make_runtime: MakeRuntime, kb_dir: Path) -> None:
    fake.enqueue(GOOD, '{"topic": "other", "confidence": 1}')
    first = make_runtime(kb_dir).run_sync(VerdictTask(), "generators")
    second = make_runtime(kb_dir).run_sync(VerdictTask(), "generators")
    assert first == second
    assert len(fake.requests) == 1
    totals = read_totals(kb_dir / ".autodidact" / "usage_ledger.jsonl")
    assert totals["calls"] == 2 and totals["cached_calls"] == 1
    bypass = make_runtime(kb_dir, no_cache=True).run_sync(VerdictTask(), "generators")
    assert bypass.topic == "other" and len(fake.requests) == 2


def test_ledger_totals_equal_server_reported_usage(fake: FakeLLM, make_runtime: MakeRuntime, kb_dir: Path) -> None:
    fake.enqueue(GOOD, Fault.server_error(), GOOD, '{"bad": 1}', GOOD)
    runtime = make_runtime(kb_dir, prices={"test-model": (2.0, 8.0)})
    runtime.run_sync(VerdictTask(), "a")  # plain
    runtime.run_sync(VerdictTask(), "b")  # one 500, then a reply
    runtime.run_sync(VerdictTask(), "c")  # invalid, then one re-ask
    reported_in, reported_out = fake.reported_usage
    totals = read_totals(kb_dir / ".autodidact" / "usage_ledger.jsonl")
    assert (totals["input_tokens"], totals["output_tokens"]) == (reported_in, reported_out)
    assert totals["calls"] == 5  # the failed attempt is in the ledger too, at no tokens
    assert totals["failed_calls"] == 1
    assert totals["by_task"]["verdict"]["calls"] == 5
    assert totals["cost_usd"] == pytest.approx((reported_in * 2.0 + reported_out * 8.0) / 1e6)
    assert runtime.usage_totals()["input_tokens"] == reported_in


@pytest.mark.parametrize("cap", ["max_tokens", "max_cost"])
def test_budget_cap_stops_before_the_call_that_would_pass_it(
    fake: FakeLLM, make_runtime: MakeRuntime, kb_dir: Path, cap: str
) -> None:
    fake.state.usage = (100, 50)  # every reply reports 150 tokens
    fake.state.fn = lambda body: GOOD
    # one token costs $1 per million when priced at (1, 1): cost cap 0.0004 == token cap 400
    budget = {"max_tokens": 400} if cap == "max_tokens" else {"max_cost": 0.0004}
    runtime = make_runtime(kb_dir, max_tokens=50, prices={"test-model": (1.0, 1.0)}, budget=budget)
    with pytest.raises(BudgetExceeded):
        for i in range(10):
            runtime.run_sync(VerdictTask(), f"topic {i}")
    # 150 + (~estimate + 50) fits under 400; 300 + (~estimate + 50) does not
    assert len(fake.requests) == 2
    totals = read_totals(kb_dir / ".autodidact" / "usage_ledger.jsonl")
    assert totals["input_tokens"] + totals["output_tokens"] == 300 <= 400


def test_concurrency_is_bounded_at_the_server(fake: FakeLLM, make_runtime: MakeRuntime) -> None:
    fake.state.fn = lambda body: GOOD
    fake.set_latency(0.1)
    runtime = make_runtime(concurrency=3)

    async def main() -> None:
        await asyncio.gather(*(runtime.run(VerdictTask(), f"t{i}") for i in range(9)))
        await runtime.aclose()

    asyncio.run(main())
    assert len(fake.requests) == 9
    assert fake.peak_in_flight == 3


def test_fake_key_leaves_no_trace_in_the_knowledge_base_or_logs(
    fake: FakeLLM, make_runtime: MakeRuntime, kb_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    fake.enqueue(GOOD, Fault.rate_limit(0), '{"x": 1}', GOOD, Fault.server_error(), Fault.server_error())
    fake.enqueue(Fault.server_error())
    runtime = make_runtime(kb_dir)
    runtime.run_sync(VerdictTask(), "a")
    runtime.run_sync(VerdictTask(), "b")
    with pytest.raises(ModelError):
        runtime.run_sync(VerdictTask(), "c")
    fake.state.api_key = "another-key"
    with pytest.raises(ModelAuthError):
        make_runtime(kb_dir).run_sync(VerdictTask(), "d")
    needle = FAKE_KEY.encode()
    scanned = 0
    for path in kb_dir.rglob("*"):
        if path.is_file():
            scanned += 1
            assert needle not in path.read_bytes(), path
    assert (kb_dir / ".autodidact" / "usage_ledger.jsonl").is_file()
    assert (kb_dir / ".autodidact" / "index.sqlite").is_file()
    assert scanned >= 5
    assert FAKE_KEY not in caplog.text


@pytest.mark.parametrize(
    ("preset", "expected_format"),
    [("deepseek", {"type": "json_object"}), ("llamacpp", {"type": "json_object", "schema": "SCHEMA"})],
)
def test_backends_without_json_schema_get_json_mode_and_the_instruction(
    preset: str, expected_format: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    from autodidact.config import load_settings
    from autodidact.llm.registry import build_runtime

    monkeypatch.setenv("DEEPSEEK_API_KEY", FAKE_KEY)
    schema = bounded_schema(Verdict.model_json_schema())  # what is sent: with maxLength/maxItems
    with FakeLLM([GOOD]) as server:
        settings = load_settings(None, {"llm.base_url": server.base_url})
        runtime = build_runtime(settings, None, model=f"{preset}:m")
        assert runtime.run_sync(VerdictTask(), "x").confidence == 7
        body = server.requests[0].body
    fmt = {k: (schema if v == "SCHEMA" else v) for k, v in expected_format.items()}
    assert body["response_format"] == fmt
    assert body["messages"][-1]["role"] == "system"
    assert json.dumps(schema) in body["messages"][-1]["content"]
    if preset == "llamacpp":  # the preset's 4096-token window holds the prompt and the reply
        assert 3000 < body["max_tokens"] < 4096
        assert body["messages"][0]["content"] == "Judge the topic."


def test_server_messages_are_redacted_of_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    from autodidact.config import load_settings
    from autodidact.llm.registry import build_runtime

    monkeypatch.setenv("VLLM_API_KEY", FAKE_KEY)  # a preset's own variable, not only the global list
    with FakeLLM([Fault.http(400, message=f"model not served for key {FAKE_KEY}")]) as server:
        runtime = build_runtime(load_settings(None, {"llm.base_url": server.base_url}), None, model="vllm:m")
        with pytest.raises(ModelError) as info:
            runtime.run_sync(VerdictTask(), "x")
    assert "HTTP 400" in info.value.message and "model not served for key ***" in info.value.message
    assert FAKE_KEY not in info.value.message
    assert server.requests[0].headers["authorization"] == f"Bearer {FAKE_KEY}"


def test_a_refusal_is_reasked_once_then_fails_naming_the_task(fake: FakeLLM, make_runtime: MakeRuntime) -> None:
    fake.enqueue(Fault.refusal("I can't help with that."), Fault.refusal("Still no."), GOOD)
    with pytest.raises(ModelOutputInvalid, match="task verdict") as info:
        make_runtime().run_sync(VerdictTask(), "x")
    assert "Still no." in info.value.message
    assert len(fake.requests) == 2


def test_a_refusal_then_an_answer_succeeds(fake: FakeLLM, make_runtime: MakeRuntime) -> None:
    fake.enqueue(Fault.refusal(), GOOD)
    assert make_runtime().run_sync(VerdictTask(), "x").confidence == 7
    assert len(fake.requests) == 2
