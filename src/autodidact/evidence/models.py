"""evidence.json 1.2 as pydantic models (docs/contracts.md §3.2), reading 1.1 as well.

Why pydantic here when the validator works on raw dicts: these models are the typed form of
evidence everywhere past the file's edge (docs/evidence.md, "Evidence in code"). The agent builds
evidence through them, so what it writes has the right shape by construction; the loop, the wiki,
the report and ``verify`` read files into them (``evidence/files.py``). The field descriptions
are written for a model, so ``EvidenceFile.model_json_schema()`` doubles as the schema a model
sees. The *validator* (``validator.py``) never trusts these models: it reads raw JSON so a wrong
type in a hand-edited file becomes a rule code, not a crash. So that a file the validator passes
always loads, no constraint here is stricter than the validator's rule for the same field, and
patterns use Python's ``re`` as the validator does.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from autodidact.jsontypes import JSONObject

SCHEMA_VERSION = "1.2"
READABLE_VERSIONS = ("1.2", "1.1")

Mode = Literal["initial", "quick", "supplement"]
Kind = Literal["factual", "interpretive", "projective"]
Polarity = Literal["support", "refute", "neutral"]
QuoteType = Literal["direct", "paraphrase", "numeric"]
Quality = Literal["primary", "secondary", "tertiary"]
NeededFor = Literal[
    "entity_selection", "taxonomy_definition", "time_window", "hypothesis_definition", "source_targeting"
]
ContextKind = Literal["source_profile", "methodology", "scope_boundary", "availability_gap", "unresolved_gap"]

MODES: tuple[str, ...] = ("initial", "quick", "supplement")
KINDS: tuple[str, ...] = ("factual", "interpretive", "projective")
POLARITIES: tuple[str, ...] = ("support", "refute", "neutral")
QUOTE_TYPES: tuple[str, ...] = ("direct", "paraphrase", "numeric")
QUALITIES: tuple[str, ...] = ("primary", "secondary", "tertiary")
NEEDED_FOR: tuple[str, ...] = (
    "entity_selection",
    "taxonomy_definition",
    "time_window",
    "hypothesis_definition",
    "source_targeting",
)
CONTEXT_KINDS: tuple[str, ...] = (
    "source_profile",
    "methodology",
    "scope_boundary",
    "availability_gap",
    "unresolved_gap",
)

DIMENSION_RE = r"^d\d+$"
CLAIM_ID_RE = r"^d\d+\.c\d+$"
CONTEXT_ID_RE = r"^d\d+\.w\d+$"
SOURCE_ID_RE = r"^[a-z][a-z0-9_]*$"
TOPIC_TAG_RE = r"^[a-z][a-z0-9_]{0,29}$"
KQ_RE = r"^kq\d+$"
DATE_RE = r"^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$"
SNAPSHOT_REF_RE = r"^source_cache/[0-9a-f]{64}/[0-9a-f]{64}\.md$"

# Unknown keys are refused when evidence is built; reading tolerates them (evidence/files.py).
_FORBID = ConfigDict(extra="forbid", regex_engine="python-re")


class EvidenceItem(BaseModel):
    """One piece of evidence: text really read from one stored snapshot."""

    model_config = _FORBID
    source_id: str = Field(description="id of an entry in this file's sources[]")
    snippet: str = Field(
        min_length=1,
        description="the source's own words: direct = verbatim, numeric = a data point copied exactly, "
        "paraphrase = faithful rewording. Never invented; never a search-result summary.",
    )
    quote_type: QuoteType = Field(
        description="direct and numeric snippets must occur verbatim in the snapshot (after whitespace folding)"
    )
    snapshot_ref: str | None = Field(
        default=None,
        pattern=SNAPSHOT_REF_RE,
        description="source_cache/<url sha256>/<content sha256>.md: the exact snapshot the snippet was read from "
        "(required in 1.2)",
    )


class Claim(BaseModel):
    """One verifiable statement, tied to evidence."""

    model_config = _FORBID
    id: str = Field(pattern=CLAIM_ID_RE, description="<dimension_id>.c<N>, numbered from c1")
    text: str = Field(
        min_length=5,
        max_length=500,
        description="one complete, verifiable statement in the output language; never normative "
        "('should', 'must', '应该')",
    )
    kind: Kind = Field(
        description="factual: checkable fact (needs a primary or secondary source); interpretive: explanation "
        "or attribution (needs two distinct sources); projective: a forecast whose premise is stated in the text"
    )
    polarity: Polarity = Field(
        description="support: backs the affirmative direction of its key question; refute: contradicts a common "
        "assumption or backs the negative; neutral: descriptive"
    )
    topic_tag: str = Field(pattern=TOPIC_TAG_RE, description="short snake_case topic; reuse existing tags")
    answers_key_question: str | None = Field(
        default=None, pattern=KQ_RE, description="the kqN this claim answers, or null for an extra finding"
    )
    evidence: list[EvidenceItem] = Field(min_length=1)


class Source(BaseModel):
    """One source the evidence cites."""

    model_config = _FORBID
    id: str = Field(pattern=SOURCE_ID_RE, description="stable id; the same URL keeps the same id")
    url: str = Field(description="full http(s) URL")
    title: str = Field(min_length=1)
    quality: Quality = Field(
        description="primary: original data, official docs, filings, statistics, papers; secondary: reporting or "
        "professional analysis of primary material; tertiary: encyclopedias, aggregators, forums, blogs"
    )
    published_at: str | None = Field(default=None, pattern=DATE_RE, description="YYYY, YYYY-MM or YYYY-MM-DD")
    author: str | None = Field(
        default=None, description="the page's author, where it names one (sources keep at most 200 characters)"
    )


class KeyFinding(BaseModel):
    """A load-bearing conclusion synthesised from several claims."""

    model_config = _FORBID
    finding: str = Field(min_length=10, max_length=300, description="a complete sentence with a direction")
    claim_ids: list[str] = Field(min_length=1, description="ids of claims in this file that support it")


class UpstreamUsage(BaseModel):
    """What this dimension actually consumed from one direct upstream dimension."""

    model_config = _FORBID
    dimension_id: str = Field(pattern=DIMENSION_RE)
    needed_for: NeededFor
    consumed_claim_ids: list[str] = Field(min_length=1, description="claims of that upstream, cited by its findings")
    scope_changes: list[str] = Field(min_length=1, description="how the upstream findings changed this search")
    skipped_searches: list[str] = Field(min_length=1, description="searches not repeated because upstream covers them")


class WritingContext(BaseModel):
    """A boundary the writer must show that is not a claim: method, scope, gaps.

    The fields stand in the order the agent has always written them (``id`` after ``source_ids``),
    so a file dumped from the model is byte for byte the file written before it was typed.
    """

    model_config = _FORBID
    kind: ContextKind
    text: str = Field(min_length=10, max_length=500, description="the actual boundary, in the output language")
    use: str = Field(min_length=10, max_length=300, description="how the writer must use it")
    source_ids: list[str] = Field(default_factory=list)
    id: str = Field(pattern=CONTEXT_ID_RE, description="<dimension_id>.w<N>")
    applies_to: list[str] = Field(default_factory=list, description="kqN ids it applies to")


class EvidenceFile(BaseModel):
    """One dimension's evidence.json: the single source of truth of its research."""

    model_config = _FORBID
    schema_version: Literal["1.2", "1.1"] = "1.2"
    mode: Mode = "initial"
    dimension_id: str = Field(pattern=DIMENSION_RE)
    upstream_usage: list[UpstreamUsage] = Field(default_factory=list)
    headline: str = Field(min_length=5, max_length=200)
    key_findings: list[KeyFinding]
    claims: list[Claim] = Field(min_length=1)
    sources: list[Source] = Field(min_length=1)
    writing_context: list[WritingContext] | None = None

    @field_validator("upstream_usage", mode="before")
    @classmethod
    def _no_usage(cls, value: object) -> object:
        """A 1.1 file may say ``"upstream_usage": null``; the validator accepts it as none."""
        return [] if value is None else value

    def to_json(self) -> JSONObject:
        """The JSON form: optional fields left out when empty, ``answers_key_question: null`` kept."""
        data = self.model_dump(mode="json")
        for source in data["sources"]:
            for optional in ("published_at", "author"):
                if source.get(optional) is None:
                    source.pop(optional, None)
        for claim in data["claims"]:
            for item in claim["evidence"]:
                if item.get("snapshot_ref") is None:
                    item.pop("snapshot_ref", None)
        if not data.get("writing_context"):
            data.pop("writing_context", None)
        return data
