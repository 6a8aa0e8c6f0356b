"""The Claude adapter, on the official ``anthropic`` SDK (an optional extra, imported lazily).

Why its own adapter: the Messages API differs from chat completions in shape — system text is a
separate field, turns must alternate user/assistant, usage is ``input_tokens``/``output_tokens``
— but the contract is the same as ``openai_compat``: SDK retries off, failures translated into
our error types, the key read from ``ANTHROPIC_API_KEY`` when the client is built and never kept
anywhere else. Schema output is requested by instruction (``supports_json_schema = False``) and
validated by the runtime like any other reply.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from autodidact.config import ModelSettings, secret
from autodidact.errors import ConfigError, ModelAuthError, ModelError
from autodidact.llm.base import (
    Completion,
    Request,
    TransientModelError,
    Usage,
    looks_like_context_error,
    redact,
    shared_ssl_context,
    status_error,
)
from autodidact.llm.tasks import Message

if TYPE_CHECKING:
    import anthropic


def split_system(messages: list[Message]) -> tuple[str, list[dict[str, str]]]:
    """System text joined; other turns merged so roles alternate and the first is ``user``."""
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
    turns: list[dict[str, str]] = []
    for message in messages:
        if message["role"] == "system":
            continue
        role = "assistant" if message["role"] == "assistant" else "user"
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"] += "\n\n" + message["content"]
        else:
            turns.append({"role": role, "content": message["content"]})
    if not turns or turns[0]["role"] != "user":
        turns.insert(0, {"role": "user", "content": "(see the instructions)"})
    return system, turns


class AnthropicModel:
    """Claude through the Messages API."""

    provider = "anthropic"
    supports_json_schema = False

    def __init__(
        self,
        name: str,
        *,
        base_url: str,
        key_env_var: str | None = "ANTHROPIC_API_KEY",
        settings: ModelSettings | None = None,
        context_window: int | None = 200_000,
    ) -> None:
        self.name = name
        self.base_url = base_url.rstrip("/")
        self.key_env_var = key_env_var
        self.settings = settings or ModelSettings()
        self.context_window = context_window
        self._clients: dict[int, tuple[asyncio.AbstractEventLoop, anthropic.AsyncAnthropic]] = {}

    def _client(self) -> anthropic.AsyncAnthropic:
        loop = asyncio.get_running_loop()
        entry = self._clients.get(id(loop))
        if entry is not None and entry[0] is loop:
            return entry[1]
        try:
            import anthropic
        except ImportError:
            raise ConfigError(
                "the anthropic SDK is not installed",
                hint="pip install 'autodidact[anthropic]' (or choose another --model)",
            ) from None
        self._clients = {k: v for k, v in self._clients.items() if not v[0].is_closed()}
        client = anthropic.AsyncAnthropic(
            api_key=(secret(self.key_env_var) if self.key_env_var else None) or "not-set",
            base_url=self.base_url,
            timeout=anthropic.Timeout(self.settings.timeout, connect=self.settings.connect_timeout),
            max_retries=0,
            http_client=anthropic.DefaultAsyncHttpxClient(
                verify=shared_ssl_context(), trust_env=self.settings.proxy_from_env
            ),
        )
        self._clients[id(loop)] = (loop, client)
        return client

    async def complete(self, request: Request) -> Completion:
        """Send one Messages request and translate the SDK's failures."""
        client = self._client()
        import anthropic

        system, turns = split_system(request.messages)
        # untyped values: the SDK's create() takes its own typed keywords, which one dict cannot name
        kwargs: dict[str, Any] = {
            "model": self.name,
            "messages": turns,
            "max_tokens": request.max_tokens,
        }  # the current Messages API takes no temperature; sampling is the model's default
        if system:
            kwargs["system"] = system
        what = f"anthropic:{self.name}"
        try:
            response = await client.messages.create(**kwargs)
        except anthropic.APIStatusError as exc:
            raise self._status_error(exc, request) from None
        except anthropic.APITimeoutError:
            raise TransientModelError(f"{what}: the server at {self.base_url} timed out") from None
        except anthropic.APIConnectionError:
            raise TransientModelError(f"{what}: cannot connect to {self.base_url}") from None
        except (anthropic.APIResponseValidationError, ValueError) as exc:
            detail = redact(str(exc), self.key_env_var)[:200]
            raise TransientModelError(f"{what}: malformed response ({detail})") from None
        blocks = getattr(response, "content", None) or []
        text = "".join(getattr(b, "text", "") for b in blocks if getattr(b, "type", "") == "text")
        usage = getattr(response, "usage", None)
        return Completion(
            text=text,
            usage=Usage(
                input_tokens=int(getattr(usage, "input_tokens", 0) or 0),
                output_tokens=int(getattr(usage, "output_tokens", 0) or 0),
            ),
            model=str(getattr(response, "model", "") or self.name),
            # one word for "cut off at the limit" across providers: the runtime re-asks on "length"
            finish_reason=_finish(getattr(response, "stop_reason", None)),
        )

    def _status_error(self, exc: anthropic.APIStatusError, request: Request) -> ModelError:
        status = int(exc.status_code)
        what = f"anthropic:{self.name}"
        if status in (401, 403):
            var = self.key_env_var or "the API key"
            return ModelAuthError(
                f"{what}: the server at {self.base_url} refused the credentials (HTTP {status}); check {var}",
                hint=f"set {var} to a valid Anthropic key",
            )
        detail = redact(str(getattr(exc, "message", "") or ""), self.key_env_var)[:300]
        context = status in (400, 413) and looks_like_context_error(detail)
        return status_error(what, request.task, status, detail, exc, context=context)

    async def aclose(self) -> None:
        """Close the client of the running loop."""
        loop = asyncio.get_running_loop()
        entry = self._clients.pop(id(loop), None)
        if entry is not None:
            await entry[1].close()


def _finish(stop_reason: str | None) -> str | None:
    """Anthropic's ``max_tokens`` stop reason is OpenAI's ``length``."""
    return "length" if stop_reason == "max_tokens" else stop_reason
