"""Key findings, headline and writing-context gaps, built from the kept claims.

Why last: findings are a synthesis *of claims* (every finding cites claim ids of this file), so
they are written after the quotes have been verified and weak claims dropped. With a model the
synthesis is a task; its answer is checked (ids exist, lengths, counts) and replaced by the offline
synthesis when it does not fit, so a sloppy model can never make the file invalid.

Gaps: a key question without a kept claim becomes an ``availability_gap`` entry; one with both
supporting and refuting claims an ``unresolved_gap``.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, Field

from autodidact.evidence.models import ContextKind, WritingContext
from autodidact.evidence.prompting import compact, language_line, stable_data_block
from autodidact.evidence.textscore import clip
from autodidact.llm.tasks import Message


class FindingOut(BaseModel):
    """One load-bearing conclusion."""

    finding: str = Field(min_length=10, max_length=300, description="a complete sentence with a direction")
    claim_ids: list[str] = Field(min_length=1)


class SynthesisOutput(BaseModel):
    """Headline and key findings."""

    headline: str = Field(min_length=5, max_length=200, description="one sentence: the dimension's core result")
    key_findings: list[FindingOut]


@dataclass
class ClaimView:
    """A kept claim as the synthesis sees it."""

    id: str
    kq: str | None
    text: str
    polarity: str
    source_id: str


@dataclass
class SynthesisInputs:
    """Claims and questions of one dimension."""

    language: str
    name: str
    mode: str
    key_questions: list[tuple[str, str]]
    claims: list[ClaimView]


def finding_bounds(mode: str) -> tuple[int, int]:
    """How many key findings the mode allows (V006)."""
    return (1, 3) if mode == "quick" else (2, 6)


class SynthesisTask:
    """Write the headline and key findings from the claims."""

    name = "evidence.synthesis"
    Output = SynthesisOutput
    max_tokens = 1000  # a headline and a few findings (docs/models.md, "Output bounds")

    def build_prompt(self, inputs: SynthesisInputs) -> list[Message]:
        """Claims (derived from sources, so data) in one block; rules as instructions."""
        lo, hi = finding_bounds(inputs.mode)
        listing = "\n".join(f"{c.id} [{c.kq or 'extra'}; {c.polarity}] {c.text}" for c in inputs.claims)
        sys_line, block = stable_data_block(listing, "claims")
        system = (
            f"Synthesise {lo}-{hi} key findings from the claims: each a complete sentence with a direction that "
            "combines claims (not a topic, not process notes), citing the claim ids it rests on. Bring out tensions "
            "such as refuting claims. Then a headline of at most 200 characters. Use only the claims given.\n"
            + language_line(inputs.language)
            + "\n"
            + sys_line
        )
        user = (
            f"Dimension: {inputs.name}\nKey questions: "
            + compact([{"id": k, "text": t} for k, t in inputs.key_questions])
            + "\n\n"
            + block
        )
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def offline(self, inputs: SynthesisInputs) -> SynthesisOutput:
        """One finding per answered key question (its strongest claims), headline from the first."""
        return offline_synthesis(inputs)

    def settle(self, inputs: SynthesisInputs, output: SynthesisOutput) -> SynthesisOutput:
        """A model's synthesis held to V006/V051 (:func:`usable`); the offline one when it does not fit."""
        return usable(output, {c.id for c in inputs.claims}, inputs.mode) or offline_synthesis(inputs)


def offline_synthesis(inputs: SynthesisInputs) -> SynthesisOutput:
    """The deterministic synthesis used offline and as the fallback for an unusable model answer."""
    lo, hi = finding_bounds(inputs.mode)
    zh = inputs.language == "zh"
    groups: dict[str | None, list[ClaimView]] = {}
    for claim in inputs.claims:
        groups.setdefault(claim.kq, []).append(claim)
    kq_text = dict(inputs.key_questions)
    findings: list[FindingOut] = []
    for kq, claims in groups.items():
        lead = claims[0]
        question = clip(kq_text.get(kq or "", ""), 80)
        refutes = [c for c in claims if c.polarity == "refute"]
        sources = len({c.source_id for c in claims})
        if zh:
            head = f"关于「{question}」，" if question else "额外发现："
            tail = f"（{len(claims)} 条证据，{sources} 个来源" + ("，含反向证据）" if refutes else "）")
        else:
            head = f"On '{question}': " if question else "Extra finding: "
            tail = f" ({len(claims)} claims from {sources} source(s)" + (
                ", including refuting evidence)" if refutes else ")"
            )
        body = clip(lead.text, 300 - len(head) - len(tail))
        findings.append(FindingOut(finding=head + body + tail, claim_ids=[c.id for c in claims[:4]]))
    if len(findings) < lo and inputs.claims:
        # Too few groups: split the largest group so each finding rests on its own claim.
        extra = [c for c in inputs.claims if all(c.id != f.claim_ids[0] for f in findings)]
        for claim in extra[: lo - len(findings)]:
            prefix = "另一来源补充：" if zh else "A further source adds: "
            findings.append(FindingOut(finding=prefix + clip(claim.text, 300 - len(prefix)), claim_ids=[claim.id]))
    if len(findings) < lo and inputs.claims:
        only = inputs.claims[0]
        note = (
            f"该结论目前只有一个来源支撑，尚未交叉核实：{clip(only.text, 240)}"
            if zh
            else f"This rests on a single source and is not yet cross-checked: {clip(only.text, 230)}"
        )
        findings.append(FindingOut(finding=note, claim_ids=[only.id]))
    findings = findings[:hi]
    answered = len({c.kq for c in inputs.claims if c.kq})
    total = len(inputs.key_questions)
    first = clip(inputs.claims[0].text, 120) if inputs.claims else ""
    if zh:
        headline = clip(f"{inputs.name}：{answered}/{total} 个关键问题有原文证据；{first}", 200)
    else:
        headline = clip(f"{inputs.name}: {answered}/{total} key questions answered from sources; {first}", 200)
    return SynthesisOutput(headline=headline if len(headline) >= 5 else headline + " …", key_findings=findings)


def usable(output: SynthesisOutput, claim_ids: set[str], mode: str) -> SynthesisOutput | None:
    """The model's synthesis with unknown claim ids removed, or None when it no longer fits V006/V051."""
    lo, hi = finding_bounds(mode)
    kept = []
    for f in output.key_findings:
        ids = [i for i in f.claim_ids if i in claim_ids]
        if ids and 10 <= len(f.finding) <= 300:
            kept.append(FindingOut(finding=f.finding, claim_ids=ids))
    if not lo <= len(kept) <= hi or not 5 <= len(output.headline) <= 200:
        return None
    return SynthesisOutput(headline=output.headline, key_findings=kept)


_USE_GAP = {True: "写作时把该问题标为证据不足，不作推断。", False: "Mark this question as unanswered; do not infer."}
_USE_CONFLICT = {
    True: "写作时并列呈现双方证据，不下单一结论。",
    False: "Present both sides with their sources; no single verdict.",
}


def gap_entries(
    dimension_id: str,
    key_questions: list[tuple[str, str]],
    claims: list[ClaimView],
    language: str,
    start: int,
    searched: str,
) -> list[WritingContext]:
    """writing_context entries for unanswered (availability_gap) and contested (unresolved_gap) questions."""
    out: list[WritingContext] = []
    zh = language == "zh"
    n = start
    for kq, text in key_questions:
        mine = [c for c in claims if c.kq == kq]
        question = clip(text, 200)
        kind: ContextKind
        if not mine:
            kind = "availability_gap"
            note = (
                f"在已检索的来源（{searched}）中没有找到能回答「{question}」的可核实原文。"
                if zh
                else f"No verifiable source text answering '{question}' was found in the sources searched ({searched})."
            )
            use = _USE_GAP[zh]
            source_ids: list[str] = []
        elif {c.polarity for c in mine} >= {"support", "refute"}:
            kind = "unresolved_gap"
            note = (
                f"来源对「{question}」的说法不一致，存在支持与反驳两类证据。"
                if zh
                else f"Sources disagree on '{question}': there is supporting and refuting evidence."
            )
            use = _USE_CONFLICT[zh]
            source_ids = sorted({c.source_id for c in mine})
        else:
            continue
        n += 1
        out.append(
            WritingContext(
                kind=kind, text=note, use=use, source_ids=source_ids, id=f"{dimension_id}.w{n}", applies_to=[kq]
            )
        )
    return out
