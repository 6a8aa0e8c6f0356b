"""The debate's judgement steps as Tasks: writing a role's turn and reading signals from an answer.

Why Tasks: a model is a replaceable part. With a model, the role's contribution and question come
from it, and are held to the same protocol rules as the offline templates (one question mark, no
以及/另外/顺便, at most two sentences of response); a turn that breaks them is re-asked once with the
broken rule named, and otherwise replaced by the offline turn, never shown as is.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Literal, TypedDict

from pydantic import BaseModel, Field

from autodidact.debate import cues
from autodidact.debate.role_texts import offline_turn
from autodidact.debate.roles import ROLES
from autodidact.debate.templates import TurnInputs, TurnOutput, sentence_count
from autodidact.errors import ModelError
from autodidact.llm.tasks import Message, data_block

if TYPE_CHECKING:
    from autodidact.debate.proposition import Proposition
    from autodidact.llm.runtime import Runtime

BUNDLING_WORDS = ("以及", "另外", "顺便")
BUNDLING_WORDS_EN = ("as well as", "by the way", "additionally", "and also")
SOURCE_KEYS = ("observation", "suggestion", "judgement", "hypothesis", "evidence")


def question_problems(question: str) -> list[str]:
    """Protocol problems of a focus question (empty when it may be asked)."""
    problems = []
    marks = len(re.findall(r"[?？]", question))
    if marks != 1:
        problems.append(f"has {marks} question marks; exactly one is allowed")
    low = question.lower()
    for word in (*BUNDLING_WORDS, *BUNDLING_WORDS_EN):
        if word in low:
            problems.append(f"bundles a second question with {word!r}")
    return problems


def turn_problems(out: TurnOutput) -> list[str]:
    """Every skeleton rule a written turn breaks."""
    problems = [f"question {p}" for p in question_problems(out.question)]
    if out.response.strip() not in {"跳过回应", "(no response)"} and sentence_count(out.response) > 2:
        problems.append("response is longer than two sentences")
    if not out.contribution.strip():
        problems.append("no substantive contribution (N1)")
    if out.source not in SOURCE_KEYS:
        problems.append(f"source {out.source!r} is not one of {', '.join(SOURCE_KEYS)}")
    if not out.why.strip():
        problems.append("no reason why the question is worth asking")
    return problems


class RoleTurnTask:
    """Write one turn for a role: response, contribution with source, one focus question, why."""

    name = "debate.role_turn"
    Output = TurnOutput
    max_tokens = 500  # one question and its framing (docs/models.md, "Output bounds")

    def build_prompt(self, inputs: TurnInputs) -> list[Message]:
        role = ROLES[inputs.role]
        system_line, block = data_block(
            json.dumps(
                {
                    "proposition": inputs.proposition,
                    "last_answer": inputs.last_answer,
                    "assumptions": inputs.assumptions,
                    "predictions": inputs.predictions,
                    "alternatives": inputs.alternatives,
                    "review": inputs.review_text,
                },
                ensure_ascii=False,
            ),
            "session",
        )
        lang = "Chinese" if inputs.lang == "zh" else "English"
        system = (
            f"You are the {role.name_en} ({role.role_id}) in a Socratic idea discussion; you judge {role.judges}. "
            f"Your question type is {role.question_type}. Ladder trigger: {inputs.trigger}; intent: {inputs.intent}. "
            "You are a thinking partner, never a judge: never say whether the proposition is true. "
            "Return JSON with: response (at most two sentences reacting to the person's last answer, or "
            "'跳过回应'), contribution (one substantive analysis, example, candidate wording or plan; mark "
            "unknown numbers as 待补), source (observation|suggestion|judgement|hypothesis|evidence), question "
            "(exactly one question with exactly one question mark; never 以及/另外/顺便; answerable from the "
            "person's own experience or judgement), why (one sentence). "
            f"Write in {lang}.\n{system_line}"
        )
        user = block
        feedback = getattr(inputs, "feedback", None)
        if feedback:
            user += f"\nYour previous turn broke these rules; fix them: {feedback}"
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def offline(self, inputs: TurnInputs) -> TurnOutput:
        return offline_turn(inputs)


class FeedbackInputs(TurnInputs):
    """Turn inputs plus the rules the previous attempt broke (for the one re-ask)."""

    feedback: str | None = None


class SignalInputs(BaseModel):
    """An answer to read, with the question it answered."""

    question_type: str
    question: str
    answer: str
    previous_answers: list[str] = Field(default_factory=list)


class SignalOutput(BaseModel):
    signals: list[str] = Field(description="progress signals the answer itself carries")
    dont_know: bool = Field(description="the person says they do not know")


class SignalTask:
    """Read progress signals from an answer (offline: cue tables)."""

    name = "debate.signals"
    Output = SignalOutput
    max_tokens = 300  # a few signal names and one flag

    def check(self, inputs: SignalInputs, output: SignalOutput) -> list[str]:
        """Only the signals this question type allows (a weak model invents names; docs/models.md)."""
        allowed = set(cues.allowed_signals(inputs.question_type))
        unknown = [s for s in output.signals if s not in allowed]
        return (
            [f"signals not allowed for a {inputs.question_type} question: {', '.join(unknown[:3])}"] if unknown else []
        )

    def build_prompt(self, inputs: SignalInputs) -> list[Message]:
        allowed = cues.allowed_signals(inputs.question_type)
        system_line, block = data_block(inputs.answer, "answer")
        return [
            {
                "role": "system",
                "content": (
                    "Decide which progress signals a person's answer carries. Allowed signals for a "
                    f"{inputs.question_type} question: {', '.join(allowed)}. A signal needs new content in the "
                    "answer itself; repeating earlier answers or saying 'I don't know' carries none. "
                    f"Return JSON {{signals: [...], dont_know: bool}}.\n{system_line}"
                ),
            },
            {"role": "user", "content": f"Question: {inputs.question}\n{block}"},
        ]

    def offline(self, inputs: SignalInputs) -> SignalOutput:
        return SignalOutput(
            signals=cues.detect_signals(inputs.answer, inputs.question_type, inputs.previous_answers),
            dont_know=cues.is_dont_know(inputs.answer),
        )


class ModeInputs(BaseModel):
    """The opening prompt of a session."""

    prompt: str


class ModeOutput(BaseModel):
    mode: Literal["explore", "examine"] = Field(description="examine for a concrete claim, explore otherwise")
    basis: str = Field(description="the words of the prompt the judgement rests on (a short quote)")
    # The proposition's parts (debate/proposition.py), each quoted from the prompt; empty when absent.
    kind: Literal["causal", "comparison", "plan", "question", "observation", ""] = Field(
        "", description="causal claim, comparison, plan, question or observation"
    )
    subject: str = Field("", description="who or what it is about, quoted from the prompt")
    effect: str = Field("", description="the effect or property claimed, quoted from the prompt")
    cause: str = Field("", description="the cause, for a causal claim, quoted from the prompt")


class ModeTask:
    """Judge explore vs examine from the prompt (offline: claim and interest cues)."""

    name = "debate.mode"
    Output = ModeOutput
    max_tokens = 200  # a mode and a short quote

    def check(self, inputs: ModeInputs, output: ModeOutput) -> list[str]:
        """The basis must quote the prompt: "(no concrete claim)" is not the person's words."""
        problems = []
        if output.basis and output.basis not in inputs.prompt:
            problems.append("basis does not quote the prompt's own words")
        for name in ("subject", "effect", "cause"):
            value = getattr(output, name)
            if value and value not in inputs.prompt:
                problems.append(f"{name} does not quote the prompt's own words")
        return problems

    def build_prompt(self, inputs: ModeInputs) -> list[Message]:
        system_line, block = data_block(inputs.prompt, "prompt")
        return [
            {
                "role": "system",
                "content": (
                    "A person opens an idea discussion. If they state a concrete claim (a cause, a comparison, "
                    "a rule), the mode is 'examine'; if they only describe an interest, an observation or a "
                    "puzzle, it is 'explore'. Also read the proposition: its kind (causal, comparison, plan, "
                    "question or observation), its subject (who or what), its effect (the property or outcome "
                    "claimed: the part that decides it) and its cause, each quoted exactly from the prompt, or "
                    "empty. Return JSON {mode, basis, kind, subject, effect, cause}; basis quotes the deciding "
                    "words.\n"
                    f"{system_line}"
                ),
            },
            {"role": "user", "content": block},
        ]

    def offline(self, inputs: ModeInputs) -> ModeOutput:
        from autodidact.debate.proposition import read
        from autodidact.kb import detect_language

        mode, cue = cues.judge_mode(inputs.prompt)
        p = read(inputs.prompt, detect_language(inputs.prompt))
        return ModeOutput(mode=mode, basis=cue, kind=p.kind, subject=p.subject, effect=p.effect,
                          cause=p.cause)  # fmt: skip


def judge_mode(runtime: Runtime, prompt: str) -> tuple[str, str]:
    """``(mode, basis)``, from the model when there is one (falling back to the cues on failure)."""
    mode, basis, _ = judge_opening(runtime, prompt)
    return mode, basis


def judge_opening(runtime: Runtime, prompt: str) -> tuple[str, str, Proposition]:
    """``(mode, basis, reading)``: the mode and the proposition read into its parts — by the model
    when there is one and its parts quote the prompt, else by the offline rules."""
    from autodidact.debate.proposition import Proposition, read
    from autodidact.kb import detect_language

    try:
        out = runtime.run_sync(ModeTask(), ModeInputs(prompt=prompt))
    except ModelError:
        out = ModeTask().offline(ModeInputs(prompt=prompt))
    basis = out.basis if out.basis and out.basis in prompt else ""
    offline = read(prompt, detect_language(prompt))
    parts_quoted = all(not v or v in prompt for v in (out.subject, out.effect, out.cause))
    same = (out.kind, out.subject, out.effect, out.cause) == (
        offline.kind,
        offline.subject,
        offline.effect,
        offline.cause,
    )
    if out.kind and parts_quoted and (out.effect or out.subject) and not same:
        reading = Proposition(prompt, out.kind, subject=out.subject, effect=out.effect, cause=out.cause)
    else:
        reading = offline
    return out.mode, basis, reading


class TurnMeta(TypedDict, total=False):
    """How a turn was produced, added to its ``ROLE_RESPONSE`` payload."""

    producer: str
    reason: str
    reasked: bool


def write_turn(runtime: Runtime, inputs: TurnInputs) -> tuple[TurnOutput, TurnMeta]:
    """A turn that passes the protocol rules, and how it was produced (model, re-asked, fallback)."""
    task = RoleTurnTask()
    if not runtime.heeds_feedback:  # the offline turn is built to the rules: checking and re-asking repeat it
        return runtime.run_sync(task, inputs), {"producer": runtime.engine_name}
    attempt = FeedbackInputs(**inputs.model_dump())
    for tries in range(2):
        try:
            out = runtime.run_sync(task, attempt)
        except ModelError as exc:
            return task.offline(inputs), {"producer": "offline-fallback", "reason": exc.message[:200]}
        problems = turn_problems(out)
        if not problems:
            return out, {"producer": "model", "reasked": tries > 0}
        attempt = FeedbackInputs(**{**inputs.model_dump(), "feedback": "; ".join(problems)})
    return task.offline(inputs), {"producer": "offline-fallback", "reason": "; ".join(problems)[:200]}


def read_signals(runtime: Runtime, inputs: SignalInputs) -> SignalOutput:
    """Signals of an answer; a model's signals are limited to the question type's eligible ones."""
    out: SignalOutput
    try:
        out = runtime.run_sync(SignalTask(), inputs)
    except ModelError:
        out = SignalTask().offline(inputs)
    allowed = cues.allowed_signals(inputs.question_type)
    out.signals = [s for s in dict.fromkeys(out.signals) if s in allowed]
    return out
