"""Each document's analysis, kept in the index so ``index rebuild`` need not work it out again.

Why: cutting a document into sections and passages and counting its sentences was three
quarters of a rebuild's time (issue 18), and it gives the same answer every time for the same
text, title and code. So ``add`` stores what it computed — the passages' spans, the heading
lines their bodies leave out, the sentence keys — and a rebuild reuses it for every snapshot
whose text (verified against its hash) and title are the ones it was computed for, by the same
code. Anything else is analysed afresh (docs/architecture.md, "Rebuilding the index").

"The same code" is a digest of the source files of every module the analysis runs
(:data:`ANALYSIS_MODULES`): a change to any of them makes every stored analysis stale, so no
one has to remember to bump a version. A stored row that does not parse, or whose key or
version differs, is treated as absent. Standard library only.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
from pathlib import Path

from autodidact.sources.passage_cuts import CutSpan, Openers

# Every module whose code decides a document's passages or sentence keys.
ANALYSIS_MODULES = (
    "autodidact.sources.passage_cuts",
    "autodidact.sources.passages",
    "autodidact.sources.options",
    "autodidact.text.sections",
    "autodidact.text.sentences",
    "autodidact.text.furniture",
)
# Bumped by hand only if the stored form itself changes.
_FORMAT = "1"

Analysis = tuple[dict[str, int], Openers, list[CutSpan]]


@functools.cache
def analysis_version() -> str:
    """A digest of the analysis code: the stored form's number and each module's source bytes."""
    digest = hashlib.sha256(_FORMAT.encode())
    for name in ANALYSIS_MODULES:
        origin = importlib.import_module(name).__file__
        if origin is None:  # no source to digest (a frozen build): never reuse a stored analysis
            return "unversioned"
        digest.update(name.encode() + b"\0" + Path(origin).read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def analysis_key(content_hash: str, title: str) -> tuple[int, str]:
    """The row id and full key of a document's analysis: its text's hash and its title (a
    passage's section name depends on the title)."""
    full = hashlib.blake2b(f"{content_hash}\0{title}".encode(), digest_size=16).hexdigest()
    return int.from_bytes(bytes.fromhex(full[:16]), "big", signed=True), full


def encode(analysis: Analysis) -> str:
    """The stored form: compact JSON (sentence keys by weight, heading lines, passage spans)."""
    weights, openers, spans = analysis
    by_weight: dict[str, list[str]] = {}
    for key, weight in weights.items():
        by_weight.setdefault(str(weight), []).append(key)
    return json.dumps(
        {"w": {w: " ".join(keys) for w, keys in by_weight.items()}, "o": openers, "p": spans},
        ensure_ascii=False,
        separators=(",", ":"),
    )


def decode(data: str) -> Analysis | None:
    """The analysis stored as ``data``, or None when it is not in the stored form."""
    try:
        obj = json.loads(data)
        weights: dict[str, int] = {}
        for w, keys in obj["w"].items():
            weights.update(dict.fromkeys(str(keys).split(), int(w)))
        openers = [(int(s), int(e)) for s, e in obj["o"]]
        spans: list[CutSpan] = [
            (int(a), int(b), str(name), int(c), int(d), str(terms)) for a, b, name, c, d, terms in obj["p"]
        ]
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return weights, openers, spans
