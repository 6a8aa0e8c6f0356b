"""The overview (status, charts, termination) and the research controls with live progress.

Why the overview reads ``status`` and not the job: the files are the truth (a run started from the
CLI shows here too); the job only adds the live numbers of a run this app started.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from autodidact.api.knowledge import ask, status
from autodidact.errors import InputError
from autodidact.kb import is_kb
from autodidact.loop.termination import DIMINISHING_FACTOR, LOW_ISSUES, OVERLAP_LIMIT, STALL_OVERLAP
from autodidact.webapp.charts import Threshold, line_chart
from autodidact.webapp.safety import kb_folder
from autodidact.webapp.web import Site, see_other

if TYPE_CHECKING:
    from autodidact.loop.status import StatusReport

SSE_POLL_SECONDS = 0.5
MAX_ROUNDS_LIMIT = 100

# Each termination condition of ``status --json`` with what it means on the page.
CONDITIONS = (
    (
        "diminishing_gaps",
        f"audit issues fell to {DIMINISHING_FACTOR:g}× the last round or less (or both < {LOW_ISSUES})",
    ),
    ("no_pending_user_questions", "no question of yours is waiting"),
    ("no_new_raw_files", "the last round added no raw files"),
    ("overlap_above_0_7", f"key questions overlap the last round's above {OVERLAP_LIMIT:g}"),
    ("stalled", f"stalled: nothing new, or overlap ≥ {STALL_OVERLAP:g}"),
    ("max_rounds_reached", "the round limit is reached"),
)


def charts(report: StatusReport) -> list[str]:
    """The three per-round charts with the thresholds the termination rule compares against."""
    rounds = report.get("rounds") or []
    issues: list[tuple[int, float | None]] = [(int(r["round"]), r.get("audit_issues_count")) for r in rounds]
    raw: list[tuple[int, float | None]] = [(int(r["round"]), r.get("new_raw_files")) for r in rounds]
    overlap: list[tuple[int, float | None]] = [(int(r["round"]), r.get("overlap_ratio")) for r in rounds]
    return [
        line_chart("audit issues per round", issues, [Threshold(LOW_ISSUES, f"low: < {LOW_ISSUES}")]),
        line_chart("new raw files per round", raw, [Threshold(0, "none new")]),
        line_chart(
            "key-question overlap per round",
            overlap,
            [
                Threshold(OVERLAP_LIMIT, f"> {OVERLAP_LIMIT:g} ends"),
                Threshold(STALL_OVERLAP, f"≥ {STALL_OVERLAP:g} stall"),
            ],
        ),
    ]


async def overview(request: Request) -> Response:
    """Topic, rounds, sources, cost, the charts and each termination condition."""
    site: Site = request.app.state.site
    if not is_kb(site.root):
        return site.page(request, "overview.html.j2", started=False)
    state = await run_in_threadpool(status, kb=site.root)
    report = state.report
    termination: Mapping[str, object] = report.get("termination") or {}
    conditions = [(label, termination.get(key)) for key, label in CONDITIONS]
    return site.page(
        request, "overview.html.j2", started=True, state=state, report=report, charts=charts(report),
        conditions=conditions, termination=termination, running=site.research.running,
    )  # fmt: skip


async def research_page(request: Request) -> Response:
    """The controls: start, resume, stop, ask; and the progress box the event stream fills."""
    site: Site = request.app.state.site
    progress = site.research.progress()
    pending = None
    if is_kb(site.root):
        pending = (await run_in_threadpool(status, kb=site.root)).pending_user_questions
    return site.page(
        request, "research.html.j2", progress=progress, pending=pending, running=site.research.running,
        request_asked=bool(request.query_params.get("asked")),
    )  # fmt: skip


def _run_args(site: Site, form: dict[str, str]) -> tuple[list[Path], int | None]:
    """The corpus folder (inside the knowledge base) and round cap a start or resume form gives."""
    corpus_name = form.get("corpus", "").strip()
    corpus = [kb_folder(site.root, corpus_name)] if corpus_name else []
    return corpus, _max_rounds(form.get("max_rounds", ""))


def _max_rounds(text: str) -> int | None:
    if not text.strip():
        return None
    if not text.strip().isdigit() or not 1 <= int(text) <= MAX_ROUNDS_LIMIT:
        raise InputError(f"max rounds {text!r} is not a whole number from 1 to {MAX_ROUNDS_LIMIT}")
    return int(text)


async def research_start(request: Request) -> Response:
    """Start a new research (a topic) over a corpus folder inside the knowledge base."""
    site: Site = request.app.state.site
    form = await site.checked_form(request)
    topic = form.get("topic", "").strip()
    if not topic:
        raise InputError("the research topic is empty")
    corpus, rounds = _run_args(site, form)
    await run_in_threadpool(site.research.start, topic, max_rounds=rounds, corpus=corpus)
    return see_other("/research")


async def research_resume(request: Request) -> Response:
    """Resume the research the files describe (after a stop, a crash or a question)."""
    site: Site = request.app.state.site
    form = await site.checked_form(request)
    if not is_kb(site.root):
        raise InputError("there is no research to resume here", hint="start one with a topic")
    corpus, rounds = _run_args(site, form)
    await run_in_threadpool(site.research.start, None, max_rounds=rounds, corpus=corpus)
    return see_other("/research")


async def research_stop(request: Request) -> Response:
    """Ask the running research to stop at its next safe point."""
    site: Site = request.app.state.site
    await site.checked_form(request)
    if not site.research.stop():
        raise InputError("no research is running here")
    return see_other("/research")


async def research_ask(request: Request) -> Response:
    """Add a question for the running (or next) research; the next round takes it first."""
    site: Site = request.app.state.site
    form = await site.checked_form(request)
    if not is_kb(site.root):
        raise InputError("there is no research here yet", hint="start one first")
    await run_in_threadpool(ask, form.get("question", ""), kb=site.root)
    return see_other("/research?asked=1")


async def research_events(request: Request) -> Response:
    """Server-sent events: the job's progress whenever it changes, until the run ends."""
    site: Site = request.app.state.site

    async def stream() -> AsyncIterator[str]:
        last = None
        while True:
            progress = site.research.progress() or {"state": "idle", "recent": []}
            progress.pop("elapsed_seconds", None)
            data = json.dumps(progress, ensure_ascii=False, default=str)
            if data != last:
                yield f"data: {data}\n\n"
                last = data
            if progress["state"] != "running" or await request.is_disconnected():
                return
            await asyncio.sleep(SSE_POLL_SECONDS)

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})
