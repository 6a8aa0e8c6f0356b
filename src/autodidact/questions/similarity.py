"""Offline semantic similarity of two questions, for Chinese and English alike.

Why this exists: the questioner must drop a candidate whose *core intent* repeats a question
already asked (seed 000 step 4, docs/seeds.md), and the loop's termination rule reads ``overlap_ratio`` — the
share of this round's questions that are similar to history (docs/contracts.md §1.3). Both must use the
same function and the same threshold, and both must work without a model or network.

How it works. A question becomes two feature sets:

* **content** — Chinese runs are cut at function characters (的, 与, 和, …) and question phrases
  (是什么, 如何, …); each remaining run contributes its character bigrams (a one-character run
  contributes itself). Latin words are lower-cased, stop words removed, and lightly stemmed
  (``generators`` → ``generator``, ``works`` → ``work``). Stopwords and the stemmer are the text
  layer's (:mod:`autodidact.text.topic`), so "key term" means the same here as in the topic frame.
* **intent** — question phrases in either language map to a small set of intent tags
  (definition, mechanism, reason, comparison, limitation, use, example, variant). "What is X?" and
  "How does X work?" share their content but not their intent, so they are *related*, not
  duplicates; "什么是 X？" and "X 是什么？" share both.

``similarity(a, b) = dice(content) × (0.5 + 0.5 × dice(intents))`` (an absent intent counts as
half a match), in [0, 1]; :data:`THRESHOLD` is the line between "same core intent" and "merely
related".

Threshold, measured: ``tests/questions/test_similarity.py`` scores the labelled pairs of
``tests/questions/similarity_pairs.py`` in both languages (15 duplicates, 13 related questions on
the same subject, 7 unrelated). Measured: duplicates score ≥ 0.80 (lowest: a paraphrase that adds
one qualifier, "What does the yield keyword do…" vs "What does yield do…"), related pairs ≤ 0.50
(same subject, other intent: "What are Python generators?" vs "How do Python generators work?"),
unrelated pairs 0.0. The threshold sits in that gap at **0.70**; the test asserts the gap still
holds whenever the features change.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from autodidact.text.topic import EN_STOPWORDS as _EN_STOP
from autodidact.text.topic import ZH_STOP_CHARS as _ZH_STOP_CHARS
from autodidact.text.topic import ZH_STOP_WORDS as _ZH_STOP_WORDS
from autodidact.text.topic import stem as _stem

THRESHOLD = 0.70
"""Two questions with similarity ≥ THRESHOLD have the same core intent (dedup and overlap)."""

_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]+|[a-z0-9][a-z0-9_+#.]*[a-z0-9+#]|[a-z0-9]")

# Chinese question phrases → intent tag (longest first, so 什么是 wins over 什么).
_ZH_INTENTS: tuple[tuple[str, str], ...] = (
    ("的要点", "#key"),
    ("要点", "#key"),
    ("有什么区别", "#cmp"),
    ("有何区别", "#cmp"),
    ("什么是", "#def"),
    ("是什么", "#def"),
    ("指什么", "#def"),
    ("是指", "#def"),
    ("定义", "#def"),
    ("含义", "#def"),
    ("概念", "#def"),
    ("为什么", "#why"),
    ("为何", "#why"),
    ("原因", "#why"),
    ("如何工作", "#how"),
    ("怎么工作", "#how"),
    ("工作原理", "#how"),
    ("原理", "#how"),
    ("机制", "#how"),
    ("如何", "#how"),
    ("怎么", "#how"),
    ("怎样", "#how"),
    ("区别", "#cmp"),
    ("差异", "#cmp"),
    ("不同", "#cmp"),
    ("对比", "#cmp"),
    ("比较", "#cmp"),
    ("相比", "#cmp"),
    ("替代", "#cmp"),
    ("局限", "#lim"),
    ("缺点", "#lim"),
    ("不足", "#lim"),
    ("限制", "#lim"),
    ("风险", "#lim"),
    ("场景", "#use"),
    ("适合", "#use"),
    ("适用", "#use"),
    ("何时", "#use"),
    ("什么时候", "#use"),
    ("例子", "#ex"),
    ("示例", "#ex"),
    ("案例", "#ex"),
    ("变体", "#var"),
    ("解决", "#why"),
    ("组成", "#how"),
)
_EN_INTENTS: dict[str, str] = {
    "keypoints": "#key",
    "what": "#def",
    "define": "#def",
    "definition": "#def",
    "meaning": "#def",
    "mean": "#def",
    "why": "#why",
    "purpose": "#why",
    "reason": "#why",
    "how": "#how",
    "mechanism": "#how",
    "internally": "#how",
    "work": "#how",
    "principle": "#how",
    "differ": "#cmp",
    "difference": "#cmp",
    "compare": "#cmp",
    "comparison": "#cmp",
    "versus": "#cmp",
    "vs": "#cmp",
    "alternative": "#cmp",
    "contrast": "#cmp",
    "limitation": "#lim",
    "drawback": "#lim",
    "disadvantage": "#lim",
    "pitfall": "#lim",
    "risk": "#lim",
    "when": "#use",
    "scenario": "#use",
    "suitable": "#use",
    "appropriate": "#use",
    "example": "#ex",
    "variant": "#var",
    "solve": "#why",
    "solv": "#why",
    "component": "#how",
    "distinguish": "#cmp",
}
_WEAK_WORDS = {"what", "how"}
_KEY_POINTS = re.compile(r"\bkey points?\b")


def normalize(text: str) -> str:
    """NFKC, lower case, collapse whitespace."""
    text = unicodedata.normalize("NFKC", text or "").lower()
    return " ".join(text.split())


def _zh_features(run: str, content: set[str], intents: set[str]) -> None:
    for phrase, tag in _ZH_INTENTS:
        if phrase in run:
            intents.add(tag)
            run = run.replace(phrase, " ")
    for word in _ZH_STOP_WORDS:
        run = run.replace(word, " ")
    run = "".join(" " if ch in _ZH_STOP_CHARS else ch for ch in run)
    for piece in run.split():
        if len(piece) == 1:
            content.add(piece)
        else:
            content.update(piece[i : i + 2] for i in range(len(piece) - 1))


@dataclass(frozen=True)
class Features:
    """The feature sets of one question."""

    content: frozenset[str]
    intents: frozenset[str]

    @property
    def all(self) -> frozenset[str]:
        return self.content | self.intents


def features(text: str) -> Features:
    """Content features (CJK bigrams, stemmed Latin words) and intent tags of ``text``."""
    content: set[str] = set()
    intents: set[str] = set()
    weak: set[str] = set()
    # "key points of “X”" asks for a section's gist: one intent, not two content words every such
    # question would share (which made them all near-duplicates of each other).
    for token in _TOKEN.findall(_KEY_POINTS.sub(" keypoints ", normalize(text))):
        if re.match(rf"[{_CJK}]", token):
            _zh_features(token, content, intents)
            continue
        stem = _stem(token)
        tag = _EN_INTENTS.get(token) or _EN_INTENTS.get(stem)
        if tag:
            (weak if token in _WEAK_WORDS else intents).add(tag)
            continue
        if token in _EN_STOP or stem in _EN_STOP:
            continue
        content.add(stem)
    intents |= weak
    # A question phrase like 是什么/what only marks "definition" when nothing more specific is asked:
    # "X 的区别是什么" is a comparison, "X 的工作原理是什么" asks for the mechanism.
    if intents - {"#def"}:
        intents.discard("#def")
    if intents - {"#def", "#how"}:
        intents.discard("#how")
    return Features(frozenset(content), frozenset(intents))


def dice(a: frozenset[str], b: frozenset[str]) -> float:
    """Dice coefficient of two sets (0 when both are empty)."""
    if not a and not b:
        return 0.0
    return 2 * len(a & b) / (len(a) + len(b))


def similarity(a: str | Features, b: str | Features) -> float:
    """Similarity of two questions in [0, 1]; ≥ :data:`THRESHOLD` means same core intent."""
    fa = a if isinstance(a, Features) else features(a)
    fb = b if isinstance(b, Features) else features(b)
    content = dice(fa.content, fb.content)
    if not fa.intents and not fb.intents:
        intent = 1.0
    elif not fa.intents or not fb.intents:
        intent = 0.5
    else:
        intent = dice(fa.intents, fb.intents)
    return content * (0.5 + 0.5 * intent)


def best_match(text: str | Features, history: Sequence[tuple[str, Features]]) -> tuple[str | None, float]:
    """The history id most similar to ``text`` and its score (``(None, 0.0)`` for empty history)."""
    feats = text if isinstance(text, Features) else features(text)
    best_id: str | None = None
    best = 0.0
    for hid, hfeats in history:
        score = similarity(feats, hfeats)
        if score > best:
            best_id, best = hid, score
    return best_id, best


def is_duplicate(score: float) -> bool:
    """The one decision rule shared by dedup and overlap."""
    return score >= THRESHOLD


def index_history(items: Iterable[tuple[str, str]]) -> list[tuple[str, Features]]:
    """Precompute features for ``(id, text)`` history items."""
    return [(hid, features(text)) for hid, text in items]


def coverage(question: str | Features, passage_features: frozenset[str]) -> float:
    """Share of a question's content features present in a passage (0 when it has none)."""
    feats = question if isinstance(question, Features) else features(question)
    if not feats.content:
        return 0.0
    return len(feats.content & passage_features) / len(feats.content)
