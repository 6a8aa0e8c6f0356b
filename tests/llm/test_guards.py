"""The guards for real (weak) models: truncation, echo, empty text, loops, fallback, context, abandoned calls.

Each test drives the real Runtime with a ScriptedModel (or the loopback FakeLLM through the real
openai SDK) scripted to misbehave the way a 135M model did on llama.cpp (docs/models.md).
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from autodidact.config import ModelSettings, load_settings
from autodidact.errors import ContextLengthError, ModelOutputInvalid
from autodidact.llm.base import Completion, Request, Usage
from autodidact.llm.guards import bounded_schema, content_problems, echoes
from autodidact.llm.ledger import read_totals
from autodidact.llm.registry import build_runtime
from autodidact.llm.retry import RetryPolicy
from autodidact.llm.runtime import Runtime
from autodidact.llm.step_budgets import Step
from autodidact.llm.tasks import Message
from autodidact.testing.fake_llm import FakeLLM
from autodidact.testing.scripted import ScriptedModel


class Point(BaseModel):
    text: str = Field(description="one sentence from the passage, with its citation")


class Summary(BaseModel):
    answer: str = Field(description="2-5 sentences from the passages, ending with the wiki file cited")
    points: list[Point] = Field(default_factory=list)


class SummaryTask:
    name = "summarise"
    Output = Summary
    max_tokens = 300

    def build_prompt(self, inputs: list[str]) -> list[Message]:
        return [Message(role="system", content="Summarise."), Message(role="user", content="\n".join(inputs))]

    def offline(self, inputs: list[str]) -> Summary:
        return Summary(answer=f"Offline: {inputs[0]}", points=[Point(text=t) for t in inputs[:2]])


class LongTask(SummaryTask):
    """Asks for more than a small context window leaves."""

    max_tokens = 2000


class ShrinkingTask(SummaryTask):
    """Drops the last passage when the prompt does not fit."""

    def shrink(self, inputs: list[str]) -> list[str] | None:
        return inputs[:-1] if len(inputs) > 1 else None


class CitingTask(SummaryTask):
    """A task's own check: the answer must name a given file."""

    def check(self, inputs: list[str], output: Summary) -> list[str]:
        return [] if "a.md" in output.answer else ["answer cites no given file"]


GOOD = '{"answer": "Generators yield values lazily (source: a.md).", "points": []}'


def cut(text: str = '{"answer": "Generators yield') -> Completion:
    return Completion(text=text, usage=Usage(10, 300), model="m", finish_reason="length")


def runtime_for(model: ScriptedModel, tmp_path: Path | None = None, **llm: object) -> Runtime:
    ledger = tmp_path / "ledger.jsonl" if tmp_path is not None else None
    return Runtime(model, settings=ModelSettings(**llm), ledger_path=ledger)  # type: ignore[arg-type]


def test_a_cut_off_reply_is_named_and_reasked_with_a_higher_limit() -> None:
    model = ScriptedModel([cut(), GOOD])
    out = runtime_for(model).run_sync(SummaryTask(), ["p"])
    assert out.answer.startswith("Generators yield")
    first, second = model.requests
    assert first.max_tokens == 300 and second.max_tokens == 600
    assert "cut off" in second.messages[-1]["content"]


def test_cut_off_twice_fails_saying_so() -> None:
    model = ScriptedModel([cut(), cut()])
    with pytest.raises(ModelOutputInvalid, match=r"reply cut off at max_tokens=600 \(task summarise\)"):
        runtime_for(model, fallback="none").run_sync(SummaryTask(), ["p"])


def test_no_room_for_a_longer_reply_fails_at_once() -> None:
    model = ScriptedModel([cut()])
    runtime = runtime_for(model, fallback="none", context_window=1024)
    with pytest.raises(ModelOutputInvalid, match=r"cut off at max_tokens=.*no room for a longer reply"):
        runtime.run_sync(LongTask(), ["p " * 200])
    assert len(model.requests) == 1


def test_schema_echo_is_invalid_and_reasked() -> None:
    echo = '{"answer": "2-5 sentences from the passages, ending with the wiki file cited.", "points": []}'
    model = ScriptedModel([echo, GOOD])
    out = runtime_for(model).run_sync(SummaryTask(), ["p"])
    assert "Generators" in out.answer
    assert "repeats the field's description" in model.requests[1].messages[-1]["content"]


def test_empty_required_text_and_a_looping_list_are_invalid() -> None:
    empty = Summary(answer="  ")
    looping = Summary(answer="Yes it does (a.md).", points=[Point(text="The same sentence again.")] * 5)
    assert content_problems(empty) == ["answer: required text is empty"]
    assert any("repeated 5 times" in p for p in content_problems(looping))
    assert content_problems(Summary(answer="Generators yield values lazily.", points=[Point(text="One.")])) == []


def test_echo_is_near_equality_not_shared_words() -> None:
    desc = "2-5 sentences from the passages, ending with the wiki file cited"
    assert echoes("2-5 sentences from the passages, ending with the wiki file cited.", desc)
    assert echoes("sentences from the passages ending with the wiki file cited", desc)
    assert not echoes("The passages say generators end with StopIteration (wiki/gen.md).", desc)
    assert not echoes("L1-定义", "L1-定义 … L4-… (or the English layer name)")


def test_a_tasks_own_check_rejects_a_reply() -> None:
    model = ScriptedModel(['{"answer": "Generators are lazy (source: z.md).", "points": []}', GOOD])
    out = runtime_for(model).run_sync(CitingTask(), ["p"])
    assert "a.md" in out.answer
    assert "answer cites no given file" in model.requests[1].messages[-1]["content"]


def test_fallback_runs_the_offline_engine_and_records_it(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    model = ScriptedModel(["not json", "still not json"])
    runtime = runtime_for(model, tmp_path, fallback="offline")
    with caplog.at_level(logging.WARNING, logger="autodidact"):
        out = runtime.run_sync(SummaryTask(), ["first passage", "second"])
    assert out.answer == "Offline: first passage"
    assert runtime.fallbacks and runtime.fallbacks[0][0] == "summarise"
    assert "summarise: task summarise: the model's reply stayed invalid" in caplog.text
    assert "→ offline engine" in caplog.text
    totals = read_totals(tmp_path / "ledger.jsonl")
    assert totals["calls"] == 2 and totals["fallbacks"] == 1


def test_without_fallback_the_step_fails() -> None:
    model = ScriptedModel(["not json", "still not json"])
    with pytest.raises(ModelOutputInvalid, match="task summarise"):
        runtime_for(model, fallback="none").run_sync(SummaryTask(), ["p"])


def test_reply_limit_is_clamped_to_the_context_window() -> None:
    model = ScriptedModel([GOOD])
    runtime_for(model, context_window=1024).run_sync(LongTask(), ["word " * 200])  # ~250 prompt tokens
    (request,) = model.requests
    assert 256 <= request.max_tokens < 1024 - 250


def test_a_prompt_that_cannot_fit_is_shrunk_before_it_is_sent() -> None:
    model = ScriptedModel([GOOD])
    passages = ["a long passage " * 60, "another passage " * 60, "a third one " * 60]
    runtime_for(model, context_window=1024).run_sync(ShrinkingTask(), passages)
    (request,) = model.requests
    assert "a long passage" in request.messages[1]["content"]
    assert "a third one" not in request.messages[1]["content"]


def test_a_prompt_that_cannot_shrink_is_refused_before_any_call() -> None:
    model = ScriptedModel([GOOD])
    with pytest.raises(ContextLengthError, match="context_window=600"):
        runtime_for(model, fallback="none", context_window=600).run_sync(SummaryTask(), ["word " * 2000])
    assert model.requests == []


def test_schema_sent_bounds_every_list_and_free_string() -> None:
    schema = bounded_schema(Summary.model_json_schema())
    assert schema["properties"]["answer"]["maxLength"] > 0
    assert schema["properties"]["points"]["maxItems"] > 0
    assert schema["$defs"]["Point"]["properties"]["text"]["maxLength"] > 0
    assert "maxLength" not in Summary.model_json_schema()["properties"]["answer"]  # a copy: the model's stays


def test_no_bound_sent_reaches_the_grammar_limit() -> None:
    """llama.cpp refuses a grammar repetition of 2000 or more, and its Python server then exits."""

    class Wide(BaseModel):
        text: str = Field(max_length=50_000)
        items: list[str] = Field(max_length=5_000)

    schema = bounded_schema(Wide.model_json_schema())
    assert schema["properties"]["text"]["maxLength"] < 2000
    assert schema["properties"]["items"]["maxItems"] < 2000
    assert schema["properties"]["items"]["items"]["maxLength"] < 2000


def test_an_abandoned_streamed_call_stops_the_server_generating(tmp_path: Path) -> None:
    """A slow stream past the attempt's deadline is closed: the server sends no more chunks, the
    timed-out attempt is in the ledger, and the step falls back."""
    long_reply = '{"answer": "' + "generators yield values lazily " * 40 + '", "points": []}'
    with FakeLLM([long_reply]) as fake:
        fake.set_chunk_delay(0.05)
        settings = load_settings(tmp_path, {"llm.model": "llamacpp:local", "llm.base_url": fake.base_url})
        runtime = build_runtime(settings, tmp_path)
        runtime.retry_policy = RetryPolicy(max_attempts=1, attempt_timeout=1.0)
        assert runtime.settings.stream and runtime.settings.fallback == "offline"
        out = runtime.run_sync(SummaryTask(), ["p"])
        assert out.answer == "Offline: p"
        for _ in range(200):  # the server notices the closed stream at its next chunk
            if fake.streams:
                break
            time.sleep(0.05)
        (sent, total) = fake.streams[0]
    assert sent < total  # the server stopped when the client went away
    totals = read_totals(tmp_path / ".autodidact" / "usage_ledger.jsonl")
    assert totals["failed_calls"] == 1 and totals["fallbacks"] == 1


def test_a_streamed_reply_is_read_whole_with_its_usage(tmp_path: Path) -> None:
    with FakeLLM([GOOD]) as fake:
        settings = load_settings(tmp_path, {"llm.model": "llamacpp:local", "llm.base_url": fake.base_url})
        runtime = build_runtime(settings, tmp_path)
        out = runtime.run_sync(SummaryTask(), ["p"])
        assert fake.requests[0].body["stream"] is True
        reported = fake.reported_usage
    assert out.answer.startswith("Generators yield")
    totals = read_totals(tmp_path / ".autodidact" / "usage_ledger.jsonl")
    assert (totals["input_tokens"], totals["output_tokens"]) == reported


def test_an_unreachable_server_sends_later_steps_offline_without_calling(tmp_path: Path) -> None:
    settings = load_settings(tmp_path, {"llm.model": "llamacpp:local", "llm.base_url": "http://127.0.0.1:9/v1"})
    runtime = build_runtime(settings, tmp_path)
    runtime.retry_policy = RetryPolicy(max_attempts=1, attempt_timeout=5.0)
    assert runtime.run_sync(SummaryTask(), ["one"]).answer == "Offline: one"
    assert runtime.run_sync(SummaryTask(), ["two"]).answer == "Offline: two"
    totals = read_totals(tmp_path / ".autodidact" / "usage_ledger.jsonl")
    assert totals["failed_calls"] == 1  # the second step made no call
    assert totals["fallbacks"] == 2


def test_local_presets_default_to_fallback_streaming_and_one_call_at_a_time() -> None:
    local = build_runtime(load_settings(None, {"llm.model": "llamacpp:local"}), None)
    assert (local.settings.fallback, local.settings.stream, local.settings.concurrency) == ("offline", True, 1)
    assert local.context_window == 4096
    chosen = build_runtime(load_settings(None, {"llm.model": "llamacpp:local", "llm.concurrency": 3}), None)
    assert chosen.settings.concurrency == 3  # what the user set stays


# -- step budgets (llm/step_budgets.py) ---------------------------------------------------------------------


def test_a_step_past_its_call_budget_finishes_on_the_offline_engine(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    model = ScriptedModel([GOOD] * 5)
    runtime = runtime_for(model, tmp_path, step_calls=2)

    async def dimension() -> list[str]:
        with runtime.step("d1 (pinning)"):
            return [(await runtime.run(SummaryTask(), [f"p{i}"])).answer for i in range(4)]

    with caplog.at_level(logging.WARNING, logger="autodidact"):
        answers = asyncio.run(dimension())
    assert answers[:2] == ["Generators yield values lazily (source: a.md)."] * 2
    assert answers[2:] == ["Offline: p2", "Offline: p3"]
    assert len(model.requests) == 2
    assert caplog.text.count("d1 (pinning): model budget spent (2 calls") == 1  # said once per step
    assert read_totals(tmp_path / "ledger.jsonl")["fallbacks"] == 2


def test_each_step_has_its_own_budget_and_concurrent_work_shares_its_step() -> None:
    model = ScriptedModel([GOOD] * 10)
    runtime = runtime_for(model, step_calls=1)

    async def dimension(name: str) -> list[str]:
        with runtime.step(name):
            outs = await asyncio.gather(*(runtime.run(SummaryTask(), [f"{name}-{i}"]) for i in range(3)))
            with runtime.step("inner"):  # a step inside a step counts against the outer one
                outs.append(await runtime.run(SummaryTask(), [f"{name}-inner"]))
            return [o.answer for o in outs]

    async def report() -> list[list[str]]:
        return list(await asyncio.gather(dimension("d1"), dimension("d2")))

    d1, d2 = asyncio.run(report())
    for answers in (d1, d2):
        assert sum(not a.startswith("Offline") for a in answers) == 1
    assert len(model.requests) == 2
    # Outside any step nothing is cut short.
    assert runtime.run_sync(SummaryTask(), ["free"]).answer.startswith("Generators")


def test_a_call_expected_to_pass_the_step_time_budget_is_not_started() -> None:
    # 300 tokens at 2 tok/s is ~150 s expected: a 60 s step cannot fit it, so no call is made.
    model = ScriptedModel([GOOD])
    runtime = runtime_for(model, step_seconds=60, tokens_per_second=2)

    async def step() -> str:
        with runtime.step("round 1 check"):
            return (await runtime.run(SummaryTask(), ["p"])).answer

    assert asyncio.run(step()) == "Offline: p"
    assert model.requests == []
    assert "150 s for the next call" in runtime.fallbacks[0][1]


def test_step_time_is_wall_time_since_the_step_began() -> None:
    step = Step("d2", max_calls=None, max_seconds=100)
    assert step.spent(expected_seconds=30) is None
    step.started -= 80  # as if the step had run 80 s
    reason = step.spent(expected_seconds=30)
    assert reason is not None and "d2: model budget spent (80 s" in reason
    assert Step("d3", max_calls=None, max_seconds=None).spent(10_000) is None


def test_local_presets_bound_each_step_and_hosted_apis_do_not(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")  # read to build the client; no call is made
    local = build_runtime(load_settings(None, {"llm.model": "llamacpp:local"}), None)
    assert (local.settings.step_calls, local.settings.step_seconds) == (8, 240.0)
    hosted = build_runtime(load_settings(None, {"llm.model": "openai:gpt-4o-mini"}), None)
    assert (hosted.settings.step_calls, hosted.settings.step_seconds) == (None, None)


def test_a_call_too_slow_for_its_timeout_falls_back_for_that_step_only(tmp_path: Path) -> None:
    # Timeouts mean the server is up but slow: unlike a refused connection, later steps still ask it.
    async def answer(request: Request) -> str:
        if "slow" in request.messages[-1]["content"]:
            await asyncio.sleep(30)  # far past the 0.2 s attempt timeout below
        return GOOD

    model = ScriptedModel(fn=answer)
    runtime = runtime_for(model, tmp_path, fallback="offline")
    runtime.retry_policy = RetryPolicy(max_attempts=2, attempt_timeout=0.2, base_delay=0.0)
    assert runtime.run_sync(SummaryTask(), ["slow"]).answer == "Offline: slow"
    assert runtime.run_sync(SummaryTask(), ["fast"]).answer.startswith("Generators")
    assert "model too slow" in runtime.fallbacks[0][1]
    totals = read_totals(tmp_path / "ledger.jsonl")
    assert totals["fallbacks"] == 1 and totals["calls"] >= 3  # two timed-out attempts, then a real answer
