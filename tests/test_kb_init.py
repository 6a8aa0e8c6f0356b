"""The knowledge-base folder: layout, idempotent init, clear errors."""

from __future__ import annotations

from pathlib import Path


def _snapshot_tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_init_creates_seed_layout(tmp_path: Path, cli) -> None:
    result = cli("init", str(tmp_path / "kb"), "--topic", "Python 生成器", "--lang", "zh")
    assert result.exit_code == 0
    root = tmp_path / "kb"
    for folder in ("raw", "source_cache", "wiki", "outputs", "outputs/rounds"):
        assert (root / folder).is_dir(), folder
    claude = (root / "CLAUDE.md").read_text("utf-8")
    assert "raw/" in claude and "⚠️ 待核实" in claude and "来源" in claude
    uq = (root / "outputs/user_questions.md").read_text("utf-8")
    assert "## 待处理" in uq and "## 已处理" in uq
    assert (root / "wiki/INDEX.md").is_file()
    assert 'language = "zh"' in (root / "autodidact.toml").read_text("utf-8")


def test_english_claude_md(tmp_path: Path, cli) -> None:
    cli("init", str(tmp_path / "kb"), "--lang", "en")
    assert "Every statement cites its raw file" in (tmp_path / "kb/CLAUDE.md").read_text("utf-8")


def test_reinit_changes_nothing(tmp_path: Path, cli) -> None:
    root = tmp_path / "kb"
    cli("init", str(root), "--lang", "en")
    (root / "CLAUDE.md").write_text("my own rules\n", "utf-8")
    before = _snapshot_tree(root)
    result = cli("init", str(root), "--lang", "zh")
    assert result.exit_code == 0
    assert _snapshot_tree(root) == before


def test_init_onto_regular_file_is_clear_error(tmp_path: Path, cli) -> None:
    target = tmp_path / "file.txt"
    target.write_text("x", "utf-8")
    result = cli("init", str(target))
    assert result.exit_code == 2
    assert "is not a folder" in result.output
    assert "Traceback" not in result.output
    assert target.read_text("utf-8") == "x"


def test_init_rejects_unknown_language(tmp_path: Path, cli) -> None:
    result = cli("init", str(tmp_path / "kb"), "--lang", "fr")
    assert result.exit_code == 2
    assert "fr" in result.output


def test_an_english_knowledge_base_has_an_english_inbox_that_still_works(tmp_path: Path, cli) -> None:
    from autodidact.kb import open_kb
    from autodidact.loop.inbox import add_question, mark_incorporated, pending_questions

    cli("init", str(tmp_path / "kb"), "--lang", "en")
    kb = open_kb(tmp_path / "kb")
    assert kb.user_questions.read_text("utf-8") == "# User questions\n\n## Pending\n\n## Done\n"
    add_question(kb, "What is a generator?")
    assert pending_questions(kb.user_questions) == ["What is a generator?"]
    assert mark_incorporated(kb, ["What is a generator?"], 1) == ["What is a generator?"]
    text = kb.user_questions.read_text("utf-8")
    assert "待处理" not in text and text.index("## Done") < text.index("~~What is a generator?~~")


def test_a_knowledge_base_made_without_a_language_takes_its_first_topics(tmp_path: Path, cli) -> None:
    """`init kb` then a Chinese topic ran as an English knowledge base (a fresh-eyes trial)."""
    from autodidact.config import load_settings
    from autodidact.kb import open_kb

    cli("init", str(tmp_path / "kb"))
    root = tmp_path / "kb"
    assert load_settings(root).language is None  # the settings still load: the line is a comment
    (root / "CLAUDE.md").write_text("# my own rules\n", "utf-8")  # a person's edit is kept
    kb = open_kb(root)
    assert kb.language(default="en") == "en"
    assert kb.settle_language("如何用 find 查找文件？") == "zh"
    assert kb.language() == "zh" and load_settings(root).language == "zh"
    assert "## 待处理" in kb.user_questions.read_text("utf-8")
    assert (root / "wiki/INDEX.md").read_text("utf-8").startswith("# 知识库索引")
    assert (root / "CLAUDE.md").read_text("utf-8") == "# my own rules\n"
    assert kb.settle_language("How do I find files?") == "zh"  # settled once, for good


def test_a_language_given_to_init_is_never_changed_by_a_topic(tmp_path: Path, cli) -> None:
    from autodidact.kb import open_kb

    cli("init", str(tmp_path / "kb"), "--lang", "en")
    kb = open_kb(tmp_path / "kb")
    assert kb.settle_language("如何用 find 查找文件？") == "en"
    assert "## Pending" in kb.user_questions.read_text("utf-8")
