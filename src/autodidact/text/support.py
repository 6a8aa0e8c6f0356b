"""Is a written sentence supported by the quotes it cites? One measure for the report and the wiki.

Why a measure over terms: a writer (a model above all) may paraphrase, so exact containment is too
strict, but a sentence whose content words its quotes do not hold says something they do not. The
share of the sentence's content terms (``text/tokens.py``: stems, numbers, CJK bigrams) that stand
in its quotes is compared with a threshold; numbers must stand verbatim, since a changed figure
keeps every other word (docs/writing.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from autodidact.text.tokens import term_set

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
DEFAULT_SUPPORT = 0.7  # the share a sentence's quotes must hold ([report] support_threshold)


def support(text: str, quotes: Iterable[str]) -> float:
    """The share of the sentence's content terms that its quotes hold (1.0 for a sentence with none)."""
    own = term_set(text)
    if not own:
        return 1.0
    return len(own & term_set(" ".join(quotes))) / len(own)


def numbers_hold(text: str, quotes: Iterable[str]) -> bool:
    """Every number the sentence states stands in a quote (a writer must not invent "Pin-Priority 990")."""
    quoted = " ".join(quotes)
    return all(n in quoted for n in _NUMBER.findall(text))


def supported(text: str, quotes: Iterable[str], threshold: float = DEFAULT_SUPPORT) -> bool:
    """Both rules: enough of its terms, and every number, stand in the quotes."""
    quoted = list(quotes)
    return support(text, quoted) >= threshold and numbers_hold(text, quoted)
