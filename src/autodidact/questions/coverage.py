"""Is a question already answered well by the wiki? (seed 000 step 4, filter 2, docs/seeds.md)

Why read ``wiki/*.md`` directly: the questioner may not import the wiki package (layers), and the
articles are the truth anyway. "Well covered" is deliberately strict, because dropping a question
wrongly loses research while keeping one only costs a search:

* only paragraphs that cite a raw file count — a statement without a source is not coverage
  (来源缺失 does not count, seed 000 (docs/seeds.md));
* one cited paragraph must hold at least :data:`MIN_COVERAGE` of the question's content features,
  the question must have at least three of them, and every intent it asks for (comparison,
  limitation, …) must be visible in that paragraph's wording.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

from autodidact.questions.similarity import Features, features
from autodidact.store.filememo import FileMemo, FolderMemo

MIN_COVERAGE = 0.85
MIN_CONTENT = 3
_CITATION = re.compile(r"[（(]\s*(?:来源|source|sources)\s*[：:]\s*[^)）]+[)）]", re.I)
# Words that show a paragraph speaks to an intent; #def is satisfied by any definitional sentence.
_INTENT_CUES: dict[str, re.Pattern[str]] = {
    "#def": re.compile(r"\b(?:is|are|means|refers to)\b|是|指", re.I),
    "#how": re.compile(r"\b(?:works?|when|calls?|runs?|executes?|mechanism)\b|原理|机制|执行|调用|运行", re.I),
    "#why": re.compile(r"\b(?:because|so that|reason|purpose|in order to)\b|因为|为了|原因|目的", re.I),
    "#cmp": re.compile(r"\b(?:unlike|whereas|differs?|difference|compared|than|instead)\b|不同|区别|相比|而", re.I),
    "#lim": re.compile(r"\b(?:cannot|can't|limit\w*|only|drawback|not supported|error)\b|不能|无法|限制|局限|只", re.I),
    "#use": re.compile(r"\b(?:use|used|useful|when|suitable|for example)\b|适合|适用|场景|用于", re.I),
    "#ex": re.compile(r"\b(?:example|e\.g\.|for instance)\b|例如|示例|比如|>>>", re.I),
}


@dataclass(frozen=True)
class Passage:
    """One cited paragraph of an article."""

    article: str
    text: str
    content: frozenset[str]


@dataclass(frozen=True)
class FilePassages:
    """One article's cited passages, with every content feature any of them has: a question that
    shares none with the article skips all of its passages at once (:func:`covered_in`)."""

    passages: tuple[Passage, ...]
    features: frozenset[str]


_PASSAGES: FileMemo[FilePassages] = FileMemo()  # article file → its cited passages


def passages_of(stem: str, text: str) -> list[Passage]:
    """The cited paragraphs (and list items) of one article's text."""
    return [
        Passage(stem, block, features(block).content)
        for block in re.split(r"\n\s*\n|\n(?=\s*[-*] )", text)
        if _CITATION.search(block)
    ]


def cited_passages(wiki_dir: Path) -> list[Passage]:
    """Every paragraph (or list item) of ``wiki/*.md`` that cites a source; INDEX.md excluded.

    A file whose content did not change keeps its passages (their features are the costly part, and
    a round changes few articles; store/filememo.py)."""
    return list(chain.from_iterable(group.passages for group in cited_groups(wiki_dir)))


def cited_groups(wiki_dir: Path) -> list[FilePassages]:
    """:func:`cited_passages` by article file, in the same order."""
    try:
        # Names only (no file types), so the listing holds while no name is created, removed or
        # renamed in the folder (store/filememo.py, FolderMemo).
        names = _LISTINGS.get(wiki_dir, lambda: (_passage_names(wiki_dir), True))
    except (FileNotFoundError, NotADirectoryError, PermissionError):  # as pathlib.glob did
        return []
    # Only the files changed since the last pass are looked at (store/filememo.py, pass_over); a
    # file that cannot be read or decoded is left out.
    return _PASSAGES.pass_over(wiki_dir, names, _file_passages, skip=(OSError, UnicodeDecodeError))


_LISTINGS: FolderMemo[tuple[str, ...]] = FolderMemo()


def _passage_names(wiki_dir: Path) -> tuple[str, ...]:
    with os.scandir(wiki_dir) as listing:
        return tuple(sorted(e.name for e in listing if e.name.endswith(".md") and e.name != "INDEX.md"))


def _file_passages(name: str) -> Callable[[bytes, str], FilePassages]:
    def read(data: bytes, _digest: str) -> FilePassages:
        passages = tuple(passages_of(Path(name).stem, _text(data)))
        return FilePassages(passages, frozenset(chain.from_iterable(p.content for p in passages)))

    return read


def _text(data: bytes) -> str:
    """What ``Path.read_text("utf-8")`` gives (strict UTF-8, universal newlines)."""
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def covered_in(question: str | Features, groups: list[FilePassages]) -> Passage | None:
    """:func:`covered_by` over the passages of ``groups`` in order, skipping each article whose
    passages share no content feature with the question (such a passage covers none of it)."""
    feats = question if isinstance(question, Features) else features(question)
    if len(feats.content) < MIN_CONTENT:
        return None
    content = feats.content
    for group in groups:
        if not content.isdisjoint(group.features) and (found := covered_by(feats, group.passages)) is not None:
            return found
    return None


def covered_by(question: str | Features, passages: Iterable[Passage]) -> Passage | None:
    """The cited paragraph that answers ``question`` well, if any."""
    feats = question if isinstance(question, Features) else features(question)
    if len(feats.content) < MIN_CONTENT:
        return None
    content, size = feats.content, len(feats.content)
    for passage in passages:
        # similarity.coverage, inlined with the same arithmetic: this loop runs over every cited
        # passage of the wiki for every candidate question, and most share no feature with it.
        if content.isdisjoint(passage.content) or len(content & passage.content) / size < MIN_COVERAGE:
            continue
        if all(_INTENT_CUES[i].search(passage.text) for i in feats.intents if i in _INTENT_CUES):
            return passage
    return None
