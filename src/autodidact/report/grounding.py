"""A report plan grounded in the documents it will read: key-points questions for each facet.

Why: the planner writes a facet's key questions from templates before it has seen a single
document ("Which commands, settings or steps are used for version pinning?"). The local index
knows which sections of the documents are about that facet ("Tweaking candidate version",
"Archive level "Release" files"); asking for their key points is what brought the loop's answers
to the facts a manual states only in those sections (docs/questions.md, "Outline questions").
Grounding runs once, when the plan is made, so a resumed report reuses the same plan.json
(docs/planning.md, "Grounding in the documents").
"""

from __future__ import annotations

from pathlib import Path

from autodidact.plan.models import Dimension, Plan
from autodidact.sources.outline import facet_outline
from autodidact.text.keypoints import key_points_question
from autodidact.text.tokens import term_set
from autodidact.text.topic import decompose

PER_DIMENSION = 4  # key-points questions a facet dimension gets (one template question stays: 2-5 in all)
MAX_QUESTIONS = 5  # docs/contracts.md §2: 2-5 key questions per dimension


def _facet_of(dim: Dimension, facets: list[str]) -> str | None:
    """The facet a dimension is about: the one whose words its name holds, most words first."""
    name = term_set(dim.name)
    held = [(len(term_set(f) & name), f) for f in facets if term_set(f) and term_set(f) <= name]
    return max(held)[1] if held else None


def ground_plan(plan: Plan, request: str, roots: list[Path]) -> Plan:
    """``plan`` with each facet dimension's last template questions replaced by key-points questions
    of the sections the first indexed root ranks first for that facet (at least two template
    questions stay); unchanged without an index."""
    lang = plan.language
    outline = next((o for o in (facet_outline(r, [request], lang) for r in roots) if o), [])
    if not outline:
        return plan
    facets = [f.name for f in decompose(request, lang).facets]
    questions: dict[str, list[str]] = {}
    for entry in outline:
        if entry.facet is not None:
            questions.setdefault(entry.facet, []).append(key_points_question(entry.heading, lang, entry.document))
    # The subject's own overview (a chapter's introduction says which tool is for what) goes to
    # the first dimension, on top of its facet's sections.
    overview = [key_points_question(e.heading, lang, e.document) for e in outline if e.facet is None][:1]
    dims: list[Dimension] = []
    added: list[str] = []
    for n, dim in enumerate(plan.dimensions):
        facet = _facet_of(dim, facets)
        own = questions.get(facet or "", [])[:PER_DIMENSION] if facet else []
        asks = (overview if n == 0 else []) + own
        asks = [q for q in asks if q not in dim.key_questions]
        if asks:
            kept = dim.key_questions[: max(1, MAX_QUESTIONS - len(asks))]
            asks = asks[: MAX_QUESTIONS - len(kept)]
            dim = dim.model_copy(update={"key_questions": kept + asks})
            added += asks
        dims.append(dim)
    if not added:
        return plan
    note = (
        f"依据文档章节补充了 {len(added)} 个要点问题（{'；'.join(added)}）"
        if lang == "zh"
        else f"added {len(added)} key-points questions from the documents' sections ({'; '.join(added)})"
    )
    return plan.model_copy(update={"dimensions": dims, "change_notes": [*plan.change_notes, note]})
