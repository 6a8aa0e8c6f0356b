"""A plain, dependable HTML → text fallback, and the page's heading outline (standard library only).

Why: trafilatura looks for an article's main content and, on tiny or unusual pages, may keep
nothing at all. This parser keeps every visible text node, drops scripts, styles and templates,
turns block elements into line breaks and headings into ``#`` lines, so the extractor always has
something honest to return.

It also records each heading with the text blocks that follow it (:func:`html_headings`): when
trafilatura drops headings — it does for DocBook pages, whose h1–h3 sit in nested ``titlepage``
divs — the extractor puts them back where their following text landed (docs/sections.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

_SKIP = {"script", "style", "template", "noscript", "svg", "head"}
_BLOCK = {
    "p", "div", "section", "article", "main", "header", "footer", "nav", "aside", "ul", "ol", "li",
    "table", "tr", "br", "hr", "pre", "blockquote", "dl", "dt", "dd", "figure", "figcaption", "form",
}  # fmt: skip
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_MAX_BLOCKS = 40  # text blocks kept per heading as anchors
_MIN_BLOCK_LETTERS = 12  # shorter blocks ("Note", "Tip") are poor anchors
# A table of contents is links (a paragraph with one long link is not), and the extraction drops it.
_MAX_LINK_SHARE = 0.8


@dataclass
class HtmlHeading:
    """One h1–h6 of a page: level, title, and the text blocks up to the next heading.

    ``blocks`` are the first text blocks after the heading, in page order, that can anchor it:
    blocks of a few letters and blocks mostly made of links (a table of contents) are left out.
    """

    level: int
    title: str
    blocks: list[str] = field(default_factory=list)


class _TextParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title_parts: list[str] = []
        self._skip_depth = 0
        self._in_title = False
        self._pre = 0
        self.headings: list[HtmlHeading] = []
        self._heading: list[str] | None = None  # title parts while inside h1–h6
        self._heading_level = 0
        self._block: list[str] = []
        self._block_link_letters = 0
        self._links = 0

    def _flush_block(self) -> None:
        text = " ".join("".join(self._block).split())
        letters = sum(1 for ch in text if ch.isalpha())
        usable = letters >= _MIN_BLOCK_LETTERS and self._block_link_letters < _MAX_LINK_SHARE * letters
        if usable and self.headings and len(self.headings[-1].blocks) < _MAX_BLOCKS:
            self.headings[-1].blocks.append(text)
        self._block, self._block_link_letters = [], 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
        if tag in _SKIP:
            self._skip_depth += 1
            return
        if self._skip_depth:
            return
        if tag == "pre":
            self._pre += 1
        if tag == "a" and any(k == "href" for k, _ in attrs):
            self._links += 1
        if tag in _HEADINGS:
            self._flush_block()
            self._heading, self._heading_level = [], _HEADINGS[tag]
            self.parts.append("\n\n" + "#" * _HEADINGS[tag] + " ")
        elif tag in _BLOCK:
            self._flush_block()
            self.parts.append("\n")
        elif tag in {"td", "th"}:
            self.parts.append(" ")
            self._block.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if tag in _SKIP:
            self._skip_depth = max(0, self._skip_depth - 1)
            return
        if self._skip_depth:
            return
        if tag == "pre":
            self._pre = max(0, self._pre - 1)
        if tag == "a" and self._links:
            self._links -= 1
        if tag in _HEADINGS and self._heading is not None:
            title = " ".join("".join(self._heading).split())
            if title:
                self.headings.append(HtmlHeading(self._heading_level, title))
            self._heading = None
        elif tag in _BLOCK:
            self._flush_block()
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
        if self._heading is not None:
            self._heading.append(data)
        else:
            self._block.append(data)
            if self._links:
                self._block_link_letters += sum(1 for ch in data if ch.isalpha())


def _parse(html: str) -> _TextParser:
    parser = _TextParser()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # HTMLParser is tolerant; keep whatever was parsed before a failure
        pass
    parser._flush_block()
    return parser


def html_headings(html: str) -> list[HtmlHeading]:
    """The page's h1–h6 in order, each with the text blocks that follow it (never raises)."""
    return _parse(html).headings


def html_to_text(html: str) -> tuple[str | None, str]:
    """(title, visible text) of an HTML document; never raises on malformed markup."""
    title, text, _ = parse_html(html)
    return title, text


def parse_html(html: str) -> tuple[str | None, str, list[HtmlHeading]]:
    """(title, visible text, headings) in one pass; never raises on malformed markup."""
    parser = _parse(html)
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
    return title, "\n".join(paragraphs), parser.headings
