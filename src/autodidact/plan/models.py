"""plan.json as pydantic models: seed 004's fields plus what the research agent needs.

See docs/seeds.md and docs/contracts.md §2.

Why typed models: the planner's model path asks for JSON matching :class:`Plan`'s schema, the
offline planner builds the same objects, and the report pipeline reads them back to build each
dimension's payload (docs/contracts.md §3.4). The structural rules that need the whole plan (counts,
dependencies, cycles, execution order) live in :mod:`autodidact.plan.validate`, which works on
plain dicts so that it can report a rule code for a hand-edited or foreign plan that these models
would reject outright.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from autodidact.jsontypes import JSONObject

DimensionStatus = Literal["pending", "running", "done", "failed"]
NeededFor = Literal[
    "entity_selection", "taxonomy_definition", "time_window", "hypothesis_definition", "source_targeting"
]
Depth = Literal["skim", "moderate", "thorough"]
BasisType = Literal["standard_guideline", "official_template", "real_exemplar", "domain_convention", "fallback"]

NEEDED_FOR_VALUES: tuple[str, ...] = (
    "entity_selection",
    "taxonomy_definition",
    "time_window",
    "hypothesis_definition",
    "source_targeting",
)
DEPTH_VALUES: tuple[str, ...] = ("skim", "moderate", "thorough")
STATUS_VALUES: tuple[str, ...] = ("pending", "running", "done", "failed")


class _Open(BaseModel):
    """Keeps unknown keys so a plan written by another tool round-trips unchanged."""

    model_config = ConfigDict(extra="allow")


class Scope(_Open):
    """What is studied, when, where, for whom; what is left out; what is assumed; what is unknown."""

    objects: list[str] = Field(description="the objects of study, in the request's own terms")
    time_range: str = Field(description="time window; write 'unknown: ...' explicitly when not given")
    region: str = Field(description="region; write 'unknown: ...' explicitly when not given")
    audience_or_use: str = Field(description="reader or use of the report")
    exclusions: list[str] = Field(description="what this research explicitly does not do")
    assumptions: list[str] = Field(description="working assumptions, including how unknowns are handled")
    unknowns: list[str] = Field(default_factory=list, description="scope items the request leaves open")


class FormatBasis(_Open):
    """Where the report's structure comes from, and why that source is credible."""

    type: BasisType
    name: str
    credibility_reason: str
    what_extracted: str


class ReportShape(_Open):
    """The final report's structure: sections, mandatory elements, style, and their basis."""

    report_type: str | None = Field(None, description="catalogue key: panorama, comparison, investigation, ...")
    format_basis: list[FormatBasis]
    sections: list[str] = Field(description="final report sections (not research dimensions)")
    mandatory_elements: list[str] = Field(description="tables, timelines, lists the report must contain")
    style: str = Field(description="tone, how certainty and uncertainty are expressed")


class SearchStrategy(_Open):
    """Where to look, where to start, how fresh, and when to stop."""

    source_types: list[str]
    seed_queries: list[str] = Field(description="3-6 starting queries or directions")
    freshness_requirement: str = Field(description="mandatory for markets, policy, products, companies, prices, law")
    sufficiency: list[str] = Field(description="stop conditions")


class SourceHint(_Open):
    """A recommended source category for the research agent (docs/contracts.md §3.4 ``sources``)."""

    category: str
    description: str


class ScopeOwnership(_Open):
    """What this dimension alone researches, what it must not, and intentionally shared topics."""

    owns: list[str] = Field(description=">=1 topics owned by this dimension only")
    excludes: list[str] = Field(default_factory=list)
    shared_topics: list[str] = Field(default_factory=list)
    overlap_policy: str = ""


class DependencyInput(_Open):
    """A real cross-wave input: which upstream key findings change this dimension's search, and how."""

    dimension_id: str
    needed_for: NeededFor
    consume: Literal["key_findings"] = "key_findings"
    scope_rule: str = Field(description="specific rule (>=16 characters) for how upstream findings change scope")


class Dimension(_Open):
    """One research dimension; it can stand alone as ``sub_reports/<id>.md``."""

    id: str = Field(description="d1, d2, ...")
    name: str
    description: str = Field(description="scope and boundary, including what is not covered")
    key_questions: list[str] = Field(description="2-5 answerable questions")
    method: str
    search_strategy: SearchStrategy
    expected_output: str
    depends_on: list[str] = Field(default_factory=list)
    status: DimensionStatus = "pending"
    focus: str = ""
    depth: Depth = "moderate"
    time_sensitivity: str = ""
    sources: list[SourceHint] = Field(default_factory=list)
    scope_ownership: ScopeOwnership
    dependency_inputs: list[DependencyInput] = Field(default_factory=list)


class Plan(_Open):
    """The whole plan.json (seed 004, docs/seeds.md + docs/contracts.md §2)."""

    research_goal: str = Field(description="one sentence: the judgement the report serves")
    language: Literal["zh", "en"] = "en"
    scope: Scope
    report_shape: ReportShape
    completion_criteria: list[str]
    change_notes: list[str] = Field(default_factory=list)
    dimensions: list[Dimension]
    execution_order: list[str]

    def dimension(self, dim_id: str) -> Dimension:
        """The dimension with this id (KeyError when absent)."""
        for dim in self.dimensions:
            if dim.id == dim_id:
                return dim
        raise KeyError(dim_id)

    def waves(self) -> list[list[str]]:
        """Execution order grouped into waves: a dimension runs after every dimension it depends on."""
        level: dict[str, int] = {}
        by_id = {d.id: d for d in self.dimensions}
        for dim_id in self.execution_order:
            deps = by_id[dim_id].depends_on if dim_id in by_id else []
            level[dim_id] = 1 + max((level.get(d, 0) for d in deps), default=-1)
        waves: list[list[str]] = [[] for _ in range(max(level.values(), default=-1) + 1)]
        for dim_id in self.execution_order:
            waves[level[dim_id]].append(dim_id)
        return waves

    def to_json(self) -> JSONObject:
        """The dict written to plan.json (unset optional keys included, so the file is complete)."""
        return self.model_dump(mode="json")
