"""The engine that runs a task: offline, or through a model with every safeguard around it.

Why one place: steps never branch on "is there a model". They call ``runtime.run(task, inputs)``;
without a model the task's own ``offline`` engine answers, and with one the runtime renders the
prompt, asks for schema-constrained JSON, validates, re-asks exactly once, and fails with a clear
error naming the task. Around each model call, in this order: the call cache (a hit makes no
network call and costs nothing), the budget (stop *before* a call that would pass a cap), a
per-model concurrency limit, bounded retries, and the usage ledger.

The guards for real models, weak ones above all (docs/models.md): every reply is bounded (the
task's ``max_tokens``, clamped to the context window minus the prompt; ``maxItems``/``maxLength`` in
the schema), a reply cut off at its limit is said to be so and re-asked with a higher limit, a reply
that echoes its schema or leaves required text empty counts as invalid, a task may add its own
``check``, and with ``[llm] fallback = "offline"`` a step whose reply stays invalid (or whose server
stays unreachable) is done by the offline engine instead, recorded in the ledger and on screen.
Inside a step (``runtime.step(name)``: one dimension, one round's questions, compile or check) the
calls are also held to ``[llm] step_calls`` and ``step_seconds``; once spent, the rest of the step
runs offline (``llm/step_budgets.py``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import time
from contextlib import AbstractContextManager
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from autodidact.config import BudgetSettings, ModelSettings
from autodidact.errors import ContextLengthError, ModelOutputInvalid, ModelTimedOut, ModelUnavailable
from autodidact.jsontypes import JSONObject
from autodidact.llm.base import Completion, Model, Request, TransientModelError, Usage
from autodidact.llm.budget import BudgetGuard, SharedBudget
from autodidact.llm.cache import CallCache, request_key
from autodidact.llm.guards import bounded_schema, content_problems
from autodidact.llm.ledger import Ledger, LedgerEntry, UsageTotals, cost_of, price_for
from autodidact.llm.offline import run_offline
from autodidact.llm.pgcache import PgCallCache
from autodidact.llm.retry import RetryPolicy, call_with_retry
from autodidact.llm.step_budgets import Step, current_step, step_scope
from autodidact.llm.structured import ReplyError, parse_output, repair_messages, with_schema_instruction
from autodidact.llm.tasks import Message, Task
from autodidact.llm.token_estimates import request_tokens

OutputT = TypeVar("OutputT", bound=BaseModel)
InT = TypeVar("InT")  # a task's inputs: what ``run`` is given is what the task's methods take

log = logging.getLogger("autodidact.llm")


class Runtime:
    """Runs tasks offline (``model=None``) or through ``model`` with cache, budget, retries, ledger."""

    def __init__(
        self,
        model: Model | None = None,
        *,
        settings: ModelSettings | None = None,
        cache_db: Path | None = None,
        ledger_path: Path | None = None,
        budget: BudgetSettings | None = None,
        no_cache: bool = False,
        retry_policy: RetryPolicy | None = None,
        offline_reason: str = "no model configured",
        call_cache: CallCache | PgCallCache | None = None,
        ledger: Ledger | None = None,
        shared_budget: SharedBudget | None = None,
    ) -> None:
        self.model = model
        self.settings = settings or ModelSettings()
        self.no_cache = no_cache or not self.settings.cache
        # ``call_cache`` and ``ledger``: the team backend's (llm/pgcache.py) instead of the folder's
        # files; ``shared_budget``: the team's caps over the server's ledger (docs/team.md)
        self.cache: CallCache | PgCallCache | None = None
        if not self.no_cache:
            self.cache = call_cache or (CallCache.shared(cache_db) if cache_db is not None else None)
        self.ledger = ledger if ledger is not None else Ledger(ledger_path)
        self.budget = BudgetGuard(budget, shared_budget)
        self.retry_policy = retry_policy or RetryPolicy(
            max_attempts=self.settings.max_retries + 1,
            attempt_timeout=self.settings.timeout,
        )
        self.offline_reason = offline_reason
        # The context window: ``[llm] context_window`` (registry fills in the preset's), else the model's.
        self.context_window = self.settings.context_window or (model.context_window if model is not None else None)
        self.fallbacks: list[tuple[str, str]] = []  # (task, reason) of every step the offline engine did
        self._fell_back: set[str] = set()
        self._down: str | None = None  # set when the server stayed unreachable: later steps go offline
        self._seconds: dict[str, tuple[int, float]] = {}  # task -> (calls, seconds) answered, for step budgets
        self._semaphores: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Semaphore]] = {}
        # Requests sent to the model and not yet answered: a display shows "waiting for the model"
        # (a spinner) while it is above 0; read it, never write it.
        self.calls_in_flight = 0

    # -- description -------------------------------------------------------------------------
    @property
    def is_offline(self) -> bool:
        """True when tasks run on their offline engines. For the CLI edge, which tells the person;
        domain code reads what the difference means instead (the three properties below)."""
        return self.model is None

    # What differs between the engines, by what it means. Domain code never asks whether it is
    # offline: a task's own differences are task hooks (``offline``, ``offline_inputs``, ``settle``),
    # and these name the few that belong to the engine itself (docs/architecture.md, "Tasks and engines").
    @property
    def engine_name(self) -> str:
        """``"model"`` or ``"offline"``: which engine answers, for labels in events and records only."""
        return "offline" if self.is_offline else "model"

    @property
    def heeds_feedback(self) -> bool:
        """True when asking again with what was wrong (failed quotes, a plan's errors, a turn's broken
        rules) can change the answer. Why not offline: the offline engine is deterministic and built to
        those rules, so a re-ask would only repeat its answer."""
        return not self.is_offline

    @property
    def writes_prose(self) -> bool:
        """True when the engine writes sentences of its own (a report's prose, a wiki answer's
        paragraph, a summary's phrasing). Why not offline: the offline engine selects and quotes, so
        there the quotes and claims stand as they are (docs/writing.md)."""
        return not self.is_offline

    def describe(self) -> str:
        """One line saying which engine runs, for ``engine: ...`` messages."""
        if self.model is None:
            return f"offline ({self.offline_reason})"
        where = getattr(self.model, "base_url", None)
        text = f"{self.model.provider}:{self.model.name}"
        if where:
            text += f" at {where}"
        extras = []
        if self.no_cache:
            extras.append("cache off")
        if self.budget.budget.max_cost is not None:
            extras.append(f"max cost ${self.budget.budget.max_cost:g}")
        if self.budget.budget.max_tokens is not None:
            extras.append(f"max tokens {self.budget.budget.max_tokens}")
        if self.budget.shared is not None:
            extras.append(str(self.budget.shared))
        return text + (f" ({', '.join(extras)})" if extras else "")

    def usage_totals(self) -> UsageTotals:
        """This run's calls, tokens, cost and seconds, overall, by task and by model."""
        return self.ledger.run_totals.as_dict()

    # -- tasks -------------------------------------------------------------------------------
    async def run(self, task: Task[InT, OutputT], inputs: InT) -> OutputT:
        """Run one task and return an instance of ``task.Output``.

        A task may set ``max_tokens`` (its reply's bound, which also lowers its budget estimate),
        ``temperature``, ``check(inputs, output) -> list[str]`` (problems beyond the schema),
        ``shrink(inputs) -> inputs | None`` (the same job on less input, for a prompt that does not
        fit the context window) and ``settle(inputs, output) -> output`` (a model's accepted output
        held to the task's own rules: a verdict made honest, a short list topped up) and
        ``offline_inputs(inputs) -> inputs`` (what the offline engine is asked for when it differs
        from what a model is asked: spare claims); otherwise ``[llm]`` settings apply. These hooks are
        why domain code never asks whether a model ran: what differs between the engines is the
        task's, and the runtime applies it (docs/models.md).
        """
        if self.model is None:
            return run_offline(task, inputs)
        if self._down is not None and self.settings.fallback == "offline":
            return self.fall_back(task, inputs, self._down, quiet=task.name in self._fell_back)
        step = current_step()
        if step is not None:
            spent = step.spent(self._expected_seconds(task))
            if spent is not None:  # a budget the user set (or the local preset's): the step finishes offline
                quiet, step.announced = step.announced, True
                return self.fall_back(task, inputs, spent, quiet=quiet)
        try:
            return await self._run_model(task, inputs)
        except ModelTimedOut as exc:  # up but too slow for this call: only this step falls back
            if self.settings.fallback != "offline":
                raise
            return self.fall_back(task, inputs, f"model too slow ({exc.message})")
        except ModelUnavailable as exc:
            self._down = f"model unreachable ({exc.message})"
            if self.settings.fallback != "offline":
                raise
            return self.fall_back(task, inputs, self._down)
        except (ModelOutputInvalid, ContextLengthError) as exc:
            if self.settings.fallback != "offline":
                raise
            return self.fall_back(task, inputs, exc.message)

    def step(self, name: str, *, max_calls: int | None = None) -> AbstractContextManager[Step]:
        """A block whose model calls share one budget (``[llm] step_calls``, ``step_seconds``).

        ``max_calls`` is the step's own bound, whatever the settings (the lower of the two holds):
        the loop's compile is held to its round's questions, so a thousand added files do not cost
        a thousand calls (docs/models.md, "Step budgets"). Without a model, or without any limit,
        the block is counted but never cut short.
        """
        limited = self.model is not None
        calls = self.settings.step_calls if limited else None
        if limited and max_calls is not None:
            calls = max_calls if calls is None else min(calls, max_calls)
        return step_scope(name, calls, self.settings.step_seconds if limited else None)

    def _expected_seconds(self, task: Task[InT, OutputT]) -> float:
        """How long the next call of ``task`` will likely take: this run's mean for that task, else
        its reply limit at the measured speed, else 0 (unknown: the call may start)."""
        seen = self._seconds.get(task.name)
        if seen is not None and seen[0] > 0:
            return seen[1] / seen[0]
        speed = self.settings.tokens_per_second
        if speed:
            limit = min(int(getattr(task, "max_tokens", None) or self.settings.max_tokens), self.settings.max_tokens)
            return limit / speed
        return 0.0

    @property
    def falls_back(self) -> bool:
        """True when a step whose model output stays invalid is done by the offline engine."""
        return self.model is not None and self.settings.fallback == "offline"

    def fall_back(self, task: Task[InT, OutputT], inputs: InT, reason: str, *, quiet: bool = False) -> OutputT:
        """The offline engine does this step; the ledger and the screen say so. Steps call it too
        when the model's output passed its schema but failed the step's own rules (a plan's P-rules)."""
        result = run_offline(task, inputs)
        model = self.model
        self.fallbacks.append((task.name, reason))
        self._fell_back.add(task.name)
        if model is not None:
            self.ledger.record(
                LedgerEntry(task.name, model.provider, model.name, 0, 0, False, 0.0, 0.0, outcome="fallback",
                            note=reason[:300])
            )  # fmt: skip
        if not quiet:
            log.warning("%s: %s → offline engine", task.name, _short(reason))
        return result

    async def _run_model(self, task: Task[InT, OutputT], inputs: InT) -> OutputT:
        output_cls: type[OutputT] = task.Output
        schema = _schema_of(output_cls)
        request, inputs = self._fitted_request(task, inputs, schema)
        first = await self.complete(request)
        parsed, problem = self._judge(task, inputs, first, request, output_cls)
        if parsed is not None:
            return _settled(task, inputs, parsed)
        if first.finish_reason == "length":
            retry = self._longer(request, problem, task.name)
        else:
            log.info("task %s: invalid reply (%s); re-asking once", task.name, problem)
            retry = replace(request, messages=repair_messages(request.messages, first.text, problem))
        second = await self.complete(retry)
        parsed, again = self._judge(task, inputs, second, retry, output_cls)
        if parsed is not None:
            return _settled(task, inputs, parsed)
        if self.cache is not None and self.model is not None:  # else a re-run is served the same bad replies
            self.cache.delete(
                request_key(self.model.provider, self.model.name, request),
                request_key(self.model.provider, self.model.name, retry),
            )
        raise ModelOutputInvalid(
            f"task {task.name}: the model's reply stayed invalid after one re-ask: {again}",
            hint='try a stronger model (--model provider:name), set [llm] fallback = "offline", '
            "or run with the offline engine",
        )

    def _judge(
        self, task: Task[InT, OutputT], inputs: InT, reply: Completion, request: Request, output_cls: type[OutputT]
    ) -> tuple[OutputT | None, str]:
        """(the usable Output, "") or (None, what is wrong with the reply)."""
        if reply.finish_reason == "length":
            return None, f"reply cut off at max_tokens={request.max_tokens} (task {task.name})"
        try:
            parsed = parse_output(reply.text, output_cls)
        except ReplyError as exc:
            return None, str(exc)
        problems = content_problems(parsed)
        checker = getattr(task, "check", None)
        if not problems and checker is not None:
            problems = list(checker(inputs, parsed))
        if problems:
            return None, "; ".join(problems[:3])
        return parsed, ""

    def _fitted_request(self, task: Task[InT, OutputT], inputs: InT, schema: JSONObject) -> tuple[Request, InT]:
        """The request, its reply limit clamped to the context window; the input shrunk if it must be."""
        cap = self.settings.max_tokens
        want = min(int(getattr(task, "max_tokens", None) or cap), cap)
        window = self.context_window
        shrinker = getattr(task, "shrink", None)
        for _ in range(8):
            request = self._request(task, inputs, schema, want)
            if window is None:
                return request, inputs
            room = window - _prompt_estimate(request) - CONTEXT_MARGIN
            if room >= min(want, MIN_REPLY_TOKENS):
                fitted = min(want, room)  # the prompt is rendered once; only the limit changes
                return replace(request, max_tokens=fitted, timeout=self._timeout(fitted)), inputs
            smaller = shrinker(inputs) if shrinker is not None else None
            if smaller is None:
                break
            inputs = smaller
        raise ContextLengthError(
            f"task {task.name}: a prompt of ~{_prompt_estimate(request)} tokens leaves no room for a reply "
            f"in context_window={window}",
            hint="raise [llm] context_window to what the server holds (llama.cpp: --n_ctx), or use a larger model",
        )

    def _request(self, task: Task[InT, OutputT], inputs: InT, schema: JSONObject, max_tokens: int) -> Request:
        messages = list(task.build_prompt(inputs))
        sent = bounded_schema(schema)
        if self.model is not None and not self.model.supports_json_schema:
            messages = with_schema_instruction(messages, sent)
        return Request(
            messages=messages,
            schema=sent,
            task=task.name,
            temperature=float(getattr(task, "temperature", None) or self.settings.temperature),
            max_tokens=max_tokens,
            schema_name=_schema_name(task.name),
            timeout=self._timeout(max_tokens),
        )

    def _longer(self, request: Request, problem: str, task_name: str) -> Request:
        """The re-ask of a reply cut off at its limit: twice the limit, within the context window."""
        limit = min(request.max_tokens * 2, self.settings.max_tokens * 2)
        if self.context_window is not None:
            limit = min(limit, self.context_window - _prompt_estimate(request) - CONTEXT_MARGIN)
        if limit <= request.max_tokens:
            raise ModelOutputInvalid(
                f"task {task_name}: {problem}, and the context window leaves no room for a longer reply",
                hint="raise [llm] context_window (llama.cpp: --n_ctx), or use a model that answers briefly",
            )
        log.info("task %s: %s; re-asking with max_tokens=%d", task_name, problem, limit)
        note = Message(
            role="user", content="Your reply was cut off. Answer again, shorter, as one complete JSON object."
        )
        return replace(request, messages=[*request.messages, note], max_tokens=limit, timeout=self._timeout(limit))

    def _timeout(self, max_tokens: int) -> float | None:
        """Seconds one attempt may take, from the server's measured speed; None (the retry policy's
        ``[llm] timeout``) when the speed is not known."""
        speed = self.settings.tokens_per_second
        if not speed:
            return None
        return max(30.0, 1.5 * max_tokens / speed + 15.0)

    def run_sync(self, task: Task[InT, OutputT], inputs: InT) -> OutputT:
        """``run`` for synchronous callers (runs in a worker thread if a loop is already running)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self._run_then_close(task, inputs))
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, self._run_then_close(task, inputs)).result()

    async def _run_then_close(self, task: Task[InT, OutputT], inputs: InT) -> OutputT:
        # The loop dies with asyncio.run: close this loop's HTTP client instead of leaking its sockets.
        try:
            return await self.run(task, inputs)
        finally:
            closer = getattr(self.model, "aclose", None)
            if closer is not None:
                await closer()

    # -- one model call ----------------------------------------------------------------------
    async def complete(self, request: Request) -> Completion:
        """One model call through cache → budget → concurrency limit → retries → ledger."""
        model = self.model
        if model is None:
            raise RuntimeError("Runtime.complete needs a model; offline tasks use task.offline")
        provider, name = model.provider, model.name
        key = request_key(provider, name, request)
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                self.ledger.record(LedgerEntry(request.task, provider, name, 0, 0, True, 0.0, 0.0))
                return hit
        step = current_step()
        if step is not None:
            step.calls += 1
        price = price_for(self.settings.prices, provider, name)
        est_in = request_tokens(request)
        reservation = self.budget.reserve(
            est_in + request.max_tokens,
            cost_of(Usage(est_in, request.max_tokens), price),
            task=request.task or "?",
        )
        started = time.monotonic()
        policy = replace(self.retry_policy, attempt_timeout=request.timeout or self.retry_policy.attempt_timeout)

        async def attempt() -> Completion:
            begun = time.monotonic()
            self.calls_in_flight += 1
            try:
                return await model.complete(request)
            except BaseException as exc:  # a timeout arrives as cancellation; both are recorded, then re-raised
                # A refused or failed request used nothing; a timed-out one had its prompt read (our
                # estimate of it is recorded) and generated for as long as it ran.
                if isinstance(exc, TransientModelError | asyncio.CancelledError):
                    timed_out = not isinstance(exc, TransientModelError)
                    self.ledger.record(
                        LedgerEntry(request.task, provider, name, est_in if timed_out else 0, 0, False, 0.0,
                                    round(time.monotonic() - begun, 4), priced=price is not None,
                                    outcome="timeout" if timed_out else "failed", note=_short(str(exc)))
                    )  # fmt: skip
                raise
            finally:
                self.calls_in_flight -= 1

        try:
            async with self._semaphore():
                served = time.monotonic()  # the wait for a free slot is not the call's length
                completion = await call_with_retry(
                    attempt,
                    policy,
                    what=f"{provider}:{name} (task {request.task or '?'})",
                    on_retry=_log_retry,
                )
        except BaseException:
            self.budget.settle(reservation, 0, 0.0)
            raise
        seconds = time.monotonic() - started
        calls, total = self._seconds.get(request.task or "?", (0, 0.0))
        self._seconds[request.task or "?"] = (calls + 1, total + time.monotonic() - served)
        usage = completion.usage
        cost = cost_of(usage, price)
        try:  # recorded before the reservation is settled: a shared budget sees the call in one or the other
            self.ledger.record(
                LedgerEntry(
                    request.task,
                    provider,
                    name,
                    usage.input_tokens,
                    usage.output_tokens,
                    False,
                    round(cost, 9),
                    round(seconds, 4),
                    priced=price is not None,
                )
            )
        finally:
            self.budget.settle(reservation, usage.total, cost)
        if self.cache is not None:
            self.cache.put(key, provider, name, request.task, completion)
        return completion

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        entry = self._semaphores.get(id(loop))
        if entry is None or entry[0] is not loop:
            self._semaphores = {k: v for k, v in self._semaphores.items() if not v[0].is_closed()}
            entry = (loop, asyncio.Semaphore(self.settings.concurrency))
            self._semaphores[id(loop)] = entry
        return entry[1]

    async def aclose(self) -> None:
        """Close the model's clients and the cache connection."""
        closer = getattr(self.model, "aclose", None)
        if closer is not None:
            await closer()
        if self.cache is not None:
            self.cache.close()
        if self.budget.shared is not None:
            self.budget.shared.close()
        self.ledger.close()


_SCHEMAS: dict[type[BaseModel], JSONObject] = {}


def _schema_of(output_cls: type[BaseModel]) -> JSONObject:
    """The JSON schema of an Output class, generated once (pydantic rebuilds it on every call)."""
    schema = _SCHEMAS.get(output_cls)
    if schema is None:
        schema = _SCHEMAS[output_cls] = output_cls.model_json_schema()
    return schema  # shared: treat as read-only


def _schema_name(task_name: str) -> str:
    cleaned = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "_-") else "_" for ch in task_name)
    return (cleaned or "output")[:64]


# Tokens kept free between prompt and reply (our estimate of the prompt is rough), and the smallest
# reply worth asking for: below it the input is shrunk instead.
CONTEXT_MARGIN = 64
MIN_REPLY_TOKENS = 256


def _prompt_estimate(request: Request) -> int:
    """The prompt's tokens, over-estimated by a tenth (tokenisers differ from our 4-characters rule)."""
    return int(request_tokens(request) * 1.1) + 16


def _short(reason: str) -> str:
    text = " ".join(reason.split())
    return text if len(text) <= 160 else text[:157] + "…"


def _log_retry(attempt: int, delay: float, error: TransientModelError) -> None:
    log.warning("model call attempt %d failed (%s); retrying in %.1f s", attempt, error.message, delay)


def _settled(task: Task[InT, OutputT], inputs: InT, output: OutputT) -> OutputT:
    """``task.settle(inputs, output)`` when the task has one: the model's output held to its rules."""
    settle = getattr(task, "settle", None)
    return settle(inputs, output) if settle is not None else output


def or_offline(runtime: Runtime | None) -> Runtime:
    """``runtime``, or the offline runtime when the caller gave none.

    Why here and only at entry points (``compile_raw``, ``check_wiki``, the debate ``Engine``):
    below them every function takes a :class:`Runtime` and runs its tasks on it, so there is one
    spelling of "no model" — ``Runtime()`` — and no domain default to disagree about.
    """
    return runtime if runtime is not None else Runtime()
