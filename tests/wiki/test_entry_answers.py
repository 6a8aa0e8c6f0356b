"""A quote that opens a reference entry's body answers the question naming that entry.

Why: pydoc writes "setUp(self)" and on the next line "Hook method for setting up the test
fixture before exercising it."; the sentence never says "setUp", so the compile's topic filter
dropped it for "What does setUp do?" — the entry's head was looked for in the text *before* the
quote, which ends before the body's first character, so no head was found (docs/wiki.md).
"""

from __future__ import annotations

import pydoc
import unittest
from pathlib import Path

from autodidact.wiki.compile.answers import RawLocator

HOOK = "Hook method for setting up the test fixture before exercising it."


def _pydoc_page(tmp_path: Path) -> Path:
    raw = tmp_path / "raw"
    raw.mkdir()
    # the module's own pydoc page, as `python -m pydoc unittest > unittest.txt` writes it
    (raw / "2026-12-07_unittest.txt").write_text(pydoc.render_doc(unittest, renderer=pydoc.plaintext), "utf-8")
    return raw


def test_the_first_sentence_of_an_entry_belongs_to_that_entry(tmp_path: Path) -> None:
    locator = RawLocator(_pydoc_page(tmp_path))
    assert locator.entry("2026-12-07_unittest.txt", HOOK) == "setUp"
    teardown = "Hook method for deconstructing the test fixture after testing it."
    assert locator.entry("2026-12-07_unittest.txt", teardown) == "tearDown"


def test_a_sentence_further_into_an_entry_still_belongs_to_it(tmp_path: Path) -> None:
    page = pydoc.render_doc(unittest, renderer=pydoc.plaintext)
    start = page.index("assertRaises(self, expected_exception")
    body = page[start : start + 2000].split("\n")[2].strip(" |")  # the body's second line
    locator = RawLocator(_pydoc_page(tmp_path))
    assert body and locator.entry("2026-12-07_unittest.txt", body) == "assertRaises"
