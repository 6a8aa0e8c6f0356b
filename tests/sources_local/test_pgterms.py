"""The team backend's terms are the SQLite index's own, so both backends find the same passages.

The reference is SQLite's FTS5 tokenizer itself (``porter unicode61 remove_diacritics 2``, read
back through ``fts5vocab``), on words chosen to take every step of Porter's stemmer and on every
passage of Python's documentation; then both indexes answer the same queries over that corpus
(docs/team.md, "The index")."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from autodidact.sources.passage_cuts import cut_passages
from autodidact.sources.passage_index import LocalIndex
from autodidact.sources.passages import segment
from autodidact.sources.pgterms import query_lexemes, tokens

# Porter's own examples for each step, code names, numbers, diacritics, Greek, kana, CJK.
WORDS = """caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled
sized hopping tanned falling hissing fizzed failing filing happy sky relational conditional rational
valenci hesitanci digitizer conformabli radicalli differentli vileli analogousli vietnamization
predication operator feudalism decisiveness hopefulness callousness formaliti sensitiviti sensibiliti
triplicate formative formalize electriciti electrical hopeful goodness revival allowance inference
airliner gyroscopic adjustable defensible irritant replacement adjustment dependent adoption homologou
communism activate angulariti homologous effective bowdlerize probate rate cease controll roll bare
raise raising yield yielded configuration configure task_done QUOTE_MINIMAL x86_64 3.14 IPv6 cafe\u0301
Ünïcödé naïve ΆΈΉ ﬁle ＡＢＣ İstanbul straße ǅemal テスト 한국어 软件包管理的依赖关系 apt-get"""


def _sqlite_tokens(texts: list[str]) -> list[list[str]]:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    conn.executemany("INSERT INTO t(rowid, x) VALUES (?, ?)", [(i, segment(t)) for i, t in enumerate(texts)])
    out: list[list[str]] = [[] for _ in texts]
    for term, doc in conn.execute("SELECT term, doc FROM v ORDER BY doc, offset"):
        out[int(doc)].append(str(term))
    conn.close()
    return out


def test_every_word_is_cut_and_stemmed_as_fts5_does() -> None:
    words = WORDS.split()
    assert [tokens(w) for w in words] == _sqlite_tokens(words)
    assert tokens("bare bars bar") == ["bare", "bar", "bar"]  # the text layer's stem made "bare" "bar"


def test_every_passage_of_pythons_docs_is_cut_as_fts5_does(pydoc_kb: Path) -> None:
    index = LocalIndex(pydoc_kb)
    texts = []
    for _snap, text in index.store.iter_texts():
        for cut in cut_passages(text, "Title"):
            texts += [cut.body, cut.section_terms]
    index.close()
    assert len(texts) > 1000
    assert [tokens(t) for t in texts] == _sqlite_tokens(texts)


def test_a_query_keeps_one_lexeme_per_term_as_the_sqlite_index_asks() -> None:
    assert query_lexemes("the expressions of an expression") == [("express", False), ("express", False)]
    assert query_lexemes("安装 包") == [("安装", False), ("包", True)]  # a lone ideograph: a prefix


QUERIES = [
    "What does a bare raise do?",
    "Where is the cause of a chained exception stored?",
    "Can yield from be used in a coroutine?",
    "How do I send data to the command's stdin?",
    "What happens when a connection is used as a context manager?",
    "global statement",
    "keyword-only arguments in a dataclass",
    "lambda expressions",
    "How are default argument values evaluated?",
    "zzzz nothing",
]


def test_both_backends_find_the_same_passages_in_the_same_order(pydoc_kb: Path, pg_url: str) -> None:
    from autodidact.sources.pgindex import PgIndex

    local = LocalIndex(pydoc_kb)
    with PgIndex(pydoc_kb, pg_url, "pydoc") as remote:
        assert remote.stats() == local.stats()  # filled from the files on first use
        for query in QUERIES:
            a, b = local.search(query, 8), remote.search(query, 8)
            assert [(h.snapshot_ref, h.start, h.all_terms) for h in b] == [
                (h.snapshot_ref, h.start, h.all_terms) for h in a
            ], query
            assert [round(h.score, 4) for h in b] == [round(h.score, 4) for h in a], query
    local.close()


def test_rows_cut_by_an_older_version_are_rebuilt_on_first_use(pydoc_kb: Path, pg_url: str) -> None:
    import psycopg

    from autodidact.sources.pgindex import PgIndex

    with PgIndex(pydoc_kb, pg_url, "pydoc") as remote:
        before = remote.search("chained exception cause", 3)
        assert before
    with psycopg.connect(pg_url, autocommit=True) as conn:  # as version 1 left them: other lexemes
        conn.execute("UPDATE ad_passages SET tsv = 'zzz'::tsvector WHERE kb = 'pydoc'")
        conn.execute("UPDATE ad_index_stats SET terms = 1 WHERE kb = 'pydoc'")
    with PgIndex(pydoc_kb, pg_url, "pydoc") as remote:
        assert remote.search("chained exception cause", 3) == before
