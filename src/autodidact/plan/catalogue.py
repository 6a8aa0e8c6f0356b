"""The built-in catalogue of report types: report-format discovery without a network.

Why a catalogue: seed 004 (docs/seeds.md) asks the planner to ground the final report's structure in a credible
basis (a guideline, a template, real exemplars or a domain convention) instead of inventing
sections. Offline there is nothing to search, so each common report type — panorama,
comparison/selection, investigation, timeline, industry, policy, technical — carries its required
sections, its mandatory non-section elements (comparison tables, timelines, risk lists) and the
basis those come from, in Chinese and English. The offline planner picks a type by the request's
keywords; a model planner receives the matching entry as a reference.

The entries live in ``data/report_types.json``; this module loads them and classifies requests.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import TypedDict

Text = dict[str, str]  # {"en": ..., "zh": ...}
TextList = dict[str, list[str]]


@dataclass(frozen=True)
class Basis:
    """One structure basis (seed 004, docs/seeds.md ``format_basis`` entry), bilingual."""

    type: str
    name: Text
    credibility_reason: Text
    what_extracted: Text


@dataclass(frozen=True)
class ReportType:
    """A catalogue entry: how to recognise the type, and the structure its reports need."""

    key: str
    label: Text
    keywords: TextList
    sections: TextList
    mandatory_elements: TextList
    basis: tuple[Basis, ...]
    style: Text
    archetypes: tuple[str, ...]  # dimension archetypes in execution order (see plan.archetypes)


class _BasisJSON(TypedDict):
    type: str
    name: Text
    credibility_reason: Text
    what_extracted: Text


class _ReportTypeJSON(TypedDict):
    label: Text
    keywords: TextList
    sections: TextList
    mandatory_elements: TextList
    basis: list[_BasisJSON]
    archetypes: list[str]


class _CatalogueJSON(TypedDict):
    """``data/report_types.json``, the package's own file."""

    style: Text
    freshness_triggers: TextList
    types: dict[str, _ReportTypeJSON]


def _load() -> tuple[dict[str, ReportType], TextList]:
    text = resources.files(__package__).joinpath("data/report_types.json").read_text("utf-8")
    raw: _CatalogueJSON = json.loads(text)
    types = {}
    for key, item in raw["types"].items():
        types[key] = ReportType(
            key=key,
            label=item["label"],
            keywords=item["keywords"],
            sections=item["sections"],
            mandatory_elements=item["mandatory_elements"],
            basis=tuple(Basis(**b) for b in item["basis"]),
            style=raw["style"],
            archetypes=tuple(item["archetypes"]),
        )
    return types, raw["freshness_triggers"]


CATALOGUE, FRESHNESS_TRIGGERS = _load()
"""Report types by key; topics for which seed 004 (docs/seeds.md) makes a latest-information check mandatory."""

DEFAULT_TYPE = "technical"


def classify_request(text: str, lang: str) -> ReportType:
    """The catalogue type whose keywords the request matches best (ties: catalogue order).

    The request's frame — its words before the first colon — counts twice: in "How does Debian
    package management work: dpkg vs apt, version pinning, and system upgrades?" the person asks how
    something works, and "vs" only names one of the facets, so the report explains rather than
    compares (docs/planning.md).
    """
    lowered = f" {text.lower()} "
    frame = f" {_FRAME_END.split(text.lower(), maxsplit=1)[0]} "
    best, best_score = CATALOGUE[DEFAULT_TYPE], 0
    for entry in CATALOGUE.values():
        score = _hits(entry, lowered, lang) + _hits(entry, frame, lang)
        if score > best_score:
            best, best_score = entry, score
    return best


_FRAME_END = re.compile(r"[:：]")


def _hits(entry: ReportType, lowered: str, lang: str) -> int:
    score = sum(lowered.count(w) for w in entry.keywords["zh"]) if lang == "zh" else 0
    return score + sum(len(re.findall(rf"\b{re.escape(w.strip())}\b", lowered)) for w in entry.keywords["en"])


def needs_freshness(text: str) -> bool:
    """True when the request touches markets, policy, products, companies, prices, law or people."""
    lowered = text.lower()
    if any(w in lowered for w in FRESHNESS_TRIGGERS["zh"]):
        return True
    return any(re.search(rf"\b{re.escape(w)}", lowered) for w in FRESHNESS_TRIGGERS["en"])
