"""Gzipped documents and Texinfo manuals are sources, as Debian ships its manuals
(sources/extract.py _gunzip, sources/plaintext.py; docs/sections.md "Plain text")."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

INFO = (
    "This is demo.info, produced by makeinfo version 6.8 from demo.texi.\n\n"
    "\x1f\nFile: demo.info,  Node: Backups,  Up: Top\n\n"
    "A suffix given to the in-place option makes a backup copy of every file it edits.\n"
)


def test_a_corpus_of_gzipped_documents_and_info_manuals_is_searched(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "demo.info.gz").write_bytes(gzip.compress(INFO.encode()))
    (docs / "plain.info").write_text(INFO.replace("demo", "plain"), "utf-8")
    (docs / "NEWS.gz").write_bytes(gzip.compress(b"Version 2 adds a quiet mode that prints nothing on success.\n"))
    (docs / "broken.gz").write_bytes(b"\x1f\x8b\x08\x00 not really gzip")
    (docs / "bomb.gz").write_bytes(gzip.compress(b"a" * 9_000_000))
    kb = tmp_path / "kb"
    assert cli("init", str(kb)).exit_code == 0
    result = cli("add", str(docs), "--kb", str(kb), "--json")
    report = json.loads(result.stdout)
    skipped = {Path(s["source"]).name: s["reason"] for s in report["skipped"]}
    assert "not a readable gzip file" in skipped["broken.gz"]
    assert "when decompressed" in skipped["bomb.gz"]
    assert len(report["added"]) == 3, report
    hits = json.loads(cli("search", "backup copy suffix", "--kb", str(kb), "--json").stdout)
    assert hits and "makes a backup copy" in hits[0]["text"] and hits[0]["section"] == "Backups"
    assert json.loads(cli("search", "quiet mode", "--kb", str(kb), "--json").stdout)
