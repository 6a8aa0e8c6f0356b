"""The resource addresses the MCP server gives out: ``autodidact://wiki/<name>``, ``autodidact://reports/<name>``.

Why percent-encoded: article names keep Chinese and other letters (``wiki/生成器.md``), and a URI
carries them encoded; the SDK's template matching decodes them back before the name is checked.
"""

from __future__ import annotations

from urllib.parse import quote

SCHEME = "autodidact"
WIKI_TEMPLATE = f"{SCHEME}://wiki/{{name}}"
REPORT_TEMPLATE = f"{SCHEME}://reports/{{name}}"
SUMMARY_URI = f"{SCHEME}://summary"
STATUS_URI = f"{SCHEME}://status"
INDEX_URI = f"{SCHEME}://wiki/INDEX"


def article_uri(name: str) -> str:
    """The address of wiki article ``name`` (its file name without ``.md``)."""
    return f"{SCHEME}://wiki/{quote(name, safe='')}"


def report_uri(name: str) -> str:
    """The address of the report in ``reports/<name>/report.md``."""
    return f"{SCHEME}://reports/{quote(name, safe='')}"
