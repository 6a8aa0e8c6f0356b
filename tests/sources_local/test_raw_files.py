"""Raw files (docs/contracts.md §1.1): header round trip, naming, collisions, tolerant parsing."""

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


# -- excerpts (docs/sections.md) --------------------------------------------------------------

CHAPTER = (
    "# Chapter 2. Package management\n\nIntro text about packages and how they are handled by the tools.\n\n"
    "## 2.5.9. The dpkg command\n\ndpkg is the lowest level tool for the Debian package management.\n"
    "It is very powerful and needs to be used with care.\n\n"
    "## 2.7.3. Tweaking candidate version\n\nThe default Pin-Priority value is 500 for normal archives.\n"
    "The apt-pinning situation is displayed by apt-cache policy.\n\n"
    "## 2.7.4. Updates and backports\n\nThere are updates and backports archives for stable.\n"
    "They hold newer packages that are still built for the stable release.\n"
)


def test_excerpt_header_round_trip_and_tolerant_parse(tmp_path: Path) -> None:
    rf = _rf()
    rf.body, rf.excerpt = "excerpt body", (12034, 15877)
    path, _ = write_raw_file(tmp_path, rf, date="2026-03-04")
    text = path.read_text("utf-8")
    assert "> 快照: source_cache/" in text and "> 片段: 12034-15877\n" in text
    assert parse_raw_file(path).excerpt == (12034, 15877)
    assert "片段" not in _rf().render()  # a whole-document raw file renders as before
    for value, expected in [
        ("12034 – 15877", (12034, 15877)),
        ("12034..15877", (12034, 15877)),
        ("chars 5 to 9", (5, 9)),
        ("9-5", None),
        ("everything", None),
    ]:
        header = f"# t\n\n> 来源: https://e.org/x\n> 片段：{value}\n\n---\nbody\n"
        assert parse_raw_text(header, "2026-01-01_t.md").excerpt == expected


def test_other_excerpt_of_same_url_and_slug_is_a_new_file(tmp_path: Path) -> None:
    first, second = _rf(), _rf()
    first.body, first.excerpt = "section one text", (0, 16)
    second.body, second.excerpt = "section two text", (20, 36)
    p1, new1 = write_raw_file(tmp_path, first, date="2026-03-04", slug="Usage")
    p2, new2 = write_raw_file(tmp_path, second, date="2026-03-04", slug="Usage")
    again, new3 = write_raw_file(tmp_path, second, date="2026-03-04", slug="Usage")
    assert new1 and new2 and not new3
    assert p1.name == "2026-03-04_usage.md" and p2.name == "2026-03-04_usage-2.md" and again == p2


def test_excerpts_are_the_sections_that_hold_the_quotes() -> None:
    from autodidact.sources.rawfiles import excerpts_for_quotes

    quotes = [
        ("The default Pin-Priority value is 500", "r1q2"),
        ("apt-cache   policy", "r1q3"),  # whitespace differs: still located
        ("dpkg is the lowest level tool", "r1q1"),
    ]
    found = excerpts_for_quotes(CHAPTER, "Chapter 2. Package management", quotes)
    assert [e.section for e in found] == ["2.5.9. The dpkg command", "2.7.3. Tweaking candidate version"]
    pinning = found[1]
    body = CHAPTER[pinning.start : pinning.end]
    assert body.startswith("## 2.7.3.") and body.endswith("apt-cache policy.")
    assert "backports" not in body and "lowest level" not in body
    assert pinning.title == "Chapter 2. Package management › 2.7.3. Tweaking candidate version"
    assert pinning.question_ids == ("r1q2", "r1q3")


def test_quote_across_a_heading_joins_sections_and_unknown_quote_takes_all() -> None:
    from autodidact.sources.rawfiles import excerpts_for_quotes

    across = "policy.\n\n## 2.7.4. Updates and backports\n\nThere are updates"
    joined = excerpts_for_quotes(CHAPTER, "Chapter 2", [(across, "q1"), ("default Pin-Priority", "q2")])
    assert len(joined) == 1 and joined[0].section == "2.7.3. Tweaking candidate version"
    assert "backports archives" in CHAPTER[joined[0].start : joined[0].end]
    everything = excerpts_for_quotes(CHAPTER, "Chapter 2", [("not in the text", None)])
    assert CHAPTER[everything[0].start : everything[0].end] == CHAPTER.strip()


def test_a_title_made_of_hash_marks_survives_a_round_trip() -> None:
    # Found by the property test above: "# #" parsed as an empty title, so the header was lost.
    rf = _rf()
    rf.title, rf.fetched_date = "#", "2026-01-01"
    back = parse_raw_text(rf.render(), "2026-01-01_x.md")
    assert back.title == "#" and back.url == rf.url and not back.user_contributed


def test_an_english_knowledge_bases_header_reads_in_english_and_parses_the_same(tmp_path: Path) -> None:
    """An English knowledge base reads in English: "> Source:", "> Quality: high"; every reader
    takes both languages and keeps the same ratings inside."""
    from dataclasses import replace

    english = replace(_rf(), language="en", excerpt=(3, 40))
    path, _ = write_raw_file(tmp_path / "raw", english, date="2026-03-04")
    lines = path.read_text("utf-8").split("\n")
    assert lines[2:9] == [
        "> Source: https://example.com/gen",
        "> Fetched: 2026-03-04",
        "> Questions: q1, q2",
        "> Quality: high",
        "> Quality note: 官方文档, primary source",
        "> Snapshot: source_cache/" + "a" * 64 + "/" + "b" * 64 + ".md",
        "> Excerpt: 3-40",
    ]
    back = parse_raw_file(path)
    assert (back.url, back.quality, back.question_ids, back.excerpt) == (
        "https://example.com/gen",
        "高",
        ["q1", "q2"],
        (3, 40),
    )
    assert back.language == "en" and back.render() == path.read_text("utf-8")
    typed = parse_raw_text("# t\n\n> source: https://e.org/x\n> QUALITY: Low\n\n---\nbody\n", "t.md")
    assert (typed.url, typed.quality, typed.user_contributed) == ("https://e.org/x", "低", False)
    assert parse_raw_text("# t\n\n> Source: https://e.org/x\n> Quality: superb\n\n---\nb\n", "t.md").quality == "待评估"


def test_a_research_writes_raw_headers_in_the_knowledge_bases_language(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "pin.md").write_text(
        "# Pinning\n\nThe default Pin-Priority of a normal archive is 500. "
        "A higher Pin-Priority makes apt prefer the pinned version.\n",
        "utf-8",
    )
    for topic, kb, label in (
        ("How does apt pinning work?", "en-kb", "> Source: "),
        ("apt 的版本固定如何工作？", "zh-kb", "> 来源: "),
    ):
        result = cli("research", topic, "--kb", str(tmp_path / kb), "--corpus", str(docs), "--max-rounds", "1")
        assert result.exit_code == 0, result.output
        raws = list((tmp_path / kb / "raw").glob("*.md"))
        assert raws and all(label in p.read_text("utf-8") for p in raws), label
        assert cli("verify", "--kb", str(tmp_path / kb)).exit_code == 0
        wiki = "".join(p.read_text("utf-8") for p in (tmp_path / kb / "wiki").glob("*.md"))
        assert "Pin-Priority" in wiki  # the wiki finds its quotes in the raw files, whichever labels they carry
