"""Body handling of the guarded fetch: capped decompression and content-type sniffing.

Why: a server decides what it *says* it sends; the bytes decide what it *is*. A gzip bomb is a
few kilobytes on the wire and gigabytes in memory, so the byte cap applies to the decompressed
size and decompression never produces more than the cap allows. A PDF served as ``text/html``
is read as a PDF; an image or archive served as ``text/html`` is refused. Only HTML/XHTML, PDF,
plain text and markdown are ever passed on to extraction.
"""

from __future__ import annotations

import zlib
from urllib.parse import urlsplit

from autodidact.errors import BlockedError, SourceError

ALLOWED_TYPES = frozenset(
    {"text/html", "application/xhtml+xml", "application/pdf", "text/plain", "text/markdown", "text/x-markdown"}
)
SNIFF_BYTES = 1024

_BINARY_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG", "a PNG image"),
    (b"GIF8", "a GIF image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"RIFF", "a RIFF media file"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"\x1f\x8b", "gzip data"),
    (b"\x7fELF", "an executable"),
    (b"MZ", "an executable"),
    (b"%!PS", "PostScript"),
    (b"OggS", "an Ogg media file"),
    (b"ID3", "an MP3 file"),
    (b"\x00\x00\x01\x00", "an icon"),
    (b"BZh", "bzip2 data"),
    (b"7z\xbc\xaf", "a 7-zip archive"),
    (b"\xfd7zXZ", "xz data"),
    (b"wOFF", "a web font"),
)
_HTML_MARKERS = (
    b"<!doctype html",
    b"<html",
    b"<head",
    b"<body",
    b"<title",
    b"<script",
    b"<iframe",
    b"<h1",
    b"<div",
    b"<font",
    b"<table",
    b"<a ",
    b"<style",
    b"<b>",
    b"<br",
    b"<p>",
    b"<p ",
    b"<!--",
    b"<meta",
)
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")


def parse_content_type(header: str | None) -> tuple[str | None, str | None]:
    """``text/html; charset=GBK`` → (``text/html``, ``gbk``)."""
    if not header:
        return None, None
    head, *params = header.split(";")
    media = head.strip().lower() or None
    charset = None
    for param in params:
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset":
            charset = value.strip().strip("\"'").lower() or None
    return media, charset


def sniff(data: bytes) -> str | None:
    """What the first bytes say: ``application/pdf``, ``text/html``, ``binary:<what>`` or None."""
    head = data[:SNIFF_BYTES]
    if b"%PDF-" in head:
        return "application/pdf"
    for magic, what in _BINARY_MAGIC:
        if head.startswith(magic):
            return f"binary:{what}"
    text = head
    for bom in _BOMS:
        if text.startswith(bom):
            text = text[len(bom) :]
            break
    if b"\x00" in text:
        return "binary:binary data"
    lowered = text.lstrip().lower()
    if lowered.startswith(b"<?xml"):
        return "text/html" if b"<html" in lowered else "binary:an XML document"
    if any(lowered.startswith(marker) for marker in _HTML_MARKERS):
        return "text/html"
    return None


def decide_type(url: str, declared: str | None, head: bytes) -> str:
    """The media type the body is treated as, or :class:`BlockedError` when it is not allowed."""
    sniffed = sniff(head)
    shown = declared or "no Content-Type"
    if sniffed is not None and sniffed.startswith("binary:"):
        raise BlockedError(f"{url}: content looks like {sniffed[7:]} (declared {shown}); only HTML, PDF, text are read")
    if sniffed == "application/pdf":
        return "application/pdf"
    if sniffed == "text/html":
        return "application/xhtml+xml" if declared == "application/xhtml+xml" else "text/html"
    if declared in ALLOWED_TYPES:
        if declared == "application/pdf":
            raise BlockedError(f"{url}: declared PDF but the content is not a PDF")
        return declared
    if declared in (None, "application/octet-stream", "binary/octet-stream"):
        path = urlsplit(url).path.lower()
        return "text/markdown" if path.endswith((".md", ".markdown")) else "text/plain"
    raise BlockedError(f"{url}: content type {declared} is not allowed (HTML, PDF, plain text, markdown)")


class CappedDecoder:
    """Undo ``Content-Encoding`` chunk by chunk, never producing more than ``cap`` bytes."""

    def __init__(self, url: str, encoding: str | None, cap: int) -> None:
        self.url = url
        self.cap = cap
        self.total = 0
        enc = (encoding or "identity").strip().lower()
        if enc in ("", "identity"):
            self._mode = "identity"
        elif enc in ("gzip", "x-gzip"):
            self._mode = "gzip"
        elif enc == "deflate":
            self._mode = "deflate"
        else:
            raise SourceError(f"{url}: unsupported Content-Encoding {encoding!r}")
        self._d: zlib._Decompress | None = self._new()
        self._first = True

    def _new(self) -> zlib._Decompress | None:
        if self._mode == "gzip":
            return zlib.decompressobj(16 + zlib.MAX_WBITS)
        if self._mode == "deflate":
            return zlib.decompressobj(zlib.MAX_WBITS)
        return None

    def _count(self, piece: bytes) -> bytes:
        self.total += len(piece)
        if self.total > self.cap:
            raise BlockedError(f"{self.url}: body exceeds the {self.cap}-byte cap (after decompression)")
        return piece

    def feed(self, chunk: bytes) -> bytes:
        """Decode one raw chunk; raises :class:`BlockedError` past the cap."""
        if self._d is None:
            return self._count(chunk)
        out: list[bytes] = []
        data = chunk
        while data:
            try:
                piece = self._d.decompress(data, self.cap - self.total + 1)
            except zlib.error:
                if self._mode == "deflate" and self._first:
                    # Some servers send raw deflate without the zlib wrapper.
                    self._d = zlib.decompressobj(-zlib.MAX_WBITS)
                    self._first = False
                    continue
                raise SourceError(f"{self.url}: corrupt {self._mode} body") from None
            self._first = False
            out.append(self._count(piece))
            if self._d.unconsumed_tail:
                data = self._d.unconsumed_tail
            elif self._d.eof and self._d.unused_data:
                data = self._d.unused_data  # another gzip member follows
                self._d = self._new()
                assert self._d is not None
            else:
                data = b""
        return b"".join(out)

    def flush(self) -> bytes:
        """The decoder's remaining output (still capped)."""
        if self._d is None:
            return b""
        return self._count(self._d.flush())
