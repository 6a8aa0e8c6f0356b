"""Mandatory report elements built from claims: comparison tables, timelines, risk lists, matrices.

Why from claims: seed 004's (docs/seeds.md) ``report_shape.mandatory_elements`` are promises the final report
must keep, and every cell that states a fact must be checkable. Each element is assembled only
from validated claims, and each cell cites through the shared :class:`Citer`, so a table row is
as traceable as a sentence. An element the evidence cannot fill says so (a gap), never guesses.
"""

from __future__ import annotations

import re

from autodidact.evidence.models import Claim
from autodidact.evidence.prose import plain
from autodidact.plan.models import Dimension, Plan
from autodidact.report.citations import CITE_RE, Citer, Evidences
from autodidact.report.labels import cell, label, overlap
from autodidact.report.quoted_markdown import inline_cell
from autodidact.text.topic import key_terms, mentions

KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("comparison", ("comparison", "compare", "matrix", "player", "versus", "对比", "比较", "矩阵", "玩家")),
    ("timeline", ("timeline", "chronolog", "时间线", "编年")),
    ("phases", ("phase", "阶段")),
    ("evidence", ("competing explanation", "support / refute", "竞争性解释", "支持/反驳")),
    ("risks", ("risk", "pitfall", "open question", "limitation", "风险", "陷阱", "未决", "局限")),
    ("findings", ("key finding", "关键发现")),
    ("coverage", ("coverage", "覆盖")),
)


def element_kind(name: str) -> str:
    """What kind of element a mandatory_elements entry asks for (``table`` when unrecognised)."""
    lowered = name.lower()
    for kind, words in KINDS:
        if any(w in lowered for w in words):
            return kind
    return "table"


def _claims(evidences: Evidences, dims: list[str] | None = None) -> list[Claim]:
    out: list[Claim] = []
    for dim_id, ev in evidences.items():
        if dims is None or dim_id in dims:
            out.extend(ev.claims)
    return out


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    return [_row(header), _row(["---"] * len(header)), *(_row(r) for r in rows)]


def _claim_cell(citer: Citer, claim: Claim, limit: int = 200) -> str:
    return f"{inline_cell(claim.text, limit)} {citer.marks([claim.id])}".strip()


def comparison_table(plan: Plan, evidences: Evidences, citer: Citer, lang: str) -> list[str]:
    """Candidates (or dimensions) by evidence for and against, built from claims."""
    objects = plan.scope.objects
    rows: list[list[str]] = []
    if len(objects) >= 2:
        # An object is named by its own words, not those all objects share: "Python lists" is
        # mentioned by "Lists are mutable" (the same stem), not only by the words "python lists".
        words = [key_terms(o) for o in objects]
        shared = set.intersection(*(set(w) for w in words))
        for obj, obj_words in zip(objects, words, strict=True):
            low = obj.lower()
            own = [
                d.id
                for d in plan.dimensions
                if d.name.lower().startswith((f"{low}:", f"{low}：")) and d.id in evidences
            ]
            names = [w for w in obj_words if w not in shared] or obj_words or [low]
            related = list(_claims(evidences, own))
            related += [
                c for c in _claims(evidences) if c not in related and any(mentions(plain(c.text), n) for n in names)
            ]
            pro = [c for c in related if c.polarity != "refute"][:2]
            con = [c for c in related if c.polarity == "refute"][:2]
            rows.append(
                [
                    cell(obj),
                    " · ".join(_claim_cell(citer, c) for c in pro) or "—",
                    " · ".join(_claim_cell(citer, c) for c in con) or "—",
                ]
            )
        return _table([label(lang, "col_object"), label(lang, "col_for"), label(lang, "col_against")], rows)
    for dim in plan.dimensions:
        ev = evidences.get(dim.id)
        if ev is None:
            continue
        finding = ev.key_findings[0]
        text_of = {c.id: c.text for c in ev.claims}
        lead = next((text_of[i] for i in finding.claim_ids if i in text_of), finding.finding)
        con = [c for c in ev.claims if c.polarity == "refute"][:1]
        rows.append(
            [
                cell(dim.name),
                f"{inline_cell(plain(lead))} {citer.marks(finding.claim_ids)}".strip(),
                " · ".join(_claim_cell(citer, c) for c in con) or "—",
            ]
        )
    return _table([label(lang, "col_dim"), label(lang, "col_finding"), label(lang, "col_against")], rows)


_YEAR = re.compile(r"(?<!\d)(1[6-9]\d{2}|20\d{2})(?!\d)")
_VERSION = re.compile(r"(?:version|python|版本|v)\s*(\d+(?:\.\d+)+)", re.IGNORECASE)


def _when(text: str) -> tuple[tuple[int, ...], str] | None:
    if match := _YEAR.search(text):
        return (0, int(match.group(1))), match.group(1)
    if match := _VERSION.search(text):
        parts = tuple(int(p) for p in match.group(1).split("."))
        return (1, *parts), match.group(1)
    return None


def _dated(evidences: Evidences) -> list[tuple[tuple[int, ...], str, Claim]]:
    dated = []
    for claim in _claims(evidences):
        texts = [claim.text, *(e.snippet for e in claim.evidence)]
        when = next((w for t in texts if (w := _when(t))), None)
        if when is not None:
            dated.append((when[0], when[1], claim))
    dated.sort(key=lambda item: (item[0], item[2].id))
    return dated


def timeline_table(evidences: Evidences, citer: Citer, lang: str) -> list[str]:
    """Dated (year or version) claims in order; a gap note when none are dated."""
    dated = _dated(evidences)
    if not dated:
        return [label(lang, "no_dated")]
    rows = [[cell(shown), _claim_cell(citer, claim)] for _, shown, claim in dated[:20]]
    return _table([label(lang, "col_date"), label(lang, "col_event")], rows)


def phase_summary(evidences: Evidences, citer: Citer, lang: str) -> list[str]:
    """Dated claims grouped into phases (decades, or major versions), each with its first event."""
    dated = _dated(evidences)
    if not dated:
        return [label(lang, "no_dated")]
    phases: dict[str, list[Claim]] = {}
    for key, _, claim in dated:
        name = f"{key[1] // 10 * 10}s" if key[0] == 0 else f"{label(lang, 'version')} {key[1]}.x"
        phases.setdefault(name, []).append(claim)
    lines = []
    for name, claims in phases.items():
        first = citer.sentence(claims[0].text, [claims[0].id], lang)
        lines.append(f"- **{name}** ({label(lang, 'events', n=len(claims))}): {first}")
    return lines


def risk_list(element: str, plan: Plan, evidences: Evidences, citer: Citer, lang: str) -> list[str]:
    """Refuting and projective claims, then claims of the dimension closest to the element's wording."""
    picked = [c for c in _claims(evidences) if c.polarity == "refute" or c.kind == "projective"]
    best = max(plan.dimensions, key=lambda d: overlap(element, f"{d.name} {d.description}"), default=None)
    if best is not None and best.id in evidences and overlap(element, best.name) > 0:
        picked += [c for c in evidences[best.id].claims if c not in picked]
    if not picked:
        return [label(lang, "no_contrary")]
    return _distinct([f"- {citer.sentence(c.text, [c.id], lang)}" for c in picked])[:8]


def _distinct(lines: list[str]) -> list[str]:
    """Each bullet once: two dimensions often quote the same sentence, and a reader sees it twice."""
    seen: set[str] = set()
    out = []
    for line in lines:
        key = " ".join(CITE_RE.sub("", line).split()).casefold()
        if key not in seen:
            seen.add(key)
            out.append(line)
    return out


def evidence_table(evidences: Evidences, citer: Citer, lang: str) -> list[str]:
    """Claims with their polarity, supporting and refuting side by side."""
    claims = sorted(_claims(evidences), key=lambda c: {"support": 0, "refute": 1}.get(c.polarity, 2))
    rows = [[_claim_cell(citer, c), cell(c.polarity)] for c in claims[:15]]
    return _table([label(lang, "col_statement"), label(lang, "col_polarity")], rows)


def coverage_matrix(plan: Plan, evidences: Evidences, lang: str) -> list[str]:
    """Key questions answered per dimension (counts, no facts: no citations needed)."""
    rows = []
    for dim in plan.dimensions:
        ev = evidences.get(dim.id)
        claims = ev.claims if ev else []
        answered = {c.answers_key_question for c in claims} - {None}
        rows.append(
            [
                cell(f"{dim.id} {dim.name}"),
                f"{len(answered)}/{len(dim.key_questions)}",
                str(len(claims)),
                str(len(ev.sources) if ev else 0),
            ]
        )
    header = [label(lang, "col_dim"), label(lang, "col_kq"), label(lang, "col_claims"), label(lang, "col_sources")]
    return _table(header, rows)


def findings_list(plan: Plan, evidences: Evidences, citer: Citer, lang: str) -> list[str]:
    """Every dimension's key findings as a cited list."""
    out = []
    for dim in plan.dimensions:
        ev = evidences.get(dim.id)
        if ev is None:
            continue
        text_of = {c.id: c.text for c in ev.claims}
        for finding in ev.key_findings:
            # The statement of the finding's first claim, not the synthesis's bookkeeping around it
            # ("On '…': According to X: … (2 claims from 2 source(s))"); its markers cite them all.
            ids = [i for i in finding.claim_ids if i in text_of]
            text = text_of[ids[0]] if ids else finding.finding
            out.append(f"- {citer.sentence(text, finding.claim_ids, lang)}")
    return _distinct(out)


def claims_table(element: str, plan: Plan, evidences: Evidences, citer: Citer, lang: str) -> list[str]:
    """A table of the claims of the dimensions whose wording is closest to the element."""
    scored = sorted(
        (d for d in plan.dimensions if d.id in evidences),
        key=lambda d: -overlap(element, f"{d.name} {d.description} {d.expected_output}"),
    )
    if not scored:
        return [label(lang, "no_evidence_section")]
    top = scored[0]
    rows = [[cell(_item(top, c), 90), _claim_cell(citer, c)] for c in evidences[top.id].claims[:12]]
    return _table([label(lang, "col_item"), label(lang, "col_statement")], rows)


def _item(dim: Dimension, claim: Claim) -> str:
    """What a row is about, for a reader: the key question the claim answers (its topic tag is an id)."""
    kq = claim.answers_key_question or ""
    if kq.startswith("kq") and kq[2:].isdigit() and 0 < int(kq[2:]) <= len(dim.key_questions):
        return str(dim.key_questions[int(kq[2:]) - 1])
    return claim.topic_tag.replace("_", " ")


def render_element(element: str, plan: Plan, evidences: Evidences, citer: Citer, lang: str) -> list[str]:
    """The markdown lines of one mandatory element."""
    kind = element_kind(element)
    if kind == "comparison":
        return comparison_table(plan, evidences, citer, lang)
    if kind == "timeline":
        return timeline_table(evidences, citer, lang)
    if kind == "phases":
        return phase_summary(evidences, citer, lang)
    if kind == "risks":
        return risk_list(element, plan, evidences, citer, lang)
    if kind == "evidence":
        return evidence_table(evidences, citer, lang)
    if kind == "coverage":
        return coverage_matrix(plan, evidences, lang)
    if kind == "findings":
        return findings_list(plan, evidences, citer, lang)
    return claims_table(element, plan, evidences, citer, lang)
