"""``wiki/INDEX.md``: every article with a one-line description (docs/contracts.md §1.1).

Why generated whole: the index is a projection of the articles, so rebuilding it from them after
each compile is the only way it cannot drift; it is rewritten only when its text changes. An
article's line is remembered while the parts it is made from (title, summary, body) are unchanged,
so a compile describes only the articles it changed.
"""

from __future__ import annotations

from operator import itemgetter

from autodidact.wiki.common.articles import Article, derived_of
from autodidact.wiki.common.markdown import (
    MARKER_RE,
    is_auto_summary,
    normalize_key,
    render_link,
    split_sentences,
    strip_bullet,
    strip_citations,
    strip_emphasis,
    summary_worthy,
    tokens,
)
from autodidact.wiki.common.memo import ContentMemo

INDEX_TITLES = {"zh": "知识库索引", "en": "Index"}
EMPTY = {"zh": "（尚无文章）", "en": "(no articles yet)"}


_DESCRIPTIONS: ContentMemo[str] = ContentMemo()


def describe(art: Article, limit: int = 90) -> str:
    """:func:`describe_article`, remembered per article while its title, summary and sections are unchanged.

    The key holds every section, the related-links one too (which the description does not read):
    a change there describes the article again for nothing, but telling the body's sections apart
    for the key cost more, in every round, for every article of the wiki."""
    key = (art.title, art.summary, limit, tuple([(s.heading, *s.blocks) for s in art.sections]))
    return _DESCRIPTIONS.get(art.stem, key, lambda: describe_article(art, limit))


def describe_article(art: Article, limit: int = 90) -> str:
    """A one-line description: the summary's first stand-alone sentence (after the framing line).

    Stand-alone = complete, not a changelog note (:func:`summary_worthy`); one naming the article's
    subject is preferred. Without any, the first sentence of the summary or the body is used.
    """
    sentences = [strip_emphasis(s) for s in split_sentences(strip_citations(art.summary)) if s.strip("（）() ")]
    if is_auto_summary(art.summary) and len(sentences) > 1:
        sentences = sentences[1:]
    body: list[str] = []
    for sec in art.body_sections():
        for blk in sec.blocks:
            if not MARKER_RE.match(blk):
                body.extend(strip_emphasis(s) for s in split_sentences(strip_citations(strip_bullet(blk))))
    terms = set(tokens(art.title))
    worthy = [s for s in [*sentences, *body] if summary_worthy(s)]
    about = [s for s in worthy if set(tokens(s)) & terms]
    fallback = sentences or body[:1]
    text = " ".join(((about or worthy or fallback) or [art.title])[0].split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def render_index(articles: list[Article], lang: str) -> str:
    """The index text, articles sorted by title."""
    lines = [f"# {INDEX_TITLES[lang]}", ""]
    rows = sorted((derived_of(art, "index row", index_row) for art in articles), key=itemgetter(0))
    if not rows:
        lines.append(EMPTY[lang])
    lines.extend(line for _, line in rows)
    return "\n".join(lines) + "\n"


def index_row(art: Article) -> tuple[tuple[str, str], str]:
    """An article's place in the index (its title's key, then its stem) and its line; kept with the
    parsed file for an article the compile did not edit (wiki/common/articles.derived_of)."""
    return (normalize_key(art.title), art.stem), f"- {render_link(art.stem, art.title)} — {describe(art)}"
