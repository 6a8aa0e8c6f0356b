"""The articles one compile sees: each the parsed file until the compile edits it, then a copy.

Why: a compile edits a handful of articles, but its whole-wiki steps (the topic map, the placer,
relink, INDEX.md) read every article. Copying every article first made each round pay for the
whole wiki (docs/architecture.md, "Incremental rounds"). The parsed articles are shared by every
reader of the same file content and must never be edited, so whatever edits one asks
:meth:`WikiEdits.edit` for it first, and gets its own copy.
"""

from __future__ import annotations

from autodidact.wiki.common.articles import Article, WikiFile, clone_article


class WikiEdits:
    """``articles``: stem → the article as this compile has it; ``before``: stem → the file as read."""

    def __init__(self, files: list[WikiFile]) -> None:
        self.articles: dict[str, Article] = {f.stem: f.article for f in files}
        self.before: dict[str, WikiFile] = {f.stem: f for f in files}

    def edit(self, stem: str) -> Article:
        """The article to edit: on first use a copy replaces the parsed file's shared article."""
        art = self.articles[stem]
        read = self.before.get(stem)
        if read is not None and read.article is art:
            art = clone_article(art)
            self.articles[stem] = art
        return art

    def rendered_before(self, stem: str) -> str | None:
        """The article's text as read (``render_article`` of the parsed file), None for a new one."""
        read = self.before.get(stem)
        return read.rendered() if read is not None else None
