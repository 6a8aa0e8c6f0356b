"""Compile and check on real corpora: Python's pydoc topics (English) and the Debian Reference (Chinese)."""

from __future__ import annotations

import shutil

import pytest

from autodidact.kb import KnowledgeBase
from autodidact.testing.corpora import debian_reference_zh_files, write_pydoc_corpus
from autodidact.wiki.audit.check import check_wiki
from autodidact.wiki.common.articles import load_wiki
from autodidact.wiki.common.markdown import citations, wikilinks
from autodidact.wiki.compile.compiler import compile_wiki


def test_pydoc_corpus(en_kb: KnowledgeBase) -> None:
    paths = write_pydoc_corpus(en_kb.raw)
    result = compile_wiki(en_kb, None, None)
    assert len(result.new) > 100
    assert sorted(result.pending_quality) == sorted(p.name for p in paths)  # a person's files: 待评估
    articles = load_wiki(en_kb.wiki)
    stems = {a.stem for a in articles}
    raw_names = {p.name for p in paths}
    for art in articles:
        assert 2 <= art.summary.count("(source: ") <= 4
        assert set(art.sources) <= raw_names
        for target in wikilinks(art.text()):
            assert target in stems
        for sec in art.body_sections():
            assert all(set(citations(b)) <= set(art.sources) for b in sec.blocks)
    questions = [
        {"id": "q1", "text": "What are generator expressions?"},
        {"id": "q2", "text": "How are exceptions raised and handled?"},
        {"id": "q3", "text": "How do quantum computers factor integers?"},
    ]
    rep = check_wiki(en_kb, questions, 1, None).report
    assert rep.question_status["q1"] == "resolved" and rep.question_status["q2"] == "resolved"
    assert rep.question_status["q3"] in {"open", "partial"}
    assert rep.missing_source_count == 0 and not [s for s in rep.structure if "does not exist" in s]
    again = compile_wiki(en_kb, None, None)
    assert again.new == again.updated == []


def test_debian_reference_chinese(zh_kb: KnowledgeBase) -> None:
    files = [p for p in debian_reference_zh_files() if p.name.startswith(("ch02", "ch05"))]
    if len(files) < 2:
        pytest.skip("debian-reference-zh-cn is not installed")
    for path in files:
        shutil.copy(path, zh_kb.raw / path.name)
    result = compile_wiki(zh_kb, None, None)
    assert len(result.new) == 2 and all("章" in t for t in result.new)
    text = "\n".join(a.text() for a in load_wiki(zh_kb.wiki))
    assert "（来源：[ch02.zh-cn.html](../raw/ch02.zh-cn.html)）" in text
    assert "（来源：[ch05.zh-cn.html](../raw/ch05.zh-cn.html)）" in text
    rep = check_wiki(zh_kb, [{"id": "r1q1", "text": "什么是 APT 软件包管理？"}], 1, None).report
    assert rep.question_status == {"r1q1": "resolved"}
