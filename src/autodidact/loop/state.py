"""``outputs/research_state.json``: the loop's single source of truth (seed 001, docs/seeds.md, docs/contracts.md §1.2).

Why a strict model: resume decisions (which round, which steps are done, which questions and raw
files were already seen) are read from this file alone, so a file with a missing or mistyped
field must stop the run with the field's name rather than resume from a wrong place. Every save is
atomic (the file is always the old or the new version, whole) and also refreshes a last-good copy
in ``.autodidact/``, which is the way back when the file is damaged by hand or by a failing disk.

The structure is exactly seed 001's (docs/seeds.md). Two optional fields are added only when used: ``background``
(``--background``, needed again on resume) and ``topic_extensions`` (a different topic given to an
existing knowledge base is appended, as the seed says, and recorded here with its round). A
``termination_check`` also records what the round added (``new_claims``, ``new_sources``: the
numbers the stall rule reads) and, on the round that stopped the run, ``stopped_by`` (rules /
stalled / max_rounds); rounds recorded before these existed load without them (docs/loop.md).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from autodidact.errors import IntegrityError
from autodidact.jsontypes import JSONObject
from autodidact.kb import KnowledgeBase
from autodidact.store import atomic

StopKind = Literal["rules", "stalled", "max_rounds"]
STEP_FLAGS = ("step1_done", "step2_done", "step3_done", "step4_done")
LAST_GOOD = "research_state.last-good.json"
OPTIONAL_CHECK_KEYS = ("new_claims", "new_sources", "stopped_by", "unread_sections", "waiting_questions")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RoundProgress(_Strict):
    """``current_round_progress``: the round in flight and which of steps 1–4 are done."""

    round: int = Field(ge=1)
    step1_done: bool = False
    step2_done: bool = False
    step3_done: bool = False
    step4_done: bool = False


class RoundQuestion(_Strict):
    """A question as recorded in a round, with its status from the round's check report."""

    id: str
    text: str
    layer: str
    priority: str
    source: str
    status: str | None = None


class TerminationCheck(_Strict):
    """The decision of seed 001 step 6 (docs/seeds.md), recorded before it is acted on."""

    audit_issues_count: int = Field(ge=0)
    pending_user_questions: int = Field(ge=0)
    new_raw_files: int = Field(ge=0)
    overlap_ratio: float | None
    decision: Literal["continue", "terminate"]
    reason: str
    new_claims: int | None = Field(default=None, ge=0)
    new_sources: int | None = Field(default=None, ge=0)
    stopped_by: StopKind | None = None
    unread_sections: int | None = Field(default=None, ge=0)  # on-topic sections never asked (docs/loop.md)
    waiting_questions: int | None = Field(default=None, ge=0)  # new questions a round had no room for


class RoundRecord(_Strict):
    """One completed round (appended by step 5)."""

    round: int = Field(ge=1)
    timestamp: str
    questions: list[RoundQuestion]
    new_raw_files: list[str]
    user_contributed_raw_files: list[str]
    wiki_topics_updated: list[str]
    check_report: str | None
    termination_check: TerminationCheck


class HistoryQuestion(_Strict):
    """One ``all_questions_ever`` entry."""

    id: str
    text: str


class TopicExtension(_Strict):
    """A topic appended to an existing knowledge base, and the first round that serves it."""

    topic: str
    round: int = Field(ge=1)


class ResearchState(_Strict):
    """The whole state file."""

    topic: str
    started_at: str
    max_rounds: int = Field(ge=1)
    status: Literal["in_progress", "terminated"]
    current_round_progress: RoundProgress | None
    rounds: list[RoundRecord]
    all_questions_ever: list[HistoryQuestion]
    all_raw_files_processed: list[str]
    final_summary: str | None
    background: str | None = None
    topic_extensions: list[TopicExtension] = Field(default_factory=list)

    @property
    def next_round(self) -> int:
        """The round to run next: the one in flight, else one after the last completed."""
        if self.current_round_progress is not None:
            return self.current_round_progress.round
        return (self.rounds[-1].round if self.rounds else 0) + 1

    def to_json(self) -> JSONObject:
        """The seed's structure; the two optional fields only when they carry something."""
        data = self.model_dump(mode="json")
        if self.background is None:
            data.pop("background")
        if not self.topic_extensions:
            data.pop("topic_extensions")
        for record in data["rounds"]:
            check = record["termination_check"]
            for key in OPTIONAL_CHECK_KEYS:
                if check.get(key) is None:
                    check.pop(key, None)
        return data


def new_state(topic: str, started_at: str, max_rounds: int, background: str | None = None) -> ResearchState:
    """A fresh state (seed 001, docs/seeds.md initialisation)."""
    return ResearchState(
        topic=topic,
        started_at=started_at,
        max_rounds=max_rounds,
        status="in_progress",
        current_round_progress=None,
        rounds=[],
        all_questions_ever=[],
        all_raw_files_processed=[],
        final_summary=None,
        background=background,
    )


def _recovery_hint(kb: KnowledgeBase) -> str:
    good = kb.internal / LAST_GOOD
    if good.is_file():
        return f"restore the last good state: cp {good} {kb.state_file} (then run autodidact research again)"
    return f"fix the field by hand, or move {kb.state_file} away to start the research afresh"


def load_state(kb: KnowledgeBase) -> ResearchState | None:
    """The state, ``None`` when there is none yet; a damaged file raises a clear error."""
    path = kb.state_file
    if not path.exists():
        return None
    name = "outputs/research_state.json"
    try:
        text = path.read_text("utf-8")
    except UnicodeDecodeError:
        raise IntegrityError(f"{name} is not UTF-8 text", hint=_recovery_hint(kb)) from None
    except OSError as exc:
        raise IntegrityError(f"{name} cannot be read: {exc.strerror}", hint=_recovery_hint(kb)) from None
    if not text.strip():
        raise IntegrityError(f"{name} is empty", hint=_recovery_hint(kb))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise IntegrityError(
            f"{name} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); truncated?",
            hint=_recovery_hint(kb),
        ) from None
    except RecursionError:
        raise IntegrityError(f"{name} is nested too deeply to be a state file", hint=_recovery_hint(kb)) from None
    if not isinstance(data, dict):
        raise IntegrityError(f"{name} must hold a JSON object, found {type(data).__name__}", hint=_recovery_hint(kb))
    try:
        return ResearchState.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "(top level)"
        raise IntegrityError(f"{name}: field '{field}': {err['msg']}", hint=_recovery_hint(kb)) from None


def save_state(kb: KnowledgeBase, state: ResearchState) -> None:
    """Write the state atomically, then refresh the last-good copy."""
    text = atomic.dumps_json(state.to_json())
    atomic.write_text(kb.state_file, text)
    _write_backup(kb.internal / LAST_GOOD, text)


def _write_backup(path: Path, text: str) -> None:
    """Replace the last-good copy (temp file + rename, so it is whole; no fsync: the state file is
    the durable one, and this copy only matters when that file was damaged later)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{atomic.temp_prefix(path.name)}bak.tmp")  # pid-marked: a dead writer's is swept
    tmp.write_text(text, "utf-8")
    os.replace(tmp, path)
