"""The checks behind ``autodidact verify``; each adds findings, none repairs.

A finding is ``ok`` or a problem with the file it concerns. The folder holds only when there are
no problems: every snapshot re-hashes, every evidence quote is in its snapshot, every wiki citation
and report ``[N]`` resolves, every JSON artifact validates, and no temporary file is left behind.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict, cast

from autodidact.errors import AutodidactError
from autodidact.jsontypes import JSONMapping, JSONValue
from autodidact.sources.snapshots import CACHE_DIRNAME, SnapshotStore

_TEMP_RE = re.compile(r"^\..+\.tmp$")
_SKIP_DIRS = {".git", ".venv", "__pycache__"}


@dataclass
class Finding:
    """One problem: the check that found it, the file (relative) and what is wrong."""

    check: str
    path: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"check": self.check, "path": self.path, "message": self.message}


class VerifyOutput(TypedDict):
    """``autodidact verify --json``."""

    ok: bool
    root: str
    checked: dict[str, int]
    problems: list[dict[str, str]]


@dataclass
class VerifyReport:
    """Counts of what was checked per check, and every problem found."""

    root: Path
    checked: dict[str, int] = field(default_factory=dict)
    problems: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def count(self, check: str, n: int = 1) -> None:
        self.checked[check] = self.checked.get(check, 0) + n

    def problem(self, check: str, path: Path | str, message: str) -> None:
        self.problems.append(Finding(check, self._rel(path), " ".join(message.split())))

    def _rel(self, path: Path | str) -> str:
        try:
            return str(Path(path).resolve().relative_to(self.root.resolve()))
        except ValueError:
            return str(path)

    def as_dict(self) -> VerifyOutput:
        return {
            "ok": self.ok,
            "root": str(self.root),
            "checked": dict(sorted(self.checked.items())),
            "problems": [p.as_dict() for p in self.problems],
        }


def _walk(root: Path) -> list[Path]:
    out = []
    for path in sorted(root.rglob("*")):
        if any(part in _SKIP_DIRS for part in path.relative_to(root).parts):
            continue
        out.append(path)
    return out


def check_temp_files(root: Path, report: VerifyReport) -> None:
    """Atomic writes leave ``.<name>.*.tmp`` only when interrupted; none may remain."""
    for path in _walk(root):
        if path.is_file() and _TEMP_RE.match(path.name):
            report.problem("temp_files", path, "leftover temporary file from an interrupted write")
    report.count("temp_files")


def check_snapshots(folder: Path, report: VerifyReport) -> None:
    """Re-hash every snapshot under ``folder/source_cache``; an .md without metadata is incomplete."""
    cache = folder / CACHE_DIRNAME
    if not cache.exists():
        return
    store = SnapshotStore(cache)
    if cache.is_symlink():
        report.problem("snapshots", cache, "source cache is a symlink")
        return
    for md in sorted(cache.glob("*/*.md")):
        ref = f"{CACHE_DIRNAME}/{md.parent.name}/{md.name}"
        report.count("snapshots")
        if not (md.parent / (md.name[:-3] + ".meta.json")).is_file():
            report.problem("snapshots", md, "snapshot has no .meta.json (incomplete store)")
            continue
        try:
            store.verify(ref)
        except AutodidactError as exc:
            report.problem("snapshots", md, exc.message)
    for meta in sorted(cache.glob("*/*.meta.json")):
        if not (meta.parent / (meta.name.removesuffix(".meta.json") + ".md")).is_file():
            report.problem("snapshots", meta, "metadata without its snapshot text")


def _load_json(path: Path, report: VerifyReport, check: str) -> JSONValue:
    try:
        data: JSONValue = json.loads(path.read_text("utf-8"))
        return data
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        report.problem(check, path, f"not valid JSON: {type(exc).__name__ if isinstance(exc, RecursionError) else exc}")
        return None


def check_evidence_file(path: Path, folder: Path, report: VerifyReport) -> None:
    """Every rule of the evidence validator, quotes checked against ``folder``'s source cache."""
    from autodidact.evidence.validator import validate_evidence

    report.count("evidence")
    data = _load_json(path, report, "evidence")
    if data is None:
        return
    result = validate_evidence(data, source_cache=folder / CACHE_DIRNAME)
    for err in result.errors:
        report.problem("evidence", path, f"{err.get('rule')} {err.get('message')}")


def check_wiki(kb: Path, report: VerifyReport) -> None:
    """Every citation names a file in ``raw/`` (and links to it, when written as a link), and every
    cited statement is what that file says.

    A statement holds when, markdown marks aside, it stands word for word in a raw file it cites
    (a quote); written prose holds when every name and number it states (capitalised words, code
    such as ``apt-get``, figures) stands in the files it cites. So "APT" edited to "YUM" beside its
    citation, or "500" to "990", is a problem (docs/hardening.md, "What verify checks").
    """
    from autodidact.wiki.audit.article_findings import statement_units
    from autodidact.wiki.common.articles import parse_article
    from autodidact.wiki.common.markdown import (
        citation_links,
        citations,
        cited_statements,
        is_auto_summary,
        strip_citations,
    )

    wiki = kb / "wiki"
    if not wiki.is_dir():
        return
    raw_names = {p.name for p in (kb / "raw").glob("*") if p.is_file() and not p.is_symlink()}
    bodies: dict[str, str] = {}
    for article in sorted(wiki.glob("*.md")):
        if article.name == "INDEX.md":
            continue
        report.count("wiki_articles")
        text = article.read_text("utf-8")
        for name in citations(text):
            report.count("wiki_citations")
            if name not in raw_names:
                report.problem("wiki_citations", article, f"cites {name}, which is not in raw/")
        for name, target in citation_links(text):
            problem = _link_problem(kb, article, name, target)
            if problem:
                report.problem("wiki_citations", article, problem)
        try:
            art = parse_article(text, article.stem)
        except AutodidactError as exc:  # front matter that is not YAML: named, and the other articles still checked
            report.problem("wiki_articles", article, exc.message)
            continue
        for _heading, unit in statement_units(art):
            for sentence, cited in cited_statements(unit, art.names()):
                sources = [n for n in cited if n in raw_names]
                if not sources or is_auto_summary(sentence):
                    continue  # uncited (the audit's finding) or the compiler's own "collects N sources" line
                report.count("wiki_statements")
                said = " ".join(_raw_body(kb / "raw" / n, bodies) for n in sources)
                plain = _unmarked(strip_citations(sentence))
                claim = plain.casefold()
                if not claim or claim in said:
                    continue
                absent = [t for t in _facts(plain) if t.casefold() not in said]
                if absent:
                    names = ", ".join(sources)
                    report.problem(
                        "wiki_statements", article, f"“{claim[:70]}” states {', '.join(absent[:3])}; {names} does not"
                    )


def _link_problem(kb: Path, article: Path, name: str, target: str) -> str | None:
    """Why a citation's link does not lead to the file it names (None when it does).

    Obsidian and GitHub follow the target, people read the name: the two must be the same file
    (``raw/<name>``, or ``<name>`` itself when it has a folder), and that file must exist."""
    where = name if "/" in name else f"raw/{name}"
    resolved = (article.parent / target).resolve()
    if resolved != (kb / where).resolve():
        return f"links {name} to {target}, which is not {where}"
    if not resolved.is_file():
        return f"links {name} to {target}, which does not exist"
    return None


def check_raw_files(kb: Path, report: VerifyReport) -> None:
    """A raw file copied from a source (a web page, a corpus section) says what its snapshot says.

    The snapshot is what every quote verifies against; a raw copy edited by hand would show a person
    (and a model) text the research never read. Excerpts (of a corpus document or a web page) and
    web copies are checked; a person's own whole files are theirs to edit (docs/hardening.md).
    """
    from autodidact.sources.rawfiles import list_raw_files, parse_raw_file
    from autodidact.sources.snapshots import is_local_url, quote_in_text

    store = SnapshotStore.for_folder(kb)
    for path in list_raw_files(kb / "raw"):
        try:
            raw = parse_raw_file(path)
        except Exception:  # a file a person dropped in without a header: nothing to compare
            continue
        if not raw.snapshot_ref or (is_local_url(raw.url) and raw.excerpt is None):
            continue  # a person's own file (its snapshot is of the file): theirs to edit
        report.count("raw_files")
        try:
            text = store.read(raw.snapshot_ref)
        except AutodidactError as exc:
            report.problem("raw_files", path, f"its snapshot {raw.snapshot_ref} cannot be read: {exc.message}")
            continue
        if raw.body.strip() and not quote_in_text(raw.body, text):
            report.problem(
                "raw_files", path, f"its text differs from snapshot {raw.snapshot_ref} (edited after it was written?)"
            )


_MARKS = re.compile(r"[`*]|^\s*(?:[-+>]|\d+[.)、])\s+|\[\[|\]\]|\\")
# What a sentence states that a source must state too: names (capitalised or CJK-free code such as
# apt-get, /etc/apt/preferences), and numbers.
_FACT = re.compile(r"(?<![\w./-])(?:[A-Z][\w.+-]*|[\w]+(?:[-./_][\w]+)+|\d[\d.,]*)(?![\w-])")


def _unmarked(text: str) -> str:
    """Text without markdown marks and list markers, whitespace collapsed, final stop dropped."""
    return " ".join(_MARKS.sub(" ", text).split()).rstrip(" .。")


def _facts(claim: str) -> list[str]:
    """The names and numbers a claim states (a sentence's first word is a name only when it is
    not an ordinary capitalised word: "APT", "Debian" and "apt-get" count, "The" does not)."""
    found: list[str] = []
    for n, match in enumerate(_FACT.finditer(claim)):
        word = match.group(0).rstrip(".,")
        if n == 0 and match.start() == 0 and word[1:].islower() and word.isalpha():
            continue
        if word and word not in found:
            found.append(word)
    return found


def _raw_body(path: Path, cache: dict[str, str]) -> str:
    if path.name not in cache:
        from autodidact.sources.rawfiles import parse_raw_file

        try:
            cache[path.name] = _unmarked(parse_raw_file(path).body).casefold()
        except Exception:  # an unreadable raw file is reported by its own check
            cache[path.name] = ""
    return cache[path.name]


def check_report_folder(folder: Path, report: VerifyReport) -> None:
    """plan.json validates, evidence files validate, every ``[N]`` in report.md resolves."""
    from autodidact.plan.validate import validate_plan
    from autodidact.report.citations import check_citations

    plan_path = folder / "plan.json"
    if plan_path.is_file():
        report.count("plans")
        data = _load_json(plan_path, report, "plans")
        if isinstance(data, dict):
            for err in validate_plan(data).errors:
                report.problem("plans", plan_path, f"{err.get('rule')} {err.get('message')}")
    for ev in sorted((folder / "sub_reports").glob("*.evidence.json")):
        check_evidence_file(ev, folder, report)
    md, cites = folder / "report.md", folder / "citations.json"
    if md.is_file():
        report.count("reports")
        data = _load_json(cites, report, "report_citations") if cites.is_file() else None
        if data is None:
            if not cites.is_file():
                report.problem("report_citations", md, "citations.json is missing")
            return
        text = md.read_text("utf-8")
        entries = data.get("citations") if isinstance(data, dict) else None
        if not isinstance(entries, list) or not all(
            isinstance(e, dict) and isinstance(e.get("n"), int) and not isinstance(e.get("n"), bool) for e in entries
        ):
            # valid JSON of another shape ("[1, 2]") had crashed verify with an AttributeError
            report.problem(
                "report_citations", cites, 'not an object with a "citations" list of numbered entries; run report again'
            )
            return
        for problem in check_citations(text, cast("JSONMapping", data)):
            report.problem("report_citations", md, problem)
        _check_prose(folder, text, report)


# The report footer's prose line (report/labels.py "prose_footer", English and Chinese).
_PROSE_FOOTER = re.compile(
    r"^\*\d+ sentences, each resting on the claims|^\*共 \d+ 句，每句都以其标注引用的主张为依据", re.M
)


def _check_prose(folder: Path, report_md: str, report: VerifyReport) -> None:
    """Every sentence prose.json records still stands in report.md on unchanged, supporting claims.

    The claims are read with the evidence loader. A file it cannot read is the evidence check's
    finding (its rule codes); the sentences resting on that dimension's claims cannot be re-proved
    until it is fixed, and are not reported again as citing claims no file holds."""
    from autodidact.evidence.files import load_evidence
    from autodidact.evidence.models import EvidenceFile
    from autodidact.report.artifacts import as_prose_file
    from autodidact.report.writing import check_prose

    path = folder / "prose.json"
    if not path.is_file():
        if _PROSE_FOOTER.search(report_md):
            # The report says its sentences rest on claims; without prose.json nothing proves it.
            report.count("report_prose")
            report.problem("report_prose", path, "missing: report.md has written prose that nothing can re-prove")
        return
    report.count("report_prose")
    record = as_prose_file(_load_json(path, report, "report_prose"))
    if record is None:
        return
    evidences: dict[str, EvidenceFile] = {}
    damaged: set[str] = set()
    for ev in sorted((folder / "sub_reports").glob("*.evidence.json")):
        dim_id = ev.name.split(".")[0]
        try:
            evidences[dim_id] = load_evidence(ev)
        except AutodidactError:
            damaged.add(dim_id)  # reported by the evidence check
    if damaged and isinstance(record.get("sentences"), list):
        record = {**record, "sentences": [r for r in record["sentences"] if not _rests_on(r, damaged)]}
    for problem in check_prose(record, evidences, report_md):
        report.problem("report_prose", path, problem)


def _rests_on(row: object, dims: set[str]) -> bool:
    """Whether a prose.json sentence cites a claim of one of ``dims`` (a claim id starts with its
    dimension's: ``d1.c3``)."""
    ids = row.get("claim_ids") if isinstance(row, dict) else None
    return isinstance(ids, list) and any(str(i).split(".")[0] in dims for i in ids)


def check_state(kb: Path, report: VerifyReport) -> None:
    """research_state.json loads with its schema; round questions files parse."""
    from autodidact.kb import KnowledgeBase
    from autodidact.loop.state import load_state
    from autodidact.questions.models import RoundQuestions

    state_file = kb / "outputs" / "research_state.json"
    if state_file.exists():
        report.count("state")
        try:
            state = load_state(KnowledgeBase(kb))
        except AutodidactError as exc:
            report.problem("state", state_file, exc.message)
        else:
            numbers = [r.round for r in state.rounds] if state is not None else []
            if numbers != list(range(1, len(numbers) + 1)):
                report.problem("state", state_file, f"rounds are numbered {numbers}, not 1..{len(numbers)} in order")
    for qfile in sorted((kb / "outputs" / "rounds").glob("round_*_questions.json")):
        report.count("round_questions")
        data = _load_json(qfile, report, "round_questions")
        if data is None:
            continue
        try:
            RoundQuestions.model_validate(data)
        except ValueError as exc:
            first = str(exc).splitlines()[:2]
            report.problem("round_questions", qfile, " ".join(first))
    for ev in sorted((kb / "outputs" / "rounds").glob("round_*_evidence.json")):
        check_evidence_file(ev, kb, report)


def check_debates(kb: Path, report: VerifyReport) -> None:
    """Each debate session's event log replays to its snapshot."""
    from autodidact.debate.store import SessionStore

    debates = kb / "debates"
    if not debates.is_dir():
        return
    for session_dir in sorted(p for p in debates.iterdir() if p.is_dir()):
        report.count("debate_sessions")
        try:
            problems = SessionStore(session_dir).check()
        except AutodidactError as exc:
            report.problem("debate_sessions", session_dir, exc.message)
            continue
        for problem in problems:
            # An open session that has not reached a checkpoint yet is normal, not a fault.
            if "never sealed" not in problem:
                report.problem("debate_sessions", session_dir, problem)


def check_logs(root: Path, report: VerifyReport) -> None:
    """Append-only logs (usage ledgers, index manifest): torn last lines and inner damage are reported."""
    logs = [
        root / ".autodidact" / "usage_ledger.jsonl",
        root / ".autodidact" / "documents.jsonl",
        *sorted((root / "debates").glob("*/usage_ledger.jsonl")),
    ]
    for log in logs:
        if not log.is_file():
            continue
        report.count("logs")
        lines = log.read_bytes().split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        for number, raw in enumerate(lines, start=1):
            try:
                if not isinstance(json.loads(raw.decode("utf-8")), dict):
                    raise ValueError("not an object")
            except (ValueError, UnicodeDecodeError, RecursionError):
                if number == len(lines):
                    report.problem("logs", log, f"torn last line {number} (an interrupted append; readers drop it)")
                else:
                    report.problem("logs", log, f"line {number} is not a JSON object (damage before the last line)")
                    break


def check_index(root: Path, report: VerifyReport) -> None:
    """The derived index reads (``PRAGMA quick_check``) and holds every document its manifest lists.

    Why here although it is derived: a corrupt or stale index makes ``search`` and the loop's
    retrieval silently wrong (docs/hardening.md, "A corrupt index"). The fix is always the same
    command, so the problem names it.
    """
    import sqlite3

    from autodidact.store.derived_db import check_database, index_path

    db = index_path(root)
    if not db.is_file():
        return
    report.count("index")
    fix = "run: autodidact index rebuild"
    problem = check_database(db)
    if problem is not None:
        report.problem("index", db, f"index is unreadable ({problem}); {fix}")
        return
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "src_documents" not in tables:
                return  # a report folder's search cache only: no passages are indexed there
            indexed = {r[0] for r in conn.execute("SELECT snapshot_ref FROM src_documents")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        report.problem("index", db, f"index is unreadable ({exc}); {fix}")
        return
    # documents.jsonl lists what was indexed (not every snapshot is: a web page a round read is
    # cited through its raw excerpt); an entry the index lacks means the index lost it.
    from autodidact.store import jsonl

    manifest = root / ".autodidact" / "documents.jsonl"
    listed: set[str] = set()
    if manifest.is_file():
        for entry in jsonl.read(manifest):
            ref = entry.get("snapshot_ref")
            if isinstance(ref, str):
                listed.add(ref)
    stored = set(SnapshotStore.for_folder(root).refs())  # a tampered one is the snapshots check's finding
    missing = (listed & stored) - indexed
    if missing:
        report.problem("index", db, f"index lacks {len(missing)} of {len(listed & stored)} indexed documents; {fix}")


def verify_folder(root: Path) -> VerifyReport:
    """Verify a knowledge base (with its reports and debates) or a single report folder."""
    root = Path(root)
    report = VerifyReport(root)
    check_temp_files(root, report)
    check_snapshots(root, report)
    if (root / "plan.json").is_file() or (root / "sub_reports").is_dir():
        check_report_folder(root, report)
        return report
    check_state(root, report)
    check_raw_files(root, report)
    check_wiki(root, report)
    reports = root / "reports"
    if reports.is_dir():
        for folder in sorted(p for p in reports.iterdir() if p.is_dir()):
            check_snapshots(folder, report)
            check_report_folder(folder, report)
    check_debates(root, report)
    check_logs(root, report)
    check_index(root, report)
    return report
