"""A person's own question keeps its heading in the wiki, though its answer stands under another
question too (docs/wiki.md, "Placement")."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

RBASH = Path("/usr/share/doc/bash/RBASH")
ASKED = "Can a restricted shell run shell scripts?"


@pytest.mark.skipif(not RBASH.is_file(), reason="bash's RBASH document is not installed")
def test_a_users_question_gets_its_block_though_its_quote_stands_elsewhere(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    corpus = tmp_path / "docs"
    corpus.mkdir()
    shutil.copyfile(RBASH, corpus / "rbash.txt")
    kb = tmp_path / "kb"
    topic = "What does a restricted shell forbid?"
    assert cli("research", topic, "--kb", str(kb), "--corpus", str(corpus), "--max-rounds", "1").exit_code == 0
    assert cli("ask", ASKED, "--kb", str(kb)).exit_code == 0
    result = cli("research", "--kb", str(kb))
    assert result.exit_code == 0, result.output
    wiki = "\n".join(p.read_text("utf-8") for p in sorted((kb / "wiki").glob("*.md")))
    assert f"## {ASKED}" in wiki
    block = wiki.split(f"## {ASKED}", 1)[1].split("\n## ", 1)[0]
    answer = "'rbash' turns off any restrictions in the shell spawned to execute the script"
    assert answer in block
    assert wiki.count(answer) >= 2  # it stands under another question too: the person's heading stays
