"""report.md and citations.json from the plan and the validated evidence files.

Why deterministic: the report is an arrangement of validated claims, not new prose. It follows
``report_shape``: each section gets the role its title implies (summary, scope and method,
comparison, timeline, risks, or content), each dimension is placed in the content section its
wording matches best, each mandatory element is built from claims and placed in the section
that fits it, and every factual sentence is a claim or key finding carrying its ``[N]``. The
numbering comes from :class:`Citer`, so the references list and citations.json hold exactly the
numbers the text uses, in order of first appearance.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from autodidact.plan.models import Dimension, Plan
from autodidact.report.citations import Citer
from autodidact.report.elements import element_kind, render_element
from autodidact.report.labels import cell, esc, label, overlap

Evidences = dict[str, dict[str, Any]]

ROLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("references", ("reference", "bibliograph", "参考文献", "参考资料")),
    ("summary", ("summary", "abstract", "conclusion", "key finding", "摘要", "概要", "结论", "要点")),
    ("method", ("method", "scope", "approach", "方法", "范围")),
    ("comparison", ("comparison", "matrix", "对比", "比较", "矩阵")),
    ("timeline", ("timeline", "chronolog", "时间线", "沿革")),
    ("risks", ("risk", "uncertaint", "limitation", "pitfall", "gap", "counter", "open question",
               "风险", "不确定", "局限", "陷阱", "缺口", "反证", "未决", "模糊")),
)  # fmt: skip
ELEMENT_HOME = {"comparison": "comparison", "timeline": "timeline", "risks": "risks",
                "evidence": "risks", "findings": "summary", "coverage": "method"}  # fmt: skip


def _colon(lang: str) -> str:
    return "：" if lang == "zh" else ": "


def _sep(lang: str) -> str:
    return "、" if lang == "zh" else ", "


def section_role(title: str) -> str:
    """The role a section title implies (``content`` when none)."""
    lowered = title.lower()
    for role, words in ROLES:
        if any(w in lowered for w in words):
            return role
    return "content"


@dataclass
class Composed:
    """The rendered report and its citations."""

    markdown: str
    citations: dict[str, Any]
    placement: dict[str, list[str]]


def _dim_text(dim: Dimension) -> str:
    return f"{dim.name} {dim.description} {dim.expected_output} {' '.join(dim.scope_ownership.owns)}"


def place_dimensions(plan: Plan, sections: list[str], available: list[str]) -> dict[int, list[str]]:
    """Each dimension goes to the content/comparison/timeline/risks section its wording matches best."""
    roles = [section_role(s) for s in sections]
    hosts = [i for i, r in enumerate(roles) if r in {"content", "comparison", "timeline", "risks"}]
    placement: dict[int, list[str]] = {i: [] for i in range(len(sections))}
    if not hosts:
        return placement
    for dim in plan.dimensions:
        if dim.id not in available:
            continue
        scores = [(overlap(sections[i], _dim_text(dim)), -len(placement[i]), -i) for i in hosts]
        best = hosts[scores.index(max(scores))]
        placement[best].append(dim.id)
    return placement


def place_elements(plan: Plan, sections: list[str]) -> tuple[dict[int, list[str]], list[str]]:
    """Each mandatory element goes to the section of its kind, else the closest section, else the annex."""
    roles = [section_role(s) for s in sections]
    placed: dict[int, list[str]] = {i: [] for i in range(len(sections))}
    annex: list[str] = []
    for element in plan.report_shape.mandatory_elements:
        home = ELEMENT_HOME.get(element_kind(element))
        target = next((i for i, r in enumerate(roles) if home and r == home), None)
        if target is None:
            scores = [overlap(element, s) if roles[i] != "references" else 0 for i, s in enumerate(sections)]
            if scores and max(scores) > 0:
                target = scores.index(max(scores))
        if target is None:
            annex.append(element)
        else:
            placed[target].append(element)
    return placed, annex


def _dimension_block(dim: Dimension, ev: dict[str, Any], citer: Citer, lang: str, findings: bool) -> list[str]:
    """A dimension's evidence in its section: key findings (unless the summary has them), then claims by question."""
    lines = [f"### {esc(dim.name)}", ""]
    for finding in ev.get("key_findings", []) if findings else []:
        lines.append(citer.sentence(finding["finding"], finding["claim_ids"], lang))
        lines.append("")
    kq_ids = [f"kq{i + 1}" for i in range(len(dim.key_questions))]
    groups: list[tuple[str, list[dict[str, Any]]]] = [
        (q, [c for c in ev["claims"] if c.get("answers_key_question") == kq])
        for kq, q in zip(kq_ids, dim.key_questions, strict=True)
    ]
    groups.append((label(lang, "other_findings"), [c for c in ev["claims"] if c.get("answers_key_question") is None]))
    for title, claims in groups:
        if not claims:
            continue
        pro = [c for c in claims if c.get("polarity") != "refute"][:6]
        con = [c for c in claims if c.get("polarity") == "refute"][:3]
        lines.append(f"**{esc(title)}**")
        lines.append("")
        joiner = "" if lang == "zh" else " "
        text = joiner.join(citer.sentence(c["text"], [c["id"]], lang) for c in pro)
        if con:
            text += joiner + label(lang, "contrary") + joiner
            text += joiner.join(citer.sentence(c["text"], [c["id"]], lang) for c in con)
        lines.extend([text.strip(), ""])
    return lines


def _summary(plan: Plan, evidences: Evidences, citer: Citer, lang: str) -> list[str]:
    lines = []
    for dim in plan.dimensions:
        ev = evidences.get(dim.id)
        if ev is None:
            continue
        for finding in ev["key_findings"]:
            sentence = citer.sentence(finding["finding"], finding["claim_ids"], lang)
            lines.append(f"- **{esc(dim.name)}**{_colon(lang)}{sentence}")
    return lines


def _method(plan: Plan, evidences: Evidences, failed: list[str], lang: str) -> list[str]:
    s = plan.scope
    lines = [
        f"- **{label(lang, 'objects')}**{_colon(lang)}{esc(_sep(lang).join(s.objects))}",
        f"- **{label(lang, 'time_range')}**{_colon(lang)}{esc(s.time_range)}",
        f"- **{label(lang, 'region')}**{_colon(lang)}{esc(s.region)}",
        f"- **{label(lang, 'audience')}**{_colon(lang)}{esc(s.audience_or_use)}",
        f"- **{label(lang, 'exclusions')}**{_colon(lang)}{esc(('；' if lang == 'zh' else '; ').join(s.exclusions))}",
    ]
    if s.unknowns:
        lines.append(f"- **{label(lang, 'unknowns')}**{_colon(lang)}{esc(_sep(lang).join(s.unknowns))}")
    lines += ["", f"**{label(lang, 'dims_table')}**", ""]
    header = [label(lang, "col_dim"), label(lang, "col_method"), label(lang, "col_claims"), label(lang, "col_sources")]
    lines += ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for dim in plan.dimensions:
        ev = evidences.get(dim.id, {})
        lines.append(
            f"| {cell(dim.id + ' ' + dim.name)} | {cell(dim.method)} | {len(ev.get('claims', []))} "
            f"| {len(ev.get('sources', []))} |"
        )
    if failed:
        lines += ["", label(lang, "failed_dims", dims=", ".join(failed))]
    return lines


def _gaps(plan: Plan, evidences: Evidences, lang: str) -> list[str]:
    lines = []
    for dim in plan.dimensions:
        ev = evidences.get(dim.id)
        if ev is None:
            continue
        answered = {c.get("answers_key_question") for c in ev["claims"]}
        for i, q in enumerate(dim.key_questions):
            if f"kq{i + 1}" not in answered:
                lines.append(f"- {label(lang, 'unanswered', dim=dim.id, q=esc(q))}")
    return lines


def compose_report(
    plan: Plan, evidences: Evidences, *, title: str, meta_line: str, failed: list[str] | None = None
) -> Composed:
    """Render report.md and citations.json content (pure: no file access)."""
    lang = plan.language
    failed = failed or []
    citer = Citer(evidences)
    sections = list(plan.report_shape.sections)
    roles = [section_role(s) for s in sections]
    dims_at = place_dimensions(plan, sections, list(evidences))
    elements_at, annex = place_elements(plan, sections)
    by_id = {d.id: d for d in plan.dimensions}
    goal = f"**{label(lang, 'goal')}**{_colon(lang)}{esc(plan.research_goal)}"
    lines = [f"# {esc(title)}", "", goal, "", f"*{meta_line}*", ""]
    gaps_written = False
    for i, (section, role) in enumerate(zip(sections, roles, strict=True)):
        if role == "references":
            continue
        lines += [f"## {esc(section)}", ""]
        body: list[str] = []
        if role == "summary":
            body += _summary(plan, evidences, citer, lang)
        elif role == "method":
            body += _method(plan, evidences, failed, lang)
        for dim_id in dims_at[i]:
            body += _dimension_block(by_id[dim_id], evidences[dim_id], citer, lang, "summary" not in roles)
        for element in elements_at[i]:
            if role == "summary" and element_kind(element) == "findings":
                continue  # the summary already is the cited list of every key finding
            body += ["", f"**{esc(element)}**", "", *render_element(element, plan, evidences, citer, lang)]
        if role == "risks" and not gaps_written:
            gap_lines = _gaps(plan, evidences, lang)
            if gap_lines:
                body += ["", f"**{label(lang, 'gaps_heading')}**", "", *gap_lines]
            gaps_written = True
        if not any(line.strip() for line in body):
            body = [label(lang, "no_evidence_section")]
        lines += [*body, ""]
    if annex:
        lines += [f"## {label(lang, 'annex')}", ""]
        for element in annex:
            lines += [f"**{esc(element)}**", "", *render_element(element, plan, evidences, citer, lang), ""]
    lines += [f"## {label(lang, 'references')}", ""]
    for entry in citer.entries:
        ref = entry["snapshot_refs"][0] if entry["snapshot_refs"] else ""
        lines.append(f"[{entry['n']}] {esc(entry['title'])}. <{entry['url']}> (`{ref}`)")
        lines.append("")
    markdown = "\n".join(lines).rstrip() + "\n"
    placement = {sections[i]: ids for i, ids in dims_at.items() if ids}
    return Composed(markdown=markdown, citations=citer.as_json(), placement=placement)
