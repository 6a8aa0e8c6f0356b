"""Reading a knowledge base from Python: search, status, the wiki, the summary, reports; and ``ask``.

Why one module: these are the calls that never run a task, so they are cheap, safe while a
research holds the writer lock (they never take it; ``ask`` has the inbox's own lock), and the
MCP server answers them directly. Every name a caller passes (an article, a report) is one path
component checked to resolve inside its folder of the knowledge base: ``..``, absolute paths,
separators and symlinks that lead out are refused with :class:`~autodidact.errors.PathSafetyError`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from autodidact.errors import InputError, NotFoundError, PathSafetyError

if TYPE_CHECKING:
    from autodidact.kb import KnowledgeBase
    from autodidact.loop.status import StatusReport
    from autodidact.sources.passage_index import Passage

KBPath = str | os.PathLike[str]
MAX_SEARCH_K = 1000


def open_knowledge_base(kb: KBPath) -> KnowledgeBase:
    """An existing knowledge base, or :class:`NotFoundError`/:class:`KBError` saying how to make one."""
    from autodidact.kb import open_kb

    return open_kb(Path(kb))


# -- search, ask, status ---------------------------------------------------------------------


def search(query: str, *, kb: KBPath, k: int = 10) -> list[Passage]:
    """The ``k`` best passages for ``query`` (Chinese or English) over every snapshot, best first.

    The same BM25 search as ``autodidact search``; a passage holding only some of the query's
    words has ``all_terms`` False and comes after every passage holding all of them.
    """
    from autodidact.sources.distinct import distinct_passages
    from autodidact.sources.passage_index import open_index

    if not isinstance(query, str) or not query.strip():
        raise InputError("search: the query is empty", hint="give words to look for, e.g. search('yield', kb=...)")
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_SEARCH_K:
        raise InputError(f"search: k={k!r} is not a whole number from 1 to {MAX_SEARCH_K}")
    knowledge = open_knowledge_base(kb)
    with open_index(knowledge.root) as index:
        return distinct_passages(lambda n: index.search(query, n), k)


def ask(question: str, *, kb: KBPath) -> str:
    """Add ``question`` under 待处理 (Pending) in ``outputs/user_questions.md``; returns it as recorded.

    Safe while a research runs; the next round takes it first, and a finished research re-opens
    on the next :func:`autodidact.research`.
    """
    from autodidact.loop.inbox import add_question

    if not isinstance(question, str) or not question.strip():
        raise InputError("ask: the question is empty", hint="give the question as text")
    return add_question(open_knowledge_base(kb), question)


@dataclass(frozen=True)
class Status:
    """Where a research stands, read from its files (what ``autodidact status`` shows).

    The fields are the numbers most callers want; ``report`` is the whole of ``status --json``
    (per-round audit numbers, each termination condition, the stall, cost so far).
    """

    kb: Path
    topic: str | None
    status: str  # not started | in_progress | terminated
    rounds_completed: int
    max_rounds: int | None
    current_round: int | None
    raw_files: int
    wiki_articles: int
    pending_user_questions: int
    summary: str | None
    report: StatusReport = field(repr=False)


def status(*, kb: KBPath) -> Status:
    """The research's state without taking the writer lock (works while a run is going)."""
    from autodidact.loop.status import status_report

    report = status_report(open_knowledge_base(kb))
    counts = report["counts"]
    progress = report["current_round_progress"]
    return Status(
        kb=Path(report["kb"]),
        topic=report["topic"],
        status=report["status"],
        rounds_completed=report["rounds_completed"],
        max_rounds=report["max_rounds"],
        current_round=progress["round"] if progress else None,
        raw_files=counts["raw_files"],
        wiki_articles=counts["wiki_articles"],
        pending_user_questions=counts["pending_user_questions"],
        summary=report["summary"],
        report=report,
    )


# -- files of the knowledge base, by name ------------------------------------------------------


def inside(knowledge: KnowledgeBase, folder: str, name: str, what: str) -> Path:
    """``<kb>/<folder>/<name>``, refused unless ``name`` is one plain component that resolves there.

    Why both checks: ``safe_name`` refuses separators, ``..`` and control characters in the name;
    resolving then catches a symlink (the file's or the folder's) that leads anywhere else.
    """
    from autodidact.store.paths import safe_join, safe_name

    if not isinstance(name, str):
        raise PathSafetyError(f"invalid {what} {name!r}", hint="give a name such as 'python-generators'")
    safe_name(name, what)
    home = safe_join(knowledge.root, folder)
    path = safe_join(knowledge.root, folder, name)
    if path.parent != home or home.parent != knowledge.root.resolve():
        raise PathSafetyError(f"{what} {name!r} leads out of {folder}/", hint=f"name a file in {folder}/ itself")
    return path


def _read(path: Path, what: str, hint: str) -> str:
    if not path.is_file():
        raise NotFoundError(f"no {what}", hint=hint)
    return path.read_text("utf-8", errors="replace")


@dataclass(frozen=True)
class ArticleInfo:
    """One wiki article: ``name`` is what :func:`read_article` takes (the file name without ``.md``)."""

    name: str
    title: str
    file: str  # relative to the knowledge base: wiki/<name>.md


def list_articles(*, kb: KBPath) -> list[ArticleInfo]:
    """Every article of ``wiki/`` (INDEX.md aside), by name; symlinks that lead out are left out."""
    from autodidact.wiki.common.articles import load_article

    knowledge = open_knowledge_base(kb)
    found: list[ArticleInfo] = []
    if not knowledge.wiki.is_dir():
        return found
    for path in sorted(knowledge.wiki.glob("*.md")):
        if path.name == "INDEX.md" or path.name.startswith("."):
            continue
        try:
            safe = inside(knowledge, "wiki", path.name, "article")
        except PathSafetyError:
            continue
        if safe.is_file():
            found.append(ArticleInfo(path.stem, load_article(safe).title or path.stem, f"wiki/{path.name}"))
    return found


def article_path(name: str, *, kb: KBPath) -> Path:
    """The file of article ``name`` (``python-generators``, ``python-generators.md`` or ``INDEX``)."""
    knowledge = open_knowledge_base(kb)
    stem = name[:-3] if isinstance(name, str) and name.endswith(".md") else name
    if not isinstance(stem, str) or not stem.strip():
        raise InputError("the article name is empty", hint="list the articles first (wiki/INDEX.md)")
    if stem.startswith("."):  # hidden files and "..": never an article
        raise PathSafetyError(f"invalid article name {name!r}", hint="article names do not start with '.'")
    return inside(knowledge, "wiki", f"{stem}.md", "article name")


def read_article(name: str, *, kb: KBPath) -> str:
    """The markdown of one wiki article (``INDEX`` gives the index)."""
    path = article_path(name, kb=kb)
    return _read(path, f"wiki article {name!r}", "list the articles: wiki/INDEX.md, or list_articles()")


def read_index(*, kb: KBPath) -> str:
    """``wiki/INDEX.md``: every article with a one-line description."""
    return read_article("INDEX", kb=kb)


def read_summary(*, kb: KBPath) -> str:
    """``outputs/research_summary.md``: findings and open questions, written when a research ends."""
    knowledge = open_knowledge_base(kb)
    path = inside(knowledge, "outputs", "research_summary.md", "summary")
    return _read(path, "research summary yet", "it is written when a research finishes: autodidact.research(...)")


def list_reports(*, kb: KBPath) -> list[str]:
    """The report folders under ``reports/`` that hold a ``report.md``, by name (oldest date first)."""
    knowledge = open_knowledge_base(kb)
    if not knowledge.reports.is_dir():
        return []
    names: list[str] = []
    for folder in sorted(knowledge.reports.iterdir()):
        try:
            if (inside(knowledge, "reports", folder.name, "report") / "report.md").is_file():
                names.append(folder.name)
        except PathSafetyError:
            continue
    return names


def read_report(name: str, *, kb: KBPath) -> str:
    """``reports/<name>/report.md``."""
    knowledge = open_knowledge_base(kb)
    folder = inside(knowledge, "reports", name, "report name")
    report = folder / "report.md"
    if report.is_symlink() or (report.exists() and report.resolve().parent != folder):
        raise PathSafetyError(f"reports/{name}/report.md leads out of its folder")
    return _read(report, f"report {name!r}", "list them with list_reports(); make one with report(...)")
