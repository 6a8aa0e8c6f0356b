"""Which of the user's questions a round answered, and which stay pending (docs/loop.md).

Why not "asked once = done": a question the round only partly answered was being moved to
已处理 and never asked again, so the user's own question was dropped half answered. Why not
"pending until resolved": a question the sources cannot answer would keep the research open for
ever. The rule in between, decided at the end of each round from its audit and its evidence:

- ``resolved`` in the round's audit → 已处理 as ``- ~~Q~~ [rN]``;
- ``partial`` / ``open`` (or no status) and the round found new evidence for it (a claim for its
  key question with a quote never seen before) → stays in 待处理, so the next round asks it again;
- otherwise — nothing new for it, or asked in :data:`MAX_USER_QUESTION_ROUNDS` rounds already →
  已处理 as ``- ~~Q~~ [rN, partial]`` (or ``open``): settled, marked as not fully answered.

Each round either settles the question or found a quote never seen before; the sources are finite
and the round count per question is capped, so this cannot loop forever.
"""

from __future__ import annotations

from collections.abc import Iterable

from autodidact.loop.novelty import RoundNovelty
from autodidact.loop.state import RoundRecord
from autodidact.questions.models import RoundQuestions

MAX_USER_QUESTION_ROUNDS = 3


def _key(text: str) -> str:
    return " ".join(text.split())


def rounds_asked(text: str, earlier: Iterable[RoundRecord]) -> int:
    """How many earlier rounds asked this user question."""
    key = _key(text)
    return sum(1 for r in earlier if any(q.source == "user" and _key(q.text) == key for q in r.questions))


def key_question_ids(rq: RoundQuestions, lost: Iterable[str] = ()) -> dict[str, str]:
    """Question id → its ``kqN`` in the round's evidence (numbered over the questions researched,
    i.e. without those lost to model errors — as the research step numbered them)."""
    gone = set(lost)
    kept = [q for q in rq.questions if q.id not in gone]
    return {q.id: f"kq{k}" for k, q in enumerate(kept, start=1)}


def user_question_outcomes(
    rq: RoundQuestions,
    statuses: dict[str, str],
    novelty: RoundNovelty,
    earlier: list[RoundRecord],
    kq_of: dict[str, str],
) -> dict[str, str | None]:
    """Question text → how it settles this round (``None``: answered; ``"partial"`` / ``"open"``:
    settled, not fully answered). A question missing from the result stays pending."""
    out: dict[str, str | None] = {}
    for q in rq.questions:
        if q.source != "user":
            continue
        status = statuses.get(q.id) or "open"
        if status == "resolved":
            out[q.text] = None
            continue
        kq = kq_of.get(q.id)
        found_new = kq is not None and novelty.new_claims_by_kq.get(kq, 0) > 0
        if found_new and rounds_asked(q.text, earlier) + 1 < MAX_USER_QUESTION_ROUNDS:
            continue
        out[q.text] = status if status in {"partial", "open"} else "open"
    return out
