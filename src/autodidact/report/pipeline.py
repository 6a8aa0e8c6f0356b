"""``run_report``: request → plan → evidence per dimension → sub-reports → report.md, resumably.

Why this shape: each step writes its artifact atomically into the report folder and records what
is done in plan.json (each dimension's ``status``), so an interrupted run continues where it
stopped and never redoes a dimension whose evidence file is already valid. Dimensions run as soon
as their upstreams are valid (so one wave runs in parallel, and nothing waits for an unrelated
slow dimension); a downstream dimension receives its upstream evidence as ``upstream_inputs``
built from the plan's ``dependency_inputs``. Every evidence file passes the validator against the
report's own ``source_cache`` before anything uses it, with one retry (supplement mode when a
file exists) on failure. Expected failures of one dimension do not stop the others; bugs and
interruptions do.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypedDict

from autodidact.errors import AutodidactError, InputError, NotFoundError, ValidationFailed
from autodidact.evidence.files import evidence_from_json
from autodidact.evidence.payload import Payload
from autodidact.evidence.prose import Written
from autodidact.evidence.validator import validate_evidence
from autodidact.jsontypes import JSONObject
from autodidact.kb import detect_language, team_backend
from autodidact.plan.models import Dimension, Plan
from autodidact.plan.planner import acreate_plan
from autodidact.plan.validate import load_plan_json, validate_plan
from autodidact.progress import DIMENSIONS_LABEL, NullProgress, Prefixed, Progress
from autodidact.report.artifacts import ProseFile, as_prose_file
from autodidact.report.citations import Evidences, SectionOf
from autodidact.report.compose import compose_report
from autodidact.report.folder import ReportPaths, write_request
from autodidact.report.grounding import ground_plan
from autodidact.report.html import render_html
from autodidact.report.labels import label
from autodidact.report.references import bibtex, csl_json
from autodidact.report.subreport import render_subreport
from autodidact.report.writing import BlockKey, prose_record, write_prose
from autodidact.sources.snapshots import SnapshotStore
from autodidact.store import atomic, batch
from autodidact.store.lock import WriterLock
from autodidact.store.pglock import AdvisoryLock
from autodidact.text.sections import QuoteLocator, Section, section_at, split_sections
from autodidact.text.support import DEFAULT_SUPPORT

if TYPE_CHECKING:
    from autodidact.config import Settings
    from autodidact.llm.ledger import UsageTotals
    from autodidact.llm.runtime import Runtime

MODES = {"quick": ("quick", "skim"), "normal": ("initial", None), "heavy": ("initial", "thorough")}


class ReportProgress(Progress, Protocol):
    """What a report run tells whoever watches it: :class:`Progress` plus the dimensions' lifecycle."""

    def dimension_started(self, dim_id: str, name: str, mode: str) -> None:
        """The research agent started on a dimension."""

    def dimension_done(self, dim_id: str, stats: JSONObject) -> None:
        """A dimension's evidence is valid and recorded in plan.json."""

    def dimension_skipped(self, dim_id: str, reason: str) -> None:
        """A dimension was not run (already valid, or blocked by a failed upstream)."""


class NullReporter(NullProgress):
    """Shows nothing; subclass it to record or render events (stages, dimensions, agent lines)."""

    def dimension_started(self, dim_id: str, name: str, mode: str) -> None:
        pass

    def dimension_done(self, dim_id: str, stats: JSONObject) -> None:
        pass

    def dimension_skipped(self, dim_id: str, reason: str) -> None:
        pass


class ReportSummary(TypedDict):
    """``report --json``: how the run ended and where the report is."""

    ok: bool
    report_dir: str
    report: str
    dimensions_run: list[str]
    dimensions_reused: list[str]
    dimensions_failed: dict[str, str]
    citations: int
    usage: UsageTotals | dict[str, int]  # {} when no model call was counted


@dataclass
class ReportResult:
    """What a run produced and did."""

    report_dir: Path
    plan: Plan
    ran: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    citations: int = 0
    usage: UsageTotals | None = None

    @property
    def report_md(self) -> Path:
        return ReportPaths(self.report_dir).report_md

    def summary(self) -> ReportSummary:
        """JSON-ready summary for the CLI."""
        return {
            "ok": not self.failed,
            "report_dir": str(self.report_dir),
            "report": str(self.report_md),
            "dimensions_run": self.ran,
            "dimensions_reused": self.reused,
            "dimensions_failed": self.failed,
            "citations": self.citations,
            "usage": self.usage or {},
        }


class _Deps(TypedDict):
    """What a run works with, beside its folder and plan."""

    runtime: Runtime
    settings: Settings
    kb_root: Path | None
    reporter: ReportProgress


class _Run:
    def __init__(self, paths: ReportPaths, plan: Plan, request: str, mode: str, deps: _Deps) -> None:
        self.paths, self.plan, self.request, self.mode = paths, plan, request, mode
        self.runtime: Runtime = deps["runtime"]
        self.settings: Settings = deps["settings"]
        self.kb_root: Path | None = deps["kb_root"]
        self.reporter: ReportProgress = deps["reporter"]
        self.evidence_mode, self.depth = MODES[mode]
        self.result = ReportResult(paths.root, plan)
        self.evidences: Evidences = {}
        self.done: dict[str, asyncio.Event] = {d.id: asyncio.Event() for d in plan.dimensions}
        self.finished = 0  # dimensions settled, for the "k of n" the reporter shows

    # -- plan.json status ------------------------------------------------------------------------
    def set_status(self, dim_id: str, status: str) -> None:
        dim = self.plan.dimension(dim_id)
        if dim.status != status:
            dim.status = status  # type: ignore[assignment]
            atomic.write_json(self.paths.plan, self.plan.to_json())

    # -- validation gate -------------------------------------------------------------------------
    def upstreams(self, dim: Dimension) -> list[str]:
        return [] if self.evidence_mode == "quick" else [d.dimension_id for d in dim.dependency_inputs]

    def check(self, dim: Dimension) -> tuple[bool, JSONObject, str]:
        """(valid, stats or {}, summary of errors) for the dimension's evidence file as it is now.

        The validator reads the raw JSON (a broken file is a list of rule codes); only a file it
        passes is read into an :class:`EvidenceFile`, from the same bytes, and used."""
        path = self.paths.evidence(dim.id)
        if not path.is_file():
            return False, {}, "missing"
        try:
            text = path.read_text(encoding="utf-8")
            data = json.loads(text)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            return False, {}, f"unreadable ({exc})"
        allowed = {"quick"} if self.evidence_mode == "quick" else {"initial", "supplement"}
        mode = data.get("mode") if isinstance(data, dict) else None
        if mode not in allowed:
            return False, {}, f"mode {mode!r} does not fit --mode {self.mode}"
        report = validate_evidence(
            data,
            source_cache=self.paths.source_cache,
            plan=None if self.evidence_mode == "quick" else self.plan.to_json(),
            expected_mode=mode,
            require_version="1.2",
            upstream={u: self.evidences[u].to_json() for u in self.upstreams(dim) if u in self.evidences},
        )
        if not report.ok:
            return False, {}, report.summary(3)
        try:
            self.evidences[dim.id] = evidence_from_json(text, path.name)
        except InputError as exc:  # valid, yet not loadable: a gap between the models and the validator
            return False, {}, exc.message
        return True, report.stats, ""

    # -- one dimension ---------------------------------------------------------------------------
    def payload(self, dim: Dimension, mode: str) -> Payload:
        plan = self.plan
        scope = plan.scope
        context = (
            f"{plan.research_goal} Objects: {', '.join(scope.objects)}. Time: {scope.time_range}. "
            f"Region: {scope.region}. Expected output: {dim.expected_output}"
        )
        upstream = [
            {
                "dimension_id": d.dimension_id,
                "evidence_path": str(self.paths.evidence(d.dimension_id).relative_to(self.paths.root)),
                "needed_for": d.needed_for,
                "consume": d.consume,
                "scope_rule": d.scope_rule,
            }
            for d in dim.dependency_inputs
            if mode != "quick"
        ]
        return Payload.model_validate(
            {
                "query": self.request,
                "language": plan.language,
                "name": dim.name,
                "description": dim.description,
                "key_questions": [{"id": f"kq{i + 1}", "text": q} for i, q in enumerate(dim.key_questions)],
                "focus": dim.focus,
                "context_from_briefing": context,
                "sources": [s.model_dump() for s in dim.sources],
                "depth": self.depth or dim.depth,
                "time_sensitivity": dim.time_sensitivity or None,
                "scope_ownership": dim.scope_ownership.model_dump(),
                "upstream_inputs": upstream,
                "report_dir": str(self.paths.root),
                "dimension_id": dim.id,
                "mode": mode,
                "plan_path": None if mode == "quick" else "plan.json",
            }
        )

    async def gather_once(self, dim: Dimension, mode: str) -> None:
        from autodidact.evidence.agent import gather

        await gather(
            self.payload(dim, mode),
            runtime=self.runtime,
            settings=self.settings,
            kb_root=self.kb_root,
            out=self.paths.evidence(dim.id),
            reporter=Prefixed(self.reporter, dim.id),
        )

    async def run_dimension(self, dim: Dimension) -> None:
        try:
            for up in self.upstreams(dim):
                await self.done[up].wait()
                if up not in self.evidences:
                    self.result.failed[dim.id] = f"upstream {up} has no valid evidence"
                    self.reporter.dimension_skipped(dim.id, f"upstream {up} has no valid evidence")
                    return
            ok, _stats, _ = self.check(dim)
            if ok:
                self.set_status(dim.id, "done")
                self.result.reused.append(dim.id)
                self.reporter.dimension_skipped(dim.id, "evidence already valid")
                return
            await self.research(dim)
        finally:
            self.done[dim.id].set()
            self.finished += 1
            self.reporter.advance(self.finished, len(self.done), DIMENSIONS_LABEL)

    async def research(self, dim: Dimension) -> None:
        self.set_status(dim.id, "running")
        self.reporter.dimension_started(dim.id, dim.name, self.evidence_mode)
        problem = ""
        try:
            await self.gather_once(dim, self.evidence_mode)
        except AutodidactError as exc:
            problem = exc.message
        ok, stats, why = self.check(dim)
        if not ok:
            exists = self.paths.evidence(dim.id).is_file()
            retry = "supplement" if exists and self.evidence_mode != "quick" else self.evidence_mode
            self.reporter.warning(f"{dim.id}: evidence not valid ({problem or why}); one {retry} retry")
            try:
                await self.gather_once(dim, retry)
                problem = ""
            except AutodidactError as exc:
                problem = exc.message
            ok, stats, why = self.check(dim)
        if not ok:
            self.set_status(dim.id, "failed")
            self.result.failed[dim.id] = problem or why
            self.reporter.warning(f"{dim.id}: failed: {problem or why}")
            return
        self.set_status(dim.id, "done")
        self.result.ran.append(dim.id)
        self.reporter.dimension_done(dim.id, stats)


def _existing_plan(paths: ReportPaths) -> Plan | None:
    """The folder's plan.json when there is one; an invalid one is an error, never silently replaced."""
    if not paths.plan.is_file():
        return None
    data = load_plan_json(paths.plan)
    report = validate_plan(data)
    if not report.ok:
        first = report.errors[0]
        raise ValidationFailed(
            f"{paths.plan}: existing plan fails {first['rule']}: {first['message']}",
            hint="fix plan.json (autodidact plan validate) or delete it to plan again",
        )
    return Plan.model_validate(data)


async def run_report(
    request: str,
    *,
    report_dir: Path,
    runtime: Runtime,
    settings: Settings,
    kb_root: Path | None = None,
    corpus: list[Path] | None = None,
    mode: str = "normal",
    reporter: ReportProgress | None = None,
    workers: bool = False,
) -> ReportResult:
    """Run (or resume) the whole report pipeline in ``report_dir``.

    ``workers``: the dimensions go to the team backend's queue for ``autodidact worker`` processes
    instead of running here (report/workers.py, docs/team.md); needs the PostgreSQL backend."""
    if mode not in MODES:
        raise InputError(f"mode {mode!r} is not quick, normal or heavy", hint="use --mode quick, normal or heavy")
    reporter = reporter or NullReporter()
    paths = ReportPaths(Path(report_dir))
    paths.root.mkdir(parents=True, exist_ok=True)
    team = team_backend(paths.root, settings_root=kb_root)
    if workers and team is None:
        raise InputError(
            "--workers needs the team backend (a PostgreSQL server)",
            hint="set AUTODIDACT_DATABASE_URL=postgresql://user@host/db (docs/team.md), or drop --workers",
        )
    # One writer per report folder: a second run on it fails fast, naming the holder's pid (and, with
    # the team backend, a run on another machine is refused by the server's lock).
    remote = AdvisoryLock(team.url, team.name, "report folder") if team is not None else None
    with WriterLock(paths.root / ".autodidact" / "lock", remote=remote):
        queue_url = team.url if (workers and team is not None) else None
        return await _run_locked(paths, request, runtime, settings, kb_root, corpus, mode, reporter, queue_url)


async def _run_locked(
    paths: ReportPaths,
    request: str,
    runtime: Runtime,
    settings: Settings,
    kb_root: Path | None,
    corpus: list[Path] | None,
    mode: str,
    reporter: ReportProgress,
    queue_url: str | None = None,
) -> ReportResult:
    batch.recover(paths.root, batch.journal_path(paths.root / ".autodidact"))  # before the sweep takes its temps
    for leftover in atomic.sweep_stale_temps(paths.root):  # a killed earlier run's half-done writes
        reporter.warning(f"removed {leftover.relative_to(paths.root)}, left by an interrupted write")
    write_request(paths, request)
    if corpus:
        from autodidact.sources.ingest import index_corpus

        reporter.stage("corpus", f"indexing {len(corpus)} path(s) into the report folder")
        missing = [str(p) for p in corpus if not Path(p).exists()]
        if missing:
            raise NotFoundError(f"corpus path {missing[0]} does not exist", hint="check the --corpus paths")
        indexed = await asyncio.to_thread(index_corpus, paths.root, corpus)
        counts = f"{len(indexed.added)} indexed, {len(indexed.unchanged)} unchanged, {len(indexed.skipped)} skipped"
        reporter.stage("corpus", counts)
    plan = _existing_plan(paths)
    if plan is None:
        reporter.stage("plan", f"planning ({runtime.describe()})")
        plan = await acreate_plan(request, runtime)
        # Facet questions from the documents' own sections (report/grounding.py), before the plan is
        # kept: a resumed run reuses exactly this plan.
        roots = [r for r in (paths.root, kb_root) if r is not None]
        plan = await asyncio.to_thread(ground_plan, plan, request, roots)
        atomic.write_json(paths.plan, plan.to_json())
    else:
        reporter.stage("plan", f"reusing {paths.plan.name}")
    run = _Run(paths, plan, request, mode, {"runtime": runtime, "settings": settings, "kb_root": kb_root,
                                              "reporter": reporter})  # fmt: skip
    reporter.stage("evidence", f"{len(plan.dimensions)} dimensions in {len(plan.waves())} wave(s)")
    reporter.advance(0, len(plan.dimensions), DIMENSIONS_LABEL)
    order = [plan.dimension(d) for d in plan.execution_order]
    if queue_url is not None:
        from autodidact.report.workers import dispatch

        await dispatch(run, order, queue_url)
    else:
        await _run_here(run, order)
    reporter.stage("compose", "sub-reports, report.md, citations.json, report.html")
    ordered = {d: run.evidences[d] for d in plan.execution_order if d in run.evidences}
    threshold = settings.report.support_threshold
    if runtime.writes_prose:
        reporter.stage("write", f"writing the report's prose from its claims ({runtime.describe()})")
    check = settings.report.check_support
    previous = _previous_prose(paths)
    prose = await write_prose(plan, ordered, runtime, threshold, check=check, previous=previous)
    write_outputs(
        paths, plan, run.evidences, request, mode, runtime.describe(), list(run.result.failed), prose, threshold, check
    )
    run.result.citations = len(json.loads(paths.citations.read_text(encoding="utf-8"))["citations"])
    run.result.usage = runtime.usage_totals()
    return run.result


async def _run_here(run: _Run, order: list[Dimension]) -> None:
    """Every dimension in this process, each as soon as its upstreams are valid."""
    try:
        async with asyncio.TaskGroup() as group:
            for dim in order:
                group.create_task(run.run_dimension(dim))
    except BaseExceptionGroup as failed:  # a bug or an interruption: surface the first one as itself
        raise failed.exceptions[0] from None


def snapshot_sections(root: Path) -> SectionOf:
    """(snapshot_ref, quote) → the heading of the section of the snapshot the quote stands in.

    Each snapshot is read and split once; a snapshot that cannot be read, a quote not found, or a
    document without sections gives "" (the reference is the whole document then)."""
    store = SnapshotStore.for_folder(root)
    cache: dict[str, tuple[list[Section], QuoteLocator] | None] = {}

    def section_of(ref: str, quote: str) -> str:
        if ref not in cache:
            try:
                text = store.read(ref)
            except Exception:  # a missing or damaged snapshot: verify reports it, the report still renders
                cache[ref] = None
            else:
                cache[ref] = (split_sections(text, ""), QuoteLocator(text))
        found = cache[ref]
        if not found or not found[0] or not quote:
            return ""
        sections, locator = found
        where = locator.find(quote)
        return section_at(sections, where[0]).title if where else ""

    return section_of


def _previous_prose(paths: ReportPaths) -> ProseFile | None:
    """The last run's prose.json, if it reads (a damaged one is simply not reused)."""
    try:
        data = json.loads(paths.prose.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return as_prose_file(data)


def write_outputs(
    paths: ReportPaths,
    plan: Plan,
    evidences: Evidences,
    request: str,
    mode: str,
    engine: str,
    failed: list[str],
    prose: dict[BlockKey, Written] | None = None,
    threshold: float = DEFAULT_SUPPORT,
    check: bool = False,
) -> None:
    """Render every sub-report, report.md, citations.json, prose.json and report.html from valid evidence."""
    ordered = {d: evidences[d] for d in plan.execution_order if d in evidences}
    lang = plan.language if plan.language in {"zh", "en"} else detect_language(request)
    title_text = request.strip().splitlines()[0][:120]
    title = label(lang, "title", t=title_text)
    meta = label(lang, "generated", engine=engine, mode=mode, date=_dt.date.today().isoformat())
    today = _dt.date.today().isoformat()
    composed = compose_report(
        plan, ordered, title=title, meta_line=meta, failed=failed, prose=prose, accessed=today,
        section_of=snapshot_sections(paths.root),
    )  # fmt: skip
    fed: dict[str, list[str]] = {}
    for section, dim_ids in composed.placement.items():
        for dim_id in dim_ids:
            fed.setdefault(dim_id, []).append(section)
    for dim_id, ev in ordered.items():
        text = render_subreport(plan, plan.dimension(dim_id), ev, fed.get(dim_id, []))
        atomic.write_text(paths.sub_report(dim_id), text)
    atomic.write_json(paths.citations, composed.citations)
    atomic.write_json(paths.prose, prose_record(composed.prose, ordered, threshold, plan, check, composed.markdown))
    entries = composed.citations["citations"]
    atomic.write_text(paths.root / "references.bib", bibtex(entries))
    atomic.write_json(paths.root / "references.json", csl_json(entries))
    atomic.write_text(paths.report_md, composed.markdown)
    atomic.write_text(paths.report_html, render_html(composed.markdown, composed.citations, title=title, lang=lang))


def run_report_sync(
    request: str,
    *,
    report_dir: Path,
    runtime: Runtime,
    settings: Settings,
    kb_root: Path | None = None,
    corpus: list[Path] | None = None,
    mode: str = "normal",
    reporter: ReportProgress | None = None,
    workers: bool = False,
) -> ReportResult:
    """:func:`run_report` for synchronous callers (the CLI); the same arguments."""
    return asyncio.run(
        run_report(
            request,
            report_dir=report_dir,
            runtime=runtime,
            settings=settings,
            kb_root=kb_root,
            corpus=corpus,
            mode=mode,
            reporter=reporter,
            workers=workers,
        )
    )
