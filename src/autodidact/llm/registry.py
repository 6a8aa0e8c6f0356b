"""Every provider the program accepts, in one table, and the one function that builds a runtime.

Why presets and not subclasses: OpenAI, DeepSeek, Qwen (DashScope), OpenRouter, Ollama, vLLM and a
llama.cpp server all speak the same chat-completions wire format; what differs is the base URL,
the key variable, a default model and whether the server can constrain output to a JSON schema.
Those are data. Anthropic has its own SDK and adapter. ``--model provider:name`` (or
``AUTODIDACT_MODEL``, or ``[llm] model``) picks one; nothing configured means the offline engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from autodidact.config import ModelSettings, Settings, env, secret
from autodidact.errors import ConfigError, ModelAuthError
from autodidact.kb import team_backend
from autodidact.llm.base import Model
from autodidact.llm.offline import OFFLINE_NAMES
from autodidact.llm.runtime import Runtime

ResponseFormat = Literal["json_schema", "json_object", "json_object_schema"]


@dataclass(frozen=True)
class Preset:
    """Who to talk to: wire format, base URL, key variable, default model, capabilities."""

    name: str
    kind: Literal["openai_compat", "anthropic"]
    base_url: str
    key_env_var: str | None
    key_required: bool
    default_model: str | None
    response_format: ResponseFormat = "json_schema"
    max_tokens_param: str = "max_tokens"
    context_window: int | None = None
    note: str = ""
    # A server people run themselves (Ollama, vLLM, llama.cpp): often a small model on a serial
    # server, so its defaults differ (``resolved_settings``).
    local: bool = False

    @property
    def supports_json_schema(self) -> bool:
        """True when the server itself constrains output to the schema (no instruction needed)."""
        return self.kind == "openai_compat" and self.response_format == "json_schema"


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "openai",
            "openai_compat",
            "https://api.openai.com/v1",
            "OPENAI_API_KEY",
            True,
            "gpt-4o-mini",
            "json_schema",
            "max_completion_tokens",
            128_000,
            "OpenAI",
        ),
        Preset(
            "deepseek",
            "openai_compat",
            "https://api.deepseek.com/v1",
            "DEEPSEEK_API_KEY",
            True,
            "deepseek-chat",
            "json_object",
            context_window=64_000,
            note="DeepSeek (JSON mode + schema instruction)",
        ),
        Preset(
            "qwen",
            "openai_compat",
            "https://dashscope.aliyuncs.com/compatible-mode/v1",
            "DASHSCOPE_API_KEY",
            True,
            "qwen-plus",
            "json_object",
            context_window=128_000,
            note="Qwen on Alibaba DashScope (alias: dashscope)",
        ),
        Preset(
            "openrouter",
            "openai_compat",
            "https://openrouter.ai/api/v1",
            "OPENROUTER_API_KEY",
            True,
            "openai/gpt-4o-mini",
            "json_object",
            note="OpenRouter (any model it routes to)",
        ),
        Preset(
            "ollama",
            "openai_compat",
            "http://127.0.0.1:11434/v1",
            None,
            False,
            "qwen2.5:7b",
            "json_schema",
            note="local Ollama server",
            local=True,
        ),
        Preset(
            "vllm",
            "openai_compat",
            "http://127.0.0.1:8000/v1",
            "VLLM_API_KEY",
            False,
            None,
            "json_schema",
            note="local vLLM server (name the served model)",
            local=True,
        ),
        Preset(
            "llamacpp",
            "openai_compat",
            "http://127.0.0.1:8080/v1",
            None,
            False,
            "local",
            "json_object_schema",
            context_window=4096,
            note="llama.cpp / llama-cpp-python server (schema via json_object; alias: llama.cpp)",
            local=True,
        ),
        Preset(
            "anthropic",
            "anthropic",
            "https://api.anthropic.com",
            "ANTHROPIC_API_KEY",
            True,
            "claude-sonnet-4-5",
            "json_object",
            context_window=200_000,
            note="Anthropic Claude (official SDK; pip install 'autodidact[anthropic]')",
        ),
    )
}

ALIASES = {"dashscope": "qwen", "llama.cpp": "llamacpp", "llama-cpp": "llamacpp", "claude": "anthropic"}


@dataclass(frozen=True)
class ModelChoice:
    """A parsed ``provider:name`` with the preset it selects."""

    preset: Preset
    name: str

    @property
    def spec(self) -> str:
        """``provider:name`` as the user would type it."""
        return f"{self.preset.name}:{self.name}"


def parse_model_spec(spec: str) -> ModelChoice | None:
    """``provider[:name]`` → choice; ``offline`` (or empty) → None; unknown provider → ConfigError."""
    text = (spec or "").strip()
    if not text or text.lower() in OFFLINE_NAMES:
        return None
    provider, _, name = text.partition(":")
    key = ALIASES.get(provider.strip().lower(), provider.strip().lower())
    preset = PRESETS.get(key)
    if preset is None:
        raise ConfigError(
            f"unknown model provider {provider!r} in {spec!r}",
            hint="use provider:name with provider one of " + ", ".join([*PRESETS, "offline"]),
        )
    name = name.strip() or (preset.default_model or "")
    if not name:
        raise ConfigError(
            f"provider {preset.name!r} has no default model: name one, e.g. --model {preset.name}:<model>",
            hint="the served model's name is what the server lists at /v1/models",
        )
    return ModelChoice(preset, name)


def _is_loopback(url: str) -> bool:
    from urllib.parse import urlsplit

    host = (urlsplit(url).hostname or "").lower()
    return host in {"127.0.0.1", "localhost", "::1"}


def build_model(choice: ModelChoice, settings: ModelSettings) -> Model:
    """The adapter for a choice; the key is checked here and read again only when a client is built."""
    preset = choice.preset
    base_url = settings.base_url or preset.base_url
    flag = (env("AUTODIDACT_OFFLINE") or "").strip().lower()
    if flag not in {"", "0", "false", "no", "off"} and not _is_loopback(base_url):
        raise ConfigError(
            f"AUTODIDACT_OFFLINE is set: refusing to call {choice.spec} at {base_url}",
            hint="unset AUTODIDACT_OFFLINE, or use --model offline",
        )
    if preset.key_required and preset.key_env_var and not secret(preset.key_env_var):
        raise ModelAuthError(
            f"{preset.key_env_var} is not set; --model {choice.spec} needs it",
            hint=f"export {preset.key_env_var}=<your key>, or choose another --model (unset = the offline engine)",
        )
    if preset.kind == "anthropic":
        from autodidact.llm.anthropic import AnthropicModel

        return AnthropicModel(
            choice.name,
            base_url=base_url,
            key_env_var=preset.key_env_var,
            settings=settings,
            context_window=preset.context_window,
        )
    from autodidact.llm.openai_compat import OpenAICompatModel

    return OpenAICompatModel(
        choice.name,
        provider=preset.name,
        base_url=base_url,
        key_env_var=preset.key_env_var,
        response_format=preset.response_format,
        max_tokens_param=preset.max_tokens_param,
        settings=settings,
        context_window=preset.context_window,
    )


# A local server runs one request at a time and a small model is slow: what the defaults become there.
LOCAL_DEFAULTS = {"concurrency": 1, "max_retries": 1, "step_calls": 8, "step_seconds": 240.0}


def resolved_settings(choice: ModelChoice, llm: ModelSettings) -> ModelSettings:
    """``[llm]`` with the preset's defaults filled in where the user set nothing (docs/models.md).

    A self-run server (the Ollama, vLLM and llama.cpp presets) gets fallback to the offline engine,
    streaming (so a timed-out call stops generating), one call at a time, one retry and a budget
    per step (8 calls, 240 s, then the offline engine finishes the step); a hosted
    API fails loudly instead of falling back, and keeps its concurrency. ``context_window`` comes
    from the preset when unset.
    """
    preset = choice.preset
    local = preset.local
    update: dict[str, object] = {}
    if llm.fallback is None:
        update["fallback"] = "offline" if local else "none"
    if llm.stream is None:
        update["stream"] = local
    if llm.context_window is None and preset.context_window is not None:
        update["context_window"] = preset.context_window
    if local:
        for key, value in LOCAL_DEFAULTS.items():
            if key not in llm.model_fields_set:
                update[key] = value
    return llm.model_copy(update=update)


def build_runtime(
    settings: Settings,
    kb_root: Path | None,
    *,
    model: str | None = None,
    no_cache: bool = False,
) -> Runtime:
    """The runtime for a run: ``model`` (``provider:name``) overrides ``settings.llm.model``.

    With a knowledge base, calls are cached in ``.autodidact/index.sqlite`` and recorded in
    ``.autodidact/usage_ledger.jsonl``; without one, nothing is written.
    """
    spec = model if model is not None else settings.llm.model
    cache_db = ledger = None
    if kb_root is not None:
        internal = Path(kb_root) / ".autodidact"
        cache_db, ledger = internal / "index.sqlite", internal / "usage_ledger.jsonl"
    choice = parse_model_spec(spec or "")
    if choice is None:
        reason = "--model offline" if spec else "no model configured"
        return Runtime(None, settings=settings.llm, budget=settings.budget, offline_reason=reason)
    llm = resolved_settings(choice, settings.llm)
    built = build_model(choice, llm)
    team = team_backend(Path(kb_root)) if kb_root is not None else None
    team_caps = settings.budget.team_max_cost is not None or settings.budget.team_max_tokens is not None
    if team_caps and team is None:
        raise ConfigError(
            "[budget] team_max_cost / team_max_tokens cap what a team spends on its PostgreSQL server, "
            "and this run has no team backend",
            hint='set AUTODIDACT_DATABASE_URL or [store] backend = "postgres" (docs/team.md), or use '
            "--max-cost / --max-tokens for this run alone",
        )
    if team is not None:  # one cache, one ledger and one budget for the team (llm/pgcache.py, docs/team.md)
        from autodidact.llm.pgcache import PgCallCache, PgLedger, PgTeamBudget

        return Runtime(
            built,
            settings=llm,
            ledger_path=ledger,
            budget=settings.budget,
            no_cache=no_cache,
            call_cache=PgCallCache(team.url),
            ledger=PgLedger(ledger, team.url, team.name),
            shared_budget=PgTeamBudget(team.url, settings.budget) if team_caps else None,
        )
    return Runtime(
        built,
        settings=llm,
        cache_db=cache_db,
        ledger_path=ledger,
        budget=settings.budget,
        no_cache=no_cache,
    )
