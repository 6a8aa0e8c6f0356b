"""Finding and reading sources for the agent: local index first, then web search; lookup before fetch.

Why one place: every rule about *where text may come from* lives here. Text reaches the extractor
only from a snapshot stored in ``<report_dir>/source_cache`` — a local passage's snapshot is copied
there (same URL and text give the same ref, so this is idempotent), a web URL is looked up in that
store before it is fetched, and a fetched page is stored under the ref its hashes fix (the write
runs behind extraction; ``flush`` finishes it before any evidence is validated or written, and the
validator then re-reads every quote from the stored file). Search-result snippets
are used to choose URLs and nothing else. URLs come only from search results; nothing a page or a
model says can add one.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from autodidact.errors import AutodidactError
from autodidact.evidence.focus import content_terms
from autodidact.evidence.quality import classify, from_raw_rating
from autodidact.evidence.relevance import aspect_bonus
from autodidact.evidence.textscore import BM25, coverage, kept_stopwords, terms
from autodidact.sources.extract import norm_date
from autodidact.sources.options import OptionEntry, entry_at, option_entries
from autodidact.sources.passage_index import manifest_meta
from autodidact.sources.passages import chunk_spans
from autodidact.sources.snapshots import CACHE_DIRNAME, SnapshotStore, is_local_url, normalize_url, url_hash
from autodidact.store.derived_db import connect, index_path
from autodidact.store.hashing import sha256_text
from autodidact.text.sections import QuoteLocator, Section, label, section_at, section_named, split_sections

if TYPE_CHECKING:
    from autodidact.sources.fetch import Document
    from autodidact.sources.passage_index import DocumentInfo, Passage, PassageIndex
    from autodidact.sources.search.base import SearchHit, SearchProvider

SEARCH_CACHE_DDL = """
CREATE TABLE IF NOT EXISTS evidence_search_cache (
    provider TEXT NOT NULL, query TEXT NOT NULL, n INTEGER NOT NULL, hits TEXT NOT NULL,
    PRIMARY KEY (provider, query, n)
);
CREATE TABLE IF NOT EXISTS evidence_doc_meta (
    snapshot_ref TEXT PRIMARY KEY, url TEXT NOT NULL, title TEXT NOT NULL, published_at TEXT, media_type TEXT,
    author TEXT
);
"""
# A cache written before pages' authors were kept gains the column (its rows read as no author).
DOC_META_AUTHOR = "ALTER TABLE evidence_doc_meta ADD COLUMN author TEXT"


@dataclass
class Doc:
    """A source read from a snapshot stored in the report folder."""

    url: str
    title: str
    kind: str  # web | corpus | raw
    snapshot_ref: str
    text: str
    quality: str
    quality_reason: str
    published_at: str | None = None
    fetched: bool = False
    author: str | None = None
    rated: bool = False
    _sections: list[Section] | None = field(default=None, init=False, repr=False, compare=False)
    _terms: frozenset[str] | None = field(default=None, init=False, repr=False, compare=False)
    _locator: QuoteLocator | None = field(default=None, init=False, repr=False, compare=False)
    _options: list[OptionEntry] | None = field(default=None, init=False, repr=False, compare=False)

    def section_label(self, quote: str) -> str:
        """``Doc title › Section title`` of the section where ``quote`` stands in the text.

        What a source cited for this quote is called: the chapter *and* its section
        (docs/sections.md). The document's title alone when the quote is not found or the
        document has no sections.
        """
        if self._locator is None:
            self._locator = QuoteLocator(self.text)
        found = self._locator.find(quote)
        if found is None:
            return self.title
        return label(self.title, section_at(self.sections(), found[0]).title)

    def sections(self) -> list[Section]:
        """The document's sections (split once, on first use)."""
        if self._sections is None:
            self._sections = split_sections(self.text, self.title)
        return self._sections

    def option_at(self, offset: int) -> str:
        """The option lines of the option entry whose description holds ``offset``, or ""
        (sources/options.py; entries found once, on first use)."""
        if self._options is None:
            self._options = option_entries(self.text)
        found = entry_at(self._options, offset)
        return found.head if found is not None else ""

    def names_any(self, wanted: frozenset[str]) -> bool:
        """Whether the document's text holds one of the ``wanted`` terms (its terms computed once)."""
        if self._terms is None:
            self._terms = frozenset(terms(self.text))
        return bool(wanted & self._terms)

    def section_span(self, heading: str) -> tuple[int, int] | None:
        """Offsets of the section a reader calls ``heading`` (all its parts), or None."""
        found = section_named(self.sections(), heading)
        return (found[0].start, found[-1].end) if found else None


@dataclass
class Candidate:
    """A document with the passages (offsets into its text) that matched a key question."""

    doc: Doc
    spans: list[tuple[int, int]]
    score: float
    angle: str = "neutral"
    # next-best passages beyond what best_spans ranks into ``spans``: read only where the first hold
    # what earlier rounds quoted (evidence/kq_research._spans_to_read)
    reserve: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class Counters:
    """What the collector did, for progress lines and the benchmark."""

    fetched: int = 0
    reused: int = 0
    local: int = 0
    searches: int = 0
    cached_searches: int = 0
    failures: list[str] = field(default_factory=list)


class Collector:
    """Reads sources into the report's snapshot store, shared by every key question of one run."""

    def __init__(
        self,
        report_dir: Path,
        kb_root: Path | None,
        providers: Sequence[SearchProvider],
        fetch_document: Callable[[str], Awaitable[Document]] | None,
        results_per_query: int = 8,
        excludes: Sequence[str] = (),
        prefer_new_over: Iterable[str] = (),
    ) -> None:
        self.report_dir = Path(report_dir)
        self.store = SnapshotStore.for_folder(self.report_dir)
        self.providers = list(providers)
        self.fetch_document = fetch_document
        self.n = results_per_query
        self.excludes = [e.lower() for e in excludes if e.strip()]
        self.counters = Counters()
        self.known = _normalized(prefer_new_over)  # URLs already read in earlier rounds: tie-break against them
        self._titles: dict[Path, list[tuple[DocumentInfo, list[str]]]] = {}
        self._title_index: dict[Path, dict[str, list[int]]] = {}
        self.docs: dict[str, Doc] = {}
        self._manifests: dict[Path, dict[str, dict[str, str]]] = {}
        self._pending: dict[str, asyncio.Future[Doc | None]] = {}
        self._writes: list[asyncio.Future[object]] = []
        # Snapshot writes fsync; their own threads keep them from starving DNS and extraction in the default pool.
        self._io = ThreadPoolExecutor(max_workers=4, thread_name_prefix="snapshot-write")
        self._indexes: list[tuple[Path, PassageIndex]] = []
        roots = [r for r in (kb_root, self.report_dir) if r is not None]
        for root in dict.fromkeys(Path(r).resolve() for r in roots):
            from autodidact.sources.passage_index import has_index, open_index

            if has_index(root):
                self._indexes.append((root, open_index(root)))
        self._db = connect(index_path(self.report_dir), [SEARCH_CACHE_DDL]) if self.providers else None
        if self._db is not None:
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(evidence_doc_meta)")}
            if "author" not in columns:
                with self._db:
                    self._db.execute(DOC_META_AUTHOR)

    def close(self) -> None:
        """Close the local indexes, the search cache and the writer threads."""
        self._io.shutdown(wait=True)
        for _, index in self._indexes:
            index.close()
        if self._db is not None:
            self._db.close()

    @property
    def has_web(self) -> bool:
        """Whether any web provider is configured."""
        return bool(self.providers) and self.fetch_document is not None

    # -- local ---------------------------------------------------------------------------------
    def local_candidates(self, query: str, kq_terms: list[list[str]], k: int = 8) -> list[Candidate]:
        """Passages of the KB's and the report's own index, grouped by document, their snapshots copied."""
        by_ref: dict[str, Candidate] = {}
        for root, index in self._indexes:
            for passage in index.search(query, k=k):
                if self._excluded(passage.title + " " + passage.text):
                    continue
                doc = self._local_doc(root, passage)
                if doc is None:
                    continue
                score = _span_score(kq_terms, body_text(passage.text))
                cand = by_ref.setdefault(doc.snapshot_ref, Candidate(doc, [], 0.0))
                if (passage.start, passage.end) not in cand.spans:
                    cand.spans.append((passage.start, passage.end))
                    cand.score = max(cand.score, score)
        return sorted(by_ref.values(), key=lambda c: (-c.score, c.doc.url))

    def furniture(self) -> frozenset[str]:
        """Keys of the sentences the local indexes hold in many documents (text/furniture.py)."""
        found: frozenset[str] = frozenset()
        for _, index in self._indexes:
            found |= index.furniture()
        return found

    def homes(self, topic: str, language: str) -> frozenset[str]:
        """Addresses of the chapters the local indexes treat the topic in (sources/outline.py)."""
        from autodidact.sources.outline import topic_homes

        found: frozenset[str] = frozenset()
        for _, index in self._indexes:
            found |= topic_homes(index, topic, language)
        return found

    def is_known(self, doc: Doc) -> bool:
        """Whether the document was read before (its URL is in ``prefer_new_over``)."""
        try:
            return normalize_url(doc.url) in self.known
        except AutodidactError:
            return False

    def title_candidates(self, kq_terms: list[list[str]], k: int = 6) -> list[Candidate]:
        """Documents whose *title* names the question's subject ("The "for" statement", "Generator functions").

        Reference corpora title their sections by subject; a body search for common words misses them.
        """
        scored: list[tuple[float, str, Path, DocumentInfo]] = []
        wanted = {t for v in kq_terms for t in v}
        for root, index in self._indexes:
            titles = self._title_terms(root, index)
            # A title sharing no term with the question scores 0 (title_score): only the titles
            # holding one of its terms are scored, in the index's order (the sort below is stable).
            by_term = self._title_terms_index(root, titles)
            for i in sorted({i for t in wanted for i in by_term.get(t, ())}):
                info, words = titles[i]
                ts = title_score(words, kq_terms)
                if ts >= TITLE_MIN:
                    scored.append((ts, info.snapshot_ref, root, info))
        # Known twins first, so a section stored under two names comes back under the one read before.
        scored.sort(key=lambda x: (-x[0], info_url(x[3]) not in self.known, x[1]))
        out: list[Candidate] = []
        texts: set[str] = set()
        for _ts, ref, root, info in scored:
            if len(out) >= k:
                break
            if self._excluded(info.title) or ref.rsplit("/", 1)[-1] in texts:
                continue
            texts.add(ref.rsplit("/", 1)[-1])
            doc = self._local_doc(root, info)
            if doc is not None:
                out.append(Candidate(doc, [], 0.0))
        return out

    def _title_terms(self, root: Path, index: PassageIndex) -> list[tuple[DocumentInfo, list[str]]]:
        if root not in self._titles:
            self._titles[root] = [(d, _title_content_terms(d.title)) for d in index.documents() if d.title]
        return self._titles[root]

    def _title_terms_index(self, root: Path, titles: list[tuple[DocumentInfo, list[str]]]) -> dict[str, list[int]]:
        """Title term → positions in ``titles`` (built once per collector, as ``titles`` is)."""
        found = self._title_index.get(root)
        if found is None:
            found = {}
            for i, (_info, words) in enumerate(titles):
                for term in set(words):
                    found.setdefault(term, []).append(i)
            self._title_index[root] = found
        return found

    def _local_doc(self, root: Path, passage: Passage | DocumentInfo) -> Doc | None:
        key = f"local:{passage.snapshot_ref}:{passage.url}"
        if key in self.docs:
            return self.docs[key]
        try:
            text = SnapshotStore.for_folder(root).read(passage.snapshot_ref, passage.url)
            snap, _ = self.store.store(passage.url, text)
        except AutodidactError as exc:
            self.counters.failures.append(f"{passage.url}: {exc.message}")
            return None
        quality, reason = classify(passage.url, passage.kind, passage.title)
        rated = _raw_rating(root, passage.raw_file)
        if rated is not None:
            quality, reason = rated, "rating in the raw file's header"
        meta = self._manifest(root).get(passage.snapshot_ref, {})
        doc = Doc(
            passage.url,
            passage.title or passage.url,
            passage.kind,
            snap.snapshot_ref,
            text,
            quality,
            reason,
            meta.get("published_at"),
            author=meta.get("author"),
        )
        self.counters.local += 1
        self.docs[key] = doc
        return doc

    def _manifest(self, root: Path) -> dict[str, dict[str, str]]:
        """Author and date by snapshot ref, as the index's manifest recorded them at ingest (read once
        per folder): a local document is cited with them as a fetched page is."""
        if root not in self._manifests:
            self._manifests[root] = manifest_meta(root)
        return self._manifests[root]

    def _excluded(self, text: str) -> bool:
        low = text.lower()
        return any(e in low for e in self.excludes)

    # -- web -----------------------------------------------------------------------------------
    async def web_hits(self, query: str) -> list[SearchHit]:
        """Search hits from every provider (cached per provider and query); failures are recorded."""
        from autodidact.sources.search.base import SearchHit

        hits: list[SearchHit] = []
        seen: set[str] = set()
        for provider in self.providers:
            cached = self._cached(provider.name, query)
            if cached is not None:
                self.counters.cached_searches += 1
                found = [SearchHit(**h) for h in cached]
            else:
                self.counters.searches += 1
                try:
                    found = await provider.search(query, self.n)
                except AutodidactError as exc:
                    self.counters.failures.append(f"{provider.name}: {exc.message}")
                    continue
                self._remember(provider.name, query, [h.as_dict() for h in found])
            for hit in found:
                try:
                    key = normalize_url(hit.url)
                except AutodidactError:
                    continue
                if key not in seen and not is_local_url(key) and not self._excluded(hit.title):
                    seen.add(key)
                    hits.append(hit)
        return hits

    def _cached(self, provider: str, query: str) -> list[dict[str, str]] | None:
        if self._db is None:
            return None
        row = self._db.execute(
            "SELECT hits FROM evidence_search_cache WHERE provider=? AND query=? AND n=?", (provider, query, self.n)
        ).fetchone()
        return json.loads(row[0]) if row else None

    def _remember(self, provider: str, query: str, hits: list[dict[str, str]]) -> None:
        if self._db is not None:
            with self._db:
                self._db.execute(
                    "INSERT OR REPLACE INTO evidence_search_cache VALUES (?,?,?,?)",
                    (provider, query, self.n, json.dumps(hits, ensure_ascii=False)),
                )

    async def read_web(self, url: str, title: str) -> Doc | None:
        """The document for a search-hit URL: stored snapshot if any, else fetched and stored. Once per URL."""
        try:
            key = normalize_url(url)
        except AutodidactError:
            return None
        if key in self.docs:
            return self.docs[key]
        if key not in self._pending:
            self._pending[key] = asyncio.ensure_future(self._read_web(key, title))
        doc = await self._pending[key]
        if doc is not None:
            self.docs[key] = doc
        return doc

    async def _read_web(self, url: str, title: str) -> Doc | None:
        try:
            found = self.store.lookup(url)
        except AutodidactError as exc:
            self.counters.failures.append(f"{url}: {exc.message}")
            found = []
        if found:
            snap = found[-1]
            text = await asyncio.to_thread(self.store.read, snap.snapshot_ref, url)
            meta = self._meta(snap.snapshot_ref)
            page_title = meta[0] if meta else (title or url)
            quality, reason = classify(url, "web", page_title, meta[2] if meta else None)
            self.counters.reused += 1
            published = meta[1] if meta else None
            author = meta[3] if meta else None
            return Doc(url, page_title, "web", snap.snapshot_ref, text, quality, reason, published, author=author)
        if self.fetch_document is None:
            return None
        try:
            document = await self.fetch_document(url)
        except AutodidactError as exc:
            self.counters.failures.append(f"{url}: {exc.message}")
            return None
        extracted = document.extracted
        text = extracted.text
        if "\x00" in text or not text.strip():
            self.counters.failures.append(f"{url}: no storable text")
            return None
        # Write-behind: the ref is known from the hashes; the fsyncs finish while extraction runs,
        # and ``flush`` waits for them before anything cites the snapshot.
        ref = f"{CACHE_DIRNAME}/{url_hash(url)}/{sha256_text(text)}.md"
        loop = asyncio.get_running_loop()
        self._writes.append(loop.run_in_executor(self._io, self.store.store, url, text))
        self.counters.fetched += 1
        page_title = (extracted.title or "").strip() or title or url
        published = norm_date(extracted.date)
        author = " ".join((extracted.author or "").split())[:200] or None
        self._remember_meta(ref, url, page_title, published, extracted.media_type, author)
        quality, reason = classify(url, "web", page_title, extracted.media_type)
        return Doc(url, page_title, "web", ref, text, quality, reason, published, fetched=True, author=author)

    async def flush(self) -> None:
        """Wait until every fetched page is stored; a refused store (tampered cache) raises."""
        writes, self._writes = self._writes, []
        for result in await asyncio.gather(*writes, return_exceptions=True):
            if isinstance(result, BaseException):
                raise result

    def _meta(self, ref: str) -> tuple[str, str | None, str | None, str | None] | None:
        """Title, date, media type and author recorded when a snapshot was fetched (so a re-run
        reads the same)."""
        if self._db is None:
            return None
        row = self._db.execute(
            "SELECT title, published_at, media_type, author FROM evidence_doc_meta WHERE snapshot_ref=?", (ref,)
        ).fetchone()
        return (str(row[0]), row[1], row[2], row[3]) if row else None

    def _remember_meta(
        self, ref: str, url: str, title: str, published: str | None, media_type: str | None, author: str | None
    ) -> None:
        if self._db is not None:
            with self._db:
                self._db.execute(
                    "INSERT OR REPLACE INTO evidence_doc_meta (snapshot_ref, url, title, published_at, media_type, "
                    "author) VALUES (?,?,?,?,?,?)",
                    (ref, url, title, published, media_type, author),
                )


TITLE_MIN = 0.45


_TITLE_TERMS: dict[str, list[str]] = {}  # document title → its content terms (titles are many, and stay)


def _title_content_terms(title: str) -> list[str]:
    """``content_terms(title)``, remembered: every round's search reads the titles of every document
    of the index, which grows with raw/. Read-only: the list is shared."""
    found = _TITLE_TERMS.get(title)
    if found is None:
        if len(_TITLE_TERMS) >= 200_000:
            _TITLE_TERMS.clear()
        found = _TITLE_TERMS[title] = content_terms(title)
    return found


def title_score(title_terms: list[str], variants: list[list[str]]) -> float:
    """How well a title names the question's subject: mean of title precision and question recall (0..1)."""
    title = set(title_terms)
    best = 0.0
    for v in variants:
        wanted = set(v)
        hit = title & wanted
        if hit and title:
            best = max(best, 0.5 * len(hit) / len(title) + 0.5 * len(hit) / len(wanted))
    return best


def info_url(info: DocumentInfo) -> str:
    """An indexed document's normalised URL ("" when it has none)."""
    try:
        return normalize_url(info.url)
    except AutodidactError:
        return ""


_HEADING_LINE = re.compile(r"^[ \t]*#{1,6}[ \t].*$", re.M)


def body_text(text: str) -> str:
    """Text without markdown heading lines (a title alone answers nothing)."""
    return _HEADING_LINE.sub(" ", text)


def _normalized(urls: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for url in urls:
        try:
            out.add(normalize_url(url))
        except AutodidactError:
            continue
    return out


def _raw_rating(root: Path, raw_file: str | None) -> str | None:
    """The quality a knowledge base's raw file header gives its source (高/中/低), if any."""
    if not raw_file:
        return None
    from autodidact.sources.rawfiles import parse_raw_file

    path = root / "raw" / Path(raw_file).name
    try:
        return from_raw_rating(parse_raw_file(path).quality) if path.is_file() else None
    except (AutodidactError, OSError):
        return None


RESERVE_SPANS = 3  # next-best passages a document keeps for a question asked again (Candidate.reserve)


def _span_score(variants: list[list[str]], text: str) -> float:
    found = terms(text, keep=kept_stopwords(variants))
    return max(
        (coverage(v, found) * (1 + min(len(set(v) & set(found)), 6) / 6) for v in variants if v),
        default=0.0,
    )


def best_spans(
    doc: Doc,
    variants: list[list[str]],
    limit: int = 2,
    aspect: str = "",
    weights: dict[str, float] | None = None,
    reserve: list[tuple[int, int]] | None = None,
) -> tuple[list[tuple[int, int]], float]:
    """The ``limit`` passages of a whole document that best match the question, and the best score.

    With an ``aspect`` (definition, example), a passage showing it (a defining sentence about the
    subject, an example) ranks above one that only shares words. ``reserve``, when given, receives
    the next :data:`RESERVE_SPANS` matching passages in rank order.
    """
    subject = variants[0] if variants else []
    spans = chunk_spans(doc.text)
    if not spans:
        return [], 0.0
    keep = kept_stopwords(variants)
    # a passage inside an option's description is about that option: its option lines' words count
    docs = [terms(f"{doc.option_at(s)} {doc.text[s:e]}", keep=keep) for s, e in spans]
    bm25 = BM25(docs)

    def score(i: int) -> float:
        base = max(
            (bm25.score(v, i, weights) * (0.5 + coverage(v, docs[i], weights)) for v in variants if v), default=0.0
        )
        return base * (1.0 + aspect_bonus(aspect, doc.text[spans[i][0] : spans[i][1]], subject))

    ranked = sorted(((score(i), i) for i in range(len(spans))), key=lambda x: (-x[0], x[1]))
    ranked = _distinct(ranked, doc.text, spans, limit + RESERVE_SPANS)
    top = [spans[i] for sc, i in ranked[:limit] if sc > 0]
    if reserve is not None:
        reserve += [spans[i] for sc, i in ranked[limit : limit + RESERVE_SPANS] if sc > 0]
    best = max((_span_score(variants, body_text(doc.text[s:e])) for s, e in top), default=0.0)
    return top, best


_MARGIN = re.compile(r"[|\s]+")
ALIKE_CHARS = 160  # two passages that open with the same this many characters repeat one text


def opening(text: str) -> str:
    """A passage's first :data:`ALIKE_CHARS` characters, margins ("|" of pydoc's class listings) and
    spacing aside: two passages with the same opening are one text printed twice."""
    return _MARGIN.sub(" ", text).strip()[:ALIKE_CHARS]


def _distinct(
    ranked: list[tuple[float, int]], text: str, spans: list[tuple[int, int]], want: int
) -> list[tuple[float, int]]:
    """The first ``want`` of ``ranked`` that do not open like a better one, word for word (margins
    and spacing aside); only those are read, not every passage of a long manual.

    Why: a reference page repeats every inherited method under each subclass (pydoc prints
    Thread's ``run()`` and its *target* paragraph again under Timer), so the two best passages
    of the page were one text twice, and the passage that answers ("There are two ways to specify
    the activity: by passing a callable object to the constructor, or by overriding the run()
    method in a subclass.") was never read.
    """
    seen: set[str] = set()
    out: list[tuple[float, int]] = []
    for sc, i in ranked:
        key = opening(text[spans[i][0] : spans[i][1]])
        if key in seen:
            continue
        seen.add(key)
        out.append((sc, i))
        if len(out) >= want:
            break
    return out
