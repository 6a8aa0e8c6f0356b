"""``autodidact mcp``: the knowledge base as an MCP server, over stdio or streamable HTTP on 127.0.0.1.

Why one knowledge base per server: a client (Claude Desktop, Claude Code, Cursor) starts the
server with ``--kb DIR`` and every tool works on that folder, so no tool takes a path to the
knowledge base and nothing a model sends can point the server at another folder. A research runs
in a background thread (:mod:`autodidact.mcp.jobs`); when the client goes away the server stops it
at a safe point, and the next ``research_start`` resumes it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from autodidact import __version__
from autodidact.mcp.jobs import ResearchSlot
from autodidact.mcp.resources import KnowledgeBaseServer, register_resources
from autodidact.mcp.tools import register_tools

INSTRUCTIONS = (
    "autodidact researches a topic over a local knowledge base and answers with quotes from stored "
    "sources. research_start runs a research in the background (poll research_progress); search, "
    "list_articles, read_article and read_summary read what it found; ask queues a question for its next "
    "round; report writes a cited report; debate_start and debate_reply hold a Socratic idea session. "
    "Chinese and English both work. Every path is a name inside the knowledge base."
)
LOCALHOST = "127.0.0.1"


def build_server(kb_root: Path) -> KnowledgeBaseServer:
    """The server for the knowledge base at ``kb_root`` (which need not exist yet: research_start creates it)."""
    root = Path(kb_root).resolve()
    slot = ResearchSlot(root)

    @asynccontextmanager
    async def lifespan(_: Any) -> AsyncIterator[None]:  # the SDK passes its server (lifespan state unused)
        try:
            yield None
        finally:
            import anyio.to_thread

            await anyio.to_thread.run_sync(slot.shutdown)

    server = KnowledgeBaseServer(
        "autodidact", instructions=INSTRUCTIONS, version=__version__, log_level="WARNING", lifespan=lifespan
    )
    server.kb_root = root
    register_tools(server, root, slot)
    register_resources(server, root)
    return server


def serve(kb_root: Path, *, http: bool = False, port: int = 8000) -> None:
    """Serve until the client disconnects (stdio) or the process is stopped (HTTP)."""
    import anyio

    server = build_server(kb_root)
    if http:

        async def main() -> None:
            await server.run_streamable_http_async(host=LOCALHOST, port=port)

        anyio.run(main)
    else:
        anyio.run(server.run_stdio_async)
