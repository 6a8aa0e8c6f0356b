"""The repository explains itself: every docs page the code cites exists, and every seed reference
says where the seed is described (docs/seeds.md)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = [p for d in ("src", "tests", "bench", "eval", "scripts") for p in (ROOT / d).rglob("*.py")]
DOC_REF = re.compile(r"(?<![\w/.-])docs/([A-Za-z0-9_-]+\.md)")


def test_every_docs_page_the_code_cites_exists() -> None:
    missing = sorted(
        {f"{p.relative_to(ROOT)}: docs/{m}" for p in CODE for m in DOC_REF.findall(p.read_text(encoding="utf-8"))
         if not (ROOT / "docs" / m).is_file()}
    )  # fmt: skip
    assert missing == []


def test_every_seed_reference_points_to_the_page_that_describes_the_seeds() -> None:
    unexplained = [
        str(p.relative_to(ROOT))
        for p in CODE
        if re.search(r"\bseeds? 00[0-4]", text := p.read_text(encoding="utf-8")) and "docs/seeds.md" not in text
    ]
    assert unexplained == []
    pages = (ROOT / "docs" / "seeds.md").read_text(encoding="utf-8")
    assert all(f"## Seed {n}" in pages for n in ("000", "001", "002", "003", "004"))


def test_no_reference_to_files_outside_the_repository() -> None:
    outside = re.compile(r"\bCONTRACTS(?:\.md)? ?§|\b(?:ARCHITECTURE|STYLE|ECOSYSTEM)\.md\b|\.\./shared/")
    found = [str(p.relative_to(ROOT)) for p in [*CODE, *(ROOT / "docs").glob("*.md")]
             if outside.search(p.read_text(encoding="utf-8"))]  # fmt: skip
    assert found == []
