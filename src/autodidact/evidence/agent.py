"""The research agent (seed 003, docs/seeds.md): one dimension's payload in, one validated evidence.json out.

Order of work, as the seed requires: read upstream key findings (a missing upstream is an error,
never a wider search); plan searches; for every key question at once (asyncio), search the local
index, then web providers, reading only stored snapshots; extract and verify claims; build key
findings, headline and gap notes; validate with the same validator the CLI runs; write atomically.
An invalid file is never written. Modes: ``initial``, ``quick`` (one authoritative entry, empty
upstream usage, 1-3 findings) and ``supplement`` (rewrite the same file, earlier claims kept and
numbering continued).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
from pydantic import ValidationError

from autodidact.config import Settings
from autodidact.errors import (
    AutodidactError,
    InputError,
    ModelOutputInvalid,
    NotFoundError,
    SourceError,
    ValidationFailed,
)
from autodidact.evidence.assemble import assemble, next_number
from autodidact.evidence.collect import Candidate, Collector, Counters, Doc
from autodidact.evidence.files import load_evidence, write_evidence
from autodidact.evidence.findings import (
    ClaimView,
    SynthesisInputs,
    SynthesisTask,
    gap_entries,
    offline_synthesis,
)
from autodidact.evidence.focus import content_terms, focus, literals
from autodidact.evidence.kq_research import DEPTH_NEED, KQResult, find_candidates, research_kq, search_terms
from autodidact.evidence.models import Claim, EvidenceFile, KeyFinding, Mode, Source, UpstreamUsage, WritingContext
from autodidact.evidence.payload import Payload
from autodidact.evidence.search_plan import KQPlan, SearchPlanInputs, SearchPlanTask, UpstreamView
from autodidact.evidence.sharpen import sharpen, subject_terms, subject_words
from autodidact.evidence.textscore import terms as terms_of
from autodidact.evidence.upstream import load_upstreams, usage_entries
from autodidact.evidence.validator import validate_evidence
from autodidact.jsontypes import JSONObject
from autodidact.progress import KEY_QUESTIONS_LABEL, NullProgress, Progress
from autodidact.sources.fetch import Fetcher  # imported here, not in the worker thread: import races
from autodidact.sources.search.registry import build_providers
from autodidact.sources.snapshots import is_local_url
from autodidact.text.tokens import glued
from autodidact.text.tool_sections import in_families, tool_families
from autodidact.text.topic import TopicFrame, decompose, subject_names, subject_tools, titles_a_tool

if TYPE_CHECKING:
    from autodidact.llm.runtime import Runtime
    from autodidact.sources.search.base import SearchProvider


# A delegated gather's other half: each (question id, planned queries) in, each question's result
# and its collector's counters out (None: research that question here).
Delegate = Callable[[list[tuple[str, KQPlan]]], Awaitable[list[tuple[KQResult, Counters] | None]]]


@dataclass
class UsedSource:
    """A source the written file cites (the loop writes raw files for the web ones)."""

    source_id: str
    url: str
    title: str
    snapshot_ref: str
    quality: str
    kq_ids: list[str]
    text_kind: str  # web | corpus | raw


@dataclass
class GatherResult:
    """The written file, its content, how many claims were dropped, and the sources used."""

    path: Path
    evidence: EvidenceFile
    dropped: int
    used_sources: list[UsedSource] = field(default_factory=list)
    stats: JSONObject = field(default_factory=dict)


def output_path(payload: Payload, out: Path | None) -> Path:
    """``--out`` or ``<report_dir>/sub_reports/<dimension_id>.evidence.json``."""
    return (
        Path(out)
        if out is not None
        else payload.report_path() / "sub_reports" / f"{payload.dimension_id}.evidence.json"
    )


async def gather(
    payload: Payload,
    *,
    runtime: Runtime,
    settings: Settings,
    kb_root: Path | None = None,
    out: Path | None = None,
    reporter: Progress | None = None,
    providers: list[SearchProvider] | None = None,
    fetcher: Fetcher | None = None,
    prefer_new_over: Iterable[str] | None = None,
    delegate: Delegate | None = None,
) -> GatherResult:
    """Research one dimension and write its evidence.json (docs/contracts.md §3.4). Raises on invalid output.

    ``delegate``: hands the key questions (each with its planned queries) to other processes and
    returns each one's result and collector counters, None for a question to research here (the
    team backend's workers, loop/research_step.py); not used in quick mode, which picks one entry
    document across questions.

    ``prefer_new_over``: URLs read before (earlier rounds); among similarly relevant documents the
    others are read first. None means the payload's ``prefer_new_over`` plus, when the payload
    researches into the knowledge base itself (``report_dir`` is ``kb_root``), the sources its
    ``raw/`` already holds. ``reporter`` receives progress lines and warnings (autodidact.progress).
    """
    progress: Progress = reporter if reporter is not None else NullProgress()
    # One budget for the whole dimension: the search plan, every question's extraction, the synthesis.
    with runtime.step(f"{payload.dimension_id} ({payload.name})"):
        report_dir = payload.report_path()
        report_dir.mkdir(parents=True, exist_ok=True)
        known = list(prefer_new_over) if prefer_new_over is not None else default_known(payload, report_dir, kb_root)
        path = output_path(payload, out)
        mode = payload.mode
        previous = _previous(path) if mode == "supplement" else None
        if mode == "quick" and payload.upstream_inputs:
            progress.warning("quick mode ignores upstream_inputs (upstream_usage stays empty)")
            views: list[UpstreamView] = []
            upstream_data: dict[str, EvidenceFile] = {}
        else:
            views, upstream_data = load_upstreams(payload, report_dir)
        kqs = [(k.id, k.text) for k in payload.key_questions]
        plan_inputs = SearchPlanInputs(
            language=payload.language,
            name=payload.name,
            description=payload.description,
            query=payload.query,
            focus=payload.focus,
            key_questions=kqs,
            mode=mode,
            depth=payload.depth,
            owns=payload.scope_ownership.owns,
            excludes=payload.scope_ownership.excludes,
            upstream=views,
            source_hints=[f"{h.category}: {h.description}".strip(": ") for h in payload.sources],
            time_sensitivity=payload.time_sensitivity or "",
            briefing=payload.context_from_briefing,
        )
        planner = SearchPlanTask()
        # The plan call and opening the sources (clients, indexes, caches) do not depend on each other.
        plan_task = asyncio.ensure_future(runtime.run(planner, plan_inputs))
        try:
            opened = await asyncio.to_thread(
                _open_sources, payload, settings, report_dir, kb_root, providers, fetcher, known
            )
        except BaseException:
            plan_task.cancel()
            raise
        collector, own_fetcher, search_client = opened
        fallback = planner.offline(plan_inputs)
        try:
            plan = await plan_task
        except ModelOutputInvalid as exc:
            progress.warning(f"search plan: {exc.message}; using the template plan")
            plan = fallback
        except BaseException:
            await _close_sources(collector, own_fetcher, search_client)
            raise
        plans = _plans_by_kq(plan.plans, fallback.plans)
        usage = usage_entries(views, plan.upstream or fallback.upstream) if views else []
        quick = mode == "quick"
        need = 1 if quick else DEPTH_NEED[payload.depth]
        lang = payload.language
        try:
            one = await _researcher(payload, runtime, collector, plans, known_quotes(report_dir, kb_root, path))
        except BaseException:
            await _close_sources(collector, own_fetcher, search_client)
            raise

        try:
            if quick:
                # Quick mode picks one entry document across questions, so all candidates come first.
                found = await asyncio.gather(
                    *(find_candidates(collector, t, plans[k].queries, need, True, lang) for k, t in kqs)
                )
                entry_first: list[list[Candidate] | None] = list(_prefer_entry(list(found)))
            else:
                entry_first = [None] * len(kqs)  # each question goes from search to extraction on its own
            answered = 0
            progress.advance(0, len(kqs), KEY_QUESTIONS_LABEL)

            async def counted(kq: str, text: str, cands: list[Candidate] | None) -> KQResult:
                """``one``, then "k of n key questions done" (the questions run together, finish in any order)."""
                nonlocal answered
                result = await one(kq, text, cands)
                answered += 1
                progress.advance(answered, len(kqs), KEY_QUESTIONS_LABEL)
                return result

            if delegate is not None and not quick:
                # Each question researched by a worker process (docs/team.md, "Research questions");
                # one whose job failed is researched here, as it would have been without workers.
                theirs = await delegate([(kq, plans[kq]) for kq, _ in kqs])
                results = []
                for (kq, text), got in zip(kqs, theirs, strict=True):
                    if got is None:
                        results.append(await counted(kq, text, None))
                        continue
                    result, counters = got
                    _add_counters(collector.counters, counters)
                    answered += 1
                    progress.advance(answered, len(kqs), KEY_QUESTIONS_LABEL)
                    results.append(result)
            else:
                results = list(
                    await asyncio.gather(
                        *(counted(kq, text, c) for (kq, text), c in zip(kqs, entry_first, strict=True))
                    )
                )
            await collector.flush()
        finally:
            await _close_sources(collector, own_fetcher, search_client)
        for (kq, text), res in zip(kqs, results, strict=True):
            fetched = sum(d.fetched for d in res.docs_read)
            if lang == "zh":
                progress.message(
                    f"{kq}：{text[:60]} — 读了 {len(res.docs_read)} 个来源（新抓取 {fetched} 个），"
                    f"保留 {len(res.kept)} 条论据，丢弃 {res.dropped} 条"
                )
            else:
                progress.message(
                    f"{kq}: {text[:60]} — {len(res.docs_read)} source(s) read ({fetched} fetched), "
                    f"{len(res.kept)} claim(s) kept, {res.dropped} dropped",
                )
            for note in res.notes:
                progress.warning(f"{kq}: {note}")
            for quote in res.dropped_quotes:
                progress.warning(f"{kq}: dropped a claim whose quote is not in its snapshot: {quote[:80]!r}")
        c = collector.counters
        progress.message(f"sources: {c.local} local, {c.fetched} fetched, {c.reused} reused from source_cache")
        for failure in c.failures[:10]:
            progress.warning(f"source skipped: {failure}")

        try:
            built = assemble(payload.dimension_id, results, previous, mode)
            if not built.claims:
                raise SourceError(
                    f"no verifiable evidence found for any key question of {payload.dimension_id}",
                    hint="add documents (autodidact add / --kb), index a corpus, or configure web search",
                )
            evidence = await _finish(payload, runtime, built.claims, built.sources, usage, previous, mode, c)
        except ValidationError as exc:  # a field the models refuse: the validator would refuse it too
            raise ValidationFailed(
                f"evidence for {payload.dimension_id} failed validation and was not written: {_first(exc)}",
                hint="nothing was written; check the previous and upstream evidence files with "
                "`autodidact evidence validate` (if they are valid, this is a bug: report it with the payload)",
            ) from None
        report = validate_evidence(
            evidence.to_json(),
            source_cache=report_dir / "source_cache",
            plan=_plan(payload, report_dir) if mode != "quick" else None,
            expected_mode=mode,
            require_version="1.2",
            upstream={dim: up.to_json() for dim, up in upstream_data.items()},
        )
        if not report.ok:
            raise ValidationFailed(
                f"evidence for {payload.dimension_id} failed validation and was not written: {report.summary()}",
                hint="nothing was written; check the previous and upstream evidence files with "
                "`autodidact evidence validate` (if they are valid, this is a bug: report it with the payload)",
            )
        write_evidence(path, evidence)
        dropped = sum(r.dropped for r in results) + built.dropped_weak
        n_claims, n_sources = len(evidence.claims), len(evidence.sources)
        progress.message(f"wrote {path} ({n_claims} claims, {n_sources} sources, {dropped} dropped)")
        stats = dict(report.stats)
        stats.update(
            fetched=c.fetched, reused=c.reused, local=c.local, searches=c.searches, cached_searches=c.cached_searches,
            dropped_unverified=sum(r.dropped for r in results), dropped_weak=built.dropped_weak,
        )  # fmt: skip
        return GatherResult(path, evidence, dropped, _used(evidence, built.docs_by_source), stats)


async def _researcher(
    payload: Payload, runtime: Runtime, collector: Collector, plans: dict[str, KQPlan], quoted: frozenset[str]
) -> Callable[[str, str, list[Candidate] | None], Awaitable[KQResult]]:
    """What researches one key question of ``payload``, everything it reads beyond the question made
    once: the same for every question of a run in this process, and in a worker process given the
    same files and plan (:func:`gather_question`)."""
    mode = payload.mode
    quick = mode == "quick"
    need = 1 if quick else DEPTH_NEED[payload.depth]
    lang = payload.language
    furniture = collector.furniture()
    subject = subject_terms(payload.query, lang)
    # The subject's words; when it is one word ("argparse"), candidates must come from pages naming it.
    frame = decompose(payload.query, "zh" if lang == "zh" else "en")
    names = subject_names(frame.subject)
    tools = subject_tools(frame.subject)
    named_subject = frozenset(terms_of(" ".join(names))) if names else frozenset(terms_of(frame.subject))
    # What the research asks about beyond its subject: a section's key points that say it come first.
    asked = frozenset(terms_of(" ".join(t for f in frame.facets for t in f.terms))) - subject
    facet_terms = _facet_terms(payload, frame, subject)
    words = subject_words(payload.query, lang)
    subject_lits = frozenset(x.casefold() for x in literals(frame.subject))
    homes = await asyncio.to_thread(collector.homes, payload.query, lang) if payload.query.strip() else frozenset()

    tool_pages = [True]  # emptied once a search by the tool's name finds none of its pages

    async def one(kq: str, text: str, cands: list[Candidate] | None) -> KQResult:
        queries = plans[kq].queries
        sharp = sharpen(focus(text), subject, words)
        if cands is None:
            cands = await find_candidates(collector, text, queries, need, quick, lang, sharp)
        if tools and tool_pages and not any(titles_a_tool(c.doc.title, tools) for c in cands):
            # "How do I show context lines?" over grep's and diff's manuals found only diff's, whose
            # context format says the question's words more often: searched again with the tool's
            # name, the tool's own manual answers (a fresh-eyes trial quoted diff in a grep study)
            tool = " ".join(tools)
            named_queries = [q.model_copy(update={"text": f"{tool} {q.text}"[:200]}) for q in queries]
            again = await find_candidates(collector, f"{tool} {text}", named_queries, need, quick, lang, sharp)
            if any(titles_a_tool(c.doc.title, tools) for c in again):
                cands = again
            else:
                tool_pages.clear()  # no page is the tool's (coreutils for date): not searched again
        cands = about_subject(cands, named_subject, names=bool(names), tools=tools)
        if in_topics_words(text, payload.query, frame.subject):
            cands = in_homes(cands, homes)
        terms = search_terms(text, queries, lang)
        return await research_kq(
            runtime,
            kq,
            text,
            cands,
            query_terms=terms,
            language=lang,
            mode=mode,
            depth=payload.depth,
            sharp=sharp,
            known_quotes=quoted,
            furniture=furniture,
            topic_terms=asked,
            facet_terms=facet_terms.get(kq, frozenset()),
            subject=subject,
            subject_literals=subject_lits,
        )

    return one


async def gather_question(
    payload: Payload,
    kq_id: str,
    plan: KQPlan,
    *,
    runtime: Runtime,
    settings: Settings,
    kb_root: Path | None,
    out: Path | None = None,
) -> tuple[KQResult, Counters]:
    """Research one key question of ``payload`` as :func:`gather` researches it, with the queries
    ``gather``'s plan gave it; nothing is written but the sources read. A worker's half of a
    delegated gather (docs/team.md, "Research questions")."""
    with runtime.step(f"{payload.dimension_id} ({payload.name})"):
        report_dir = payload.report_path()
        path = output_path(payload, out)
        known = default_known(payload, report_dir, kb_root)
        collector, own_fetcher, search_client = await asyncio.to_thread(
            _open_sources, payload, settings, report_dir, kb_root, None, None, known
        )
        try:
            one = await _researcher(payload, runtime, collector, {kq_id: plan}, known_quotes(report_dir, kb_root, path))
            text = next((k.text for k in payload.key_questions if k.id == kq_id), None)
            if text is None:
                raise InputError(f"{payload.dimension_id} has no key question {kq_id}")
            result = await one(kq_id, text, None)
            await collector.flush()
        finally:
            await _close_sources(collector, own_fetcher, search_client)
    return result, collector.counters


def _add_counters(into: Counters, more: Counters) -> None:
    into.fetched += more.fetched
    into.reused += more.reused
    into.local += more.local
    into.searches += more.searches
    into.cached_searches += more.cached_searches
    into.failures.extend(more.failures)


def _open_sources(
    payload: Payload,
    settings: Settings,
    report_dir: Path,
    kb_root: Path | None,
    providers: list[SearchProvider] | None,
    fetcher: Fetcher | None,
    known: list[str],
) -> tuple[Collector, Fetcher | None, httpx.AsyncClient | None]:
    """The collector with its providers and fetcher (built in a worker thread: TLS contexts are slow)."""
    own_fetcher = search_client = None
    if providers is None:
        if settings.search.providers:
            # One pooled client for every search call (a client per call costs a TLS context each time).
            search_client = httpx.AsyncClient(follow_redirects=True, headers={"User-Agent": settings.fetch.user_agent})
        providers = build_providers(settings.search, client=search_client)
    if providers and fetcher is None:
        fetcher = own_fetcher = Fetcher(settings.fetch)
    collector = Collector(
        report_dir,
        kb_root,
        providers,
        fetcher.fetch_document if fetcher is not None else None,
        settings.search.results_per_query,
        payload.scope_ownership.excludes,
        known,
    )
    return collector, own_fetcher, search_client


def known_quotes(report_dir: Path, kb_root: Path | None, out: Path) -> frozenset[str]:
    """Quotes the knowledge base's earlier rounds hold (``outputs/rounds/round_*_evidence.json``,
    except the file being written), whitespace-collapsed; empty outside a knowledge base."""
    if kb_root is None or Path(kb_root).resolve() != report_dir.resolve():
        return frozenset()
    found: set[str] = set()
    for path in sorted((Path(kb_root) / "outputs" / "rounds").glob("round_*_evidence.json")):
        if path.resolve() == out.resolve():
            continue
        try:
            evidence = load_evidence(path)
        except AutodidactError:  # a damaged round is the loop's to report; its quotes are simply not known
            continue
        found.update(" ".join(ev.snippet.split()) for claim in evidence.claims for ev in claim.evidence)
    return frozenset(found)


def default_known(payload: Payload, report_dir: Path, kb_root: Path | None) -> list[str]:
    """The payload's ``prefer_new_over``, plus the source URLs of ``raw/`` when researching into the KB."""
    known = list(payload.prefer_new_over)
    if kb_root is None or Path(kb_root).resolve() != report_dir.resolve():
        return known
    from autodidact.sources.rawfiles import list_raw_names, raw_files

    seen = set(known)
    raw = Path(kb_root) / "raw"
    # Parsed once per content, and only what changed since the last pass is looked at (raw/ grows
    # with the knowledge base); a file that cannot be read or parsed is left out.
    for rf in raw_files(raw, list_raw_names(raw), (AutodidactError, OSError, UnicodeDecodeError)):
        url = rf.url
        if url and url not in seen:
            known.append(url)
            seen.add(url)
    return known


async def _close_sources(
    collector: Collector, own_fetcher: Fetcher | None, search_client: httpx.AsyncClient | None
) -> None:
    collector.close()
    if own_fetcher is not None:
        await own_fetcher.aclose()
    if search_client is not None:
        await search_client.aclose()


def _previous(path: Path) -> EvidenceFile:
    if not path.is_file():
        raise NotFoundError(
            f"supplement mode rewrites {path}, which does not exist", hint="run the initial gather first"
        )
    try:
        return load_evidence(path)
    except InputError as exc:
        raise InputError(f"{path}: cannot read the evidence to supplement ({exc.message})", hint=exc.hint) from None


def _plan(payload: Payload, report_dir: Path) -> JSONObject | None:
    if not payload.plan_path:
        return None
    path = Path(payload.plan_path)
    path = path if path.is_absolute() else report_dir / path
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"plan_path {path}: cannot read ({exc})") from None
    return data if isinstance(data, dict) else None


def _plans_by_kq(model_plans: list[KQPlan], fallback: list[KQPlan]) -> dict[str, KQPlan]:
    """Each question's queries: the model's first, then the template's (up to six in all).

    Why keep the template's: a weak model's queries can be valid and useless ("search words"), and
    with them alone a dimension found no document at all (seen in the live run); the template's
    queries are built from the question's own words, so retrieval never depends on the model alone.
    """
    plans = {p.kq_id: p for p in fallback}
    for p in model_plans:
        if p.kq_id in plans and p.queries:
            clean = [q for q in p.queries if "://" not in q.text and q.text.strip()]
            if clean:
                seen = {" ".join(q.text.lower().split()) for q in clean[:3]}
                extra = [q for q in plans[p.kq_id].queries if " ".join(q.text.lower().split()) not in seen]
                plans[p.kq_id] = KQPlan(kq_id=p.kq_id, queries=[*clean[:3], *extra][:6])
    return plans


def _prefer_entry(cands: list[list[Candidate]]) -> list[list[Candidate]]:
    """Quick mode: the document relevant to the most key questions goes first wherever it is relevant."""
    counts: dict[str, tuple[int, float, Candidate]] = {}
    for lst in cands:
        for c in lst:
            n, s, _ = counts.get(c.doc.snapshot_ref, (0, 0.0, c))
            counts[c.doc.snapshot_ref] = (n + 1, s + c.score, c)
    if not counts:
        return cands
    entry = max(counts, key=lambda ref: (counts[ref][0], counts[ref][1], ref))
    return [sorted(lst, key=lambda c: c.doc.snapshot_ref != entry) for lst in cands]


async def _finish(
    payload: Payload,
    runtime: Runtime,
    claims: list[Claim],
    sources: list[Source],
    usage: list[UpstreamUsage],
    previous: EvidenceFile | None,
    mode: Mode,
    counters: Counters,
) -> EvidenceFile:
    kqs = [(k.id, k.text) for k in payload.key_questions]
    views = [ClaimView(c.id, c.answers_key_question, c.text, c.polarity, c.evidence[0].source_id) for c in claims]
    inputs = SynthesisInputs(payload.language, payload.name, mode, kqs, views)
    try:
        synthesis = await runtime.run(SynthesisTask(), inputs)  # a model's answer settled by the task
    except AutodidactError:
        synthesis = offline_synthesis(inputs)
    searched = ", ".join(
        w
        for w, on in (("local index", True), ("web search", bool(counters.searches or counters.cached_searches)))
        if on
    )
    kq_ids = {k for k, _ in kqs}
    kept_context = [
        w
        for w in (previous.writing_context if previous else None) or []
        if w.kind not in ("availability_gap", "unresolved_gap") or not set(w.applies_to) & kq_ids
    ]
    start = next_number([w.id for w in kept_context]) - 1
    context: list[WritingContext] = kept_context + gap_entries(
        payload.dimension_id, kqs, views, payload.language, start, searched
    )
    if mode == "quick":
        context = [w for w in context if w.kind == "availability_gap"]
    return EvidenceFile(
        schema_version="1.2",
        mode=mode,
        dimension_id=payload.dimension_id,
        upstream_usage=[] if mode == "quick" else (usage or list(previous.upstream_usage if previous else [])),
        headline=synthesis.headline,
        key_findings=[KeyFinding(finding=f.finding, claim_ids=f.claim_ids) for f in synthesis.key_findings],
        claims=claims,
        sources=sources,
        writing_context=context or None,
    )


def _first(exc: ValidationError) -> str:
    """The first refused field, as ``where: why``."""
    first = exc.errors(include_url=False)[0]
    return f"{exc.title} {'.'.join(str(p) for p in first['loc'])}: {first['msg']}"


def _used(evidence: EvidenceFile, docs: dict[str, Doc]) -> list[UsedSource]:
    kq_by_source: dict[str, list[str]] = {}
    ref_by_source: dict[str, str] = {}
    for claim in evidence.claims:
        for ev in claim.evidence:
            kq = claim.answers_key_question
            lst = kq_by_source.setdefault(ev.source_id, [])
            if kq and kq not in lst:
                lst.append(kq)
            ref_by_source.setdefault(ev.source_id, ev.snapshot_ref or "")
    out = []
    for src in evidence.sources:
        doc = docs.get(src.id)
        kind = doc.kind if doc is not None else ("web" if not is_local_url(src.url) else _local_kind(src.url))
        ref = ref_by_source.get(src.id, "")
        out.append(UsedSource(src.id, src.url, src.title, ref, src.quality, kq_by_source.get(src.id, []), kind))
    return out


def _local_kind(url: str) -> str:
    return "corpus" if "/corpus/" in url else "raw"


def about_subject(
    cands: list[Candidate], subject: frozenset[str], *, names: bool = False, tools: list[str] | None = None
) -> list[Candidate]:
    """The candidates whose document names the research's subject, when some do.

    Why: a facet's words are often generic ("arguments", "handlers"). In a corpus of several
    modules, the sqlite3 page's "The origin argument defaults to os.SEEK_SET" matched "arguments"
    and was quoted as a definition in an argparse research. A document that never writes the
    subject ("argparse") is about something else. When no candidate names it (a subject the
    documents spell differently, or a translated one), every candidate stays. ``names``: the
    terms are the names the subject is about ("sqlite3" of "Python's sqlite3 module";
    :func:`autodidact.text.topic.subject_names`), of which a page must write one.
    """
    if tools:
        # "searching files with grep": grep's own manual, when it is among them. find's manual
        # writes "grep" too (in its examples) and answered "case-insensitive matching" with
        # "-iname"; a document whose title names the tool is the tool's own.
        own = [c for c in cands if titles_a_tool(c.doc.title, tools)]
        if own:
            return own
        # A manual of many tools (coreutils): the passages in the tool's own sections.
        own = [o for o in (_in_tool_sections(c, tools) for c in cands) if o is not None]
        if own:
            return own
    if not names and len(subject) != 1:
        # Only a one-word subject is a name every page about it writes ("argparse", "sqlite"). A
        # phrase ("Python control flow", "Python exceptions") is a category its pages need not
        # spell out: the page on the try statement never writes "Python" or "control flow".
        return cands
    named = [c for c in cands if c.doc.names_any(subject)]
    return named or cands


def _in_tool_sections(cand: Candidate, tools: list[str]) -> Candidate | None:
    """``cand`` with only its passages inside the tools' own numbered sections (coreutils' "21.1.
    ‘date’: …" and the sections under it), or None when it has none there or its document
    numbers no section for them (docs/evidence.md, "A tool's own sections")."""
    sections = cand.doc.sections()
    families = tool_families((s.title for s in sections), tools)
    if not families:
        return None
    own = [s for s in sections if in_families(s.title, families)]

    def inside(span: tuple[int, int]) -> bool:
        return any(s.start <= span[0] < s.end for s in own)

    spans = [sp for sp in cand.spans if inside(sp)]
    if not spans:
        return None
    return replace(cand, spans=spans, reserve=[sp for sp in cand.reserve if inside(sp)])


def in_homes(cands: list[Candidate], homes: frozenset[str]) -> list[Candidate]:
    """The candidates from the topic's home chapters, when some are.

    Why: a question made only of the topic's words ("Debian 系统的网络的定义是什么？", "What are the
    limitations of system upgrades?") matches every chapter that says them — the package
    chapter's APT proxy answered what Debian networking is. The chapters whose headings name the
    topic's facets are where the manual treats it (docs/evidence.md, "Home chapters"). A question
    with words of its own (a user's, a section's key points) reads wherever they lead.
    """
    own = [c for c in cands if c.doc.url in homes]
    return own or cands


def in_topics_words(question: str, topic: str, subject: str = "") -> bool:
    """Whether a question says nothing beyond the topic's own words and its frame ("What are the
    limitations of system upgrades?" in a research on Debian package management); a section's
    key points are asked by its heading, so they never are. The subject written without its spaces
    counts as the topic's words ("Debian 移动工作站邮件系统设置的定义是什么？": "站邮" is a seam)."""
    fx = focus(question)
    own = set(content_terms(topic)) | set(content_terms(glued(subject)))
    return not fx.section and bool(fx.terms) and set(fx.terms) <= own


def _facet_terms(payload: Payload, frame: TopicFrame, subject: frozenset[str]) -> dict[str, frozenset[str]]:
    """Per key question that names its facet, the facet's own terms beyond the subject (the
    topic decomposition's terms for a facet it knows, else the facet's words)."""
    known = {f.name: f.terms for f in frame.facets}
    out: dict[str, frozenset[str]] = {}
    for k in payload.key_questions:
        if k.facet:
            words = " ".join(known.get(k.facet) or [k.facet])
            out[k.id] = frozenset(terms_of(words)) - subject
    return out
