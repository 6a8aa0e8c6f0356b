"""The research agent's input payload (docs/contracts.md §3.4), with errors a person can act on.

Why a model: the payload is written by the report pipeline, the loop or a person by hand. A bad
field must fail before any search or fetch, as one line naming the field and the value.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from autodidact.errors import InputError, NotFoundError
from autodidact.evidence.models import DIMENSION_RE, KQ_RE, Mode, NeededFor


class KeyQuestion(BaseModel):
    """One key question with its id."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=KQ_RE)
    text: str = Field(min_length=2)
    # The topic facet the question was asked for (the research loop's questions carry one): a
    # section read for it keeps the points that bear on the facet (docs/evidence.md, "Key points
    # of a section").
    facet: str | None = None


class SourceHint(BaseModel):
    """A recommended source category."""

    model_config = ConfigDict(extra="allow")
    category: str = ""
    description: str = ""


class ScopeOwnership(BaseModel):
    """What this dimension owns, excludes and shares."""

    model_config = ConfigDict(extra="allow")
    owns: list[str] = Field(default_factory=list)
    excludes: list[str] = Field(default_factory=list)
    shared_topics: list[str] = Field(default_factory=list)
    overlap_policy: str = ""


class UpstreamInput(BaseModel):
    """One structured upstream contract: read that dimension's key findings first."""

    model_config = ConfigDict(extra="forbid")
    dimension_id: str = Field(pattern=DIMENSION_RE)
    evidence_path: str = Field(min_length=1)
    needed_for: NeededFor
    consume: Literal["key_findings"] = "key_findings"
    scope_rule: str = ""


class Payload(BaseModel):
    """docs/contracts.md §3.4 field names. Unknown seed fields (plugin_skills_dir, ...) are ignored."""

    model_config = ConfigDict(extra="ignore")
    query: str = Field(min_length=1)
    language: Literal["zh", "en"] = "en"
    name: str = Field(min_length=1)
    description: str = ""
    key_questions: list[KeyQuestion] = Field(min_length=1)
    focus: str = ""
    context_from_briefing: str = ""
    sources: list[SourceHint] = Field(default_factory=list)
    depth: Literal["skim", "moderate", "thorough"] = "moderate"
    time_sensitivity: str | None = None
    scope_ownership: ScopeOwnership = Field(default_factory=ScopeOwnership)
    upstream_inputs: list[UpstreamInput] = Field(default_factory=list)
    report_dir: str = Field(min_length=1)
    dimension_id: str = Field(pattern=DIMENSION_RE)
    mode: Mode = "initial"
    plan_path: str | None = None
    # Not in docs/contracts.md §3.4 (optional extension): URLs read in earlier rounds; the agent reads
    # other, similarly relevant documents first, so successive rounds widen coverage.
    prefer_new_over: list[str] = Field(default_factory=list)

    @field_validator("language", mode="before")
    @classmethod
    def _lang(cls, value: object) -> object:
        if isinstance(value, str):
            low = value.strip().lower()
            if low.startswith("zh") or low in {"chinese", "中文"}:
                return "zh"
            if low.startswith("en") or low == "english":
                return "en"
        return value

    @field_validator("mode", mode="before")
    @classmethod
    def _mode(cls, value: object) -> object:
        return "initial" if value in (None, "") else value

    @field_validator("time_sensitivity", mode="before")
    @classmethod
    def _time(cls, value: object) -> object:
        if isinstance(value, dict | list):
            return json.dumps(value, ensure_ascii=False)
        return value

    @model_validator(mode="after")
    def _unique_kqs(self) -> Payload:
        seen: set[str] = set()
        for kq in self.key_questions:
            if kq.id in seen:
                raise ValueError(f"duplicate key question id {kq.id}")
            seen.add(kq.id)
        return self

    def report_path(self, base: Path | None = None) -> Path:
        """``report_dir`` as a path (relative paths resolve against ``base``)."""
        path = Path(self.report_dir)
        if not path.is_absolute() and base is not None:
            path = base / path
        return path


def _field_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def parse_payload(data: object, origin: str = "payload") -> Payload:
    """Validate payload data, or raise :class:`InputError` naming the first bad field."""
    if not isinstance(data, dict):
        raise InputError(f"{origin}: the payload must be a JSON object, got {type(data).__name__}")
    try:
        return Payload.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = _field_path(tuple(err["loc"]))
        value = err.get("input")
        shown = "" if isinstance(value, dict) else f" (got {json.dumps(value, ensure_ascii=False)[:80]})"
        raise InputError(
            f"{origin}: field '{field}': {err['msg']}{shown}",
            hint="fix that field; docs/contracts.md §3.4 lists the payload fields",
        ) from None


def load_payload(path: Path) -> Payload:
    """Read and validate a payload file; relative ``report_dir`` resolves against its folder."""
    path = Path(path)
    if not path.is_file():
        raise NotFoundError(f"payload file {path} does not exist")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    payload = parse_payload(data, origin=str(path))
    if not Path(payload.report_dir).is_absolute():
        payload = payload.model_copy(update={"report_dir": str((path.parent / payload.report_dir).resolve())})
    return payload
