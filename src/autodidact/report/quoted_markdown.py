"""Quoted text as markdown a reader can trust: code stays code, every other mark is inert.

Why: a report quotes pages that carry their own markdown and escapes; pasted as they are, a quoted
``*`` turns a paragraph italic and a quoted ``[3]`` forges a citation. Which sentences are written
at all is decided in ``evidence/prose.py`` (docs/writing.md).
"""

from __future__ import annotations

import re

from autodidact.evidence.prose import plain

# -- markdown ---------------------------------------------------------------------------------
_CODE = re.compile(r"(`+)(.+?)\1")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EMPH = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])|(?<!\w)_(?=\S)([^_\n]+?)(?<=\S)_(?!\w)")


def inline(text: str) -> str:
    """Quoted text as inert markdown that still reads like the source: code spans stay code, the
    source's bold and italics become plain words, and every other mark is escaped, so a quoted
    ``*`` cannot turn a paragraph italic and no ``[N]`` or link can be forged."""
    flat = " ".join(str(text).split())
    out: list[str] = []
    pos = 0
    for m in _CODE.finditer(flat):
        out.append(_plain_marks(flat[pos : m.start()]))
        body = m.group(2).strip()
        out.append(f"`{body}`" if body and "`" not in body and not re.search(r"\[\d+\]", body) else _escape(body))
        pos = m.end()
    out.append(_plain_marks(flat[pos:]))
    return "".join(out)


def inline_cell(text: str, limit: int = 220) -> str:
    """:func:`inline` for one table cell: bounded length, no pipes."""
    flat = " ".join(plain(str(text)).split())
    flat = flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
    return inline(flat).replace("|", "\\|")


def _plain_marks(text: str) -> str:
    """Source markdown made plain: the source's own escapes (``\\*``, ``\\[0\\]``) are literal
    characters, escaped once here — escaping them again showed the reader ``\\\\\\[0\\\\\\]``."""
    literal: list[str] = []

    def keep(m: re.Match[str]) -> str:
        literal.append(m.group(1))
        return f"\x00{len(literal) - 1}\x01"

    text = _SOURCE_ESCAPE.sub(keep, text)
    # "__init__(self, name)" in a reference page is a name, not bold "init": it is shown as code.
    code: list[str] = []

    def dunder(m: re.Match[str]) -> str:
        code.append(m.group(0))
        return f"\x02{len(code) - 1}\x03"

    text = _DUNDER.sub(dunder, text)
    text = _STRONG.sub(lambda m: m.group(2), text)
    text = _EMPH.sub(lambda m: m.group(1) or m.group(2) or "", text)
    out = _HELD.sub(lambda m: _escape(literal[int(m.group(1))]), _escape(text))
    return _CODE_HELD.sub(lambda m: f"`{code[int(m.group(1))]}`", out)


_SOURCE_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # a backslash before ASCII punctuation
_HELD = re.compile(r"\x00(\d+)\x01")
_DUNDER = re.compile(r"(?<![\w\\`])__[A-Za-z]\w*?__(?![\w`])")
_CODE_HELD = re.compile(r"\x02(\d+)\x03")


def _escape(text: str) -> str:
    text = text.replace("\\", "\\\\")
    for ch in "[]`*<>":
        text = text.replace(ch, "\\" + ch)
    return re.sub(r"(?<!\w)_|_(?!\w)", r"\\_", text)
