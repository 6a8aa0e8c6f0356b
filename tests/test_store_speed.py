"""store: the faster JSON text and the kept folder listing give what the plain code gives (issue 18)."""

from __future__ import annotations

import enum
import json
import math
import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodidact.sources import rawfiles
from autodidact.store import filememo
from autodidact.store.filememo import FolderMemo
from autodidact.store.jsontext import dumps_indented

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()  # every code point: control characters, quotes, surrogates
)
keys = st.text() | st.integers() | st.floats(allow_nan=False) | st.booleans() | st.none()
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.tuples(inner, inner)
        | st.dictionaries(keys, inner, max_size=5)
        | st.lists(st.text(), max_size=5)
    ),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None)
@given(values)
def test_json_text_is_the_standard_text(value: object) -> None:
    assert dumps_indented(value) == json.dumps(value, ensure_ascii=False, indent=2)


class Level(enum.IntEnum):
    HIGH = 3


class Colour(enum.StrEnum):
    RED = "red"


def test_json_text_subclasses_and_errors_follow_the_standard() -> None:
    data = {"level": Level.HIGH, Level.HIGH: [Colour.RED, math.inf, -0.0], "nan": math.nan}
    assert dumps_indented(data) == json.dumps(data, ensure_ascii=False, indent=2)
    circular: list[object] = []
    circular.append(circular)
    with pytest.raises(ValueError, match="Circular"):
        dumps_indented(circular)
    with pytest.raises(TypeError):
        dumps_indented({"x": {1, 2}})
    with pytest.raises(TypeError):
        dumps_indented({(1, 2): "tuple key"})


def _settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every change look older than the racy window (a test cannot wait two seconds each time)."""
    monkeypatch.setattr(filememo, "RACY_NS", -10_000_000_000)


def test_folder_listing_is_kept_until_the_folder_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _settled(monkeypatch)
    memo: FolderMemo[list[str]] = FolderMemo()
    (tmp_path / "a.md").write_text("a", "utf-8")

    def scan() -> tuple[list[str], bool]:
        return sorted(os.listdir(tmp_path)), True

    assert memo.get(tmp_path, scan) == ["a.md"]
    assert memo.get(tmp_path, scan) == ["a.md"] and memo.scans == 1  # unchanged: not listed again
    time.sleep(0.02)  # past the file system's clock tick
    (tmp_path / "b.md").write_text("b", "utf-8")
    assert memo.get(tmp_path, scan) == ["a.md", "b.md"] and memo.scans == 2
    time.sleep(0.02)
    os.replace(tmp_path / "b.md", tmp_path / "c.md")
    assert memo.get(tmp_path, scan) == ["a.md", "c.md"]
    time.sleep(0.02)
    (tmp_path / "a.md").unlink()
    assert memo.get(tmp_path, scan) == ["c.md"]


def test_a_racy_or_uncacheable_listing_is_never_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTODIDACT_NO_INOTIFY", "1")  # the stat rule alone (tests/test_changefeed.py: with a watch)
    memo: FolderMemo[int] = FolderMemo()
    memo.get(tmp_path, lambda: (1, True))  # the folder was just created: within the racy window
    memo.get(tmp_path, lambda: (1, True))
    assert memo.scans == 2
    old = time.time_ns() - 10_000_000_000
    os.utime(tmp_path, ns=(old, old))  # an old mtime, but the ctime is now: still racy
    memo.get(tmp_path, lambda: (1, True))
    memo.get(tmp_path, lambda: (1, True))
    assert memo.scans == 4


def test_raw_listing_follows_added_removed_and_linked_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _settled(monkeypatch)
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "one.md").write_text("x", "utf-8")
    (raw / "skip.bin").write_text("x", "utf-8")
    assert rawfiles.list_raw_names(raw) == ["one.md"]
    before = rawfiles._LISTINGS.scans
    assert rawfiles.list_raw_names(raw) == ["one.md"] and rawfiles._LISTINGS.scans == before
    time.sleep(0.02)
    (raw / "two.txt").write_text("y", "utf-8")
    assert rawfiles.list_raw_names(raw) == ["one.md", "two.txt"]
    listed = rawfiles.list_raw_names(raw)
    listed.append("caller's edit")
    assert rawfiles.list_raw_names(raw) == ["one.md", "two.txt"]  # callers get their own list
    outside = tmp_path / "secret.md"
    outside.write_text("s", "utf-8")
    time.sleep(0.02)
    (raw / "link.md").symlink_to(outside)
    assert rawfiles.list_raw_names(raw) == ["one.md", "two.txt"]
    scans = rawfiles._LISTINGS.scans
    rawfiles.list_raw_names(raw)
    assert rawfiles._LISTINGS.scans == scans + 1  # a folder with a link is listed every time
    assert rawfiles.list_raw_names(tmp_path / "missing") == []


def test_a_long_list_of_names_is_encoded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from autodidact.store import jsontext

    calls = [0]
    real = jsontext.encode_basestring

    def counting(text: str) -> str:
        calls[0] += 1
        return real(text)

    monkeypatch.setattr(jsontext, "encode_basestring", counting)
    monkeypatch.setattr(jsontext, "_NAMES", {})
    names = [f"2026-12-01_file-{i}.md" for i in range(500)]
    data = {"all_raw_files_processed": names, "rounds": [{"new_raw_files": names[:3]}]}
    first = dumps_indented(data)
    once = calls[0]
    assert dumps_indented(data) == first == json.dumps(data, ensure_ascii=False, indent=2)
    assert calls[0] - once < 10  # the keys and the short list only
    names.append("2026-12-02_new.md")  # the same list object, one name more: encoded again, right
    assert dumps_indented(data) == json.dumps(data, ensure_ascii=False, indent=2)
    assert dumps_indented({"x": [names]}) == json.dumps({"x": [names]}, ensure_ascii=False, indent=2)  # deeper


def test_long_lists_of_anything_encode_as_json_dumps_does_twice_over() -> None:
    """A long list is looked up among the name lists met before only if it can be a key: lists of
    objects, of names with an object among them, and of numbers encode as ``json.dumps`` does, the
    second time too (when a list of names of the same items was met in between)."""
    names = [f"2026-12-01_n{i}.md" for i in range(100)]
    cases: list[object] = [
        {"files": names},
        {"files": [{"name": n} for n in names]},
        {"files": [*names[:50], {"name": "x"}, *names[50:]]},
        {"files": [*names[:50], ["nested"], *names[50:]]},
        {"files": list(range(100))},
        {"files": tuple(names)},
    ]
    for _ in range(2):
        for data in cases:
            assert dumps_indented(data) == json.dumps(data, ensure_ascii=False, indent=2)
