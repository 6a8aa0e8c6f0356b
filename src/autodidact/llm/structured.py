"""Structured output: find the JSON in a reply, validate it, and say what was wrong.

Why not trust the server: local models ignore numeric bounds even under grammar constraints, and
servers without schema support wrap JSON in prose, code fences or ``<think>…</think>`` reasoning.
So every reply is extracted and validated against the task's pydantic ``Output``; on failure the
runtime re-asks exactly once, quoting the validation error, and then gives up with a clear error.
"""

from __future__ import annotations

import json
import re
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from autodidact.jsontypes import JSONObject
from autodidact.llm.tasks import Message

OutputT = TypeVar("OutputT", bound=BaseModel)

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_OPEN_THINK = re.compile(r"^\s*<think>.*", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)```", re.DOTALL)


class ReplyError(ValueError):
    """A reply that is not one valid ``Output`` object; the message is fed back in the re-ask."""


def strip_reasoning(text: str) -> str:
    """Drop ``<think>…</think>`` blocks, and everything before a closing tag whose opener was cut."""
    text = _THINK.sub("", text)
    low = text.lower()
    if "</think>" in low:
        text = text[low.rfind("</think>") + len("</think>") :]
    if _OPEN_THINK.match(text) and "{" not in text:
        return ""
    return text.strip()


def _views(text: str) -> list[str]:
    """Readings of a reply from most to least likely to hold the answer alone."""
    views = [strip_reasoning(text), _THINK.sub("", text).strip(), text]
    unique: list[str] = []
    for view in views:
        if view not in unique:
            unique.append(view)
    return unique


def _first_object(candidate: str) -> JSONObject | None:
    candidate = candidate.strip()
    try:
        value = json.loads(candidate)
        if isinstance(value, dict):
            return value
    except ValueError:
        pass
    decoder = json.JSONDecoder()
    start = candidate.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(candidate, start)
        except ValueError:
            start = candidate.find("{", start + 1)
            continue
        if isinstance(value, dict):
            return value
        start = candidate.find("{", start + 1)
    return None


def extract_json(text: str) -> JSONObject:
    """The first JSON object in ``text`` after removing reasoning and code fences.

    ``<think>`` content is only searched when nothing else holds an object. Raises
    :class:`ReplyError` when there is none.
    """
    views = _views(text or "")
    for view in views:
        for candidate in [*(m.group(1) for m in _FENCE.finditer(view)), view]:
            found = _first_object(candidate)
            if found is not None:
                return found
    snippet = " ".join(views[0].split())[:120]
    raise ReplyError(f"no JSON object found in the reply (it began: {snippet!r})")


def parse_output(text: str, output: type[OutputT]) -> OutputT:
    """Extract and validate; :class:`ReplyError` names the first few failing fields."""
    data = extract_json(text)
    try:
        return output.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors()[:5]:
            loc = ".".join(str(p) for p in err["loc"]) or "(root)"
            problems.append(f"{loc}: {err['msg']}")
        more = f" (+{exc.error_count() - 5} more)" if exc.error_count() > 5 else ""
        raise ReplyError("; ".join(problems) + more) from None


def schema_instruction(schema: JSONObject) -> str:
    """The instruction used when a server cannot constrain output to a schema itself."""
    return (
        "Reply with exactly one JSON object and nothing else (no prose, no code fences). "
        "It must validate against this JSON schema:\n" + json.dumps(schema, ensure_ascii=False)
    )


def with_schema_instruction(messages: list[Message], schema: JSONObject) -> list[Message]:
    """Messages plus a trailing system instruction carrying the schema."""
    return [*messages, Message(role="system", content=schema_instruction(schema))]


def repair_messages(messages: list[Message], reply: str, error: str) -> list[Message]:
    """The re-ask: the original conversation, the bad reply, and what was wrong with it."""
    return [
        *messages,
        Message(role="assistant", content=reply),
        Message(
            role="user",
            content=(
                f"Your reply was not valid: {error}\n"
                "Answer again with one JSON object that matches the schema exactly, and nothing else."
            ),
        ),
    ]
