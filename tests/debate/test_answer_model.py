"""The learned reader of answer kinds (debate/answer_model.py): what it learns, when it abstains,
and that the cue rules still come first."""

from __future__ import annotations

from collections import Counter

from autodidact.debate.answer_kinds import classify
from autodidact.debate.answer_model import KindModel, features, shipped_examples, shipped_model

TOY = [
    ("the pipes froze that week", "example"),
    ("my neighbour's pipes froze too", "example"),
    ("we logged 40 outages", "evidence"),
    ("the utility logged 12 outages in march", "evidence"),
    ("仅限上海的门店", "scope"),
    ("仅限北京的门店", "scope"),
    ("不太清楚", "hedge"),
    ("这个真不清楚", "hedge"),
]


def test_it_learns_words_and_chinese_character_pairs() -> None:
    model = KindModel.train(TOY)
    assert model.predict("the outages we logged", min_confidence=0.0) == "evidence"
    assert model.predict("仅限深圳的门店", min_confidence=0.0) == "scope"
    assert "c:清楚" in features("不清楚") and "b:we_logged" in features("we logged")


def test_it_never_guesses_a_hedge() -> None:
    # A hedge silences an answer: only the cue rules, which look for the person's own doubt, say so.
    model = KindModel.train(TOY)
    assert model.posteriors("这个我真不清楚")["hedge"] > 0.5
    assert model.predict("这个我真不清楚", min_confidence=0.0) == "other"


def test_it_abstains_when_no_kind_is_likely_enough() -> None:
    model = KindModel.train(TOY)
    assert model.predict("zzz qqq", min_confidence=0.9) == "other"  # nothing it knows
    assert model.predict("", min_confidence=0.0) == "other"
    assert KindModel.train([]).predict("anything") == "other"


def test_the_shipped_examples_cover_every_kind_in_both_languages() -> None:
    examples = shipped_examples()
    kinds = Counter(k for _, k in examples)
    assert set(kinds) == {
        "definition", "mechanism", "confounder", "example", "evidence", "test", "hedge", "choice", "scope",
        "correction",
    }  # fmt: skip
    assert min(kinds.values()) >= 20
    assert any(any("\u4e00" <= ch <= "\u9fff" for ch in t) for t, _ in examples)


def test_a_bare_acknowledgement_stays_other() -> None:
    for text in ("ok", "好的", "sure", "嗯"):
        assert classify(text) == "other", text


def test_the_model_reads_answers_no_cue_rule_knows() -> None:
    model = shipped_model()
    # Unlike the cue rules, the model answers for phrasing it has never seen word for word.
    unseen = "Honestly the real driver there was the new manager, not the policy"
    assert model.posteriors(unseen)["confounder"] == max(model.posteriors(unseen).values())
