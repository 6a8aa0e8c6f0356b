"""Inline SVG drawn on the server: the per-round charts of the overview and the wiki's link graph.

Why SVG strings and not a chart library: the page must work offline with no JavaScript build, and
three line charts plus a circle of nodes are a few dozen lines. Every text that reaches the SVG is
escaped here (article titles come from sources).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from urllib.parse import quote

WIDTH, HEIGHT, PAD = 360, 170, 34


@dataclass(frozen=True)
class Threshold:
    """A horizontal line on a chart: ``value`` with a ``label`` (e.g. overlap > 0.7 ends the loop)."""

    value: float
    label: str


def line_chart(title: str, points: list[tuple[int, float | None]], thresholds: list[Threshold]) -> str:
    """One metric per round as a line with dots; ``None`` rounds (not measured yet) are left out."""
    known = [(r, v) for r, v in points if v is not None]
    top = max([v for _, v in known] + [t.value for t in thresholds] + [1.0]) * 1.15
    rounds = [r for r, _ in points] or [1]
    first, last = min(rounds), max(max(rounds), min(rounds) + 1)

    def x(r: float) -> float:
        return PAD + (r - first) / (last - first) * (WIDTH - 2 * PAD)

    def y(v: float) -> float:
        return HEIGHT - PAD + -(v / top) * (HEIGHT - 2 * PAD)

    parts = [
        f'<svg class="chart" role="img" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}">',
        f"<title>{escape(title)}</title>",
        f'<text x="{PAD}" y="16" class="t">{escape(title)}</text>',
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" class="axis"/>',
        f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}" class="axis"/>',
        f'<text x="{PAD - 4}" y="{PAD + 4}" class="tick" text-anchor="end">{top:.3g}</text>',
        f'<text x="{PAD - 4}" y="{HEIGHT - PAD}" class="tick" text-anchor="end">0</text>',
    ]
    for r in rounds:
        parts.append(f'<text x="{x(r):.1f}" y="{HEIGHT - PAD + 14}" class="tick" text-anchor="middle">r{r}</text>')
    for t in thresholds:
        parts.append(
            f'<line x1="{PAD}" y1="{y(t.value):.1f}" x2="{WIDTH - PAD}" y2="{y(t.value):.1f}" class="threshold"/>'
            f'<text x="{WIDTH - PAD}" y="{y(t.value) - 3:.1f}" class="tick" text-anchor="end">{escape(t.label)}</text>'
        )
    if known:
        path = " ".join(f"{x(r):.1f},{y(v):.1f}" for r, v in known)
        parts.append(f'<polyline points="{path}" class="series"/>')
        for r, v in known:
            parts.append(
                f'<circle cx="{x(r):.1f}" cy="{y(v):.1f}" r="3.5" class="dot"><title>round {r}: {v:g}</title></circle>'
            )
    else:
        parts.append(f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" class="tick" text-anchor="middle">no rounds yet</text>')
    parts.append("</svg>")
    return "".join(parts)


def link_graph(nodes: list[tuple[str, str]], edges: list[tuple[str, str]], size: int = 520) -> str:
    """Articles on a circle, an arrow per ``[[link]]``; each node links to its article.

    ``nodes`` are ``(name, title)``; ``edges`` are ``(from name, to name)`` between known names.
    """
    if not nodes:
        return '<p class="muted">No articles yet.</p>'
    centre, radius = size / 2, size / 2 - 90
    at: dict[str, tuple[float, float]] = {}
    for i, (name, _) in enumerate(nodes):
        angle = 2 * math.pi * i / len(nodes) - math.pi / 2
        at[name] = (centre + radius * math.cos(angle), centre + radius * math.sin(angle))
    parts = [
        f'<svg class="graph" role="img" viewBox="0 0 {size} {size}" width="{size}" height="{size}">',
        "<title>Links between wiki articles</title>",
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="18" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" class="arrowhead"/></marker></defs>',
    ]
    for source, target in edges:
        if source in at and target in at and source != target:
            (x1, y1), (x2, y2) = at[source], at[target]
            parts.append(
                f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" class="edge" marker-end="url(#arrow)"/>'
            )
    for name, title in nodes:
        x, y = at[name]
        label = title if len(title) <= 28 else title[:27] + "…"
        parts.append(
            f'<a href="/wiki/{escape(quote(name))}"><circle cx="{x:.1f}" cy="{y:.1f}" r="9" class="node"/>'
            f'<text x="{x:.1f}" y="{y - 13:.1f}" text-anchor="middle" class="label">{escape(label)}</text></a>'
        )
    parts.append("</svg>")
    return "".join(parts)
