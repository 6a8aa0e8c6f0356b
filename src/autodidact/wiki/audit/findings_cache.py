"""The audit's per-article facts, kept by content hash in ``.autodidact/audit_facts.jsonl``.

Why: phase 2 of the audit reads every article every round, and the wiki grows with every round,
while a round changes a handful of articles. What phase 2 reads from one article alone
(:func:`article_findings.article_facts`: its sentences and citations, quoted terms, links, cue
words) is kept per article, keyed by the file's name and the hash of its bytes; only an article
whose bytes changed is read again. What depends on the rest of the wiki is never kept: it is
assembled from the facts at every audit (:func:`article_findings.all_findings`), so the report is
the one an audit without the cache writes, byte for byte.

The file is derived data (docs/architecture.md principle 1): deleting it costs one audit's full
scan and changes no finding. It is rebuilt when missing, when any line is damaged, and when its
header does not match — the header holds the language, the topic's subject words and a hash of the
source code the facts are computed by, so a rule changed in the code never meets facts written by
the old rule. A line is ``{"name", "digest", "facts"}``; a later line for a name replaces an
earlier one. An audit appends the lines of the articles it read again (one write, as long as the
round's changes), and rewrites the file atomically, with one line per article of the wiki, when it
was rebuilt or when stale lines outnumber live ones. A process keeps what it last read or wrote in
memory while the file's stat is unchanged; entries are keyed by content, so even a stale memory or
a line left by a deleted article can only hold correct facts.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from autodidact.store import atomic
from autodidact.wiki.audit.article_findings import ArticleFacts, article_facts
from autodidact.wiki.audit.framework_gaps import subject_terms
from autodidact.wiki.common.articles import WikiFile

CACHE_NAME = "audit_facts.jsonl"
FORMAT = 1
# The code the facts are computed by: the audit, the wiki's shared text rules and the word model.
_CODE_DIRS = ("wiki/audit", "wiki/common", "text")


@dataclass
class CacheStats:
    """What the cache did in this process (tests read it: computed = articles read again)."""

    computed: int = 0
    reused: int = 0
    loads: int = 0
    rebuilt: int = 0  # files found missing, damaged or written by other code / for another topic
    writes: int = 0


STATS = CacheStats()


@dataclass
class _Loaded:
    header: str
    entries: dict[str, tuple[str, str, ArticleFacts]] = field(default_factory=dict)  # name → (digest, line, facts)
    signature: tuple[int, int, int] | None = None  # (inode, size, mtime_ns) of the file as last read or written
    complete: bool = True  # False: the file must be written whole even if no entry changed
    lines: int = 0  # entry lines in the file (live or replaced by a later line)


_MEMORY: dict[Path, _Loaded] = {}
_MAX_MEMORY = 8


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of the source files the facts depend on (a changed rule invalidates every entry)."""
    package = Path(__file__).resolve().parent.parent.parent
    digest = hashlib.sha256(f"format {FORMAT}".encode())
    for folder in _CODE_DIRS:
        for path in sorted((package / folder).glob("*.py")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def _signature(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _read(path: Path, header: str) -> _Loaded:
    """The cache file's entries; an empty, incomplete cache when it is missing, damaged or foreign."""
    STATS.loads += 1
    signature = _signature(path)
    try:
        lines = path.read_text("utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        STATS.rebuilt += 1
        return _Loaded(header, complete=False)
    if len(lines) < 2 or lines[0] != header or lines[-1] != "":  # no header, or a torn last line
        STATS.rebuilt += 1
        return _Loaded(header, complete=False)
    loaded = _Loaded(header, signature=signature, lines=len(lines) - 2)
    try:
        for line in lines[1:-1]:
            data = json.loads(line)
            name, digest = str(data["name"]), str(data["digest"])
            loaded.entries[name] = (digest, line, ArticleFacts.from_json(data["facts"]))
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        STATS.rebuilt += 1
        return _Loaded(header, complete=False)
    return loaded


def _load(path: Path, header: str) -> _Loaded:
    known = _MEMORY.get(path)
    fresh = known is not None and known.header == header and known.signature is not None
    if known is not None and fresh and _signature(path) == known.signature:
        return known
    return _read(path, header)


def _header(lang: str, subject: frozenset[str]) -> str:
    data = {"format": FORMAT, "code": code_fingerprint(), "lang": lang, "subject": sorted(subject)}
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def cached_facts(internal: Path, files: list[WikiFile], lang: str, topic: str | None) -> list[ArticleFacts]:
    """:func:`article_facts` of every article of ``files`` (in order), computed only for articles
    whose name and content hash the cache in ``internal`` does not hold; the cache is brought up to
    date (see the module docstring; a failed write only loses the saving)."""
    zh = lang == "zh"
    subject = subject_terms(topic) if topic else frozenset()
    path = internal / CACHE_NAME
    loaded = _load(path, _header("zh" if zh else "en", subject))
    now = _Loaded(loaded.header, signature=loaded.signature, complete=loaded.complete, lines=loaded.lines)
    added: list[str] = []
    for f in files:
        hit = loaded.entries.get(f.name)
        if hit is not None and hit[0] == f.digest:
            STATS.reused += 1
            now.entries[f.name] = hit
            continue
        STATS.computed += 1
        facts = article_facts(f.article, zh, subject)
        line = json.dumps({"name": f.name, "digest": f.digest, "facts": facts.to_json()}, ensure_ascii=False)
        now.entries[f.name] = (f.digest, line, facts)
        added.append(line)
    _save(path, now, added)
    _MEMORY.pop(path, None)
    _MEMORY[path] = now
    while len(_MEMORY) > _MAX_MEMORY:
        del _MEMORY[next(iter(_MEMORY))]
    return [now.entries[f.name][2] for f in files]


def _save(path: Path, cache: _Loaded, added: list[str]) -> None:
    """Append the new lines, or write the file whole when it must be rebuilt or is mostly stale."""
    try:
        if cache.complete and not added:
            return
        if cache.complete and cache.lines + len(added) <= 2 * len(cache.entries) + 64:
            with open(path, "a", encoding="utf-8") as fh:
                fh.write("".join(line + "\n" for line in added))
            cache.lines += len(added)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            lines = [cache.header, *(entry[1] for entry in cache.entries.values())]
            atomic.write_text(path, "".join(line + "\n" for line in lines))
            cache.lines, cache.complete = len(cache.entries), True
        STATS.writes += 1
        cache.signature = _signature(path)
    except OSError:
        cache.signature = None  # not (all) on disk: read the file again next time


def forget_memory() -> None:
    """Drop what this process remembers (the next audit reads the file, as a new process would)."""
    _MEMORY.clear()
