"""The passage index: offsets, Chinese/English/mixed search, rebuild equality, hostile queries.

Every test runs against both backends (``index_backend``: SQLite, and PostgreSQL when installed),
so the team backend answers what the embedded default answers (docs/team.md)."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autodidact.sources.passage_index import PassageIndex, open_index
from autodidact.sources.passages import chunk_spans, query_terms, segment
from autodidact.sources.snapshots import SnapshotStore, local_url

pytestmark = pytest.mark.usefixtures("index_backend")

DOCS = {
    "gen.md": "# Generators\n\nA generator function contains a yield expression. Calling it returns an iterator.\n\n"
    "Generators are lazy: each value is computed on demand.",
    "ctx.md": "# Context managers\n\nThe with statement calls __enter__ and __exit__ on a context manager.",
    "zh-pkg.md": "# 软件包管理\n\nDebian 使用 apt 安装软件包，并自动处理依赖关系。\n\n软件包的元数据保存在本地缓存中。",
    "zh-gen.md": "# 生成器\n\n生成器函数包含 yield 表达式，调用时返回一个迭代器。惰性求值可以节省内存。",
    "mixed.md": "# Mixed 混合\n\nPython的generator叫做生成器，asyncio的协程也很重要。",
}


def _index(root: Path) -> PassageIndex:
    store = SnapshotStore.for_folder(root)
    index = open_index(root)
    for name, text in DOCS.items():
        snap, _ = store.store(local_url("corpus/demo", name), text)
        index.add_document(snap, text, "", "corpus")
    return index


def _names(hits: list) -> list[str]:  # type: ignore[type-arg]
    return [h.url.rsplit("/", 1)[-1] for h in hits]


def test_english_chinese_and_mixed_queries_find_their_documents(tmp_path: Path) -> None:
    index = _index(tmp_path)
    assert _names(index.search("yield expression", 3))[0] == "gen.md"
    assert _names(index.search("generators", 3))[0] == "gen.md"  # stemming
    assert _names(index.search("安装软件包", 3))[0] == "zh-pkg.md"
    assert _names(index.search("依赖", 3))[0] == "zh-pkg.md"  # two-character word
    assert "zh-gen.md" in _names(index.search("迭代器", 3))
    assert _names(index.search("协程 asyncio", 3))[0] == "mixed.md"
    assert _names(index.search("生成器 generator", 5))[0] in {"mixed.md", "zh-gen.md"}
    assert index.search("nothing-matches-this-zzz", 5) == []
    hit = index.search("依赖关系", 1)[0]
    assert "**依赖关系**" in hit.highlight and hit.kind == "corpus" and hit.title == "软件包管理"


def test_passage_text_equals_snapshot_slice(tmp_path: Path) -> None:
    index = _index(tmp_path)
    store = SnapshotStore.for_folder(tmp_path)
    for query in ("yield", "软件包", "context manager", "协程"):
        for hit in index.search(query, 5):
            assert store.read(hit.snapshot_ref)[hit.start : hit.end] == hit.text


def test_chunks_are_paragraph_sized_and_cover_the_text() -> None:
    para = "Sentence number {n} talks about generators and iterators in some depth. "
    text = "\n\n".join("".join(para.format(n=n + 10 * p) for n in range(3 + p % 4)) for p in range(40))
    text += "\n\n" + "x" * 2000  # one unbreakable run
    spans = chunk_spans(text)
    assert all(0 < e - s <= 800 for s, e in spans)
    assert sum(1 for s, e in spans if e - s >= 300) >= len(spans) - 2
    assert "".join("".join(text[s:e].split()) for s, e in spans) == "".join(text.split())
    assert spans == sorted(spans) and all(a[1] <= b[0] for a, b in itertools.pairwise(spans))


def test_cjk_segmentation_and_query_terms() -> None:
    assert segment("用apt安装软件包").split() == ["用", "apt", "安装", "装软", "软件", "件包"]
    assert [t for t, _ in query_terms("the yield 表达式")] == ["yield", "表达", "达式"]
    assert [t for t, _ in query_terms("the")] == ["the"]


def test_rebuild_gives_identical_results(tmp_path: Path) -> None:
    index = _index(tmp_path)
    queries = ["yield", "软件包", "context manager", "生成器 generator", "迭代器", "lazy values", "依赖"]
    before = {q: index.search(q, 5) for q in queries}
    index.close()
    shutil.rmtree(tmp_path / ".autodidact")  # even without the manifest, titles and kinds come from the files
    fresh = open_index(tmp_path)
    assert fresh.rebuild() == len(DOCS)
    assert {q: fresh.search(q, 5) for q in queries} == before
    assert fresh.stats()["documents"] == len(DOCS)


def test_adding_twice_is_a_no_op_and_wrong_text_is_refused(tmp_path: Path) -> None:
    index = _index(tmp_path)
    store = SnapshotStore.for_folder(tmp_path)
    snap, _ = store.store(local_url("corpus/demo", "gen.md"), DOCS["gen.md"])
    passages = index.stats()["passages"]
    assert index.add_document(snap, DOCS["gen.md"], "", "corpus") is False
    assert index.stats()["passages"] == passages
    from autodidact.errors import InputError

    with pytest.raises(InputError):
        index.add_document(snap, "other text", "", "corpus")
    with pytest.raises(InputError):
        index.add_document(snap, DOCS["gen.md"], "", "bogus")


_QUERY_ALPHABET = st.sampled_from(list("\"*^:()-+{}[]NEAR AND OR NOT 软件包 yield \\' \x00\n\t,;.?!"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=st.one_of(st.text(max_size=60), st.lists(_QUERY_ALPHABET, max_size=30).map("".join)))
def test_search_never_crashes_on_any_query(tmp_path: Path, query: str) -> None:
    index = open_index(tmp_path)
    if not index.stats()["documents"]:
        index.close()
        index = _index(tmp_path)
    hits = index.search(query, 5)
    assert len(hits) <= 5
    index.close()


def test_batch_add_kinds_filter_and_manifest_titles_survive_rebuild(tmp_path: Path) -> None:
    store = SnapshotStore.for_folder(tmp_path)
    items = []
    for n, kind in enumerate(["web", "raw", "corpus"]):
        text = f"Passage about coroutine scheduling number {n}. " * 3
        snap, _ = store.store(f"https://example.com/{kind}" if kind == "web" else local_url(kind, f"d{n}.md"), text)
        items.append((snap, text, f"Custom title {kind}", kind, f"d{n}.md" if kind != "corpus" else None))
    index = open_index(tmp_path)
    assert index.add_documents(items + items[:1]) == 3
    assert index.add_documents(items) == 0
    assert {h.kind for h in index.search("coroutine scheduling", 10)} == {"web", "raw", "corpus"}
    assert [h.kind for h in index.search("coroutine scheduling", 10, kinds=("raw",))] == ["raw"]
    before = index.search("coroutine", 10)
    assert {h.title for h in before} == {"Custom title web", "Custom title raw", "Custom title corpus"}
    index.rebuild()  # titles are not in the text: they come back from the manifest
    assert index.search("coroutine", 10) == before
    assert [d.kind for d in index.documents("https://example.com/web")] == ["web"]


def test_a_passage_inside_a_reference_entry_is_found_by_the_entry_name(tmp_path: Path) -> None:
    """pydoc's tempfile page: mkstemp's body went on past its first passage, and the rest
    ("If 'text' is specified and true …") never names mkstemp, so a search for it missed them."""
    from autodidact.sources.passages import entry_heads

    long_line = "        Further detail on how the file is opened and who may read it afterwards.\n"
    text = (
        "FUNCTIONS\n"
        "    mkstemp(suffix=None, prefix=None, dir=None, text=False)\n"
        "        User-callable function to create and return a unique temporary file.\n\n"
        + long_line * 6
        + "\n        If 'text' is specified and true, the file is opened in text mode.\n"
        + long_line * 6
    )
    assert entry_heads(text) == [(10, "mkstemp")]
    store = SnapshotStore.for_folder(tmp_path)
    index = open_index(tmp_path)
    snap, _ = store.store(local_url("corpus/demo", "tempfile.txt"), text)
    index.add_document(snap, text, "tempfile", "corpus")
    hits = index.search("mkstemp", 10)
    assert any("mkstemp" not in h.text and "text mode" in h.text for h in hits)


def test_a_snippet_shows_where_the_query_words_stand_together_and_keeps_the_texts_asterisks() -> None:
    from autodidact.sources.passages import highlight, highlight_parts

    text = (
        "basicConfig(**kwargs) configures the root logger. "
        + "Filler words about nothing much at all. " * 12
        + "Stop searching whenever a logger with the propagate attribute set to zero is found."
    )
    snippet = highlight(text, "propagate logger")
    assert "**propagate**" in snippet and snippet.startswith("…")  # the window with both words
    parts = highlight_parts("f(**kwargs) calls it", "calls")
    assert ("calls", True) in parts and any("**kwargs" in t for t, m in parts if not m)
    assert "\\*\\*kwargs" in highlight("f(**kwargs) calls it", "calls")  # not read as a match marker


def test_passages_holding_only_some_words_are_marked_and_listed_after(tmp_path: Path) -> None:
    index = _index(tmp_path)
    hits = index.search("generator yield zebra", 5)
    assert hits and not any(h.all_terms for h in hits)  # no passage says "zebra"
    mixed = index.search("generator lazy demand", 5)  # one passage holds all three, others some
    flags = [h.all_terms for h in mixed]
    assert flags[0] and not all(flags) and flags == sorted(flags, reverse=True)


def test_definition_items_span_their_continued_lines_and_stop_at_the_next_item() -> None:
    from autodidact.sources.passages import definition_items

    text = (
        "Keyword Arguments:\n\n"
        "    - choices -- A container of values that should be allowed. If not None,\n"
        "        after a command-line argument has been converted.\n"
        "    - required -- True if the action must always be specified.\n\n"
        "Other text - not an item -- here.\n"
    )
    items = definition_items(text)
    assert [name for _, _, name in items] == ["choices", "required"]
    start, end, _ = items[0]
    assert text[start:end].strip().startswith("- choices") and "converted." in text[start:end]
    assert "required" not in text[start:end]
