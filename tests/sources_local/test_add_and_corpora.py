"""`autodidact add`, raw/ scanning, corpora, and search over real documentation (English and Chinese)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from autodidact.kb import KnowledgeBase
from autodidact.sources.ingest import index_corpus, scan_raw
from autodidact.sources.passage_index import LocalIndex
from autodidact.sources.rawfiles import parse_raw_file
from autodidact.sources.snapshots import SnapshotStore
from autodidact.testing.corpora import debian_reference_zh_files, make_pdf, write_pydoc_corpus


def _snapshot_tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_add_copies_snapshots_indexes_and_skips_with_nonzero_exit(cli, kb_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    raw = kb_dir / "raw"
    (raw / "2026-01-01_existing.md").write_text("# Existing\n\nA person's own note.\n", "utf-8")
    before = _snapshot_tree(raw)
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "notes.md").write_text("# Notes on coroutines\n\nCoroutines suspend at await points.\n", "utf-8")
    (docs / "sub" / "plain.txt").write_bytes("纯文本笔记：协程在 await 处挂起。\n".encode("gb18030"))
    (docs / "sub" / "page.html").write_text(
        "<html><head><title>Event loops</title></head><body><p>The event loop schedules callbacks "
        "and coroutines cooperatively, one at a time.</p></body></html>",
        "utf-8",
    )
    (docs / "paper.pdf").write_bytes(make_pdf(["Structured concurrency with task groups", "Second page"]))
    (docs / "locked.pdf").write_bytes(make_pdf(["secret"], encrypt="pw"))
    (docs / "image.png").write_bytes(b"\x89PNG\r\n")
    (docs / ".hidden.md").write_text("hidden", "utf-8")

    result = cli("add", str(docs), str(tmp_path / "missing.md"), "--kb", str(kb_dir))
    assert result.exit_code == 1
    assert "4 added" in result.output and "4 skipped" in result.output
    assert ".hidden.md" in result.output  # listed, not dropped silently
    assert "locked.pdf" in result.output and "encrypted" in result.output
    assert "image.png" in result.output and "missing.md" in result.output

    after = _snapshot_tree(raw)
    assert {k: v for k, v in after.items() if k in before} == before  # nothing already in raw/ changed
    new = sorted(set(after) - set(before))
    assert len(new) == 4 and all(name.startswith("20") for name in new)
    notes = next(n for n in new if "notes" in n)
    assert after[notes] == (docs / "notes.md").read_bytes()  # the person's text, unchanged
    txt = next(n for n in new if n.endswith(".txt"))
    assert after[txt].decode("utf-8") == "纯文本笔记：协程在 await 处挂起。\n"
    pdf_raw = parse_raw_file(raw / next(n for n in new if "paper" in n))
    assert "[page 1]" in pdf_raw.body and pdf_raw.snapshot_ref and pdf_raw.user_contributed
    store = SnapshotStore.for_folder(kb_dir)
    assert store.read(pdf_raw.snapshot_ref) == pdf_raw.body
    assert str(tmp_path) not in json.dumps([p.read_text("utf-8") for p in (kb_dir / "source_cache").rglob("*.json")])

    hits = LocalIndex(kb_dir).search("协程 挂起", 3)
    assert hits and hits[0].raw_file == txt and hits[0].kind == "raw"
    hits = LocalIndex(kb_dir).search("task groups", 3)
    assert hits and hits[0].raw_file == pdf_raw.filename

    again = cli("add", str(docs / "notes.md"), "--kb", str(kb_dir))
    assert again.exit_code == 0 and "1 already present" in again.output
    assert _snapshot_tree(raw) == after


def test_scan_raw_indexes_files_dropped_by_hand(kb_dir: Path) -> None:
    kb = KnowledgeBase(kb_dir)
    (kb.raw / "dropped.txt").write_text("Hand-dropped notes about asynchronous generators.", "utf-8")
    (kb.raw / "dropped.html").write_text("<p>Dropped HTML page about event loop policies.</p>", "utf-8")
    (kb.raw / "broken.pdf").write_bytes(b"%PDF-1.4 broken")
    report = scan_raw(kb)
    assert sorted(a.source for a in report.added) == ["dropped.html", "dropped.txt"]
    assert [s.source for s in report.skipped] == ["broken.pdf"]
    assert LocalIndex(kb.root).search("asynchronous generators", 1)[0].raw_file == "dropped.txt"
    assert LocalIndex(kb.root).search("event loop policies", 1)[0].raw_file == "dropped.html"
    assert all(not a.new for a in scan_raw(kb).added)  # idempotent


def test_index_rebuild_cli_matches_incremental_index(cli, kb_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    files = write_pydoc_corpus(tmp_path / "pydoc")
    assert cli("add", *[str(f) for f in files[:60]], "--kb", str(kb_dir)).exit_code == 0
    queries = ["assert statement", "augmented assignment", "await coroutine", "binary operators", "break loop"]
    index = LocalIndex(kb_dir)
    before = {q: index.search(q, 5) for q in queries}
    index.close()
    (kb_dir / ".autodidact" / "index.sqlite").unlink()
    result = cli("index", "rebuild", "--kb", str(kb_dir))
    assert result.exit_code == 0 and "60 documents" in result.output
    assert {q: LocalIndex(kb_dir).search(q, 5) for q in queries} == before


def test_search_cli_table_and_json(cli, pydoc_kb: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("search", "yield expression", "--kb", str(pydoc_kb), "-k", "3", "--json")
    assert result.exit_code == 0
    hits = json.loads(result.output)
    assert len(hits) == 3 and hits[0]["raw_file"].endswith("_yield.md")
    assert "**yield**" in hits[0]["highlight"]
    table = cli("search", 'lambda "AND" NOT(', "--kb", str(pydoc_kb), "-k", "2")
    assert table.exit_code == 0 and "lambda" in table.output.lower()


KNOWN_QUERIES = [
    ("yield expression", "yield"),
    ("nonlocal statement", "nonlocal"),
    ("lambda expressions", "lambda"),
    ("assert statement AssertionError", "assert"),
    ("try except finally clause", "try"),
    ("augmented assignment statements", "augassign"),
    ("string methods", "string-methods"),
    ("truth value testing", "truth"),
]


def test_python_docs_corpus_known_queries_top3(pydoc_kb: Path) -> None:
    index = LocalIndex(pydoc_kb)
    assert index.stats()["documents"] >= 150
    for query, topic in KNOWN_QUERIES:
        hits = index.search(query, 3)
        names = [h.raw_file or "" for h in hits]
        assert any(n.removeprefix("2026-01-02_").startswith(topic) for n in names), (query, names)


def test_corpus_is_indexed_in_place_and_idempotently(tmp_path: Path) -> None:
    files = write_pydoc_corpus(tmp_path / "pydoc")
    report_dir = tmp_path / "report"
    first = index_corpus(report_dir, [tmp_path / "pydoc"])
    assert len(first.added) == len(files) >= 150 and not first.skipped
    second = index_corpus(report_dir, [tmp_path / "pydoc"])
    assert not second.added and len(second.unchanged) == len(files)
    assert not (report_dir / "raw").exists()
    hit = LocalIndex(report_dir).search("yield expression", 1)[0]
    assert hit.kind == "corpus" and hit.url.startswith("https://autodidact.invalid/corpus/pydoc/yield")


@pytest.fixture(scope="module")
def debian_zh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = debian_reference_zh_files()
    if not files:
        pytest.skip("debian-reference-zh-cn is not installed (apt-get install debian-reference-zh-cn)")
    root = tmp_path_factory.mktemp("debzh")
    chapters = [f for f in files if f.name.split(".")[0] in {"ch01", "ch02", "ch04"}]
    report = index_corpus(root, chapters, name="debian-reference")
    assert len(report.added) == len(chapters) == 3 and not report.skipped
    return root


@pytest.mark.parametrize(
    ("query", "chapter", "must_contain"),
    [
        ("软件包管理", "ch02", "软件包"),
        ("虚拟控制台", "ch01", "虚拟控制台"),
        ("密码加密", "ch04", "密码"),
        ("PAM 认证", "ch04", "PAM"),
        ("apt-get 更新软件包", "ch02", "apt"),
    ],
)
def test_debian_reference_chinese_search(debian_zh: Path, query: str, chapter: str, must_contain: str) -> None:
    hits = LocalIndex(debian_zh).search(query, 3)
    assert hits, query
    assert hits[0].url.rsplit("/", 1)[-1].startswith(chapter), [h.url for h in hits]
    assert must_contain in hits[0].text
    assert SnapshotStore.for_folder(debian_zh).read(hits[0].snapshot_ref)[hits[0].start : hits[0].end] == hits[0].text


def test_debian_reference_rebuild_identical(debian_zh: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(debian_zh, copy)  # moving the folder breaks nothing: refs and URLs are relative/portable
    queries = ["软件包管理", "文件系统", "shell 命令"]
    before = {q: LocalIndex(copy).search(q, 5) for q in queries}
    index = LocalIndex(copy)
    index.rebuild()
    assert {q: index.search(q, 5) for q in queries} == before


def test_adding_the_knowledge_base_itself_skips_its_snapshots(kb_dir: Path) -> None:
    from autodidact.sources.ingest import add_paths

    kb = KnowledgeBase(kb_dir)
    SnapshotStore.for_folder(kb_dir).store("https://example.com/x", "cached page text")
    (kb.raw / "mine.md").write_text("# Mine\n\nA note dropped by hand.\n", "utf-8")
    before = _snapshot_tree(kb.raw)
    report = add_paths(kb, [kb_dir / "source_cache", kb.raw / "mine.md"])
    assert [a.raw_file for a in report.added] == ["mine.md"]  # indexed in place, not copied
    assert report.skipped and all("source_cache" in s.reason for s in report.skipped)
    assert _snapshot_tree(kb.raw) == before
