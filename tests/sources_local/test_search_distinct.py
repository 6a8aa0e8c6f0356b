"""What a person reads from search shows each passage once (sources/distinct.py)."""

from __future__ import annotations

import json
from pathlib import Path

from autodidact.api import search

PINNING = " ".join(f"Rule {n}: an archive line in the preferences file names a release." for n in range(12))
UPGRADES = " ".join(f"Step {n}: the upgrade command fetches the lists and installs newer versions." for n in range(12))
DOC = (
    f"# Pinning\n\nThe default Pin-Priority of a normal archive is 500. {PINNING}\n\n"
    f"## Upgrades\n\nThe full-upgrade command may remove packages to resolve conflicts. {UPGRADES}\n"
)


def _kb_with_a_copy(cli, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    """A document added, and the same text dropped into raw/ by hand: two snapshots, one passage."""
    (tmp_path / "pin.md").write_text(DOC, "utf-8")
    kb = tmp_path / "kb"
    assert cli("init", str(kb)).exit_code == 0
    assert cli("add", str(tmp_path / "pin.md"), "--kb", str(kb)).exit_code == 0
    (kb / "raw" / "pin-copy.md").write_text(DOC, "utf-8")
    assert cli("index", "rebuild", "--kb", str(kb)).exit_code == 0
    return kb


def test_the_same_passage_in_two_files_is_shown_once(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kb = _kb_with_a_copy(cli, tmp_path)
    result = cli("search", "Pin-Priority archive", "--kb", str(kb), "--json")
    hits = json.loads(result.output)
    texts = [" ".join(h["text"].split()) for h in hits]
    assert len(texts) == len(set(texts)) >= 2 and all(h["raw_file"] for h in hits), texts
    assert [p.text for p in search("Pin-Priority archive", kb=kb)] == [h["text"] for h in hits]


def test_folding_duplicates_still_fills_k(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Both passages of the document come back when k asks for two, though four hits match."""
    kb = _kb_with_a_copy(cli, tmp_path)
    hits = json.loads(cli("search", "Pin-Priority full-upgrade", "--kb", str(kb), "--json", "-k", "2").output)
    texts = {" ".join(h["text"].split())[:20] for h in hits}
    assert len(hits) == 2 and len(texts) == 2, hits


def test_a_query_may_start_with_a_dash_and_a_chinese_query_that_matches_nothing_says_why(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """ "-mtime n" is what a person looks up in a manual; it read as an unknown option "-m"."""
    kb = _kb_with_a_copy(cli, tmp_path)
    result = cli("search", "-Pin-Priority", "--kb", str(kb), "--json")
    assert result.exit_code == 0 and json.loads(result.output), result.output
    empty = cli("search", "量子纠缠的原理", "--kb", str(kb))  # no glossary word either
    assert empty.exit_code == 0 and "search in English" in " ".join(empty.output.split())


def test_a_chinese_query_over_english_documents_is_searched_in_the_glossarys_english(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """「默认优先级是多少？」 shares no word with an English manual; a Chinese user got nothing."""
    kb = _kb_with_a_copy(cli, tmp_path)
    result = cli("search", "默认优先级是多少？", "--kb", str(kb))
    said = " ".join(result.output.split())
    assert result.exit_code == 0 and "searched in English" in said and "Pin-Priority" in said, said


def test_the_same_text_twice_in_one_document_is_shown_once(tmp_path: Path) -> None:
    """pydoc prints an inherited method again under each subclass: pathlib's with_suffix() filled a
    search's top three from PurePath, PurePosixPath and PureWindowsPath."""
    from autodidact.sources.distinct import distinct_passages
    from autodidact.sources.passage_index import Passage

    def hit(section: str, text: str) -> Passage:
        return Passage("ref", "u", "pathlib", text, 0, len(text), 1.0, "p.md", "raw", "", section=section)

    same = "with_suffix(self, suffix) Return a new path with the file suffix changed."
    hits = [hit("class PurePath", same), hit("class PurePosixPath", same), hit("class Path", "iterdir(self)")]
    assert [h.section for h in distinct_passages(lambda n: hits[:n], 3)] == ["class PurePath", "class Path"]
