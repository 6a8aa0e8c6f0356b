"""Questions about one named section of the documents: "What are the key points of “X”?".

Why one module: the questioner writes these from the documents' outline, the evidence agent reads
the section they name, the audit judges them by that section, and question dedup must see them as
one kind of question. All four parse the same two forms (docs/questions.md, "Outline questions").
"""

from __future__ import annotations

import re

# The heading runs to the last closing quote: it may hold quotes itself (Archive level "Release" files).
_KEY_POINTS = re.compile(r"key points of\s*[“\"'‘](.+)[”\"'’]|《([^》]+)》\s*的要点", re.I)


def key_points_question(heading: str, language: str) -> str:
    """The question a section heading asks: what that section of the documents says."""
    return f"《{heading}》的要点是什么？" if language == "zh" else f"What are the key points of “{heading}”?"


def key_points_heading(question: str) -> str:
    """The heading a key-points question names, whitespace collapsed; "" for any other question."""
    found = _KEY_POINTS.search(question)
    if not found:
        return ""
    return " ".join((found.group(1) or found.group(2)).split())
