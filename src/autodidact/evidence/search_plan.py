"""Search planning (seed 003 phase one, docs/seeds.md): queries per key question, and the upstream scope decision.

Why a task: with a model, queries are better phrased and translated; without one, templates still
give Chinese and English variants (the English one from the Latin-script terms of the question,
name and owned scope) and, outside quick mode, a refuting angle. The model returns *queries*,
never URLs: what gets fetched is decided by search results alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

from autodidact.evidence.focus import focus
from autodidact.evidence.prompting import compact, language_line, stable_data_block
from autodidact.evidence.textscore import clip, terms
from autodidact.llm.tasks import Message

_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_.+#-]*")
_URLISH = re.compile(r"https?://\S+|www\.\S+", re.IGNORECASE)


class PlannedQuery(BaseModel):
    """One search query."""

    text: str = Field(min_length=1, max_length=200, description="search words; never a URL")
    language: Literal["zh", "en"]
    angle: Literal["support", "refute", "neutral"] = Field(
        description="refute = looks for evidence against the common answer"
    )


class KQPlan(BaseModel):
    """The queries for one key question."""

    kq_id: str
    queries: list[PlannedQuery] = Field(min_length=1, max_length=6)


class UpstreamDecision(BaseModel):
    """Which upstream key findings change this dimension's scope, and how."""

    dimension_id: str
    finding_indexes: list[int] = Field(description="0-based indexes of the upstream key findings used")
    scope_changes: list[str] = Field(min_length=1, description="concrete changes to this search's scope")
    skipped_searches: list[str] = Field(min_length=1, description="searches not repeated because upstream covers them")


class SearchPlanOutput(BaseModel):
    """Queries for every key question plus the upstream decisions."""

    plans: list[KQPlan]
    upstream: list[UpstreamDecision] = Field(default_factory=list)


@dataclass
class UpstreamView:
    """What this dimension may read of one upstream: its key findings only."""

    dimension_id: str
    needed_for: str
    scope_rule: str
    findings: list[tuple[str, list[str]]]  # (finding text, claim_ids)


@dataclass
class SearchPlanInputs:
    """Everything the planner reads."""

    language: str
    name: str
    description: str
    query: str
    focus: str
    key_questions: list[tuple[str, str]]
    mode: str
    depth: str
    owns: list[str] = field(default_factory=list)
    excludes: list[str] = field(default_factory=list)
    upstream: list[UpstreamView] = field(default_factory=list)
    source_hints: list[str] = field(default_factory=list)  # "category: description" from the payload
    time_sensitivity: str = ""
    briefing: str = ""  # context_from_briefing: a first map, not a boundary


def _latin_terms(*texts: str) -> list[str]:
    seen: list[str] = []
    for text in texts:
        for word in _LATIN.findall(text):
            low = word.lower()
            if low not in {w.lower() for w in seen} and len(word) > 1 and low not in _EN_FILLER:
                seen.append(word)
    return seen


_EN_FILLER = frozenset({"what", "how", "why", "which", "does", "is", "are", "the", "a", "an", "of", "and", "or", "to"})


def select_findings(view: UpstreamView, kq_text: str) -> list[int]:
    """Offline choice: findings sharing terms with the scope rule or the questions; else all of them."""
    wanted = set(terms(view.scope_rule + " " + kq_text))
    chosen = [i for i, (text, _) in enumerate(view.findings) if wanted & set(terms(text))]
    return chosen or list(range(len(view.findings)))


class SearchPlanTask:
    """Plan the searches of one dimension."""

    name = "evidence.search_plan"
    Output = SearchPlanOutput
    max_tokens = 1000  # a few queries per key question (docs/models.md, "Output bounds")

    def build_prompt(self, inputs: SearchPlanInputs) -> list[Message]:
        """Key questions and scope as instructions; upstream findings (derived from sources) as data."""
        system = [
            "You plan web and local searches for one research dimension. For each key question give 2-4 short "
            "queries: at least one in Chinese and one in English"
            + ("" if inputs.mode == "quick" else ", and at least one that looks for refuting evidence")
            + ". Queries are search words, never URLs. Respect the excluded scope.",
            language_line(inputs.language),
        ]
        user = [
            "Dimension: " + compact({"name": inputs.name, "description": inputs.description, "focus": inputs.focus}),
            "Original request: " + compact(inputs.query),
            "Key questions: " + compact([{"id": k, "text": t} for k, t in inputs.key_questions]),
            "Scope: " + compact({"owns": inputs.owns, "excludes": inputs.excludes}),
            f"Mode: {inputs.mode}; depth: {inputs.depth}",
        ]
        if inputs.source_hints:
            user.append("Recommended source categories: " + compact(inputs.source_hints))
        if inputs.time_sensitivity:
            user.append("Time sensitivity: " + compact(inputs.time_sensitivity))
        if inputs.briefing.strip():
            sys_line, block = stable_data_block(inputs.briefing, "briefing notes (a first map, not a boundary)")
            system.append(sys_line)
            user.append("Briefing notes:\n" + block)
        for view in inputs.upstream:
            listing = "\n".join(f"[{i}] {text}" for i, (text, _) in enumerate(view.findings))
            sys_line, block = stable_data_block(listing, f"key findings of upstream {view.dimension_id}")
            system.append(sys_line)
            user.append(
                f"Upstream {view.dimension_id} (needed_for={view.needed_for}; scope_rule={compact(view.scope_rule)}). "
                "Choose the findings that change this dimension's scope, state the scope changes and the searches "
                "you skip because of them:\n" + block
            )
        return [{"role": "system", "content": "\n".join(system)}, {"role": "user", "content": "\n\n".join(user)}]

    def offline(self, inputs: SearchPlanInputs) -> SearchPlanOutput:
        """Templates: the question itself, an English/Latin variant, a scoped variant and a refuting angle."""
        all_kq = " ".join(t for _, t in inputs.key_questions)
        upstream: list[UpstreamDecision] = []
        scope_terms: list[str] = []
        for view in inputs.upstream:
            idx = select_findings(view, all_kq)
            texts = [view.findings[i][0] for i in idx]
            scope_terms += _latin_terms(*texts)[:3]
            upstream.append(_offline_decision(view, idx, texts, inputs.language))
        plans = []
        for kq_id, text in inputs.key_questions:
            plans.append(KQPlan(kq_id=kq_id, queries=_offline_queries(inputs, text, scope_terms)))
        return SearchPlanOutput(plans=plans, upstream=upstream)


def _offline_queries(inputs: SearchPlanInputs, text: str, scope_terms: list[str]) -> list[PlannedQuery]:
    """Content words first (frame words out, subject keywords and the gap phrase in), then variants."""
    lang = "zh" if inputs.language == "zh" else "en"
    fx = focus(_URLISH.sub(" ", text))
    base = clip(fx.query() or fx.question or _URLISH.sub(" ", text), 200)
    out = [PlannedQuery(text=base, language=lang, angle="neutral")]
    if fx.english and (lang == "zh" or _has_cjk(text)):
        out.append(PlannedQuery(text=clip(" ".join(fx.english[:10]), 200), language="en", angle="neutral"))
    elif lang == "zh":
        latin = _latin_terms(inputs.name, " ".join(inputs.owns))
        if latin:
            out.append(PlannedQuery(text=clip(" ".join(latin[:8]), 200), language="en", angle="neutral"))
    full = clip(_URLISH.sub(" ", fx.question), 200)
    if full and full.lower() != base.lower():
        out.append(PlannedQuery(text=full, language=lang, angle="neutral"))  # the question as asked
    if scope_terms:
        out.append(PlannedQuery(text=clip(f"{base} {' '.join(scope_terms)}", 200), language=lang, angle="neutral"))
    if inputs.mode != "quick":
        cue = "局限 问题 争议" if lang == "zh" else "limitations problems criticism"
        out.append(PlannedQuery(text=clip(f"{base} {cue}", 200), language=lang, angle="refute"))
    return out[:6]


def _has_cjk(text: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" for ch in text)


def _offline_decision(view: UpstreamView, idx: list[int], texts: list[str], language: str) -> UpstreamDecision:
    if language == "zh":
        changes = [
            f"按上游 {view.dimension_id} 的结论限定本维度范围（{view.needed_for}）：{clip(t, 150)}" for t in texts
        ]
        skipped = [f"不再重复检索上游 {view.dimension_id} 已确认的内容：{clip(t, 100)}" for t in texts]
    else:
        changes = [f"Scope narrowed by upstream {view.dimension_id} ({view.needed_for}): {clip(t, 150)}" for t in texts]
        skipped = [
            f"Not searched again because upstream {view.dimension_id} established it: {clip(t, 100)}" for t in texts
        ]
    return UpstreamDecision(
        dimension_id=view.dimension_id, finding_indexes=idx, scope_changes=changes[:3], skipped_searches=skipped[:3]
    )
