"""One adapter for every OpenAI-compatible chat server, on the official ``openai`` SDK.

Why one adapter: OpenAI, DeepSeek, Qwen, OpenRouter, Ollama, vLLM and llama.cpp differ only in data
(``registry.PRESETS``). The SDK's own retries are off (``max_retries=0``) so ``retry.py`` is the
single retry policy; this module only translates SDK failures into our error types:
401/403 → :class:`ModelAuthError` naming the key *variable* (the server's text is dropped, since
some servers echo part of the key), context overflow → :class:`ContextLengthError`, 429/5xx/
timeouts/connection failures → :class:`TransientModelError` carrying ``Retry-After``.
The key is read from the environment when a client is built and never stored elsewhere.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from autodidact.config import ModelSettings, secret
from autodidact.errors import ModelAuthError, ModelError
from autodidact.jsontypes import JSONObject
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

if TYPE_CHECKING:
    import openai

PLACEHOLDER_KEY = "not-needed"  # local servers ignore the key, but the SDK insists on one


class OpenAICompatModel:
    """A model behind ``/v1/chat/completions``; capabilities come from its preset."""

    def __init__(
        self,
        name: str,
        *,
        provider: str = "openai",
        base_url: str,
        key_env_var: str | None,
        response_format: str = "json_schema",
        max_tokens_param: str = "max_tokens",
        settings: ModelSettings | None = None,
        context_window: int | None = None,
    ) -> None:
        self.name = name
        self.provider = provider
        self.base_url = base_url.rstrip("/")
        self.key_env_var = key_env_var
        self.response_format = response_format
        self.max_tokens_param = max_tokens_param
        self.settings = settings or ModelSettings()
        self.context_window = context_window
        self.supports_json_schema = response_format == "json_schema"
        # Streaming (``[llm] stream``): when our deadline ends a call, closing the stream stops the
        # server generating; a plain request would go on running on a serial server, and every retry
        # would queue behind it (docs/models.md, "Abandoned calls").
        self.stream = bool(self.settings.stream)
        self._clients: dict[int, tuple[asyncio.AbstractEventLoop, openai.AsyncOpenAI]] = {}

    def _client(self) -> openai.AsyncOpenAI:
        """One SDK client per event loop (an httpx pool cannot outlive its loop)."""
        loop = asyncio.get_running_loop()
        entry = self._clients.get(id(loop))
        if entry is not None and entry[0] is loop:
            return entry[1]
        import openai

        self._clients = {k: v for k, v in self._clients.items() if not v[0].is_closed()}
        key = secret(self.key_env_var) if self.key_env_var else None
        client = openai.AsyncOpenAI(
            api_key=key or PLACEHOLDER_KEY,
            base_url=self.base_url,
            timeout=openai.Timeout(self.settings.timeout, connect=self.settings.connect_timeout),
            max_retries=0,
            http_client=openai.DefaultAsyncHttpxClient(
                verify=shared_ssl_context(), trust_env=self.settings.proxy_from_env
            ),
        )
        self._clients[id(loop)] = (loop, client)
        return client

    def _response_format(self, request: Request) -> JSONObject | None:
        if request.schema is None:
            return None
        if self.response_format == "json_schema":
            return {
                "type": "json_schema",
                "json_schema": {"name": request.schema_name, "schema": request.schema, "strict": False},
            }
        if self.response_format == "json_object_schema":
            return {"type": "json_object", "schema": request.schema}
        return {"type": "json_object"}

    async def complete(self, request: Request) -> Completion:
        """Send one chat completion and translate the SDK's failures."""
        import openai

        # untyped values: the SDK's create() takes its own typed keywords, which one dict cannot name
        kwargs: dict[str, Any] = {
            "model": self.name,
            "messages": [{"role": m["role"], "content": m["content"]} for m in request.messages],
            "temperature": request.temperature,
            self.max_tokens_param: request.max_tokens,
        }
        fmt = self._response_format(request)
        if fmt is not None:
            kwargs["response_format"] = fmt
        if request.timeout is not None:
            kwargs["timeout"] = openai.Timeout(request.timeout, connect=self.settings.connect_timeout)
        what = f"{self.provider}:{self.name}"
        try:
            if self.stream:
                return await self._streamed(kwargs, request)
            response = await self._client().chat.completions.create(**kwargs)
        except openai.APIStatusError as exc:
            raise self._status_error(exc, request) from None
        except openai.APITimeoutError:
            raise TransientModelError(f"{what}: the server at {self.base_url} timed out") from None
        except openai.APIConnectionError:
            raise TransientModelError(f"{what}: cannot connect to {self.base_url}") from None
        except (openai.APIResponseValidationError, ValueError) as exc:
            # a body that is not the JSON it claims to be: a proxy hiccup or a broken server
            detail = redact(str(exc), self.key_env_var)[:200]
            raise TransientModelError(f"{what}: malformed response ({detail})") from None
        choices = getattr(response, "choices", None)
        if not choices:
            raise TransientModelError(f"{what}: the server returned no choices")
        message = choices[0].message
        refusal = getattr(message, "refusal", None)
        # a refusal carries no JSON: keep its words so the re-ask and the final error show them
        text = message.content or (f"(the model refused: {refusal})" if refusal else "")
        usage = getattr(response, "usage", None)
        return Completion(
            text=text,
            usage=Usage(
                input_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
                output_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            ),
            model=str(getattr(response, "model", "") or self.name),
            finish_reason=choices[0].finish_reason,
        )

    async def _streamed(self, kwargs: dict[str, Any], request: Request) -> Completion:  # the SDK's keywords, as above
        """One streamed completion, read to its end; cancelling the read closes the connection."""
        stream = await self._client().chat.completions.create(
            **kwargs, stream=True, stream_options={"include_usage": True}
        )
        parts: list[str] = []
        finish: str | None = None
        usage: openai.types.CompletionUsage | None = None
        model = self.name
        chunks = 0
        try:
            async for chunk in stream:
                model = str(getattr(chunk, "model", "") or model)
                if getattr(chunk, "usage", None) is not None:
                    usage = chunk.usage
                for choice in getattr(chunk, "choices", None) or []:
                    delta = getattr(choice, "delta", None)
                    text = getattr(delta, "content", None) if delta is not None else None
                    if text:
                        parts.append(text)
                        chunks += 1
                    if getattr(choice, "finish_reason", None):
                        finish = choice.finish_reason
        finally:
            await stream.close()
        text = "".join(parts)
        if usage is not None:
            counted = Usage(int(usage.prompt_tokens or 0), int(usage.completion_tokens or 0))
        else:  # a server that reports no usage in streams: one chunk is one token
            from autodidact.llm.token_estimates import request_tokens

            counted = Usage(input_tokens=request_tokens(request), output_tokens=chunks)
        return Completion(text=text, usage=counted, model=model, finish_reason=finish)

    def _status_error(self, exc: openai.APIStatusError, request: Request) -> ModelError:
        status = int(exc.status_code)
        what = f"{self.provider}:{self.name}"
        if status in (401, 403):
            var = self.key_env_var or "the server's API key"
            return ModelAuthError(
                f"{what}: the server at {self.base_url} refused the credentials (HTTP {status}); check {var}",
                hint=f"set {var} to a valid key for {self.provider}" if self.key_env_var else None,
            )
        detail = redact(str(getattr(exc, "message", "") or ""), self.key_env_var)[:300]
        code = str(getattr(exc, "code", "") or "")
        if status == 429 and code == "insufficient_quota":
            return ModelError(f"{what}: quota exhausted (HTTP 429)", hint="check the account's billing")
        context = code == "context_length_exceeded" or looks_like_context_error(detail)
        return status_error(what, request.task, status, detail, exc, context=context)

    async def aclose(self) -> None:
        """Close the client of the running loop."""
        loop = asyncio.get_running_loop()
        entry = self._clients.pop(id(loop), None)
        if entry is not None:
            await entry[1].close()
