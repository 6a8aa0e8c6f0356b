"""The questions of an audit report with their status, gap and answer (``round_N_check.md``).

Why a thin module: the closing summary reports what the research answered, question by question,
and what it did not. :mod:`autodidact.wiki.audit.report_parser` reads each question's id, status,
text, answer and gap back from the 问题覆盖情况 section (docs/contracts.md §1.5), so the summary
takes them from there and never parses the report a second way.
"""

from __future__ import annotations

from pathlib import Path

from autodidact.errors import InputError
from autodidact.wiki.audit.report_parser import QuestionEntry as AuditedQuestion
from autodidact.wiki.audit.report_parser import parse_check_report

__all__ = ["AuditedQuestion", "parse_audited_questions", "read_audited_questions"]


def parse_audited_questions(text: str, source: str = "check report") -> list[AuditedQuestion]:
    """Every question of the report's coverage section, in report order."""
    return list(parse_check_report(text, source=source).questions)


def read_audited_questions(path: Path, source: str) -> list[AuditedQuestion] | None:
    """The report's questions; ``None`` when the file is missing or cannot be read back."""
    try:
        return parse_audited_questions(path.read_text("utf-8", errors="replace"), source=source)
    except (OSError, InputError):
        return None
