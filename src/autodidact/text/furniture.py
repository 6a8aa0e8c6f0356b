"""Page furniture: sentences a corpus repeats in many documents, which answer no question.

Why: generated documentation, web pages and manuals carry the same lines on every page
("The following documentation is automatically generated from the Python source files…",
a licence notice, a navigation footer). Retrieval ranks them like any sentence, and the offline
extractor quoted them as findings on pages nobody had tuned for. A sentence that stands word for
word in :data:`FURNITURE_DOCS` or more documents of one knowledge base says something about the
pages, not about their subject, so the evidence step never quotes it (docs/text.md, "Page
furniture").

The index counts, per sentence key, how many documents hold it; this module only defines the
key, so the index and the extractor compare the same thing. Standard library only (L0).
"""

from __future__ import annotations

import hashlib
from collections import Counter

from autodidact.text.sentences import sentence_spans

# A sentence in this many documents or more is furniture. Three, not two: two chapters may quote
# the same definition; a line on three or more pages is a template's.
FURNITURE_DOCS = 3
# Shorter sentences ("See also.", "Note") repeat by nature and are not worth counting.
MIN_FURNITURE_CHARS = 40
# A sentence one document repeats this often is its template's too: pydoc writes "Initialize self.
# See help(type(self)) for accurate signature." under every class that has no docstring of its own,
# and a one-page corpus has no second document to show it (a trial's summary quoted it as the
# answer about argparse's types).
FURNITURE_REPEATS = 5


def sentence_key(sentence: str) -> str:
    """The key two copies of one sentence share: case and spacing do not matter."""
    norm = " ".join(sentence.split()).casefold()
    return hashlib.blake2b(norm.encode("utf-8"), digest_size=10).hexdigest()


def sentence_keys(text: str) -> set[str]:
    """The keys of the sentences of ``text`` long enough to count as furniture, each once."""
    return set(sentence_weights(text))


def sentence_weights(text: str) -> dict[str, int]:
    """What each sentence of ``text`` adds to its document count: 1, or :data:`FURNITURE_DOCS` when
    the text itself repeats it :data:`FURNITURE_REPEATS` times or more (furniture at once).

    The index runs this on every document it takes in, so it does the least per sentence
    (issue 18): a span shorter than :data:`MIN_FURNITURE_CHARS` is never collapsed (collapsing
    only shortens), and an ASCII text is lowercased once (for ASCII, what casefolding each
    sentence gives) rather than sentence by sentence."""
    spans = sentence_spans(text)
    if text.isascii():
        low = text.lower()
        norms = [
            n
            for s, e in spans
            if e - s >= MIN_FURNITURE_CHARS and len(n := " ".join(low[s:e].split())) >= MIN_FURNITURE_CHARS
        ]
    else:
        norms = [
            n.casefold()
            for s, e in spans
            if e - s >= MIN_FURNITURE_CHARS and len(n := " ".join(text[s:e].split())) >= MIN_FURNITURE_CHARS
        ]
    blake2b = hashlib.blake2b
    counts = Counter(blake2b(n.encode("utf-8"), digest_size=10).hexdigest() for n in norms)
    return {key: FURNITURE_DOCS if n >= FURNITURE_REPEATS else 1 for key, n in counts.items()}


def is_furniture(sentence: str, furniture: frozenset[str]) -> bool:
    """Whether ``sentence`` (or any sentence joined into it) is one of the ``furniture`` keys."""
    if not furniture:
        return False
    if sentence_key(sentence) in furniture:
        return True
    return any(sentence_key(sentence[s:e]) in furniture for s, e in sentence_spans(sentence))
