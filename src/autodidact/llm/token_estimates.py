"""Token estimates for requests, before a model has counted them.

Why an estimate: the runtime must know whether a prompt fits the context window and how long a
reply may be *before* it sends anything, and servers count tokens only after. About four ASCII
characters make a token; a CJK character is about one (docs/models.md, "Context budget").
"""

from __future__ import annotations

import json

from autodidact.llm.base import Request


def estimate_tokens(text: str) -> int:
    """A rough token count: ~4 ASCII characters per token, one token per other character."""
    ascii_chars = len(text.encode("ascii", "ignore"))
    return (ascii_chars + 3) // 4 + (len(text) - ascii_chars)


def request_tokens(request: Request) -> int:
    """Estimated input tokens of a request (messages plus the schema it carries)."""
    total = sum(estimate_tokens(m["content"]) + 4 for m in request.messages)
    if request.schema is not None:
        total += estimate_tokens(json.dumps(request.schema))
    return total
