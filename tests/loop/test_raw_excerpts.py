"""Raw files written by the research step hold the quoted sections of a source, not the whole book.

The corpus is one long document: Python's language reference (``pydoc_data.topics``) as a single
markdown book with one ``##`` section per topic, so every source the loop cites is a book and
every raw file must be an excerpt of it.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from autodidact.config import load_settings
from autodidact.evidence.files import load_evidence
from autodidact.evidence.models import Claim, EvidenceFile
from autodidact.kb import init_kb, open_kb
from autodidact.llm.runtime import Runtime
from autodidact.loop.control import CRASH_EXIT_CODE, Control
from autodidact.loop.progress import RecordingReporter
from autodidact.loop.research_step import write_raw_files
from autodidact.loop.runner import research_sync
from autodidact.loop.state import load_state
from autodidact.loop.steps import RoundContext, RoundScratch
from autodidact.sources.rawfiles import list_raw_files, parse_raw_file
from autodidact.sources.snapshots import SnapshotStore, normalize_text
from autodidact.testing.evidence_files import claim as make_claim
from autodidact.testing.evidence_files import evidence_file, item, source
from autodidact.testing.kbtree import assert_same_tree, kb_tree
from autodidact.text.sections import split_sections

from .conftest import TOPIC, run_cli


@pytest.fixture(scope="module")
def book_base(tmp_path_factory: pytest.TempPathFactory, pydoc_corpus: Path) -> Path:
    from autodidact.sources.ingest import index_corpus

    parts = ["# The Python language reference\n"]
    for path in sorted(pydoc_corpus.glob("*.md")):
        title, _, body = path.read_text("utf-8").partition("\n")
        parts.append(f"## {title.removeprefix('# ').strip()}\n\n{body.strip()}\n")
    book_dir = tmp_path_factory.mktemp("book")
    (book_dir / "reference.md").write_text("\n".join(parts), encoding="utf-8")
    kb, _ = init_kb(tmp_path_factory.mktemp("bookkb") / "kb", topic=TOPIC, lang="en")
    index_corpus(kb.root, [book_dir], name="book")
    return kb.root


def _copy(base: Path, dest: Path) -> Path:
    shutil.copytree(base, dest)
    (dest / ".autodidact" / "lock").unlink(missing_ok=True)
    return dest


@pytest.fixture(scope="module")
def book_run(book_base: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = _copy(book_base, tmp_path_factory.mktemp("run") / "kb")
    research_sync(
        open_kb(root), topic=TOPIC, runtime=Runtime(), settings=load_settings(root), reporter=RecordingReporter(),
        max_rounds=3,
    )  # fmt: skip
    return root


def _evidence(root: Path) -> list[EvidenceFile]:
    return [load_evidence(p) for p in sorted((root / "outputs/rounds").glob("round_*_evidence.json"))]


def test_every_quote_is_in_a_raw_file_of_its_source(book_run: Path) -> None:
    bodies: dict[str, list[str]] = {}
    for path in list_raw_files(book_run / "raw"):
        rf = parse_raw_file(path)
        bodies.setdefault(rf.url, []).append(normalize_text(rf.body))
    quotes = 0
    for evidence in _evidence(book_run):
        urls = {s.id: s.url for s in evidence.sources}
        for claim in evidence.claims:
            for ev in claim.evidence:
                quotes += 1
                needle = normalize_text(ev.snippet)
                assert any(needle in body for body in bodies[urls[ev.source_id]]), ev.snippet
    assert quotes >= 5


def test_raw_files_are_sections_not_the_book(book_run: Path) -> None:
    store = SnapshotStore.for_folder(book_run)
    files = [parse_raw_file(p) for p in list_raw_files(book_run / "raw")]
    assert files
    for rf in files:
        snapshot = store.read(rf.snapshot_ref, rf.url)
        assert rf.excerpt is not None, rf.filename
        start, end = rf.excerpt
        assert snapshot[start:end] == rf.body  # the header's offsets point at the body's bytes
        assert len(rf.body) < len(snapshot) / 20
        assert rf.title.startswith("The Python language reference › ")
        assert rf.question_ids, rf.filename
    sources = {s.title for e in _evidence(book_run) for s in e.sources}
    assert all(t.startswith("The Python language reference › ") for t in sources)


def _claim(n: int, quote: str, ref: str) -> Claim:
    return make_claim(
        f"d9.c{n}", f"The book says: {quote}", kq=f"kq{n}", evidence=[item(quote, "book", snapshot_ref=ref)]
    )


def test_a_source_read_again_for_other_sections_gives_new_raw_files(book_run: Path) -> None:
    """A later round quoting a section written before adds nothing; another section of the same
    book is a new raw file, with the question it answers."""
    kb = open_kb(book_run)
    state = load_state(kb)
    assert state is not None
    known = [parse_raw_file(p) for p in list_raw_files(kb.raw)]
    url, ref = known[0].url, known[0].snapshot_ref
    text = SnapshotStore.for_folder(book_run).read(ref, url)
    written = {rf.excerpt for rf in known}
    fresh = next(
        s for s in split_sections(text, "x") if (s.start, s.end) not in written and s.end - s.start > 400 and s.level
    )
    body = fresh.text_of(text)
    new_quote = " ".join(body.split("\n", 2)[-1].split()[:12])  # words from the section's first paragraph
    old_quote = " ".join(known[0].body.split()[-10:])
    evidence = evidence_file(
        [_claim(1, old_quote, ref), _claim(2, new_quote, ref)],
        [source("book", url, title=f"The Python language reference › {fresh.title}")],
        dimension_id="d9",
    )
    ctx = RoundContext(kb, state, Runtime(), load_settings(book_run), RecordingReporter(), Control(), "en")
    rq = SimpleNamespace(questions=[SimpleNamespace(id="r9q1"), SimpleNamespace(id="r9q2")])
    scratch = RoundScratch(round=9, date="2030-01-01")
    new = write_raw_files(ctx, 9, rq, evidence, scratch)  # type: ignore[arg-type]
    assert len(new) == 1
    rf = parse_raw_file(kb.raw / new[0])
    assert rf.url == url and rf.title == f"The Python language reference › {fresh.title}"
    assert rf.question_ids == ["r9q2"] and normalize_text(new_quote) in normalize_text(rf.body)
    assert new[0].startswith("2030-01-01_") and rf.excerpt is not None
    before = kb_tree(book_run)
    assert write_raw_files(ctx, 9, rq, evidence, scratch) == new  # repeated step: same list, nothing rewritten
    assert kb_tree(book_run) == before


def test_crash_while_writing_excerpts_then_resume_equals_clean_run(book_base: Path, tmp_path: Path) -> None:
    args = ("research", TOPIC, "--max-rounds", "2")
    clean = _copy(book_base, tmp_path / "clean")
    done = run_cli(*args, "--kb", str(clean))
    assert done.returncode == 0, done.stderr[-2000:]
    crashed = _copy(book_base, tmp_path / "crashed")
    hit = run_cli(*args, "--kb", str(crashed), env={"AUTODIDACT_CRASH_AT": "r1.research.raw3"})
    if hit.returncode != CRASH_EXIT_CODE:
        pytest.skip("round 1 wrote fewer than three excerpts")
    resumed = run_cli("research", "--kb", str(crashed))
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert_same_tree(kb_tree(clean), kb_tree(crashed), "r1.research.raw3 (after resume)")
