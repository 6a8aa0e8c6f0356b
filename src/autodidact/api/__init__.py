"""The Python API: what the command line does, as typed calls that return results and raise errors.

::

    import autodidact

    result = autodidact.research("How do Python generators work?", kb="gen-kb", corpus=["docs/"], max_rounds=3)
    print(result.status, result.rounds, autodidact.read_summary(kb="gen-kb"))
    for hit in autodidact.search("yield expression", kb="gen-kb", k=3):
        print(hit.label, hit.text)

Every call works offline by default (no key, no network). Expected failures raise
:class:`~autodidact.errors.AutodidactError` subclasses (``InputError`` for bad arguments,
``NotFoundError``, ``LockedError`` when another run writes the knowledge base ...) with a one-line
``message`` and a ``hint``. Nothing prints: progress goes to the reporter you pass.

Why a package of its own: the CLI and the MCP server are front ends over the same calls, and it
sits above the three jobs (loop, report, debate) in the import layers (docs/architecture.md).
"""

from __future__ import annotations

from autodidact.api.debate import Debate, Turn
from autodidact.api.knowledge import (
    ArticleInfo,
    Status,
    ask,
    list_articles,
    list_reports,
    read_article,
    read_index,
    read_report,
    read_summary,
    search,
    status,
)
from autodidact.api.report import report
from autodidact.api.research import ResearchJob, ResearchProgress, research, start_research

__all__ = [
    "ArticleInfo",
    "Debate",
    "ResearchJob",
    "ResearchProgress",
    "Status",
    "Turn",
    "ask",
    "list_articles",
    "list_reports",
    "read_article",
    "read_index",
    "read_report",
    "read_summary",
    "report",
    "research",
    "search",
    "start_research",
    "status",
]
