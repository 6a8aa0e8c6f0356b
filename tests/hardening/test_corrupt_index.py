"""A corrupt or missing index is set aside and rebuilt, and `verify` notices it (docs/hardening.md).

Before: flipped bytes or a garbage header made `index rebuild`, `search` and `research` end in
`sqlite3.DatabaseError`, `verify` exited 0, and a deleted index was searched silently as empty.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

DOC = "# APT pinning\n\nThe default Pin-Priority of a normal archive is 500, and preferences change it.\n"


def _kb_with_a_document(cli: Any, kb_dir: Path, tmp_path: Path) -> Path:
    doc = tmp_path / "pinning.md"
    doc.write_text(DOC, "utf-8")
    assert cli("add", str(doc), "--kb", str(kb_dir)).exit_code == 0
    return kb_dir / ".autodidact" / "index.sqlite"


def _found(cli: Any, kb_dir: Path) -> list[dict[str, Any]]:
    result = cli("search", "default Pin-Priority", "--kb", str(kb_dir), "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("damage", ["header", "truncated"])
def test_a_corrupt_index_is_reported_by_verify_and_rebuilt_by_search_and_rebuild(
    cli: Any, kb_dir: Path, tmp_path: Path, damage: str
) -> None:
    db = _kb_with_a_document(cli, kb_dir, tmp_path)
    data = bytearray(db.read_bytes())
    db.write_bytes(b"garbage, not SQLite" + bytes(data[19:]) if damage == "header" else bytes(data[:100]))
    verified = cli("verify", "--kb", str(kb_dir))
    assert verified.exit_code != 0 and "index rebuild" in verified.output
    found = _found(cli, kb_dir)  # no traceback: set aside, rebuilt from the snapshots, then searched
    assert found and "500" in found[0]["text"]
    assert (db.parent / "index.sqlite.corrupt").is_file()  # kept for inspection, not deleted
    assert cli("verify", "--kb", str(kb_dir)).exit_code == 0
    db.write_bytes(b"\x00" * 4096)
    rebuilt = cli("index", "rebuild", "--kb", str(kb_dir))
    assert rebuilt.exit_code == 0, rebuilt.output
    assert "could not be read" in rebuilt.output  # said so, as a warning
    assert cli("verify", "--kb", str(kb_dir)).exit_code == 0 and _found(cli, kb_dir)


def test_a_deleted_index_is_rebuilt_not_searched_as_empty(cli: Any, kb_dir: Path, tmp_path: Path) -> None:
    db = _kb_with_a_document(cli, kb_dir, tmp_path)
    for leftover in db.parent.glob("index.sqlite*"):
        leftover.unlink()
    assert _found(cli, kb_dir)
    assert cli("verify", "--kb", str(kb_dir)).exit_code == 0


def test_verify_notices_an_index_that_lacks_snapshots(cli: Any, kb_dir: Path, tmp_path: Path) -> None:
    import sqlite3

    db = _kb_with_a_document(cli, kb_dir, tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM src_documents")
    result = cli("verify", "--kb", str(kb_dir))
    assert result.exit_code != 0 and "lacks 1 of 1 indexed documents" in result.output
