"""One round of question generation: propose, filter, order, number (seed 000 steps 1–6, docs/seeds.md).

Why the filters live here and not in the task: dedup, coverage, searchability and ordering are
rules, not judgement, so they run identically after the model's proposal and after the offline
engine's. The one similarity function of :mod:`autodidact.questions.similarity` decides both the
dedup and ``overlap_ratio`` (docs/contracts.md §1.3).

Counting rule: high and medium candidates are taken up to ``max_questions``; low-priority
framework fill-in only tops the list up to ``min_questions``. When fewer than ``min_questions``
novel questions exist, the best deduplicated candidates are re-asked (they are still open or
partial in the knowledge base's eyes) — and they count in ``overlap_ratio``, which is how a
knowledge base that has run out of new questions reaches the termination rule "overlap > 0.7".

Facets (docs/questions.md): two questions repeat each other only when they are similar *and*
mention the same facet terms — "What is the role of dpkg …" and "What is the role of apt …" share
all their other words yet ask about different things. The same rule decides dedup and overlap.
A candidate (other than the user's own) that shares no key term with the topic, its facets or a
user question is dropped and listed in ``off_topic_questions``. Among framework questions, a
facet no question has asked yet goes first; every question leaves with its ``facet``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from autodidact.questions.candidates import entry_question
from autodidact.questions.coverage import cited_groups, covered_in
from autodidact.questions.facets import asked_facets, facet_names, facet_of, frames, on_topic, signature
from autodidact.questions.framework import tidy
from autodidact.questions.models import (
    PRIORITY_RANK,
    Candidate,
    DedupedQuestion,
    Question,
    QuestionerInputs,
    RoundQuestions,
)
from autodidact.questions.similarity import Features, best_match, features, is_duplicate
from autodidact.questions.task import ProposeQuestions
from autodidact.text.keypoints import further_key_points_question, is_further, key_points_heading, key_points_question
from autodidact.text.topic import TopicFrame, subject_of

if TYPE_CHECKING:
    from autodidact.llm.runtime import Runtime

SOURCE_RANK = {"user": 0, "audit": 1, "raw": 2, "framework": 3}
_MACRO = re.compile(
    r"\b(?:everything|anything|all aspects|all about|in general|the whole field)\b"
    r"|一切|方方面面|所有方面|全部内容|这个领域",
    re.I,
)
# A question ends at "？", or at "?" before a capital or Chinese: "… with cursors and ? placeholders"
# names the placeholder, it does not end a question.
_SPLIT = re.compile(r"(?<=？)\s*|(?<=\?)\s+(?=[A-Z\u3400-\u9fff])")


async def generate_questions(inputs: QuestionerInputs, runtime: Runtime) -> RoundQuestions:
    """Propose candidates (model or offline engine), then filter and order them."""
    proposal = await runtime.run(ProposeQuestions(), inputs)
    return select_questions(inputs, list(proposal.candidates))


def split_or_drop(candidate: Candidate) -> list[Candidate]:
    """Searchability filter: split multi-question candidates, drop macro or empty ones.

    User questions pass verbatim (seed 001, docs/seeds.md: the user's words are incorporated as written).
    """
    if candidate.source == "user":
        return [candidate]
    text = " ".join(candidate.text.split())
    if _MACRO.search(text):
        return []
    pieces = [p.strip() for p in _SPLIT.split(text) if p.strip()]
    if len(pieces) > 1 and all(len(features(p).content) >= 2 for p in pieces):
        return [candidate.model_copy(update={"text": p}) for p in pieces]
    if not features(text).content:
        return []
    return [candidate.model_copy(update={"text": text})]


def _order(inputs: QuestionerInputs, candidates: list[Candidate], asked: set[str | None]) -> list[Candidate]:
    """Priority, then source (user, audit, raw, framework), then facet coverage, then layer, then
    relevance to the topic. Audit directions keep the report's order (the checker lists the most
    important first).

    Facet coverage orders framework questions: first the first question of every facet never asked
    (the subject as a whole counts as one, ``None``), then the rest of those facets, then facets
    asked before — so a later round covers what was not asked before it deepens what was.
    """
    topic_feats = features(" ".join(frames(inputs)[0].key_terms())).content
    firsts: set[int] = set()
    seen: set[str | None] = set()
    for pos, cand in enumerate(candidates):
        if cand.source == "framework" and cand.facet not in seen:
            seen.add(cand.facet)
            firsts.add(pos)

    def coverage_rank(pos: int, cand: Candidate) -> int:
        if cand.source != "framework":
            return 0
        if cand.facet in asked:
            return 2
        return 0 if pos in firsts else 1

    # A reference entry's question comes after the other new material (a person's file, a section's
    # key points): "What does skip do in unittest?" says the topic's words, and by them it had taken
    # the slot of the key points of the unittest page a person added.
    entries = {entry_question(e.name, inputs.language, e.place) for e in inputs.entries}

    def key(item: tuple[int, Candidate]) -> tuple[int, int, int, int, int, float, int]:
        pos, cand = item
        keeps_order = cand.source in {"user", "framework"} or (cand.source == "audit" and cand.priority == "high")
        relevance = 0.0 if keeps_order else -len(features(cand.text).content & topic_feats)
        layer_rank = int(cand.layer[1]) if cand.layer[:1] == "L" and cand.layer[1:2].isdigit() else 0
        return (
            PRIORITY_RANK[cand.priority],
            SOURCE_RANK[cand.source],
            int(cand.text in entries),
            coverage_rank(pos, cand),
            layer_rank,
            relevance,
            pos,
        )

    return [c for _, c in sorted(enumerate(candidates), key=key)]


Indexed = tuple[str, Features, frozenset[str]]


def _repeats(feats: Features, sig: frozenset[str], others: list[Indexed]) -> tuple[str | None, float]:
    """The most similar of ``others`` about the same facet terms (the one rule of dedup and overlap)."""
    return best_match(feats, [(oid, f) for oid, f, osig in others if osig == sig])


def select_questions(inputs: QuestionerInputs, proposed: list[Candidate]) -> RoundQuestions:
    """Apply seed 000 step 4–6 (docs/seeds.md) to the proposed candidates; deterministic for the same inputs."""
    user_texts = [u.strip() for u in inputs.user_questions if u.strip()]
    all_frames = frames(inputs)
    known_facets = set(facet_names(all_frames))
    # User questions are incorporated verbatim whatever the proposer did with them.
    zh = inputs.language == "zh"
    # Every question reads as the framework's do: 「PAM 和 NSS 是什么？」, not 「PAM 和 NSS是什么？」 (a
    # concept's question, a model's). A key-points question keeps its heading as the documents write it.
    candidates = [
        c.model_copy(update={"text": tidy(c.text, "zh")}) if zh and not key_points_heading(c.text) else c
        for c in proposed
        if c.source != "user"
    ]
    for text in user_texts:
        candidates.append(
            Candidate(
                text=text,
                layer="用户问题" if zh else "user",
                priority="high",
                source="user",
                rationale="用户在 user_questions.md 中插入的问题" if zh else "asked by the user in user_questions.md",
            )
        )
    # The documents' own sections for a facet (sources/outline.py) are on topic by how they were
    # found, and a wiki that mentions their words has not yet said what they say.
    outline = {key_points_question(e.heading, inputs.language, e.document) for e in inputs.outline}
    outline |= {further_key_points_question(e.heading, inputs.language, e.document) for e in inputs.outline}
    # so are the entries found for a facet ("What does assertRaises do?" names no word of the topic)
    outline |= {entry_question(e.name, inputs.language, e.place) for e in inputs.entries}
    expanded: list[Candidate] = []
    off_topic: list[str] = []
    for piece in (p for cand in candidates for p in split_or_drop(cand)):
        if piece.source != "user" and piece.text not in outline and not on_topic(piece.text, all_frames, user_texts):
            if piece.text not in off_topic:
                off_topic.append(piece.text)
            continue
        expanded.append(_with_facet(piece, all_frames, known_facets))
    asked = asked_facets(all_frames, inputs.history)
    ordered = _order(inputs, expanded, asked)

    history: list[Indexed] = [(h.id, features(h.text), signature(h.text, all_frames)) for h in inputs.history]
    asked_texts = {h.text for h in inputs.history}
    passages = cited_groups(Path(inputs.wiki_dir)) if inputs.wiki_dir and not inputs.cold_start else []
    chosen: list[tuple[Candidate, Features, frozenset[str]]] = []
    deduped: list[tuple[Candidate, str]] = []
    seen_dedup: set[str] = set()

    def duplicate_of_chosen(feats: Features, sig: frozenset[str]) -> bool:
        others = [(str(i), f, s) for i, (_, f, s) in enumerate(chosen)]
        return is_duplicate(_repeats(feats, sig, others)[1])

    cut: list[tuple[Candidate, Features, frozenset[str]]] = []  # left out by the round's size alone
    for cand in ordered:
        feats, sig = features(cand.text), signature(cand.text, all_frames)
        if cand.source == "user":
            if len(chosen) < inputs.max_questions:
                chosen.append((cand, feats, sig))
            continue
        limit = inputs.max_questions if cand.priority != "low" else inputs.min_questions
        if len(chosen) >= limit:
            cut.append((cand, feats, sig))
            continue
        # A section's key points are told apart by its heading alone: "Coroutine functions" is not
        # "Coroutine function definition", though the two questions share every other word (the
        # demo never read the first: it was a "duplicate" of the second, round after round).
        sectioned = cand.text in outline
        if duplicate_of_chosen(feats, sig) and (not sectioned or any(c.text == cand.text for c, _, _ in chosen)):
            continue
        hid, score = _repeats(feats, sig, history)
        # A section asked again repeats its first question's words by design (candidates.py); asked
        # again itself, it is a repeat like any other.
        again = sectioned and cand.text not in asked_texts
        if hid is not None and is_duplicate(score) and not again:
            if cand.text not in seen_dedup:
                deduped.append((cand, hid))
                seen_dedup.add(cand.text)
            continue
        if cand.source in {"framework", "raw"} and cand.text not in outline and covered_in(feats, passages) is not None:
            continue
        chosen.append((cand, feats, sig))

    # Top up with re-asks when fewer than the minimum novel questions remain.
    reasked: set[str] = set()
    for cand, hid in list(deduped):
        if len(chosen) >= inputs.min_questions:
            break
        if is_further(cand.text):
            continue  # a section read twice has nothing a third reading finds (its quotes are held)
        feats, sig = features(cand.text), signature(cand.text, all_frames)
        if duplicate_of_chosen(feats, sig):
            continue
        note = f"（重新提问：与 {hid} 相近，仍需深化）" if zh else f" (re-asked: close to {hid}, still needs depth)"
        chosen.append((cand.model_copy(update={"rationale": cand.rationale + note}), feats, sig))
        reasked.add(cand.text)

    # New questions the round had no room for: while some wait, a round of re-asks has not run out
    # of questions (the termination rule's overlap; docs/loop.md, "When the loop stops").
    waiting = {
        cand.text
        for cand, feats, sig in cut
        if cand.text not in asked_texts
        and not duplicate_of_chosen(feats, sig)
        and not is_duplicate(_repeats(feats, sig, history)[1])
        and not is_further(cand.text)
        and (cand.source not in {"framework", "raw"} or cand.text in outline or covered_in(feats, passages) is None)
    }
    questions = _number(inputs.round, [c for c, _, _ in chosen], {h.id for h in inputs.history})
    overlap: float | None = None
    if inputs.round > 1 and questions:
        similar = sum(1 for _, f, s in chosen if is_duplicate(_repeats(f, s, history)[1]))
        overlap = round(similar / len(questions), 4)
    elif inputs.round > 1:
        overlap = 1.0
    return RoundQuestions(
        questions=questions,
        overlap_ratio=overlap,
        deduped_questions=[
            DedupedQuestion(text=c.text, matched_history_id=hid) for c, hid in deduped if c.text not in reasked
        ],
        incorporated_user_questions=[c.text for c, _, _ in chosen if c.source == "user"],
        off_topic_questions=off_topic,
        waiting_questions=len(waiting),
    )


def _with_facet(cand: Candidate, all_frames: list[TopicFrame], known: set[str]) -> Candidate:
    """Keep a proposer's facet when it names a real one; otherwise the question's words decide."""
    if cand.facet in known:
        return cand
    return cand.model_copy(update={"facet": facet_of(cand.text, all_frames)})


def _number(round_n: int, chosen: list[Candidate], history_ids: set[str]) -> list[Question]:
    """Ids ``r<N>q<k>`` in order; framework L2+ questions depend on this round's L1 questions.

    A proposer's ``depends_on`` survives only where it names a real id (this round or history)."""
    ids = [f"r{round_n}q{k}" for k in range(1, len(chosen) + 1)]
    known = set(ids) | history_ids
    l1 = [
        (qid, c.facet)
        for qid, c in zip(ids, chosen, strict=True)
        if c.source == "framework" and c.layer.startswith("L1")
    ]
    out: list[Question] = []
    for qid, cand in zip(ids, chosen, strict=True):
        depends = [d for d in cand.depends_on if d in known]
        if cand.source == "framework" and not cand.layer.startswith("L1"):
            # a facet's deeper questions build on its own definitions (and the subject's)
            base = [d for d, facet in l1 if cand.facet is None or facet in {cand.facet, None}]
            depends = [d for d in base if d not in depends] + depends
        depends = [d for d in depends if d != qid]
        out.append(
            Question(
                id=qid,
                text=cand.text,
                layer=cand.layer,
                priority=cand.priority,
                source=cand.source,
                depends_on=depends,
                rationale=cand.rationale,
                facet=cand.facet,
            )
        )
    return out


__all__ = ["generate_questions", "select_questions", "split_or_drop", "subject_of"]
