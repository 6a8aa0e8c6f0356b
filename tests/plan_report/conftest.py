"""Fixtures for plan and report tests: a hand-written valid plan to mutate, and helpers."""

from __future__ import annotations

import copy
from typing import Any

import pytest


def _dim(i: int, deps: list[tuple[str, str]] | None = None) -> dict[str, Any]:
    deps = deps or []
    return {
        "id": f"d{i}",
        "name": f"Dimension {i}",
        "description": f"Scope of dimension {i}; excludes the others.",
        "key_questions": [f"What is fact {i}a?", f"What is fact {i}b?"],
        "method": "Documentation review",
        "search_strategy": {
            "source_types": ["official documentation"],
            "seed_queries": [f"topic {i} one", f"topic {i} two", f"topic {i} three"],
            "freshness_requirement": "Not required: stable reference material.",
            "sufficiency": ["Every key question has a source"],
        },
        "expected_output": "Facts for the report.",
        "depends_on": [d for d, _ in deps],
        "status": "pending",
        "focus": "exact wording",
        "depth": "moderate",
        "time_sensitivity": "Low",
        "sources": [{"category": "documentation", "description": "official documentation"}],
        "scope_ownership": {"owns": [f"topic {i}"], "excludes": [], "shared_topics": [], "overlap_policy": ""},
        "dependency_inputs": [
            {"dimension_id": d, "needed_for": nf, "consume": "key_findings",
             "scope_rule": f"Restrict the search to the entities named in {d}'s key findings."}
            for d, nf in deps
        ],
    }  # fmt: skip


BASE_PLAN: dict[str, Any] = {
    "research_goal": "Decide which topic matters most.",
    "language": "en",
    "scope": {
        "objects": ["topic"],
        "time_range": "Unknown: current state",
        "region": "Unknown: any",
        "audience_or_use": "engineers",
        "exclusions": ["other topics"],
        "assumptions": ["local docs suffice"],
    },
    "report_shape": {
        "format_basis": [
            {"type": "domain_convention", "name": "Docs", "credibility_reason": "standard", "what_extracted": "order"}
        ],
        "sections": ["Summary", "Findings"],
        "mandatory_elements": ["Key findings list"],
        "style": "Neutral",
    },
    "completion_criteria": ["Every key question answered"],
    "change_notes": [],
    "dimensions": [_dim(1), _dim(2, [("d1", "entity_selection")]), _dim(3)],
    "execution_order": ["d1", "d2", "d3"],
}


@pytest.fixture
def plan() -> dict[str, Any]:
    """A fresh copy of a valid plan (d2 depends on d1)."""
    return copy.deepcopy(BASE_PLAN)


@pytest.fixture
def make_dim() -> Any:
    return _dim
