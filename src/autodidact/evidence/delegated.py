"""A gather's key questions through the team backend's queue: each question a job a worker takes.

Why (docs/team.md, "Research questions"): a research round's key questions are researched at
once, each from search to verified claims on its own (evidence/agent.py ``_researcher``); only the
search plan before them and the assembly after them see every question. So the process that runs
the round plans, queues one job per question with the queries the plan gave it, and assembles the
results the workers return, exactly as it assembles its own. A worker rebuilds everything else a
question's research reads from the same files (the payload, the knowledge base, its index on the
server), so its result is the one the round's own process would have made. A job that failed is
researched by the round's process itself; a killed worker's job goes to another worker when its
lease runs out (store/pgqueue.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import fields
from pathlib import Path

from autodidact.errors import AutodidactError
from autodidact.evidence.agent import Delegate, gather_question
from autodidact.evidence.collect import Counters, Doc
from autodidact.evidence.extract_task import ClaimOut
from autodidact.evidence.kq_research import KeptClaim, KQResult
from autodidact.evidence.payload import Payload
from autodidact.evidence.search_plan import KQPlan
from autodidact.jsontypes import JSONObject, JSONValue
from autodidact.store.pg import mask_url
from autodidact.store.pgqueue import DONE, QUEUED, RUNNING, Queue

KIND = "research-question"
POLL_SECONDS = 1.0
_DOC_FIELDS = tuple(f.name for f in fields(Doc) if f.init)


def _doc_json(doc: Doc) -> JSONObject:
    return {name: getattr(doc, name) for name in _DOC_FIELDS}


def _doc(data: JSONValue) -> Doc:
    assert isinstance(data, dict)
    values: dict[str, object] = {name: data[name] for name in _DOC_FIELDS if name in data}
    return Doc(**values)  # type: ignore[arg-type]  # the fields Doc wrote itself (_doc_json)


def _list(value: JSONValue) -> list[JSONValue]:
    assert isinstance(value, list)
    return value


def _kept(value: JSONValue) -> KeptClaim:
    assert isinstance(value, dict)
    return KeptClaim(ClaimOut.model_validate(value["claim"]), [_doc(d) for d in _list(value["docs"])])


def result_json(result: KQResult, counters: Counters) -> JSONObject:
    """A question's result and its collector's counters as JSON (a job's result on the server)."""
    return {
        "kq_id": result.kq_id,
        "kept": [
            {"claim": k.claim.model_dump(mode="json"), "docs": [_doc_json(d) for d in k.docs]} for k in result.kept
        ],
        "dropped": result.dropped,
        "dropped_quotes": list(result.dropped_quotes),
        "docs_read": [_doc_json(d) for d in result.docs_read],
        "notes": list(result.notes),
        "cap": result.cap,
        "counters": {
            "fetched": counters.fetched,
            "reused": counters.reused,
            "local": counters.local,
            "searches": counters.searches,
            "cached_searches": counters.cached_searches,
            "failures": list(counters.failures),
        },
    }


def result_from_json(data: Mapping[str, JSONValue]) -> tuple[KQResult, Counters]:
    """:func:`result_json` read back."""
    counts = data["counters"]
    assert isinstance(counts, dict)
    result = KQResult(
        kq_id=str(data["kq_id"]),
        kept=[_kept(k) for k in _list(data["kept"])],
        dropped=int(str(data["dropped"])),
        dropped_quotes=[str(q) for q in _list(data["dropped_quotes"])],
        docs_read=[_doc(d) for d in _list(data["docs_read"])],
        notes=[str(n) for n in _list(data["notes"])],
        cap=None if data["cap"] is None else int(str(data["cap"])),
    )
    failures = _list(counts["failures"])
    counters = Counters(
        fetched=int(str(counts["fetched"])),
        reused=int(str(counts["reused"])),
        local=int(str(counts["local"])),
        searches=int(str(counts["searches"])),
        cached_searches=int(str(counts["cached_searches"])),
        failures=[str(f) for f in failures],
    )
    return result, counters


def queue_delegate(
    url: str,
    batch: str,
    payload: Payload,
    kb_root: Path,
    out: Path,
    model: str | None,
    say: Callable[[str], None] = lambda _line: None,
) -> Delegate:
    """The delegate :func:`~autodidact.evidence.agent.gather` hands its questions to: one job per
    question in ``batch`` on the server at ``url``, waited for; a question whose job failed comes back
    None (researched by the caller). ``say`` hears that they were queued (nothing moves until a
    worker runs)."""
    base: JSONObject = {
        "kind": KIND,
        "kb_root": str(kb_root),
        "payload": payload.model_dump(mode="json"),
        "out": str(out),
        "model": model,
    }

    async def delegate(items: list[tuple[str, KQPlan]]) -> list[tuple[KQResult, Counters] | None]:
        queue = Queue(url)
        try:
            names = []
            for kq, plan in items:
                job = f"{batch}/{kq}"
                job_payload: dict[str, object] = {**base, "kq": kq, "plan": plan.model_dump(mode="json")}
                await asyncio.to_thread(queue.enqueue, job, batch, job_payload, [])
                names.append(job)
            say(f"{len(names)} key question(s) queued for workers on {mask_url(url)}")
            while True:
                states = {s.job: s for s in await asyncio.to_thread(queue.states, batch)}
                if all(states[j].state not in (QUEUED, RUNNING) for j in names):
                    break
                await asyncio.sleep(POLL_SECONDS)
            found = await asyncio.to_thread(queue.results, batch)
        finally:
            queue.close()
        out_: list[tuple[KQResult, Counters] | None] = []
        for job in names:
            data = found.get(job)
            ok = states[job].state == DONE and isinstance(data, dict)
            out_.append(result_from_json(data) if ok and isinstance(data, dict) else None)
        return out_

    return delegate


def run_question_job(job: Mapping[str, object]) -> tuple[str | None, JSONObject | None]:
    """A worker's half: research one queued question; (None, its result) or (why it failed, None)."""
    from autodidact.config import load_settings
    from autodidact.kb import is_kb
    from autodidact.llm.registry import build_runtime

    try:
        kb_root = Path(str(job["kb_root"]))
        if not is_kb(kb_root):
            return f"{kb_root} is not a knowledge base here (is it on a file system shared with this machine?)", None
        settings = load_settings(kb_root, {"llm.model": job.get("model")})
        runtime = build_runtime(settings, kb_root)
        payload = Payload.model_validate(job["payload"])
        plan = KQPlan.model_validate(job["plan"])
        kq = str(job["kq"])

        async def research() -> tuple[KQResult, Counters]:
            try:
                return await gather_question(
                    payload, kq, plan, runtime=runtime, settings=settings, kb_root=kb_root, out=Path(str(job["out"]))
                )
            finally:
                await runtime.aclose()

        result, counters = asyncio.run(research())
    except AutodidactError as exc:
        return exc.message, None
    return None, result_json(result, counters)
