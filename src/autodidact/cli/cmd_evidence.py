"""``autodidact evidence validate`` and ``autodidact gather``: check and produce evidence.json.

Validation prints docs/contracts.md §3.3 JSON on stdout (exit 0 valid, 1 invalid, 2 unreadable). Gathering
runs the research agent on a payload (docs/contracts.md §3.4) and reports progress on stderr.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from autodidact.cli.common import console, emit_json, kb_option
from autodidact.cli.engine_opts import (
    fallback_option,
    max_cost_option,
    max_tokens_option,
    model_option,
    no_cache_option,
)
from autodidact.progress import NullProgress

if TYPE_CHECKING:
    from autodidact.evidence.agent import GatherResult


def _validate(
    path: Path,
    source_cache: Path | None,
    plan_path: Path | None,
    expected_mode: str | None,
    require_version: str | None,
    upstream_paths: list[Path],
) -> int:
    from autodidact.errors import AutodidactError
    from autodidact.evidence.validator import load_upstream, read_json_file, validate_evidence

    try:
        data = read_json_file(path)
        plan = read_json_file(plan_path, "plan file") if plan_path is not None else None
        upstream = load_upstream(upstream_paths) if upstream_paths else None
    except AutodidactError as exc:
        emit_json({"ok": False, "errors": [{"rule": "V000", "severity": "error", "message": exc.message}]})
        return 2
    if plan is not None and not isinstance(plan, dict):
        emit_json({"ok": False, "errors": [{"rule": "V000", "severity": "error", "message": "plan is not an object"}]})
        return 2
    report = validate_evidence(
        data,
        source_cache=source_cache,
        plan=plan,
        expected_mode=expected_mode,
        require_version=require_version,
        upstream=upstream,
    )
    emit_json(report.to_json())
    if not report.ok:
        console.print(f"[red]invalid:[/red] {len(report.errors)} error(s): {report.summary(3)}")
    return 0 if report.ok else 1


class _CliReporter(NullProgress):
    """Renders the agent's progress on stderr."""

    def message(self, text: str) -> None:
        console.print(text)

    def warning(self, text: str) -> None:
        console.print(f"[yellow]warning:[/yellow] {text}")


def register(app: typer.Typer) -> None:
    """Add ``evidence validate`` and ``gather``."""
    sub = typer.Typer(help="Check evidence.json files (docs/contracts.md §3.3).", no_args_is_help=True)
    app.add_typer(sub, name="evidence")

    @sub.command("validate")
    def validate_cmd(
        path: Path = typer.Argument(..., help="The evidence.json file to check."),
        source_cache: Path | None = typer.Option(
            None, "--source-cache", help="The report's source_cache folder (or the folder holding it)."
        ),
        plan: Path | None = typer.Option(None, "--plan", help="plan.json: check upstream_usage against it."),
        expected_mode: str | None = typer.Option(None, "--expected-mode", help="initial, quick or supplement."),
        require_version: str | None = typer.Option(None, "--require-version", help="e.g. 1.2"),
        upstream_evidence: list[Path] = typer.Option(
            [], "--upstream-evidence", help="Upstream dimensions' evidence files (repeat the option)."
        ),
    ) -> None:
        """Validate an evidence.json file; JSON verdict on stdout, exit 0 valid / 1 invalid / 2 unreadable.

        Example: autodidact evidence validate reports/r1/sub_reports/d1.evidence.json
        --source-cache reports/r1/source_cache --require-version 1.2 --expected-mode initial
        """
        code = _validate(path, source_cache, plan, expected_mode, require_version, upstream_evidence)
        raise typer.Exit(code)

    @app.command("gather")
    def gather_cmd(
        payload: Path = typer.Option(..., "--payload", help="Payload JSON (docs/contracts.md §3.4)."),
        kb: Path | None = kb_option(),
        out: Path | None = typer.Option(None, "--out", help="Output path (default: sub_reports/<dim>.evidence.json)."),
        engine: str | None = typer.Option(
            None, "--engine", help="offline or model (default: the model if one is configured, else offline)."
        ),
        model: str | None = model_option(),
        fallback: str | None = fallback_option(),
        no_cache: bool = no_cache_option(),
        max_cost: float | None = max_cost_option(),
        max_tokens: int | None = max_tokens_option(),
    ) -> None:
        """Research one dimension and write its evidence.json (validated before it is written).

        Progress (key questions, sources fetched, claims kept and dropped) goes to stderr; a JSON
        summary to stdout.

        Example: autodidact gather --payload reports/r1/payloads/d1.json --kb .
        """
        result = _gather(payload, kb, out, engine, model, no_cache, max_cost, max_tokens, fallback)
        emit_json(
            {
                "ok": True,
                "path": str(result.path),
                "claims": len(result.evidence.claims),
                "sources": len(result.evidence.sources),
                "key_findings": len(result.evidence.key_findings),
                "dropped": result.dropped,
                "fetched": result.stats.get("fetched", 0),
            }
        )


def _gather(
    payload_path: Path,
    kb: Path | None,
    out: Path | None,
    engine: str | None,
    model: str | None,
    no_cache: bool,
    max_cost: float | None,
    max_tokens: int | None,
    fallback: str | None = None,
) -> GatherResult:
    import asyncio

    from autodidact.cli.engine_opts import load_run_settings, make_runtime
    from autodidact.errors import InputError
    from autodidact.evidence.agent import gather
    from autodidact.evidence.payload import load_payload

    if engine not in (None, "offline", "model"):
        raise InputError(f"--engine {engine!r} is not offline or model", hint="use --engine offline or --engine model")
    if engine == "offline":
        model = "offline"
    payload = load_payload(payload_path)
    from autodidact.config import env

    kb_value = kb if kb is not None else env("AUTODIDACT_KB")  # no --kb and no variable: no knowledge base
    kb_root = Path(kb_value).resolve() if kb_value else None
    settings = load_run_settings(kb_root, model, max_cost, max_tokens, fallback)
    # The call cache lives with the knowledge base, else inside the report folder (self-contained).
    cache_root = kb_root if kb_root is not None else payload.report_path()
    runtime = make_runtime(cache_root, model, no_cache, max_cost, max_tokens, settings=settings)
    if engine == "model" and runtime.is_offline:
        raise InputError("--engine model needs a model", hint="pass --model provider:name or set AUTODIDACT_MODEL")
    console.print(f"gather {payload.dimension_id}: mode {payload.mode}, depth {payload.depth}")

    async def run() -> GatherResult:
        try:
            return await gather(
                payload, runtime=runtime, settings=settings, kb_root=kb_root, out=out, reporter=_CliReporter()
            )
        finally:
            await runtime.aclose()

    return asyncio.run(run())
