"""`verify` checks what the wiki says, what raw copies say and the state's round order
(docs/hardening.md, "What verify checks"). Before, all three edits below verified clean."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autodidact.sources.rawfiles import list_raw_files, parse_raw_file


@pytest.fixture(scope="module")
def researched(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A knowledge base after two offline rounds over the Python docs (copied per test)."""
    from autodidact.config import load_settings
    from autodidact.kb import init_kb, open_kb
    from autodidact.llm.runtime import Runtime
    from autodidact.loop.progress import RecordingReporter
    from autodidact.loop.runner import research_sync
    from autodidact.sources.ingest import index_corpus
    from autodidact.testing.corpora import write_pydoc_corpus

    corpus = tmp_path_factory.mktemp("pydoc")
    write_pydoc_corpus(corpus)
    topic = "How do Python generators and coroutines work?"
    kb, _ = init_kb(tmp_path_factory.mktemp("base") / "kb", topic=topic, lang="en")
    index_corpus(kb.root, [corpus], name="pydoc")
    settings = load_settings(kb.root)
    research_sync(
        open_kb(kb.root), topic=topic, runtime=Runtime(), settings=settings, reporter=RecordingReporter(), max_rounds=2
    )
    return kb.root


@pytest.fixture
def kb(researched: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "kb"
    shutil.copytree(researched, dest)
    (dest / ".autodidact" / "lock").unlink(missing_ok=True)
    return dest


def _verify(cli: Any, kb: Path) -> tuple[int, str]:
    result = cli("verify", "--kb", str(kb))
    return result.exit_code, " ".join(result.output.split())


def _edit_first_quote(kb: Path, change: Callable[[str], str | None]) -> str:
    for article in sorted((kb / "wiki").glob("*.md")):
        if article.name == "INDEX.md":
            continue
        lines = article.read_text("utf-8").split("\n")
        for n, line in enumerate(lines):
            if line.startswith("- ") and "(source:" in line:
                changed = change(line)
                if changed is not None and changed != line:
                    lines[n] = changed
                    article.write_text("\n".join(lines), "utf-8")
                    return article.name
    raise AssertionError("no quote line to edit")


def test_a_clean_run_verifies(cli: Any, kb: Path) -> None:
    code, said = _verify(cli, kb)
    assert code == 0, said
    assert "wiki_statements" in said and "raw_files" in said


def test_a_name_changed_in_a_quoted_statement_is_found(cli: Any, kb: Path) -> None:
    def swap(line: str) -> str | None:
        return re.sub(r"\bgenerator\b", "YUM", line, count=1) if re.search(r"\bgenerator\b", line) else None

    name = _edit_first_quote(kb, swap)
    code, said = _verify(cli, kb)
    assert code != 0 and "wiki_statements" in said and name in said and "YUM" in said


def test_a_number_added_to_a_statement_is_found(cli: Any, kb: Path) -> None:
    _edit_first_quote(kb, lambda line: line.replace(" (source:", " in 990 cases (source:", 1))
    code, said = _verify(cli, kb)
    assert code != 0 and "990" in said


def test_a_raw_copy_edited_by_hand_is_found(cli: Any, kb: Path) -> None:
    copied = [p for p in list_raw_files(kb / "raw") if parse_raw_file(p).excerpt is not None]
    target = copied[0]
    text = target.read_text("utf-8")
    target.write_text(text + "\nAn extra sentence nobody ever fetched from the source.\n", "utf-8")
    code, said = _verify(cli, kb)
    assert code != 0 and target.name in said and "differs from snapshot" in said


def test_rounds_out_of_order_are_found(cli: Any, kb: Path) -> None:
    path = kb / "outputs" / "research_state.json"
    state = json.loads(path.read_text("utf-8"))
    state["rounds"][0]["round"] = 7
    path.write_text(json.dumps(state, ensure_ascii=False), "utf-8")
    code, said = _verify(cli, kb)
    assert code != 0 and "rounds are numbered [7, 2]" in said
