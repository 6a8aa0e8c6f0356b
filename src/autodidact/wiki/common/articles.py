"""The article model: parse a ``wiki/<topic>.md`` into parts and render it back byte-stably.

Why a model instead of string edits: an incremental compile must merge new statements into the
right section of an article a person (or a model) may have edited, and compiling the same files
twice must change nothing. Parsing into front matter / summary / sections / blocks and rendering
with one canonical layout makes "no change" a plain string comparison.

The front matter (``title``, ``aliases``, ``sources``, ``updated`` and whatever else a person
keeps there) is read with a YAML parser and written back in a form it reads (``front_matter.py``).
"""

from __future__ import annotations

import os
import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar, cast

from autodidact.store.filememo import FileMemo, FolderMemo
from autodidact.wiki.common.front_matter import FrontMatter, parse_front_matter, render_front_matter
from autodidact.wiki.common.markdown import MARKER_RE, normalize_key

RELATED_HEADINGS = {"zh": "相关主题", "en": "Related"}
DEFAULT_SECTION = {"zh": "要点", "en": "Key points"}
T = TypeVar("T")
_RELATED_KEYS = {normalize_key(h) for h in (*RELATED_HEADINGS.values(), "相关", "see also", "related topics", "参见")}


@dataclass(slots=True)
class Section:
    """An H2 section: its heading and its blocks (a bullet item, a paragraph or a ``>`` marker line)."""

    heading: str
    blocks: list[str] = field(default_factory=list)

    @property
    def is_related(self) -> bool:
        return normalize_key(self.heading) in _RELATED_KEYS


@dataclass(slots=True)
class Article:
    """One wiki article."""

    stem: str
    title: str
    aliases: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    updated: str = ""
    summary: str = ""
    sections: list[Section] = field(default_factory=list)
    extra_front: list[str] = field(default_factory=list)

    @property
    def filename(self) -> str:
        return f"{self.stem}.md"

    def names(self) -> list[str]:
        """Title, aliases and stem: every name a link or mention may use."""
        return [self.title, *self.aliases, self.stem]

    def section(self, heading: str) -> Section | None:
        key = normalize_key(heading)
        return next((s for s in self.sections if normalize_key(s.heading) == key), None)

    def body_sections(self) -> list[Section]:
        return [s for s in self.sections if not s.is_related]

    def text(self) -> str:
        """All prose (summary and sections) for searching and term detection."""
        parts = [self.summary]
        for sec in self.sections:
            parts.append(sec.heading)
            parts.extend(sec.blocks)
        return "\n".join(parts)


def _as_list(value: str | list[str] | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value else []
    return [v for v in value if v]


def parse_article(text: str, stem: str) -> Article:
    """Parse an article (tolerant: no front matter, no H1, prose instead of bullets all work).

    Front matter that is not valid YAML is an :class:`~autodidact.errors.InputError` naming
    ``wiki/<stem>.md`` (the article cannot be written back without losing what it holds)."""
    front, extra, body = parse_front_matter(text.replace("\r\n", "\n"), f"wiki/{stem}.md")
    title = front.get("title")
    updated = front.get("updated")
    article = Article(
        stem=stem,
        title=title.strip() if isinstance(title, str) and title.strip() else stem,
        aliases=_as_list(front.get("aliases")),
        sources=_as_list(front.get("sources")),
        updated=", ".join(updated) if isinstance(updated, list) else (updated or ""),
        extra_front=extra,
    )
    summary_lines: list[str] = []
    current: Section | None = None
    block: list[str] = []
    saw_h1 = False
    fence = False

    def flush() -> None:
        if block and current is not None:
            current.blocks.append("\n".join(block).strip())
        block.clear()

    for line in body.split("\n"):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fence = not fence
        if not fence and re.match(r"^#\s+\S", line) and not saw_h1 and current is None:
            saw_h1 = True
            if not isinstance(title, str) or not title:
                article.title = stripped.lstrip("#").strip()
            continue
        heading = None if fence else re.match(r"^#{2,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            flush()
            current = Section(heading.group(1).strip())
            article.sections.append(current)
            continue
        if current is None:
            summary_lines.append(line)
            continue
        if fence:
            block.append(line)
            continue
        if not stripped:
            flush()
        elif re.match(r"^\s{0,3}(?:[-*+]|\d+[.)、])\s+", line) or MARKER_RE.match(line) or stripped.startswith(">"):
            flush()
            block.append(stripped if not line.startswith(" ") else line.rstrip())
        elif line.startswith((" ", "\t")) and block:
            block.append(line.rstrip())
        else:
            if block and (block[0].lstrip().startswith(("-", "*", "+", ">")) or re.match(r"^\d+[.)、]", block[0])):
                flush()
            block.append(stripped)
    if fence or block:
        flush()
    article.summary = "\n".join(summary_lines).strip()
    return article


def render_article(article: Article) -> str:
    """The canonical text of an article (front matter, H1, summary, sections)."""
    front: FrontMatter = {
        "title": article.title,
        "aliases": article.aliases,
        "sources": article.sources,
        "updated": article.updated,
    }
    lines = render_front_matter(front, article.extra_front)
    lines += ["", f"# {article.title}", ""]
    if article.summary:
        lines += [article.summary, ""]
    for sec in article.sections:
        if not sec.blocks:
            continue
        lines += [f"## {sec.heading}", ""]
        prev_bullet = False
        for blk in sec.blocks:
            is_line_item = blk.startswith(("- ", "* ", "+ ", ">")) and "\n\n" not in blk
            if lines[-1] != "" and not (prev_bullet and is_line_item):
                lines.append("")
            lines.append(blk)
            prev_bullet = is_line_item
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def load_article(path: Path) -> Article:
    """Read and parse one article file."""
    return parse_article(path.read_text("utf-8", errors="replace"), path.stem)


def clone_article(art: Article) -> Article:
    """A copy that shares only immutable strings with ``art`` (a caller may edit it freely)."""
    return Article(
        stem=art.stem,
        title=art.title,
        aliases=list(art.aliases),
        sources=list(art.sources),
        updated=art.updated,
        summary=art.summary,
        sections=[Section(s.heading, list(s.blocks)) for s in art.sections],
        extra_front=list(art.extra_front),
    )


@dataclass
class WikiFile:
    """One article file as read now: its content hash and its parsed form.

    ``article`` is shared by every reader of the same bytes: read it, never edit it
    (:func:`load_wiki` hands out copies to edit)."""

    name: str
    digest: str
    article: Article
    _rendered: str | None = None
    _derived: dict[str, object] = field(default_factory=dict)

    @property
    def stem(self) -> str:
        return self.article.stem

    def rendered(self) -> str:
        """``render_article`` of the parsed file (what an untouched article renders to)."""
        if self._rendered is None:
            self._rendered = render_article(self.article)
        return self._rendered

    def derived(self, name: str, compute: Callable[[Article], T]) -> T:
        """``compute(article)``, computed once per content: ``compute`` must depend on the article only."""
        if name not in self._derived:
            self._derived[name] = compute(self.article)
        return cast("T", self._derived[name])


@dataclass
class WikiStats:
    """How often articles were parsed (a test reads it to see that unchanged files are not)."""

    parsed: int = 0


WIKI_STATS = WikiStats()
_FILES: FileMemo[WikiFile] = FileMemo()


_LISTINGS: FolderMemo[tuple[str, ...]] = FolderMemo()


def _article_names(wiki_dir: Path) -> list[str]:
    """The article file names of ``wiki/`` (``*.md``; INDEX.md, hidden files and folders excluded), sorted.

    The listing is kept while no name in ``wiki/`` was created, removed or renamed
    (store/filememo.py, :class:`FolderMemo`), never while it holds a symbolic link (whose target
    may turn from a file into a folder without ``wiki/`` changing)."""
    try:
        return list(_LISTINGS.get(wiki_dir, lambda: _scan_article_names(wiki_dir)))
    except (FileNotFoundError, NotADirectoryError, PermissionError):  # as pathlib.glob did
        return []


def _scan_article_names(wiki_dir: Path) -> tuple[tuple[str, ...], bool]:
    with os.scandir(wiki_dir) as listing:
        entries = list(listing)
    names = sorted(
        e.name
        for e in entries
        if e.name.endswith(".md") and e.name != "INDEX.md" and not e.name.startswith(".") and e.is_file()
    )
    return tuple(names), not any(e.is_symlink() for e in entries)


def _decode(data: bytes) -> str:
    """What ``Path.read_text("utf-8", errors="replace")`` gives (universal newlines)."""
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")


def _parse_file(name: str) -> Callable[[bytes, str], WikiFile]:
    def parse(data: bytes, digest: str) -> WikiFile:
        WIKI_STATS.parsed += 1
        made = WikiFile(name, digest, parse_article(_decode(data), name[: -len(".md")]))
        key = id(made.article)
        _ORIGINALS[key] = weakref.ref(made, lambda ref: _forget_original(key, ref))
        return made

    return parse


# The parsed form of each article file read, by the identity of its Article: what
# :func:`derived_of` keeps values with. Weak, so a file parsed again lets the old entry go (the
# article outlives its entry, so its id is not reused while the entry stands).
_ORIGINALS: dict[int, weakref.ref[WikiFile]] = {}
_MISSING = object()


def _forget_original(key: int, ref: weakref.ref[WikiFile]) -> None:
    if _ORIGINALS.get(key) is ref:
        del _ORIGINALS[key]


def derived_of(art: Article, name: str, compute: Callable[[Article], T]) -> T:
    """``compute(art)``, kept with the parsed file when ``art`` is the shared parsed form of an
    article file (:attr:`WikiFile.article`), worked out afresh for any other article (a copy being
    edited, one made in memory).

    Why: the compile hands the articles it does not edit to its whole-wiki steps (the topic map,
    the placer's headings, relink's name tables, INDEX.md's lines) as parsed, without copying them
    (docs/architecture.md, "Incremental rounds"), so what those steps take from one article is
    worked out once per content instead of once per round. Safe because a parsed article is never
    edited (its readers edit copies), and ``compute`` must depend on the article only."""
    ref = _ORIGINALS.get(id(art))
    owner = ref() if ref is not None else None
    if owner is None or owner.article is not art:
        return compute(art)
    kept = owner._derived.get(name, _MISSING)  # WikiFile.derived, without its call (once per article and pass)
    if kept is _MISSING:
        kept = owner._derived[name] = compute(art)
    return cast("T", kept)


def wiki_files(wiki_dir: Path) -> list[WikiFile]:
    """Every article of ``wiki/`` (INDEX.md excluded), sorted by file name, each parsed once per content.

    Why: a round reads the wiki several times (compile, the topics it touched, the audit), and the
    wiki grows with every round while a round changes a few articles. A file is parsed again only
    when its content changed (store/filememo.py says how an unchanged file is told without reading
    it); each :class:`WikiFile` carries its content hash, which the audit's cache is keyed by.
    """
    return _FILES.pass_over(wiki_dir, _article_names(wiki_dir), _parse_file)  # only what changed is looked at


def forget_wiki_memory() -> None:
    """Forget every parsed article (the next read parses the wiki again, as a new process would)."""
    _FILES.forget()
    _LISTINGS.forget()


def load_wiki(wiki_dir: Path) -> list[Article]:
    """Every article in ``wiki/`` (INDEX.md excluded), sorted by file name; copies the caller may edit."""
    return [clone_article(f.article) for f in wiki_files(wiki_dir)]


def resolver(articles: dict[str, Article]) -> dict[str, str]:
    """Normalised name (stem, title, alias) → stem."""
    out: dict[str, str] = {}
    ordered = sorted(articles)
    for stem in ordered:
        out.setdefault(normalize_key(stem), stem)
    for stem in ordered:
        for key in derived_of(articles[stem], "resolver keys", title_keys):
            out.setdefault(key, stem)
    return out


def title_keys(art: Article) -> tuple[str, ...]:
    """The normalised title and aliases, in order (what :func:`resolver` files an article under)."""
    return tuple(normalize_key(name) for name in [art.title, *art.aliases])
