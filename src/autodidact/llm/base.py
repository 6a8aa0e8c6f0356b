"""The model interface: one method, capabilities as data, and the errors adapters translate into.

Why so small: retries, caching, structured-output repair, budgets and the usage ledger wrap a
model from the outside (``runtime.py``), so a provider adapter only has to turn a
:class:`Request` into a :class:`Completion` and map its SDK's failures onto the error types below.
That keeps every adapter short and makes the resilience logic testable once, for all of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from autodidact.errors import ContextLengthError, ModelError
from autodidact.jsontypes import JSONObject
from autodidact.llm.tasks import Message

if TYPE_CHECKING:
    import ssl


@dataclass(frozen=True)
class Request:
    """One call: the messages, the JSON schema the reply must match (or None), and limits."""

    messages: list[Message]
    schema: JSONObject | None = None
    task: str = ""
    temperature: float = 0.0
    max_tokens: int = 4096
    schema_name: str = "output"
    timeout: float | None = None  # seconds for one attempt; None: [llm] timeout (not part of the cache key)


@dataclass(frozen=True)
class Usage:
    """Tokens as reported by the server (0 when it reports nothing)."""

    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def total(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens


@dataclass(frozen=True)
class Completion:
    """The model's reply text, its usage and the model name the server answered with."""

    text: str
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    finish_reason: str | None = None


@runtime_checkable
class Model(Protocol):
    """Anything that completes a request. Capabilities are read-only data, not hooks."""

    provider: str
    name: str
    supports_json_schema: bool
    context_window: int | None
    key_env_var: str | None

    async def complete(self, request: Request) -> Completion:
        """Send one request; raise :class:`TransientModelError` for retryable failures."""
        ...


class TransientModelError(ModelError):
    """A failure worth retrying (429, 5xx, timeout, dropped connection).

    ``retry_after`` carries the server's ``Retry-After`` in seconds when it sent one; the retry
    loop never sleeps less than that.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        retry_after: float | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message, hint=hint)
        self.status = status
        self.retry_after = retry_after


def parse_retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds from ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date), else None."""
    if headers is None:
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000.0)
        value = headers.get("retry-after")
    except Exception:
        return None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    from email.utils import parsedate_to_datetime

    try:
        import time

        when = parsedate_to_datetime(value)
        return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError):
        return None


CONTEXT_MARKERS = (
    "context_length_exceeded",
    "maximum context length",
    "context length",
    "context window",
    "prompt is too long",
    "too many tokens",
    "input is too long",
)


def looks_like_context_error(text: str) -> bool:
    """Servers word this differently; match the phrases OpenAI, vLLM, llama.cpp and Anthropic use."""
    low = text.lower()
    return any(marker in low for marker in CONTEXT_MARKERS)


def status_error(
    what: str, task: str | None, status: int, detail: str, exc: BaseException, *, context: bool
) -> ModelError:
    """Map a non-auth HTTP error to our types, the same way for every provider.

    ``context`` says the provider recognised a context-length error (each wire format words it
    differently); 408/409/429/5xx are transient and carry the server's Retry-After.
    """
    if context:
        return ContextLengthError(
            f"{what}: the prompt of task {task or '?'} is longer than the model's context window",
            hint="the task should shrink its input; or choose a model with a larger context",
        )
    if status in (408, 409, 429) or status >= 500:
        headers = getattr(getattr(exc, "response", None), "headers", None)
        return TransientModelError(
            f"{what}: HTTP {status}: {detail}", status=status, retry_after=parse_retry_after(headers)
        )
    return ModelError(
        f"{what}: the server rejected the request (HTTP {status}): {detail}",
        hint="check the model name and the server (autodidact doctor --check)",
    )


def redact(text: str, *extra_vars: str | None) -> str:
    """Remove every known secret (and the values of ``extra_vars``) from a server message."""
    from autodidact.config import known_secret_values, secret

    values = known_secret_values() + [v for v in (secret(n) for n in extra_vars if n) if v]
    for value in values:
        if value:
            text = text.replace(value, "***")
    return text


_SSL_CONTEXT: ssl.SSLContext | None = None


def shared_ssl_context() -> ssl.SSLContext:
    """One TLS context for every SDK client: building one costs ~30 ms, and ``run_sync`` makes a
    new client per event loop."""
    global _SSL_CONTEXT
    if _SSL_CONTEXT is None:
        import ssl

        try:
            import certifi

            _SSL_CONTEXT = ssl.create_default_context(cafile=certifi.where())
        except ImportError:
            _SSL_CONTEXT = ssl.create_default_context()
    return _SSL_CONTEXT
