"""``autodidact serve``: the local web app over one knowledge base (docs/webapp.md).

Thin on purpose: resolve the folder, refuse what cannot work in one line, then hand over to
:mod:`autodidact.webapp.app`.
"""

from __future__ import annotations

from pathlib import Path

import typer

from autodidact.cli.common import kb_option


def register(app: typer.Typer) -> None:
    """Add ``serve``."""

    @app.command("serve")
    def serve_cmd(
        kb: Path | None = kb_option(),
        port: int = typer.Option(8765, "--port", min=1, max=65535, help="The port to listen on."),
        host: str = typer.Option(
            "127.0.0.1", "--host", help="The address to bind; only 127.0.0.1 (the default) keeps it private to you."
        ),
    ) -> None:
        """Open the knowledge base in your browser: watch a research, read the wiki with its sources, debate.

        Overview: topic, rounds, sources, cost, per-round charts, each termination condition met or not.

        Research: start, resume or stop (at a safe point) a run, ask it a question, watch its progress live.

        Wiki: articles and their links, a link graph; each citation opens the quoted passage in its source.

        Reports: each [N] linked to its reference and back. Debate: turn by turn, the CLI's own sessions.

        Offline, no external assets. Only the knowledge base's files are served, never through a symlink.

        Every form checks Origin and a per-session token. Bound to 127.0.0.1 unless --host says otherwise.

        Example: autodidact serve --kb my-kb   then open http://127.0.0.1:8765/
        """
        from autodidact.errors import InputError
        from autodidact.kb import resolve_root

        root = resolve_root(kb).expanduser().resolve()
        if root.exists() and not root.is_dir():
            raise InputError(f"{root} is not a folder", hint="give the knowledge-base folder with --kb DIR")
        if not host.strip():
            raise InputError("--host is empty", hint="leave it out to bind 127.0.0.1")
        from autodidact.webapp.app import serve

        typer.echo(f"serving {root} at http://{host}:{port}/ (Ctrl+C stops)", err=True)
        if host not in ("127.0.0.1", "localhost", "::1"):
            typer.echo(f"warning: bound to {host}: anyone who can reach it can read this knowledge base", err=True)
        serve(root, host=host, port=port)
