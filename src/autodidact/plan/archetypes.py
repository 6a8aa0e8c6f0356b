"""Dimension archetypes: reusable, bilingual research dimensions the offline planner instantiates.

Why archetypes: seed 004 (docs/seeds.md) wants dimensions that can each stand as a sub-report, with answerable
key questions, a method, a search strategy and a stop condition — not the final report's
chapters. Each archetype is one such unit of research (definitions, mechanism, chronology,
candidates, ...), written with ``{s}`` (the request's subject, in its own words) and ``{o}``
(one object, for per-candidate dimensions). A report type in the catalogue lists the archetypes
it needs, in execution order; ``upstream`` names the real inputs an archetype consumes from an
earlier one and how they change its search (``scope_rule``).

The wording lives in ``data/archetypes.json`` (data, not code, so it can be reviewed and
translated without touching logic); this module loads it into typed objects once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import TypedDict

Text = dict[str, str]
TextList = dict[str, list[str]]


@dataclass(frozen=True)
class Upstream:
    """A real dependency on an earlier archetype: what it is needed for and how it narrows the search."""

    archetype: str
    needed_for: str
    scope_rule: Text


@dataclass(frozen=True)
class Archetype:
    """One reusable research dimension template."""

    key: str
    name: Text
    description: Text
    key_questions: TextList
    method: Text
    source_types: TextList
    seed_queries: TextList
    expected_output: Text
    focus: Text
    owns: Text
    time_bound: bool = False
    upstream: tuple[Upstream, ...] = field(default_factory=tuple)


class _UpstreamJSON(TypedDict):
    archetype: str
    needed_for: str
    scope_rule: Text


class _ArchetypeJSON(TypedDict):
    """One entry of ``data/archetypes.json`` (the package's own file: every key in every entry)."""

    name: Text
    description: Text
    key_questions: TextList
    method: Text
    source_types: TextList
    seed_queries: TextList
    expected_output: Text
    focus: Text
    owns: Text
    time_bound: bool
    upstream: list[_UpstreamJSON]


def _load() -> dict[str, Archetype]:
    text = resources.files(__package__).joinpath("data/archetypes.json").read_text("utf-8")
    raw: dict[str, _ArchetypeJSON] = json.loads(text)
    out: dict[str, Archetype] = {}
    for key, item in raw.items():
        out[key] = Archetype(
            key=key,
            name=item["name"],
            description=item["description"],
            key_questions=item["key_questions"],
            method=item["method"],
            source_types=item["source_types"],
            seed_queries=item["seed_queries"],
            expected_output=item["expected_output"],
            focus=item["focus"],
            owns=item["owns"],
            time_bound=item["time_bound"],
            upstream=tuple(Upstream(**u) for u in item["upstream"]),
        )
    return out


ARCHETYPES: dict[str, Archetype] = _load()
