"""Reading upstream dimensions (seed 003, docs/seeds.md "消费上游证据"): key findings first, never a silent widening.

Why strict: a downstream dimension narrows its search by what its upstream established. If the
upstream file is missing, searching broadly instead would quietly produce a different study, so
the run stops with an error naming the dimension and what it was needed for.
"""

from __future__ import annotations

from pathlib import Path

from autodidact.errors import InputError, NotFoundError
from autodidact.evidence.files import load_evidence
from autodidact.evidence.models import EvidenceFile, UpstreamUsage
from autodidact.evidence.payload import Payload
from autodidact.evidence.search_plan import UpstreamDecision, UpstreamView


def load_upstreams(payload: Payload, report_dir: Path) -> tuple[list[UpstreamView], dict[str, EvidenceFile]]:
    """Views (key findings only) and the full upstream evidence (for the validator), per upstream input."""
    views: list[UpstreamView] = []
    data: dict[str, EvidenceFile] = {}
    for item in payload.upstream_inputs:
        path = Path(item.evidence_path)
        if not path.is_absolute():
            path = report_dir / path
        if not path.is_file():
            raise NotFoundError(
                f"upstream evidence for {item.dimension_id} (needed_for {item.needed_for}) is missing: {path}",
                hint=f"run gather for {item.dimension_id} first; this dimension does not widen its search instead",
            )
        try:
            evidence = load_evidence(path)
        except InputError as exc:
            raise InputError(
                f"upstream evidence for {item.dimension_id} (needed_for {item.needed_for}) at {path} is unreadable: "
                f"{exc.message}",
                hint=exc.hint,
            ) from None
        claim_ids = {c.id for c in evidence.claims}
        usable: list[tuple[str, list[str]]] = []
        for kf in evidence.key_findings:
            ids = [i for i in kf.claim_ids if i in claim_ids]
            if ids:
                usable.append((kf.finding, ids))
        if not usable:
            raise InputError(
                f"upstream {item.dimension_id} (needed_for {item.needed_for}) has no key findings citing its claims "
                f"in {path}",
                hint=f"re-run gather for {item.dimension_id}; its evidence must pass `autodidact evidence validate`",
            )
        views.append(UpstreamView(item.dimension_id, item.needed_for, item.scope_rule, usable))
        data[item.dimension_id] = evidence
    return views, data


def usage_entries(views: list[UpstreamView], decisions: list[UpstreamDecision]) -> list[UpstreamUsage]:
    """``upstream_usage`` from the planner's decisions: only claims that a chosen key finding cites."""
    by_dim = {d.dimension_id: d for d in decisions}
    out: list[UpstreamUsage] = []
    for view in views:
        decision = by_dim.get(view.dimension_id)
        indexes = [i for i in (decision.finding_indexes if decision else []) if 0 <= i < len(view.findings)]
        if not indexes:
            indexes = list(range(len(view.findings)))
        consumed: list[str] = []
        for i in indexes:
            for cid in view.findings[i][1]:
                if cid not in consumed:
                    consumed.append(cid)
        changes = [c for c in (decision.scope_changes if decision else []) if c.strip()]
        skipped = [s for s in (decision.skipped_searches if decision else []) if s.strip()]
        first = view.findings[indexes[0]][0]
        out.append(
            UpstreamUsage(
                dimension_id=view.dimension_id,
                needed_for=view.needed_for,
                consumed_claim_ids=consumed,
                scope_changes=changes or [f"Scope set by upstream {view.dimension_id}: {first[:150]}"],
                skipped_searches=skipped or [f"Not searched again (covered by {view.dimension_id}): {first[:100]}"],
            )
        )
    return out
