"""docs/contracts.md §3.1: the snapshot store's library API and `autodidact snapshot` CLI."""

from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path

import pytest

from autodidact.errors import InputError, IntegrityError, PathSafetyError
from autodidact.sources.snapshots import SnapshotStore, local_url, normalize_url, quote_in_text


def test_normalisation_example_and_rules() -> None:
    assert normalize_url("HTTPS://Example.COM:443/path?q=2&q=1#s") == "https://example.com/path?q=2&q=1"
    assert normalize_url(" http://example.com:80") == "http://example.com/"
    assert normalize_url("http://example.com:8080/a?b") == "http://example.com:8080/a?b"
    assert normalize_url("https://例子.测试/路径") == "https://xn--fsqu00a.xn--0zwm56d/路径"
    for bad in ("ftp://example.com/", "https://user:pw@example.com/", "https://exa mple.com/", "https:///x", ""):
        with pytest.raises(InputError):
            normalize_url(bad)


def test_same_text_same_ref_changed_text_new_ref_old_kept(tmp_path: Path) -> None:
    store = SnapshotStore(tmp_path / "source_cache")
    first, wrote = store.store("https://example.com/a", "version one")
    assert wrote
    again, wrote_again = store.store("HTTPS://EXAMPLE.com/a#frag", "version one")
    assert again == first and not wrote_again
    second, _ = store.store("https://example.com/a", "version two")
    assert second.snapshot_ref != first.snapshot_ref
    assert store.read(first.snapshot_ref) == "version one"
    assert store.read(second.snapshot_ref) == "version two"
    assert [s.content_hash for s in store.lookup("https://example.com/a")] == sorted(
        [first.content_hash, second.content_hash]
    )
    meta = (tmp_path / first.snapshot_ref.replace(".md", ".meta.json")).read_text("utf-8")
    assert meta.endswith("\n") and json.loads(meta)["normalized_url"] == "https://example.com/a"
    assert ": " not in meta  # compact JSON


def test_tampered_md_or_meta_fails_verification(tmp_path: Path) -> None:
    store = SnapshotStore(tmp_path / "source_cache")
    snap, _ = store.store("https://example.com/t", "original text")
    md = tmp_path / snap.snapshot_ref
    meta = md.with_name(md.name.replace(".md", ".meta.json"))
    store.verify(snap.snapshot_ref)
    md.write_text("original text!", "utf-8")
    with pytest.raises(IntegrityError):
        store.verify(snap.snapshot_ref)
    md.write_text("original text", "utf-8")
    store.verify(snap.snapshot_ref)
    data = json.loads(meta.read_text("utf-8"))
    data["normalized_url"] = "https://example.com/other"
    meta.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n", "utf-8")
    with pytest.raises(IntegrityError):
        store.verify(snap.snapshot_ref)
    with pytest.raises(IntegrityError):
        store.lookup("https://example.com/t")


def test_different_bytes_under_existing_name_refused(tmp_path: Path) -> None:
    store = SnapshotStore(tmp_path / "source_cache")
    snap, _ = store.store("https://example.com/x", "text")
    md = tmp_path / snap.snapshot_ref
    md.write_text("tampered", "utf-8")
    with pytest.raises(IntegrityError):
        store.store("https://example.com/x", "text")
    assert md.read_text("utf-8") == "tampered"  # never overwritten


def test_symlinked_root_and_bad_refs_refused(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "source_cache").symlink_to(real)
    with pytest.raises(PathSafetyError):
        SnapshotStore(tmp_path / "source_cache").store("https://example.com/", "x")
    assert not any(real.iterdir())
    store = SnapshotStore(tmp_path / "other" / "source_cache")
    snap, _ = store.store("https://example.com/", "x")
    for ref in (
        "source_cache/../x.md",
        f"source_cache/{snap.url_hash}/../{snap.content_hash}.md",
        snap.snapshot_ref.upper().replace("SOURCE_CACHE", "source_cache").replace(".MD", ".md"),
        f"/abs/{snap.snapshot_ref}",
    ):
        with pytest.raises(PathSafetyError):
            store.verify(ref)
    with pytest.raises(InputError):
        store.store("https://example.com/", "nul\x00byte")


def _store_same(cache: str, barrier: object, results: object) -> None:
    barrier.wait()  # type: ignore[attr-defined]
    try:
        snap, _ = SnapshotStore(Path(cache)).store("https://example.com/race", "same content " * 2000)
        results.put(snap.snapshot_ref)  # type: ignore[attr-defined]
    except Exception as exc:  # reported to the parent, which fails the test
        results.put(f"error: {exc}")  # type: ignore[attr-defined]


def test_concurrent_processes_store_one_file_and_all_succeed(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    barrier, results = ctx.Barrier(4), ctx.Queue()
    cache = tmp_path / "source_cache"
    procs = [ctx.Process(target=_store_same, args=(str(cache), barrier, results)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    refs = [results.get(timeout=5) for _ in procs]
    assert len(set(refs)) == 1 and not refs[0].startswith("error"), refs
    files = sorted(p.name for p in cache.rglob("*") if p.is_file())
    assert len(files) == 2 and files[0].endswith(".md") and files[1].endswith(".meta.json"), files


def test_local_urls_are_portable() -> None:
    url = local_url("raw", "2026-01-01_笔记.md")
    assert url.startswith("https://autodidact.invalid/raw/")
    assert os.sep + "tmp" not in url
    with pytest.raises(PathSafetyError):
        local_url("raw", "../escape.md")


def test_quote_rule_is_nfc_and_whitespace_only() -> None:
    assert quote_in_text("yield  expression\n", "a yield expression here")
    assert not quote_in_text("yield expressions", "a yield expression here")


def test_cli_snapshot_commands_json_and_exit_codes(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cache = tmp_path / "kb" / "source_cache"
    src = tmp_path / "page.md"
    src.write_text("页面内容 page text", "utf-8")
    res = cli("snapshot", "store", "--source-cache", str(cache), "--url", "https://example.com/p", "--input", str(src))
    assert res.exit_code == 0, res.output
    stored = json.loads(res.output)
    assert stored["ok"] and stored["snapshot_ref"].startswith("source_cache/")
    assert (tmp_path / "kb" / stored["snapshot_ref"]).read_text("utf-8") == "页面内容 page text"
    res = cli("snapshot", "store", "--source-cache", str(cache), "--url", "https://example.com/p", "--input", "-",
              input="from stdin")  # fmt: skip
    assert res.exit_code == 0 and json.loads(res.output)["written"] is True

    res = cli("snapshot", "verify", "--source-cache", str(cache), "--snapshot-ref", stored["snapshot_ref"])
    assert res.exit_code == 0 and json.loads(res.output)["ok"]
    res = cli("snapshot", "lookup", "--source-cache", str(tmp_path / "kb"), "--url", "https://example.com/p")
    assert res.exit_code == 0 and len(json.loads(res.output)) == 2
    res = cli("snapshot", "lookup", "--source-cache", str(cache), "--url", "https://example.com/none")
    assert res.exit_code == 0 and json.loads(res.output) == []

    (tmp_path / "kb" / stored["snapshot_ref"]).write_text("changed", "utf-8")
    res = cli("snapshot", "verify", "--source-cache", str(cache), "--snapshot-ref", stored["snapshot_ref"])
    assert res.exit_code == 1 and json.loads(res.output)["ok"] is False
    res = cli("snapshot", "verify", "--source-cache", str(cache), "--snapshot-ref", "source_cache/../../etc/passwd")
    assert res.exit_code == 1 and json.loads(res.output)["ok"] is False
    res = cli("snapshot", "normalize", "ftp://example.com")
    assert res.exit_code == 2 and "http" in json.loads(res.output)["error"]
    res = cli("snapshot", "store", "--source-cache", str(cache), "--url", "https://e.com/", "--input", "/nonexistent")
    assert res.exit_code == 2 and json.loads(res.output)["ok"] is False
