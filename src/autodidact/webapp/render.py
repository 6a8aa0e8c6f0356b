"""Markdown to safe HTML for the wiki, the reports and the sources.

Why rewrite the markdown before rendering rather than the HTML after: ``[[links]]`` and
``(source: x.md)`` citations become ordinary markdown links, so markdown-it (with raw HTML off)
escapes every character that came from a source, and the only tags on the page are its own. The
one HTML pass (:func:`link_report_refs`) inserts anchors around ``[N]`` text that markdown-it
already escaped.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from urllib.parse import quote

from markdown_it import MarkdownIt

from autodidact.wiki.common.markdown import CITATION_RE, WIKILINK_RE, citations

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+|^\s*>\s*|^#+\s+")
_REF_NUMBER = re.compile(r"\[(\d{1,4})\]")


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


_MD = _markdown()


def strip_front_matter(text: str) -> str:
    """The article without its YAML header (title, sources, dates are shown elsewhere)."""
    return _FRONT_MATTER.sub("", text, count=1)


def _label(text: str) -> str:
    """Text safe inside a markdown link label (brackets and backslashes escaped)."""
    return re.sub(r"([\\\[\]*_`<>])", r"\\\1", text)


def quote_before(line: str, start: int) -> str:
    """The statement a citation at ``start`` of ``line`` backs: the last sentence before it.

    Why the last sentence: the wiki writes one citation per statement, right after it, so the
    quoted passage is what stands between the previous sentence end (or citation) and this one.
    """
    head = CITATION_RE.sub("\x00", line[:start]).split("\x00")[-1]
    head = WIKILINK_RE.sub(lambda m: (m.group(2) or m.group(1)).strip(), head)  # the source has the label only
    head = _LIST_MARK.sub("", head).strip()
    pieces = [p for p in _SENTENCE_END.split(head) if p.strip()]
    text = pieces[-1].strip() if pieces else head
    return text.replace("**", "").replace("`", "").strip()


def _link_citations(line: str) -> str:
    out: list[str] = []
    last = 0
    for match in CITATION_RE.finditer(line):
        passage = quote_before(line, match.start())
        # a name cited as a link (``[x.md](../raw/x.md)``, what the compile writes) or plainly
        names = citations(match.group(0))
        links = []
        for name in names:
            name = name.removeprefix("raw/")
            href = f"/source/{quote(name)}" + (f"?q={quote(passage)}" if passage else "")
            links.append(f"[{_label(name)}](<{href}>)")
        opening, closing = match.group(0)[0], match.group(0)[-1]
        word = "来源：" if opening == "（" else "source: "
        out.append(line[last : match.start()])
        out.append(f"{opening}{word}{('、' if opening == '（' else ', ').join(links)}{closing}")
        last = match.end()
    out.append(line[last:])
    return "".join(out)


def _link_wikilinks(line: str) -> str:
    def repl(match: re.Match[str]) -> str:
        target, label = match.group(1).strip(), (match.group(2) or match.group(1)).strip()
        return f"[{_label(label)}](</wiki/{quote(target)}>)"

    return WIKILINK_RE.sub(repl, line)


def wiki_html(markdown: str) -> str:
    """An article or INDEX.md as HTML: links navigable, citations opening their source at the quote."""
    body = strip_front_matter(markdown)
    lines = [_link_wikilinks(_link_citations(line)) for line in body.splitlines()]
    return str(_MD.render("\n".join(lines)))


def plain_html(markdown: str) -> str:
    """Markdown (a summary, a debate summary) as escaped HTML, nothing rewritten."""
    return str(_MD.render(markdown))


def report_html(markdown: str) -> str:
    """A report as HTML with each ``[N]`` linking to reference N, and each reference linking back."""
    return link_report_refs(str(_MD.render(strip_front_matter(markdown))))


def link_report_refs(rendered: str) -> str:
    """Anchor ``[N]`` in the body (``cite-N-k``) and the ``[N]`` that opens reference N (``ref-N``).

    The references are the paragraphs after the last ``References``/``参考文献`` heading; each gets
    back links to every place that cites it.
    """
    heading = max(rendered.rfind(">References</h2>"), rendered.rfind(">参考文献</h2>"))
    body, refs = (rendered, "") if heading < 0 else (rendered[:heading], rendered[heading:])
    seen: dict[str, int] = {}

    def cite(match: re.Match[str]) -> str:
        n = match.group(1)
        seen[n] = seen.get(n, 0) + 1
        return f'<a class="cite" id="cite-{n}-{seen[n]}" href="#ref-{n}">[{n}]</a>'

    body = re.sub(r"(?<![\w\]])\[(\d{1,4})\](?!\()", cite, body)

    def reference(match: re.Match[str]) -> str:
        n = match.group(1)
        back = " ".join(f'<a class="back" href="#cite-{n}-{k}">↩{k}</a>' for k in range(1, seen.get(n, 0) + 1))
        return f'<p id="ref-{n}">[{n}] {back} '

    refs = re.sub(r"<p>\[(\d{1,4})\] ", reference, refs)
    return body + refs


@dataclass(frozen=True)
class Highlighted:
    """A text file as escaped HTML with the quoted passage in ``<mark id="quote">`` (``found`` says if it was)."""

    html: str
    found: bool


def _loose(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def highlight(text: str, passage: str | None) -> Highlighted:
    """Escape ``text`` and mark the first place ``passage`` stands in it (whitespace-insensitive).

    Why whitespace-insensitive: a wiki statement joins lines that the source wraps; the match runs
    over a copy with runs of whitespace collapsed, then maps back to the original offsets.
    """
    if not passage or not passage.strip():
        return Highlighted(html.escape(text), False)
    target = _loose(passage)
    index: list[int] = []
    squeezed: list[str] = []
    prev_space = False
    for i, ch in enumerate(text):
        if ch.isspace():
            if prev_space:
                continue
            prev_space = True
            squeezed.append(" ")
        else:
            prev_space = False
            squeezed.append(ch)
        index.append(i)
    flat = "".join(squeezed)
    at = flat.find(target)
    if at < 0:
        at = flat.casefold().find(target.casefold())
    if at < 0 and target.endswith((".", "。")):
        target = target[:-1]
        at = flat.find(target)
    if at < 0:
        return Highlighted(html.escape(text), False)
    start, end = index[at], index[at + len(target) - 1] + 1
    marked = (
        html.escape(text[:start]) + '<mark id="quote">' + html.escape(text[start:end]) + "</mark>"
        + html.escape(text[end:])
    )  # fmt: skip
    return Highlighted(marked, True)


def snapshot_of(raw_text: str) -> str | None:
    """The snapshot path a raw file names in its header (``> 快照: source_cache/…``), if any."""
    match = re.search(r"^>\s*(?:快照|snapshot)\s*[:：]\s*(\S+)", raw_text, re.MULTILINE | re.IGNORECASE)
    return match.group(1) if match else None
