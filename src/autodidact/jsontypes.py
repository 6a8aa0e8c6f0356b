"""Raw JSON at the edge, typed: one recursive alias, not the escape hatch.

Why: data read from a file, an HTTP body or a model's reply is JSON until something validates it.
Left untyped it silently becomes whatever the next line assumes; typed as :data:`JSONValue` a
reader has to narrow it (``isinstance``) or validate it into a model before using it, which is
what the validators and loaders do anyway (docs/architecture.md, "Typing"). Inside the program,
data that travels between layers is a pydantic model or a ``TypedDict``, not raw JSON.
Standard library only (the bottom layer), so the command line may import it before a command runs.

For annotations the type checker reads, not for pydantic: a pydantic model's field of raw JSON is
``pydantic.JsonValue``, the same union to mypy (this alias is an implicit recursive alias, which
pydantic cannot build a schema for at run time).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias

JSONScalar: TypeAlias = str | int | float | bool | None
# What ``json.loads`` returns (and ``json.dumps`` accepts), all the way down.
JSONValue: TypeAlias = dict[str, "JSONValue"] | list["JSONValue"] | str | int | float | bool | None
JSONObject: TypeAlias = dict[str, JSONValue]
# Read-only views, for parameters: a ``dict[str, str]`` is a ``JSONMapping`` but not a ``JSONObject``
# (a dict is invariant in its values; a mapping is not).
JSONMapping: TypeAlias = Mapping[str, JSONValue]
JSONSequence: TypeAlias = Sequence[JSONValue]
