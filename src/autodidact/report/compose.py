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

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from autodidact.evidence.models import Claim, EvidenceFile
from autodidact.evidence.prose import Sentence, Written
from autodidact.plan.models import Dimension, Plan
from autodidact.report.artifacts import CitationsFile
from autodidact.report.citations import Citer, Evidences, SectionOf
from autodidact.report.elements import element_kind, render_element
from autodidact.report.labels import cell, esc, label, overlap
from autodidact.report.references import anchor, enrich, markdown_lines
from autodidact.report.writing import BlockKey, block_claims, offline_block

Prose = Mapping[BlockKey, Written]

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
    citations: CitationsFile
    placement: dict[str, list[str]]
    prose: dict[BlockKey, Written]


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


def _dimension_block(
    dim: Dimension, ev: EvidenceFile, citer: Citer, lang: str, findings: bool, prose: Prose
) -> list[str]:
    """A dimension's evidence in its section: its summary (unless the report has a summary
    section), then each question's written sentences, refuting ones last under their label."""
    lines = [f"### {esc(dim.name)}", ""]
    claims = {c.id: c for c in ev.claims}
    summary = prose.get((dim.id, "summary"))
    if findings and summary is not None:
        lines += [_paragraph(summary.sentences, claims, citer, lang), ""]
    kq_ids = [f"kq{i + 1}" for i in range(len(dim.key_questions))]
    titles = [*zip(kq_ids, dim.key_questions, strict=True), ("other", label(lang, "other_findings"))]
    for key, title in titles:
        written = prose.get((dim.id, key))
        if written is None or not written.sentences:
            continue
        lines += [f"**{esc(title)}**", "", _paragraph(written.sentences, claims, citer, lang), ""]
    return lines


def _paragraph(sentences: list[Sentence], claims: dict[str, Claim], citer: Citer, lang: str) -> str:
    """Sentences with their markers; the ones resting only on refuting claims last, after their label."""
    joiner = "" if lang == "zh" else " "

    def refutes(s: Sentence) -> bool:
        return all((c := claims.get(i)) is not None and c.polarity == "refute" for i in s.claim_ids)

    pro = [citer.sentence(s.text, list(s.claim_ids), lang) for s in sentences if not refutes(s)]
    con = [citer.sentence(s.text, list(s.claim_ids), lang) for s in sentences if refutes(s)]
    text = joiner.join(pro)
    if con:
        text += joiner + label(lang, "contrary") + joiner + joiner.join(con)
    return text.strip()


def _summary(plan: Plan, evidences: Evidences, citer: Citer, lang: str, prose: Prose) -> list[str]:
    lines = []
    for dim in plan.dimensions:
        ev = evidences.get(dim.id)
        written = prose.get((dim.id, "summary"))
        if ev is None or written is None or not written.sentences:
            continue
        claims = {c.id: c for c in ev.claims}
        lines.append(f"- **{esc(dim.name)}**{_colon(lang)}{_paragraph(written.sentences, claims, citer, lang)}")
    return lines


def _footer(prose: Prose, lang: str) -> list[str]:
    """How the prose was written: sentences by engine, and the dropped ones by reason."""
    by_engine: Counter[str] = Counter()
    dropped: Counter[str] = Counter()
    for written in prose.values():
        by_engine[written.engine] += len(written.sentences)
        dropped.update(written.dropped)
    if not by_engine:
        return []
    engines = _sep(lang).join(f"{label(lang, 'engine_' + e)} {n}" for e, n in sorted(by_engine.items()))
    line = label(lang, "prose_footer", n=sum(by_engine.values()), engines=engines)
    if dropped:
        reasons = _sep(lang).join(f"{n} {label(lang, 'drop_' + r.replace(' ', '_'))}" for r, n in dropped.most_common())
        line += " " + label(lang, "prose_dropped", n=sum(dropped.values()), reasons=reasons)
    return [f"*{line}*", ""]


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
        ev = evidences.get(dim.id)
        claims, sources = (len(ev.claims), len(ev.sources)) if ev is not None else (0, 0)
        lines.append(f"| {cell(dim.id + ' ' + dim.name)} | {cell(dim.method)} | {claims} | {sources} |")
    if failed:
        lines += ["", label(lang, "failed_dims", dims=", ".join(failed))]
    return lines


def _gaps(plan: Plan, evidences: Evidences, lang: str) -> list[str]:
    """Key questions no dimension answered. Two dimensions may ask the same question (a section
    two facets find): answered by one, it is no gap of the other — the report shows its answer."""
    answered_text: set[str] = set()
    for dim in plan.dimensions:
        ev = evidences.get(dim.id)
        kqs = {c.answers_key_question for c in ev.claims} if ev is not None else set()
        answered_text |= {" ".join(q.split()) for i, q in enumerate(dim.key_questions) if f"kq{i + 1}" in kqs}
    lines = []
    for dim in plan.dimensions:
        ev = evidences.get(dim.id)
        if ev is None:
            continue
        answered = {c.answers_key_question for c in ev.claims}
        for i, q in enumerate(dim.key_questions):
            if f"kq{i + 1}" not in answered and " ".join(q.split()) not in answered_text:
                lines.append(f"- {label(lang, 'unanswered', dim=dim.id, q=esc(q))}")
    return lines


def compose_report(
    plan: Plan,
    evidences: Evidences,
    *,
    title: str,
    meta_line: str,
    failed: list[str] | None = None,
    prose: Prose | None = None,
    accessed: str = "",
    section_of: SectionOf | None = None,
) -> Composed:
    """Render report.md and citations.json content (pure: no file access).

    ``prose`` holds the written blocks (``report/writing.write_prose``); blocks it lacks are
    written by the offline writer."""
    lang = plan.language
    failed = failed or []
    prose = _complete(plan, evidences, dict(prose or {}))
    citer = Citer(evidences, section_of)
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
            body += _summary(plan, evidences, citer, lang, prose)
        elif role == "method":
            body += _method(plan, evidences, failed, lang)
        for dim_id in dims_at[i]:
            body += _dimension_block(by_id[dim_id], evidences[dim_id], citer, lang, "summary" not in roles, prose)
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
    lines += _footer(prose, lang)
    sources = {s.url: s for ev in evidences.values() for s in ev.sources}
    enrich(citer.entries, sources, accessed)
    lines += [f"## {label(lang, 'references')}", ""]
    lines += markdown_lines(citer.entries, _cited_in(lines), lang)
    markdown = "\n".join(lines).rstrip() + "\n"
    placement = {sections[i]: ids for i, ids in dims_at.items() if ids}
    return Composed(markdown=markdown, citations=citer.as_json(), placement=placement, prose=prose)


def _cited_in(lines: list[str]) -> dict[int, list[tuple[str, str]]]:
    """For each reference number, the report sections (name, anchor) whose text cites it."""
    out: dict[int, list[tuple[str, str]]] = {}
    section = ""
    for line in lines:
        if line.startswith("## "):
            section = line[3:].strip()
            continue
        for n in {int(m) for m in _MARKER.findall(line)}:
            entry = (section.replace("\\", ""), anchor(section.replace("\\", "")))
            if section and entry not in out.setdefault(n, []):
                out[n].append(entry)
    return out


_MARKER = re.compile(r"(?<!\\)\[(\d+)\]")


def _complete(plan: Plan, evidences: Evidences, prose: dict[BlockKey, Written]) -> dict[BlockKey, Written]:
    """``prose`` with every block it lacks written by the offline writer."""
    for dim in plan.dimensions:
        ev = evidences.get(dim.id)
        if ev is None:
            continue
        for key, claims in block_claims(dim, ev).items():
            if key not in prose:
                prose[key] = offline_block(claims, key[1])
    return prose
