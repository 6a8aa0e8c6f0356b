"""``autodidact init``: create a knowledge base."""

from __future__ import annotations

from pathlib import Path

import typer

from autodidact.cli.common import console, emit_json, json_option


def register(app: typer.Typer) -> None:
    """Add the knowledge-base commands."""

    @app.command("init")
    def init_cmd(
        directory: Path = typer.Argument(Path("."), help="Folder to create or complete (default: here)."),
        topic: str | None = typer.Option(None, "--topic", help="Research topic; picks the default --lang."),
        lang: str | None = typer.Option(
            None,
            "--lang",
            help="zh or en: language of outputs (default: the topic's, else the first research's).",
        ),
        as_json: bool = json_option(),
    ) -> None:
        """Create the knowledge-base layout (CLAUDE.md, raw/, wiki/, outputs/...). Keeps existing files.

        Also makes the folder a tidy Obsidian vault: .obsidian/app.json excludes source_cache/ and
        .autodidact/ (added to an existing app.json's list; its other settings are kept).

        Example: autodidact init my-kb --topic "Python generators" --lang en
        """
        from autodidact.kb import init_kb

        kb, created = init_kb(directory, topic=topic, lang=lang)
        if as_json:
            emit_json({"kb": str(kb.root), "created": created})
            return
        if created:
            console.print(f"initialised knowledge base at {kb.root}")
            for item in created:
                console.print(f"  + {item}")
        else:
            console.print(f"{kb.root} is already a complete knowledge base; nothing changed")
