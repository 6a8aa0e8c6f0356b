"""Raw files (CONTRACTS §1.1): header round trip, naming, collisions, tolerant parsing."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from autodidact.sources.rawfiles import RawFile, list_raw_files, parse_raw_file, parse_raw_text, write_raw_file
from autodidact.sources.snapshots import SnapshotStore, is_local_url


def _rf(url: str = "https://example.com/gen", title: str = "Python 生成器: a guide") -> RawFile:
    return RawFile(
        filename="",
        title=title,
        url=url,
        fetched_date="",
        question_ids=["q1", "q2"],
        quality="高",
        quality_note="官方文档, primary source",
        snapshot_ref="source_cache/" + "a" * 64 + "/" + "b" * 64 + ".md",
        body="# Inner heading\n\nBody with > quote\n\n---\n\nafter a rule",
    )


def test_round_trip_and_header_layout(tmp_path: Path) -> None:
    path, created = write_raw_file(tmp_path / "raw", _rf(), date="2026-03-04")
    assert created and path.name == "2026-03-04_python-生成器-a-guide.md"
    text = path.read_text("utf-8")
    lines = text.split("\n")
    assert lines[0] == "# Python 生成器: a guide"
    assert lines[2:8] == [
        "> 来源: https://example.com/gen",
        "> 抓取日期: 2026-03-04",
        "> 关联问题: q1, q2",
        "> 质量评分: 高",
        "> 质量说明: 官方文档, primary source",
        "> 快照: source_cache/" + "a" * 64 + "/" + "b" * 64 + ".md",
    ]
    assert lines[9] == "---"
    back = parse_raw_file(path)
    assert back.title == "Python 生成器: a guide"
    assert back.url == "https://example.com/gen"
    assert back.fetched_date == "2026-03-04"
    assert back.question_ids == ["q1", "q2"]
    assert back.quality == "高" and back.quality_note == "官方文档, primary source"
    assert back.body == _rf().body
    assert back.snapshot_ref == _rf().snapshot_ref
    assert back.user_contributed is False


def test_same_slug_same_url_skips_other_url_gets_suffix(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    first, _ = write_raw_file(raw, _rf(), date="2026-03-04")
    before = first.read_bytes()
    again, created = write_raw_file(raw, _rf(url="HTTPS://example.com/gen#x"), date="2026-03-04")
    assert again == first and not created
    second, created2 = write_raw_file(raw, _rf(url="https://other.org/gen"), date="2026-03-04")
    assert created2 and second.name == "2026-03-04_python-生成器-a-guide-2.md"
    third, _ = write_raw_file(raw, _rf(url="https://third.org/gen"), date="2026-03-04")
    assert third.name.endswith("-3.md")
    assert first.read_bytes() == before
    assert [p.name for p in list_raw_files(raw)] == sorted([first.name, second.name, third.name])


def test_headerless_person_file_is_a_user_contributed_source(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "my notes.txt").write_text("Some notes about generators.\n", "utf-8")
    (raw / "2026-01-01_草稿.md").write_text("# 我的草稿\n\n关于生成器的想法。\n", "utf-8")
    (raw / ".hidden.md").write_text("x", "utf-8")
    (raw / "image.png").write_bytes(b"\x89PNG")
    names = [p.name for p in list_raw_files(raw)]
    assert names == ["2026-01-01_草稿.md", "my notes.txt"]
    notes = parse_raw_file(raw / "my notes.txt")
    assert notes.user_contributed and notes.quality == "待评估"
    assert notes.body == "Some notes about generators." and notes.title == "my notes"
    assert is_local_url(notes.url)
    draft = parse_raw_file(raw / "2026-01-01_草稿.md")
    assert draft.title == "我的草稿" and draft.fetched_date == "2026-01-01"
    # the computed ref is exactly what the store gives the same text under the same URL
    snap, _ = SnapshotStore(tmp_path / "source_cache").store(draft.url, draft.body)
    assert snap.snapshot_ref == draft.snapshot_ref


def test_full_width_colons_and_missing_fields_are_tolerated() -> None:
    text = "# 标题\n\n> 来源：https://example.cn/a\n> 质量评分：中\n\n---\n\n正文"
    rf = parse_raw_text(text, "2026-01-01_a.md")
    assert rf.url == "https://example.cn/a" and rf.quality == "中" and rf.body == "正文"
    assert rf.question_ids == [] and rf.fetched_date == ""


@settings(max_examples=200, deadline=None)
@given(st.text(), st.sampled_from(["a.md", "2026-01-01_x.md", "b.txt"]))
def test_parser_never_crashes_on_arbitrary_text(text: str, name: str) -> None:
    rf = parse_raw_text(text, name)
    assert isinstance(rf.body, str) and rf.quality in {"高", "中", "低", "待评估"}


@settings(max_examples=100, deadline=None)
@given(
    title=st.text(min_size=1, max_size=40).filter(lambda t: t.strip()),
    body=st.text(max_size=200),
    qids=st.lists(st.from_regex(r"[a-z0-9_]{1,8}", fullmatch=True), max_size=4),
)
def test_render_parse_round_trip_property(title: str, body: str, qids: list[str]) -> None:
    rf = _rf()
    rf.title, rf.question_ids, rf.fetched_date = title, qids, "2026-01-01"
    rf.body = body.replace("\r", "").strip("\n")
    back = parse_raw_text(rf.render(), "2026-01-01_x.md")
    assert back.url == rf.url and back.question_ids == qids
    assert back.body == rf.body.rstrip("\n")
