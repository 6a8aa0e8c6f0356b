"""Independent review (P5): isolated calls on a whitelisted input, and a deterministic divergence verdict.

Why isolation and a program for the verdict: a reviewer that sees the moderator's leaning, the other
reviewer's answer or earlier summaries only echoes them. Each review call therefore receives exactly
the whitelisted fields (idea id and version, the verbatim proposition, the person's constraints,
evidence references, the assigned perspective, the output format) and nothing else. Whether two
reviews diverge is decided by comparing their structured fields, not by asking a model. Without a
model the same structure is produced offline and labelled a self-check: it can never count as an
independent review or reach LOW_DIVERGENCE.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from autodidact.errors import ModelError
from autodidact.llm.tasks import Message, data_block

if TYPE_CHECKING:
    from autodidact.debate.session import Session
    from autodidact.llm.runtime import Runtime

WHITELIST = ("idea_id", "version", "proposition", "user_constraints", "evidence_refs", "perspective", "output_format")
OUTPUT_FORMAT = "verdict, load_bearing_premises, strongest_counterexample, searched_scope, discriminating_evidence, "
OUTPUT_FORMAT += "change_condition (required), limitations"


class ReviewInput(BaseModel):
    """The only things a reviewer may see (seed 002 §5, docs/seeds.md input whitelist)."""

    model_config = ConfigDict(extra="forbid")
    idea_id: str
    version: int
    proposition: str
    user_constraints: list[str] = Field(default_factory=list)
    evidence_refs: list[str] = Field(default_factory=list)
    perspective: str
    output_format: str = OUTPUT_FORMAT
    lang: str = "en"


class ReviewOutput(BaseModel):
    """A reviewer's structured result; reasons only, no hidden chain of thought."""

    verdict: Literal["SUPPORTED", "CHALLENGED", "BOUNDED", "INSUFFICIENT"]
    load_bearing_premises: list[str] = Field(description="premises the proposition rests on")
    strongest_counterexample: str = Field(description="the strongest counterexample, or NONE_FOUND")
    searched_scope: str = Field(description="what was searched when no counterexample was found")
    discriminating_evidence: str = Field(description="what observation would tell the answers apart")
    change_condition: str = Field(min_length=1, description="what would change this verdict (required)")
    limitations: str = ""


class ReviewTask:
    """One isolated review from one perspective."""

    name = "debate.review"
    Output = ReviewOutput
    max_tokens = 900  # one reviewer's verdict (docs/models.md, "Output bounds")

    def build_prompt(self, inputs: ReviewInput) -> list[Message]:
        visible = {k: getattr(inputs, k) for k in WHITELIST}
        system_line, block = data_block(json.dumps(visible, ensure_ascii=False), "review input")
        return [
            {
                "role": "system",
                "content": (
                    f"You review one proposition from the perspective '{inputs.perspective}'. Judge only from the "
                    "input. Return JSON: verdict (SUPPORTED|CHALLENGED|BOUNDED|INSUFFICIENT), "
                    "load_bearing_premises, strongest_counterexample (NONE_FOUND if none, then say in "
                    "searched_scope what you considered), discriminating_evidence, change_condition (required), "
                    "limitations. Give reviewable reasons only. A verdict is not proof of the proposition.\n"
                    f"{system_line}"
                ),
            },
            {"role": "user", "content": block},
        ]

    def offline(self, inputs: ReviewInput) -> ReviewOutput:
        zh = inputs.lang == "zh"
        premises = list(inputs.user_constraints[:3])
        if inputs.perspective == "premise_evidence_examiner":
            if not premises:
                premises = ["现象确实发生" if zh else "the pattern really occurred"]
            verdict: Literal["SUPPORTED", "CHALLENGED", "BOUNDED", "INSUFFICIENT"] = (
                "INSUFFICIENT" if not inputs.evidence_refs else "BOUNDED"
            )
            counter = "NONE_FOUND"
            scope = "本会话记录中的前提与证据引用" if zh else "the premises and evidence references in this session"
            change = (
                "若查到直接支持或反驳关键前提的原文证据，结论改变"
                if zh
                else "a verbatim source that supports or refutes a key premise would change this"
            )
        else:
            premise, counter, change = _KIND_REVIEW[_kind_of(inputs)]["zh" if zh else "en"]
            premises = premises[:1] or [premise]
            verdict = "BOUNDED"
            scope = "命题陈述本身" if zh else "the proposition as stated"
        return ReviewOutput(
            verdict=verdict,
            load_bearing_premises=premises,
            strongest_counterexample=counter,
            searched_scope=scope,
            discriminating_evidence=_KIND_DISCRIMINATES[_kind_of(inputs)]["zh" if zh else "en"],
            change_condition=change,
            limitations="视角自检：由同一程序按模板生成"
            if zh
            else "self-check: produced by the same program from templates",
        )


def _kind_of(inputs: ReviewInput) -> str:
    """The proposition's kind, as the reviewer's templates need it (a causal claim by default)."""
    from autodidact.debate.proposition import read

    kind = read(inputs.proposition, inputs.lang).kind
    return kind if kind in _KIND_REVIEW else "causal"


# The offline reviewer's premise, counterexample and change condition per kind of proposition: a
# comparison has no cause to precede its pattern (a trial read "the cause precedes the pattern" for
# "a monorepo is easier than separate repos"), an observation no cause to remove.
_KIND_REVIEW: dict[str, dict[str, tuple[str, str, str]]] = {
    "causal": {
        "en": ("the cause precedes the pattern", "a concurrent change in conditions would produce the same pattern",
               "if the predicted difference fails to appear with other conditions fixed, revise the proposition"),
        "zh": ("原因先于现象出现", "同期其他条件变化也能产生同样现象",
               "若在其他条件不变时预测的差别没有出现，应修改命题"),
    },
    "comparison": {
        "en": ("the two are compared on the same task under the same conditions",
               "the difference comes from how each was set up or used, not from the two themselves",
               "if both score alike on your criterion under the same conditions, revise the proposition"),
        "zh": ("两者是在同样的任务和条件下比较的", "差别来自各自的配置或用法，而不是两者本身",
               "若在同样条件下按你的标准两者打平，应修改命题"),
    },
    "observation": {
        "en": ("the pattern was counted the same way each time",
               "a change in how or when it was counted would produce the same pattern",
               "if counting the same way for several more weeks does not show it, revise the observation"),
        "zh": ("每次都是用同样的方式数的", "数法或时间点的变化也能产生同样的规律",
               "若按同样方式再数几周规律不再出现，应修改这个观察"),
    },
    "plan": {
        "en": ("the problem the plan addresses is real and big enough",
               "a smaller change would reach the same goal",
               "if a trial shows no gain on the goal's measure, or the feared loss appears, revise the plan"),
        "zh": ("计划要解决的问题真实存在且足够大", "更小的改动也能达到同样的目标",
               "若试行在目标尺度上没有改善，或出现了担心的损失，应修改计划"),
    },
}  # fmt: skip
_KIND_DISCRIMINATES: dict[str, dict[str, str]] = {
    "causal": {"en": "compare with and without the cause, all else equal",
               "zh": "在其他条件不变时比较有、无该原因两种情形"},
    "comparison": {"en": "run both on the same task under the same conditions and record your criterion",
                   "zh": "同一个任务、同样条件下两者各做一次，记录你选的标准"},
    "observation": {"en": "count it the same way for several more weeks", "zh": "按同样的方式再数几周"},
    "plan": {"en": "a trial: record the goal's measure under the current way, then as long under the plan",
             "zh": "试行：先按现在的做法记录目标尺度，再按计划试行同样长的时间"},
}  # fmt: skip


def review_input(session: Session, perspective: str) -> ReviewInput:
    """Build the whitelisted input from a session: nothing else of the session reaches a reviewer."""
    idea = session.idea()
    version = idea.current
    refs = [str(link.get("snapshot_ref") or link.get("claim_id")) for link in version.evidence_links]
    return ReviewInput(
        idea_id=idea.idea_id,
        version=version.version,
        proposition=version.proposition,
        user_constraints=list(version.assumptions),
        evidence_refs=refs,
        perspective=perspective,
        lang=session.language,
    )


# ``(status, execution_kind)`` of a review by the engine that answered it: the offline engine's
# review is the reviewer's template applied by this program, a self-check, not an independent agent.
ANSWERED = {"model": ("OK", "INDEPENDENT_AGENT"), "offline": ("UNAVAILABLE", "SELF_CHECK")}
DEGRADED_REASON = {"UNAVAILABLE": "no model available", "FAILED": "review call failed twice"}  # by status


def run_review(runtime: Runtime, inputs: ReviewInput) -> tuple[ReviewOutput, str, str]:
    """``(output, status, execution_kind)``; offline or failed twice → a labelled self-check."""
    task = ReviewTask()
    for _attempt in range(2):
        try:
            out = runtime.run_sync(task, inputs)
        except ModelError:
            continue
        status, kind = ANSWERED[runtime.engine_name]
        return out, status, kind
    return task.offline(inputs), "FAILED", "SELF_CHECK"


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    return "".join(ch for ch in text if not unicodedata.category(ch).startswith(("P", "Z", "S")))


def _overlap(a: list[str], b: list[str]) -> float:
    sa, sb = {_norm(x) for x in a if x.strip()}, {_norm(x) for x in b if x.strip()}
    if not sa and not sb:
        return 1.0
    return len(sa & sb) / len(sa | sb)


PREMISE_OVERLAP = 0.6


def assess(outputs: list[ReviewOutput], degraded: bool) -> tuple[str, list[str]]:
    """LOW_DIVERGENCE only when verdicts agree, premises overlap highly and the counterexample is the same."""
    reasons: list[str] = []
    if len({o.verdict for o in outputs}) > 1:
        reasons.append("verdicts differ: " + " / ".join(o.verdict for o in outputs))
    for other in outputs[1:]:
        ratio = _overlap(outputs[0].load_bearing_premises, other.load_bearing_premises)
        if ratio < PREMISE_OVERLAP:
            reasons.append(f"key premises overlap {ratio:.2f} < {PREMISE_OVERLAP}")
        if _norm(outputs[0].strongest_counterexample) != _norm(other.strongest_counterexample):
            reasons.append("strongest counterexamples differ")
    if reasons:
        return "HIGH_DIVERGENCE", reasons
    if degraded:
        return "NOT_ASSESSED_SELF_CHECK", ["a self-check cannot reach LOW_DIVERGENCE"]
    return "LOW_DIVERGENCE", ["same verdict, overlapping premises, same counterexample"]


# What the person reads for the review enums (the enums stay in the event log and --json).
PLAIN = {
    "en": {
        "SUPPORTED": "supported", "CHALLENGED": "challenged", "BOUNDED": "holds within limits",
        "INSUFFICIENT": "not enough to judge", "NONE_FOUND": "none found",
        "HIGH_DIVERGENCE": "the two reviews disagree", "LOW_DIVERGENCE": "the two reviews agree",
        "NOT_ASSESSED_SELF_CHECK": "not compared (a self-check, not independent reviews)",
    },
    "zh": {
        "SUPPORTED": "得到支持", "CHALLENGED": "受到挑战", "BOUNDED": "在一定范围内成立",
        "INSUFFICIENT": "信息不足以判断",
        "NONE_FOUND": "未找到", "HIGH_DIVERGENCE": "两份评估分歧较大", "LOW_DIVERGENCE": "两份评估基本一致",
        "NOT_ASSESSED_SELF_CHECK": "未比较（这是自检，不是独立评估）",
    },
}  # fmt: skip


def plain(value: str, lang: str) -> str:
    """An enum value in plain words of the session's language (other text unchanged)."""
    return PLAIN["zh" if lang == "zh" else "en"].get(value, value)


def describe(results: list[tuple[str, ReviewOutput]], divergence: str, lang: str, names: dict[str, str]) -> str:
    """Both results side by side with their change conditions; no vote, no average."""
    parts = []
    for index, (perspective, out) in enumerate(results, start=1):
        premise = out.load_bearing_premises[0] if out.load_bearing_premises else "—"
        verdict_words, counter = plain(out.verdict, lang), plain(out.strongest_counterexample, lang)
        if out.strongest_counterexample == "NONE_FOUND" and out.searched_scope:
            # "none found" right after the person named a rival read as not listening: say where it looked
            scope = out.searched_scope
            counter = f"{counter}（查看范围：{scope}）" if lang == "zh" else f"{counter} in {scope}"
        if lang == "zh":
            parts.append(
                f"评估{index}（{names[perspective]}）：{verdict_words}；关键前提「{premise}」；"
                f"最强反例：{counter}；改变结论的条件：{out.change_condition}。"
            )
        else:
            parts.append(
                f'Review {index} ({names[perspective]}): {verdict_words}; key premise "{premise}"; '
                f"strongest counterexample: {counter}; what would change it: {out.change_condition}."
            )
    verdict = (
        f"两份结果逐项对照：{plain(divergence, lang)}。"
        if lang == "zh"
        else f"Set side by side, field by field: {plain(divergence, lang)}."
    )
    text = " ".join([*parts, verdict])
    return re.sub(r"[?？]", "", text)
