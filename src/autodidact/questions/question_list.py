"""The round's question summary as seed 000 (docs/seeds.md) prints it ("## 第 N 轮问题列表（共 X 个）").

Why a string: the core never prints (T20); the CLI and the loop's reporter show it, and tests
compare it. The Chinese form follows the seed line by line; English knowledge bases get the same
structure in English.
"""

from __future__ import annotations

from collections import Counter

from autodidact.questions.models import RoundQuestions

_SOURCE_ZH = {"audit": "审计报告", "user": "用户插入", "framework": "框架补充", "raw": "新素材"}
_SOURCE_EN = {"audit": "audit report", "user": "user", "framework": "framework", "raw": "new material"}


def render_summary(
    rq: RoundQuestions,
    round_n: int,
    language: str = "zh",
    written_to: str | None = None,
    warning: str | None = None,
) -> str:
    """Seed 000's summary: count, source distribution, overlap, the questions, where it was written."""
    zh = language == "zh"
    counts: Counter[str] = Counter(str(q.source) for q in rq.questions)
    names = _SOURCE_ZH if zh else _SOURCE_EN
    order = ["audit", "user", "framework"] + (["raw"] if counts.get("raw") else [])
    if zh:
        dist = " / ".join(f"{names[s]} {counts.get(s, 0)} 个" for s in order)
        lines = [f"## 第 {round_n} 轮问题列表（共 {len(rq.questions)} 个）", "", f"来源分布：{dist}"]
        if rq.overlap_ratio is None:
            lines.append("问题重叠率：—（第 1 轮，无历史问题可比较）")
        else:
            lines.append(f"问题重叠率：{_pct(rq.overlap_ratio)}（与历史问题对比）")
    else:
        dist = " / ".join(f"{names[s]} {counts.get(s, 0)}" for s in order)
        lines = [f"## Round {round_n} questions ({len(rq.questions)})", "", f"Sources: {dist}"]
        if rq.overlap_ratio is None:
            lines.append("Overlap with earlier questions: — (round 1, no history)")
        else:
            lines.append(f"Overlap with earlier questions: {_pct(rq.overlap_ratio)}")
    if warning:
        lines.append(warning)
    lines.append("")
    for q in rq.questions:
        origin = f"（来源：{q.source}）" if zh else f" ({q.source})"
        lines.append(f"**[{q.priority}]** {q.text}{origin}")
    if rq.deduped_questions:
        n = len(rq.deduped_questions)
        lines += ["", f"去重：{n} 个候选与历史问题重复" if zh else f"Deduplicated: {n} candidates repeated history"]
    path = written_to or f"outputs/rounds/round_{round_n}_questions.json"
    lines += ["", f"已写入：{path}" if zh else f"Written: {path}"]
    lines.append("→ 第 1 步完成，继续第 2 步（信息检索）" if zh else "→ Step 1 done, continuing with Step 2")
    return "\n".join(lines) + "\n"


def _pct(value: float) -> str:
    return f"{round(value * 100)}%"
