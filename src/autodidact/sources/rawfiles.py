"""The readable source files in ``raw/`` (docs/contracts.md §1.1): write once, parse tolerantly.

Why: ``raw/`` is what a person reads and what every wiki statement cites, so a raw file is plain
markdown with a small header (title, source URL, date, question ids, quality, snapshot ref) above
the body. The program only ever *adds* files here: a new name is claimed with an exclusive create,
so an existing file is never modified, and a name collision with a different URL gets ``-2``,
``-3``... A person may drop their own md/txt/html/pdf files in too; :func:`parse_raw_file` reads
those as sources without a header (quality ``待评估``).

A raw file the research step writes holds an *excerpt*: the section(s) of a snapshot that hold
the round's quotes, not the whole document. Its header then has one more line, ``> 片段:
12034-15877`` (``> Excerpt:`` in an English knowledge base), the excerpt's character offsets in the
snapshot text (``body == snapshot_text[12034:15877]``); :func:`excerpts_for_quotes` chooses them (docs/sections.md).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date as date_cls
from pathlib import Path

from autodidact.errors import AutodidactError, InputError, SourceError
from autodidact.sources.snapshots import CACHE_DIRNAME, is_local_url, local_url, normalize_url
from autodidact.store.atomic import create_exclusive
from autodidact.store.filememo import FileMemo, FolderMemo
from autodidact.store.hashing import sha256_text
from autodidact.store.paths import slugify
from autodidact.text.sections import SEPARATOR, QuoteLocator, Section, label, section_at, split_sections

QUALITIES = ("高", "中", "低", "待评估")
RAW_SUFFIXES = (".md", ".txt", ".markdown", ".html", ".htm", ".pdf")
_RAW_SUFFIX_SET = frozenset(RAW_SUFFIXES)
UNRATED = "待评估"
# The header's labels in each language (docs/contracts.md §1.1). An English knowledge base reads in
# English, so its raw files say "Source:" where a Chinese one says "来源:"; every reader takes both.
LABELS = {
    "zh": {
        "url": "来源",
        "fetched_date": "抓取日期",
        "question_ids": "关联问题",
        "quality": "质量评分",
        "quality_note": "质量说明",
        "snapshot_ref": "快照",
        "excerpt": "片段",
    },
    "en": {
        "url": "Source",
        "fetched_date": "Fetched",
        "question_ids": "Questions",
        "quality": "Quality",
        "quality_note": "Quality note",
        "snapshot_ref": "Snapshot",
        "excerpt": "Excerpt",
    },
}
# The ratings as an English file writes them; the program keeps the Chinese ones inside.
QUALITY_WORDS = {"高": "high", "中": "medium", "低": "low", "待评估": "unrated"}
_QUALITY_OF_WORD = {word: quality for quality, word in QUALITY_WORDS.items()}
_KEYS = {label.casefold(): key for labels in LABELS.values() for key, label in labels.items()}
_HEADER_LINE = re.compile(
    r"^>\s*(" + "|".join(sorted(map(re.escape, _KEYS), key=len, reverse=True)) + r")\s*[:：]\s*(.*?)\s*$",
    re.IGNORECASE,
)
# The first header line, in either language: "> 来源: https://…" / "> Source: https://…"
SOURCE_LINE = re.compile(r"^>\s*(?:来源|source)\s*[:：]\s*(\S+)", re.MULTILINE | re.IGNORECASE)
QUALITY_LINE = re.compile(r"^>\s*(?:质量评分|quality)\s*[:：]\s*(\S+)", re.MULTILINE | re.IGNORECASE)


def header_language(root: Path) -> str:
    """The language raw files of the folder ``root`` are written in: its knowledge base's (a report
    folder, without settings, keeps the seed's Chinese labels); "" while a knowledge base's language
    waits for its first research topic (``init`` with neither a topic nor ``--lang``), when each
    file's own text decides: an English page added before an English research had Chinese labels.
    """
    from autodidact.kb import KnowledgeBase, language_unsettled

    kb = KnowledgeBase(Path(root))
    return "" if language_unsettled(kb.root) else kb.language(default="zh")


def quality_of(value: str) -> str:
    """The rating a header's quality value stands for (``高`` or ``high``); unrated when neither."""
    value = value.strip()
    if value in QUALITIES:
        return value
    return _QUALITY_OF_WORD.get(value.casefold(), UNRATED)


_RANGE = re.compile(r"(\d+)\s*(?:-|–|—|~|～|\.\.|to|至|到)\s*(\d+)")
_DATE_PREFIX = re.compile(r"^(\d{4}-\d{2}-\d{2})_")


def file_title(filename: str) -> str:
    """The title of a file that names none: its name without the date ``add`` put before it and
    its extension ("2026-12-07_unittest.txt" → "unittest").

    Why: the title is what questions, articles and search results show; "What are the key points
    of “2026-12-07_unittest”?" names the day of copying, not the document."""
    stem = Path(filename).stem
    return _DATE_PREFIX.sub("", stem) or stem


_MAX_COLLISIONS = 1000


@dataclass
class RawFile:
    """One source as a person reads it: header fields plus the body text."""

    filename: str
    title: str
    url: str
    fetched_date: str
    question_ids: list[str] = field(default_factory=list)
    quality: str = UNRATED
    quality_note: str = ""
    snapshot_ref: str = ""
    body: str = ""
    user_contributed: bool = False
    excerpt: tuple[int, int] | None = None  # offsets of ``body`` in the snapshot text, when an excerpt
    language: str = "zh"  # the knowledge base's: the header's labels and ratings are written in it

    def render(self) -> str:
        """The file text: H1, blockquote header, ``---``, body (docs/contracts.md §1.1)."""
        title = " ".join(self.title.split()) or "untitled"
        en = self.language == "en"
        label = LABELS["en" if en else "zh"]
        quality = self.quality if self.quality in QUALITIES else UNRATED
        lines = [
            f"# {title}",
            "",
            f"> {label['url']}: {_one_line(self.url)}",
            f"> {label['fetched_date']}: {_one_line(self.fetched_date)}",
            f"> {label['question_ids']}: {', '.join(_one_line(q) for q in self.question_ids)}",
            f"> {label['quality']}: {QUALITY_WORDS[quality] if en else quality}",
            f"> {label['quality_note']}: {_one_line(self.quality_note)}",
            f"> {label['snapshot_ref']}: {_one_line(self.snapshot_ref)}",
            *([f"> {label['excerpt']}: {self.excerpt[0]}-{self.excerpt[1]}"] if self.excerpt is not None else []),
            "",
            "---",
            "",
        ]
        return "\n".join(line.rstrip() for line in lines) + self.body.rstrip("\n") + "\n"


def _one_line(value: str) -> str:
    return " ".join(str(value).split())


def parse_excerpt(value: str) -> tuple[int, int] | None:
    """``12034-15877`` (also ``–``, ``..``, ``至``, spaces) → (12034, 15877); None if not a range."""
    match = _RANGE.search(value or "")
    if not match:
        return None
    start, end = int(match.group(1)), int(match.group(2))
    return (start, end) if start < end else None


def local_snapshot_ref(url: str, text: str) -> str:
    """The snapshot_ref ``text`` gets when stored under ``url`` (deterministic, no I/O)."""
    return f"{CACHE_DIRNAME}/{sha256_text(normalize_url(url))}/{sha256_text(text)}.md"


def _decode(data: bytes) -> str:
    from autodidact.sources.extract import decode_text

    return decode_text(data)


def parse_raw_text(text: str, filename: str) -> RawFile:
    """Parse a raw file's text; a file without the header is a user-contributed source."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    lines = text.split("\n")
    idx = 0
    while idx < len(lines) and not lines[idx].strip():
        idx += 1
    title = ""
    if idx < len(lines):
        match = re.match(r"^#\s+(.*?)\s*#*\s*$", lines[idx])
        if match:
            # "# #": a title made only of "#" is the title, not an ATX closing sequence.
            title = match.group(1).strip() or lines[idx][1:].strip()
    fields: dict[str, str] = {}
    english = False  # the header's labels are English (written back the same way)
    body_start = -1
    if title:
        j = idx + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        while j < len(lines):
            hdr = _HEADER_LINE.match(lines[j])
            if hdr:
                fields.setdefault(_KEYS[hdr.group(1).casefold()], hdr.group(2))
                if hdr.group(1).isascii():
                    english = True
            elif lines[j].strip() not in {"", ">"}:
                break
            j += 1
        if fields and j < len(lines) and lines[j].strip() == "---":
            body_start = j + 1
    date_match = _DATE_PREFIX.match(filename)
    if body_start < 0 or "url" not in fields:
        url = local_url("raw", filename)
        body = text.strip("\n")
        return RawFile(
            filename=filename,
            title=title or file_title(filename),
            url=url,
            fetched_date=date_match.group(1) if date_match else "",
            snapshot_ref=local_snapshot_ref(url, body) if body.strip() and "\x00" not in body else "",
            body=body,
            user_contributed=True,
        )
    body = "\n".join(lines[body_start:]).strip("\n")
    quality = quality_of(fields.get("quality", ""))
    qids = [q.strip() for q in re.split(r"[,，、\s]+", fields.get("question_ids", "")) if q.strip()]
    url = fields.get("url", "").strip()
    return RawFile(
        filename=filename,
        title=title,
        url=url,
        fetched_date=fields.get("fetched_date", "").strip(),
        question_ids=qids,
        quality=quality,
        quality_note=fields.get("quality_note", "").strip(),
        snapshot_ref=fields.get("snapshot_ref", "").strip(),
        body=body,
        user_contributed=is_local_url(url),
        excerpt=parse_excerpt(fields.get("excerpt", "")),
        language="en" if english else "zh",
    )


def parse_raw_file(path: Path) -> RawFile:
    """Read one file in ``raw/``: header-carrying markdown, a person's md/txt, or html/pdf."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read raw file {path.name}: {exc.strerror}") from None
    return parse_raw_bytes(path, data)


_PARSED: FileMemo[RawFile] = FileMemo()


@contextlib.contextmanager
def raw_reader(raw_dir: Path) -> Iterator[Callable[[str], RawFile]]:
    """``read(name)``: :func:`parse_raw_file` of ``raw_dir / name``, parsed once per content
    (store/filememo.py), for readers that go through all of raw/ every round. The file is shared
    with other readers: read it, never edit it."""
    with _PARSED.folder(raw_dir) as get:

        def read(name: str) -> RawFile:
            try:
                return get(name, lambda data, _digest: parse_raw_bytes(Path(raw_dir) / name, data))[1]
            except OSError as exc:
                raise InputError(f"cannot read raw file {name}: {exc.strerror}") from None

        yield read


def raw_files(
    raw_dir: Path, names: Sequence[str], skip: tuple[type[Exception], ...] = (OSError, AutodidactError), tag: str = ""
) -> list[RawFile]:
    """The files of ``names`` in ``raw_dir`` that read and parse (as :func:`raw_reader` reads them;
    a file raising one of ``skip`` is left out), in order; each file's ``filename`` is its name.

    Only the files changed since the last pass over the same names (``tag`` tells callers' passes
    apart) are looked at (store/filememo.py, ``pass_over``): raw/ grows with the knowledge base,
    and a round reads all of it several times. Shared with other readers: read, never edit."""

    def parser(name: str) -> Callable[[bytes, str], RawFile]:
        return lambda data, _digest: parse_raw_bytes(Path(raw_dir) / name, data)

    return _PARSED.pass_over(raw_dir, names, parser, skip=skip, tag=tag)


def parse_raw_bytes(path: Path, data: bytes) -> RawFile:
    """:func:`parse_raw_file` of ``data``, the bytes of ``path`` (read, or about to be written)."""
    if path.suffix.lower() in {".html", ".htm", ".pdf"}:
        from autodidact.sources.extract import extract_bytes

        extracted = extract_bytes(data, filename=path.name)
        url = local_url("raw", path.name)
        date_match = _DATE_PREFIX.match(path.name)
        return RawFile(
            filename=path.name,
            title=extracted.title or file_title(path.name),
            url=url,
            fetched_date=date_match.group(1) if date_match else "",
            snapshot_ref=local_snapshot_ref(url, extracted.text),
            body=extracted.text,
            user_contributed=True,
        )
    if b"\x00" in data[:8192]:
        raise SourceError(f"raw file {path.name} is binary, not text", hint="raw/ holds md, txt, html and pdf files")
    return parse_raw_text(_decode(data), path.name)


def list_raw_files(raw_dir: Path) -> list[Path]:
    """Every source file in ``raw/`` (md, txt, html, pdf; hidden and temp files skipped), sorted.

    A symbolic link whose target lies outside ``raw/`` is never a source: ``raw/notes.md ->
    ~/.ssh/id_rsa`` would otherwise be snapshotted, indexed and put in a model's prompt
    (docs/hardening.md, "Links"). :func:`links_out_of` lists them, so callers can say so.
    """
    raw_dir = Path(raw_dir)
    return [raw_dir / name for name in list_raw_names(raw_dir)]


def list_raw_names(raw_dir: Path) -> list[str]:
    """The names of :func:`list_raw_files`, sorted.

    One ``scandir`` pass: the entry types come with the listing, so only links cost a ``stat``; and
    no path objects (a round lists raw/ several times, and raw/ grows with the knowledge base).
    The listing is kept while raw/ itself is unchanged (store/filememo.py, :class:`FolderMemo`), so
    a pass over an unchanged raw/ costs one ``stat``; never while raw/ holds a symbolic link, whose
    target may change without raw/ changing.
    """
    try:
        return list(_LISTINGS.get(raw_dir, lambda: _scan_raw_names(raw_dir)))
    except (FileNotFoundError, NotADirectoryError):
        return []


_LISTINGS: FolderMemo[tuple[str, ...]] = FolderMemo()


def _scan_raw_names(raw_dir: Path) -> tuple[tuple[str, ...], bool]:
    """The sorted names, and whether the listing may be kept (no symbolic link among the entries)."""
    with os.scandir(raw_dir) as listing:
        entries = list(listing)
    root: Path | None = None
    names: list[str] = []
    linked = False
    for entry in entries:
        name = entry.name
        if entry.is_symlink():
            linked = True
        dot = name.rfind(".")  # a name not starting with "." has the suffix os.path.splitext gives
        if dot <= 0 or name[0] == "." or name[dot:].lower() not in _RAW_SUFFIX_SET or not entry.is_file():
            continue
        if entry.is_symlink():
            root = root or Path(raw_dir).resolve()
            if _outside(root, Path(raw_dir) / name):
                continue
        names.append(name)
    return tuple(sorted(names)), not linked


def _outside(root: Path, path: Path) -> bool:
    """Whether the symbolic link ``path`` resolves outside ``root`` (or dangles)."""
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return True
    return root not in target.parents


def links_out_of(folder: Path) -> list[Path]:
    """Entries of ``folder`` that are symbolic links resolving outside it (or dangling), sorted."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    root = folder.resolve()
    return sorted(p for p in folder.iterdir() if p.is_symlink() and _outside(root, p))


def _same_source(path: Path, rf: RawFile) -> bool:
    """Same URL — and, when either is an excerpt, the same excerpt text (another section of the
    same document is a new raw file)."""
    try:
        existing = parse_raw_file(path)
    except Exception:  # an unreadable file is never "the same": pick another name
        return False
    try:
        same_url = normalize_url(existing.url) == normalize_url(rf.url)
    except InputError:
        same_url = existing.url == rf.url
    if not same_url:
        return False
    if existing.excerpt is None and rf.excerpt is None:
        return True
    return _flat(existing.body) == _flat(rf.body)


def _flat(text: str) -> str:
    return " ".join(text.split())


def candidate_names(stem: str, suffix: str) -> Iterator[str]:
    """``stem.md``, ``stem-2.md``, ``stem-3.md`` ... in order, made as they are asked for (almost
    always only the first is)."""
    yield f"{stem}{suffix}"
    for n in range(2, _MAX_COLLISIONS + 1):
        yield f"{stem}-{n}{suffix}"


def write_raw_file(
    raw_dir: Path, rf: RawFile, date: str | None = None, *, slug: str | None = None
) -> tuple[Path, bool]:
    """Write ``rf`` as ``raw/YYYY-MM-DD_<slug>.md``; same slug+URL → (existing, False); else ``-2``...

    The slug comes from ``slug`` when given (an excerpt's section title), else the title. For an
    excerpt, "same" also needs the same excerpt text: another section of the same document
    under the same slug gets ``-2``.
    """
    raw_dir = Path(raw_dir)
    raw_dir.mkdir(parents=True, exist_ok=True)
    day = date or rf.fetched_date or date_cls.today().isoformat()
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
        raise InputError(f"raw file date {day!r} is not YYYY-MM-DD")
    slug = slugify(slug or rf.title or rf.url)
    for name in candidate_names(f"{day}_{slug}", ".md"):
        path = raw_dir / name
        if path.exists():
            if _same_source(path, rf):
                return path, False
            continue
        rf.filename = name
        if not rf.fetched_date:
            rf.fetched_date = day
        if create_exclusive(path, rf.render().encode("utf-8")):
            return path, True
        if _same_source(path, rf):  # lost a race to a writer of the same source
            return path, False
    raise InputError(f"too many raw files named {day}_{slug}*.md", hint="choose a different title")


def write_raw_copy(raw_dir: Path, stem: str, suffix: str, text: str) -> tuple[Path, bool]:
    """Copy a person's text file into ``raw/`` unchanged: same text already there → (existing, False)."""
    raw_dir = Path(raw_dir)
    raw_dir.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    for name in candidate_names(stem, suffix):
        path = raw_dir / name
        if path.exists():
            try:
                if path.read_bytes() == data:
                    return path, False
            except OSError:
                pass
            continue
        if create_exclusive(path, data):
            return path, True
        if path.read_bytes() == data:
            return path, False
    raise InputError(f"too many raw files named {stem}*{suffix}", hint="rename the file")


@dataclass(frozen=True)
class Excerpt:
    """A part of a snapshot that holds some quotes: ``text[start:end]``, its title, their questions."""

    start: int
    end: int
    section: str  # title of the (first) section it covers
    title: str  # ``Doc title › Section title``
    question_ids: tuple[str, ...]


def excerpts_for_quotes(text: str, doc_title: str, quotes: list[tuple[str, str | None]]) -> list[Excerpt]:
    """The sections of ``text`` that hold the given ``(quote, question id)`` pairs, in text order.

    Each quote lands in the section where it starts; a quote running past its section's end takes
    the next section(s) along, and excerpts that then overlap are joined. A quote that cannot be
    located (it always can when the snapshot verified it) makes the whole text one excerpt, so
    every quote is in some excerpt. Each excerpt's offsets are trimmed to its first and last
    non-blank character, so ``body == text[start:end]``.
    """
    sections = split_sections(text, doc_title)
    locator = QuoteLocator(text)
    spans: list[tuple[int, int, Section, set[str]]] = []
    for quote, qid in quotes:
        found = locator.find(quote)
        if found is None:
            first, last = sections[0], sections[-1]
        else:
            first, last = section_at(sections, found[0]), section_at(sections, found[1] - 1)
        spans.append((first.start, last.end, first, {qid} if qid else set()))
    spans.sort(key=lambda item: (item[0], item[1]))
    merged: list[tuple[int, int, Section, set[str]]] = []
    for start, end, sec, qids in spans:
        if merged and start < merged[-1][1]:
            m_start, m_end, m_sec, m_qids = merged[-1]
            merged[-1] = (m_start, max(m_end, end), m_sec, m_qids | qids)
        else:
            merged.append((start, end, sec, set(qids)))
    out: list[Excerpt] = []
    for start, end, sec, qids in merged:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start < end:
            out.append(Excerpt(start, end, sec.title, label(doc_title, sec.title), tuple(sorted(qids))))
    return out


def document_part(title: str, text: str) -> str:
    """A source title without the ``› Section`` that names one of ``text``'s sections."""
    for sec in split_sections(text):
        tail = f"{SEPARATOR}{sec.title}"
        if sec.title and title.endswith(tail) and len(title) > len(tail):
            return title[: -len(tail)]
    return title
