"""Phase 1 of the audit: is one question resolved, partial or open, given the retrieved passages?

Why one call per question with only retrieved passages: the audit's model cost must grow with the
number of questions, not with the wiki (docs/architecture.md principle 6). The offline twin answers with the
passage sentences that hold the question's key terms, citing the article file (docs/contracts.md §1.5: 2–5
sentences with the wiki source), and judges from what that answer holds. Every verdict, a model's
too, then passes :func:`honest_verdict`: ``resolved`` only when the answer holds the question's key
terms (docs/audit.md).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from autodidact.llm.tasks import Message, data_block
from autodidact.text.keypoints import key_points_heading
from autodidact.text.sentences import join_sentences
from autodidact.text.support import supported
from autodidact.wiki.common.markdown import (
    MARKER_RE,
    has_cjk,
    is_auto_summary,
    normalize_key,
    split_sentences,
    strip_bullet,
    strip_citations,
    strip_emphasis,
    summary_worthy,
    tokens,
)
from autodidact.wiki.common.question_frame import (
    Aspect,
    KeyTerm,
    aspect_gap,
    aspect_of,
    held_terms,
    key_terms,
    missing_terms_gap,
    question_terms,
)

PASSAGE_CHARS = 1500
MAX_ANSWER_SENTENCES = 4  # plus the "not yet covered" sentence of a partial answer: 2-5 in all
GAP_LEAD = {"zh": "尚缺：", "en": "Not yet covered: "}


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
    # The research's subject ("Debian package management"): its words are in every passage, so an
    # answer sentence must name what the question asks beyond them (docs/audit.md).
    subject: str = ""


class QuestionAnswer(BaseModel):
    """The verdict on one question."""

    status: Literal["resolved", "partial", "open"] = Field(
        description="resolved = specific, sufficient coverage; partial = related but incomplete; open = nothing"
    )
    answer: str = Field(default="", description="2-5 sentences from the passages, ending with the wiki file cited")
    gap: str = Field(default="", description="for partial: what is missing")
    files: list[str] = Field(default_factory=list, description="wiki files the answer uses")


def _sentences(text: str) -> list[str]:
    """Stand-alone sentences of a passage: citations, bullets, quote markers, emphasis and the framing
    line removed; link lines and ``> ⚠️ 待核实`` markers skipped."""
    out: list[str] = []
    for block in text.split("\n"):
        if MARKER_RE.match(block) or "[[" in block:
            continue
        block = _QUOTE_LINE.sub("", strip_bullet(block))
        for sentence in split_sentences(strip_emphasis(strip_citations(block))):
            sentence = " ".join(sentence.split())
            if len(sentence) > 6 and not is_auto_summary(sentence):
                out.append(sentence)
    return out


_QUOTE_LINE = re.compile(r"^\s*>\s?")


def _terminated(sentence: str) -> str:
    """The sentence with a full stop: a trailing ";" or "；" (a list item's) becomes one."""
    if sentence.endswith(("。", ".", "！", "？", "!", "?", "…")):
        return sentence
    body = sentence.rstrip(";；,，:：")
    return body + ("。" if has_cjk(body) else ".")


@dataclass
class _Candidate:
    sentence: str
    file: str
    held: frozenset[str]  # the key-term words this sentence holds
    shows_aspect: bool
    score: float
    order: int


def _heading_matches(heading: str, question: str, wanted: set[str]) -> bool:
    """A section written for this question (an answer block): same words, or all its key terms."""
    if not heading.strip():
        return False
    if normalize_key(heading) == normalize_key(question):
        return True
    return bool(wanted) and wanted <= set(key_terms(heading))


def _candidates(inputs: QuestionInputs, terms: list[KeyTerm], aspect: Aspect | None) -> list[_Candidate]:
    """Every distinct passage sentence that holds at least one key term, scored."""
    out: list[_Candidate] = []
    seen: set[str] = set()
    wanted = set(key_terms(inputs.question))
    for passage in inputs.passages:
        own = _heading_matches(passage.heading, inputs.question, wanted)
        for sentence in _sentences(passage.text):
            key = normalize_key(sentence)
            if key in seen:
                continue
            held, _ = held_terms(terms, sentence)
            if not held:
                continue
            seen.add(key)
            shows = aspect is not None and aspect.cues.search(sentence) is not None
            score = (
                len(held) / len(terms)
                + (0.5 if shows else 0.0)
                + (0.1 if summary_worthy(sentence) else -0.2)
                + (0.3 if own else 0.0)
            )
            out.append(_Candidate(sentence, passage.file, frozenset(t.word for t in held), shows, score, len(out)))
    return out


def _on_head(cands: list[_Candidate], terms: list[KeyTerm], subject: str) -> list[_Candidate]:
    """Only sentences naming a term the question asks beyond the research's subject, when any does.

    "What is the role of dpkg in Debian package management?" is not answered by "Let's learn how the
    Debian package management system works internally": it holds three of the four key terms, but
    those three are on every page of the research.
    """
    if not subject.strip():
        return cands
    common = set(key_terms(subject))
    heads = {t.word for t in terms if not t.tokens <= common}
    if not heads or len(heads) == len(terms):
        return cands
    named = [c for c in cands if c.held & heads]
    return named or cands


def _choose(cands: list[_Candidate], aspect: Aspect | None) -> list[_Candidate]:
    """2–4 sentences: the best one, then those that add key terms the answer lacks (and the asked
    aspect), then the best of the rest while they stay on topic."""
    ranked = sorted(cands, key=lambda c: (-c.score, c.order))
    chosen = [ranked[0]]
    covered = set(ranked[0].held)
    while len(chosen) < MAX_ANSWER_SENTENCES:
        adds = [c for c in ranked if c not in chosen and c.held - covered]
        if not adds:
            break
        best = max(adds, key=lambda c: (len(c.held - covered), c.score, -c.order))
        chosen.append(best)
        covered |= best.held
    if aspect is not None and not any(c.shows_aspect for c in chosen):
        showing = [c for c in ranked if c.shows_aspect and c not in chosen]
        if showing:
            if len(chosen) == MAX_ANSWER_SENTENCES:
                chosen.pop()
            chosen.append(showing[0])
    top = ranked[0].score
    for cand in ranked:
        if len(chosen) >= MAX_ANSWER_SENTENCES or (len(chosen) >= 2 and cand.score < top / 2):
            break
        if cand not in chosen:
            chosen.append(cand)
    return chosen


def _cite(files: list[str], zh: bool) -> str:
    return ("（来源：" + "、".join(files) + "）") if zh else (" (source: " + ", ".join(files) + ")")


def offline_answer(inputs: QuestionInputs) -> QuestionAnswer:
    """The verdict from the sentences the answer quotes (docs/audit.md).

    The answer is 2-5 distinct passage sentences that hold the question's key terms — chosen so that
    together they hold as many of them as the passages allow, the asked aspect shown. Then the rule:
    the answer holds every key term (and shows the aspect, with two sentences or more) → resolved;
    some → partial, the missing terms named as the gap; none → open.
    """
    if key_points_heading(inputs.question):
        return _key_points_answer(inputs)
    terms = question_terms(inputs.question)
    if not terms or not inputs.passages:
        return QuestionAnswer(status="open")
    zh = inputs.lang == "zh"
    aspect = aspect_of(inputs.question)
    cands = _on_head(_candidates(inputs, terms, aspect), terms, inputs.subject)
    if not cands:
        return QuestionAnswer(status="open")
    chosen = _choose(cands, aspect)
    held = {w for c in chosen for w in c.held}
    missing = [t for t in terms if t.word not in held]
    # A sentence is read under its article's title: "Python" of "What is the definition of Python
    # generators?" is held by the article "Python generators" it stands in, not a gap the next
    # round must close ("missing: Python" re-asked the same question forever).
    titles = " ".join(p.title for p in inputs.passages if p.file in {c.file for c in chosen})
    if missing and titles:
        _, still = held_terms(missing, titles)
        if len(still) < len(missing) and any(t.word in held for t in terms):
            missing = still
    # "What problems are solved by Lock and Event in coordinating asyncio coroutines?": the research's
    # subject placed the facet; an answer about Lock and Event need not repeat "coordinating" (the
    # summary listed "missing: coordinating" as the gap). The subject's words are a gap only when
    # the question asks about nothing else.
    common = set(key_terms(inputs.subject)) if inputs.subject.strip() else set()
    if common and any(not t.tokens <= common for t in terms) and any(t.word in held for t in terms):
        missing = [t for t in missing if not t.tokens <= common]
    aspect_seen = aspect is None or any(c.shows_aspect for c in chosen)
    files = list(dict.fromkeys(c.file for c in chosen))
    sentences = [_terminated(c.sentence) for c in chosen]
    status: Literal["resolved", "partial", "open"] = (
        "resolved" if not missing and aspect_seen and len(chosen) >= 2 else "partial"
    )
    gap = ""
    if status == "partial":
        parts = [missing_terms_gap(inputs.question, missing, zh)]
        if aspect is not None and not aspect_seen:
            parts.append(aspect_gap(aspect, inputs.question, zh))
        gap = ("；" if zh else "; ").join(p for p in parts if p) or ("更多细节" if zh else "more detail")
        sentences.append(GAP_LEAD["zh" if zh else "en"] + gap + ("。" if zh else "."))
    answer = join_sentences(sentences, zh) + _cite(files, zh)  # English quotes keep their spaces in Chinese
    return QuestionAnswer(status=status, answer=answer, gap=gap, files=files)


def _key_points_answer(inputs: QuestionInputs) -> QuestionAnswer:
    """ "Key points of “X”" asks what section X says, not for X's words: it is answered by the
    wiki's answer block for it (its own heading) — resolved by what that block quotes, since the
    evidence agent quoted the section as far as it goes (a short section has one point)."""
    own = [p for p in inputs.passages if normalize_key(p.heading) == normalize_key(inputs.question)]
    chosen: list[tuple[str, str]] = []
    seen: set[str] = set()
    for passage in own:
        for sentence in _sentences(passage.text):
            key = normalize_key(sentence)
            if key not in seen and len(chosen) < MAX_ANSWER_SENTENCES:
                seen.add(key)
                chosen.append((sentence, passage.file))
    if not chosen:
        return QuestionAnswer(status="open")
    zh = inputs.lang == "zh"
    files = list(dict.fromkeys(f for _, f in chosen))
    answer = join_sentences([_terminated(s) for s, _ in chosen], zh) + _cite(files, zh)
    return QuestionAnswer(status="resolved", answer=answer, files=files)


# Sentences of an answer that say what is *not* there: they name missing terms, so they must not
# count as holding them.
_ABSENCE = re.compile(
    r"^(?:尚缺|未覆盖|not yet covered|missing)\s*[:：]|"
    r"\b(?:not (?:yet )?(?:covered|mentioned|explained|described|discussed|addressed)|no information|"
    r"(?:does|do|did) not (?:say|mention|explain|describe|cover|discuss)|nothing (?:about|on))\b|"
    r"(?:没有|未|并未|尚未)(?:提及|说明|涉及|覆盖|解释|介绍|提到)|尚缺",
    re.I,
)


def answer_supported(answer: str, inputs: QuestionInputs) -> bool:
    """Every sentence the answer asserts is held by the retrieved passages (``text/support.py``):
    an answer feeds the termination rule and the research summary, so it may not add to them."""
    texts = [strip_citations(p.text) for p in inputs.passages]
    if not texts:
        return True
    return all(supported(sentence, texts) for sentence in split_sentences(answer_body(answer)))


def answer_body(answer: str) -> str:
    """What an answer asserts: citations removed, and its "not covered" sentences left out."""
    kept = [s for s in split_sentences(strip_citations(answer)) if not _ABSENCE.search(s)]
    return " ".join(kept)


@functools.cache
def _instruction_tokens() -> frozenset[str]:
    """The words of the schema's field descriptions and of the task's rules (both languages)."""
    texts = [str(f.description or "") for f in QuestionAnswer.model_fields.values()]
    texts += [AnswerQuestionTask.RULES["zh"], AnswerQuestionTask.RULES["en"]]
    return frozenset(tokens(" ".join(texts)))


def echoes_instructions(text: str, inputs: QuestionInputs) -> bool:
    """True when ``text`` repeats the task's schema descriptions or rules instead of answering.

    Echo = most of its words come from the instructions and few from the passages (a real answer
    about "wiki files" still quotes its passages).
    """
    words = set(tokens(strip_citations(text)))
    if not words:
        return False
    instructions = _instruction_tokens()
    if len(words & instructions) < 0.6 * len(words):
        return False
    passages = set(tokens(" ".join(p.text for p in inputs.passages)))
    return len((words & passages) - instructions) < 0.3 * len(words)


def honest_verdict(inputs: QuestionInputs, verdict: QuestionAnswer) -> QuestionAnswer:
    """Hold any verdict (a model's above all) to the key-term rule of docs/audit.md.

    An answer or gap that merely echoes the schema descriptions or the rules is rejected, and the
    verdict is made again from the same passages by :func:`offline_answer`. A ``resolved`` whose answer
    lacks some key terms becomes ``partial`` naming them; an answer with none of them is ``open``.
    Files the answer cites that were not among the passages are dropped.
    """
    if verdict.status == "open":
        return QuestionAnswer(status="open")
    if echoes_instructions(verdict.answer, inputs) or (verdict.gap and echoes_instructions(verdict.gap, inputs)):
        return offline_answer(inputs)
    terms = question_terms(inputs.question)
    if not terms:
        return verdict
    zh = inputs.lang == "zh"
    held, missing = held_terms(terms, answer_body(verdict.answer))
    if not held:
        return QuestionAnswer(status="open")
    if not answer_supported(verdict.answer, inputs):  # it says what its passages do not (docs/writing.md)
        return offline_answer(inputs)
    known = {p.file for p in inputs.passages}
    files = [f for f in verdict.files if f in known]
    if not missing:
        return verdict.model_copy(update={"files": files})
    term_gap = missing_terms_gap(inputs.question, missing, zh)
    gap = verdict.gap.strip()
    if term_gap and not all(t.word.casefold() in gap.casefold() for t in missing):
        gap = (gap + ("；" if zh else "; ") + term_gap) if gap else term_gap
    return verdict.model_copy(update={"status": "partial", "gap": gap, "files": files})


class AnswerQuestionTask:
    """``wiki.answer_question``: one question plus its retrieved wiki passages."""

    name = "wiki.answer_question"
    Output = QuestionAnswer
    max_tokens = 700  # a verdict and 2-5 sentences (docs/models.md, "Output bounds")

    def settle(self, inputs: QuestionInputs, output: QuestionAnswer) -> QuestionAnswer:
        """A model's verdict held to the key-term rule (the offline engine answers by it already)."""
        return honest_verdict(inputs, output)

    def shrink(self, inputs: QuestionInputs) -> QuestionInputs | None:
        """One passage fewer (the last retrieved): for a prompt that does not fit the context."""
        if len(inputs.passages) <= 1:
            return None
        return inputs.model_copy(update={"passages": inputs.passages[:-1]})

    RULES = {
        "zh": (
            "你在审计知识库对一个问题的覆盖。只根据给出的段落判断：resolved=具体且充分；partial=相关但不完整"
            "（在 gap 中写明缺什么）；open=没有相关内容。resolved/partial 给出 2–5 句回答，"
            "并以（来源：wiki/文件.md）注明所用文章。回答必须包含问题的关键词，否则不算 resolved。"
        ),
        "en": (
            "You audit how well a knowledge base covers one question, judging only from the passages given: "
            "resolved = specific and sufficient; partial = related but incomplete (say what is missing in gap); "
            "open = nothing relevant. For resolved/partial answer in 2-5 sentences ending with "
            "(source: wiki/file.md) naming the articles used. An answer that does not contain the question's "
            "key terms is not resolved."
        ),
    }

    def build_prompt(self, inputs: QuestionInputs) -> list[Message]:
        passages = [p.model_dump() for p in inputs.passages]
        system_line, block = data_block(json.dumps(passages, ensure_ascii=False, indent=1), "wiki passages")
        rules = self.RULES["zh" if inputs.lang == "zh" else "en"]
        return [
            {"role": "system", "content": f"{rules}\n{system_line}"},
            {"role": "user", "content": f"Question {inputs.qid}: {inputs.question}\n\n{block}"},
        ]

    def offline(self, inputs: QuestionInputs) -> QuestionAnswer:
        return offline_answer(inputs)
