"""Settings: defaults < user file < knowledge-base file < environment < flags.

Why this shape: a person keeps provider choices in ``~/.config/autodidact/config.toml`` (moved by
``XDG_CONFIG_HOME`` or ``AUTODIDACT_HOME``), a knowledge base pins its own language and limits in
``autodidact.toml``, CI overrides with environment variables, and a flag wins for one run. Secrets are *never* settings:
they are read from environment variables at the moment a client is built (:func:`secret`), so no
file this program writes can contain one.

An invalid file or value is a :class:`ConfigError` naming the file, line and key.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Literal, TypeAlias, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from autodidact.errors import ConfigError

KB_SETTINGS_FILE = "autodidact.toml"
# One layer of settings before validation: a TOML table, an environment or the flags, nested by section.
Layer: TypeAlias = dict[str, object]


class ModelSettings(BaseModel):
    """Which model runs and how hard it may be pushed."""

    model_config = ConfigDict(extra="forbid")
    model: str | None = Field(None, description="provider:name, e.g. openai:gpt-4o-mini; none = offline")
    base_url: str | None = Field(None, description="override the preset's base URL")
    concurrency: int = Field(4, ge=1, le=64)
    timeout: float = Field(120.0, gt=0, description="total seconds per call")
    connect_timeout: float = Field(10.0, gt=0)
    max_retries: int = Field(4, ge=0, le=10)
    temperature: float = Field(0.0, ge=0, le=2)
    max_tokens: int = Field(4096, ge=1, description="the largest reply any task may ask for")
    context_window: int | None = Field(
        None, ge=512, description="tokens the server's context holds (llama.cpp: its --n_ctx); default: the preset's"
    )
    tokens_per_second: float | None = Field(
        None, gt=0, description="the server's generation speed (doctor --check measures it); sets each call's timeout"
    )
    fallback: Literal["offline", "none"] | None = Field(
        None,
        description="when a step's model reply stays invalid: run the offline engine for that step, or fail; "
        "default: offline for local servers, none for hosted APIs",
    )
    stream: bool | None = Field(
        None, description="stream replies so a timed-out call stops generating; default: on for local servers"
    )
    step_calls: int | None = Field(
        None,
        ge=0,
        description="model calls one step may make (a dimension, a round's questions, compile or "
        "check); the rest of the step runs offline. Default: 8 for local servers, unlimited for hosted APIs",
    )
    step_seconds: float | None = Field(
        None,
        gt=0,
        description="seconds one step may spend on model calls before the rest of it runs offline; "
        "default: 240 for local servers, unlimited for hosted APIs",
    )
    cache: bool = True
    proxy_from_env: bool = Field(True, description="model calls go through the environment's proxy variables")
    prices: dict[str, tuple[float, float]] = Field(
        default_factory=dict,
        description="model name -> (USD per 1M input tokens, USD per 1M output tokens)",
    )


class BudgetSettings(BaseModel):
    """Caps a run stops *before* passing: its own (``max_*``), and the team's on the PostgreSQL
    backend (``team_max_*``: everything every member recorded on the server, docs/team.md)."""

    model_config = ConfigDict(extra="forbid")
    max_cost: float | None = Field(None, ge=0)
    max_tokens: int | None = Field(None, ge=0)
    team_max_cost: float | None = Field(None, ge=0)
    team_max_tokens: int | None = Field(None, ge=0)


class FetchSettings(BaseModel):
    """Guarded fetch limits."""

    model_config = ConfigDict(extra="forbid")
    max_bytes: int = Field(20_000_000, ge=1)
    deadline: float = Field(30.0, gt=0)
    read_timeout: float = Field(10.0, gt=0)
    max_redirects: int = Field(5, ge=0, le=20)
    per_host_concurrency: int = Field(2, ge=1)
    politeness_delay: float = Field(0.0, ge=0)
    respect_robots: bool = True
    user_agent: str = "autodidact/0.1 (+https://github.com/autodidact; research bot)"
    allow_private: list[str] = Field(default_factory=list, description="host:port entries")
    max_pdf_pages: int = Field(300, ge=1)
    max_chars: int = Field(2_000_000, ge=1)
    # The largest local file `add` and `--corpus` read: a 200 MB file used 1.5 GB of memory.
    max_file_bytes: int = Field(50_000_000, ge=1)
    proxy_from_env: bool = Field(
        True, description="fetch public pages through HTTPS_PROXY/HTTP_PROXY/ALL_PROXY, except NO_PROXY hosts"
    )


class SearchSettings(BaseModel):
    """Which search providers run, in order; local full-text search always runs first."""

    model_config = ConfigDict(extra="forbid")
    providers: list[str] = Field(default_factory=list, description="searxng, tavily, brave, duckduckgo")
    searxng_url: str | None = None
    results_per_query: int = Field(8, ge=1, le=50)


class ReportSettings(BaseModel):
    """How a report's prose is held to its claims (docs/writing.md)."""

    model_config = ConfigDict(extra="forbid")
    support_threshold: float = Field(
        0.7, ge=0, le=1, description="share of a model sentence's content words its claims' quotes must hold"
    )
    check_support: bool = Field(False, description="a second model call judges each written sentence")


class StoreSettings(BaseModel):
    """Where derived data lives: the embedded SQLite files (default) or a shared PostgreSQL server.

    ``url`` holds a server address without a password (the password comes from ``PGPASSWORD`` or
    ``~/.pgpass``, or the whole URL from ``AUTODIDACT_DATABASE_URL``); docs/team.md."""

    model_config = ConfigDict(extra="forbid")
    backend: Literal["sqlite", "postgres"] = Field("sqlite", description="sqlite (one machine) or postgres (a team)")
    url: str | None = Field(None, description="postgresql://user@host/db, no password (AUTODIDACT_DATABASE_URL wins)")
    name: str | None = Field(
        None, description="this knowledge base's name in the shared database (the same in every checkout of it)"
    )


class Settings(BaseModel):
    """All settings in effect for one run."""

    model_config = ConfigDict(extra="forbid")
    language: Literal["zh", "en"] | None = None
    llm: ModelSettings = Field(default_factory=ModelSettings)
    budget: BudgetSettings = Field(default_factory=BudgetSettings)
    fetch: FetchSettings = Field(default_factory=FetchSettings)
    search: SearchSettings = Field(default_factory=SearchSettings)
    report: ReportSettings = Field(default_factory=ReportSettings)
    store: StoreSettings = Field(default_factory=StoreSettings)
    sources_origin: dict[str, str] = Field(default_factory=dict, exclude=True)


# Environment variables that map to settings (never secrets).
ENV_MAP: dict[str, tuple[str, ...]] = {
    "AUTODIDACT_MODEL": ("llm", "model"),
    "AUTODIDACT_BASE_URL": ("llm", "base_url"),
    "AUTODIDACT_LANGUAGE": ("language",),
    "AUTODIDACT_MAX_COST": ("budget", "max_cost"),
    "AUTODIDACT_MAX_TOKENS": ("budget", "max_tokens"),
    "AUTODIDACT_TEAM_MAX_COST": ("budget", "team_max_cost"),
    "AUTODIDACT_TEAM_MAX_TOKENS": ("budget", "team_max_tokens"),
    "AUTODIDACT_SEARCH_PROVIDERS": ("search", "providers"),
    "AUTODIDACT_SEARXNG_URL": ("search", "searxng_url"),
    "AUTODIDACT_ALLOW_PRIVATE": ("fetch", "allow_private"),
    "AUTODIDACT_RESPECT_ROBOTS": ("fetch", "respect_robots"),
    "AUTODIDACT_PROXY_FROM_ENV": ("fetch", "proxy_from_env"),
}
# Variables that set more than one setting: one switch for every connection the program makes.
ENV_ALSO: dict[str, tuple[tuple[str, ...], ...]] = {
    "AUTODIDACT_PROXY_FROM_ENV": (("llm", "proxy_from_env"),),
}
_BOOLEAN_KEYS = {"respect_robots", "proxy_from_env"}

SECRET_VARS = (
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "DEEPSEEK_API_KEY",
    "DASHSCOPE_API_KEY",
    "OPENROUTER_API_KEY",
    "VLLM_API_KEY",
    "TAVILY_API_KEY",
    "BRAVE_API_KEY",
    "AUTODIDACT_DATABASE_URL",
)
# The team backend's server (docs/team.md): a URL that may carry a password, so a secret.
DATABASE_URL_VAR = "AUTODIDACT_DATABASE_URL"


def env(name: str, default: str | None = None) -> str | None:
    """Read one environment variable. The only place the package reads ``os.environ``."""
    return os.environ.get(name, default)


def secret(name: str) -> str | None:
    """Read a secret from the environment at the moment it is needed; never stored."""
    value = os.environ.get(name)
    return value or None


def known_secret_values() -> list[str]:
    """Every secret currently in the environment, so writers can prove they never leak one."""
    return [v for v in (os.environ.get(n) for n in SECRET_VARS) if v]


def database_url(settings: Settings) -> str | None:
    """The PostgreSQL URL when the team backend is selected, else None (the SQLite default).

    ``AUTODIDACT_DATABASE_URL`` selects it on its own; ``[store] backend = "postgres"`` needs a URL
    from that variable or ``[store] url``. Read when needed, never stored in a file or printed."""
    from_env = secret(DATABASE_URL_VAR)
    if from_env:
        return from_env
    if settings.store.backend != "postgres":
        return None
    if settings.store.url:
        return settings.store.url
    raise ConfigError(
        '[store] backend = "postgres" but no server is named',
        hint=f"set {DATABASE_URL_VAR}=postgresql://user@host/db or [store] url in autodidact.toml",
    )


def mask(value: str | None) -> str:
    """Show that a secret is set without showing it."""
    if not value:
        return "(not set)"
    return f"set ({len(value)} chars)"


def user_config_path() -> Path:
    """``$AUTODIDACT_HOME/config.toml``, else ``$XDG_CONFIG_HOME/autodidact/config.toml``, else
    ``~/.config/autodidact/config.toml``.

    Why XDG: a person who moved every program's settings with ``XDG_CONFIG_HOME`` expects this one
    to follow. As the XDG Base Directory specification says, a relative value is ignored.
    """
    home = env("AUTODIDACT_HOME")
    if home:
        return Path(home) / "config.toml"
    xdg = env("XDG_CONFIG_HOME") or ""
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".config"
    return base / "autodidact" / "config.toml"


def _line_of(text: str, key: str) -> int | None:
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=", re.MULTILINE)
    match = pattern.search(text)
    if match is None:
        return None
    return text.count("\n", 0, match.start()) + 1


def _read_toml(path: Path) -> tuple[Layer, str]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text", hint="save the file as UTF-8") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}", hint="fix the line named above") from None


def _merge(base: Layer, over: Layer) -> Layer:
    out = dict(base)
    for key, value in over.items():
        below = out.get(key)
        if isinstance(value, dict) and isinstance(below, dict):
            out[key] = _merge(below, value)
        else:
            out[key] = value
    return out


def _set_path(data: Layer, path: tuple[str, ...], value: object) -> None:
    node = data
    for part in path[:-1]:
        # Only this module builds these layers, and it never puts a value where a table goes.
        node = cast(Layer, node.setdefault(part, {}))
    node[path[-1]] = value


def _env_layer() -> Layer:
    layer: Layer = {}
    for var, path in ENV_MAP.items():
        raw = os.environ.get(var)
        if raw is None or raw == "":
            continue
        value: object = raw
        if path[-1] in {"providers", "allow_private"}:
            value = [p.strip() for p in raw.split(",") if p.strip()]
        elif path[-1] in _BOOLEAN_KEYS:
            value = raw.strip().lower() not in {"0", "false", "no", "off"}
        for each in (path, *ENV_ALSO.get(var, ())):
            _set_path(layer, each, value)
    return layer


def _validate(data: Layer, origins: list[tuple[str, Layer, str]]) -> Settings:
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(str(p) for p in err["loc"])
        dotted = ".".join(loc)
        # Name the layer (file and line, or variable) that set the offending key.
        for name, layer, text in reversed(origins):
            node: object = layer
            found = True
            for part in loc:
                if isinstance(node, dict) and part in node:
                    node = node[part]
                else:
                    found = False
                    break
            if not found and loc and isinstance(layer, dict):
                # Unknown key: the parent exists in this layer.
                parent: object = layer
                for part in loc[:-1]:
                    parent = parent.get(part, {}) if isinstance(parent, dict) else {}
                found = isinstance(parent, dict) and loc[-1] in parent
            if found:
                line = _line_of(text, loc[-1]) if text else None
                where = f"{name}:{line}" if line else name
                raise ConfigError(
                    f"{where}: invalid value for '{dotted}': {err['msg']}",
                    hint="fix or remove that key; `autodidact doctor` shows the settings in effect",
                ) from None
        raise ConfigError(f"invalid setting '{dotted}': {err['msg']}") from None


def load_settings(kb_root: Path | None = None, flags: Mapping[str, object] | None = None) -> Settings:
    """Merge every layer and validate once, naming the origin of any bad value."""
    origins: list[tuple[str, Layer, str]] = []
    user_path = user_config_path()
    if user_path.is_file():
        data, text = _read_toml(user_path)
        origins.append((str(user_path), data, text))
    if kb_root is not None:
        kb_file = Path(kb_root) / KB_SETTINGS_FILE
        if kb_file.is_file():
            data, text = _read_toml(kb_file)
            origins.append((str(kb_file), data, text))
    env_layer = _env_layer()
    if env_layer:
        origins.append(("environment", env_layer, ""))
    flag_layer: Layer = {}
    for dotted, value in (flags or {}).items():
        if value is not None:
            _set_path(flag_layer, tuple(dotted.split(".")), value)
    if flag_layer:
        origins.append(("command-line flag", flag_layer, ""))
    merged: Layer = {}
    for _, layer, _ in origins:
        merged = _merge(merged, layer)
    settings = _validate(merged, origins)
    return settings
