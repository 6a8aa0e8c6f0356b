"""``create_plan``: request text in, a validated :class:`Plan` out, by a model or offline.

Why a task: planning is judgement (docs/architecture.md principle 3). With a model, the model writes the
plan from seed 004's instructions (docs/seeds.md), the request (inside a data block: it is untrusted text) and
the catalogue entry that fits it; the reply is normalised (status, language, ``depends_on`` from
``dependency_inputs``, a dependency-respecting execution order) and must pass ``validate_plan``,
with one repair re-ask that names the failed rules. Without a model, :mod:`.offline` does the
same flow from the type catalogue and the request's own terms.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from autodidact.errors import InputError, ModelOutputInvalid
from autodidact.kb import detect_language
from autodidact.llm.tasks import Message, data_block
from autodidact.plan.catalogue import CATALOGUE, classify_request
from autodidact.plan.models import Plan
from autodidact.plan.offline import offline_plan
from autodidact.plan.validate import validate_plan

if TYPE_CHECKING:
    from autodidact.llm.runtime import Runtime


class PlanInputs(BaseModel):
    """What the planning task sees."""

    request: str
    language: str = Field(description="zh or en: the language of every natural-language field")
    report_type: str = Field(description="the catalogue type the request matches best")
    previous_errors: list[str] = Field(default_factory=list, description="rule failures of a previous attempt")


SYSTEM = """You are a research planner. From the request, write plan.json: scope, report shape and an execution map.
Do not write conclusions, literature review or facts; define what must be found out.
Steps: lock the one-sentence research goal (the judgement the report serves); scope: objects, time_range, region,
audience_or_use, exclusions, assumptions - write unknown items explicitly as "Unknown: ..." and list them in
scope.unknowns; when the request gives no structure, ground report_shape in the catalogue entry given (format_basis
with type, name, credibility_reason, what_extracted), otherwise keep the user's sections (basis type "fallback",
name "User-specified structure"); sections are final-report chapters, NOT dimensions; mandatory_elements lists tables,
timelines, matrices the report must contain.
Dimensions: 3-8 (usually 3-5), ids d1, d2, ...; each can stand alone as a sub-report; 2-5 answerable key_questions;
method; search_strategy with source_types, 3-6 seed_queries, freshness_requirement (mandatory latest check for markets,
policy, products, companies, prices, law and people), sufficiency (stop conditions); expected_output; focus; depth
(skim|moderate|thorough); time_sensitivity; sources [{category, description}]; scope_ownership {owns (>=1, no topic
owned by two dimensions), excludes, shared_topics, overlap_policy}; dependency_inputs only for REAL dependencies
[{dimension_id, needed_for: entity_selection|taxonomy_definition|time_window|hypothesis_definition|source_targeting,
consume: "key_findings", scope_rule: a specific rule of at least 16 characters saying how upstream findings change
this search}]; depends_on equals the dependency_inputs ids; status "pending".
execution_order lists every id once, upstreams first (definitions and facts before comparison and judgement).
completion_criteria: conditions for moving from dimension research to writing. change_notes: [].
Write every natural-language field in {language_name}. Reply with JSON only, matching the schema."""


class PlanTask:
    """The planning task (name ``plan.create``)."""

    name = "plan.create"
    Output = Plan
    max_tokens = 3500  # a whole plan: the largest reply of any task (docs/models.md, "Output bounds")

    def build_prompt(self, inputs: PlanInputs) -> list[Message]:
        """Seed 004's instructions, the request as data, and the fitting catalogue entry."""
        lang = inputs.language
        system_line, block = data_block(inputs.request, "request.md")
        entry = CATALOGUE.get(inputs.report_type) or CATALOGUE["technical"]
        basis = "; ".join(f"{b.type}: {b.name[lang]} ({b.what_extracted[lang]})" for b in entry.basis)
        catalogue = (
            f"Catalogue entry '{entry.key}' ({entry.label[lang]}):\n"
            f"- sections: {' | '.join(entry.sections[lang])}\n"
            f"- mandatory elements: {' | '.join(entry.mandatory_elements[lang])}\n"
            f"- basis: {basis}\n- style: {entry.style[lang]}"
        )
        user = f"The research request:\n{block}\n\n{catalogue}"
        if inputs.previous_errors:
            user += "\n\nYour previous plan failed these checks; fix them:\n- " + "\n- ".join(inputs.previous_errors)
        name = "Simplified Chinese" if lang == "zh" else "English"
        return [
            {"role": "system", "content": SYSTEM.replace("{language_name}", name) + "\n" + system_line},
            {"role": "user", "content": user},
        ]

    def offline(self, inputs: PlanInputs) -> Plan:
        """The catalogue-and-terms planner."""
        return offline_plan(inputs.request, inputs.language)


def topo_order(plan: Plan) -> list[str]:
    """A dependency-respecting order that keeps the given order where it already works."""
    preferred = [d for d in plan.execution_order if any(x.id == d for x in plan.dimensions)]
    preferred += [d.id for d in plan.dimensions if d.id not in preferred]
    deps = {d.id: [x for x in d.depends_on if x != d.id] for d in plan.dimensions}
    done: list[str] = []
    remaining = list(dict.fromkeys(preferred))
    while remaining:
        ready = next((d for d in remaining if all(x in done or x not in deps for x in deps[d])), None)
        if ready is None:  # a cycle: leave the rest in place; validate_plan reports it (P016)
            done.extend(remaining)
            break
        done.append(ready)
        remaining.remove(ready)
    return done


def normalize(plan: Plan, lang: str) -> Plan:
    """Fix what a model routinely gets mechanically wrong, never the substance."""
    plan.language = "zh" if lang == "zh" else "en"
    for dim in plan.dimensions:
        dim.status = "pending"
        if dim.dependency_inputs:
            dim.depends_on = sorted({d.dimension_id for d in dim.dependency_inputs})
    plan.execution_order = topo_order(plan)
    return plan


def _request_text(request_text: str) -> str:
    text = (request_text or "").strip()
    if not text:
        raise InputError("the research request is empty", hint="give the request as text or a file path")
    return text


async def acreate_plan(request_text: str, runtime: Runtime) -> Plan:
    """Write a plan for ``request_text``; raises :class:`ModelOutputInvalid` if a model's plan stays invalid."""
    with runtime.step("plan"):  # the plan and its repair share one model budget
        return await _create(request_text, runtime)


async def _create(request_text: str, runtime: Runtime) -> Plan:
    text = _request_text(request_text)
    lang = detect_language(text)
    task = PlanTask()
    inputs = PlanInputs(request=text, language=lang, report_type=classify_request(text, lang).key)
    plan = normalize(await runtime.run(task, inputs), lang)
    report = validate_plan(plan.to_json())
    if report.ok or not runtime.heeds_feedback:  # a repair request would get the same plan back
        return plan
    errors = [f"{e['rule']}: {e['message']}" for e in report.errors]
    retry = inputs.model_copy(update={"previous_errors": errors})
    plan = normalize(await runtime.run(task, retry), lang)
    report = validate_plan(plan.to_json())
    if not report.ok:
        first = report.errors[0]
        reason = f"the model's plan fails {first['rule']}: {first['message']} (after one repair request)"
        if runtime.falls_back:
            return normalize(runtime.fall_back(task, inputs, reason), lang)
        raise ModelOutputInvalid(
            reason, hint="rerun, use another model, --fallback offline, or run without a model for the offline planner"
        )
    return plan


def create_plan(request_text: str, runtime: Runtime) -> Plan:
    """Synchronous :func:`acreate_plan` for callers outside an event loop."""
    return asyncio.run(acreate_plan(request_text, runtime))
