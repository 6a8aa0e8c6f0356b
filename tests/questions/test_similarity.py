"""The dedup/overlap similarity: the documented threshold separates the labelled pairs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from autodidact.questions.similarity import THRESHOLD, features, is_duplicate, similarity

_spec = importlib.util.spec_from_file_location("similarity_pairs", Path(__file__).with_name("similarity_pairs.py"))
assert _spec and _spec.loader
pairs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pairs)


@pytest.mark.parametrize(("a", "b"), pairs.DUP)
def test_duplicates_reach_the_threshold(a: str, b: str) -> None:
    assert similarity(a, b) >= THRESHOLD
    assert similarity(b, a) == pytest.approx(similarity(a, b))


@pytest.mark.parametrize(("a", "b"), pairs.RELATED + pairs.UNRELATED)
def test_related_and_unrelated_stay_below(a: str, b: str) -> None:
    assert similarity(a, b) < THRESHOLD
    assert not is_duplicate(similarity(a, b))


def test_threshold_sits_in_the_measured_gap() -> None:
    lowest_dup = min(similarity(a, b) for a, b in pairs.DUP)
    highest_other = max(similarity(a, b) for a, b in pairs.RELATED + pairs.UNRELATED)
    # The documented margins (similarity.py docstring): dups >= 0.80, related <= 0.50.
    assert lowest_dup >= 0.80
    assert highest_other <= 0.50
    assert highest_other < THRESHOLD < lowest_dup
    assert max(similarity(a, b) for a, b in pairs.UNRELATED) <= 0.05


def test_both_languages_have_both_labels() -> None:
    def zh(pair: tuple[str, str]) -> bool:
        return any("\u4e00" <= ch <= "\u9fff" for ch in pair[0])

    for group in (pairs.DUP, pairs.RELATED, pairs.UNRELATED):
        assert any(zh(p) for p in group) and any(not zh(p) for p in group)


def test_intent_separates_same_subject() -> None:
    what = features("什么是 Python 生成器？")
    how = features("Python 生成器如何工作？")
    assert what.content == how.content
    assert what.intents != how.intents
    assert similarity(what, how) == pytest.approx(0.5)


def test_empty_and_identical() -> None:
    assert similarity("", "") == 0.0
    assert similarity("What is a closure?", "What is a closure?") == 1.0
