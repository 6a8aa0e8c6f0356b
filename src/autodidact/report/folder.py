"""The report folder: where each artifact lives, and how the folder is named and opened.

Why one place: the pipeline, the CLI, the tests and a person reading the folder must agree on
the layout of docs/architecture.md (``reports/<id>/request.md, plan.json, source_cache/,
sub_reports/<dim>.evidence.json, sub_reports/<dim>.md, report.md``) plus ``citations.json`` and
``report.html``. Everything the report cites lives under the folder, so it can be moved or
zipped and still verify.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from pathlib import Path

from autodidact.errors import InputError
from autodidact.store import atomic
from autodidact.store.paths import safe_name, slugify


@dataclass(frozen=True)
class ReportPaths:
    """Paths inside one report folder."""

    root: Path

    @property
    def request(self) -> Path:
        return self.root / "request.md"

    @property
    def plan(self) -> Path:
        return self.root / "plan.json"

    @property
    def sub_reports(self) -> Path:
        return self.root / "sub_reports"

    @property
    def source_cache(self) -> Path:
        return self.root / "source_cache"

    @property
    def report_md(self) -> Path:
        return self.root / "report.md"

    @property
    def citations(self) -> Path:
        return self.root / "citations.json"

    @property
    def prose(self) -> Path:
        """Each written sentence with the claims it rests on (``verify`` re-proves them)."""
        return self.root / "prose.json"

    @property
    def report_html(self) -> Path:
        return self.root / "report.html"

    def evidence(self, dim_id: str) -> Path:
        """``sub_reports/<dim>.evidence.json``."""
        return self.sub_reports / f"{safe_name(dim_id, 'dimension id')}.evidence.json"

    def sub_report(self, dim_id: str) -> Path:
        """``sub_reports/<dim>.md``."""
        return self.sub_reports / f"{safe_name(dim_id, 'dimension id')}.md"


def read_request(arg: str) -> str:
    """REQUEST is text, or the path of a UTF-8 file holding the text."""
    candidate = Path(arg)
    text = arg
    try:
        is_file = len(arg) < 4096 and "\n" not in arg and candidate.is_file()
    except OSError:
        is_file = False
    if is_file:
        try:
            text = candidate.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"{candidate}: cannot read the request ({exc})", hint="save it as UTF-8 text") from None
    text = text.strip()
    if not text:
        raise InputError("the research request is empty", hint="give the request as text or a file path")
    return text


def default_report_dir(request: str, kb_root: Path | None, today: _dt.date | None = None) -> Path:
    """``<kb>/reports/<date>_<slug>`` with a knowledge base, else ``./reports/<date>_<slug>``."""
    day = (today or _dt.date.today()).isoformat()
    first = request.strip().splitlines()[0] if request.strip() else request
    name = f"{day}_{slugify(first, max_len=48, fallback='report')}"
    base = (Path(kb_root) / "reports") if kb_root is not None else Path("reports")
    return base / name


def write_request(paths: ReportPaths, request: str) -> None:
    """Write request.md (atomic); an existing one with another request is an error."""
    text = request.strip() + "\n"
    if paths.request.is_file():
        existing = paths.request.read_text(encoding="utf-8")
        if existing.strip() == request.strip():
            return
        raise InputError(
            f"{paths.request} holds a different request",
            hint="use another --report-dir, or delete that folder to start over",
        )
    atomic.write_text(paths.request, text)
