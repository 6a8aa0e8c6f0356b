"""One hit per passage in what a person reads: a raw file cut from a corpus document is indexed as a
snapshot of its own, so the same passage came back twice, once as ``corpus`` and once as ``raw``.

Why here and not in the index: the research reads both kinds on purpose (a raw file is the
knowledge base's citable copy, the corpus document the whole text), and the eval's search baseline is
the index's own ranking; only the lists shown to a person (``autodidact search``, the Python API, the
MCP server) fold them (docs/hardening.md, "Search results").
"""

from __future__ import annotations

from collections.abc import Callable

from autodidact.sources.passage_index import Passage

# the index is asked for this many more passages than shown, so folding duplicates leaves k
FOLD_HEADROOM = 2


def distinct_passages(search: Callable[[int], list[Passage]], k: int) -> list[Passage]:
    """The ``k`` best passages of ``search(n)``, each passage once: where two hits quote the same text
    of the same document and section, the one in a raw file (citable as ``raw/…``) takes the place
    of the better-ranked one. The same text twice in one document is one passage too: pydoc prints a
    method a subclass inherits again under the subclass (pathlib's with_suffix() under PurePath,
    PurePosixPath and PureWindowsPath filled a search's top three)."""
    hits = search(k * FOLD_HEADROOM)
    out: list[Passage] = []
    at: dict[tuple[str, str], int] = {}
    for hit in hits:
        key = (hit.title, " ".join(hit.text.split()))
        if key not in at:
            at[key] = len(out)
            out.append(hit)
        elif hit.raw_file and not out[at[key]].raw_file:
            out[at[key]] = hit
    return out[:k]
