"""A model writes each answer block's answer as prose; every sentence still cites the quotes it rests on.

Why: an answer block lists the quotes that answer its question, best first — verifiable, but a
reader has to assemble the answer. With a model configured, each block whose quotes changed gets an
answer paragraph above them (``**Answer:** …`` / ``**回答：**…``), written by the same task and the
same rules as a report's prose (``evidence/write_task.py``, ``evidence/prose.admit``): a sentence
citing no quote, or a quote it was not given, or saying more than its quotes (support below the
threshold, a number they lack) is dropped and counted. The citation after each sentence is rendered
from the quotes it names, never typed by the model. Offline there is no paragraph: the quotes are
the answer (docs/writing.md, "Wiki answers"). ``verify`` re-proves the paragraph like any cited
prose in the wiki: every name and number a sentence states must stand in the raw files it cites.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from autodidact.errors import ModelAuthError, ModelError
from autodidact.evidence.prose import admit
from autodidact.evidence.write_task import ClaimIn, WriteInputs, WriteSectionTask
from autodidact.llm.ledger import LedgerEntry
from autodidact.text.support import DEFAULT_SUPPORT
from autodidact.wiki.common.articles import Section
from autodidact.wiki.common.markdown import ANSWER_LEAD, cite, is_answer_paragraph
from autodidact.wiki.compile.answers_blocks import Item, is_question_heading, parse_block

if TYPE_CHECKING:
    from autodidact.llm.runtime import Runtime

MAX_ITEMS = 6  # quotes one answer is written from (a block holds at most this many)


@dataclass
class AnswerProse:
    """What the writer did in one compile: blocks written, kept sentences, drops by reason."""

    blocks: int = 0
    sentences: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    failed: int = 0


def _quotes(items: list[Item]) -> dict[str, list[str]]:
    """Each quote as a claim the sentence rules read: its id ``qN`` and the quote itself."""
    return {f"q{n}": [it.text] for n, it in enumerate(items, 1)}


async def write_answer(
    runtime: Runtime, section: Section, lang: str, threshold: float = DEFAULT_SUPPORT
) -> tuple[str | None, AnswerProse]:
    """The answer paragraph for one question block (None: nothing survived, or no model)."""
    stats = AnswerProse()
    _others, items = parse_block(section)
    items = items[:MAX_ITEMS]
    if not runtime.writes_prose or not items or not is_question_heading(section.heading):
        return None, stats
    claims = _quotes(items)
    views = [ClaimIn(id=cid, text=it.text, quote=it.text, source=", ".join(it.sources))
             for cid, it in zip(claims, items, strict=True)]  # fmt: skip
    task, inputs = WriteSectionTask(), WriteInputs(lang, section.heading, views)
    try:
        out = await runtime.run(task, inputs)
    except ModelAuthError:
        raise  # a key that does not work is the person's to fix, not a weak answer
    except ModelError:
        stats.failed += 1  # a model that cannot answer leaves the quotes as the answer
        return None, stats
    if out == task.offline(inputs):
        # The runtime fell back (budget, timeout, invalid reply): the offline writer's sentences
        # are the quotes themselves, already listed below.
        stats.failed += 1
        return None, stats
    written = admit([(s.text, list(s.claim_ids)) for s in out.sentences], claims, threshold)
    stats.dropped.update(written.dropped)
    if not written.sentences:
        return None, stats
    sources = {cid: it.sources for cid, it in zip(claims, items, strict=True)}
    joiner = "" if lang == "zh" else " "
    body = joiner.join(
        cite(s.text, list(dict.fromkeys(n for cid in s.claim_ids for n in sources[cid])), lang)
        for s in written.sentences
    )
    stats.blocks, stats.sentences = 1, len(written.sentences)
    return ANSWER_LEAD["zh" if lang == "zh" else "en"] + body, stats


def place_answer(section: Section, paragraph: str) -> None:
    """Put the answer paragraph first in its block, in place of the one written before."""
    rest = [b for b in section.blocks if not is_answer_paragraph(b)]
    section.blocks = [paragraph, *rest]


def record_drops(runtime: Runtime, prose: AnswerProse) -> None:
    """The sentences the rules dropped go to the usage ledger (``autodidact usage`` counts them)."""
    model = runtime.model
    if model is None or not prose.dropped:
        return
    note = "; ".join(f"{n} {reason}" for reason, n in prose.dropped.most_common())
    runtime.ledger.record(
        LedgerEntry("wiki.answer", model.provider, model.name, 0, 0, False, 0.0, 0.0,
                    outcome="dropped", note=note, dropped=sum(prose.dropped.values()))
    )  # fmt: skip
