"""``autodidact doctor`` and ``autodidact usage``: what will run, whether it answers, what it cost.

Why: before a long run a person needs to see the settings in effect (secrets masked), which model
engine and which search providers will run, and — with ``--check`` — that the model server
actually answers one call. After a run, ``usage`` totals the ledger by task and by model.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from autodidact.cli.common import console, emit_json, json_option, kb_option
from autodidact.cli.engine_opts import model_option

if TYPE_CHECKING:
    from autodidact.config import BudgetSettings, Settings
    from autodidact.jsontypes import JSONObject
    from autodidact.llm.base import Completion
    from autodidact.llm.ledger import UsageTotals
    from autodidact.llm.runtime import Runtime


def _flatten(data: Mapping[str, object], prefix: str = "") -> list[tuple[str, object]]:
    rows: list[tuple[str, object]] = []
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and value and key != "prices":
            rows.extend(_flatten(value, dotted + "."))
        else:
            rows.append((dotted, value))
    return rows


def _kb_root(kb: Path | None) -> Path | None:
    from autodidact.kb import is_kb, resolve_root

    root = resolve_root(kb)
    if is_kb(root):
        return root.resolve()
    if kb is not None:
        from autodidact.kb import open_kb

        open_kb(kb)  # raises the clear "not a knowledge base" error
    return None


def _search_engines(settings: Settings) -> list[str]:
    lines = ["local full-text search (always)"]
    if not settings.search.providers:
        return [*lines, "no web search providers configured (search.providers / AUTODIDACT_SEARCH_PROVIDERS)"]
    from autodidact.errors import AutodidactError
    from autodidact.sources.search.registry import build_providers

    try:
        providers = build_providers(settings.search)
    except AutodidactError as exc:
        return [*lines, f"[red]web search not usable[/red]: {exc.message}" + (f" ({exc.hint})" if exc.hint else "")]
    return [*lines, *(f"web: {getattr(p, 'name', type(p).__name__)}" for p in providers)]


def _plain(line: str) -> str:
    """A console line without its rich markup (for JSON)."""
    from rich.text import Text

    return Text.from_markup(line).plain


def _secret_vars() -> list[str]:
    from autodidact.config import SECRET_VARS
    from autodidact.llm.registry import PRESETS

    names = list(SECRET_VARS)
    for preset in PRESETS.values():
        if preset.key_env_var and preset.key_env_var not in names:
            names.append(preset.key_env_var)
    return names


def _check(runtime: Runtime) -> None:
    import asyncio

    from autodidact.llm.base import Request
    from autodidact.llm.retry import RetryPolicy

    runtime.retry_policy = RetryPolicy(max_attempts=2, base_delay=0.5, attempt_timeout=runtime.settings.timeout)
    request = Request(
        messages=[
            {"role": "system", "content": "You are a connectivity check. Reply with JSON only."},
            {"role": "user", "content": 'Reply with exactly {"ok": true}'},
        ],
        schema={"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]},
        task="doctor",
        max_tokens=32,
        schema_name="doctor",
    )
    started = time.monotonic()

    async def call() -> Completion:
        try:
            return await runtime.complete(request)
        finally:
            await runtime.aclose()

    completion = asyncio.run(call())
    seconds = time.monotonic() - started
    usage = completion.usage
    console.print(
        f"[green]model server OK[/green]: {runtime.describe()} answered in {seconds:.2f} s "
        f"({usage.input_tokens} in / {usage.output_tokens} out tokens): {completion.text.strip()[:80]!r}",
        soft_wrap=True,
    )
    _speed(runtime)


def _speed(runtime: Runtime) -> None:
    """Measure generation speed with one longer reply and say which tasks can finish in time."""
    import asyncio

    from autodidact.llm.base import Request

    request = Request(
        messages=[{"role": "user", "content": "Count from 1 to 200, numbers separated by spaces, nothing else."}],
        task="doctor.speed",
        max_tokens=SPEED_TOKENS,
    )

    async def call() -> tuple[Completion, float]:
        try:
            started = time.monotonic()
            done = await runtime.complete(request)
            return done, time.monotonic() - started
        finally:
            await runtime.aclose()

    try:
        completion, seconds = asyncio.run(call())
    except Exception as exc:  # the speed is advice: a failure here must not hide the check's result
        console.print(f"[yellow]speed not measured[/yellow]: {exc}", soft_wrap=True)
        return
    produced = completion.usage.output_tokens
    if produced < 16 or seconds <= 0:
        console.print(f"speed not measured: the server produced {produced} tokens", soft_wrap=True)
        return
    speed = produced / seconds
    timeout = runtime.settings.timeout
    console.print(
        f"generation speed: ~{speed:.0f} tokens/s ({produced} tokens in {seconds:.1f} s); "
        f"set [llm] tokens_per_second = {speed:.0f} to time each call by its reply limit",
        soft_wrap=True,
    )
    for name, limit in task_limits():
        need = limit / speed
        if need > timeout and not runtime.settings.tokens_per_second:
            console.print(
                f"[yellow]warning[/yellow]: task {name} may write up to {limit} tokens: ~{need:.0f} s at this "
                f"speed, beyond the {timeout:g} s timeout ([llm] timeout, or set tokens_per_second)",
                soft_wrap=True,
            )


SPEED_TOKENS = 160


def task_limits() -> list[tuple[str, int]]:
    """(task name, its reply limit) for every model task, for ``doctor --check``'s time estimates."""
    from autodidact.debate.review import ReviewTask
    from autodidact.debate.turns import ModeTask, RoleTurnTask, SignalTask
    from autodidact.evidence.extract_task import ExtractClaimsTask
    from autodidact.evidence.findings import SynthesisTask
    from autodidact.evidence.search_plan import SearchPlanTask
    from autodidact.plan.planner import PlanTask
    from autodidact.questions.task import ProposeQuestions
    from autodidact.wiki.audit.check_task import AnswerQuestionTask
    from autodidact.wiki.compile.compile_task import CompileArticleTask

    tasks = [ProposeQuestions, SearchPlanTask, ExtractClaimsTask, SynthesisTask, CompileArticleTask,
             AnswerQuestionTask, PlanTask, RoleTurnTask, SignalTask, ModeTask, ReviewTask]  # fmt: skip
    return [(str(getattr(t, "name", "")), int(getattr(t, "max_tokens", 0))) for t in tasks]


def output_mode(model: object) -> str:
    """How the model is held to the schema, in words (``doctor``)."""
    fmt = getattr(model, "response_format", None)
    if fmt == "json_schema":
        return "schema-constrained (json_schema response format)"
    if fmt == "json_object_schema":
        return "schema-constrained (schema in the json_object response format: llama.cpp grammar)"
    if fmt == "json_object":
        return "JSON mode, schema in the prompt, reply validated"
    return "schema in the prompt, reply validated"


def _dropped(totals: UsageTotals) -> str:
    n = int(totals.get("dropped", 0))
    return f"{n} written sentences dropped by the checks, " if n else ""


def _show_store(root: Path | None, out: Callable[[str], None], facts: JSONObject) -> bool:
    """Print which backend holds the derived data and, for PostgreSQL, check that the server answers
    (URL shown with its password masked); False when the configured server cannot be used."""
    from rich.markup import escape

    from autodidact.config import database_url, load_settings
    from autodidact.errors import AutodidactError
    from autodidact.store.pg import mask_url, server_version

    out("[bold]store backend[/bold]")
    try:
        settings = load_settings(root)
        url = database_url(settings)
    except AutodidactError as exc:
        out(f"  [red]not usable[/red]: {escape(exc.message)}")
        facts["store"] = {"backend": "postgres", "error": exc.message}
        return False
    if url is None:
        out("  sqlite: .autodidact/index.sqlite in each folder (one machine; the default)")
        facts["store"] = {"backend": "sqlite"}
        return True
    shown = mask_url(url)
    name = settings.store.name
    if name is None and root is not None:
        id_file = root / ".autodidact" / "store-id"
        name = id_file.read_text(encoding="utf-8").strip() if id_file.is_file() else "(made on first use)"
    store: JSONObject = {"backend": "postgres", "url": shown, "name": name}
    facts["store"] = store
    out(f"  postgres: {escape(shown)}")
    if name is not None:
        out(f"  this knowledge base's name there: {escape(name)}")
    try:
        version = server_version(url)
    except AutodidactError as exc:
        out(f"  [red]not reachable[/red]: {escape(exc.message)}")
        if exc.hint:
            out(f"  hint: {escape(exc.hint)}")
        store["error"] = exc.message
        return False
    out(f"  server answers: {escape(version)}")
    store["server"] = version
    return True


def register(app: typer.Typer) -> None:
    """Add ``doctor`` and ``usage``."""

    @app.command("doctor")
    def doctor_cmd(
        kb: Path | None = kb_option(),
        model: str | None = model_option(),
        check: bool = typer.Option(False, "--check", help="Also send one small call to the configured model server."),
        as_json: bool = json_option(),
    ) -> None:
        """Show the settings in effect (secrets masked), which model and search engines will run.

        With --check, send one call to the model server to prove it answers. With --json the same
        facts go to stdout as JSON (the readable listing still goes to stderr).

        Example: autodidact doctor --kb my-kb --model ollama:qwen2.5:7b --check
        """
        from rich.markup import escape

        from autodidact.cli.engine_opts import load_run_settings
        from autodidact.config import mask, secret, user_config_path
        from autodidact.errors import AutodidactError
        from autodidact.llm.registry import build_runtime

        def out(line: str) -> None:
            console.print(line, soft_wrap=True)

        root = _kb_root(kb)
        settings = load_run_settings(root, model)
        if settings.store.url:  # a password written into [store] url is never shown
            from autodidact.store.pg import mask_url

            settings = settings.model_copy(
                update={"store": settings.store.model_copy(update={"url": mask_url(settings.store.url)})}
            )
        facts: JSONObject = {
            "settings_files": {
                "user": str(user_config_path()),
                "user_found": user_config_path().is_file(),
                "knowledge_base": str(root / "autodidact.toml") if root is not None else None,
            },
            "settings": settings.model_dump(mode="json"),
            "secrets": {var: mask(secret(var)) for var in _secret_vars()},
            "search_engines": [_plain(line) for line in _search_engines(settings)],
        }
        out("[bold]settings files[/bold]")
        user_file = user_config_path()
        out(f"  user: {user_file} ({'found' if user_file.is_file() else 'absent'})")
        if root is not None:
            out(f"  knowledge base: {root / 'autodidact.toml'}")
        else:
            out("  knowledge base: (none here; pass --kb DIR)")
        out("[bold]settings in effect[/bold]")
        for key, value in _flatten(settings.model_dump()):
            out(f"  {key} = {escape(repr(value))}")
        out("[bold]secrets (environment only)[/bold]")
        for var in _secret_vars():
            out(f"  {var}: {mask(secret(var))}")
        store_ok = _show_store(root, out, facts)
        out("[bold]model engine[/bold]")
        try:
            runtime = build_runtime(settings, root)
        except AutodidactError as exc:
            if check:
                raise
            out(f"  [red]not usable[/red]: {escape(exc.message)}")
            if exc.hint:
                out(f"  hint: {escape(exc.hint)}")
            if as_json:
                emit_json({**facts, "engine": None, "engine_error": exc.message, "offline": None})
            return
        facts.update(engine=runtime.describe(), offline=runtime.is_offline)
        out(f"  engine: {runtime.describe()}")
        if runtime.is_offline:
            out("  the offline engine runs (templates, full-text retrieval, extractive selection)")
        else:
            model_obj = runtime.model
            assert model_obj is not None
            llm = runtime.settings
            console.print(
                f"  output: {output_mode(model_obj)}; concurrency {llm.concurrency}; "
                f"cache {'off' if runtime.no_cache else 'on'}",
                soft_wrap=True,
            )
            console.print(
                f"  context window: {runtime.context_window or 'unknown'} tokens; fallback: {llm.fallback}; "
                f"streaming: {'on' if llm.stream else 'off'}; retries: {llm.max_retries}",
                soft_wrap=True,
            )
        out("[bold]search engines[/bold]")
        for line in _search_engines(settings):
            out(f"  {line}")
        if check:
            if runtime.is_offline:
                out("offline engine: no model server to check")
            else:
                runtime.no_cache = True
                runtime.cache = None
                _check(runtime)
                facts["check"] = "ok"
        if as_json:
            emit_json(facts)
        if not store_ok:
            raise typer.Exit(1)

    @app.command("usage")
    def usage_cmd(
        kb: Path | None = kb_option(),
        report_dir: Path | None = typer.Option(
            None, "--report-dir", metavar="DIR", help="Read a report folder's ledger instead of a knowledge base's."
        ),
        team: bool = typer.Option(
            False, "--team", help="The whole team's calls, from the team backend's server (AUTODIDACT_DATABASE_URL)."
        ),
        as_json: bool = json_option(),
    ) -> None:
        """Total model calls, tokens and estimated cost, by task and by model, from the usage ledger.

        Failed and timed-out calls count as calls (their column says how many); steps the offline
        engine did after a model reply stayed invalid are counted as fallbacks, not calls.

        Example: autodidact usage --kb my-kb --json; autodidact usage --report-dir reports/2026-12-03_x
        """
        from autodidact.errors import InputError
        from autodidact.llm.ledger import read_totals

        team_line = ""
        if team:
            from autodidact.config import database_url, load_settings
            from autodidact.llm.pgcache import team_totals

            settings = load_settings(None)
            url = database_url(settings)
            if url is None:
                raise InputError(
                    "--team needs the team backend (a PostgreSQL server)",
                    hint="set AUTODIDACT_DATABASE_URL=postgresql://user@host/db (docs/team.md)",
                )
            totals = team_totals(url)
            team_line = _team_budget_line(url, settings.budget)
        elif report_dir is not None:
            if not report_dir.is_dir():
                raise InputError(f"{report_dir}: no such report folder", hint="pass the folder report wrote into")
            totals = read_totals(report_dir / ".autodidact" / "usage_ledger.jsonl")
        else:
            from autodidact.kb import open_kb

            totals = read_totals(open_kb(kb).usage_ledger)
        if as_json:
            emit_json(totals)
            return
        from rich.table import Table

        if totals["calls"] == 0 and not totals.get("fallbacks"):
            console.print("no model calls recorded yet (the offline engine records none)")
            return
        columns = ("name", "calls", "failed", "fallbacks", "cached", "input tokens", "output tokens", "cost (USD)",
                   "seconds")  # fmt: skip
        for title, group in (("by task", totals["by_task"]), ("by model", totals["by_model"])):
            table = Table(title=title, title_justify="left")
            for column in columns:
                if column == "name":  # never cut a task name ("evidence.…" twice told nothing)
                    table.add_column(column, justify="left", no_wrap=True, min_width=max(map(len, group), default=4))
                else:
                    table.add_column(column, justify="right")
            for name, row in group.items():
                table.add_row(
                    name or "(none)",
                    str(row["calls"]),
                    str(row.get("failed_calls", 0)),
                    str(row.get("fallbacks", 0)),
                    str(row["cached_calls"]),
                    str(row["input_tokens"]),
                    str(row["output_tokens"]),
                    f"{row['cost_usd']:.4f}",
                    f"{row['seconds']:.1f}",
                )
            console.print(table)
        console.print(
            f"total: {totals['calls']} calls ({totals['cached_calls']} cached, "
            f"{totals.get('failed_calls', 0)} failed), "
            f"{totals.get('fallbacks', 0)} steps by the offline engine, "
            f"{_dropped(totals)}"
            f"{totals['input_tokens']} input + {totals['output_tokens']} output tokens, "
            f"~${totals['cost_usd']:.4f}",
            soft_wrap=True,
        )
        if team_line:
            console.print(team_line, soft_wrap=True, markup=False)
        if totals["unpriced_models"]:
            console.print(
                "[yellow]no price set for[/yellow] "
                + ", ".join(totals["unpriced_models"])
                + ": their cost counts as 0; set \\[llm] prices in autodidact.toml"
            )


def _team_budget_line(url: str, budget: BudgetSettings) -> str:
    """What the team spent against its caps (``[budget] team_max_*``), or "" when none is set."""
    if budget.team_max_tokens is None and budget.team_max_cost is None:
        return ""
    from autodidact.llm.pgcache import PgTeamBudget

    shared = PgTeamBudget(url, budget)
    try:
        tokens, cost = shared.spent()
    finally:
        shared.close()
    parts = []
    if budget.team_max_tokens is not None:
        parts.append(f"{tokens} of team_max_tokens {budget.team_max_tokens}")
    if budget.team_max_cost is not None:
        parts.append(f"${cost:.4f} of team_max_cost ${budget.team_max_cost:g}")
    return "team budget: " + ", ".join(parts) + " spent"
