"""Model faults through the real CLI: ``autodidact research --model openai:fake`` against FakeLLM.

Pass criteria (issue 8): each fault (invalid JSON, a refusal, a hang past the timeout, 429 with
Retry-After, 5xx, 401, context length) gives a bounded number of attempts — counted at the server —
then one clear error line and a non-zero exit, no traceback, a knowledge base that still verifies,
and a later run with a healthy model resumes and completes. The fake key never shows up anywhere.
"""

from __future__ import annotations

import itertools
import json
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from autodidact.testing.fake_llm import FakeLLM, Fault

from .conftest import FAKE_OPENAI_KEY, TOPIC, assert_clean_error, assert_verified, run_cli
from .loop_model import reply, task_of

MAX_RETRIES = 2  # → 3 attempts per call
# A healthy reply must never race a short timeout on a loaded machine: only the test of a hanging
# model uses one (its replies never come, so the machine's load cannot make it pass or fail).
HANG_TIMEOUT = 1.5
SETTINGS = """language = "en"

[llm]
timeout = {timeout}
connect_timeout = 10.0
max_retries = {retries}
"""


def write_settings(root: Path, timeout: float = 60.0) -> None:
    (root / "autodidact.toml").write_text(SETTINGS.format(timeout=timeout, retries=MAX_RETRIES), "utf-8")


@pytest.fixture
def model_kb(fresh_kb: Callable[..., Path]) -> Path:
    root = fresh_kb()
    write_settings(root)
    return root


@contextmanager
def serving(fn: Callable[[dict[str, Any]], Any]) -> Iterator[FakeLLM]:
    with FakeLLM(fn) as llm:
        yield llm


def research(root: Path, llm: FakeLLM, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {"OPENAI_API_KEY": FAKE_OPENAI_KEY, "AUTODIDACT_BASE_URL": llm.base_url}
    return run_cli("research", TOPIC, "--kb", str(root), "--max-rounds", "1", "--model", "openai:fake", *extra, env=env)


def assert_no_key(root: Path, *outputs: str) -> None:
    for text in outputs:
        assert FAKE_OPENAI_KEY not in text
    for path in root.rglob("*"):
        if path.is_file():
            assert FAKE_OPENAI_KEY.encode() not in path.read_bytes(), path


def faulty_first(fault: Fault | str) -> tuple[Callable[[dict[str, Any]], Any], list[str]]:
    """Every questions.propose request gets ``fault``; everything else a valid reply."""
    seen: list[str] = []

    def fn(body: dict[str, Any]) -> Any:
        task = task_of(body)
        seen.append(task)
        return fault if task.startswith("questions") else reply(body)

    return fn, seen


def resume_with_healthy_model(root: Path) -> None:
    with serving(reply) as llm:
        done = research(root, llm)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (root / "outputs" / "research_summary.md").is_file()
    assert_verified(root)


CASES = {
    "invalid_json": ("this is {not json", 2, "stayed invalid after one re-ask"),
    "refusal": ("I'm sorry, but I can't help with that request.", 2, "did not match the task's schema"),
    "5xx": (Fault.server_error(), MAX_RETRIES + 1, f"failed after {MAX_RETRIES + 1} attempt(s) (HTTP 500)"),
    "429": (Fault.rate_limit(retry_after=0.3), MAX_RETRIES + 1, "(HTTP 429)"),
    "hang": (Fault.hang(), MAX_RETRIES + 1, f"no complete reply within {HANG_TIMEOUT} s"),
    "broken_body": (Fault.invalid_body(), MAX_RETRIES + 1, f"failed after {MAX_RETRIES + 1} attempt(s)"),
    "401": (Fault.unauthorized(), 1, "OPENAI_API_KEY"),
    "context_length": (Fault.context_length(), 1, "context"),
}


SLOW_CASES = {"refusal", "429", "broken_body", "context_length"}


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) if c in SLOW_CASES else c for c in CASES])
def test_model_fault_is_bounded_clear_and_resumable(case: str, model_kb: Path) -> None:
    fault, attempts, needle = CASES[case]
    if case == "hang":
        write_settings(model_kb, HANG_TIMEOUT)
    fn, seen = faulty_first(fault)
    with serving(fn) as llm:
        done = research(model_kb, llm)
        times = [r.at for r in llm.requests]
    assert_clean_error(done, needle)
    sent = seen.count("questions_propose")
    if attempts == MAX_RETRIES + 1:  # retried: bounded (an attempt may die before the handler sees it)
        assert 1 <= sent <= attempts, seen
        assert f"after {attempts} attempt(s)" in done.stderr or case == "429"
    else:  # never retried (401, context length) or exactly one re-ask (invalid reply)
        assert sent == attempts, seen
    if case == "429":  # never sooner than Retry-After
        assert all(b - a >= 0.3 for a, b in itertools.pairwise(times)), times
    assert_no_key(model_kb, done.stdout, done.stderr)
    assert_verified(model_kb)
    write_settings(model_kb)  # the healthy resume gets all the time it needs
    resume_with_healthy_model(model_kb)


def test_429_then_success_completes_the_round(model_kb: Path) -> None:
    calls = {"n": 0}

    def fn(body: dict[str, Any]) -> Any:
        calls["n"] += 1
        if calls["n"] <= 2:
            return Fault.rate_limit(retry_after=0.2)
        return reply(body)

    with serving(fn) as llm:
        done = research(model_kb, llm)
        times = [r.at for r in llm.requests[:3]]
    assert done.returncode == 0, done.stderr[-3000:]
    assert times[1] - times[0] >= 0.2 and times[2] - times[1] >= 0.2, times  # never sooner than Retry-After
    assert_verified(model_kb)


def test_losing_one_question_still_finishes_the_round_and_says_so(model_kb: Path) -> None:
    lost = "What does the send method of a generator do?"

    def fn(body: dict[str, Any]) -> Any:
        if task_of(body) == "evidence_extract_claims" and lost in body["messages"][-1]["content"]:
            return Fault.server_error()
        return reply(body)

    with serving(fn) as llm:
        done = research(model_kb, llm)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "lost question" in done.stderr and lost in done.stderr
    progress = json.loads((model_kb / "outputs" / "rounds" / "round_1_progress.json").read_text("utf-8"))
    assert len(progress["lost_questions"]) == 1  # recorded, not only printed
    assert (model_kb / "outputs" / "rounds" / "round_1_check.md").is_file()
    assert_verified(model_kb)
