"""Sentences of a text as offsets, Chinese and English alike.

Why offsets: a quoted sentence must be an exact substring of its snapshot, so the evidence agent
picks spans, never rewritten text; the audit and the wiki split the same way, so "a sentence
without a citation" means the same thing to the writer and to the auditor. See docs/text.md.
"""

from __future__ import annotations

import re

# Sentence ends: Chinese 。！？ (and ；), English .!?; followed by space, a blank line, or a line that
# starts a heading, list item or table row. A single line break inside a paragraph is not an end.
_SENT_END = re.compile(r"(?<=[。！？；])|(?<=[.!?;])(?=\s)|\n[ \t]*(?:\n|(?=[#>|]|[*+-]\s|\d+\.\s))")


# A period that ends an abbreviation ends no sentence: "the metaclasses (i.e. type(cls))", "e.g. apt".
# "etc." does only when a capital follows it.
_ABBREVIATION = re.compile(r"(?:^|[\s(\[“\"'])(?:i\.e|e\.g|vs|cf|approx|fig|no|sec|dr|mr|mrs|ms|st)\.$", re.I)
_ETC = re.compile(r"(?:^|[\s(])etc\.$", re.I)


def abbreviation_at(text: str, end: int) -> bool:
    """Whether the period just before ``end`` closes an abbreviation rather than a sentence."""
    before = text[max(0, end - 12) : end]
    if _ABBREVIATION.search(before):
        return True
    rest = text[end : end + 3].lstrip()
    return bool(_ETC.search(before)) and rest[:1].islower()


_CODE_SPAN = re.compile(r"`[^`\n]+`")


def mask_code(text: str) -> str:
    """``text`` with the inside of every inline code span blanked (same length): a full stop in
    `` `echo $?` `` or `` `a. B` `` ends no sentence."""
    return _CODE_SPAN.sub(lambda m: "`" + "x" * (len(m.group(0)) - 2) + "`", text)


def _cjk_count(text: str, start: int, stop: int) -> int:
    return sum(1 for ch in text[start:stop] if "\u3400" <= ch <= "\u9fff")


def sentence_spans(text: str, min_chars: int = 12, max_chars: int = 420) -> list[tuple[int, int]]:
    """(start, end) offsets of sentences in ``text``; long ones cut at a clause or word boundary.

    Fragments shorter than ``min_chars`` (and with fewer than five CJK characters) are left out.
    """
    spans: list[tuple[int, int]] = []
    pos = 0
    masked = mask_code(text)
    for match in [*_SENT_END.finditer(masked), None]:
        end = match.start() if match is not None else len(text)
        if match is not None and match.group(0) == "" and text[end - 1] == "." and abbreviation_at(text, end):
            continue
        if match is not None and end == pos:
            pos = match.end()
            continue
        start, stop = pos, end
        while start < stop and text[start] in " \t\r\n-*#>|":
            start += 1
        first = start
        while first > 0 and text[first - 1] == "*":  # not text[:start].rstrip(): quadratic in a long text
            first -= 1
        stars = start - first
        if stars in (1, 2) and text.count("*" * stars, start, stop) % 2 == 1:
            start -= stars  # "**UTF** stands for …": the bold opens the sentence, it is no list marker
        while stop > start and text[stop - 1].isspace():
            stop -= 1
        while stop - start > max_chars:
            cut = max(text.rfind(ch, start + min_chars, start + max_chars) for ch in (",", "，", "、", " "))
            cut = cut + 1 if cut > start else start + max_chars
            spans.append((start, cut))
            start = cut
            while start < stop and text[start].isspace():
                start += 1
        if stop - start >= min_chars or _cjk_count(text, start, stop) >= 5:
            spans.append((start, stop))
        pos = match.end() if match is not None else len(text)
    return spans


def split_sentences(text: str, min_chars: int = 1) -> list[str]:
    """The sentences of ``text`` as strings (whitespace inside each collapsed)."""
    return [" ".join(text[s:e].split()) for s, e in sentence_spans(text, min_chars=min_chars)]


_FULL_WIDTH = "。！？；：，、）」』"


def join_sentences(sentences: list[str], zh: bool) -> str:
    """Sentences as one paragraph: a space between English ones, none after Chinese ones.

    Why not one joiner per language: a Chinese summary of English documents quotes English
    sentences, and "objects.Action objects" glued by the Chinese joiner reads as one broken word.
    """
    out = ""
    for sentence in (s.strip() for s in sentences):
        if not sentence:
            continue
        chinese_edge = _cjk_count(out, len(out) - 1, len(out)) or out[-1:] in _FULL_WIDTH or _cjk_count(sentence, 0, 1)
        if out and (not zh or not chinese_edge):
            out += " "
        out += sentence
    return out
