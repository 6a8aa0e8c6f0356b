"""A memory of one derived value per name, reused while the content it came from is unchanged.

Why: a round re-reads the whole wiki, but changes a few articles; a value computed from one
article (its INDEX.md line, its search tokens) can be reused as long as the article's content is
the same. The key *is* the content (or a tuple of it), compared for equality, so a reused value is
always the one a fresh computation gives. One entry per name keeps the memory proportional to the
wiki, not to its history.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")

_LIMIT = 100_000  # names remembered before the memory starts over (a process may open many wikis)


class ContentMemo(Generic[V]):
    """``name → (content key, value)``; :meth:`get` recomputes only when the key differs."""

    def __init__(self) -> None:
        self._entries: dict[Hashable, tuple[Hashable, V]] = {}
        self.computed = 0  # tests read it

    def get(self, name: Hashable, key: Hashable, compute: Callable[[], V]) -> V:
        hit = self._entries.get(name)
        if hit is not None and hit[0] == key:
            return hit[1]
        self.computed += 1
        value = compute()
        if len(self._entries) >= _LIMIT:
            self._entries.clear()
        self._entries[name] = (key, value)
        return value
