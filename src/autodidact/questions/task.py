"""The question-proposal task: a model (or the offline engine) proposes candidate questions.

Why a task: judgement about *which* questions are worth asking is the questioner's model-shaped
part (docs/architecture.md principle 3). The model sees the round's inputs — audit findings, user
questions, new material, recent history — only inside data blocks, because findings and raw files
quote fetched text. Its reply is a :class:`CandidateList`; the filters that follow are the same
for both engines. The prompt carries at most :data:`HISTORY_IN_PROMPT` history items and short
raw-file digests, so its size does not grow with the knowledge base.

The prompt names the topic's subject and facets (:func:`autodidact.text.topic.decompose`) and asks
for questions per facet, each labelled with its facet. Whatever the model proposes then passes the
same filters as the offline engine's candidates — among them the off-topic drop: a proposal that
shares no key term with the topic, its facets or a user question is dropped and counted in
``off_topic_questions`` (docs/questions.md).
"""

from __future__ import annotations

from autodidact.llm.tasks import Message, data_block
from autodidact.questions.candidates import framework_candidates, offline_candidates
from autodidact.questions.facets import asked_facets, frames
from autodidact.questions.models import CandidateList, QuestionerInputs
from autodidact.text.topic import TOPIC_TYPE_EN, Facet

HISTORY_IN_PROMPT = 60
RAW_CHARS_IN_PROMPT = 1500
RAW_FILES_IN_PROMPT = 5

RULES_EN = """You are the questioner of an autonomous research loop. Propose the most valuable questions for this round.
Rules:
- Every question is specific and searchable: it names the concept it asks about; no "everything about X".
- Stay on the research topic; natural extensions are fine, drifting to merely interesting side topics is not.
  Every question must name the subject, a facet or a comparison candidate (or a term of them); questions
  that share no term with them are dropped.
- Cover every facet listed below: at cold start at least one question per facet (a comparison: its
  differences, and what each candidate is); later, facets with few questions first. Set "facet" to the
  facet's name exactly as listed, or null for a question about the subject as a whole.
- Priority: user questions (copy them verbatim, source "user", priority "high") > the audit's suggested next
  directions (source "audit", priority "high") > other audit gaps and unexplained concepts (source "audit",
  "medium") > concepts introduced by new raw files (source "raw", "medium") > framework questions (source
  "framework"; at cold start L1 definitions "high", L2 "medium"; later "low").
- Framework for the topic type: L1 definition and distinctions; L2 components, mechanism, variants;
  L3 problems solved and limitations; L4 suitable scenarios and alternatives. With user background, skip L1 basics.
- Do not repeat questions already asked (history) unless the audit says the answer is still partial.
- Write questions in the topic's language ({language}). Propose 8-14 candidates; the program filters and orders them.
Reply with JSON only, matching the schema."""


class ProposeQuestions:
    """Task ``questions.propose``: inputs → :class:`CandidateList`."""

    name = "questions.propose"
    Output = CandidateList
    max_tokens = 1500  # 8-14 short questions (docs/models.md, "Output bounds")

    def settle(self, inputs: QuestionerInputs, output: CandidateList) -> CandidateList:
        """A model may propose too few usable questions: the framework tops the list up to the minimum.
        A facet the model left out still gets its first question (high); the rest is low fill-in."""
        return CandidateList(candidates=[*output.candidates, *framework_candidates(inputs, fill_in=True)])

    def build_prompt(self, inputs: QuestionerInputs) -> list[Message]:
        """Topic and round in the clear; every finding, question and file excerpt in data blocks."""
        language = "Chinese" if inputs.language == "zh" else "English"
        frame = frames(inputs)[0]
        system_lines = [RULES_EN.format(language=language)]
        unsure = "" if frame.type_sure else " (unsure: use concept understanding L1+L2)"
        asked = asked_facets([frame], inputs.history)
        parts = [
            f"Research topic: {inputs.topic}",
            f"Subject: {frame.subject}",
            "Facets:\n" + "\n".join(_facet_line(f, asked, inputs.cold_start) for f in frame.facets),
            f"Topic type: {TOPIC_TYPE_EN[frame.topic_type]}{unsure}",
            f"Round: {inputs.round} ({'cold start: framework only' if inputs.cold_start else 'deepening'})",
        ]
        if inputs.extension_topics:
            appended = "; ".join(inputs.extension_topics)
            parts.append(f"Topics appended to this research (treat as cold start): {appended}")
        blocks: list[tuple[str, str]] = []
        if inputs.background:
            blocks.append(("user background (skip what it already covers)", inputs.background))
        if inputs.directions:
            blocks.append(("audit: suggested next directions, most important first", _lines(inputs.directions)))
        if inputs.gaps or inputs.partial or inputs.missing_sources:
            findings = [f"gap: {g}" for g in inputs.gaps] + [f"partial: {p}" for p in inputs.partial]
            findings += [f"missing source: {m}" for m in inputs.missing_sources]
            blocks.append(("audit findings", _lines(findings)))
        if inputs.user_questions:
            blocks.append(("user questions (copy verbatim)", _lines(inputs.user_questions)))
        for raw in inputs.new_raw_files[:RAW_FILES_IN_PROMPT]:
            blocks.append((f"new raw file {raw.filename}", f"# {raw.title}\n{raw.body[:RAW_CHARS_IN_PROMPT]}"))
        if inputs.history:
            recent = inputs.history[-HISTORY_IN_PROMPT:]
            blocks.append(("questions already asked (id: text)", _lines([f"{h.id}: {h.text}" for h in recent])))
        for label, text in blocks:
            line, block = data_block(text, label)
            system_lines.append(line)
            parts.append(block)
        return [
            {"role": "system", "content": "\n".join(system_lines)},
            {"role": "user", "content": "\n\n".join(parts)},
        ]

    def offline(self, inputs: QuestionerInputs) -> CandidateList:
        """Templates and audit conversion: the deterministic candidate list."""
        return CandidateList(candidates=offline_candidates(inputs))


def _facet_line(facet: Facet, asked: set[str | None], cold: bool) -> str:
    """One facet for the prompt: its name, kind, what it compares or asks, and whether it was asked."""
    line = f"- {facet.name} ({facet.kind}"
    if facet.candidates:
        line += ": " + ", ".join(facet.candidates) + (f" {facet.context}" if facet.context else "")
    if facet.question:
        line += f": {facet.question}"
    line += ")"
    if not cold and facet.name not in asked:
        line += " — not asked yet: ask it first"
    return line


def _lines(items: list[str]) -> str:
    return "\n".join(f"- {item}" for item in items)
