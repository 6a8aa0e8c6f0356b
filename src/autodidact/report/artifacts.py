"""The shapes of ``citations.json`` and ``prose.json``, typed once for the writer and ``verify``.

Why here: the report pipeline writes both files and ``autodidact verify`` re-reads them
(docs/contracts.md §2, docs/writing.md "prose.json"). With the shapes named, the citer, the
reference renderers, the prose record and the checks agree on one definition instead of each
indexing a ``dict`` by the keys it hopes are there (docs/architecture.md, "Typing"). They are
``TypedDict``s, not models, because the files are plain JSON written with ``write_json`` and a
re-read file is checked rule by rule rather than refused whole.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict, cast


class CitationEntry(TypedDict):
    """One reference ``[n]``: the source, the claims and snapshots it stands for."""

    n: int
    source_id: str
    url: str
    title: str
    claim_ids: list[str]
    snapshot_refs: list[str]
    section: NotRequired[str]  # the section of the source it cites, when not the whole document
    # Added by ``references.enrich`` before the files are written:
    author: NotRequired[str | None]
    published_at: NotRequired[str | None]
    accessed_at: NotRequired[str]
    location: NotRequired[str]


class CitationsFile(TypedDict):
    """``citations.json``."""

    citations: list[CitationEntry]


class ProseSentence(TypedDict):
    """One written sentence: its block, the claims it rests on and their fingerprints."""

    block: str  # "<dimension id>/<block key>"
    text: str
    claim_ids: list[str]
    engine: str
    claims: dict[str, str]  # claim id → fingerprint of its quotes and sources


class ProseBlock(TypedDict):
    """A block's claims' fingerprint, what wrote it and what it dropped (a re-run may reuse it)."""

    print: str
    engine: str
    dropped: dict[str, int]


class ProseFile(TypedDict):
    """``prose.json``."""

    version: int
    support_threshold: float
    check_support: bool
    sentences: list[ProseSentence]
    dropped: dict[str, int]
    blocks: dict[str, ProseBlock]
    report_sha256: NotRequired[str]


def as_prose_file(data: object) -> ProseFile | None:
    """A re-read ``prose.json`` (raw JSON) as its shape, or None when it is not an object.

    Not a validation: the readers (``writing.check_prose`` for ``verify``, ``writing._reusable``
    for a re-run) read every field with a default and check the values they compare, so a
    hand-edited file yields problems or is not reused, as before it was typed."""
    return cast(ProseFile, data) if isinstance(data, dict) else None
