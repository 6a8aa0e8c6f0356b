"""``autodidact plan create|validate`` and ``autodidact report``: plan.json and the cited report.

Thin on purpose: read the request, build the runtime, call :mod:`autodidact.plan` or
:mod:`autodidact.report`, render progress with rich on stderr and results as JSON on stdout.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from autodidact.cli.common import console, emit_json, json_option, out
from autodidact.cli.engine_opts import (
    fallback_option,
    max_cost_option,
    max_tokens_option,
    model_option,
    no_cache_option,
)
from autodidact.progress import DIMENSIONS_LABEL, NullProgress

if TYPE_CHECKING:
    from autodidact.jsontypes import JSONObject
    from autodidact.llm.runtime import Runtime
    from autodidact.report.pipeline import ReportSummary

REPORT_DIR_HELP = "Report folder (default: <kb>/reports/<date>_<slug> with --kb, else ./reports/<date>_<slug>)."


REPORT_KB_HELP = (
    "Knowledge base whose sources are searched too (default: $AUTODIDACT_KB, else the current folder "
    "when it is one; otherwise none)."
)


def _kb_root(kb: Path | None) -> Path | None:
    """``--kb`` (must be a KB); else $AUTODIDACT_KB or the current folder when it is a KB; else none."""
    from autodidact.kb import is_kb, open_kb, resolve_root

    if kb is None and not is_kb(resolve_root(None)):
        return None
    return open_kb(kb).root


def _report_dir(request: str, report_dir: Path | None, kb_root: Path | None) -> Path:
    from autodidact.report.folder import default_report_dir

    return report_dir if report_dir is not None else default_report_dir(request, kb_root)


class _RichReporter(NullProgress):
    """Progress of a report run on stderr: step lines, and on a terminal a live line under them that
    reads "evidence · dimensions 2/5 · running d3, d4 · waiting for the model" (``live_status.py``).

    Call :meth:`close` when the run ends, however it ends."""

    def __init__(self, runtime: Runtime | None = None) -> None:
        from autodidact.cli.live_status import LiveStatus

        self.status = LiveStatus(console, runtime)
        self.running: list[str] = []

    def close(self) -> None:
        """Take the live line off the screen."""
        self.status.stop()

    def stage(self, name: str, detail: str = "") -> None:
        console.print(f"[bold]{name}[/bold] {detail}".rstrip())
        self.status.start()
        self.status.set("stage", name)

    def advance(self, done: int, total: int | None = None, label: str = "") -> None:
        if label == DIMENSIONS_LABEL and total:
            self.status.set("dimensions", f"dimensions {done}/{total}")

    def _show_running(self) -> None:
        self.status.set("running", ("running " + ", ".join(self.running)) if self.running else None)

    def dimension_started(self, dim_id: str, name: str, mode: str) -> None:
        console.print(f"  {dim_id} started ({mode}): {name}")
        self.running.append(dim_id)
        self._show_running()

    def dimension_done(self, dim_id: str, stats: JSONObject) -> None:
        console.print(
            f"  [green]{dim_id} done[/green]: {stats.get('claims', 0)} claims, {stats.get('sources', 0)} sources"
        )
        if dim_id in self.running:
            self.running.remove(dim_id)
        self._show_running()

    def dimension_skipped(self, dim_id: str, reason: str) -> None:
        console.print(f"  {dim_id} skipped: {reason}")

    def message(self, text: str) -> None:
        console.print(f"    {text}")

    def warning(self, text: str) -> None:
        console.print(f"[yellow]warning:[/yellow] {text}")
        failed = text.split(":", 1)[0]
        if text.startswith(f"{failed}: failed:") and failed in self.running:
            self.running.remove(failed)
            self._show_running()


def _report_lines(summary: ReportSummary) -> list[str]:
    """What ``report`` says when it is done (``--json`` prints ``summary`` itself instead)."""
    folder = Path(summary["report_dir"])
    usage = summary["usage"]
    calls = usage.get("calls") or 0
    spent = f" · {calls} model call(s), ~${usage.get('cost_usd', 0.0):.4f}" if calls else ""
    failed = summary["dimensions_failed"]
    return [
        f"report: {summary['report']}",
        f"  also in {folder}: report.html, citations.json, references.bib, references.json, sub_reports/",
        f"  dimensions: {len(summary['dimensions_run'])} researched, {len(summary['dimensions_reused'])} reused, "
        f"{len(failed)} failed · {summary['citations']} citation(s){spent}",
    ]


def register(app: typer.Typer) -> None:
    """Add ``plan create``, ``plan validate`` and ``report``."""
    plan_app = typer.Typer(help="Research plans (plan.json): create, check and show them.", no_args_is_help=True)
    app.add_typer(plan_app, name="plan")

    @plan_app.command("create")
    def plan_create(
        request: str = typer.Argument(..., help="The research request, or the path of a file holding it."),
        report_dir: Path | None = typer.Option(None, "--report-dir", help=REPORT_DIR_HELP, file_okay=False),
        kb: Path | None = typer.Option(None, "--kb", help=REPORT_KB_HELP, file_okay=False),
        force: bool = typer.Option(False, "--force", help="Replace an existing plan.json in the report folder."),
        model: str | None = model_option(),
        fallback: str | None = fallback_option(),
        no_cache: bool = no_cache_option(),
        max_cost: float | None = max_cost_option(),
        max_tokens: int | None = max_tokens_option(),
    ) -> None:
        """Write request.md and plan.json (goal, scope, report shape, dimensions, execution order).

        Example: autodidact plan create "Compare asyncio and threading for I/O-bound programs" --report-dir rep
        """
        from autodidact.cli.engine_opts import make_runtime
        from autodidact.errors import InputError
        from autodidact.plan.planner import create_plan
        from autodidact.report.folder import ReportPaths, read_request, write_request
        from autodidact.store import atomic

        text = read_request(request)
        kb_root = _kb_root(kb)
        paths = ReportPaths(_report_dir(text, report_dir, kb_root))
        if paths.plan.exists() and not force:
            raise InputError(f"{paths.plan} already exists", hint="pass --force to replace it, or another --report-dir")
        # As in `report`: without a knowledge base the call cache and the usage ledger live in the
        # report folder, so `usage --report-dir` sees what planning cost.
        cache_root = kb_root if kb_root is not None else paths.root
        runtime = make_runtime(cache_root, model, no_cache, max_cost, max_tokens, fallback=fallback)
        plan = create_plan(text, runtime)
        write_request(paths, text)
        atomic.write_json(paths.plan, plan.to_json())
        console.print(f"plan: {paths.plan} ({len(plan.dimensions)} dimensions, type {plan.report_shape.report_type})")
        emit_json({"ok": True, "plan": str(paths.plan), "report_dir": str(paths.root), "waves": plan.waves()})

    @plan_app.command("validate")
    def plan_validate(
        plan_path: Path = typer.Argument(..., help="Path of plan.json."),
    ) -> None:
        """Check plan.json against every rule (P001...); JSON on stdout; exit 0 valid, 1 invalid, 2 unreadable.

        Example: autodidact plan validate reports/2026-12-01_asyncio/plan.json
        """
        from autodidact.errors import InputError
        from autodidact.plan.validate import load_plan_json, validate_plan

        try:
            data = load_plan_json(plan_path)
        except InputError as exc:
            emit_json({"ok": False, "errors": [{"rule": "P000", "message": exc.message}], "stats": {}})
            raise typer.Exit(2) from None
        report = validate_plan(data)
        emit_json(report.as_dict())
        if not report.ok:
            console.print(f"[red]invalid:[/red] {len(report.errors)} error(s): {report.errors[0]['message']}")
            raise typer.Exit(1)

    @app.command("report")
    def report_cmd(
        request: str = typer.Argument(..., help="The research request, or the path of a file holding it."),
        report_dir: Path | None = typer.Option(None, "--report-dir", help=REPORT_DIR_HELP, file_okay=False),
        kb: Path | None = typer.Option(None, "--kb", help=REPORT_KB_HELP, file_okay=False),
        corpus: list[Path] = typer.Option([], "--corpus", help="Local files or folders to index as sources (repeat)."),
        mode: str = typer.Option("normal", "--mode", help="quick (skim), normal or heavy (thorough)."),
        model: str | None = model_option(),
        fallback: str | None = fallback_option(),
        no_cache: bool = no_cache_option(),
        max_cost: float | None = max_cost_option(),
        max_tokens: int | None = max_tokens_option(),
        check_support: bool = typer.Option(
            False,
            "--check-support",
            help="With a model: a second call judges each written sentence against its quotes; refused ones are "
            "dropped (and counted in the report's footer and prose.json).",
        ),
        workers: bool = typer.Option(
            False,
            "--workers",
            help="Put the dimensions on the team backend's queue (AUTODIDACT_DATABASE_URL) for `autodidact worker` "
            "processes on any machine, wait for them, then write the report here. The report folder must be "
            "reachable by the workers (a shared file system).",
        ),
        as_json: bool = json_option(),
    ) -> None:
        """Plan, gather evidence per dimension, and write a cited report.md, citations.json and report.html.

        With a model, the model writes the prose: each sentence names the claims it rests on and is kept
        only when its claims' quotes cover it (prose.json records them; verify re-proves them). Offline,
        each claim becomes one plain sentence.

        Rerunning the same command resumes: finished dimensions are not redone. On a terminal a live
        line shows dimensions done/total and a spinner while the model is thinking. It ends with the
        report's path and counts; --json prints the run's summary as JSON on stdout instead.

        Example: autodidact report "How do Python generators work?" --corpus docs/ --report-dir rep

        Team example: AUTODIDACT_DATABASE_URL=postgresql://me@db/team autodidact report "..." --workers
        """
        from autodidact.cli.engine_opts import load_run_settings, make_runtime
        from autodidact.errors import InputError
        from autodidact.report.folder import read_request
        from autodidact.report.pipeline import run_report_sync

        if mode not in {"quick", "normal", "heavy"}:
            raise InputError(f"--mode {mode!r} is not quick, normal or heavy")
        text = read_request(request)
        missing = [str(p) for p in corpus if not p.exists()]
        if missing:  # before the report folder exists: bad input leaves nothing behind
            from autodidact.errors import NotFoundError

            raise NotFoundError(f"corpus path {missing[0]} does not exist", hint="check the --corpus paths")
        kb_root = _kb_root(kb)
        settings = load_run_settings(kb_root, model, max_cost, max_tokens, fallback)
        if check_support:
            settings = settings.model_copy(
                update={"report": settings.report.model_copy(update={"check_support": True})}
            )
        if workers:
            from autodidact.config import database_url

            if database_url(settings) is None:  # before anything is written: bad input leaves nothing behind
                raise InputError(
                    "--workers needs the team backend (a PostgreSQL server)",
                    hint="set AUTODIDACT_DATABASE_URL=postgresql://user@host/db (docs/team.md), or drop --workers",
                )
        folder = _report_dir(text, report_dir, kb_root)
        # Without a knowledge base, the model-call cache and usage ledger live in the report folder,
        # so a resumed run re-pays no call it already made.
        cache_root = kb_root if kb_root is not None else folder
        runtime = make_runtime(cache_root, model, no_cache, max_cost, max_tokens, settings=settings)
        reporter = _RichReporter(runtime)
        try:
            result = run_report_sync(
                text,
                report_dir=folder,
                runtime=runtime,
                settings=settings,
                kb_root=kb_root,
                corpus=list(corpus),
                mode=mode,
                reporter=reporter,
                workers=workers,
            )
        finally:
            reporter.close()
        if as_json:
            emit_json(result.summary())
        else:
            for line in _report_lines(result.summary()):
                out.print(line, markup=False)
        if result.failed:
            for dim_id, why in result.failed.items():
                console.print(f"[red]{dim_id} failed:[/red] {why}")
            console.print("hint: rerun the same command to retry the failed dimensions; finished ones are kept")
            raise typer.Exit(1)
