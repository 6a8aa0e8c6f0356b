"""autodidact: an autonomous, resumable, evidence-grounded research engine.

``from autodidact import research, report, search, ask, status, Debate`` is the Python API
(:mod:`autodidact.api`). The names are loaded on first use, so ``import autodidact`` (and with it
``autodidact --help``) stays as cheap as it was.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:
    from autodidact.api import (
        ArticleInfo,
        Debate,
        ResearchJob,
        ResearchProgress,
        Status,
        Turn,
        ask,
        list_articles,
        list_reports,
        read_article,
        read_index,
        read_report,
        read_summary,
        report,
        research,
        search,
        start_research,
        status,
    )

__all__ = [
    "ArticleInfo", "Debate", "ResearchJob", "ResearchProgress", "Status", "Turn", "__version__", "ask",
    "list_articles", "list_reports", "read_article", "read_index", "read_report", "read_summary", "report",
    "research", "search", "start_research", "status",
]  # fmt: skip
_API = frozenset(__all__) - {"__version__"}


def __getattr__(name: str) -> object:
    """Load the API on first use of one of its names (PEP 562)."""
    if name in _API:
        from autodidact import api

        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'autodidact' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])


class _Package(types.ModuleType):
    """The package module, keeping the API's names when a subpackage of the same name is imported.

    Why: importing ``autodidact.report.pipeline`` binds the subpackage ``autodidact.report`` as
    an attribute of this package, which would make ``from autodidact import report`` return the
    subpackage instead of the function. The import system finds subpackages in ``sys.modules``,
    not through this attribute, so refusing the binding changes nothing else.
    """

    def __setattr__(self, name: str, value: object) -> None:
        if name in _API and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
