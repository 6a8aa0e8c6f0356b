"""A ledger line is written and counted as it was before its row was typed (issue 17).

Why: ``LedgerEntry.to_json`` names the fields one by one (a dataclass's ``__dict__`` is untyped), so
a field added to the dataclass but not to it would silently drop out of every ledger line; and the
totals read lines of older writers, whose numbers may be strings.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from autodidact.llm.ledger import Ledger, LedgerEntry, Totals, read_totals


def _entry(**changes: object) -> LedgerEntry:
    base = LedgerEntry("extract", "openai", "m", 10, 5, False, 0.25, 1.5, ts="2026-01-01T00:00:00Z")
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def test_a_line_holds_every_field_in_declaration_order() -> None:
    entry = _entry(outcome="failed", note="timeout", dropped=2)
    assert list(entry.to_json()) == [f.name for f in dataclasses.fields(LedgerEntry)]


def test_a_written_line_is_the_short_form_and_counts_back_the_same(tmp_path: Path) -> None:
    path = tmp_path / "usage_ledger.jsonl"
    ledger = Ledger(path)
    ledger.record(_entry())
    ledger.record(_entry(outcome="dropped", dropped=3))
    ledger.close()
    first = path.read_text("utf-8").splitlines()[0]
    assert first == (
        '{"task":"extract","provider":"openai","model":"m","input_tokens":10,"output_tokens":5,'
        '"cached":false,"cost_usd":0.25,"seconds":1.5,"priced":true,"ts":"2026-01-01T00:00:00Z"}'
    )
    assert read_totals(path) == ledger.run_totals.as_dict()
    assert read_totals(path)["dropped"] == 3 and read_totals(path)["calls"] == 1


def test_an_older_line_with_string_numbers_still_counts() -> None:
    totals = Totals()
    totals.add(json.loads('{"task":"t","provider":"p","model":"m","input_tokens":"7","cost_usd":"0.5"}'))
    assert totals.as_dict()["input_tokens"] == 7 and totals.as_dict()["cost_usd"] == 0.5
    with pytest.raises(TypeError):
        totals.add({"input_tokens": [1]})
