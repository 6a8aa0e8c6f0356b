"""``autodidact wiki compile|check``: build the wiki from raw/ and audit it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from autodidact.cli.common import console, emit_json, json_option, kb_option, warn
from autodidact.cli.engine_opts import (
    fallback_option,
    max_cost_option,
    max_tokens_option,
    model_option,
    no_cache_option,
)
from autodidact.errors import InputError, NotFoundError

if TYPE_CHECKING:
    from autodidact.jsontypes import JSONValue


def read_questions(path: Path) -> list[JSONValue] | list[str]:
    """Questions from a ``round_N_questions.json`` (its ``questions`` array) or a text file, one per line."""
    if not path.is_file():
        raise NotFoundError(f"questions file {path} does not exist", hint="pass a round_N_questions.json or a .txt")
    text = path.read_text("utf-8", errors="replace")
    if path.suffix.lower() == ".json" or text.lstrip().startswith(("{", "[")):
        try:
            data: JSONValue = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}: invalid JSON ({exc.msg} at line {exc.lineno})") from None
        items = data.get("questions") if isinstance(data, dict) else data
        if not isinstance(items, list):
            raise InputError(
                f"{path}: no 'questions' array", hint="use the round_N_questions.json format (docs/contracts.md §1.3)"
            )
        return items
    lines = [line.strip().lstrip("-*•").strip() for line in text.splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def _round_from(path: Path | None) -> int | None:
    import re

    match = re.search(r"round_(\d+)_questions", path.name) if path else None
    return int(match.group(1)) if match else None


def register(app: typer.Typer) -> None:
    """Add the ``wiki`` command group."""
    sub = typer.Typer(help="Compile raw/ into wiki articles and audit the wiki.", no_args_is_help=True)
    app.add_typer(sub, name="wiki")

    @sub.command("compile")
    def compile_cmd(
        files: str | None = typer.Option(
            None, "--files", help="Comma-separated raw files (a.md or raw/a.md); default: all of raw/."
        ),
        kb: Path | None = kb_option(),
        model: str | None = model_option(),
        fallback: str | None = fallback_option(),
        no_cache: bool = no_cache_option(),
        max_cost: float | None = max_cost_option(),
        max_tokens: int | None = max_tokens_option(),
        as_json: bool = json_option(),
    ) -> None:
        """Compile raw files into wiki/<topic>.md and wiki/INDEX.md (incremental; re-running changes nothing).

        Citations are written as links to the raw files, (source: [a.md](../raw/a.md)), which
        Obsidian and GitHub follow; a person's own front-matter keys are kept.

        Example: autodidact wiki compile --files raw/2026-12-01_apt.md,raw/2026-12-01_dpkg.md
        """
        from autodidact.cli.engine_opts import make_runtime
        from autodidact.kb import open_kb
        from autodidact.wiki.compile.compiler import compile_wiki

        knowledge = open_kb(kb)
        names = [f for f in files.split(",") if f.strip()] if files is not None else None
        runtime = make_runtime(knowledge.root, model, no_cache, max_cost, max_tokens, fallback=fallback)
        with knowledge.lock():
            result = compile_wiki(knowledge, names, runtime)
        if as_json:
            emit_json(
                {
                    "kb": str(knowledge.root),
                    "compiled": result.compiled,
                    "new": result.new,
                    "updated": result.updated,
                    "skipped": result.skipped,
                    "failed": result.failed,
                    "empty": result.empty,
                    "pending_quality": result.pending_quality,
                }
            )
            return
        console.print(
            f"compiled {len(result.compiled)} raw file(s); "
            f"{len(result.new)} new, {len(result.updated)} updated article(s)"
        )
        for title in result.new:
            console.print(f"  + {title}")
        for title in result.updated:
            console.print(f"  ~ {title}")
        if result.skipped:
            console.print(f"already compiled (skipped): {len(result.skipped)}")
        for failure in result.failed:
            warn(f"not compiled: {failure}")
        if result.empty:
            console.print("nothing quotable (no article): " + ", ".join(result.empty))
        if result.pending_quality:
            console.print("quality 待评估 (compiled as 中): " + ", ".join(result.pending_quality))

    @sub.command("check")
    def check_cmd(
        questions_file: Path | None = typer.Argument(
            None, help="round_N_questions.json, or a text file with one question per line (optional)."
        ),
        round_n: int | None = typer.Option(
            None, "--round", help="Round number N (default: from the file name, else 1)."
        ),
        topic: str | None = typer.Option(None, "--topic", help="Research topic for the subtopic check."),
        kb: Path | None = kb_option(),
        model: str | None = model_option(),
        fallback: str | None = fallback_option(),
        no_cache: bool = no_cache_option(),
        max_cost: float | None = max_cost_option(),
        max_tokens: int | None = max_tokens_option(),
        as_json: bool = json_option(),
    ) -> None:
        """Audit the wiki and write outputs/rounds/round_N_check.md (coverage, gaps, contradictions, ...).

        Example: autodidact wiki check outputs/rounds/round_2_questions.json --round 2
        """
        from autodidact.cli.engine_opts import make_runtime
        from autodidact.kb import open_kb
        from autodidact.wiki.audit.check import check_wiki

        knowledge = open_kb(kb)
        questions = read_questions(questions_file) if questions_file is not None else None
        number = round_n if round_n is not None else (_round_from(questions_file) or 1)
        runtime = make_runtime(knowledge.root, model, no_cache, max_cost, max_tokens, fallback=fallback)
        with knowledge.lock():
            result = check_wiki(knowledge, questions, number, runtime, topic=topic)
        rep = result.report
        if as_json:
            emit_json(
                {
                    "report": str(result.path),
                    "resolved": rep.resolved,
                    "partial": rep.partial,
                    "open": rep.open,
                    "gaps": rep.gap_count,
                    "contradictions": rep.contradiction_count,
                    "missing_sources": rep.missing_source_count,
                    "structure": len(rep.structure),
                    "audit_issues_count": rep.audit_issues_count,
                    "directions": list(rep.directions),
                }
            )
            return
        console.print(f"wrote {result.path}")
        console.print(
            f"resolved: {rep.resolved} / partial: {rep.partial} / open: {rep.open}; 知识漏洞 {rep.gap_count}, "
            f"矛盾 {rep.contradiction_count}, 来源缺失 {rep.missing_source_count}, 结构问题 {len(rep.structure)}; "
            f"audit_issues_count {rep.audit_issues_count}"
        )
        for direction in rep.directions:
            console.print(f"  → {direction}")
