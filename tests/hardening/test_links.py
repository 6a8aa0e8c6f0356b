"""Links never pull files from outside the knowledge base or the folder given (docs/hardening.md).

Before: `raw/notes.md -> ~/.ssh/id_rsa` was snapshotted, indexed and searchable after `index
rebuild`, and a link inside a folder given to `add` was copied in.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

SECRET = "BEGIN-PRIVATE-KEY-MATERIAL do not index me"

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")


def _everything_under(root: Path) -> str:
    return "\n".join(p.read_text("utf-8", "replace") for p in root.rglob("*") if p.is_file() and not p.is_symlink())


def test_add_does_not_follow_a_link_out_of_the_folder(cli: Any, kb_dir: Path, tmp_path: Path) -> None:
    secret = tmp_path / "id_rsa"
    secret.write_text(SECRET, "utf-8")
    docs = tmp_path / "docs"
    (docs / "inner").mkdir(parents=True)
    (docs / "notes.md").write_text("# Notes\n\nCoroutines suspend at await points.\n", "utf-8")
    (docs / "inner" / "same.md").symlink_to(docs / "notes.md")  # inside the folder: fine
    (docs / "leak.md").symlink_to(secret)
    result = cli("add", str(docs), "--kb", str(kb_dir))
    assert result.exit_code != 0  # something was skipped: said, and the exit status shows it
    said = " ".join(result.output.split())  # the console wraps long lines
    assert "leak.md" in said and "not followed" in said and "added" in said
    assert SECRET not in _everything_under(kb_dir / "raw") + _everything_under(kb_dir / "source_cache")
    assert "BEGIN-PRIVATE" not in cli("search", "private key material", "--kb", str(kb_dir)).stdout


def test_a_link_in_raw_is_skipped_by_rebuild_and_never_searchable(cli: Any, kb_dir: Path, tmp_path: Path) -> None:
    secret = tmp_path / "id_rsa"
    secret.write_text(SECRET, "utf-8")
    (kb_dir / "raw" / "notes.md").symlink_to(secret)
    (kb_dir / "raw" / "2026-01-01_own.md").write_text("# Own\n\nA note of my own about generators.\n", "utf-8")
    result = cli("index", "rebuild", "--kb", str(kb_dir))
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "raw/notes.md" in said and "not followed" in said
    assert SECRET not in _everything_under(kb_dir / "source_cache")
    assert "BEGIN-PRIVATE" not in cli("search", "private key material", "--kb", str(kb_dir)).stdout
    assert "generators" in cli("search", "note generators", "--kb", str(kb_dir)).stdout
