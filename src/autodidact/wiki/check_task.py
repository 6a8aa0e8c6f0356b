"""Phase 1 of the audit: is one question resolved, partial or open, given the retrieved passages?

Why one call per question with only retrieved passages: the audit's model cost must grow with the
number of questions, not with the wiki (ARCHITECTURE principle 6). The offline twin measures how
much of the question's key terms the passages cover and answers with the best-matching sentences,
citing the article file (CONTRACTS §1.5: 2–5 sentences with the wiki source).
"""

from __future__ import annotations

import json
import re
from typing import Literal

from pydantic import BaseModel, Field

from autodidact.llm.tasks import Message, data_block
from autodidact.wiki.compile_task import is_auto_summary
from autodidact.wiki.markdown import MARKER_RE, has_cjk, split_sentences, strip_citations, tokens

RESOLVED_COVERAGE = 0.7
PASSAGE_CHARS = 1500
_ZH_FUNCTION = re.compile(
    r"有哪些|是什么|什么|哪些|如何|怎么|怎样|为什么|为何|是否|有没有|吗|呢|的|了|与|和|及|是|在|中|对"
)


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


GENERIC = frozenset(
    "work use used mean happen get make explain describe example difference differ way kind type thing "  # noqa: SIM905
    "main key important common best good role purpose exactly".split()
)


def key_terms(question: str) -> list[str]:
    """The question's content tokens (question words, particles and generic verbs removed)."""
    return [t for t in dict.fromkeys(tokens(_ZH_FUNCTION.sub(" ", question))) if t not in GENERIC]


def gap_phrase(question: str, missing: set[str]) -> str:
    """The question's words whose tokens the wiki does not cover, in question order."""
    parts: list[str] = []
    for chunk in re.split(r"\s+", _ZH_FUNCTION.sub(" ", question.strip("?？。. "))):
        if not chunk:
            continue
        toks = set(tokens(chunk))
        if toks and len(toks & missing) * 2 >= len(toks) and chunk not in parts:
            parts.append(chunk.strip("，,、；;：:"))
    return "、".join(p for p in parts if p) if has_cjk(question) else ", ".join(p for p in parts if p)


def _sentences(text: str) -> list[str]:
    out: list[str] = []
    for block in text.split("\n"):
        if MARKER_RE.match(block) or "[[" in block:
            continue
        body = re.sub(r"^\s*(?:[-*+]|\d+[.)、])\s+", "", block)
        out.extend(s for s in split_sentences(strip_citations(body)) if len(s) > 6 and not is_auto_summary(s))
    return out


def offline_answer(inputs: QuestionInputs) -> QuestionAnswer:
    """Coverage of key terms decides the status; the best sentences make the answer."""
    terms = key_terms(inputs.question)
    if not terms or not inputs.passages:
        return QuestionAnswer(status="open")
    term_set = set(terms)
    scored: list[tuple[float, int, str, str]] = []
    covered: set[str] = set()
    order = 0
    for passage in inputs.passages:
        for sentence in _sentences(passage.text):
            hit = set(tokens(sentence)) & term_set
            if hit:
                covered |= hit
                scored.append((len(hit) / len(term_set), order, sentence, passage.file))
            order += 1
    if not scored:
        return QuestionAnswer(status="open")
    best = sorted(scored, key=lambda s: (-s[0], s[1]))
    chosen: list[tuple[str, str]] = []
    top = best[0][0]
    for score, _, sentence, file in best:
        if len(chosen) >= 2 and score < top / 2:  # keep the answer on topic once it has two sentences
            break
        if sentence not in (c[0] for c in chosen):
            chosen.append((sentence, file))
        if len(chosen) == 4:
            break
    coverage = len(covered) / len(term_set)
    files = list(dict.fromkeys(f for _, f in chosen))
    zh = inputs.lang == "zh"
    sentences = [
        s if s.endswith(("。", ".", "！", "？", "!", "?")) else s + ("。" if has_cjk(s) else ".") for s, _ in chosen
    ]
    status: Literal["resolved", "partial", "open"] = (
        "resolved" if coverage >= RESOLVED_COVERAGE and len(chosen) >= 2 else "partial"
    )
    gap = ""
    if status == "partial":
        gap = gap_phrase(inputs.question, term_set - covered) or ("细节不足" if zh else "too little detail")
        sentences = [*sentences[:4], f"尚缺：{gap}。" if zh else f"Not yet covered: {gap}."]
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
