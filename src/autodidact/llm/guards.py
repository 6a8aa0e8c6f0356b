"""Checks on a model's reply beyond its schema, and bounds on what a reply may grow to.

Why: a schema proves shape, not content. A 135M model copies the field descriptions as values
("2-5 sentences from the passages, ending with the wiki file cited."), leaves required text empty,
or repeats one list item until the token limit; every one of those validates. These checks run once
for every task (docs/models.md, "Guards"), and a failing reply is treated like an invalid one: it is
re-asked once, then the step falls back or fails. The schema bounds (``maxItems``/``maxLength``) are
what llama.cpp's grammar enforces, so a looping model stops early instead of at ``max_tokens``.
"""

from __future__ import annotations

import copy
import re

from pydantic import BaseModel

from autodidact.jsontypes import JSONObject

# Bounds added to a schema sent to a model where the task's own Output sets none, and the most any
# bound may say: llama.cpp compiles a bound into a grammar repetition and refuses one of 2000 or
# more ("exceeds sane defaults") — and llama-cpp-python's server then exits. Measured live: 1000
# works for every task's schema, 1999 kills the server (docs/models.md, "Output bounds").
DEFAULT_MAX_ITEMS = 24
DEFAULT_MAX_LENGTH = 1000
MAX_BOUND = 1000

_WORD = re.compile(r"[A-Za-z0-9]+|[\u4e00-\u9fff]")


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def echoes(value: str, description: str) -> bool:
    """True when ``value`` is (near) the description of its own field, not an answer to it.

    Near: the same words, or a value at least half as long as a description of three words or more,
    with at least 80% of its words taken from it and fewer than three of its own ("L1-定义" for
    "L1-定义 … L4-… (or the English layer name)" is a value, not an echo).
    """
    v, d = _words(value), _words(description)
    if len(d) < 3 or not v:
        return False
    if v == d:
        return True
    dset = set(d)
    own = [w for w in v if w not in dset]
    return len(v) >= max(3, len(d) / 2) and len(own) < 3 and (len(v) - len(own)) >= 0.8 * len(v)


def content_problems(output: BaseModel, path: str = "") -> list[str]:
    """What is wrong with a validated reply: echoed descriptions, blank required text, one item repeated."""
    problems: list[str] = []
    cls = type(output)
    for name, info in cls.model_fields.items():
        value = getattr(output, name, None)
        where = f"{path}{name}"
        desc = info.description or ""
        if isinstance(value, str):
            if desc and echoes(value, desc):
                problems.append(f"{where}: repeats the field's description instead of a value ({value[:60]!r})")
            elif info.is_required() and not value.strip():
                problems.append(f"{where}: required text is empty")
        elif isinstance(value, BaseModel):
            problems += content_problems(value, f"{where}.")
        elif isinstance(value, list):
            problems += _list_problems(value, where, desc)
    return problems


def _list_problems(items: list[object], where: str, desc: str) -> list[str]:
    problems: list[str] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(items):
        if isinstance(item, BaseModel):
            problems += content_problems(item, f"{where}.{i}.")
            key = repr(sorted(item.model_dump().items()))
        else:
            if isinstance(item, str) and desc and echoes(item, desc):
                problems.append(f"{where}.{i}: repeats the field's description instead of a value")
            key = repr(item)
        seen[key] = seen.get(key, 0) + 1
    repeated = max(seen.values(), default=0)
    if repeated >= 3 and repeated > len(items) / 2:
        problems.append(f"{where}: one item repeated {repeated} times out of {len(items)}")
    return problems[:5]


def bounded_schema(schema: JSONObject) -> JSONObject:
    """A copy of ``schema`` in which every array has ``maxItems`` and every free string ``maxLength``."""
    out = copy.deepcopy(schema)
    _bound(out)
    return out


def _bound(node: object) -> None:
    if isinstance(node, dict):
        kind = node.get("type")
        if kind == "array":
            node["maxItems"] = min(int(node.get("maxItems", DEFAULT_MAX_ITEMS)), MAX_BOUND)
        if kind == "string" and not any(k in node for k in ("enum", "const", "pattern", "format")):
            node["maxLength"] = min(int(node.get("maxLength", DEFAULT_MAX_LENGTH)), MAX_BOUND)
        for value in node.values():
            _bound(value)
    elif isinstance(node, list):
        for value in node:
            _bound(value)
