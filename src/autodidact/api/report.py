"""A one-off cited report from Python (``autodidact report``): plan, evidence per dimension, report.md.

Why a thin wrapper: the pipeline already resumes, validates and writes every file; this checks the
arguments first (nothing is created for bad input), resolves the folder the way the command line
does (``<kb>/reports/<date>_<slug>`` with a knowledge base), and builds the same runtime.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from autodidact.api.knowledge import KBPath, open_knowledge_base
from autodidact.api.runtime_setup import check_engine_args, run_coroutine, runtime_for, settings_for
from autodidact.errors import InputError, NotFoundError

if TYPE_CHECKING:
    from autodidact.report.pipeline import ReportProgress, ReportResult

MODES = ("quick", "normal", "heavy")


def report(
    request: str,
    *,
    kb: KBPath | None = None,
    report_dir: KBPath | None = None,
    corpus: Sequence[KBPath] = (),
    mode: str = "normal",
    model: str | None = None,
    fallback: str | None = None,
    max_cost: float | None = None,
    max_tokens: int | None = None,
    check_support: bool = False,
    progress: ReportProgress | None = None,
) -> ReportResult:
    """Plan, gather validated evidence per dimension and write a cited ``report.md`` (+ citations, HTML, BibTeX).

    ``kb``: a knowledge base whose sources are searched too; the report goes to
    ``<kb>/reports/<date>_<slug>`` unless ``report_dir`` says where. Without either, it goes to
    ``./reports/<date>_<slug>``. Calling again with the same request and folder resumes. The result's
    ``report_md`` is the report; ``failed`` names dimensions that could not be researched.
    """
    from autodidact.report.folder import default_report_dir
    from autodidact.report.pipeline import run_report

    if not isinstance(request, str) or not request.strip():
        raise InputError("the report request is empty", hint="give the question the report should answer")
    if mode not in MODES:
        raise InputError(f"mode {mode!r} is not quick, normal or heavy", hint="use mode='quick', 'normal' or 'heavy'")
    paths = [Path(p) for p in corpus]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:  # before the report folder exists: bad input leaves nothing behind
        raise NotFoundError(f"corpus path {missing[0]} does not exist", hint="check the corpus paths")
    check_engine_args(model, fallback)
    kb_root = open_knowledge_base(kb).root if kb is not None else None
    text = request.strip()
    folder = Path(report_dir) if report_dir is not None else default_report_dir(text, kb_root)
    settings = settings_for(kb_root, model=model, fallback=fallback, max_cost=max_cost, max_tokens=max_tokens)
    if check_support:
        settings = settings.model_copy(update={"report": settings.report.model_copy(update={"check_support": True})})
    # Without a knowledge base the call cache and usage ledger live in the report folder (as on the CLI).
    runtime = runtime_for(settings, kb_root if kb_root is not None else folder, model=model)
    job = run_report(
        text, report_dir=folder, runtime=runtime, settings=settings, kb_root=kb_root, corpus=paths, mode=mode,
        reporter=progress,
    )  # fmt: skip
    return run_coroutine(job)
