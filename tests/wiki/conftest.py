"""Fixtures for the wiki tests: knowledge bases and raw files written with the rawfiles writer."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from autodidact.kb import KnowledgeBase, init_kb
from autodidact.sources.rawfiles import RawFile, write_raw_file
from autodidact.store import atomic

AddRaw = Callable[..., str]


@pytest.fixture
def en_kb(tmp_path: Path) -> KnowledgeBase:
    kb, _ = init_kb(tmp_path / "kb-en", topic="Python generators", lang="en")
    return kb


@pytest.fixture
def zh_kb(tmp_path: Path) -> KnowledgeBase:
    kb, _ = init_kb(tmp_path / "kb-zh", topic="期权策略", lang="zh")
    return kb


def add_raw(
    kb: KnowledgeBase,
    title: str,
    body: str,
    *,
    quality: str = "高",
    qids: list[str] | None = None,
    date: str = "2026-12-01",
    url: str | None = None,
) -> str:
    """Write one raw file through the real writer; returns its file name."""
    rf = RawFile(
        filename="",
        title=title,
        url=url or f"https://example.org/{abs(hash((title, body))) % 10**8}",
        fetched_date=date,
        question_ids=qids or [],
        quality=quality,
        quality_note="test fixture",
        snapshot_ref="",
        body=body,
    )
    path, created = write_raw_file(kb.raw, rf, date=date)
    assert created
    return path.name


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="session")
def pydoc_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """CPython's pydoc topics written once as markdown (``yield.md``, ``try--finally-clause.md``...)."""
    from autodidact.testing.corpora import write_pydoc_corpus

    folder = tmp_path_factory.mktemp("pydoc")
    write_pydoc_corpus(folder)
    return folder


def add_pydoc(kb: KnowledgeBase, folder: Path, name: str, qids: list[str] | None = None) -> str:
    """One pydoc topic file as a raw file (its H1 as title, the rest as body); returns the raw file name."""
    text = (folder / name).read_text("utf-8")
    first, _, body = text.partition("\n")
    return add_raw(kb, first.lstrip("# ").strip(), body.strip() + "\n", qids=qids, url=f"https://docs.invalid/{name}")


# The demo's situation (make demo): a topic that is a question, framework questions, pydoc sources.
TOPIC = "How do Python generators and coroutines work?"
SUBJECT = "Python generators and coroutines"
QUESTIONS = {
    "r1q1": "What is the definition of Python generators?",
    "r1q2": "What is the definition of Python coroutines?",
    "r2q1": f"What problem does {SUBJECT} solve, and what are its limitations?",
    "r2q3": f"What problems are solved by {SUBJECT}?",
    "r2q4": f"What are the main variants of {SUBJECT}?",
}


def write_demo_kb(kb: KnowledgeBase, pydoc: Path) -> dict[str, str]:
    """The demo's situation: a question topic, framework questions, and the raw files they found."""
    atomic.write_json(kb.state_file, {"topic": TOPIC, "rounds": []})
    questions = [{"id": k, "text": v} for k, v in QUESTIONS.items()]
    atomic.write_json(kb.rounds / "round_1_questions.json", {"questions": questions})
    return {
        "yield": add_pydoc(kb, pydoc, "yield.md", ["r1q1"]),
        "coroutine": add_pydoc(kb, pydoc, "async--coroutine-function-definition.md", ["r1q2"]),
        "async-with": add_pydoc(kb, pydoc, "async--the-async-with-statement.md", ["r1q2"]),
        "finally": add_pydoc(kb, pydoc, "try--finally-clause.md", ["r2q1"]),
        "compound": add_pydoc(kb, pydoc, "compound.md", ["r2q3"]),
        "generator-functions": add_pydoc(kb, pydoc, "types--generator-functions.md", ["r2q4"]),
    }
