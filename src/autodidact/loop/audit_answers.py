"""The questions of an audit report with their status, gap and answer (``round_N_check.md``).

Why here: the closing summary reports what the research answered, question by question, and what
it did not. The project's report parser (:mod:`autodidact.wiki.report_parser`) is the authority on
each question's status and on the counts; it does not return the question texts and answers, so
this module reads those from the 问题覆盖情况 section (docs/contracts.md §1.5: ``- **qid** [status]
question`` with ``answer:`` / ``回答：`` and ``gap:`` / ``缺口：`` sub-items), tolerating the same
variations as the parser (bold or not, other bullets, full-width colons).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from autodidact.wiki.report_parser import parse_check_report

_COVERAGE = ("问题覆盖", "question coverage")
_HEADING = re.compile(r"^\s*(#{1,6}\s|\*\*[^*]+\*\*\s*$)")
_BULLET = re.compile(r"^(\s*)(?:[-*+•]|\d+[.)、])\s+(.*)$")
_QID = re.compile(r"\b([A-Za-z]*\d*[Qq]\d+[A-Za-z0-9_-]*)\b")
_STATUS = re.compile(
    r"[\[［(（]?\s*\b(resolved|partial|open)\b\s*[\]］)）]?|[\[［(（]?(已解决|已覆盖|部分解决|部分覆盖|未解决|未覆盖)[\]］)）]?",
    re.I,
)
_STATUS_WORD = {"已解决": "resolved", "已覆盖": "resolved", "部分解决": "partial", "部分覆盖": "partial"}
_STATUS_WORD |= {"未解决": "open", "未覆盖": "open"}
_LABEL = re.compile(r"^(answer|回答|答案|解答|gap|缺口|尚缺|missing)\s*[:：]\s*(.*)$", re.I | re.S)


@dataclass(frozen=True)
class AuditedQuestion:
    """One question of the audit's coverage section."""

    qid: str
    status: str
    question: str
    answer: str
    gap: str


def _plain(text: str) -> str:
    return text.replace("**", "").replace("__", "").strip()


def _coverage_lines(text: str) -> list[str]:
    lines: list[str] = []
    inside = False
    for line in text.replace("\r\n", "\n").split("\n"):
        if _HEADING.match(line):
            low = unicodedata.normalize("NFKC", _plain(line.lstrip("# "))).casefold()
            inside = any(word in low for word in _COVERAGE)
            continue
        if inside:
            lines.append(line)
    return lines


def _items(lines: list[str]) -> list[tuple[str, list[str]]]:
    """Top-level items with their sub-items (continuation lines fold into the last one)."""
    items: list[tuple[str, list[str]]] = []
    base: int | None = None
    for line in lines:
        if not line.strip():
            continue
        bullet = _BULLET.match(line)
        indent = len(line) - len(line.lstrip())
        if bullet and (base is None or indent <= base):
            base = indent if base is None else base
            items.append((_plain(bullet.group(2)), []))
        elif items and bullet:
            items[-1][1].append(_plain(bullet.group(2)))
        elif items:
            subs = items[-1][1]
            if subs:
                subs[-1] += " " + _plain(line)
            else:
                items[-1] = (items[-1][0] + " " + _plain(line), subs)
    return items


def parse_audited_questions(text: str, source: str = "check report") -> list[AuditedQuestion]:
    """Every question of the report's coverage section, in report order; statuses as the project's
    parser reads them (a question it cannot place keeps the status word written beside it)."""
    statuses = parse_check_report(text, source=source).question_status
    out: list[AuditedQuestion] = []
    for head, subs in _items(_coverage_lines(text)):
        qid_match = _QID.search(head)
        status_match = _STATUS.search(head)
        if qid_match is None and status_match is None:
            continue
        qid = qid_match.group(1) if qid_match else ""
        word = ""
        if status_match is not None:
            found = (status_match.group(1) or status_match.group(2) or "").casefold()
            word = _STATUS_WORD.get(found, found)
        status = statuses.get(qid) or word or "open"
        question = head
        for match in (qid_match, status_match):
            if match is not None:
                question = question.replace(match.group(0), " ", 1)
        question = " ".join(question.strip(" :：-—").split())
        answer = gap = ""
        for sub in subs:
            label = _LABEL.match(sub)
            if label is None:
                continue
            kind = label.group(1).casefold()
            value = " ".join(label.group(2).split())
            if kind in {"answer", "回答", "答案", "解答"}:
                answer = answer or value
            else:
                gap = gap or value
        out.append(AuditedQuestion(qid=qid, status=status, question=question, answer=answer, gap=gap))
    return out


def read_audited_questions(path: Path, source: str) -> list[AuditedQuestion] | None:
    """The report's questions; ``None`` when the file is missing or cannot be read back."""
    from autodidact.errors import InputError

    try:
        return parse_audited_questions(path.read_text("utf-8", errors="replace"), source=source)
    except (OSError, InputError):
        return None
