"""``autodidact mcp``: serve a knowledge base to MCP clients (Claude Desktop, Claude Code, Cursor).

Thin on purpose: resolve the folder, refuse what cannot work before the client waits on it, and
hand over to :mod:`autodidact.mcp.server`. Over stdio, stdout belongs to the protocol: this
command prints nothing there, and only the HTTP mode says on stderr where it listens.
"""

from __future__ import annotations

from pathlib import Path

import typer

from autodidact.cli.common import kb_option


def register(app: typer.Typer) -> None:
    """Add ``mcp``."""

    @app.command("mcp")
    def mcp_cmd(
        kb: Path | None = kb_option(),
        http: bool = typer.Option(
            False, "--http", help="Serve streamable HTTP on 127.0.0.1 instead of stdio (at http://127.0.0.1:PORT/mcp)."
        ),
        port: int = typer.Option(8000, "--port", min=1, max=65535, help="The port for --http."),
    ) -> None:
        """Serve the knowledge base over MCP (stdio by default), for Claude Desktop, Claude Code or Cursor.

        Tools: research_start (runs in the background), research_progress, research_stop, status, ask,
        search, list_articles, read_article, read_summary, report, debate_start, debate_reply, debate_close.

        Resources: autodidact://wiki/NAME (INDEX too), autodidact://summary, autodidact://status, autodidact://reports/NAME.

        Every name a client sends stays inside the knowledge base, which research_start creates if missing.

        Offline by default (no key, no network); AUTODIDACT_MODEL or the knowledge base's settings choose a model.

        Claude Code: claude mcp add autodidact -- autodidact mcp --kb ~/my-kb

        Example: autodidact mcp --kb my-kb --http --port 8765
        """
        from autodidact.errors import InputError
        from autodidact.kb import resolve_root

        root = resolve_root(kb).expanduser().resolve()
        if root.exists() and not root.is_dir():
            raise InputError(f"{root} is not a folder", hint="give the knowledge-base folder with --kb DIR")
        try:
            from autodidact.mcp.server import serve
        except ModuleNotFoundError as exc:  # the SDK is a dependency; a broken install says so in one line
            raise InputError(
                f"the MCP SDK cannot be imported ({exc.name})", hint="reinstall: pip install --upgrade autodidact"
            ) from None
        if http:
            typer.echo(f"serving {root} over MCP at http://127.0.0.1:{port}/mcp (Ctrl+C stops)", err=True)
        serve(root, http=http, port=port)
