"""A small learned reader of answer kinds, for the answers no cue rule recognises.

Why: the cue rules of :mod:`autodidact.debate.answer_kinds` are precise but narrow. Measured on
answers written by people who never saw them, they named the right kind for about a third and said
"other" for most of the rest ("I'd honestly change my mind if kids with notifications off struggled
as much" has no cue the rules know). People say the same move in endless ways, so the offline
engine also learns from labelled examples: a naive Bayes model over word unigrams and bigrams
(English) and character bigrams (Chinese), plus how the answer opens. It is consulted only when the
rules say "other", and only when it is confident (:data:`MIN_CONFIDENCE`), so a bare "ok" stays
"other" rather than becoming a premise (docs/debate.md, "Reading answers").

The examples ship in ``data/answer_examples.json`` (their provenance is in docs/debate.md). The
model is trained once per process, in milliseconds; standard library only.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from itertools import pairwise

from autodidact.text.tokens import CJK_CLASS

# Below this posterior the model abstains: the answer stays "other".
MIN_CONFIDENCE = 0.5
# Kinds the model may not assign: a hedge silences the answer (its cue signals are not read), so a
# wrong one loses what the person said ("I keep it but revise it" read as unsure). Only the cue
# rules, which look for the person's own uncertainty, say "hedge".
NEVER_GUESSED = frozenset({"hedge"})
_ALPHA = 0.5  # additive smoothing of the per-kind feature counts
_WORD = re.compile(r"[a-z0-9']+")
_CJK = re.compile(f"[{CJK_CLASS}]")


def features(text: str) -> set[str]:
    """What the model looks at: words and word pairs, Chinese character pairs, the opening, digits."""
    low = text.lower()
    words = _WORD.findall(low)
    out = {f"w:{w}" for w in words} | {f"b:{a}_{b}" for a, b in pairwise(words)}
    if words:
        out.add(f"first:{words[0]}")
        if len(words) > 1:
            out.add(f"first2:{words[0]}_{words[1]}")
    cjk = "".join(_CJK.findall(low))
    out |= {f"c:{cjk[i : i + 2]}" for i in range(len(cjk) - 1)}
    if cjk:
        out.add(f"cfirst:{cjk[:2]}")
    if re.search(r"\d", low):
        out.add("digit")
    if len(low.strip()) < 12:
        out.add("short")
    if low.strip().endswith(("?", "？")):
        out.add("asks")
    return out


@dataclass(frozen=True)
class KindModel:
    """Per-kind document counts and feature counts (Bernoulli-style naive Bayes)."""

    kinds: dict[str, int]
    counts: dict[str, dict[str, int]]
    vocabulary: frozenset[str]

    @classmethod
    def train(cls, examples: list[tuple[str, str]]) -> KindModel:
        """A model from ``(text, kind)`` pairs."""
        kinds: Counter[str] = Counter()
        counts: defaultdict[str, Counter[str]] = defaultdict(Counter)
        for text, kind in examples:
            kinds[kind] += 1
            counts[kind].update(features(text))
        vocabulary = frozenset(f for c in counts.values() for f in c)
        return cls(dict(kinds), {k: dict(v) for k, v in counts.items()}, vocabulary)

    def posteriors(self, text: str) -> dict[str, float]:
        """P(kind | answer) for every kind the model knows."""
        seen = features(text) & self.vocabulary
        total = sum(self.kinds.values())
        logs: dict[str, float] = {}
        for kind, n in self.kinds.items():
            mine = self.counts[kind]
            score = math.log(n / total)
            for f in seen:
                score += math.log((mine.get(f, 0) + _ALPHA) / (n + 2 * _ALPHA))
            logs[kind] = score
        top = max(logs.values())
        weights = {k: math.exp(v - top) for k, v in logs.items()}
        norm = sum(weights.values())
        return {k: w / norm for k, w in weights.items()}

    def predict(self, text: str, min_confidence: float = MIN_CONFIDENCE) -> str:
        """The most probable kind, or "other" when no kind reaches ``min_confidence``."""
        if not self.kinds or _too_short(text):
            return "other"
        post = self.posteriors(text)
        best = max(post, key=lambda k: (post[k], k))
        if best in NEVER_GUESSED:
            return "other"
        return best if post[best] >= min_confidence else "other"


def _too_short(text: str) -> bool:
    """One word or two characters ("ok", 「好的」) says too little to learn from; a bare choice
    ("B", 「第二个」) is the cue rules' to read."""
    clean = text.strip()
    return len(_WORD.findall(clean.lower())) <= 1 and len(_CJK.findall(clean)) <= 2


def shipped_examples() -> list[tuple[str, str]]:
    """The labelled answers that ship with the package: ``(text, kind)``."""
    raw = json.loads(resources.files(__package__).joinpath("data/answer_examples.json").read_text("utf-8"))
    return [(str(e["text"]), str(e["kind"])) for e in raw]


@lru_cache(maxsize=1)
def shipped_model() -> KindModel:
    """The model trained on :func:`shipped_examples` (once per process)."""
    return KindModel.train(shipped_examples())
