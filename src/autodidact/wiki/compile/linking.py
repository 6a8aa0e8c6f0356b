"""Links between articles: an article that mentions another's title or alias links to it.

Why a "Related" section instead of rewriting sentences: statements are quotes from sources, so
compile does not edit their words; the links go in a ``相关主题`` / ``Related`` section as Obsidian
``[[stem|Title]]`` links that always point at an existing file (compile never leaves a dangling
link). Only touched articles are re-scanned in full; untouched ones only gain links to new
articles, so adding a file changes just the articles it touches (and those that mention its topic).
"""

from __future__ import annotations

import re

from autodidact.wiki.common.articles import RELATED_HEADINGS, Article, Section, resolver
from autodidact.wiki.common.markdown import has_cjk, normalize_key, render_link, tokens, wikilinks


def _mention_pattern(name: str) -> re.Pattern[str] | None:
    name = name.strip()
    if len(name) < (2 if has_cjk(name) else 3):
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


def relink(articles: dict[str, Article], touched: set[str], new: set[str], lang: str) -> set[str]:
    """Update Related sections; returns the stems whose Related section changed."""
    if not touched and not new:
        return set()
    names = resolver(articles)
    texts = {stem: body_text(a) for stem, a in articles.items()}
    postings: dict[str, set[str]] = {}
    for stem, text in texts.items():
        for tok in set(tokens(text)):
            postings.setdefault(tok, set()).add(stem)
    links: dict[str, set[str]] = {stem: set() for stem in articles}
    for target in sorted(articles):
        art = articles[target]
        for name in dict.fromkeys([art.title, *art.aliases]):
            pattern = _mention_pattern(name)
            toks = set(tokens(name))
            if pattern is None or not toks:
                continue
            sets = sorted((postings.get(t, set()) for t in toks), key=len)
            cands = set.intersection(*sets) if sets else set()
            for source in cands:
                if source == target or (source not in touched and target not in new):
                    continue
                if pattern.search(texts[source]):
                    links[source].add(target)
    changed: set[str] = set()
    for stem, art in articles.items():
        if stem not in touched and not links[stem]:
            continue
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
            art.sections.append(Section(RELATED_HEADINGS[lang], blocks))
            changed.add(stem)
        elif related.blocks != blocks:
            related.blocks = blocks
            changed.add(stem)
    return changed
