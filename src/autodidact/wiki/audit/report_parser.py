"""Read any ``round_N_check.md`` back: counts, items per section, directions, per-question status,
and each question's text, answer and gap (what the summary lists as partial or open).

Why tolerant: the loop decides termination from these numbers (``audit_issues_count`` = 知识漏洞
+ partial, docs/contracts.md §1.5–1.6) and the questioner starts from the directions, but the report may
have been written by a model or edited by a person. Headings are found by their keywords whatever
the numbering (``## 二、知识漏洞``, ``### 2. 知识漏洞``, ``**二：知识漏洞**``); labels may be bold;
colons and digits may be full-width; bullets may be reordered or spaced out. A report with no
counts and no sections to count from is a :class:`ParseError` naming the file and what is missing.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from autodidact.errors import InputError, NotFoundError

SECTION_KEYS = {
    "coverage": ("问题覆盖", "question coverage"),
    "gaps": ("知识漏洞", "knowledge gaps"),
    "contradictions": ("矛盾", "contradictions"),
    "missing_sources": ("来源缺失", "missing sources"),
    "structure": ("结构问题", "structural issues", "structure"),
    "summary": ("审计摘要", "audit summary", "summary"),
}
STATUS_WORDS = {
    "resolved": "resolved",
    "已解决": "resolved",
    "已覆盖": "resolved",
    "partial": "partial",
    "部分解决": "partial",
    "部分覆盖": "partial",
    "部分": "partial",
    "open": "open",
    "未解决": "open",
    "未覆盖": "open",
}
_EMPTY = {"无", "暂无", "（无）", "(无)", "none", "n/a", "-", "—", "无。"}
_BULLET = re.compile(r"^(\s*)(?:[-*+•]|\d+[.)、]|[（(]\d+[)）])\s+(.*)$")
_QID = re.compile(r"\b([A-Za-z]*\d*[Qq]\d+[A-Za-z0-9_-]*)\b")
_STATUS = re.compile(r"\b(resolved|partial|open)\b|(已解决|已覆盖|部分解决|部分覆盖|未解决|未覆盖)", re.I)


_ANSWER_LABEL = re.compile(r"^\s*(?:answer|回答|答案)\s*[:：]\s*(.*)$", re.I | re.S)
_GAP_LABEL = re.compile(r"^\s*(?:gap|missing|缺口|尚缺)\s*[:：]\s*(.*)$", re.I | re.S)
_FRAME_CHARS = " \t*_:：-—–|·[]【】()（）"


@dataclass
class QuestionEntry:
    """One phase-1 item read back: its id, status, question, and (resolved/partial) answer and gap."""

    qid: str
    status: str
    question: str = ""
    answer: str = ""
    gap: str = ""


class ParseError(InputError):
    """A check report that cannot be read back; the message names the file and what is missing."""


@dataclass
class CheckReport:
    """A parsed audit report."""

    resolved: int = 0
    partial: int = 0
    open: int = 0
    gaps: list[str] = field(default_factory=list)
    contradictions: list[str] = field(default_factory=list)
    missing_sources: list[str] = field(default_factory=list)
    structure: list[str] = field(default_factory=list)
    directions: list[str] = field(default_factory=list)
    question_status: dict[str, str] = field(default_factory=dict)
    questions: list[QuestionEntry] = field(default_factory=list)
    gap_count: int = 0
    contradiction_count: int = 0
    missing_source_count: int = 0
    round: int | None = None

    @property
    def audit_issues_count(self) -> int:
        """知识漏洞 + partial (docs/contracts.md §1.5); open, contradictions and missing sources are not counted."""
        return self.gap_count + self.partial


# "__bold label__" is bold; "__doc__", "__init__" and "__slots__" are names and keep their underscores.
_UNDERSCORE_BOLD = re.compile(r"(?<!\w)__([^_\n]*[\s\u3400-\u9fff][^_\n]*)__(?!\w)")


def _plain(text: str) -> str:
    """The text without bold markers (item text keeps its own punctuation and Python's dunder names)."""
    text = text.replace("**", "")
    if "__" in text:  # else nothing can match (the report's orphan lines are thousands)
        text = _UNDERSCORE_BOLD.sub(r"\1", text)
    return text.strip()


def _norm(text: str) -> str:
    """NFKC + plain: full-width digits and colons become ASCII, for labels and counts."""
    return _plain(unicodedata.normalize("NFKC", text))


def _section_of(line: str) -> str | None:
    is_heading = line.lstrip().startswith("#") or (line.strip().startswith("**") and line.strip().endswith("**"))
    if not is_heading:  # tested first: a report lists every orphan article, one line each
        return None
    low = _norm(line).lstrip("#").strip().casefold()
    for key, words in SECTION_KEYS.items():
        if any(w in low for w in words) and len(low) <= 40:
            return key
    return None


def _items(lines: list[str]) -> list[str]:
    """Top-level items of a section (sub-bullets and continuation lines fold into their item)."""
    items: list[str] = []
    base: int | None = None
    for line in lines:
        if not line.strip():
            continue
        bullet = _BULLET.match(line)
        indent = len(line) - len(line.lstrip())
        if bullet and (base is None or indent <= base):
            base = indent if base is None else base
            items.append(_plain(bullet.group(2)))
        elif items:
            items[-1] += "\n" + _plain(line)
        elif _norm(line).casefold() not in _EMPTY:
            items.append(_plain(line))
    return [i for i in items if _norm(i.split("\n")[0]).casefold() not in _EMPTY]


def _count(label: str, text: str) -> int | None:
    match = re.search(rf"{label}\s*(?:数|数量|count)?\s*[:=]\s*(\d+)", text, re.I)
    return int(match.group(1)) if match else None


def _directions(summary_lines: list[str]) -> list[str]:
    text = "\n".join(_plain(line) for line in summary_lines)
    match = re.search(r"(?:建议下一轮重点方向|next[- ]round directions?)\s*[:：][ \t]*(.*)", text, re.I | re.S)
    if not match:
        return []
    rest = match.group(1)
    first, _, tail = rest.partition("\n")
    first = first.strip()
    if first.startswith(("[", "［")):
        return _bracketed(("[" + first[1:] + "\n" + tail).strip())
    if first:
        return [p.strip() for p in re.split(r"\s*[;；]\s*", first) if p.strip()]
    found: list[str] = []
    for line in tail.split("\n"):
        bullet = _BULLET.match(line)
        if bullet:
            found.append(bullet.group(2).strip())
        elif found and line.strip():
            break
    return found


def _bracketed(rest: str) -> list[str]:
    rest = rest.replace("］", "]")
    end = rest.find("]\n") if "]\n" in rest else rest.rfind("]")
    inner = rest[: end + 1] if end >= 0 else rest
    try:
        data = json.loads(inner)
        if isinstance(data, list):
            return [str(d).strip() for d in data if str(d).strip()]
    except ValueError:
        pass
    body = inner.strip("[]")
    parts = re.split(r"\s*[;；]\s*|\s*\|\s*|\n", body)
    if len(parts) == 1:
        parts = re.split(r"\s*[、,，]\s*", body)
    return [p.strip().strip("\"'“”「」") for p in parts if p.strip().strip("\"'“”「」")]


def _status_of(item: str) -> tuple[str | None, str | None]:
    head = _norm(item.split("\n")[0])
    qid = _QID.search(head)
    status = _STATUS.search(head)
    if status is None:
        return (qid.group(1) if qid else None), None
    word = (status.group(1) or status.group(2)).casefold()
    return (qid.group(1) if qid else None), STATUS_WORDS.get(word)


def _question_entry(item: str, qid: str | None, status: str) -> QuestionEntry:
    """The question text (the head without id and status) and the labelled answer / gap lines."""
    head, *rest = item.split("\n")
    text = _plain(head)
    if qid:
        text = text.replace(qid, " ", 1) if qid in text else re.sub(r"^\W*\w+", " ", text, count=1)
    found = _STATUS.search(text)
    if found:
        text = text[: found.start()] + " " + text[found.end() :]
    question = " ".join(text.split()).lstrip(_FRAME_CHARS).rstrip()
    entry = QuestionEntry(qid=qid or "", status=status, question=question)
    for line in rest:
        body = _BULLET.match(line)
        value = _plain(body.group(2) if body else line)
        if (m := _ANSWER_LABEL.match(value)) and not entry.answer:
            entry.answer = m.group(1).strip()
        elif (m := _GAP_LABEL.match(value)) and not entry.gap:
            entry.gap = m.group(1).strip()
    return entry


_PARSED: dict[str, CheckReport] = {}  # the last few reports parsed, by their text
_PARSED_LIMIT = 4


def parse_check_report(text: str, source: str = "check report") -> CheckReport:
    """Parse a report; ``source`` names the file in error messages (and nowhere else).

    A round parses the same report several times (after writing it, at the round's end, in the next
    round's questioner) and a report lists every orphan article, so the last few are remembered; the
    caller gets its own copy."""
    if text not in _PARSED:
        report = _parse_check_report(text, source)
        if len(_PARSED) >= _PARSED_LIMIT:
            del _PARSED[next(iter(_PARSED))]
        _PARSED[text] = report
    return _copy(_PARSED[text])


def _copy(report: CheckReport) -> CheckReport:
    """A copy the caller may edit (its lists, dict and question entries are its own)."""
    return dataclasses.replace(
        report,
        gaps=list(report.gaps),
        contradictions=list(report.contradictions),
        missing_sources=list(report.missing_sources),
        structure=list(report.structure),
        directions=list(report.directions),
        question_status=dict(report.question_status),
        questions=[copy.copy(q) for q in report.questions],
    )


def _parse_check_report(text: str, source: str) -> CheckReport:
    sections: dict[str, list[str]] = {}
    current: str | None = None
    report = CheckReport()
    for line in text.replace("\r\n", "\n").split("\n"):
        key = _section_of(line)
        if key is not None:
            current = key
            sections.setdefault(key, [])
            continue
        if current is not None:
            sections[current].append(line)
        elif (m := re.search(r"第\s*(\d+)\s*轮|round\s*(\d+)", _norm(line), re.I)) and report.round is None:
            report.round = int(m.group(1) or m.group(2))
    for key in ("gaps", "contradictions", "missing_sources", "structure"):
        setattr(report, key, _items(sections.get(key, [])))
    statuses: list[str] = []
    for item in _items(sections.get("coverage", [])):
        qid, status = _status_of(item)
        if status:
            statuses.append(status)
            report.questions.append(_question_entry(item, qid, status))
            if qid:
                report.question_status[qid] = status
    summary = "\n".join(_norm(line) for line in sections.get("summary", []))
    counts = {word: _count(word, summary) for word in ("resolved", "partial", "open")}
    gap_count = _count("知识漏洞", summary)
    if gap_count is None:
        gap_count = _count("knowledge gaps", summary)
    if all(v is None for v in counts.values()) and not statuses and "coverage" not in sections:
        raise ParseError(
            f"{source}: no question counts (resolved / partial / open in 审计摘要) and no 问题覆盖情况 section",
            hint="the report needs an 审计摘要 section with 'resolved: X / partial: X / open: X'",
        )
    if gap_count is None and "gaps" not in sections:
        raise ParseError(
            f"{source}: no 知识漏洞 count in 审计摘要 and no 知识漏洞 section",
            hint="add '知识漏洞：X' to 审计摘要 or a '## 二、知识漏洞' section",
        )
    report.resolved = counts["resolved"] if counts["resolved"] is not None else statuses.count("resolved")
    report.partial = counts["partial"] if counts["partial"] is not None else statuses.count("partial")
    report.open = counts["open"] if counts["open"] is not None else statuses.count("open")
    report.gap_count = gap_count if gap_count is not None else len(report.gaps)
    contra = _count("矛盾", summary)
    contra = contra if contra is not None else _count("contradictions", summary)
    report.contradiction_count = contra if contra is not None else len(report.contradictions)
    missing = _count("来源缺失", summary)
    missing = missing if missing is not None else _count("missing sources", summary)
    report.missing_source_count = missing if missing is not None else len(report.missing_sources)
    report.directions = _directions(sections.get("summary", []))
    return report


def read_check_report(path: Path) -> CheckReport:
    """Read and parse ``round_N_check.md``; a missing file is a :class:`NotFoundError` naming it."""
    path = Path(path)
    try:
        text = path.read_text("utf-8", errors="replace")
    except FileNotFoundError:
        raise NotFoundError(f"check report {path} does not exist", hint="run: autodidact wiki check") from None
    return parse_check_report(text, source=str(path))
