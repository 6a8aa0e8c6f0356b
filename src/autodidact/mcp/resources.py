"""The MCP resources: the wiki's articles and INDEX, the research summary, its status, and the reports.

Why a server subclass for the listing: articles and reports appear while a research runs, and the
SDK lists only resources registered in advance. ``list_resources`` therefore adds what is on disk
at the moment it is asked; reading goes through URI templates whose names :mod:`autodidact.api`
checks to stay inside the knowledge base.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from mcp.types import Resource

from autodidact import api
from autodidact.errors import AutodidactError, NotFoundError
from autodidact.mcp.tools import error_text
from autodidact.mcp.uris import (
    INDEX_URI,
    REPORT_TEMPLATE,
    STATUS_URI,
    SUMMARY_URI,
    WIKI_TEMPLATE,
    article_uri,
    report_uri,
)

MARKDOWN = "text/markdown"


def _read(call: Callable[[], str]) -> str:
    """Run a reader; a missing file is "not found", another expected failure a resource error."""
    try:
        text: str = call()
        return text
    except NotFoundError as exc:
        raise ResourceNotFoundError(error_text(exc)) from None
    except AutodidactError as exc:
        raise ResourceError(error_text(exc)) from None


class KnowledgeBaseServer(MCPServer[Any]):  # the SDK's server is generic in a lifespan state we do not use
    """An :class:`MCPServer` whose resource list includes every article and report on disk now."""

    kb_root: Path

    async def list_resources(self) -> list[Resource]:
        listed = await super().list_resources()
        try:
            articles = api.list_articles(kb=self.kb_root)
            reports = api.list_reports(kb=self.kb_root)
        except AutodidactError:  # no knowledge base yet: only the fixed entries
            return listed
        listed.append(Resource(uri=INDEX_URI, name="INDEX", title="Wiki index", mime_type=MARKDOWN))
        for article in articles:
            listed.append(
                Resource(uri=article_uri(article.name), name=article.name, title=article.title, mime_type=MARKDOWN)
            )
        for name in reports:
            listed.append(Resource(uri=report_uri(name), name=f"report {name}", title=name, mime_type=MARKDOWN))
        return listed


def register_resources(server: MCPServer[Any], kb_root: Path) -> None:  # lifespan state: see KnowledgeBaseServer
    """Add the fixed resources and the article and report templates to ``server``."""
    kb = kb_root

    @server.resource(WIKI_TEMPLATE, name="wiki article", mime_type=MARKDOWN)
    def wiki_article(name: str) -> str:
        """A wiki article by name (its file name without .md); INDEX is the index."""
        return _read(lambda: api.read_article(name, kb=kb))

    @server.resource(REPORT_TEMPLATE, name="report", mime_type=MARKDOWN)
    def report(name: str) -> str:
        """A report's report.md by its folder name under reports/."""
        return _read(lambda: api.read_report(name, kb=kb))

    @server.resource(SUMMARY_URI, name="research summary", mime_type=MARKDOWN)
    def summary() -> str:
        """The research's closing summary (outputs/research_summary.md)."""
        return _read(lambda: api.read_summary(kb=kb))

    @server.resource(STATUS_URI, name="research status", mime_type="application/json")
    def status() -> str:
        """The research's status as JSON (as autodidact status --json)."""
        return _read(lambda: json.dumps(api.status(kb=kb).report, ensure_ascii=False, indent=2))
