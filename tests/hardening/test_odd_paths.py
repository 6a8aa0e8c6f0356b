"""Odd paths and sizes end in one clear line, never a traceback (issue 13 items 9 and 17)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc")
def test_a_pseudo_file_system_is_refused_in_one_line(cli: Any) -> None:
    for args in (["init", "/proc/autodidact-x"], ["research", "a topic", "--kb", "/proc/self"]):
        result = cli(*args)
        assert result.exit_code == 2, result.output
        assert "error: cannot use /proc/" in result.stderr and "Traceback" not in result.output


def test_snapshot_lookup_refuses_a_file_and_a_malformed_hash(cli: Any, kb_dir: Path, tmp_path: Path) -> None:
    a_file = tmp_path / "not-a-cache"
    a_file.write_text("x", "utf-8")
    result = cli("snapshot", "lookup", "--source-cache", str(a_file), "--url", "https://example.com/")
    assert result.exit_code == 2 and "is a file, not a folder" in json.loads(result.stdout)["error"]
    result = cli(
        "snapshot", "lookup", "--source-cache", str(kb_dir), "--url", "https://example.com/", "--content-hash", "XYZ"
    )
    assert result.exit_code == 2 and "64 lowercase hex" in json.loads(result.stdout)["error"]


def test_a_hidden_file_name_is_listed_not_dropped(cli: Any, kb_dir: Path, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / ".git").mkdir(parents=True)
    (docs / "..md").write_text("# Dots\n\nA file whose name is two dots and md.\n", "utf-8")
    (docs / ".git" / "HEAD.md").write_text("# git internals\n\nnot a document\n", "utf-8")
    (docs / "real.md").write_text("# Real\n\nCoroutines suspend at await points.\n", "utf-8")
    result = cli("add", str(docs), "--kb", str(kb_dir))
    said = " ".join(result.output.split())
    assert result.exit_code == 1 and "..md: hidden file name" in said
    assert "HEAD.md" not in said  # inside a hidden folder: not the person's documents at all
    assert "1 added" in said


def test_a_file_over_the_size_limit_is_skipped_with_the_setting_to_change(
    cli: Any, kb_dir: Path, tmp_path: Path
) -> None:
    toml = kb_dir / "autodidact.toml"
    toml.write_text(toml.read_text("utf-8").replace("[fetch]\n", "[fetch]\nmax_file_bytes = 2000\n", 1), "utf-8")
    big = tmp_path / "big.md"
    big.write_text("# Big\n\n" + "Generators yield values lazily. " * 200, "utf-8")
    small = tmp_path / "small.md"
    small.write_text("# Small\n\nCoroutines suspend at await points.\n", "utf-8")
    result = cli("add", str(big), str(small), "--kb", str(kb_dir))
    said = " ".join(result.output.split())
    assert result.exit_code == 1 and "big.md" in said and "fetch.max_file_bytes" in said
    assert "1 added" in said
    assert not any("big" in p.name for p in (kb_dir / "raw").iterdir())


def test_a_snapshot_that_is_a_symlink_does_not_verify(cli: Any, kb_dir: Path, tmp_path: Path) -> None:
    doc = tmp_path / "n.md"
    doc.write_text("# N\n\nCoroutines suspend at await points.\n", "utf-8")
    assert cli("add", str(doc), "--kb", str(kb_dir)).exit_code == 0
    body = next((kb_dir / "source_cache").glob("*/*.md"))
    twin = tmp_path / "same-bytes.md"
    twin.write_bytes(body.read_bytes())  # identical bytes: the hash alone would pass
    body.unlink()
    body.symlink_to(twin)
    ref = f"source_cache/{body.parent.name}/{body.name}"
    result = cli("snapshot", "verify", "--source-cache", str(kb_dir), "--snapshot-ref", ref)
    assert result.exit_code != 0 and "symbolic link" in result.output
    assert cli("verify", "--kb", str(kb_dir)).exit_code != 0
