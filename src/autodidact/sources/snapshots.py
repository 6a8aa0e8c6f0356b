"""Immutable, content-addressed source snapshots (docs/contracts.md §3.1).

Why: evidence is only as trustworthy as the bytes it quotes. A snapshot is named by the hash of
its URL and the hash of its text, so the same page read twice is one object, a changed page is a
new object beside the old one, and nothing is ever overwritten. ``verify`` recomputes both hashes,
so a tampered file is caught before any quote is checked against it.

Layout: ``source_cache/<url_sha256>/<content_sha256>.md`` plus ``<content_sha256>.meta.json``.
A ``snapshot_ref`` is ``source_cache/<64 hex>/<64 hex>.md``, relative to the folder that holds the
cache (a knowledge base or a report folder), so moving that folder breaks nothing.

Local documents get the portable URL ``https://autodidact.invalid/<kind>/<relative path>``:
``.invalid`` is reserved (RFC 2606) and never resolves, so such a URL can never be fetched, and it
holds no machine-specific absolute path.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit, urlunsplit

from autodidact.errors import InputError, IntegrityError, PathSafetyError
from autodidact.store.atomic import fsync_dir
from autodidact.store.hashing import sha256_text

if TYPE_CHECKING:
    from autodidact.store.batch import FileBatch

SCHEMA_VERSION = "1.0"
CACHE_DIRNAME = "source_cache"
LOCAL_HOST = "autodidact.invalid"
REF_RE = re.compile(r"^source_cache/([0-9a-f]{64})/([0-9a-f]{64})\.md$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class Snapshot:
    """Metadata of one stored snapshot."""

    snapshot_ref: str
    url_hash: str
    content_hash: str
    normalized_url: str

    def meta(self) -> dict[str, str]:
        """The ``.meta.json`` content (docs/contracts.md §3.1)."""
        return {
            "content_hash": self.content_hash,
            "encoding": "utf-8",
            "media_type": "text/markdown",
            "normalized_url": self.normalized_url,
            "schema_version": SCHEMA_VERSION,
            "url_hash": self.url_hash,
        }

    def as_dict(self) -> dict[str, str]:
        """JSON output of the CLI: the ref plus the metadata."""
        return {"snapshot_ref": self.snapshot_ref, **self.meta()}


def shown_url(url: str) -> str:
    """The URL as a message may show it: any ``user:password@`` part replaced by ``***@``."""
    return re.sub(r"(?<=//)[^/@\s]*@", "***@", url)


_NORMALIZED: dict[str, str] = {}  # URL → its normal form (a pure function of the string)
_NORMALIZED_LIMIT = 200_000  # URLs remembered before the memory starts over


def normalize_url(url: str) -> str:
    """Normalise a URL exactly as docs/contracts.md §3.1 says, or raise :class:`InputError`.

    The result is remembered per string: every research round normalises the URL of every raw
    file (the search's "read before" list), and raw/ grows with the knowledge base. A URL that
    does not normalise is worked out (and raises) again each time."""
    hit = _NORMALIZED.get(url)
    if hit is not None:
        return hit
    out = _normalize_url(url)
    if len(_NORMALIZED) >= _NORMALIZED_LIMIT:
        _NORMALIZED.clear()
    _NORMALIZED[url] = out
    return out


def _normalize_url(url: str) -> str:
    url = url.strip()
    if not url:
        raise InputError("empty URL")
    shown = shown_url(url)  # what a message may repeat: never a user:password@ part
    if any(ch.isspace() or unicodedata.category(ch) == "Cc" for ch in url):
        raise InputError(f"URL {shown!r} contains whitespace or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise InputError(f"URL {shown!r} is malformed: {exc}") from None
    scheme = parts.scheme.lower()
    if scheme not in {"http", "https"}:
        raise InputError(f"URL {shown!r} is not http or https")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise InputError(f"URL {shown!r} carries user information", hint="remove the user:password@ part")
    host = parts.hostname or ""
    if not host:
        raise InputError(f"URL {shown!r} has no host")
    if ":" in host:  # IPv6 literal
        host_out = f"[{host.lower()}]"
    else:
        try:
            host_out = host.encode("idna").decode("ascii").lower()
        except UnicodeError:
            raise InputError(f"URL {shown!r} has a host that is not valid IDNA") from None
    netloc = host_out
    if port is not None and not ((scheme == "http" and port == 80) or (scheme == "https" and port == 443)):
        netloc = f"{host_out}:{port}"
    path = parts.path or "/"
    return urlunsplit((scheme, netloc, path, parts.query, ""))


def url_hash(url: str) -> str:
    """sha256 of the normalised URL."""
    return sha256_text(normalize_url(url))


def local_url(kind: str, relative_path: str) -> str:
    """Portable URL for a local document (``raw``, ``corpus/<name>``...), no absolute path."""
    rel = relative_path.replace("\\", "/").lstrip("/")
    if rel.startswith("/") or ".." in rel.split("/"):
        raise PathSafetyError(f"local document path {relative_path!r} is not relative")
    return f"https://{LOCAL_HOST}/{quote(kind)}/{quote(rel)}"


def location(url: str) -> str:
    """Where a source is, for a reader: a local document's path relative to its corpus
    ("corpus/ch02.en.html"), never the ``.invalid`` placeholder address; else the URL itself."""
    if is_local_url(url):
        path = urlsplit(url).path.lstrip("/")
        kind, _, rest = path.partition("/")
        return rest or path or kind
    return url


def is_local_url(url: str) -> bool:
    """True for the portable URLs of local documents (never fetched)."""
    try:
        return (urlsplit(url).hostname or "").lower() == LOCAL_HOST
    except ValueError:
        return False


def normalize_text(text: str) -> str:
    """NFC and every whitespace run collapsed to one space: the only quote-matching rule."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def quote_in_text(quote_text: str, snapshot_text: str) -> bool:
    """A direct quote matches when, normalised, it is a substring of the normalised snapshot."""
    needle = normalize_text(quote_text)
    return bool(needle) and needle in normalize_text(snapshot_text)


def parse_ref(ref: str) -> tuple[str, str]:
    """Split a ``snapshot_ref`` into (url_hash, content_hash) or raise :class:`PathSafetyError`."""
    match = REF_RE.match(ref or "")
    if match is None:
        raise PathSafetyError(
            f"invalid snapshot_ref {ref!r}",
            hint="expected source_cache/<64 lowercase hex>/<64 lowercase hex>.md",
        )
    return match.group(1), match.group(2)


def _install_pair(folder: Path, items: tuple[tuple[Path, bytes], ...]) -> bool:
    """Install each (path, bytes) without ever overwriting; one folder fsync for the pair.

    Each file is complete and fsynced under a temporary name before ``os.link`` gives it its real
    name, so a reader never sees a partial file and racing writers of the same bytes all succeed
    with one file. Different bytes under an existing name are refused. Returns whether anything
    was written.
    """
    new_folder = not folder.is_dir()
    folder.mkdir(parents=True, exist_ok=True)
    temps: list[tuple[Path, Path, bytes]] = []
    wrote = False
    try:
        for path, data in items:
            if path.exists():
                _same_or_refuse(path, data)
                continue
            fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.p{os.getpid()}.", suffix=".tmp", dir=folder)
            temps.append((Path(tmp_name), path, data))
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        for tmp, path, data in temps:
            try:
                os.link(tmp, path)
                wrote = True
            except FileExistsError:  # a concurrent writer got there first
                _same_or_refuse(path, data)
    finally:
        for tmp, _, _ in temps:
            with contextlib.suppress(OSError):
                tmp.unlink()
    if wrote:
        fsync_dir(folder)
    if new_folder:  # last: by now the folder's creation is usually already on disk, so this is cheap
        fsync_dir(folder.parent)
    return wrote


def _same_or_refuse(path: Path, data: bytes) -> None:
    if path.read_bytes() != data:
        raise IntegrityError(
            f"{path.name} already exists with different bytes; snapshots are never overwritten",
            hint="run `autodidact snapshot verify` on it; the cache may have been tampered with",
        )


class SnapshotStore:
    """The store rooted at one ``source_cache`` folder."""

    def __init__(self, cache_dir: Path) -> None:
        self.cache_dir = Path(cache_dir)

    @classmethod
    def for_folder(cls, folder: Path) -> SnapshotStore:
        """The store of a knowledge base or report folder."""
        return cls(Path(folder) / CACHE_DIRNAME)

    def _check_root(self, create: bool) -> Path:
        if self.cache_dir.is_symlink():
            raise PathSafetyError(f"source cache {self.cache_dir} is a symlink", hint="use a real folder")
        if create:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
        return self.cache_dir.resolve()

    def _paths(self, uhash: str, chash: str) -> tuple[Path, Path]:
        if self.cache_dir.is_symlink():
            raise PathSafetyError(f"source cache {self.cache_dir} is a symlink", hint="use a real folder")
        root = self.cache_dir
        if not (_HEX64.match(uhash) and _HEX64.match(chash)):
            raise PathSafetyError("snapshot hashes must be 64 lowercase hex characters")
        folder = root / uhash
        if folder.is_symlink():
            raise PathSafetyError(f"snapshot folder {uhash} is a symlink")
        return folder / f"{chash}.md", folder / f"{chash}.meta.json"

    def _prepare(self, url: str, text: str) -> tuple[Snapshot, tuple[tuple[Path, bytes], tuple[Path, bytes]]]:
        """The snapshot of ``text`` under ``url`` and its two files (text, metadata) with their bytes."""
        if "\x00" in text:
            raise InputError("snapshot text contains a NUL byte")
        norm = normalize_url(url)
        uhash, chash = sha256_text(norm), sha256_text(text)
        snap = Snapshot(f"{CACHE_DIRNAME}/{uhash}/{chash}.md", uhash, chash, norm)
        self._check_root(create=True)
        md_path, meta_path = self._paths(snap.url_hash, snap.content_hash)
        meta = (json.dumps(snap.meta(), sort_keys=True, separators=(",", ":")) + "\n").encode()
        return snap, ((md_path, text.encode("utf-8")), (meta_path, meta))

    def store(self, url: str, text: str) -> tuple[Snapshot, bool]:
        """Store ``text`` for ``url``; returns the snapshot and whether anything was written."""
        snap, files = self._prepare(url, text)
        return snap, _install_pair(files[0][0].parent, files)

    def stage(
        self, url: str, text: str, batch: FileBatch, more: tuple[tuple[Path, bytes], ...] = ()
    ) -> tuple[Snapshot, bool]:
        """:meth:`store` as part of a group commit (store/batch.py): the text and metadata files,
        then ``more`` (the document's raw copy), staged as one group and installed with the batch.
        Returns the snapshot and whether its files are new."""
        snap, files = self._prepare(url, text)
        written = batch.stage([*files, *more])
        return snap, any(written[:2])

    def verify(self, ref: str, url: str | None = None) -> Snapshot:
        """Recompute both hashes of ``ref``; raise :class:`IntegrityError` on any mismatch."""
        return self._verified(ref, url)[0]

    def _verified(self, ref: str, url: str | None = None) -> tuple[Snapshot, str]:
        """:meth:`verify`, with the text it read (so a reader reads and decodes it once)."""
        uhash, chash = parse_ref(ref)
        md_path, meta_path = self._paths(uhash, chash)
        if md_path.is_symlink() or meta_path.is_symlink():
            # A snapshot is a regular file the store wrote; a link may point anywhere, and its
            # target may change after it verifies (docs/hardening.md, "Links").
            raise IntegrityError(f"snapshot {ref} is a symbolic link, not a regular file")
        try:
            data = md_path.read_bytes()
            meta_bytes = meta_path.read_bytes()
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            raise IntegrityError(f"snapshot {ref} is missing from {self.cache_dir}") from None
        if hashlib.sha256(data).hexdigest() != chash:
            raise IntegrityError(f"snapshot {ref}: content does not match its hash (tampered?)")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise IntegrityError(f"snapshot {ref} is not UTF-8") from None
        try:
            meta = json.loads(meta_bytes.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            raise IntegrityError(f"snapshot {ref}: metadata is not valid JSON") from None
        norm = meta.get("normalized_url") if isinstance(meta, dict) else None
        expected = Snapshot(ref, uhash, chash, str(norm))
        if not isinstance(norm, str) or sha256_text(norm) != uhash or meta != expected.meta():
            raise IntegrityError(f"snapshot {ref}: metadata does not match the snapshot (tampered?)")
        if url is not None and url_hash(url) != uhash:
            raise IntegrityError(f"snapshot {ref} belongs to {norm}, not to {normalize_url(url)}")
        return expected, text

    def read(self, ref: str, url: str | None = None) -> str:
        """The verified text of a snapshot (read once: the bytes verified are the bytes returned)."""
        return self._verified(ref, url)[1]

    def lookup(self, url: str, content_hash: str | None = None) -> list[Snapshot]:
        """Every verified snapshot of ``url`` sorted by content hash; ``[]`` if none."""
        uhash = url_hash(url)
        if not self.cache_dir.exists():
            return []
        root = self._check_root(create=False)
        folder = root / uhash
        if not folder.is_dir():
            return []
        found = []
        for meta_path in sorted(folder.glob("*.meta.json")):
            chash = meta_path.name.removesuffix(".meta.json")
            if content_hash is not None and chash != content_hash:
                continue
            found.append(self.verify(f"{CACHE_DIRNAME}/{uhash}/{chash}.md", url))
        return sorted(found, key=lambda s: s.content_hash)

    def refs(self) -> list[str]:
        """Every snapshot ref in the store, unverified (cheap: for counting, never for reading)."""
        if not self.cache_dir.is_dir():
            return []
        return [
            f"{CACHE_DIRNAME}/{m.parent.name}/{m.name.removesuffix('.meta.json')}.md"
            for m in sorted(self.cache_dir.glob("*/*.meta.json"))
        ]

    def iter_texts(self) -> Iterator[tuple[Snapshot, str]]:
        """Every snapshot in the store with its text, verified, each file read once (index rebuilds)."""
        if not self.cache_dir.exists():
            return
        root = self._check_root(create=False)
        for meta_path in sorted(root.glob("*/*.meta.json")):
            ref = f"{CACHE_DIRNAME}/{meta_path.parent.name}/{meta_path.name.removesuffix('.meta.json')}.md"
            yield self._verified(ref)

    def iter_all(self) -> list[Snapshot]:
        """Every snapshot in the store (verified), for index rebuilds."""
        if not self.cache_dir.exists():
            return []
        root = self._check_root(create=False)
        out = []
        for meta_path in sorted(root.glob("*/*.meta.json")):
            ref = f"{CACHE_DIRNAME}/{meta_path.parent.name}/{meta_path.name.removesuffix('.meta.json')}.md"
            out.append(self.verify(ref))
        return out
