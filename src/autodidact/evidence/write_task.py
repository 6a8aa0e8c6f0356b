"""``report.write_section``: a model writes one block of a report from its claims.

Why a task with a strict output: the model writes the prose a reader wants, but only as sentences
that each name the claim ids they rest on; ``report/prose.admit`` keeps a sentence only when its
ids were given and its quotes cover what it says. The offline twin is the plain one-sentence-per-
claim writer, which is also what a block falls back to when no model sentence survives
(docs/writing.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, Field

from autodidact.evidence.prompting import language_line, stable_data_block
from autodidact.evidence.prose import offline_sentences
from autodidact.llm.tasks import Message

MAX_CLAIMS = 12  # claims one prompt holds; a block with more is written in parts
MAX_CHARS = 4000  # characters of claim text and quotes one prompt holds


class SentenceOut(BaseModel):
    """One sentence and the claims it rests on."""

    text: str = Field(min_length=1, max_length=400, description="one sentence of the answer, without citation marks")
    claim_ids: list[str] = Field(max_length=4, description="ids of the given claims this sentence rests on")


class WriteOutput(BaseModel):
    """The block's sentences, in reading order."""

    sentences: list[SentenceOut] = Field(max_length=12)


@dataclass
class ClaimIn:
    """A claim as the writer sees it: id, statement, verbatim quote, source title."""

    id: str
    text: str
    quote: str
    source: str


@dataclass
class WriteInputs:
    """One block: what it must answer and the claims it may use."""

    language: str
    goal: str
    claims: list[ClaimIn]


class WriteSectionTask:
    """Write a block of the report as sentences that each cite the claims they rest on."""

    name = "report.write_section"
    Output = WriteOutput
    max_tokens = 900

    def build_prompt(self, inputs: WriteInputs) -> list[Message]:
        listing = "\n".join(f"{c.id} ({c.source}): {c.text}\n  quote: {c.quote}" for c in inputs.claims)
        sys_line, block = stable_data_block(listing, "claims")
        system = (
            "Write a short, readable answer to the goal from the claims only: plain sentences in the order a reader "
            "needs them, each listing in claim_ids the ids of the claims it rests on. Say nothing the claims' quotes "
            "do not say; no numbers, names or commands that are not in them. Do not write citation marks, source "
            "names or 'According to'; they are added from claim_ids. Leave out claims that do not answer the goal.\n"
            + language_line(inputs.language)
            + "\n"
            + sys_line
        )
        user = f"Goal: {inputs.goal}\n\n{block}"
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def offline(self, inputs: WriteInputs) -> WriteOutput:
        """One plain sentence per claim (the offline writer)."""
        return WriteOutput(
            sentences=[SentenceOut(text=s.text, claim_ids=list(s.claim_ids)) for s in offline_sentences(inputs.claims)][
                :12
            ]
        )

    def shrink(self, inputs: WriteInputs) -> WriteInputs | None:
        """The same block with its last claim left out, for a prompt that does not fit the context."""
        if len(inputs.claims) <= 1:
            return None
        return WriteInputs(inputs.language, inputs.goal, inputs.claims[:-1])


def parts(claims: list[ClaimIn]) -> list[list[ClaimIn]]:
    """The claims of a block in prompt-sized parts (at most MAX_CLAIMS claims and MAX_CHARS characters each)."""
    out: list[list[ClaimIn]] = [[]]
    size = 0
    for claim in claims:
        length = len(claim.text) + len(claim.quote)
        if out[-1] and (len(out[-1]) >= MAX_CLAIMS or size + length > MAX_CHARS):
            out.append([])
            size = 0
        out[-1].append(claim)
        size += length
    return [p for p in out if p]


class VerdictOut(BaseModel):
    """Whether one sentence is supported by its quotes."""

    index: int = Field(ge=0, description="the sentence's number as given")
    supported: bool = Field(description="true only when the quotes state everything the sentence says")


class JudgeOutput(BaseModel):
    """One verdict per sentence."""

    verdicts: list[VerdictOut] = Field(max_length=12)


@dataclass
class JudgeInputs:
    """Sentences with the quotes of the claims each cites."""

    language: str
    items: list[tuple[str, list[str]]]  # (sentence, its claims' quotes)


class JudgeSupportTask:
    """``--check-support``: a second model call judges each written sentence against its quotes."""

    name = "report.judge_support"
    Output = JudgeOutput
    max_tokens = 400

    def build_prompt(self, inputs: JudgeInputs) -> list[Message]:
        listing = "\n".join(
            f"{i}. sentence: {text}\n   quotes: {' | '.join(quotes)}" for i, (text, quotes) in enumerate(inputs.items)
        )
        sys_line, block = stable_data_block(listing, "sentences")
        system = (
            "For each numbered sentence, decide whether its quotes state everything the sentence says "
            "(supported: true) or the sentence adds, changes or generalises something (supported: false). "
            "Judge only from the quotes.\n" + sys_line
        )
        return [{"role": "system", "content": system}, {"role": "user", "content": block}]

    def offline(self, inputs: JudgeInputs) -> JudgeOutput:
        """Without a model the term-coverage check (``prose.admit``) is the only judge: nothing more is dropped."""
        return JudgeOutput(verdicts=[VerdictOut(index=i, supported=True) for i in range(len(inputs.items))])
