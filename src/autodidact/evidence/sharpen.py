"""What a key question asks *beyond the research's subject*, so retrieval and extraction chase it.

Why: in a research on "Debian package management", every page of the manual says Debian,
package and management. A question about "version pinning in Debian package management" is
answered by the sentences about pinning, not by any sentence that says "management" (which also
matched "GNU Privacy Guard commands for the basic key management"). The research's subject terms
therefore become modifiers: the question's other terms are its heads, and a question about the
whole subject must match at least two of the subject's terms. See docs/evidence.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from autodidact.evidence.focus import Focus, phrases, subject_keywords
from autodidact.text.tokens import CJK_CLASS, CJK_RUN, glued, terms
from autodidact.text.topic import decompose


@dataclass(frozen=True)
class Sharpened:
    """A question's heads relative to the subject, how many a sentence must name, and a query of them."""

    heads: list[str]
    min_head_hits: int
    specific_query: str  # the question's content words without the subject's words ("" if none remain)
    # Tried when the heads select nothing ("Who is affected by X?" has only frame-like words beyond
    # the subject): the subject terms the question names, two of them when it names two or more.
    fallback_heads: list[str] | None = None
    fallback_min_hits: int = 1


def subject_terms(research_query: str, language: str) -> frozenset[str]:
    """The content terms of the research's subject ("Debian package management" → debian, package, …)."""
    if not research_query.strip():
        return frozenset()
    frame = decompose(research_query, "zh" if language == "zh" else "en")
    # the seams too: a question writes the subject's parts without spaces ("工作站邮件" → "站邮")
    own = set(terms(frame.subject)) | set(terms(glued(frame.subject)))
    # A compound subject's parts ("Python generators and coroutines") are what its questions are
    # about: each part's own terms stay heads; only what the parts share (python) is a modifier.
    for facet in frame.facets:
        if facet.kind == "part":
            own -= set(terms(" ".join(facet.terms)))
    return frozenset(own)


def subject_words(research_query: str, language: str) -> list[str]:
    """The subject's surface words and CJK runs, for removing them from a query string."""
    if not research_query.strip():
        return []
    subject = decompose(research_query, "zh" if language == "zh" else "en").subject
    modifiers = subject_terms(research_query, language)
    words = [m.group(0) for m in re.finditer(rf"[{CJK_CLASS}]+|[^\W_]+(?:[-'][^\W_]+)*", subject)]
    # only the modifiers leave the query: a compound subject's parts ("coroutines") are what is asked
    return [w for w in words if set(terms(w)) and set(terms(w)) <= modifiers]


def sharpen(fx: Focus, subject: frozenset[str], words: list[str]) -> Sharpened:
    """Heads beyond the subject when the question has any, else the subject's own terms (two needed)."""
    if not subject:
        return Sharpened(list(fx.heads), 1, "")
    specific = [t for t in fx.terms if t not in subject]
    if specific:
        heads = [h for h in fx.heads if h not in subject]
        for run in phrases(fx.question, subject_keywords(fx.question)):
            # "exit code" in a research on running code: the run's head is a subject word, so the word
            # that makes it a thing of its own ("exit") heads it — else no sentence about exitcode qualified
            if len(run) > 1 and run[-1] in subject and run[-1] in fx.heads:
                before = run[-2]
                if before not in subject and before in fx.terms and before not in heads:
                    heads.append(before)
        heads = heads or specific
        query = fx.query()
        for word in sorted(words, key=len, reverse=True):
            if CJK_RUN.fullmatch(word):
                query = query.replace(word, " ")
            else:
                query = re.sub(rf"(?<![\w-]){re.escape(word)}(?![\w-])", " ", query, flags=re.IGNORECASE)
        query = " ".join(query.split())
        own = [t for t in fx.terms if t in subject]
        fallback = own or list(fx.heads)
        return Sharpened(heads, 1, query if terms(query) else "", fallback, min(2, len(own)) if own else 1)
    own = [t for t in fx.terms if t in subject]
    return Sharpened(own or list(fx.heads), min(2, len(own)) if own else 1, "")
