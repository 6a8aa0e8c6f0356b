"""``autodidact fetch`` and ``autodidact websearch``: the web, through the guard.

``fetch`` stores nothing unless the whole fetch succeeded: a refused URL (address, scheme, size,
time, type or robots.txt) prints one line and exits non-zero with the knowledge base untouched.
"""

from __future__ import annotations

from pathlib import Path

import typer

from autodidact.cli.common import console, emit_json, json_option, kb_option


def _settings_root(kb: Path | None) -> Path | None:
    """The knowledge base whose autodidact.toml applies, if there is one."""
    from autodidact.kb import is_kb, resolve_root

    root = resolve_root(kb)
    return root if is_kb(root) else None


def register(app: typer.Typer) -> None:
    """Add ``fetch`` and ``websearch``."""

    @app.command("fetch")
    def fetch_cmd(
        url: str = typer.Argument(..., help="An http(s) URL."),
        kb: Path | None = kb_option(),
        question_id: list[str] = typer.Option([], "--question-id", help="Question id(s) this source answers."),
        ignore_robots: bool = typer.Option(False, "--ignore-robots", help="Fetch even if robots.txt disallows it."),
        as_json: bool = json_option(),
    ) -> None:
        """Fetch a page through the SSRF guard, extract its text, snapshot it, write raw/ and index it.

        Prints the raw file and its snapshot_ref. A refused or failed fetch stores nothing.

        Example: autodidact fetch https://docs.python.org/3/glossary.html --kb my-kb --question-id q3
        """
        import asyncio

        from autodidact.config import load_settings
        from autodidact.kb import open_kb
        from autodidact.sources.fetch import Fetcher, fetch_to_kb

        knowledge_base = open_kb(kb)
        flags = {"fetch.respect_robots": False} if ignore_robots else {}
        settings = load_settings(knowledge_base.root, flags)

        async def run() -> tuple[Path, str]:
            async with Fetcher(settings.fetch) as fetcher:
                path, snapshot = await fetch_to_kb(knowledge_base, url, fetcher, question_ids=question_id)
            return path, snapshot.snapshot_ref

        with knowledge_base.lock(warn=lambda m: console.print(f"[yellow]warning:[/yellow] {m}")):
            path, ref = asyncio.run(run())
        if as_json:
            emit_json({"url": url, "raw": f"raw/{path.name}", "snapshot_ref": ref})
            return
        typer.echo(f"raw/{path.name}")
        typer.echo(ref)

    @app.command("websearch")
    def websearch_cmd(
        query: str = typer.Argument(..., help="What to search for (Chinese or English)."),
        kb: Path | None = kb_option(),
        n: int = typer.Option(8, "-n", "--limit", min=1, max=50, help="Hits per provider."),
        as_json: bool = json_option(),
    ) -> None:
        """List web search hits from the configured providers (search.providers). Snippets are never evidence.

        Providers: searxng (AUTODIDACT_SEARXNG_URL), tavily (TAVILY_API_KEY), brave (BRAVE_API_KEY),
        duckduckgo (the optional ddgs package).

        Example: autodidact websearch "python generators" -n 5 --json
        """
        import asyncio

        from autodidact.config import load_settings
        from autodidact.errors import ConfigError
        from autodidact.sources.search.registry import build_providers, search_all

        settings = load_settings(_settings_root(kb))
        providers = build_providers(settings.search)
        if not providers:
            raise ConfigError(
                "no web search provider is configured",
                hint="set AUTODIDACT_SEARCH_PROVIDERS (searxng, tavily, brave, duckduckgo) and its URL or key",
            )
        outcome = asyncio.run(search_all(providers, query, n))
        for error in outcome.errors:
            console.print(f"[yellow]warning:[/yellow] {error}")
        if as_json:
            emit_json([hit.as_dict() for hit in outcome.hits])
            return
        if not outcome.hits:
            console.print(f"no results for {query!r}")
            return
        for number, hit in enumerate(outcome.hits, 1):
            typer.echo(f"{number}. {hit.title}\n   {hit.url}\n   [{hit.provider}] {hit.snippet}")
