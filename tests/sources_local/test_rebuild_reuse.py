"""`index rebuild` reuses each document's stored analysis, and gives the index a fresh one gives.

A document's passages' spans and sentence keys are stored beside its rows when it is indexed
(sources/analysis_cache.py); a rebuild takes them for every snapshot whose text, title and
analysis code are the ones they were made for, and analyses anything else again
(docs/architecture.md, "Rebuilding the index"). What must hold: the rebuilt index is row for row
the one a rebuild that analyses everything makes, and searches alike; a stored analysis is used
only under its key and version; an index written before the table existed keeps working.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autodidact.sources import analysis_cache
from autodidact.sources.passage_index import LocalIndex, manifest_entries
from autodidact.sources.passages import CJK_RUN, may_have_cjk, segment

QUERIES = [
    "yield expression",
    "context manager exit",
    "keyword arguments default",
    "软件包 依赖",
    "生成器",
    "exception traceback",
    "class attribute lookup",
    "zzzz-nothing",
]
ZH = {
    "pkg.md": "# 软件包管理\n\n## 安装\n\nDebian 使用 apt 安装软件包，并自动处理依赖关系。\n\n"
    "## 缓存\n\n软件包的元数据保存在本地缓存中。每个软件包都有自己的版本号和依赖关系列表。\n",
    "gen.md": "# 生成器\n\n生成器函数包含 yield 表达式，调用时返回一个迭代器。惰性求值可以节省内存。\n",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A knowledge base with 80 pydoc topics (sections, reference entries) and two Chinese notes."""
    from autodidact.kb import init_kb
    from autodidact.sources.ingest import add_paths
    from autodidact.testing.corpora import write_pydoc_corpus

    base = tmp_path_factory.mktemp("reuse")
    pydoc = base / "pydoc"
    files = sorted(write_pydoc_corpus(pydoc))[::3][:80]
    zh = base / "zh"
    zh.mkdir()
    for name, text in ZH.items():
        (zh / name).write_text(text, "utf-8")
    kb, _ = init_kb(base / "kb", topic="notes", lang="en")
    report = add_paths(kb, [*files, zh], date="2026-12-07")
    assert len(report.added) == len(files) + len(ZH)
    return kb.root


@pytest.fixture
def kb(built: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "kb"
    shutil.copytree(built, dest)
    return dest


def _rows(root: Path) -> dict[str, object]:
    """Everything a search reads: the tables' rows, the FTS postings, and the answers to QUERIES."""
    conn = sqlite3.connect(root / ".autodidact" / "index.sqlite")
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.inst USING fts5vocab(main, src_fts, 'instance')")
        out: dict[str, object] = {
            "documents": conn.execute("SELECT * FROM src_documents ORDER BY snapshot_ref").fetchall(),
            "passages": conn.execute("SELECT * FROM src_passages ORDER BY id").fetchall(),
            "common": conn.execute("SELECT * FROM src_common ORDER BY sentence").fetchall(),
            "postings": conn.execute("SELECT term, doc, col, offset FROM temp.inst ORDER BY 1, 2, 3, 4").fetchall(),
        }
    finally:
        conn.close()
    with LocalIndex(root) as index:
        out["search"] = {q: index.search(q, 8) for q in QUERIES}
        out["furniture"] = index.furniture()
    return out


def _stored(root: Path) -> list[tuple[int, str, str, str]]:
    conn = sqlite3.connect(root / ".autodidact" / "index.sqlite")
    try:
        return [tuple(r) for r in conn.execute("SELECT id, key, version, data FROM src_analysis ORDER BY id")]
    finally:
        conn.close()


def _rebuild(root: Path, *, fresh: bool = False) -> dict[str, object]:
    with LocalIndex(root) as index:
        index.rebuild(fresh=fresh)
    return _rows(root)


def test_a_rebuild_reusing_stored_analyses_is_the_index_a_fresh_rebuild_makes(kb: Path) -> None:
    with LocalIndex(kb) as index:
        after_add = {q: index.search(q, 8) for q in QUERIES}
    assert any(after_add.values())
    stored = _stored(kb)
    # one per document indexed by add (documents of one text and title share theirs)
    assert len(stored) == len({(Path(str(e["snapshot_ref"])).name, e["title"]) for e in manifest_entries(kb)})
    reused = _rebuild(kb)
    assert _stored(kb) == stored  # taken, not made again
    fresh = _rebuild(kb, fresh=True)
    assert reused == fresh
    assert fresh["search"] == after_add  # and the results are those of the index add built
    assert _stored(kb) == stored  # a fresh analysis stores exactly what add stored


def _tamper(root: Path, data: str, *, version: str | None = None) -> None:
    """Make every stored analysis ``data`` (one passage over the whole text, or garbage)."""
    conn = sqlite3.connect(root / ".autodidact" / "index.sqlite")
    with conn:
        conn.execute("UPDATE src_analysis SET data = ?, version = coalesce(?, version)", (data, version))
    conn.close()


def _one_passage(size: int) -> str:
    return analysis_cache.encode(({}, [], [(0, size, "", 0, size, "")]))


def test_a_stored_analysis_is_what_the_rebuild_takes_under_its_key_and_version(
    kb: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = _rebuild(kb, fresh=True)
    _tamper(kb, _one_passage(10))
    tampered = _rebuild(kb)
    # taken as stored (which is how a rebuild is spared the analysis): ten characters a document
    assert {(p[2], p[3]) for p in tampered["passages"]} == {(0, 10)}  # type: ignore[union-attr]

    _tamper(kb, _one_passage(10))
    analysis_cache.analysis_version.cache_clear()
    monkeypatch.setattr(analysis_cache, "_FORMAT", "another")  # as if the analysis code had changed
    assert _rebuild(kb) == fresh  # stored by other code: analysed again
    assert {r[2] for r in _stored(kb)} == {analysis_cache.analysis_version()}  # the stale rows are gone
    monkeypatch.undo()
    analysis_cache.analysis_version.cache_clear()

    _tamper(kb, '{"w": 1, "p": "x"}', version=analysis_cache.analysis_version())
    assert _rebuild(kb) == fresh  # not in the stored form: analysed again
    _tamper(kb, _one_passage(10**9))
    assert _rebuild(kb) == fresh  # spans outside the text: analysed again
    _tamper(kb, _one_passage(10))
    assert _rebuild(kb, fresh=True) == fresh  # fresh: nothing stored is taken


def test_a_title_the_analysis_was_not_made_for_is_analysed_again(kb: Path) -> None:
    """A passage's section name depends on the document's title, so the title is part of the key."""
    manifest = kb / ".autodidact" / "documents.jsonl"
    lines = [json.loads(line) for line in manifest.read_text("utf-8").splitlines()]
    for entry in lines:
        entry["title"] = "Renamed " + entry["title"]
    manifest.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in lines), "utf-8")
    _tamper(kb, _one_passage(10))  # under the old titles' keys: must not be taken
    reused = _rebuild(kb)
    assert reused == _rebuild(kb, fresh=True)
    assert all(str(d[2]).startswith("Renamed ") for d in reused["documents"])  # type: ignore[union-attr]


def test_an_index_written_before_stored_analyses_keeps_working(kb: Path) -> None:
    before = _rows(kb)
    conn = sqlite3.connect(kb / ".autodidact" / "index.sqlite")
    with conn:
        conn.execute("DROP TABLE src_analysis")
    conn.close()
    assert _rows(kb) == before  # opened (the table made, empty) and searched as before
    assert _stored(kb) == []
    assert _rebuild(kb) == _rebuild(kb, fresh=True)
    assert len(_stored(kb)) == len({(Path(str(d[0])).name, d[2]) for d in before["documents"]})  # type: ignore[attr-defined]


@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x2FFFF), max_size=40))
def test_a_text_said_to_have_no_cjk_has_no_cjk_run(text: str) -> None:
    """The fast test that lets a document's passages skip segment() never misses a CJK run."""
    if not may_have_cjk(text):
        assert CJK_RUN.search(text) is None
        assert segment(text) == text


def test_cjk_and_text_beside_it_are_told_apart() -> None:
    assert not may_have_cjk("plain — “quoted” naïve café ‘x’ \u2fff")
    assert all(may_have_cjk(t) for t in ("生成器", "x かな", "한국어", "\U00020000", "\u3000"))


def test_index_rebuild_fresh_on_the_command_line_takes_nothing_stored(kb: Path) -> None:
    """`autodidact index rebuild --fresh`: what a person runs when they suspect the stored analyses."""
    from typer.testing import CliRunner

    from autodidact.cli import app

    fresh = _rebuild(kb, fresh=True)
    _tamper(kb, _one_passage(10))
    ran = CliRunner().invoke(app, ["index", "rebuild", "--kb", str(kb), "--fresh", "--json"])
    assert ran.exit_code == 0, ran.output
    assert _rows(kb) == fresh  # the tampered analysis was not taken
    _tamper(kb, _one_passage(10))
    assert CliRunner().invoke(app, ["index", "rebuild", "--kb", str(kb)]).exit_code == 0
    assert _rows(kb) != fresh  # without --fresh the stored one is (ten characters a document)
