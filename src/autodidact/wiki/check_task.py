"""Phase 1 of the audit: is one question resolved, partial or open, given the retrieved passages?

Why one call per question with only retrieved passages: the audit's model cost must grow with the
number of questions, not with the wiki (ARCHITECTURE principle 6). The offline twin measures how
much of the question's key terms the passages cover and answers with the best-matching sentences,
citing the article file (CONTRACTS §1.5: 2–5 sentences with the wiki source).
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, Field

from autodidact.llm.tasks import Message, data_block
from autodidact.wiki.compile_task import is_auto_summary
from autodidact.wiki.markdown import (
    MARKER_RE,
    has_cjk,
    normalize_key,
    split_sentences,
    strip_bullet,
    strip_citations,
    strip_emphasis,
    summary_worthy,
    tokens,
)
from autodidact.wiki.question_frame import aspect_gap, aspect_of, content_gap, key_terms

RESOLVED_COVERAGE = 0.7
PASSAGE_CHARS = 1500
MAX_ANSWER_SENTENCES = 4  # plus the "not yet covered" sentence of a partial answer: 2-5 in all


class PassageIn(BaseModel):
    title: str
    file: str = Field(description="wiki/<stem>.md")
    heading: str = ""
    text: str


class QuestionInputs(BaseModel):
    qid: str
    question: str
    lang: str
    passages: list[PassageIn] = Field(default_factory=list)


class QuestionAnswer(BaseModel):
    """The verdict on one question."""

    status: Literal["resolved", "partial", "open"] = Field(
        description="resolved = specific, sufficient coverage; partial = related but incomplete; open = nothing"
    )
    answer: str = Field(default="", description="2-5 sentences from the passages, ending with the wiki file cited")
    gap: str = Field(default="", description="for partial: what is missing")
    files: list[str] = Field(default_factory=list, description="wiki files the answer uses")


def _sentences(text: str) -> list[str]:
    """Stand-alone sentences of a passage: citations, bullets, emphasis markers and the framing line removed."""
    out: list[str] = []
    for block in text.split("\n"):
        if MARKER_RE.match(block) or "[[" in block:
            continue
        for sentence in split_sentences(strip_emphasis(strip_citations(strip_bullet(block)))):
            sentence = " ".join(sentence.split())
            if len(sentence) > 6 and not is_auto_summary(sentence):
                out.append(sentence)
    return out


def _terminated(sentence: str) -> str:
    if sentence.endswith(("。", ".", "！", "？", "!", "?", "…")):
        return sentence
    return sentence + ("。" if has_cjk(sentence) else ".")


def offline_answer(inputs: QuestionInputs) -> QuestionAnswer:
    """Coverage of the question's content terms (and of its aspect) decides the status.

    The answer is 2-5 distinct sentences (deduplicated after normalisation) from the passages that
    cover the most content terms — those showing the asked aspect first — citing the articles they
    came from.
    """
    terms = key_terms(inputs.question)
    if not terms or not inputs.passages:
        return QuestionAnswer(status="open")
    zh = inputs.lang == "zh"
    aspect = aspect_of(inputs.question)
    term_set = set(terms)
    scored: list[tuple[float, int, str, str]] = []
    covered: set[str] = set()
    aspect_seen = aspect is None
    seen: set[str] = set()
    order = 0
    for passage in inputs.passages:
        for sentence in _sentences(passage.text):
            key = normalize_key(sentence)
            hit = set(tokens(sentence)) & term_set
            if not hit or key in seen:
                continue
            seen.add(key)
            covered |= hit
            shows = aspect is not None and aspect.cues.search(sentence) is not None
            aspect_seen = aspect_seen or shows
            score = len(hit) / len(term_set) + (0.5 if shows else 0.0) + (0.1 if summary_worthy(sentence) else -0.2)
            scored.append((score, order, sentence, passage.file))
            order += 1
    if not scored:
        return QuestionAnswer(status="open")
    best = sorted(scored, key=lambda s: (-s[0], s[1]))
    chosen: list[tuple[str, str]] = []
    top = best[0][0]
    for score, _, sentence, file in best:
        if len(chosen) >= 2 and score < top / 2:  # keep the answer on topic once it has two sentences
            break
        chosen.append((sentence, file))
        if len(chosen) == MAX_ANSWER_SENTENCES:
            break
    coverage = len(covered) / len(term_set)
    files = list(dict.fromkeys(f for _, f in chosen))
    sentences = [_terminated(s) for s, _ in chosen]
    enough = coverage >= RESOLVED_COVERAGE and len(chosen) >= 2
    status: Literal["resolved", "partial", "open"] = "resolved" if enough and aspect_seen else "partial"
    gap = ""
    if status == "partial":
        parts = [content_gap(inputs.question, term_set - covered, zh)] if coverage < RESOLVED_COVERAGE else []
        if aspect is not None and not aspect_seen:
            parts.append(aspect_gap(aspect, inputs.question, zh))
        gap = ("；" if zh else "; ").join(p for p in parts if p) or ("更多细节" if zh else "more detail")
        sentences.append(f"尚缺：{gap}。" if zh else f"Not yet covered: {gap}.")
    cite = ("（来源：" + "、".join(files) + "）") if zh else (" (source: " + ", ".join(files) + ")")
    answer = ("" if zh else " ").join(sentences) + cite
    return QuestionAnswer(status=status, answer=answer, gap=gap, files=files)


class AnswerQuestionTask:
    """``wiki.answer_question``: one question plus its retrieved wiki passages."""

    name = "wiki.answer_question"
    Output = QuestionAnswer

    def build_prompt(self, inputs: QuestionInputs) -> list[Message]:
        passages = [p.model_dump() for p in inputs.passages]
        system_line, block = data_block(json.dumps(passages, ensure_ascii=False, indent=1), "wiki passages")
        if inputs.lang == "zh":
            rules = (
                "你在审计知识库对一个问题的覆盖。只根据给出的段落判断：resolved=具体且充分；partial=相关但不完整"
                "（在 gap 中写明缺什么）；open=没有相关内容。resolved/partial 给出 2–5 句回答，"
                "并以（来源：wiki/文件.md）注明所用文章。"
            )
        else:
            rules = (
                "You audit how well a knowledge base covers one question, judging only from the passages given: "
                "resolved = specific and sufficient; partial = related but incomplete (say what is missing in gap); "
                "open = nothing relevant. For resolved/partial answer in 2-5 sentences ending with "
                "(source: wiki/file.md) naming the articles used."
            )
        return [
            {"role": "system", "content": f"{rules}\n{system_line}"},
            {"role": "user", "content": f"Question {inputs.qid}: {inputs.question}\n\n{block}"},
        ]

    def offline(self, inputs: QuestionInputs) -> QuestionAnswer:
        return offline_answer(inputs)
