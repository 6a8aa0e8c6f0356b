"""A plain, dependable HTML → text fallback (standard library only).

Why: trafilatura looks for an article's main content and, on tiny or unusual pages, may keep
nothing at all. This parser keeps every visible text node, drops scripts, styles and templates,
turns block elements into line breaks and headings into ``#`` lines, so the extractor always has
something honest to return.
"""

from __future__ import annotations

from html.parser import HTMLParser

_SKIP = {"script", "style", "template", "noscript", "svg", "head"}
_BLOCK = {
    "p", "div", "section", "article", "main", "header", "footer", "nav", "aside", "ul", "ol", "li",
    "table", "tr", "br", "hr", "pre", "blockquote", "dl", "dt", "dd", "figure", "figcaption", "form",
}  # fmt: skip
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}


class _TextParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title_parts: list[str] = []
        self._skip_depth = 0
        self._in_title = False
        self._pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
        if tag in _SKIP:
            self._skip_depth += 1
            return
        if tag == "pre":
            self._pre += 1
        if tag in _HEADINGS:
            self.parts.append("\n\n" + "#" * _HEADINGS[tag] + " ")
        elif tag in _BLOCK:
            self.parts.append("\n")
        elif tag in {"td", "th"}:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if tag in _SKIP:
            self._skip_depth = max(0, self._skip_depth - 1)
            return
        if tag == "pre":
            self._pre = max(0, self._pre - 1)
        if tag in _HEADINGS or tag in _BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title_parts.append(data)
        if self._skip_depth:
            return
        if self._pre:
            self.parts.append(data)
        else:
            self.parts.append(" ".join(data.split()) + (" " if data[-1:].isspace() else ""))


def html_to_text(html: str) -> tuple[str | None, str]:
    """(title, visible text) of an HTML document; never raises on malformed markup."""
    parser = _TextParser()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # HTMLParser is tolerant; keep whatever was parsed before a failure
        pass
    title = " ".join("".join(parser.title_parts).split()) or None
    raw_lines = "".join(parser.parts).split("\n")
    lines = [line.rstrip() if line.startswith("    ") else line.strip() for line in raw_lines]
    paragraphs: list[str] = []
    blank = False
    for line in lines:
        if not line.strip():
            blank = True
            continue
        if blank and paragraphs:
            paragraphs.append("")
        paragraphs.append(line)
        blank = False
    return title, "\n".join(paragraphs)
