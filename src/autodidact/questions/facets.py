"""The round's topics as facets: which facet a question belongs to, which facets were asked, what is on topic.

Why a module: the candidates (framework per facet, audit and raw concepts), the filters (dedup by
facet, the off-topic drop) and the numbering (``facet`` of every question) must all read the topic
the same way; they share these few functions over :func:`autodidact.text.topic.decompose`
(docs/questions.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from autodidact.questions.models import HistoryItem, QuestionerInputs
from autodidact.text.topic import TopicFrame, decompose


@lru_cache(maxsize=64)
def frame_of(topic: str, language: str) -> TopicFrame:
    """``decompose`` once per topic (frames are immutable)."""
    return decompose(topic, language)


def frames(inputs: QuestionerInputs) -> list[TopicFrame]:
    """The main topic's frame, then one per topic appended to the research."""
    return [frame_of(t, inputs.language) for t in [inputs.topic, *inputs.extension_topics] if t.strip()]


def facet_names(all_frames: Iterable[TopicFrame]) -> list[str]:
    """Every facet name, in order."""
    out: list[str] = []
    for frame in all_frames:
        out += [f.name for f in frame.facets if f.name not in out]
    return out


def facet_of(text: str, all_frames: list[TopicFrame]) -> str | None:
    """The facet a question belongs to (its words decide; the first frame that claims it wins)."""
    for frame in all_frames:
        name = frame.facet_for(text)
        if name is not None:
            return name
    return None


def signature(text: str, all_frames: list[TopicFrame]) -> frozenset[str]:
    """The facet terms a question mentions, over every frame (see ``TopicFrame.signature``)."""
    out: frozenset[str] = frozenset()
    for frame in all_frames:
        out |= frame.signature(text)
    return out


def asked_facets(all_frames: list[TopicFrame], history: list[HistoryItem]) -> set[str | None]:
    """Facets some earlier question belonged to (its recorded facet, else its words); ``None`` in the
    set = some earlier question was about the subject as a whole (or no facet)."""
    known = set(facet_names(all_frames))
    asked: set[str | None] = set()
    for item in history:
        asked.add(item.facet if item.facet in known else facet_of(item.text, all_frames))
    return asked


def on_topic(text: str, all_frames: list[TopicFrame], user_questions: list[str]) -> bool:
    """Does a candidate share a key term with a topic, its facets or a user question?"""
    return any(frame.is_relevant(text, extra=tuple(user_questions)) for frame in all_frames)
