"""Questions about one named section of the documents: "What are the key points of “X”?".

Why one module: the questioner writes these from the documents' outline, the evidence agent reads
the section they name, the audit judges them by that section, and question dedup must see them as
one kind of question. All four parse the same forms, including the "further key points" form a
section is asked again in (docs/questions.md, "Outline questions").
"""

from __future__ import annotations

import re

# The heading runs to the last closing quote: it may hold quotes itself (Archive level "Release" files).
_KEY_POINTS = re.compile(r"key points of\s*[“\"'‘](.+)[”\"'’]|《([^》]+)》\s*的要点", re.I)
# A heading many documents share ("Description" of every module page) names its document too.
_IN_DOCUMENT = re.compile(r"key points of\s*“(.+)”\s+in\s+“([^”]+)”|《([^》]+)》中《([^》]+)》\s*的要点", re.I)


def key_points_question(heading: str, language: str, document: str = "") -> str:
    """The question a section heading asks: what that section of the documents says (of ``document``
    when the heading alone is ambiguous)."""
    if language == "zh":
        return f"《{document}》中《{heading}》的要点是什么？" if document else f"《{heading}》的要点是什么？"
    where = f" in “{document}”" if document else ""
    return f"What are the key points of “{heading}”{where}?"


_FURTHER = re.compile(r"further key points of|的要点还有哪些", re.I)


def further_key_points_question(heading: str, language: str, document: str = "") -> str:
    """The section asked again, for what its first answer left out: a long section has more points
    than one answer shows, and the evidence agent skips the quotes earlier rounds hold."""
    if language == "zh":
        return f"《{document}》中《{heading}》的要点还有哪些？" if document else f"《{heading}》的要点还有哪些？"
    where = f" in “{document}”" if document else ""
    return f"What are the further key points of “{heading}”{where}?"


def is_further(question: str) -> bool:
    """Whether a key-points question asks a section again (:func:`further_key_points_question`)."""
    return bool(_FURTHER.search(question))


def key_points_heading(question: str) -> str:
    """The heading a key-points question names, whitespace collapsed; "" for any other question."""
    inside = _IN_DOCUMENT.search(question)
    if inside:
        return " ".join((inside.group(1) or inside.group(4)).split())
    found = _KEY_POINTS.search(question)
    if not found:
        return ""
    return " ".join((found.group(1) or found.group(2)).split())


def key_points_document(question: str) -> str:
    """The document a key-points question names its section in; "" when the heading stands alone."""
    inside = _IN_DOCUMENT.search(question)
    return " ".join((inside.group(2) or inside.group(3)).split()) if inside else ""
