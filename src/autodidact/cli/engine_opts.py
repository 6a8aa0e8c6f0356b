"""Options every model-using command shares, and the one call that turns them into a Runtime.

Why shared: ``--model``, ``--no-cache``, ``--max-cost`` and ``--max-tokens`` must mean the same
thing in every command, and every command must say on stderr which engine is running. Command
modules use the option factories in their signatures and call :func:`make_runtime`.

Example::

    @app.command("thing")
    def thing(kb: Path | None = kb_option(), model: str | None = model_option(),
              no_cache: bool = no_cache_option(), max_cost: float | None = max_cost_option(),
              max_tokens: int | None = max_tokens_option()) -> None:
        runtime = make_runtime(kb_root, model, no_cache, max_cost, max_tokens)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from autodidact.cli.common import console, warn

if TYPE_CHECKING:
    from autodidact.config import Settings
    from autodidact.llm.runtime import Runtime

MODEL_HELP = (
    "Model as provider:name (openai, deepseek, qwen, openrouter, ollama, vllm, llamacpp, anthropic), "
    "or 'offline'. Default: $AUTODIDACT_MODEL, else settings, else the offline engine."
)


def model_option() -> Any:  # typer.Option() is typed Any: it stands for the parameter's default
    """``--model provider:name``."""
    return typer.Option(None, "--model", "-m", help=MODEL_HELP, metavar="PROVIDER:NAME")


def _fallback_value(value: str | None) -> str | None:
    if value is not None and value not in ("offline", "none"):
        raise typer.BadParameter(f"{value!r} is not one of 'offline', 'none'")
    return value


def fallback_option() -> Any:  # typer.Option() is typed Any
    """``--fallback offline|none``: what a step does when the model's reply stays invalid."""
    return typer.Option(
        None,
        "--fallback",
        metavar="offline|none",
        callback=_fallback_value,
        help="When a step's model reply stays invalid after its re-ask (or the server stays unreachable): "
        "'offline' runs the offline engine for that step and says so; 'none' stops with the error. "
        "Default: offline for local servers (ollama, vllm, llamacpp), none for hosted APIs.",
    )


def no_cache_option() -> Any:  # typer.Option() is typed Any
    """``--no-cache``: bypass the call cache (replies are still recorded in the ledger)."""
    return typer.Option(False, "--no-cache", help="Call the model even for requests answered before.")


def max_cost_option() -> Any:  # typer.Option() is typed Any
    """``--max-cost USD``."""
    return typer.Option(
        None, "--max-cost", min=0.0, metavar="USD", help="Stop cleanly before a model call would pass this cost."
    )


def max_tokens_option() -> Any:  # typer.Option() is typed Any
    """``--max-tokens N``."""
    return typer.Option(
        None, "--max-tokens", min=0, metavar="N", help="Stop cleanly before a model call would pass this many tokens."
    )


def load_run_settings(
    kb_root: Path | None,
    model: str | None = None,
    max_cost: float | None = None,
    max_tokens: int | None = None,
    fallback: str | None = None,
) -> Settings:
    """Settings in effect with the engine flags applied (flags > env > KB file > user file)."""
    from autodidact.config import load_settings

    flags: dict[str, object] = {
        "llm.model": model, "budget.max_cost": max_cost, "budget.max_tokens": max_tokens, "llm.fallback": fallback,
    }  # fmt: skip
    return load_settings(kb_root, flags)


def check_model_first(model: str | None) -> None:
    """Refuse a model no provider serves before the command creates or writes anything.

    Why: ``research --model gpt-4o`` (no provider) used to create the knowledge base and only then
    refuse the name. ``--model``, else ``AUTODIDACT_MODEL`` or the user's settings file, is checked;
    a knowledge base's own ``autodidact.toml`` is checked when the runtime is built, as before.
    """
    from autodidact.llm.registry import parse_model_spec

    spec = model if model is not None else load_run_settings(None).llm.model
    parse_model_spec(spec or "")


def make_runtime(
    kb_root: Path | None,
    model: str | None = None,
    no_cache: bool = False,
    max_cost: float | None = None,
    max_tokens: int | None = None,
    *,
    settings: Settings | None = None,
    announce: bool = True,
    fallback: str | None = None,
) -> Runtime:
    """Build the runtime for a command and print ``engine: ...`` on stderr.

    ``settings`` (already loaded by the caller) avoids reading the files twice; the engine flags
    still override it.
    """
    from autodidact.llm.registry import build_runtime

    if settings is None:
        settings = load_run_settings(kb_root, model, max_cost, max_tokens, fallback)
    else:
        updates: dict[str, object] = {}
        if max_cost is not None or max_tokens is not None:
            budget = settings.budget.model_copy(
                update={k: v for k, v in {"max_cost": max_cost, "max_tokens": max_tokens}.items() if v is not None}
            )
            updates["budget"] = budget
        if fallback is not None:
            updates["llm"] = settings.llm.model_copy(update={"fallback": fallback})
        if updates:
            settings = settings.model_copy(update=updates)
    runtime = build_runtime(settings, kb_root, model=model, no_cache=no_cache)
    if announce:
        console.print(f"engine: {runtime.describe()}", soft_wrap=True)
        unpriced = _unpriced(runtime, settings)
        if unpriced:
            warn(
                f"no price for {unpriced} in [llm] prices: --max-cost counts its calls as $0; "
                "set prices (USD per 1M input/output tokens) or use --max-tokens"
            )
    return runtime


def _unpriced(runtime: Runtime, settings: Settings) -> str | None:
    """``provider:name`` when a cost cap is set but the model has no price, else None."""
    from autodidact.llm.ledger import price_for

    model = runtime.model
    if model is None or settings.budget.max_cost is None:
        return None
    if price_for(settings.llm.prices, model.provider, model.name) is not None:
        return None
    return f"{model.provider}:{model.name}"
