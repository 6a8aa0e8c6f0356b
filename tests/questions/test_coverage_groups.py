"""The questioner's coverage check by article (questions/coverage.py, ``covered_in``) must find the
passage the scan of every cited passage finds: it skips only articles none of whose passages shares
a content feature with the question, and such a passage covers nothing."""

from __future__ import annotations

import random
from pathlib import Path

from autodidact.questions.coverage import cited_groups, cited_passages, covered_by, covered_in

WORDS = [
    "generator",
    "yield",
    "coroutine",
    "await",
    "loop",
    "event",
    "send",
    "value",
    "iterator",
    "frame",
    "stack",
    "close",
    "throw",
]


def test_covered_in_finds_what_the_full_scan_finds(tmp_path: Path) -> None:
    rng = random.Random(5)
    wiki = tmp_path / "wiki"
    wiki.mkdir()
    for i in range(40):
        paragraphs = [
            " ".join(rng.sample(WORDS, rng.randrange(3, 8))).capitalize()
            + (" because it is so." if rng.random() < 0.5 else ".")
            + (" (source: 2026-12-01_a.md)" if rng.random() < 0.8 else "")
            for _ in range(rng.randrange(1, 5))
        ]
        (wiki / f"a{i:02d}.md").write_text("# A\n\n" + "\n\n".join(paragraphs) + "\n", "utf-8")
    (wiki / "bad.md").write_bytes(b"\xff\xfe not text")  # left out by both
    flat = cited_passages(wiki)
    groups = cited_groups(wiki)
    assert [p for g in groups for p in g.passages] == flat
    found = 0
    for _ in range(300):
        question = " ".join(rng.sample(WORDS, rng.randrange(2, 6))) + rng.choice(["?", " and why?", " works?"])
        expected = covered_by(question, flat)
        assert covered_in(question, groups) == expected, question
        found += expected is not None
    assert 0 < found < 300  # both outcomes were exercised
