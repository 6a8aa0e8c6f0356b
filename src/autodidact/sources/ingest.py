"""Local documents in: ``autodidact add`` (copy into raw/), raw/ scanning, and read-only corpora.

Why: a person's own files are sources like any fetched page — readable in ``raw/``, snapshotted
under a portable URL (``https://autodidact.invalid/raw/<file>``, never an absolute path), and
searchable. Adding only ever creates files: a name already taken gets ``-2``, ``-3``, and a file
whose text is already there is reported as present. A corpus (a folder of reference documents)
is snapshotted and indexed in place, never copied into ``raw/``. Every function is idempotent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date as date_cls
from pathlib import Path
from typing import TypedDict

from autodidact.errors import AutodidactError
from autodidact.kb import KnowledgeBase, detect_language
from autodidact.progress import NullProgress, Progress
from autodidact.sources.extract import Extracted, clean_text, decode_text, extract_bytes, norm_date
from autodidact.sources.ingest_batch import IngestBatch, snapshot_text
from autodidact.sources.passage_index import PassageIndex, kind_for_url, open_index
from autodidact.sources.rawfiles import (
    RawFile,
    candidate_names,
    links_out_of,
    list_raw_files,
    local_snapshot_ref,
    parse_raw_bytes,
    parse_raw_file,
)
from autodidact.sources.snapshots import SnapshotStore, local_url
from autodidact.store.paths import slugify

_QUIET = NullProgress()
# ".info": Texinfo's manuals (sources/plaintext.py reads their nodes as sections); ".gz": a gzipped
# document of any of these kinds, as Debian ships its manuals (sources/extract.py _gunzip)
SUPPORTED = (".md", ".markdown", ".txt", ".html", ".htm", ".pdf", ".info", ".gz")
_TEXT_SUFFIXES = {".md": ".md", ".markdown": ".md", ".txt": ".txt"}


@dataclass(frozen=True)
class AddedFile:
    """One ingested document."""

    source: str
    raw_file: str
    snapshot_ref: str
    new: bool


@dataclass(frozen=True)
class SkippedFile:
    """A file that was not ingested, and why."""

    source: str
    reason: str


@dataclass
class AddReport:
    """What ``add`` did: ``added`` (new or already present) and ``skipped``."""

    added: list[AddedFile] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)


@dataclass
class CorpusReport:
    """What ``index_corpus`` did: newly indexed, already indexed, skipped."""

    added: list[AddedFile] = field(default_factory=list)
    unchanged: list[AddedFile] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)


def expand_paths(paths: Iterable[Path | str]) -> tuple[list[tuple[Path, Path]], list[SkippedFile]]:
    """Files to ingest as (file, base folder) pairs, recursive, hidden entries skipped; plus misses."""
    found: list[tuple[Path, Path]] = []
    missing: list[SkippedFile] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            base = path.resolve()
            for child in sorted(path.rglob("*")):
                rel = child.relative_to(path)
                if any(part.startswith(".") for part in rel.parts[:-1]) or not child.is_file():
                    continue  # inside a hidden folder (.git, .venv): not the person's documents
                if rel.name.startswith("."):
                    missing.append(SkippedFile(str(child), "hidden file name (starts with '.'): not added"))
                    continue
                # A link inside the folder may point anywhere (~/.ssh/id_rsa): only what stays
                # inside the folder given is read (docs/hardening.md, "Links").
                target = child.resolve()
                if base not in target.parents:
                    missing.append(SkippedFile(str(child), f"a link to {target}, outside {path}: not followed"))
                    continue
                found.append((child, path))
        elif path.is_file():
            found.append((path, path.parent))
        else:
            missing.append(SkippedFile(str(raw), "not found"))
    return found, missing


class SourceMeta(TypedDict):
    """What a document's own metadata says of it (``source_meta``)."""

    author: str | None
    published_at: str | None


def source_meta(extracted: Extracted) -> SourceMeta:
    """The author and date a document's own metadata gives (HTML meta tags, PDF info), for its
    manifest line: a report cites a local document with them as it cites a web page."""
    author = " ".join((extracted.author or "").split())[:200] or None
    return SourceMeta(author=author, published_at=norm_date(extracted.date))


def _meta_fields(extracted: Extracted) -> dict[str, str]:
    """:func:`source_meta` without its empty fields: what a manifest line adds."""
    return {k: v for k, v in source_meta(extracted).items() if isinstance(v, str) and v}


def index_raw_file(
    kb_root: Path, path: Path, index: PassageIndex, *, author: str | None = None, published_at: str | None = None
) -> tuple[str, bool]:
    """Snapshot and index one file in raw/ (never modifying it); returns (snapshot_ref, newly indexed).

    One document on its own (a store of its own); many go through :func:`add_paths`' batches."""
    rf = parse_raw_file(path)
    store = SnapshotStore.for_folder(kb_root)
    text = snapshot_text(store, rf)
    snap, _ = store.store(rf.url, text)
    new = index.add_document(
        snap, text, rf.title, kind_for_url(rf.url), raw_file=rf.filename, author=author, published_at=published_at
    )
    return snap.snapshot_ref, new


MAX_FILE_BYTES = 50_000_000  # default of fetch.max_file_bytes (docs/hardening.md, "Sizes")


def _too_large(path: Path, limit: int) -> str | None:
    """Why ``path`` is not read (its size beyond ``limit``), or None."""
    try:
        size = path.stat().st_size
    except OSError:
        return None  # reported as unreadable when read
    if size <= limit:
        return None
    return f"{size / 1e6:.0f} MB is more than the {limit / 1e6:g} MB limit (fetch.max_file_bytes in autodidact.toml)"


def _claim_name(
    batch: IngestBatch, raw_dir: Path, names: Iterable[str], same: Callable[[Path, bytes], bool]
) -> tuple[str, bool]:
    """The first of ``names`` free in raw/ (neither on disk nor staged in this batch), or the one
    already holding this document (``same``); returns (name, whether it is new)."""
    first = ""
    for name in names:
        first = first or name
        path = raw_dir / name
        staged = batch.files.staged(path)
        if staged is None and path.exists():
            try:
                staged = path.read_bytes()
            except OSError:
                continue
        if staged is not None:
            if same(path, staged):
                return name, False
            continue
        return name, True
    raise AutodidactError(f"too many raw files named like {first}", hint="rename the file")


def _same_body(text: str) -> Callable[[Path, bytes], bool]:
    def same(path: Path, data: bytes) -> bool:
        try:
            return parse_raw_bytes(path, data).body == text
        except AutodidactError:
            return False

    return same


def _restructured(suffix: str, data: bytes, extracted: Extracted) -> bool:
    """Whether a ``.txt`` file is a page the plain-text reader restructures — a pydoc page, a
    manual page, an Info manual — rather than prose it leaves as it is.

    Why: such a page is copied into raw/ as the markdown the reader makes of it (its sections as
    headings, pydoc's margin bars and "Method resolution order" blocks gone), as an HTML page is;
    copied unchanged, `add`'s copy of `python -m pydoc selectors > selectors.txt` was quoted bars
    and all ("class SelectSelector(_BaseSelectorImpl) | Select-based selector. | | Method
    resolution order: …"), while `--corpus` read the same file as sections (docs/sections.md)."""
    return suffix == ".txt" and extracted.text != clean_text(decode_text(data))


def _stage_added(batch: IngestBatch, raw_dir: Path, path: Path, day: str) -> tuple[str, str]:
    """Stage one outside file: its raw copy (a text file unchanged, html/pdf as extracted text with
    a header) and its snapshot. Returns (raw file name, snapshot ref)."""
    data = path.read_bytes()
    extracted = extract_bytes(data, filename=path.name)
    stem = f"{day}_{slugify(path.stem)}"
    suffix = path.suffix.lower()
    if (
        suffix in _TEXT_SUFFIXES
        and extracted.media_type != "application/pdf"
        and not _restructured(suffix, data, extracted)
    ):
        text = decode_text(data).replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
        if "\x00" in text:
            raise AutodidactError(f"{path.name} contains NUL bytes", hint="add text files only")
        raw_bytes = text.encode("utf-8")
        names = candidate_names(stem, _TEXT_SUFFIXES[suffix])
        name, new = _claim_name(batch, raw_dir, names, lambda _p, d: d == raw_bytes)
    else:
        names = candidate_names(stem, ".md")
        name, new = _claim_name(batch, raw_dir, names, _same_body(extracted.text))
        url = local_url("raw", name)
        rf = RawFile(
            filename=name,
            title=extracted.title or path.stem,
            url=url,
            fetched_date=stem[:10],
            snapshot_ref=local_snapshot_ref(url, extracted.text),
            body=extracted.text,
            user_contributed=True,
            language=batch.language or detect_language(extracted.text[:4000]),
        )
        raw_bytes = rf.render().encode("utf-8")
    raw_path = raw_dir / name
    staged = raw_bytes if new else (batch.files.staged(raw_path) or raw_path.read_bytes())
    rf = parse_raw_bytes(raw_path, staged)
    text = snapshot_text(batch.store, rf)
    meta = _meta_fields(extracted)
    snap = batch.stage(
        str(path),
        rf.url,
        text,
        title=rf.title,
        kind=kind_for_url(rf.url),
        raw_file=name,
        raw=(raw_path, raw_bytes) if new else None,
        meta=meta,
    )
    return name, snap.snapshot_ref


def _stage_raw(batch: IngestBatch, path: Path, shown: str | None = None) -> tuple[str, str]:
    """Stage the snapshot of a file already in raw/ (never modifying it)."""
    rf = parse_raw_file(path)
    text = snapshot_text(batch.store, rf)
    kind = kind_for_url(rf.url)
    snap = batch.stage(shown or path.name, rf.url, text, title=rf.title, kind=kind, raw_file=rf.filename)
    return rf.filename, snap.snapshot_ref


def add_paths(
    kb: KnowledgeBase,
    paths: Iterable[Path | str],
    *,
    progress: Progress = _QUIET,
    date: str | None = None,
    max_bytes: int = MAX_FILE_BYTES,
) -> AddReport:
    """Copy files and folders into raw/, snapshot and index them; unsupported files are skipped.

    Documents go in batches (sources/ingest_batch.py): a few syncs per batch, not per document,
    and one line of progress per batch."""
    report = AddReport()
    files, report.skipped = expand_paths(paths)
    day = date or date_cls.today().isoformat()
    raw_dir = kb.raw
    raw_dir.mkdir(parents=True, exist_ok=True)
    raw_resolved = raw_dir.resolve()
    cache_resolved = kb.source_cache.resolve()
    kb_resolved = kb.root.resolve()
    outside_skips = len(report.skipped)
    with open_index(kb.root) as index:
        batch = IngestBatch(kb.root, index, progress, len(files), "add")

        def commit(done: int, last: bool = False) -> None:
            for doc, new in batch.commit(done, len(report.skipped) - outside_skips, last=last):
                report.added.append(AddedFile(doc.shown, doc.raw_file, doc.snapshot.snapshot_ref, new))

        for done, (path, _base) in enumerate(files):
            if batch.full():
                commit(done)
            progress.advance(done, len(files), path.name)
            shown = str(path)
            suffix = path.suffix.lower()
            resolved = path.resolve()
            if cache_resolved in resolved.parents:
                report.skipped.append(SkippedFile(shown, "inside source_cache/ (snapshots are not sources to add)"))
                continue
            if kb_resolved in resolved.parents and resolved.parent != raw_resolved:
                # `add .` inside the knowledge base, or `add wiki/`: its own files are not sources.
                report.skipped.append(SkippedFile(shown, "part of the knowledge base itself (only raw/ holds sources)"))
                continue
            if suffix not in SUPPORTED:
                report.skipped.append(SkippedFile(shown, f"unsupported file type {suffix or '(none)'}"))
                continue
            if (why := _too_large(path, max_bytes)) is not None:
                report.skipped.append(SkippedFile(shown, why))
                continue
            try:
                if resolved.parent == raw_resolved:  # already in raw/: index in place
                    _stage_raw(batch, path, shown)
                else:
                    _stage_added(batch, raw_dir, path, day)
            except OSError as exc:
                report.skipped.append(SkippedFile(shown, f"unreadable: {exc.strerror or exc}"))
                continue
            except AutodidactError as exc:
                report.skipped.append(SkippedFile(shown, exc.message))
                continue
        commit(len(files), last=True)
    progress.advance(len(files), len(files))
    return report


def scan_raw(kb: KnowledgeBase, *, progress: Progress = _QUIET) -> AddReport:
    """Snapshot and index every raw/ file not yet indexed (files a person dropped in by hand)."""
    report = AddReport()
    for link in links_out_of(kb.raw):
        report.skipped.append(SkippedFile(link.name, "a link out of raw/: not followed (docs/hardening.md)"))
    outside_skips = len(report.skipped)
    raw_files = list_raw_files(kb.raw)
    with open_index(kb.root) as index:
        batch = IngestBatch(kb.root, index, _QUIET, len(raw_files), "scan")

        def commit(done: int, last: bool = False) -> None:
            for doc, new in batch.commit(done, len(report.skipped) - outside_skips, last=last):
                report.added.append(AddedFile(doc.shown, doc.raw_file, doc.snapshot.snapshot_ref, new))
                if new:
                    progress.message(f"indexed raw/{doc.raw_file}")

        for done, path in enumerate(raw_files):
            if batch.full():
                commit(done)
            try:
                _stage_raw(batch, path)
            except OSError as exc:
                report.skipped.append(SkippedFile(path.name, f"unreadable: {exc.strerror or exc}"))
                continue
            except AutodidactError as exc:
                report.skipped.append(SkippedFile(path.name, exc.message))
                continue
        commit(len(raw_files), last=True)
    return report


def index_corpus(
    root: Path,
    paths: Iterable[Path | str],
    *,
    name: str | None = None,
    progress: Progress = _QUIET,
    max_bytes: int = MAX_FILE_BYTES,
) -> CorpusReport:
    """Snapshot documents under ``local_url("corpus/<name>", relpath)`` and index them as ``corpus``.

    In batches, as :func:`add_paths`: one line of progress per batch, a count and an ETA."""
    report = CorpusReport()
    files, report.skipped = expand_paths(paths)
    outside_skips = len(report.skipped)
    with open_index(Path(root)) as index:
        batch = IngestBatch(Path(root), index, progress, len(files), "corpus")

        def commit(done: int, last: bool = False) -> None:
            for doc, new in batch.commit(done, len(report.skipped) - outside_skips, last=last):
                item = AddedFile(doc.shown, "", doc.snapshot.snapshot_ref, new)
                (report.added if new else report.unchanged).append(item)

        for done, (path, base) in enumerate(files):
            if batch.full():
                commit(done)
            progress.advance(done, len(files), path.name)
            shown = str(path)
            if path.suffix.lower() not in SUPPORTED:
                report.skipped.append(SkippedFile(shown, f"unsupported file type {path.suffix or '(none)'}"))
                continue
            if (why := _too_large(path, max_bytes)) is not None:
                report.skipped.append(SkippedFile(shown, why))
                continue
            try:
                extracted = extract_bytes(path.read_bytes(), filename=path.name)
                folder = name or base.name or "corpus"
                url = local_url(f"corpus/{folder}", path.relative_to(base).as_posix())
                title = extracted.title or path.stem
                batch.stage(shown, url, extracted.text, title=title, kind="corpus", meta=_meta_fields(extracted))
            except OSError as exc:
                report.skipped.append(SkippedFile(shown, f"unreadable: {exc.strerror or exc}"))
                continue
            except AutodidactError as exc:
                report.skipped.append(SkippedFile(shown, exc.message))
                continue
        commit(len(files), last=True)
    progress.advance(len(files), len(files))
    return report
