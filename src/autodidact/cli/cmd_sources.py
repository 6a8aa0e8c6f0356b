"""``autodidact snapshot|add|search|index``: the snapshot store, local documents and local search.

``snapshot`` subcommands print JSON on stdout (docs/contracts.md §3.1) with exit codes: 0 ok, 1 refused or
failed verification, 2 bad input; failures print ``{"ok": false, "error": ...}`` too, so scripts
always get JSON. ``add`` and ``index rebuild`` take the knowledge base's writer lock.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

import typer

from autodidact.cli.common import console, emit_json, json_option, kb_option, out

_CACHE_HELP = "The source_cache folder (or the knowledge-base/report folder holding it)."


def _cache_dir(path: Path) -> Path:
    """The source_cache folder named by ``--source-cache`` (it or the folder holding it).

    A path that exists but is not a folder is refused: looking snapshots up in a file would
    answer ``[]`` as if the cache were merely empty.
    """
    from autodidact.errors import InputError

    if path.exists() and not path.is_dir():
        raise InputError(f"--source-cache {path} is a file, not a folder", hint="give the source_cache folder")
    if path.name != "source_cache" and (path / "source_cache").is_dir():
        return path / "source_cache"
    return path


def _json_call(fn: Callable[[], object]) -> None:
    """Run ``fn``, print its JSON result; map failures to JSON + exit 1 (refused) or 2 (bad input)."""
    from autodidact.errors import AutodidactError, InputError, PathSafetyError

    try:
        result = fn()
    except PathSafetyError as exc:  # a path or ref that would escape the cache: refused
        emit_json({"ok": False, "error": exc.message})
        raise typer.Exit(1) from None
    except InputError as exc:
        emit_json({"ok": False, "error": exc.message})
        raise typer.Exit(2) from None
    except AutodidactError as exc:
        emit_json({"ok": False, "error": exc.message})
        raise typer.Exit(1) from None
    emit_json(result)


def _read_input(source: str) -> str:
    from autodidact.errors import InputError

    try:
        if source == "-":
            stream = getattr(sys.stdin, "buffer", None)
            data = stream.read() if stream is not None else sys.stdin.read().encode("utf-8")
        else:
            data = Path(source).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read input {source}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"input {source} is not UTF-8 text", hint="convert it to UTF-8 first") from None


def _register_snapshot(app: typer.Typer) -> None:
    sub = typer.Typer(help="The immutable snapshot store (§3.1 of docs/contracts.md): JSON out.", no_args_is_help=True)
    app.add_typer(sub, name="snapshot")

    @sub.command("store")
    def store_cmd(
        source_cache: Path = typer.Option(..., "--source-cache", help=_CACHE_HELP),
        url: str = typer.Option(..., "--url", help="The document's URL (normalised before hashing)."),
        input_path: str = typer.Option(..., "--input", help="UTF-8 text file to store, or - for stdin."),
    ) -> None:
        """Store a text snapshot for a URL; same bytes again is a no-op, never an overwrite.

        Example: autodidact snapshot store --source-cache kb/source_cache --url https://example.com/a --input page.md
        """

        def run() -> dict[str, object]:
            from autodidact.errors import IntegrityError
            from autodidact.sources.snapshots import SnapshotStore, normalize_url

            normalize_url(url)  # bad URL → exit 2 before reading the input
            text = _read_input(input_path)
            if "\x00" in text:
                raise IntegrityError("snapshot text contains a NUL byte; refused")
            snap, wrote = SnapshotStore(_cache_dir(source_cache)).store(url, text)
            return {"ok": True, **snap.as_dict(), "written": wrote}

        _json_call(run)

    @sub.command("lookup")
    def lookup_cmd(
        source_cache: Path = typer.Option(..., "--source-cache", help=_CACHE_HELP),
        url: str = typer.Option(..., "--url", help="The URL to look up."),
        content_hash: str | None = typer.Option(None, "--content-hash", help="Only this content sha256."),
    ) -> None:
        """List every verified snapshot of a URL, sorted by content hash ([] if none).

        Example: autodidact snapshot lookup --source-cache kb/source_cache --url https://example.com/a
        """

        def run() -> list[dict[str, str]]:
            from autodidact.errors import InputError
            from autodidact.sources.snapshots import SnapshotStore

            if content_hash is not None and not re.fullmatch(r"[0-9a-f]{64}", content_hash):
                raise InputError(f"--content-hash {content_hash!r} is not 64 lowercase hex digits (a sha256)")
            found = SnapshotStore(_cache_dir(source_cache)).lookup(url, content_hash)
            return [snap.as_dict() for snap in found]

        _json_call(run)

    @sub.command("verify")
    def verify_cmd(
        source_cache: Path = typer.Option(..., "--source-cache", help=_CACHE_HELP),
        snapshot_ref: str = typer.Option(..., "--snapshot-ref", help="source_cache/<64 hex>/<64 hex>.md"),
        url: str | None = typer.Option(None, "--url", help="Also check the snapshot belongs to this URL."),
    ) -> None:
        """Recompute a snapshot's hashes and check its metadata; exit 1 if anything differs.

        Example: autodidact snapshot verify --source-cache kb/source_cache --snapshot-ref source_cache/<h>/<h>.md
        """

        def run() -> dict[str, object]:
            from autodidact.sources.snapshots import SnapshotStore

            snap = SnapshotStore(_cache_dir(source_cache)).verify(snapshot_ref, url)
            return {"ok": True, **snap.as_dict()}

        _json_call(run)

    @sub.command("normalize")
    def normalize_cmd(url: str = typer.Argument(..., help="The URL to normalise.")) -> None:
        """Print a URL's normal form and its sha256 (the snapshot folder name).

        Example: autodidact snapshot normalize "HTTPS://Example.COM:443/path?q=2&q=1#s"
        """

        def run() -> dict[str, object]:
            from autodidact.sources.snapshots import normalize_url
            from autodidact.store.hashing import sha256_text

            norm = normalize_url(url)
            return {"ok": True, "normalized_url": norm, "url_hash": sha256_text(norm)}

        _json_call(run)


def _search_root(kb: Path | None) -> Path:
    """A knowledge base, or any folder with a source cache (a report folder)."""
    from autodidact.kb import is_kb, open_kb, resolve_root

    root = resolve_root(kb)
    if root.is_dir() and not is_kb(root) and (root / "source_cache").is_dir():
        return root.resolve()
    return open_kb(kb).root


def _rich_highlight(text: str, query: str) -> str:
    """The passage's best window with its matches in bold (from the spans, never by parsing ``**``:
    a passage's own ``**kwargs`` was shown as "kwargs")."""
    from rich.markup import escape

    from autodidact.sources.passages import highlight_parts

    return "".join(
        f"[bold yellow]{escape(t)}[/bold yellow]" if m else escape(t) for t, m in highlight_parts(text, query)
    )


def register(app: typer.Typer) -> None:
    """Add ``snapshot``, ``add``, ``search`` and ``index``."""
    _register_snapshot(app)

    @app.command("add")
    def add_cmd(
        paths: list[str] = typer.Argument(..., help="Files or folders (md, txt, html, pdf; folders recursively)."),
        kb: Path | None = kb_option(),
        as_json: bool = json_option(),
    ) -> None:
        """Copy documents into raw/, snapshot and index them; nothing already in raw/ changes.

        Reads markdown, text, HTML, PDF and Texinfo (.info) manuals, each also gzipped (.gz).

        On a terminal a bar shows files done/total and the time left; piped, one line per file.
        Unsupported or unreadable files are listed and skipped; the exit code is 1 if any were.
        The knowledge base's own files (wiki/, outputs/, CLAUDE.md …) are never taken as sources.
        A --kb folder that does not exist yet is created as a knowledge base first.

        Example: autodidact add notes.md papers/ --kb my-kb
        """
        from dataclasses import asdict

        from autodidact.errors import InputError
        from autodidact.kb import init_kb, open_kb, resolve_root
        from autodidact.sources.ingest import add_paths

        if any(not p.strip() for p in paths):
            raise InputError("add: an empty path was given", hint="name the files or folders to add")
        root = resolve_root(kb)
        if not root.exists():
            # a new folder, as `research` makes one; an existing folder that is no knowledge base
            # still gets the clear error (a mistyped --kb must not turn a folder into one)
            if not any(Path(p).exists() for p in paths):
                raise InputError(f"add: {paths[0]} does not exist", hint="check the paths to add")
            init_kb(root)
            console.print(f"initialised knowledge base at {root.resolve()}")
        knowledge_base = open_kb(root)
        with knowledge_base.lock(warn=lambda m: console.print(f"[yellow]warning:[/yellow] {m}")):
            from autodidact.config import load_settings

            limit = load_settings(knowledge_base.root).fetch.max_file_bytes
            from autodidact.cli.progress_view import ConsoleProgress

            with ConsoleProgress(console, "adding") as shown:
                report = add_paths(knowledge_base, [Path(p) for p in paths], progress=shown, max_bytes=limit)
        new = sum(1 for a in report.added if a.new)
        if as_json:
            emit_json(
                {
                    "kb": str(knowledge_base.root),
                    "added": [asdict(a) for a in report.added],
                    "skipped": [asdict(s) for s in report.skipped],
                }
            )
            if report.skipped:
                raise typer.Exit(1)
            return
        console.print(
            f"{new} added, {len(report.added) - new} already present, {len(report.skipped)} skipped "
            f"(knowledge base {knowledge_base.root})"
        )
        for item in report.skipped:
            console.print(f"[red]skipped:[/red] {item.source}: {item.reason}")
        if report.skipped:
            raise typer.Exit(1)

    @app.command("search", context_settings={"ignore_unknown_options": True})
    def search_cmd(
        query: str = typer.Argument(..., help="Free text, Chinese or English; operators are treated as words."),
        kb: Path | None = kb_option(),
        k: int = typer.Option(10, "-k", "--limit", min=1, max=1000, help="How many passages to show."),
        as_json: bool = json_option(),
    ) -> None:
        """Search the local index (every snapshot in the knowledge base) with BM25.

        Passages holding every word of the query come first, best score first; when there are too
        few, passages holding only some of the words follow, marked "(some words)". A query may start
        with a dash ("-mtime n"); put options after it, or use `--` before a query that is an option
        of this command ("-k").

        Example: autodidact search "yield expression" --kb my-kb -k 5
        """
        from dataclasses import asdict

        from rich.table import Table

        from autodidact.sources.distinct import distinct_passages
        from autodidact.sources.passage_index import open_index
        from autodidact.text.tokens import has_cjk

        translated = ""
        with open_index(_search_root(kb)) as index:
            hits = distinct_passages(lambda n: index.search(query, n), k)
            if not hits and has_cjk(query):
                # A Chinese question over English documents shares no word with them: searched again
                # in the glossary's English and the Latin names it writes (docs/text.md, "The glossary")
                from autodidact.text.glossary import english_of

                translated = " ".join([*re.findall(r"[A-Za-z][\w.+-]*", query), *english_of(query)])
                if translated.strip():
                    hits = distinct_passages(lambda n: index.search(translated, n), k)
        if as_json:
            emit_json([{**asdict(p), "label": p.label} for p in hits])
            return
        if translated and hits:
            console.print(f"no passages match {query!r}; searched in English: {translated!r}")
        if not hits:
            console.print(f"no passages match {query!r}")
            if has_cjk(query):
                # a Chinese question over English documents matches nothing: search compares words
                console.print("hint: search matches the documents' own words; for English documents, search in English")
            return
        from autodidact.sources.snapshots import location

        if not out.is_terminal:
            # piped or redirected: one hit per block of plain lines, for grep and a reader alike (a
            # box table drawn for a 300-column "terminal" was what a pipe got)
            for n, p in enumerate(hits, 1):
                source = f"raw/{p.raw_file}" if p.raw_file else location(p.url)
                some = "" if p.all_terms else " (some words)"
                print(f"{n}. {p.score:.2f}{some}  {p.label}  ({source})")
                print(f"   {' '.join(p.text.split())}")
            return
        table = Table(show_lines=True)
        for col in ("#", "score", "source", "passage"):
            table.add_column(col, overflow="fold")
        for n, p in enumerate(hits, 1):
            source = f"raw/{p.raw_file}" if p.raw_file else location(p.url)
            score = f"{p.score:.2f}" if p.all_terms else f"{p.score:.2f}\n(some words)"
            table.add_row(str(n), score, f"{p.label}\n{source}", _rich_highlight(p.text, query))
        out.print(table)

    index_app = typer.Typer(help="The local search index (.autodidact/index.sqlite).", no_args_is_help=True)
    app.add_typer(index_app, name="index")

    @index_app.command("rebuild")
    def rebuild_cmd(
        kb: Path | None = kb_option(),
        fresh: bool = typer.Option(
            False,
            "--fresh",
            help="Analyse every document again (sections, passages) instead of reusing what was stored when "
            "it was added; slower, and only needed if you suspect the stored analyses.",
        ),
        as_json: bool = json_option(),
    ) -> None:
        """Index files dropped into raw/, then recreate the whole index from the files alone.

        Sections and passages stored when a document was added are reused while it is unchanged; --fresh redoes them.

        Example: autodidact index rebuild --kb my-kb
        """
        from autodidact.kb import open_kb
        from autodidact.sources.ingest import scan_raw
        from autodidact.sources.passage_index import open_index

        knowledge_base = open_kb(kb)
        with knowledge_base.lock(warn=lambda m: console.print(f"[yellow]warning:[/yellow] {m}")):
            scanned = scan_raw(knowledge_base)
            with open_index(knowledge_base.root) as index:
                count = index.rebuild(fresh=fresh)
                stats = index.stats()
        if as_json:
            skipped = [{"source": f"raw/{s.source}", "reason": s.reason} for s in scanned.skipped]
            emit_json({"kb": str(knowledge_base.root), "documents": count, **stats, "skipped": skipped})
            return
        for item in scanned.skipped:
            console.print(f"[yellow]skipped:[/yellow] raw/{item.source}: {item.reason}")
        console.print(f"rebuilt the index: {count} documents, {stats['passages']} passages")
