"""A deterministic stand-in for a model: a queue of replies or a function of the request.

Why it ships in the package, in ``autodidact.testing`` (which no production module may import):
tests of every model path, the benchmarks and the eval need a model that answers exactly what
they script and records exactly what each step *sent*, so a test can assert on the prompt
(selected passages, data delimiters) as well as on what the step did with the reply.
"""

from __future__ import annotations

import inspect
from collections import deque
from collections.abc import Awaitable, Callable, Iterable

from autodidact.errors import ModelError
from autodidact.llm.base import Completion, Request, Usage
from autodidact.llm.token_estimates import estimate_tokens, request_tokens

Reply = str | Completion | BaseException


class ScriptedModel:
    """Answers from ``queue`` (str, :class:`Completion` or an exception to raise) or from ``fn``.

    Every request is appended to ``.requests`` before it is answered.
    """

    __test__ = False  # not a pytest class

    provider = "scripted"
    supports_json_schema = True
    context_window: int | None = None
    key_env_var: str | None = None

    def __init__(
        self,
        queue: Iterable[Reply] | None = None,
        *,
        fn: Callable[[Request], Reply | Awaitable[Reply]] | None = None,
        name: str = "scripted",
        supports_json_schema: bool = True,
        context_window: int | None = None,
    ) -> None:
        if queue is None and fn is None:
            raise ValueError("ScriptedModel needs a queue of replies or a fn")
        self.queue: deque[Reply] = deque(queue or [])
        self.fn = fn
        self.name = name
        self.supports_json_schema = supports_json_schema
        self.context_window = context_window
        self.requests: list[Request] = []

    def enqueue(self, *replies: Reply) -> None:
        """Add replies to the end of the queue."""
        self.queue.extend(replies)

    async def complete(self, request: Request) -> Completion:
        """Record the request, then answer it from the function or the queue."""
        self.requests.append(request)
        if self.fn is not None:
            reply = self.fn(request)
            if inspect.isawaitable(reply):
                reply = await reply
        elif self.queue:
            reply = self.queue.popleft()
        else:
            raise ModelError(
                f"ScriptedModel: no scripted reply left for request {len(self.requests)} (task {request.task!r})",
                hint="enqueue one more reply",
            )
        if isinstance(reply, BaseException):
            raise reply
        if isinstance(reply, Completion):
            return reply
        text = str(reply)
        usage = Usage(input_tokens=request_tokens(request), output_tokens=estimate_tokens(text))
        return Completion(text=text, usage=usage, model=self.name, finish_reason="stop")
