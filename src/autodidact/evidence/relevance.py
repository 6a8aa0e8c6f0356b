"""Does a passage or sentence answer the *kind* of question asked, and may it be quoted at all?

Why: term overlap finds text about X, not text that answers "what is X" or "show an example of
X". A definition question is answered by a defining sentence ("… is called a generator
function", "X is a …", "X 是指 …") that names the subject; an example question by text that
shows one ("For example", code). And some text shares the question's words without saying
anything: a "See also" block that lists a PEP's title, a table of contents. Those are never
quoted as evidence.
"""

from __future__ import annotations

import re

from autodidact.evidence.textscore import kept_stopwords, sentence_spans, terms

_DEFINING = re.compile(
    r"\b(?:is|are) (?:a|an|the|one|any|called)\b|\b(?:is|are) (?:\w+ ){1,2}(?:that|which|whose)\b|"
    r"\brefers? to\b|\bmeans\b|\b(?:is|are) defined\b|\bdenotes?\b|\bknown as\b|\bcalled\b|"
    r"是指|是一种|是一个|是一类|定义为|称为|指的是",
    re.IGNORECASE,
)
_EXAMPLE = re.compile(r"\bexamples?\b|\be\.g\.|\bfor instance\b|\bsuch as\b|例如|比如|示例|例子|举例", re.I)
# Cue words by which a sentence shows an aspect (the wiki audit reads answers the same way).
_CUES = {
    # a path or a configuration file's name: what answers "where"
    "location": re.compile(
        r"(?:^|[\s`\"'(“「])(?:~?/[\w.-]+(?:/[\w.*-]+)*/?)|\b[\w-]+\.(?:conf|list|cfg|ini|toml|ya?ml|d)\b"
    ),
    "limitations": re.compile(
        r"\b(?:cannot|can't|only|not allowed|illegal|limitations?|drawbacks?|restrict\w*|must not|may not|unable|"
        r"forbidden|not supported|SyntaxError)\b|不能|无法|限制|只能|缺点|局限|不支持|不可",
        re.I,
    ),
    "purpose": re.compile(
        r"\b(?:used for|allows?|lets?|enables?|makes? it possible|so that|in order to|avoids?|useful|simplif\w+|"
        r"efficient\w*|purpose|benefits?|advantages?)\b|用于|使得|允许|避免|解决|无需|简化|高效",
        re.I,
    ),
    "use-cases": re.compile(
        r"\b(?:useful|suitable|used for|ideal|appropriate|good fit|well suited|recommended|when to use)\b"
        r"|适合|适用|场景|用于",
        re.I,
    ),
    "compare": re.compile(
        r"\b(?:unlike|whereas|instead of|rather than|differs?|different|compared?|equivalent|similar|same as|"
        r"except|alternatives?)\b|区别|不同|相比|替代|类似|等价",
        re.I,
    ),
    "variants": re.compile(
        r"\b(?:variants?|types?|kinds?|forms?|both|either|another)\b|变体|类型|种类|形式|两种", re.I
    ),
    "mechanism": re.compile(
        r"\b(?:calls?|called|execut\w+|suspend\w*|resum\w+|invok\w+|steps?|until|each time|works? by|"
        r"internally|consists? of)\b|执行|调用|过程|暂停|恢复|返回|步骤",
        re.I,
    ),
}
CUE_BONUS = 0.4
_CODE_LINE = re.compile(r"^(?: {3,}|\t)\S.*(?:[()=:\[\]]|>>>)", re.M)
_SEE_ALSO = re.compile(r"^([ \t]*)(?:see also|参见|另请参阅|相关链接)[ \t]*[:：]?[ \t]*$", re.I | re.M)
_RUBRIC = re.compile(r"^[ \t]*-\[\s*(?:footnotes?|脚注)\s*\]-[ \t]*$", re.I | re.M)
# A table's header row: the row right above its "|---|" separator names columns, it states nothing.
_TABLE_HEAD = re.compile(r"^[ \t]*\|[^\n]*\|[ \t]*\n(?=[ \t]*\|[ \t:|-]*-[ \t:|-]*\|[ \t]*$)", re.M)
_REFERENCE_LIKE = re.compile(r"^\s*(?:see also\b|参见|\**PEP \d+\**\s*[-–—])|\*\*PEP \d+\*\*", re.I)
# A pointer to another part of the document: "see Section 2.4.3, “Safeguarding for package problems”",
# 「参见第 2.4.3 节“…”」, "(see apt_preferences(5))".
_POINTER = re.compile(
    r"\(?\b(?:see|refer to|cf\.)\s+(?:also\s+)?(?:section|chapter|§|table|figure)?\s*[\d.]*,?\s*(?:“[^”]*”|\"[^\"]*\"|"
    r"`?[\w.-]+`?\(\d\)`?)?\)?|\(?(?:参见|请参阅|详见)[^。；，,)）]*[)）]?",
    re.I,
)

DEFINITION_BONUS = 0.6
EXAMPLE_BONUS = 0.5


_POINTING_WORDS = frozenset({"it", "this", "that", "they", "these", "such"})


def defines(sentence: str, subject: list[str]) -> bool:
    """A defining sentence whose defined term (its definiendum) names one of the subject terms.

    "X is a …", "X refers to …": X is before the cue; "… is called a X", "known as X": after it.
    """
    keep = kept_stopwords([subject])
    for m in _DEFINING.finditer(sentence):
        cue = m.group(0).lower()
        before = sentence[: m.start()].split()
        # "If a variable is used in a block but not defined there, it is a free variable": a pronoun
        # before the cue points back to a description, and the term defined may stand on either side
        # ("When the timeout argument is present, it is a floating point number").
        pointed = len(before) > 1 and before[-1].lower() in _POINTING_WORDS and cue.startswith(("is", "are"))
        if "called" in cue or "known" in cue or cue in ("称为",):
            defined = " ".join(sentence[m.end() :].split()[:6])
        elif pointed:
            defined = " ".join(before[-8:] + sentence[m.end() :].split()[:6])
        else:
            defined = " ".join(before[-8:])
        if set(terms(defined, keep=keep)) & set(subject):
            return True
    return False


def shows_example(text: str) -> bool:
    """Text that gives an example: an example cue or an indented code line."""
    return bool(_EXAMPLE.search(text) or _CODE_LINE.search(text))


def aspect_bonus(aspect: str, text: str, subject: list[str]) -> float:
    """Extra weight (0..1) for a passage that shows the asked aspect."""
    if aspect == "definition":
        return DEFINITION_BONUS if any(defines(text[s:e], subject) for s, e in sentence_spans(text)) else 0.0
    if aspect == "example":
        return EXAMPLE_BONUS if shows_example(text) else 0.0
    cue = _CUES.get(aspect)
    return CUE_BONUS if cue is not None and cue.search(text) else 0.0


def sentence_bonus(aspect: str, sentence: str, subject: list[str]) -> float:
    """Extra weight (0..1) for a sentence that shows the asked aspect itself."""
    if aspect == "definition":
        return DEFINITION_BONUS if defines(sentence, subject) else 0.0
    if aspect == "example":
        return EXAMPLE_BONUS if _EXAMPLE.search(sentence) else 0.0
    cue = _CUES.get(aspect)
    return CUE_BONUS if cue is not None and cue.search(sentence) else 0.0


def unquotable_ranges(text: str) -> list[tuple[int, int]]:
    """Offsets of "See also" blocks and footnote rubrics (the heading plus its indented lines) and of
    tables' header rows."""
    out: list[tuple[int, int]] = [(m.start(), m.end()) for m in _TABLE_HEAD.finditer(text)]
    for m in _SEE_ALSO.finditer(text):
        indent = len(m.group(1).expandtabs())
        pos = m.end()
        end = len(text)
        for line in re.finditer(r"[^\n]*\n?", text[pos:]):
            body = line.group(0)
            if not body:
                break
            if body.strip() and len(body) - len(body.lstrip(" \t")) <= indent:
                end = pos + line.start()
                break
        out.append((m.start(), end))
    for m in _RUBRIC.finditer(text):
        out.append((m.start(), len(text)))  # footnotes run to the end of the section
    return out


def quotable(sentence: str, start: int, blocked: list[tuple[int, int]]) -> bool:
    """Not inside a "See also" block or footnotes, not a reference line, and not only a pointer."""
    if any(s <= start < e for s, e in blocked):
        return False
    return not _REFERENCE_LIKE.search(sentence) and not pointer_only(sentence) and not lead_in(sentence)


def lead_in(sentence: str) -> bool:
    """A short line that only introduces what follows ("Help on module logging.config in logging:",
    "Currently, we recommend the following:"): it ends with a colon and states nothing itself."""
    clean = sentence.strip()
    if not clean.endswith((":", "：")):
        return False
    return len(re.findall(r"[A-Za-z][\w'-]*", clean)) < 8 and len(re.findall(r"[\u4e00-\u9fff]", clean)) < 12


_POINTING = re.compile(
    r"^\s*(?:(?:for|on|about|regarding|to|if)\b[^,，]{0,80}[,，]\s*)?(?:please\s+)?(?:see|refer to)\s+"
    r"(?:also\s+)?(?:section|chapter|§|table|the\b|[`\w.-]+\(\d\))|^\s*(?:参见|请参阅|详见)",
    re.I,
)


def pointer_only(sentence: str) -> bool:
    """A sentence whose content is a pointer elsewhere ("For daily upgrade in unstable, see Section
    2.4.3, “Safeguarding for package problems”."): it answers nothing by itself. What is left after
    the pointers are taken out must hold at least four words (or eight Chinese characters)."""
    if _POINTING.match(sentence):
        return True  # its main verb is "see": the imperative of a cross-reference
    if not _POINTER.search(sentence):
        return False
    rest = _POINTER.sub(" ", sentence)
    words = re.findall(r"[A-Za-z][\w'-]*", rest)
    cjk = re.findall(r"[\u4e00-\u9fff]", rest)
    return len(words) < 4 and len(cjk) < 8
