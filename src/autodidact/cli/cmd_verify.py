"""``autodidact verify``: prove a knowledge base or report folder still holds."""

from __future__ import annotations

from pathlib import Path

import typer

from autodidact.cli.common import console, emit_json, kb_option


def register(app: typer.Typer) -> None:
    """Add the verify command."""

    @app.command("verify")
    def verify_cmd(
        kb: Path | None = kb_option(),
        report_dir: Path | None = typer.Option(None, "--report-dir", help="Verify one report folder instead."),
        as_json: bool = typer.Option(False, "--json", help="Print the result as JSON on stdout."),
    ) -> None:
        """Re-hash every snapshot; re-check evidence quotes, wiki citations, report [N], JSON files and temp files.

        Validates every JSON artifact and the state file too, and lists leftover temporary files.

        Exit 0 only when everything holds; 1 when a problem was found. Repairs nothing.

        Example: autodidact verify --kb my-kb
        """
        from autodidact.errors import NotFoundError
        from autodidact.kb import open_kb
        from autodidact.verify import verify_folder

        if report_dir is not None:
            if not report_dir.is_dir():
                raise NotFoundError(f"report folder {report_dir} does not exist")
            root = report_dir
        else:
            root = open_kb(kb).root
        result = verify_folder(root)
        if as_json:
            emit_json(result.as_dict())
        else:
            checked = ", ".join(f"{k} {v}" for k, v in sorted(result.checked.items()) if v)
            console.print(f"verified {root}: {checked or 'nothing to check'}")
            for problem in result.problems:
                console.print(f"[red]✗[/red] {problem.check}: {problem.path}: {problem.message}")
            if result.ok:
                console.print("[green]everything holds[/green]")
            else:
                console.print(f"[red]{len(result.problems)} problem(s)[/red]")
        if not result.ok:
            raise typer.Exit(1)
