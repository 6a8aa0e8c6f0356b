"""Settings and the model runtime for an API call: the same layers and flags as the command line.

Why here and not in ``cli/engine_opts.py``: the API sits below the CLI (docs/architecture.md,
"Layers"), so it cannot borrow the CLI's helpers; both read the same settings through
:func:`autodidact.config.load_settings` and build the runtime with
:func:`autodidact.llm.registry.build_runtime`, so ``model="ollama:qwen2.5:7b"`` here means what
``--model ollama:qwen2.5:7b`` means there. Nothing is printed: the engine in use is
``runtime.describe()``.
"""

from __future__ import annotations

from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from autodidact.errors import InputError

if TYPE_CHECKING:
    from autodidact.config import Settings
    from autodidact.llm.runtime import Runtime

FALLBACKS = ("offline", "none")
T = TypeVar("T")


def check_engine_args(model: str | None, fallback: str | None) -> None:
    """Refuse a bad model name or fallback before anything is created or written."""
    if fallback is not None and fallback not in FALLBACKS:
        raise InputError(f"fallback {fallback!r} is not one of 'offline', 'none'", hint="use fallback='offline'")
    if model is not None:
        from autodidact.llm.registry import parse_model_spec

        parse_model_spec(model)  # raises ConfigError naming the provider


def settings_for(
    root: Path | None,
    *,
    model: str | None = None,
    fallback: str | None = None,
    max_cost: float | None = None,
    max_tokens: int | None = None,
) -> Settings:
    """Settings in effect for ``root`` with these arguments applied (arguments > env > KB file > user file)."""
    from autodidact.config import load_settings

    if max_cost is not None and max_cost < 0:
        raise InputError(f"max_cost {max_cost} is negative", hint="give a cost in USD, 0 or more")
    if max_tokens is not None and max_tokens < 0:
        raise InputError(f"max_tokens {max_tokens} is negative", hint="give a token count, 0 or more")
    flags: dict[str, object] = {
        "llm.model": model, "budget.max_cost": max_cost, "budget.max_tokens": max_tokens, "llm.fallback": fallback,
    }  # fmt: skip
    return load_settings(root, flags)


def runtime_for(settings: Settings, root: Path | None, *, model: str | None = None, no_cache: bool = False) -> Runtime:
    """The runtime that runs every task of the call (the offline engine when no model is configured)."""
    from autodidact.llm.registry import build_runtime

    return build_runtime(settings, root, model=model, no_cache=no_cache)


def run_coroutine(coroutine: Coroutine[object, None, T]) -> T:
    """Run ``coroutine`` to the end from synchronous code, even where an event loop already runs.

    Why: a Jupyter notebook runs its cells inside an event loop, where ``asyncio.run`` refuses to
    start; there the coroutine runs on a fresh loop in a helper thread, and this call still blocks
    until it is done, so the API is the same everywhere.
    """
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    import threading

    value: list[T] = []
    error: list[BaseException] = []

    def main() -> None:
        try:
            value.append(asyncio.run(coroutine))
        except BaseException as exc:  # handed back to the caller's thread below
            error.append(exc)

    helper = threading.Thread(target=main, name="autodidact-api", daemon=True)
    helper.start()
    helper.join()
    if error:
        raise error[0]
    return value[0]
