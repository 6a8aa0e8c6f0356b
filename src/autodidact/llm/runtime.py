"""The engine that runs a task: offline, or through a model with every safeguard around it.

Why one place: steps never branch on "is there a model". They call ``runtime.run(task, inputs)``;
without a model the task's own ``offline`` engine answers, and with one the runtime renders the
prompt, asks for schema-constrained JSON, validates, re-asks exactly once, and fails with a clear
error naming the task. Around each model call, in this order: the call cache (a hit makes no
network call and costs nothing), the budget (stop *before* a call that would pass a cap), a
per-model concurrency limit, bounded retries, and the usage ledger.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from autodidact.config import BudgetSettings, ModelSettings
from autodidact.errors import ModelOutputInvalid
from autodidact.llm.base import Completion, Model, Request, TransientModelError, Usage
from autodidact.llm.budget import BudgetGuard
from autodidact.llm.cache import CallCache, request_key
from autodidact.llm.ledger import Ledger, LedgerEntry, cost_of, price_for
from autodidact.llm.offline import run_offline
from autodidact.llm.retry import RetryPolicy, call_with_retry
from autodidact.llm.scripted import request_tokens
from autodidact.llm.structured import ReplyError, parse_output, repair_messages, with_schema_instruction
from autodidact.llm.tasks import Task

OutputT = TypeVar("OutputT", bound=BaseModel)

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
    ) -> None:
        self.model = model
        self.settings = settings or ModelSettings()
        self.no_cache = no_cache or not self.settings.cache
        self.cache = CallCache.shared(cache_db) if (cache_db is not None and not self.no_cache) else None
        self.ledger = Ledger(ledger_path)
        self.budget = BudgetGuard(budget)
        self.retry_policy = retry_policy or RetryPolicy(
            max_attempts=self.settings.max_retries + 1,
            attempt_timeout=self.settings.timeout,
        )
        self.offline_reason = offline_reason
        self._semaphores: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Semaphore]] = {}

    # -- description -------------------------------------------------------------------------
    @property
    def is_offline(self) -> bool:
        """True when tasks run on their offline engines."""
        return self.model is None

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
        return text + (f" ({', '.join(extras)})" if extras else "")

    def usage_totals(self) -> dict[str, Any]:
        """This run's calls, tokens, cost and seconds, overall, by task and by model."""
        return self.ledger.run_totals.as_dict()

    # -- tasks -------------------------------------------------------------------------------
    async def run(self, task: Task[Any, OutputT], inputs: Any) -> OutputT:
        """Run one task and return an instance of ``task.Output``.

        A task may set ``max_tokens`` (a smaller output cap, which also lowers its budget estimate)
        and ``temperature``; otherwise ``[llm]`` settings apply.
        """
        if self.model is None:
            return run_offline(task, inputs)
        output_cls: type[OutputT] = task.Output
        schema = _schema_of(output_cls)
        messages = list(task.build_prompt(inputs))
        if not self.model.supports_json_schema:
            messages = with_schema_instruction(messages, schema)
        cap = self.settings.max_tokens
        request = Request(
            messages=messages,
            schema=schema,
            task=task.name,
            temperature=float(getattr(task, "temperature", None) or self.settings.temperature),
            max_tokens=min(int(getattr(task, "max_tokens", None) or cap), cap),
            schema_name=_schema_name(task.name),
        )
        first = await self.complete(request)
        try:
            return parse_output(first.text, output_cls)
        except ReplyError as exc:
            log.info("task %s: invalid reply (%s); re-asking once", task.name, exc)
            retry = replace(request, messages=repair_messages(messages, first.text, str(exc)))
        second = await self.complete(retry)
        try:
            return parse_output(second.text, output_cls)
        except ReplyError as exc:
            if self.cache is not None:  # else a re-run is served the same bad replies forever
                key = request_key(self.model.provider, self.model.name, request)
                self.cache.delete(key, request_key(self.model.provider, self.model.name, retry))
            raise ModelOutputInvalid(
                f"task {task.name}: the model's reply did not match the task's schema after one re-ask: {exc}",
                hint="try a stronger model (--model provider:name), or run with the offline engine",
            ) from None

    def run_sync(self, task: Task[Any, OutputT], inputs: Any) -> OutputT:
        """``run`` for synchronous callers (runs in a worker thread if a loop is already running)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self._run_then_close(task, inputs))
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, self._run_then_close(task, inputs)).result()

    async def _run_then_close(self, task: Task[Any, OutputT], inputs: Any) -> OutputT:
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
        price = price_for(self.settings.prices, provider, name)
        est_in = request_tokens(request)
        reservation = self.budget.reserve(
            est_in + request.max_tokens,
            cost_of(Usage(est_in, request.max_tokens), price),
            task=request.task or "?",
        )
        started = time.monotonic()
        try:
            async with self._semaphore():
                completion = await call_with_retry(
                    lambda: model.complete(request),
                    self.retry_policy,
                    what=f"{provider}:{name} (task {request.task or '?'})",
                    on_retry=_log_retry,
                )
        except BaseException:
            self.budget.settle(reservation, 0, 0.0)
            raise
        seconds = time.monotonic() - started
        usage = completion.usage
        cost = cost_of(usage, price)
        self.budget.settle(reservation, usage.total, cost)
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
        self.ledger.close()


_SCHEMAS: dict[type[BaseModel], dict[str, Any]] = {}


def _schema_of(output_cls: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of an Output class, generated once (pydantic rebuilds it on every call)."""
    schema = _SCHEMAS.get(output_cls)
    if schema is None:
        schema = _SCHEMAS[output_cls] = output_cls.model_json_schema()
    return schema  # shared: treat as read-only


def _schema_name(task_name: str) -> str:
    cleaned = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "_-") else "_" for ch in task_name)
    return (cleaned or "output")[:64]


def _log_retry(attempt: int, delay: float, error: TransientModelError) -> None:
    log.warning("model call attempt %d failed (%s); retrying in %.1f s", attempt, error.message, delay)
