"""Bytes of a document in, readable UTF-8 text out (HTML, PDF, plain text, markdown).

Why one function: the fetcher, ``autodidact add`` and the raw-file scanner all receive bytes with
a (possibly wrong) declared type. Everything downstream — snapshots, quotes, search — works on the
text this returns, so it must be deterministic and honest:

* the content is sniffed over the declared type (a PDF served as ``text/html`` is a PDF);
* the charset comes from a BOM, the HTTP header, ``<meta charset>``, strict UTF-8, or detection,
  in that order, so GBK/GB2312/Big5 pages decode to the right characters;
* HTML becomes markdown-like text via trafilatura, with a plain tag-stripping fallback when
  trafilatura keeps nothing (tiny pages); h1–h3 are always ``#``–``###`` lines — put back where
  trafilatura dropped them — and any other line starting with ``#`` (a shell prompt in a code
  block) is escaped as ``\#``, so sections derive from the text alone (docs/sections.md);
* PDF becomes text with ``[page N]`` markers, via pypdf;
* an encrypted, corrupt or empty document raises :class:`SourceError` naming the source, so the
  caller stores nothing.
"""

from __future__ import annotations

import codecs
import io
import logging
import re
import unicodedata
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from autodidact.errors import SourceError
from autodidact.sources.htmltext import HtmlHeading, parse_html
from autodidact.sources.plaintext import readable_plain

MEDIA_HTML = "text/html"
MEDIA_PDF = "application/pdf"
MEDIA_TEXT = "text/plain"
MEDIA_MARKDOWN = "text/markdown"

_HTML_TYPES = {"text/html", "application/xhtml+xml", "application/xml", "text/xml"}
_TEXT_TYPES = {"text/plain", "text/markdown", "text/x-markdown", "text/x-rst", "text/csv"}
_MARKDOWN_EXT = (".md", ".markdown", ".mdown")
_HTML_EXT = (".html", ".htm", ".xhtml")
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# Labels browsers treat as supersets (WHATWG encoding standard): decode with the superset.
_CHARSET_ALIASES = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "gb_2312-80": "gb18030",
    "big5": "big5hkscs",
    "x-x-big5": "big5hkscs",
    "iso-8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
}
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_\-:.]+)""", re.I)
_HTML_SNIFF = re.compile(rb"^\s*(<!doctype\s+html|<html|<head|<body|<\?xml[^>]*>\s*(<!doctype\s+html|<html))", re.I)
_HTML_TAGS = re.compile(rb"<(html|head|body|title|p|div|h1|h2|article|meta)[\s>/]", re.I)
_HASH_LINE = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")
_ANCHOR_LETTERS = 40  # letters of a following text block that locate a heading in the extracted text
_MIDLINE_FENCE = re.compile(r"(?<=[^\n])(```|~~~)[ \t]*\n")
_LOOKAHEAD = 3  # headings ahead whose text bounds where a heading may be placed
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@dataclass(frozen=True)
class Extracted:
    """Readable text of one document plus what could be learned about it."""

    text: str
    title: str | None
    author: str | None
    date: str | None
    media_type: str


def _source_name(url: str | None, filename: str | None) -> str:
    return url or filename or "document"


def _split_media_type(media_type: str | None) -> tuple[str, str | None]:
    """``text/html; charset=GBK`` → (``text/html``, ``gbk``)."""
    if not media_type:
        return "", None
    parts = [p.strip() for p in media_type.split(";")]
    charset = None
    for part in parts[1:]:
        key, _, value = part.partition("=")
        if key.strip().lower() == "charset" and value.strip():
            charset = value.strip().strip("\"'").lower()
    return parts[0].lower(), charset


# Codecs Python knows that are not a charset a page can be written in: transforms (base64, hex,
# zlib, rot13 are not text encodings at all), and these text codecs, which a declared charset never
# legitimately names and some of which fail on any input ("undefined").
_NOT_A_CHARSET = frozenset({"undefined", "punycode", "idna", "unicode-escape", "raw-unicode-escape", "mbcs", "oem"})


def _codec(label: str | None) -> str | None:
    """A Python text codec for a charset label, or None if unknown or not a text encoding.

    Why: a hostile ``charset=base64`` (or ``<meta charset=zlib>``) must not reach ``bytes.decode``
    — it raised out of the whole run, on every resume (docs/hardening.md, "Charsets").
    """
    if not label:
        return None
    label = label.strip().lower()
    label = _CHARSET_ALIASES.get(label, label)
    try:
        info = codecs.lookup(label)
    except LookupError:
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_A_CHARSET:
        return None
    return info.name


# "\x00\x08[index\x00\x08]": how makeinfo marks an index entry in a node's text (find.info-2.gz);
# a manual's part that holds its index was refused as binary data.
_INFO_MARKS = re.compile(rb"\x00\x08[\[\]]")


def sniff(data: bytes, declared: str, filename: str | None) -> str:
    """The media type the bytes really are: PDF, HTML, markdown or plain text ('' if binary)."""
    head = data[:4096]
    if head.lstrip()[:5] == b"%PDF-":
        return MEDIA_PDF
    if any(head.startswith(bom) for bom, _ in _BOMS):
        stripped = head
        for bom, enc in _BOMS:
            if head.startswith(bom):
                stripped = head[len(bom) :].decode(enc, "ignore").encode("utf-8", "ignore")
                break
        head = stripped
    elif b"\x00" in _INFO_MARKS.sub(b"", head):  # an Info manual's index entries are marked by NULs
        return ""
    if _HTML_SNIFF.match(head):
        return MEDIA_HTML
    name = (filename or "").lower()
    if declared in _HTML_TYPES or name.endswith(_HTML_EXT):
        return MEDIA_HTML if _HTML_TAGS.search(head) else MEDIA_TEXT
    if declared in {"text/markdown", "text/x-markdown"} or name.endswith(_MARKDOWN_EXT):
        return MEDIA_MARKDOWN
    if declared == MEDIA_PDF or name.endswith(".pdf"):
        return MEDIA_PDF  # claims to be a PDF but lacks the header: reported as corrupt
    if declared and declared not in _TEXT_TYPES and not declared.startswith("text/"):
        return ""
    return MEDIA_TEXT


def decode_text(data: bytes, header_charset: str | None = None, *, html: bool = False) -> str:
    """Decode bytes: BOM, then the header charset, then ``<meta charset>``, then UTF-8, then detection."""
    for bom, enc in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(enc, "replace")
    candidates: list[str] = []
    header = _codec(header_charset)
    if header:
        candidates.append(header)
    if html:
        match = _META_CHARSET.search(data[:8192])
        meta = _codec(match.group(1).decode("ascii", "ignore")) if match else None
        if meta and meta not in candidates:
            candidates.append(meta)
    for enc in candidates:
        try:
            return data.decode(enc)
        except (UnicodeError, LookupError, ValueError):
            continue
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    guessed = _guess_cjk(data)
    if guessed is not None:
        return guessed
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is not None and best.encoding:
        detected = _codec(best.encoding)
        if detected is not None:
            try:
                return data.decode(detected, "replace")
            except (UnicodeError, LookupError, ValueError):
                pass
    for enc in candidates:
        try:
            return data.decode(enc, "replace")
        except (UnicodeError, LookupError, ValueError):
            continue
    return data.decode("utf-8", "replace")


def _share(text: str, test: Callable[[str], bool]) -> float:
    wide = [ch for ch in text if ord(ch) > 0x7F]
    return sum(1 for ch in wide if test(ch)) / len(wide) if wide else 0.0


def _in_gb2312(ch: str) -> bool:
    try:
        ch.encode("gb2312")
        return True
    except UnicodeEncodeError:
        return False


def _ideograph_or_punct(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3000" <= ch <= "\u303f" or "\uff00" <= ch <= "\uffef"


def _guess_cjk(data: bytes) -> str | None:
    """Chinese without a label: statistical detectors misread short GBK text as Korean or Big5.

    Simplified Chinese decoded with the right codec lands almost entirely inside GB2312's ~7,500
    common characters; decoded with the wrong one it does not. Big5 is tried next (traditional
    text falls outside GB2312 but is all ideographs and CJK punctuation under Big5).
    """
    for codec, test in (("gb18030", _in_gb2312), ("big5hkscs", _ideograph_or_punct)):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if _share(text, test) >= 0.95:
            return text
    return None


def clean_text(text: str) -> str:
    """NFC, ``\\n`` line ends, no control characters or NUL, no trailing spaces, no blank runs."""
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))
    text = _CONTROL.sub("", text)
    text = "\n".join([line.rstrip() for line in text.split("\n")])
    # runs of blank lines cut to one: what re.sub(r"\n{3,}", "\n\n") gives, a few times faster
    # (each pass at C speed shortens every run of three or more; issue 18: every added file is cleaned)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip()


def _cap(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    cut = text.rfind("\n", 0, max_chars)
    return text[: cut if cut > max_chars // 2 else max_chars].rstrip()


def _letters(text: str) -> tuple[str, list[int]]:
    """Lowercased letters of ``text`` and the offset of each (markup, digits and spaces dropped).

    trafilatura writes ``**bold**``, backticks, ``\\`` escapes, list numbers and table pipes that
    the plain parser does not; letters alone are what both texts share.
    """
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if ch.isalpha():
            out.append(ch.lower())
            where.append(i)
    return "".join(out), where


def _skeleton(text: str) -> str:
    return "".join(ch.lower() for ch in text if ch.isalpha())


def _heading_lines(text: str) -> list[tuple[int, str]]:
    """(line start, title letters) of every ``#`` line of ``text``."""
    out: list[tuple[int, str]] = []
    pos = 0
    for line in text.split("\n"):
        match = _HASH_LINE.match(line)
        if match:
            out.append((pos, _skeleton(match.group(2))))
        pos += len(line) + 1
    return out


def _anchors(head: HtmlHeading, repeated: set[str]) -> list[str]:
    """The letters that locate ``head``'s text blocks; text repeated on the page (a warning box
    printed in every section) cannot say which section it belongs to and is left out."""
    out = [_skeleton(block)[:_ANCHOR_LETTERS] for block in head.blocks]
    return [a for a in out if a not in repeated]


def _first_found(letters: str, anchors: list[str], cursor: int) -> int:
    """Where the first of ``anchors`` found in ``letters`` (from ``cursor``) stands, or -1."""
    for anchor in anchors:
        at = letters.find(anchor, cursor)
        if at >= 0:
            return at
    return -1


def restore_headings(text: str, heads: list[HtmlHeading]) -> str:
    """``text`` with the page's h1–h3 as ``#`` lines and no other line starting with ``#``.

    A heading trafilatura kept stays. A dropped one goes before the line where a text block that
    followed it in the page begins, found by its letters, searching forward from the previous
    heading and never past the place of the next heading's first block (so order is kept and a
    phrase repeated later cannot pull a heading down). A heading whose text is not found goes
    just before the next heading that is placed; headings after the last placed one are left
    out. Lines starting with ``#`` that are not headings of the page are escaped ``\\#``.
    """
    letters, where = _letters(text)
    existing = _heading_lines(text)
    real = {_skeleton(h.title) for h in heads}
    outline = [h for h in heads if h.level <= 3]
    counts = Counter(a for h in heads for a in {_skeleton(b)[:_ANCHOR_LETTERS] for b in h.blocks})
    repeated = {a for a, n in counts.items() if n > 1}
    anchors = [_anchors(h, repeated) for h in outline]
    inserts: list[tuple[int, str]] = []
    kept: set[int] = set()
    cursor = 0  # in letters: the next heading's text is searched from here
    last = 0  # in characters: where the previous heading went
    waiting: list[HtmlHeading] = []  # placed together with the next heading that is found
    for i, head in enumerate(outline):
        waiting.append(head)
        found = -1
        # the next headings' text (a few of them) bounds where this one's may be
        ahead = (_first_found(letters, a, cursor) for a in anchors[i + 1 : i + 1 + _LOOKAHEAD] if a)
        limit = next((at for at in ahead if at >= 0), -1)
        for anchor in anchors[i]:
            at = letters.find(anchor, cursor)
            if at >= 0 and (limit < 0 or at <= limit):
                found = at
                break
        if found < 0:
            continue
        line_start = text.rfind("\n", 0, where[found]) + 1
        cursor = found + 1
        for pending in waiting:
            want = _skeleton(pending.title)
            same = next((p for p, sk in existing if sk == want and p not in kept and last <= p <= line_start), None)
            if same is not None:
                kept.add(same)
                last = same
                continue
            inserts.append((line_start, "#" * pending.level + " " + " ".join(pending.title.split())))
            last = line_start
        waiting = []
    out: list[str] = []
    pos = 0
    for at, line in inserts:  # already in order: positions never decrease
        out.append(text[pos:at])
        out.append(f"\n\n{line}\n\n")
        pos = at
    out.append(text[pos:])
    restored = "".join(out)
    return "\n".join(_escape_stray(line, real) for line in restored.split("\n"))


def refill_empty_sections(text: str, heads: list[HtmlHeading]) -> str:
    """``text`` where a section trafilatura emptied has the page's own text blocks back.

    Why: on the Chinese Debian Reference, trafilatura kept the heading "9.4.13. 单次任务时间安排"
    and dropped its one sentence and example ("运行 at(1) 命令来安排一次性的工作。"), which the
    English page kept; the only place the manual answers how to schedule a task once was gone.
    A section the page gives text to is never written empty: its blocks, as the plain parser read
    them, stand under its heading.
    """
    lines = text.split("\n")
    found: list[tuple[int, HtmlHeading]] = []  # (line index, its heading in the page)
    cursor = 0
    for n, line in enumerate(lines):
        match = _HASH_LINE.match(line)
        if not match:
            continue
        letters = _skeleton(match.group(2))
        at = next((i for i in range(cursor, len(heads)) if _skeleton(heads[i].title) == letters), None)
        if at is not None:
            found.append((n, heads[at]))
            cursor = at + 1
    heading_at = {n for n, line in enumerate(lines) if _HASH_LINE.match(line)}
    out = list(lines)
    for n, head in reversed(found):
        end = next((k for k in range(n + 1, len(lines)) if k in heading_at), len(lines))
        if head.blocks and not any(lines[k].strip() for k in range(n + 1, end)):
            out[n + 1 : end] = ["", *"\n\n".join(head.blocks).split("\n"), ""]
    return "\n".join(out)


# "5.5.1. 找出最佳 MTU", "Chapter 5. Network setup", "第 5 章", "Table of Contents": headings and
# the contents list, which says them all again at the top of the page.
_CONTENTS_LINE = re.compile(
    r"\s*(?:#+\s*)?(?:(?:\d+\.)+\d*\s|(?:chapter|appendix|table of contents)\b|第\s*\d+\s*章)", re.I
)
DROPPED_MIN_LETTERS = 12  # a line shorter than this (a table cell, "Note") is not worth restoring
_WINDOW = 4000  # letters ahead of the last line found where the next line of the page may stand
_SHORT_WINDOW = 60  # the same for a short line, which is only a landmark


def refill_dropped_lines(text: str, fallback: str) -> str:
    """``text`` with the lines of the page that trafilatura dropped put back where they stood.

    Why: on the Chinese Debian Reference, trafilatura dropped a nested list holding a ``<pre>``
    — the steps "shell 提示符下输入 "ulimit -c unlimited"。 … 崩溃的程序产生一个 core dump 文件。" —
    and "Autoconf是一个从 configure.ac 生成 shell 脚本 configure 的工具。"; about one line in twenty
    of that manual was gone, and no question could ever be answered from it. The plain parser
    keeps every line. Each of its lines that the text does not hold (compared by letters, as
    :func:`restore_headings` does) goes after the last line before it that the text holds. Lines
    before the first and after the last line found are the page's navigation and contents list:
    they stay out.
    """
    letters, where = _letters(text)
    if not letters:
        return text
    inserts: dict[int, list[str]] = {}  # text offset (a line's end) → the lines that go after it
    cursor, after = 0, -1
    pending: list[str] = []
    for line in fallback.split("\n"):
        skeleton = _skeleton(line)
        if not skeleton or _CONTENTS_LINE.match(line):
            continue  # a heading is also a line of the contents list: it cannot say where text stands
        anchor = skeleton[:_ANCHOR_LETTERS]
        short = len(skeleton) < DROPPED_MIN_LETTERS
        # A short line ("崩溃程序。") is only looked for just ahead: said anywhere, it proves nothing.
        at = letters.find(anchor, cursor, cursor + (_SHORT_WINDOW if short else _WINDOW) + len(anchor))
        if short and at < 0:
            continue
        if at < 0 and letters.find(anchor) >= 0:
            continue  # said elsewhere on the page (a repeated line, or out of order): not lost
        if at < 0:
            if after >= 0:
                pending.append(line.rstrip() if line.startswith("    ") else line.strip())
            continue
        if pending:
            inserts.setdefault(after, []).extend(pending)
            pending = []
        whole = letters.startswith(skeleton, at)
        end = at + (len(skeleton) if whole else len(anchor)) - 1
        cursor = end + 1
        # after the paragraph the line ends in: a sentence the source wrapped, or a list, stays whole
        para_end = text.find("\n\n", where[end])
        after = len(text) if para_end < 0 else para_end
    # lines still pending follow the last line found: the page's footer, left out
    out: list[str] = []
    pos = 0
    for at in sorted(inserts):
        out.append(text[pos:at])
        out.append("\n\n" + "\n\n".join(inserts[at]))
        pos = at
    out.append(text[pos:])
    return "".join(out)


def _escape_stray(line: str, real: set[str]) -> str:
    match = _HASH_LINE.match(line)
    if match and _skeleton(match.group(2)) not in real:
        return "\\" + line
    return line


_PRE_OR_CODE = re.compile(r"<(/?)(pre|code)\b[^>]*>", re.IGNORECASE)


def _inline_code_on_one_line(html: str) -> str:
    """``html`` with the line breaks inside inline ``<code>`` (not in ``<pre>``) made spaces.

    Why: a manual's source wraps long lines anywhere, also inside ``<code>hosts: files
    dns</code>``; trafilatura turns inline code holding a newline into a fenced block, which cuts
    the sentence around it in two ("… 文件里的 " / " 这段规定主机名解析顺序。"), so the sentence that
    answers the question can never be quoted whole. Code in ``<pre>`` keeps its lines.
    """
    out: list[str] = []
    pos, pre, code_at = 0, 0, -1
    for tag in _PRE_OR_CODE.finditer(html):
        closing, name = tag.group(1) == "/", tag.group(2).lower()
        if name == "pre":
            pre = max(pre - 1, 0) if closing else pre + 1
        elif not closing and pre == 0:
            code_at = tag.end()
        elif closing and code_at >= 0:
            out.append(html[pos:code_at])
            out.append(re.sub(r"\s*\n\s*", " ", html[code_at : tag.start()]))
            pos, code_at = tag.start(), -1
    out.append(html[pos:])
    return "".join(out)


def _extract_html(html: str, url: str | None) -> tuple[str, str | None, str | None, str | None]:
    import trafilatura

    fallback_title, fallback_text, heads = parse_html(html)
    try:
        body = trafilatura.extract(
            _inline_code_on_one_line(html),
            url=url,
            output_format="markdown",
            include_formatting=True,
            include_tables=True,
            include_links=False,
            include_comments=False,
            favor_recall=True,
            deduplicate=False,
        )
        meta = trafilatura.extract_metadata(html, default_url=url)
    except Exception:  # trafilatura/lxml on hostile markup: fall back to the plain parser
        body, meta = None, None
    text = clean_text(body or "")
    fallback = clean_text(fallback_text)
    # Tiny pages: trafilatura may keep nothing, or much less than the visible text.
    if not text or (len(text) < 200 and len(text) < len(fallback) // 2):
        text = fallback
    # trafilatura writes inline code that spans lines as "“```\ncode\n```”": the opening fence
    # goes on its own line, so the block is a real fenced block and not a stray closing fence.
    text = _MIDLINE_FENCE.sub(lambda m: "\n" + m.group(1) + "\n", text)
    text = clean_text(refill_empty_sections(restore_headings(text, heads), heads))
    if text is not fallback:
        text = clean_text(refill_dropped_lines(text, fallback))
    title = (getattr(meta, "title", None) or fallback_title or None) if meta or fallback_title else None
    author = getattr(meta, "author", None) if meta else None
    date = getattr(meta, "date", None) if meta else None
    return text, title, author, date


def _extract_pdf(data: bytes, name: str, max_pages: int) -> tuple[str, str | None, str | None, str | None]:
    from pypdf import PdfReader

    # pypdf logs repairs of damaged files as warnings; a failure becomes one SourceError instead.
    logging.getLogger("pypdf").setLevel(logging.ERROR)

    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            opened: object = 0
            try:
                opened = reader.decrypt("")
            except Exception:
                opened = 0
            if not opened:
                raise SourceError(
                    f"{name}: the PDF is encrypted (password-protected)",
                    hint="save an unencrypted copy of the document and add that",
                )
        parts = []
        for number, page in enumerate(reader.pages, start=1):
            if number > max_pages:
                break
            page_text = clean_text(page.extract_text() or "")
            parts.append(f"[page {number}]\n{page_text}" if page_text else f"[page {number}]")
        info = reader.metadata
        title = str(info.title).strip() if info and info.title else None
        author = str(info.author).strip() if info and info.author else None
    except SourceError:
        raise
    except Exception as exc:  # pypdf raises many types on damaged files
        raise SourceError(
            f"{name}: the PDF is corrupt or unreadable ({type(exc).__name__})",
            hint="check that the file is a complete PDF",
        ) from None
    text = "\n\n".join(parts)
    if not re.sub(r"\[page \d+\]", "", text).strip():
        raise SourceError(
            f"{name}: the PDF has no extractable text (scanned images?)",
            hint="add a text version of the document instead",
        )
    return text, title, author, None


def _markdown_title(text: str) -> str | None:
    for line in text.split("\n")[:30]:
        match = re.match(r"^#\s+(.+?)\s*#*\s*$", line)
        if match:
            return match.group(1)
    return None


_GZIP_MAGIC = b"\x1f\x8b"


def _gunzip(data: bytes, name: str, max_chars: int) -> bytes:
    """The bytes a gzip file holds, at most four bytes per character the text may have (a small file
    that inflates past that is refused, not read into memory)."""
    limit = 4 * max_chars
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflate.decompress(data, limit)
    except zlib.error:
        raise SourceError(
            f"{name}: not a readable gzip file", hint="decompress it, or add the document itself"
        ) from None
    if inflate.unconsumed_tail:
        raise SourceError(
            f"{name}: larger than {limit // 1_000_000} MB when decompressed", hint="add a smaller document"
        )
    return out


def extract_bytes(
    data: bytes,
    *,
    media_type: str | None = None,
    url: str | None = None,
    filename: str | None = None,
    max_chars: int = 2_000_000,
    max_pages: int = 300,
) -> Extracted:
    """Extract readable text from ``data`` or raise :class:`SourceError` naming the source."""
    name = _source_name(url, filename)
    if data[:2] == _GZIP_MAGIC:
        # Debian keeps its manuals gzipped (/usr/share/info/sed.info.gz, /usr/share/doc/*/NEWS.gz):
        # read as the document they hold, named without ".gz"
        data = _gunzip(data, name, max_chars)
        if filename and filename.lower().endswith(".gz"):
            filename = filename[:-3]
    if not data or not data.strip():
        raise SourceError(f"{name}: the document is empty", hint="check the file or URL")
    declared, charset = _split_media_type(media_type)
    kind = sniff(data, declared, filename)
    if not kind:
        raise SourceError(
            f"{name}: unsupported content type {declared or 'binary data'}",
            hint="autodidact reads HTML, PDF, plain text and markdown",
        )
    title: str | None
    author: str | None = None
    date: str | None = None
    if kind == MEDIA_PDF:
        text, title, author, date = _extract_pdf(data, name, max_pages)
    elif kind == MEDIA_HTML:
        text, title, author, date = _extract_html(decode_text(data, charset, html=True), url)
    else:
        text = clean_text(decode_text(data, charset))
        if kind == MEDIA_TEXT:
            text = readable_plain(text)
        title = _markdown_title(text) if kind == MEDIA_MARKDOWN else None
    text = _cap(text, max_chars)
    if not text.strip():
        raise SourceError(f"{name}: no readable text in the document", hint="check the file or URL")
    return Extracted(text=text, title=(title or None), author=author or None, date=date or None, media_type=kind)


_DATE = re.compile(r"^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?")


def norm_date(value: str | None) -> str | None:
    """YYYY[-MM[-DD]] from a date string, or None."""
    if not value:
        return None
    m = _DATE.match(value.strip())
    if not m:
        return None
    year, month, day = m.groups()
    if month and not 1 <= int(month) <= 12:
        return year
    if day and month and 1 <= int(day) <= 31:
        return f"{year}-{month}-{day}"
    return f"{year}-{month}" if month else year
