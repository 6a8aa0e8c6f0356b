"""Which sentences of a raw file enter the wiki: extractive selection weighted by 质量评分.

Why here and not in the task: the same selection feeds both engines, so a model is given only the
statements worth keeping (bounded input) and the offline engine quotes them verbatim. Weighting
follows docs/contracts.md §1.4: 高 keeps details (up to 12 sentences), 中 and 待评估 the core points (5),
低 explicit facts only (3 sentences that carry a number, a date or a definition).
"""

from __future__ import annotations

import re

from autodidact.sources.rawfiles import RawFile
from autodidact.wiki.common.markdown import (
    CITATION_RE,
    WIKILINK_RE,
    has_cjk,
    is_complete_sentence,
    is_version_note,
    iter_lines_outside_code,
    normalize_key,
    numbers,
    split_sentences,
    strip_emphasis,
    tokens,
)
from autodidact.wiki.common.topics import clean_title
from autodidact.wiki.compile.compile_task import Material

LIMITS = {"高": 12, "中": 5, "待评估": 5, "低": 3}
_SKIP_HEADINGS = {
    normalize_key(h)
    for h in (
        "references",
        "see also",
        "external links",
        "further reading",
        "footnotes",
        "参考文献",
        "参考资料",
        "外部链接",
        "参见",
        "脚注",
    )
}
_DEFINITION = re.compile(r"(?:是指|指的是|是一种|是一个|定义为|称为|被称为|\bis an?\b|\brefers? to\b|\bmeans\b)", re.I)
# A list marker needs the space after it: ``*generator* function`` at a line start is emphasis, not a bullet.
_LIST_MARK = re.compile(r"^\s*(?:[-*+•]\s+|\d+[.)]\s+|\d+、\s*|\[\d+\]\s+|>\s*)")
_SEE_ALSO = re.compile(r"^(?:see also|参见|另请参阅)\s*[:：]?$", re.I)
_RUBRIC = re.compile(r"^-\[\s*(.+?)\s*\]-$")  # pydoc/Sphinx text rubric: ``-[ Footnotes ]-``


def _usable(sentence: str) -> bool:
    if has_cjk(sentence):
        if len(sentence) < 8:
            return False
    elif len(sentence) < 25 or len(sentence.split()) < 4:
        return False
    if len(sentence) > 400 or sentence.endswith((":", "：")):
        return False
    return len(tokens(sentence)) >= 3


def _clean(sentence: str) -> str:
    sentence = WIKILINK_RE.sub(lambda m: (m.group(2) or m.group(1)).strip(), sentence)
    sentence = CITATION_RE.sub("", sentence)
    sentence = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", sentence)
    sentence = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", sentence)
    sentence = strip_emphasis(sentence)
    return " ".join(sentence.split()).strip()


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _paragraphs(body: str) -> list[tuple[str, str, bool, int]]:
    """``(kind, paragraph, is list item, indent)``: hard-wrapped lines joined, list items and headings kept apart.

    A line indented deeper than its paragraph's first line starts a new paragraph unless the
    paragraph is a list item (hanging indent): a definition list's term and its text stay apart.
    """
    out: list[tuple[str, str, bool, int]] = []
    current: list[str] = []
    state = {"indent": 0, "list": False}

    def flush() -> None:
        if current:
            out.append(("", " ".join(current), bool(state["list"]), int(state["indent"])))
        current.clear()

    for _, line in iter_lines_outside_code(body):
        stripped = line.strip()
        head = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line) or _RUBRIC.match(stripped)
        if head:
            flush()
            out.append(("#", head.group(1), False, 0))
            continue
        if not stripped or stripped in {"---", "***"}:
            flush()
            continue
        is_item = bool(_LIST_MARK.match(stripped)) and not stripped.startswith(">")
        deeper = bool(current) and not state["list"] and _indent(line) >= int(state["indent"]) + 2
        if is_item or deeper:
            flush()
        if not current:
            state["indent"], state["list"] = _indent(line), is_item
        current.append(stripped)
    flush()
    return out


def _is_code(paragraph: str) -> bool:
    return "::=" in paragraph or paragraph.startswith((">>>", "$ ", "|", "![", "<")) or paragraph.count("`") > 6


def candidates(rf: RawFile) -> list[tuple[str, str]]:
    """``(heading, sentence)`` pairs in body order, skipping code, tables, reference lists and fragments.

    A paragraph's last sentence must end like a sentence (a line that runs into a code sample,
    "For example, the yield statements", is a fragment); a list item may end without a full stop
    but must start like a sentence (capital, digit, CJK or quote).
    """
    title_key = normalize_key(rf.title)
    heading = ""
    skipping = False
    see_also = False
    out: list[tuple[str, str]] = []
    for kind, paragraph, is_item, indent in _paragraphs(rf.body):
        if kind == "#":
            text = clean_title(paragraph)
            key = normalize_key(text)
            skipping = key in _SKIP_HEADINGS
            heading = "" if key == title_key or len(text) > 60 else text
            continue
        if _SEE_ALSO.match(paragraph):  # "See also:" and the indented references under it
            see_also = True
            continue
        see_also = see_also and indent > 0
        if skipping or see_also or _is_code(paragraph):
            continue
        sentences = split_sentences(_LIST_MARK.sub("", paragraph))
        for n, sentence in enumerate(sentences):
            sentence = _clean(sentence)
            if not _usable(sentence):
                continue
            complete = is_complete_sentence(sentence)
            if is_item and not complete and not is_complete_sentence(sentence + "."):
                continue
            if not is_item and n == len(sentences) - 1 and not complete:
                continue
            out.append((heading, sentence))
    return out


def select_statements(rf: RawFile, title: str, question_texts: list[str], topic: str | None = None) -> list[Material]:
    """The statements of ``rf`` to merge into the article ``title`` (in source order).

    When there is a research ``topic`` or a question, a sentence that shares no word with them (or
    the article's title) is never selected (docs/wiki.md): lines about something else stay out.
    """
    found = candidates(rf)
    quality = rf.quality if rf.quality in LIMITS else "待评估"
    if quality == "低":
        found = [c for c in found if numbers(c[1]) or _DEFINITION.search(c[1])]
    terms = set(tokens(" ".join([title, *question_texts])))
    # Without a research topic or a question, the file itself is the topic: nothing to filter by.
    allowed = terms | set(tokens(topic or "")) if topic or question_texts else set()
    scored: list[tuple[float, int]] = []
    seen: set[str] = set()
    for position, (_, sentence) in enumerate(found):
        key = normalize_key(sentence)
        if key in seen:
            continue
        seen.add(key)
        words = set(tokens(sentence))
        if allowed and not words & allowed:
            continue
        overlap = len(words & terms) / max(1, len(terms))
        note = 1.0 if is_version_note(sentence) else 0.0  # changelog lines: kept only when there is room
        scored.append((2 * overlap + 1 / (1 + 0.15 * position) - note, position))
    keep = sorted(p for _, p in sorted(scored, key=lambda s: (-s[0], s[1]))[: LIMITS[quality]])
    return [
        Material(
            source=rf.filename,
            quality=quality,
            date=rf.fetched_date,
            heading=found[p][0],
            text=found[p][1],
        )
        for p in keep
    ]
