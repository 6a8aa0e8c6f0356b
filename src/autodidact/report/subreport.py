"""``sub_reports/<dim>.md``: one dimension's evidence as a standalone, readable sub-report.

Why derived: seed 003 (docs/seeds.md) makes ``evidence.json`` the single source of truth and says human-readable
views are rendered from it. Seed 004 asks that each dimension can stand as its own sub-report.
This renderer gives the eight sections of that era — questions, search coverage, evidence table,
key findings, analysis, contribution to the report, uncertainties and gaps, questions for later
dimensions — from the evidence file and the plan, and cites by source id and claim id.
"""

from __future__ import annotations

from collections import Counter

from autodidact.evidence.models import EvidenceFile
from autodidact.plan.models import Dimension, Plan
from autodidact.report.labels import cell, esc, label


def _ids(items: list[str], lang: str) -> str:
    return ", ".join(items) if items else label(lang, "sr_none")


def render_subreport(plan: Plan, dim: Dimension, ev: EvidenceFile, sections_fed: list[str]) -> str:
    """The markdown of one dimension's sub-report."""
    lang = plan.language
    claims = ev.claims
    sources = {s.id: s for s in ev.sources}
    kq_ids = [f"kq{i + 1}" for i in range(len(dim.key_questions))]
    by_kq = {kq: [c for c in claims if c.answers_key_question == kq] for kq in kq_ids}
    lines = [f"# {dim.id} {esc(dim.name)}", "", f"> {esc(ev.headline)}", "", esc(dim.description), ""]

    lines += [f"## {label(lang, 'sr_questions')}", ""]
    for kq, q in zip(kq_ids, dim.key_questions, strict=True):
        found = [c.id for c in by_kq[kq]]
        status = label(lang, "sr_answered_by", ids=", ".join(found)) if found else label(lang, "sr_not_answered")
        lines.append(f"- **{kq}** {esc(q)} — {status}")

    refs = {e.snapshot_ref for c in claims for e in c.evidence if e.snapshot_ref}
    lines += ["", f"## {label(lang, 'sr_coverage')}", ""]
    lines.append(label(lang, "sr_mode", mode=ev.mode, n=len(claims), s=len(sources), r=len(refs)))
    lines += ["", f"{label(lang, 'sr_seed_queries')}: " + "; ".join(esc(q) for q in dim.search_strategy.seed_queries)]
    head = f"| id | {label(lang, 'col_title')} | {label(lang, 'col_quality')} | URL |"
    lines += ["", head, "| --- | --- | --- | --- |"]
    for sid, src in sources.items():
        title, url = cell(src.title), cell(src.url)
        lines.append(f"| {sid} | {title} | {src.quality} | {url} |")
    for usage in ev.upstream_usage:
        lines += [
            "",
            label(
                lang,
                "sr_upstream",
                dim=usage.dimension_id,
                needed=usage.needed_for,
                claims=", ".join(usage.consumed_claim_ids),
                changes="; ".join(esc(x) for x in usage.scope_changes),
                skipped="; ".join(esc(x) for x in usage.skipped_searches),
            ),
        ]

    lines += ["", f"## {label(lang, 'sr_evidence')}", ""]
    header = ["col_id", "col_statement", "col_kind", "col_polarity", "col_source", "col_snippet"]
    lines += ["| " + " | ".join(label(lang, h) for h in header) + " | kq |", "|" + " --- |" * (len(header) + 1)]
    for c in claims:
        first = c.evidence[0]
        src_ids = ", ".join(dict.fromkeys(e.source_id for e in c.evidence))
        lines.append(
            f"| {c.id} | {cell(c.text)} | {c.kind} | {c.polarity} | {src_ids} "
            f"| {cell(first.snippet, 160)} | {c.answers_key_question or '—'} |"
        )

    lines += ["", f"## {label(lang, 'sr_findings')}", ""]
    for f in ev.key_findings:
        lines.append(f"- {esc(f.finding)} ({', '.join(f.claim_ids)})")

    lines += ["", f"## {label(lang, 'sr_analysis')}", ""]
    for kq in kq_ids:
        group = by_kq[kq]
        pol = Counter(c.polarity for c in group)
        srcs = sorted({e.source_id for c in group for e in c.evidence})
        lines.append(
            "- "
            + label(
                lang,
                "sr_kq_analysis",
                kq=kq,
                n=len(group),
                support=pol["support"],
                refute=pol["refute"],
                neutral=pol["neutral"],
                sources=_ids(srcs, lang),
            )
        )
    kinds = Counter(c.kind for c in claims)
    quality = Counter(s.quality for s in sources.values())
    lines.append("- " + label(lang, "sr_kinds", kinds=dict(kinds), quality=dict(quality)))

    lines += ["", f"## {label(lang, 'sr_contribution')}", "", esc(dim.expected_output), ""]
    lines.append(label(lang, "sr_feeds", sections=", ".join(esc(s) for s in sections_fed) or label(lang, "sr_none")))

    lines += ["", f"## {label(lang, 'sr_gaps')}", ""]
    unanswered = [q for kq, q in zip(kq_ids, dim.key_questions, strict=True) if not by_kq[kq]]
    gaps = [f"- {label(lang, 'unanswered', dim=dim.id, q=esc(q))}" for q in unanswered]
    for wc in ev.writing_context or []:
        if wc.kind in {"availability_gap", "unresolved_gap", "scope_boundary"}:
            gaps.append(f"- {esc(wc.text)}")
    single = [c.id for c in claims if len({e.source_id for e in c.evidence}) == 1]
    refuting = [c.id for c in claims if c.polarity == "refute"]
    gaps.append("- " + label(lang, "sr_single_source", ids=_ids(single, lang)))
    gaps.append("- " + label(lang, "sr_refuting", ids=_ids(refuting, lang)))
    lines += gaps

    lines += ["", f"## {label(lang, 'sr_later')}", ""]
    later = []
    for other in plan.dimensions:
        for item in other.dependency_inputs:
            if item.dimension_id == dim.id:
                text = label(
                    lang, "sr_consumers", dim=other.id, name=esc(other.name), needed=item.needed_for,
                    rule=esc(item.scope_rule),
                )  # fmt: skip
                later.append(f"- {text}")
    later += [f"- {label(lang, 'sr_handoff', q=esc(q))}" for q in unanswered]
    lines += later or [label(lang, "sr_none")]
    return "\n".join(lines).rstrip() + "\n"
