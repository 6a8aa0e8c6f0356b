"""Links between articles: an article that mentions another's title or alias links to it.

Why a "Related" section instead of rewriting sentences: statements are quotes from sources, so
compile does not edit their words; the links go in a ``相关主题`` / ``Related`` section as Obsidian
``[[stem|Title]]`` links that always point at an existing file (compile never leaves a dangling
link). Only touched articles are re-scanned in full; untouched ones only gain links to new
articles, so adding a file changes just the articles it touches (and those that mention its topic).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from autodidact.wiki.common.articles import RELATED_HEADINGS, Article, Section, derived_of, resolver
from autodidact.wiki.common.markdown import has_cjk, normalize_key, render_link, tokens, wikilinks
from autodidact.wiki.common.memo import ContentMemo


def _mentionable(name: str) -> bool:
    """Whether a name is long enough to be looked for in other articles (see :func:`_mention_pattern`)."""
    name = name.strip()
    return len(name) >= (2 if has_cjk(name) else 3)


def _mention_pattern(name: str) -> re.Pattern[str] | None:
    name = name.strip()
    if not _mentionable(name):
        return None
    escaped = re.escape(name)
    if has_cjk(name):
        return re.compile(escaped, re.I)
    return re.compile(rf"(?<![\w]){escaped}(?![\w])", re.I)


def body_text(art: Article) -> str:
    """Summary and body sections, without the Related section."""
    parts = [art.summary]
    for sec in art.body_sections():
        parts.append(sec.heading)
        parts.extend(sec.blocks)
    return "\n".join(parts)


_TOKEN_SETS: ContentMemo[frozenset[str]] = ContentMemo()  # stem → the tokens of its body text
_NAME_TOKENS: ContentMemo[frozenset[str]] = ContentMemo()  # name → its tokens


def _token_set(stem: str, text: str) -> frozenset[str]:
    return _TOKEN_SETS.get(stem, text, lambda: frozenset(tokens(text)))


def _name_tokens(name: str) -> frozenset[str]:
    return _NAME_TOKENS.get(name, name, lambda: frozenset(tokens(name)))


def mention_names(art: Article) -> tuple[tuple[str, frozenset[str]], ...]:
    """The article's distinct names (title, then aliases) long enough to look for, with their tokens."""
    return tuple(
        (name, toks)
        for name in dict.fromkeys([art.title, *art.aliases])
        if _mentionable(name) and (toks := _name_tokens(name))
    )


def mentions(articles: dict[str, Article], touched: set[str], new: set[str]) -> dict[str, set[str]]:
    """``source → targets``: the articles whose title or an alias ``source``'s body mentions.

    Only pairs that can change are looked at: a touched source is read for every target, and every
    source is read for a new target; an untouched source and an old target were linked before.
    A mention needs all of the name's tokens in the source (token sets are remembered per article
    text), then the whole name as a word."""
    links: dict[str, set[str]] = {stem: set() for stem in articles}
    texts: dict[str, str] = {}

    def text_of(stem: str) -> str:
        if stem not in texts:
            texts[stem] = body_text(articles[stem])
        return texts[stem]

    touched_postings: dict[str, set[str]] = {}
    for stem in touched:
        if stem in articles:
            for tok in _token_set(stem, text_of(stem)):
                touched_postings.setdefault(tok, set()).add(stem)
    every: list[tuple[str, frozenset[str]]] | None = None
    posted = touched_postings.keys()
    for target in sorted(articles):
        for name, toks in derived_of(articles[target], "mention names", mention_names):
            if target in new:
                if every is None:
                    every = [(stem, _token_set(stem, text_of(stem))) for stem in articles]
                cands = {stem for stem, have in every if toks <= have}
            else:
                if not posted >= toks:  # a token no touched article has: no touched article mentions it
                    continue
                sets = sorted((touched_postings.get(t, set()) for t in toks), key=len)
                cands = set.intersection(*sets)
            cands.discard(target)
            if not cands:
                continue
            pattern = _mention_pattern(name)
            assert pattern is not None
            for source in cands:
                if pattern.search(text_of(source)):
                    links[source].add(target)
    return links


def relink(
    articles: dict[str, Article],
    touched: set[str],
    new: set[str],
    lang: str,
    edit: Callable[[str], Article] | None = None,
) -> set[str]:
    """Update Related sections; returns the stems whose Related section changed.

    ``edit(stem)`` gives the article to change (wiki/compile/edits.py: the parsed article is read,
    a copy is edited); without it, ``articles[stem]`` is edited in place."""
    if not touched and not new:
        return set()
    edit = edit or articles.__getitem__
    names = resolver(articles)
    links = mentions(articles, touched, new)
    changed: set[str] = set()
    for stem in articles:
        if stem not in touched and not links[stem]:
            continue
        art = articles[stem]
        related = next((s for s in art.sections if s.is_related), None)
        targets = [t for b in (related.blocks if related else []) for t in wikilinks(b)]
        existing = {names.get(normalize_key(t), "") for t in targets}
        existing = {s for s in existing if s in articles and s != stem}
        wanted = existing | links[stem]
        if not wanted:
            continue
        ordered = sorted(wanted, key=lambda s: (normalize_key(articles[s].title), s))
        blocks = [f"- {render_link(s, articles[s].title)}" for s in ordered]
        if related is None:
            edit(stem).sections.append(Section(RELATED_HEADINGS[lang], blocks))
            changed.add(stem)
        elif related.blocks != blocks:
            copy = edit(stem)
            next(s for s in copy.sections if s.is_related).blocks = blocks
            changed.add(stem)
    return changed
