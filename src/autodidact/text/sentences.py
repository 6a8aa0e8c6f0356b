"""Sentences of a text as offsets, Chinese and English alike.

Why offsets: a quoted sentence must be an exact substring of its snapshot, so the evidence agent
picks spans, never rewritten text; the audit and the wiki split the same way, so "a sentence
without a citation" means the same thing to the writer and to the auditor. See docs/text.md.
"""

from __future__ import annotations

import re

# Words whose period ends an abbreviation, not a sentence: "the metaclasses (i.e. type(cls))",
# "e.g. apt". "etc." ends one only when a capital follows it.
_OPENERS = "\\s(\\[“\"'"
_ABBREVIATIONS = ("i.e", "e.g", "vs", "cf", "approx", "fig", "no", "sec", "dr", "mr", "mrs", "ms", "st")
_ETC_OPENERS = "\\s("
_ABBREVIATION = re.compile(f"(?:^|[{_OPENERS}])(?:{'|'.join(map(re.escape, _ABBREVIATIONS))})\\.$", re.I)
_ETC = re.compile(f"(?:^|[{_ETC_OPENERS}])etc\\.$", re.I)


def _not_after(words: tuple[str, ...], openers: str) -> str:
    """Lookbehinds that fail right after ``word.`` at the text's start or after one of ``openers``
    (what :data:`_ABBREVIATION` and :data:`_ETC` match, written as fixed-width lookbehinds)."""
    return "".join(f"(?<![{openers}]{re.escape(w)}\\.)(?<!^{re.escape(w)}\\.)" for w in words)


# Sentence ends: Chinese 。！？ (and ；), English .!?; followed by space, a blank line, or a line that
# starts a heading, list item or table row. A single line break inside a paragraph is not an end.
# One pattern whose every match starts with one of a few characters, so the regex engine skips to
# them instead of trying each alternative at every position (issue 18: this scan was a third of
# indexing a document); an abbreviation's period is ruled out inside it, and "etc." marked for the
# one check a pattern cannot make (is the next word lowercase?). A punctuation match ends its
# sentence at its end; a ``line`` match (a blank line, a heading or list line) at its start.
_SENT_END = re.compile(
    "[。！？；!?;.\n]"
    "(?:(?<=[。！？；])"
    r"|(?<=[!?;])(?=\s)"
    r"|(?<=\.)(?=\s)(?i:" + _not_after(_ABBREVIATIONS, _OPENERS) + _not_after(("etc",), _ETC_OPENERS) + ")"
    r"|(?<=\.)(?=\s)(?i:(?<=[" + _ETC_OPENERS + r"]etc\.)|(?<=^etc\.))(?P<etc>)"
    r"|(?<=\n)[ \t]*(?:\n|(?=[#>|]|[*+-]\s|\d+\.\s))(?P<line>))"
)
# What a sentence never starts with: spacing, list and quote markers, heading hashes, table bars.
_LEAD = " \t\r\n-*#>|"


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
    masked = mask_code(text) if "`" in text else text
    for match in [*_SENT_END.finditer(masked), None]:
        if match is None:
            end = len(text)
        else:
            kind = match.lastgroup
            end = match.start() if kind == "line" else match.end()
            if kind == "etc" and text[end : end + 3].lstrip()[:1].islower():
                continue  # "etc. and so on": no sentence ends here
            if end == pos:
                pos = match.end()
                continue
        body = text[pos:end].lstrip(_LEAD)
        start = end - len(body)
        stop = start + len(body.rstrip())
        if start and text[start - 1] == "*":
            first = start - 1
            while first > 0 and text[first - 1] == "*":  # not text[:start].rstrip(): quadratic in a long text
                first -= 1
            stars = start - first
            if stars < 3 and text.count("*" * stars, start, stop) % 2 == 1:
                start -= stars  # "**UTF** stands for …": the bold opens the sentence, it is no list marker
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


FULL_WIDTH_STOPS = "。！？；：，、）」』"  # Chinese punctuation after which no space is written


def join_sentences(sentences: list[str], zh: bool) -> str:
    """Sentences as one paragraph: a space between English ones, none after Chinese ones.

    Why not one joiner per language: a Chinese summary of English documents quotes English
    sentences, and "objects.Action objects" glued by the Chinese joiner reads as one broken word.
    """
    out = ""
    for sentence in (s.strip() for s in sentences):
        if not sentence:
            continue
        chinese_edge = (
            _cjk_count(out, len(out) - 1, len(out)) or out[-1:] in FULL_WIDTH_STOPS or _cjk_count(sentence, 0, 1)
        )
        # 「…（来源：a.md）class PyZipFile …」: a citation's bracket glued to the English quote after it
        if out.endswith("）") and sentence[:1].isascii() and sentence[:1].isalnum():
            chinese_edge = False
        if out and (not zh or not chinese_edge):
            out += " "
        out += sentence
    return out
