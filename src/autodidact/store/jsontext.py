"""``json.dumps(data, ensure_ascii=False, indent=2)``, the same characters, several times faster.

Why: the standard library encodes with its C accelerator only when there is no indent; with one it
runs a pure-Python generator per value. ``research_state.json`` lists every raw file the research
processed and is written after every step of every round, so its encoding grew with the knowledge
base. This encoder follows the standard one rule for rule (key conversion, float spellings, tuples
as lists, the C string escaper) and hands anything else — another type, a circular structure — to
``json.dumps`` itself, so the result, or the error, is always the standard one.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring  # the C escaper when it is built (as json.dumps uses)

_INF = float("inf")


class _Unusual(Exception):
    """A value this encoder leaves to ``json.dumps``."""


def dumps_indented(data: object) -> str:
    """Exactly ``json.dumps(data, ensure_ascii=False, indent=2)``."""
    out: list[str] = []
    try:
        _encode(data, out, "\n")
    except (_Unusual, RecursionError):
        return json.dumps(data, ensure_ascii=False, indent=2)
    return "".join(out)


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == _INF:
        return "Infinity"
    if value == -_INF:
        return "-Infinity"
    return float.__repr__(value)


def _key(key: object) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _float(key)
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    raise _Unusual


_NAMES: dict[tuple[str, tuple[str, ...]], str] = {}  # the last few long lists of names, encoded
_NAMES_MIN = 64  # shorter lists are encoded each time
_NAMES_KEPT = 16


def _names(value: list[str] | tuple[str, ...], newline: str, inner: str) -> str:
    """A list of plain strings, encoded; a long one is remembered by its items (a tuple of them,
    compared for equality), because ``research_state.json`` holds every raw file the research
    processed and is written several times a round with the same list."""
    key = (newline, tuple(value)) if len(value) >= _NAMES_MIN else None
    if key is not None and (hit := _NAMES.get(key)) is not None:
        return hit
    text = "[" + inner + ("," + inner).join(map(encode_basestring, value)) + newline + "]"
    if key is not None:
        if len(_NAMES) >= _NAMES_KEPT:
            del _NAMES[next(iter(_NAMES))]
        _NAMES[key] = text
    return text


def _known_names(value: list[object] | tuple[object, ...], newline: str) -> str | None:
    """The text of a long list of names encoded before, found by its items; None when it is not
    one (or holds an item that cannot be a key, such as an object)."""
    try:
        return _NAMES.get((newline, tuple(value)))  # type: ignore[arg-type]
    except TypeError:
        return None


def _encode(value: object, out: list[str], newline: str) -> None:
    """Append ``value`` at the indentation ``newline`` ends with (the standard encoder's order of tests)."""
    if isinstance(value, str):
        out.append(encode_basestring(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(_float(value))
    elif isinstance(value, list | tuple):
        if not value:
            out.append("[]")
            return
        inner = newline + "  "
        if len(value) >= _NAMES_MIN and type(value[0]) is str and (hit := _known_names(value, newline)) is not None:
            out.append(hit)  # a long list of names met before (items equal to strings are strings)
            return
        if all(type(item) is str for item in value):  # a list of names: one join, no call per item
            out.append(_names(value, newline, inner))
            return
        out.append("[")
        separator = inner
        for item in value:
            out.append(separator)
            separator = "," + inner
            _encode(item, out, inner)
        out.append(newline + "]")
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        out.append("{")
        separator = inner
        for key, item in value.items():
            if type(item) is str:
                out.append(separator + encode_basestring(_key(key)) + ": " + encode_basestring(item))
            else:
                out.append(separator + encode_basestring(_key(key)) + ": ")
                _encode(item, out, inner)
            separator = "," + inner
        out.append(newline + "}")
    else:
        raise _Unusual
