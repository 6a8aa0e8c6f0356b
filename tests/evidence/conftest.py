"""Fixtures for the evidence tests: a report folder with real snapshots and a valid evidence file."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from autodidact.progress import NullProgress
from autodidact.sources.snapshots import SnapshotStore

PAGE_A = (
    "Generators\n\nA generator is a function which returns a generator iterator. "
    "It looks like a normal function except that it contains yield expressions.\n\n"
    "生成器函数在每次 yield 时暂停执行，并保存局部状态。"
)
PAGE_B = "The yield statement is only allowed inside a function body. 2024 年共有 11.7% 的用户使用它。"
URL_A = "https://docs.python.org/3/glossary.html"
URL_B = "https://example.org/blog/yield"


def build_valid(report_dir: Path) -> dict[str, Any]:
    """Store two snapshots under ``report_dir`` and return a valid 1.2 evidence dict citing them."""
    store = SnapshotStore.for_folder(report_dir)
    snap_a, _ = store.store(URL_A, PAGE_A)
    snap_b, _ = store.store(URL_B, PAGE_B)
    return {
        "schema_version": "1.2",
        "mode": "initial",
        "dimension_id": "d1",
        "upstream_usage": [],
        "headline": "Generators pause at yield and keep their local state",
        "key_findings": [
            {"finding": "A generator function returns an iterator and pauses at yield.", "claim_ids": ["d1.c1"]},
            {"finding": "yield is restricted to function bodies, per two sources.", "claim_ids": ["d1.c2", "d1.c3"]},
        ],
        "claims": [
            {
                "id": "d1.c1",
                "text": "A generator is a function which returns a generator iterator.",
                "kind": "factual",
                "polarity": "neutral",
                "topic_tag": "generator_basics",
                "answers_key_question": "kq1",
                "evidence": [
                    {
                        "source_id": "python_glossary",
                        "snippet": "A generator is a function which returns a generator   iterator.",
                        "quote_type": "direct",
                        "snapshot_ref": snap_a.snapshot_ref,
                    }
                ],
            },
            {
                "id": "d1.c2",
                "text": "生成器在 yield 处暂停并保存局部状态。",
                "kind": "interpretive",
                "polarity": "support",
                "topic_tag": "yield_semantics",
                "answers_key_question": "kq2",
                "evidence": [
                    {
                        "source_id": "python_glossary",
                        "snippet": "生成器函数在每次 yield 时暂停执行，并保存局部状态。",
                        "quote_type": "direct",
                        "snapshot_ref": snap_a.snapshot_ref,
                    },
                    {
                        "source_id": "example_blog",
                        "snippet": "yield is only allowed in function bodies",
                        "quote_type": "paraphrase",
                        "snapshot_ref": snap_b.snapshot_ref,
                    },
                ],
            },
            {
                "id": "d1.c3",
                "text": "About 11.7% of users used yield in 2024.",
                "kind": "projective",
                "polarity": "neutral",
                "topic_tag": "usage_share",
                "answers_key_question": None,
                "evidence": [
                    {
                        "source_id": "example_blog",
                        "snippet": "11.7%",
                        "quote_type": "numeric",
                        "snapshot_ref": snap_b.snapshot_ref,
                    }
                ],
            },
        ],
        "sources": [
            {
                "id": "python_glossary",
                "url": URL_A,
                "title": "Glossary — Python documentation",
                "quality": "primary",
                "published_at": "2024-10",
            },
            {"id": "example_blog", "url": URL_B, "title": "A blog on yield", "quality": "tertiary"},
        ],
        "writing_context": [
            {
                "id": "d1.w1",
                "kind": "availability_gap",
                "text": "No source gave adoption numbers by country.",
                "use": "Mark kq3 as not answered; do not infer numbers.",
                "source_ids": [],
                "applies_to": ["kq3"],
            }
        ],
    }


@pytest.fixture
def report_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "report"
    folder.mkdir()
    return folder


@pytest.fixture
def valid(report_dir: Path) -> dict[str, Any]:
    return build_valid(report_dir)


@pytest.fixture
def fresh(valid: dict[str, Any]) -> Any:
    """A function returning a deep copy of the valid evidence, to mutate."""
    return lambda: copy.deepcopy(valid)


KQS_EN = [
    {"id": "kq1", "text": "What does the yield expression do in a generator function?"},
    {"id": "kq2", "text": "How does the with statement use context managers?"},
    {"id": "kq3", "text": "How are exceptions raised and handled with try and except?"},
]
KQ_UNANSWERABLE = {"id": "kq4", "text": "Which Martian colonies banned quantum tomatoes in 2091?"}


@pytest.fixture(scope="session")
def pydoc_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report folder with the Python docs indexed as a corpus (built once per session)."""
    from autodidact.sources.ingest import index_corpus
    from autodidact.testing.corpora import write_pydoc_corpus

    base = tmp_path_factory.mktemp("pydoc")
    src = base / "pydoc"
    write_pydoc_corpus(src)
    folder = base / "report"
    folder.mkdir()
    report = index_corpus(folder, [src], name="pydoc")
    assert len(report.added) >= 150
    return folder


@pytest.fixture
def pydoc_report(pydoc_template: Path, tmp_path: Path) -> Path:
    """A private copy of the indexed report folder."""
    import shutil

    dest = tmp_path / "report"
    shutil.copytree(pydoc_template, dest)
    return dest


def make_payload(report_dir: Path, **over: Any) -> dict[str, Any]:
    """A docs/contracts.md §3.4 payload for the Python-docs corpus."""
    data: dict[str, Any] = {
        "query": "How does Python control flow work: generators, with, exceptions?",
        "language": "en",
        "name": "Python control flow",
        "description": "Generators, context managers and exception handling in the language reference",
        "key_questions": copy.deepcopy(KQS_EN),
        "focus": "language semantics",
        "context_from_briefing": "",
        "sources": [{"category": "official", "description": "Python language reference"}],
        "depth": "moderate",
        "time_sensitivity": "none",
        "scope_ownership": {"owns": ["control flow"], "excludes": [], "shared_topics": [], "overlap_policy": ""},
        "upstream_inputs": [],
        "report_dir": str(report_dir),
        "dimension_id": "d1",
        "mode": "initial",
    }
    data.update(over)
    return data


class Recorder(NullProgress):
    """A reporter that keeps every line."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.warnings: list[str] = []

    def message(self, text: str) -> None:
        self.lines.append(text)

    def warning(self, text: str) -> None:
        self.warnings.append(text)


def offline_quotes(question: str, passages: list[tuple[str, str]]) -> list[str]:
    """The quotes the offline extractor takes for ``question`` from ``(title, text)`` passages."""
    from autodidact.evidence.extract_task import ExtractClaimsTask, ExtractInputs, PassageIn
    from autodidact.evidence.focus import focus

    fx = focus(question)
    inputs = ExtractInputs(
        language="en",
        kq_id="kq1",
        kq_text=fx.question,
        passages=[
            PassageIn(f"P{i}", title, text, "primary", f"https://example.org/{title}")
            for i, (title, text) in enumerate(passages, start=1)
        ],
        mode="initial",
        query_variants=[fx.terms],
        aspect=fx.aspect,
        heads=fx.heads,
        literals=fx.literals,
    )
    return [q.snippet for c in ExtractClaimsTask().offline(inputs).claims for q in c.quotes]


def one_passage_inputs(fx: Any, title: str, text: str, **overrides: Any) -> Any:
    """The offline extractor's inputs for one question's focus ``fx`` over one passage; ``overrides``
    replace fields (heads, max_claims, subject …)."""
    from autodidact.evidence.extract_task import ExtractInputs, PassageIn

    fields: dict[str, Any] = {
        "language": "en",
        "kq_id": "kq1",
        "kq_text": fx.question,
        "passages": [PassageIn("P1", title, text, "primary", "u1")],
        "mode": "initial",
        "query_variants": [fx.terms],
        "aspect": fx.aspect,
        "heads": fx.heads,
    }
    fields.update(overrides)
    return ExtractInputs(**fields)
