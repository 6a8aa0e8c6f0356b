"""One key question, researched: candidates from the local index and the web, then extraction rounds.

Why the stop rules live here: depth decides how many distinct sources a key question needs before
the agent stops reading (skim 1, moderate 2, thorough 3 with a refuting angle); quick mode takes
one authoritative entry and only adds a source for a question it leaves unanswered. Every quote
the extractor returns is checked against the snapshot it came from; a claim whose quote does not
verify is re-extracted once (with a model) or dropped, and counted.
"""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from autodidact.errors import ModelOutputInvalid
from autodidact.evidence.collect import Candidate, Collector, Doc, best_spans, opening, title_score
from autodidact.evidence.extract_task import (
    MODIFIER_WEIGHT,
    PARAMETER_SET,
    ClaimOut,
    ExtractClaimsTask,
    ExtractInputs,
    PassageIn,
)
from autodidact.evidence.focus import closed_compounds, content_terms, focus
from autodidact.evidence.quality import RANK, refine
from autodidact.evidence.relevance import aspect_bonus
from autodidact.evidence.search_plan import PlannedQuery
from autodidact.evidence.sharpen import Sharpened
from autodidact.sources.options import OptionEntry, option_entries
from autodidact.sources.passages import BOUND_METHOD_TAIL, definition_items, entry_heads
from autodidact.sources.snapshots import normalize_url, quote_in_text
from autodidact.text.furniture import is_furniture
from autodidact.text.sections import MAX_SECTION_CHARS, bare_heading, section_at
from autodidact.text.tokens import terms

if TYPE_CHECKING:
    from autodidact.evidence.extract_task import SourceRating
    from autodidact.llm.runtime import Runtime
    from autodidact.sources.search.base import SearchHit

DEPTH_NEED = {"skim": 1, "moderate": 2, "thorough": 3}
MAX_CLAIMS = {"skim": 2, "moderate": 5, "thorough": 6}
MIN_SCORE = 0.34
KEY_POINTS_CLAIMS = 6  # claims kept for a key-points question: what a wiki answer block shows
ENTRY_BOOST = 1.5  # a document that documents the entry a question names is read before one that mentions it
NEW_SHARE = 0.4  # a new document this close to the best gets a reading slot (see widen_first)
KNOWN_FACTOR = 0.75  # a document already read counts this much when candidates are ranked
TITLE_WEIGHT = 1.5  # a title naming exactly the subject weighs 2.5 times; a partial match far less
PASSAGE_CHARS = 1600
SPANS_READ = 3  # passages per document the extractor reads: the index's best, then the document's own best
# A named section is read whole: sections are cut at MAX_SECTION_CHARS, so this many passages hold one.
SECTION_SPANS = MAX_SECTION_CHARS // PASSAGE_CHARS + 2


@dataclass
class KeptClaim:
    """A verified claim and the documents its quotes come from."""

    claim: ClaimOut
    docs: list[Doc]  # one per quote, same order as claim.quotes


@dataclass
class KQResult:
    """What researching one key question produced."""

    kq_id: str
    kept: list[KeptClaim] = field(default_factory=list)
    dropped: int = 0
    dropped_quotes: list[str] = field(default_factory=list)
    docs_read: list[Doc] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    cap: int | None = None  # claims the file takes for this question; ``kept`` may hold spares beyond it


def search_terms(kq_text: str, queries: list[PlannedQuery], language: str) -> list[list[str]]:
    """Term sets that score passages: the question's, plus each translated (other-language) query's.

    A passage is scored by its best variant, so a Chinese question still finds English documents
    through its English query.
    """
    fx = focus(kq_text)
    out = [fx.terms]
    # "the for statement and the while statement", "Python coroutines": each subject (and head
    # noun) alone also scores a passage, so a document about either subject counts as relevant.
    out += [s for s in fx.subjects if s not in out]
    # each closed compound alone ("exitcode" for "exit code") scores a passage too
    out += [[c] for c in closed_compounds(kq_text) if [c] not in out and c not in fx.terms]
    if fx.english:
        out.append(content_terms(" ".join(fx.english)))
    for q in queries:
        if q.angle != "refute" and q.language != language:
            variant = content_terms(q.text)
            if variant and variant not in out:
                out.append(variant)
    return [v for v in out if v]


async def find_candidates(
    collector: Collector,
    kq_text: str,
    queries: list[PlannedQuery],
    need: int,
    quick: bool,
    language: str,
    sharp: Sharpened | None = None,
) -> list[Candidate]:
    """Relevant documents for one question: local index first, then web hits (looked up, else fetched).

    ``sharp``: what the question asks beyond the research's subject; its words are searched first,
    so the passages about "pinning" are found before those that only repeat the subject.
    """
    qterms = search_terms(kq_text, queries, language)
    fx = focus(kq_text)
    aspect = fx.aspect
    merged: dict[str, Candidate] = {}
    if sharp is not None and sharp.specific_query:
        queries = [PlannedQuery(text=sharp.specific_query, language=language, angle="neutral"), *queries]
    for q in queries:
        for cand in collector.local_candidates(q.text, qterms):
            have = merged.get(cand.doc.snapshot_ref)
            if have is None:
                cand.angle = q.angle
                merged[cand.doc.snapshot_ref] = cand
            else:
                have.spans += [s for s in cand.spans if s not in have.spans]
                have.score = max(have.score, cand.score)
    for subject in fx.subjects:  # each subject on its own: "coroutines" alone finds the await page
        for cand in collector.local_candidates(" ".join(subject), qterms, k=12):
            merged.setdefault(cand.doc.snapshot_ref, cand)
    for cand in collector.title_candidates(qterms):
        merged.setdefault(cand.doc.snapshot_ref, cand)
    merged = _one_per_text(merged, collector)
    # The subject's words, which every question repeats, weigh less than what the question asks
    # beyond it, as they do when sentences are scored (docs/evidence.md, "Finding passages").
    heads = set(sharp.heads) if sharp is not None else set()
    weights = {t: MODIFIER_WEIGHT for v in qterms for t in v if heads and t not in heads}
    for cand in merged.values():
        _rescore(cand, qterms, aspect, weights)
        own = _entry_spans(cand.doc, heads, frozenset(fx.literals)) or (
            _own_section_opening(cand.doc, heads) if aspect == "definition" else []
        )
        if own:
            # a question that names a documented entry reads that entry right after the index's best
            # passage (docs/evidence.md, "Reference entries"): asked "What is meant by mkstemp …?",
            # the extractor had been given the module's description, which repeats "Python" and
            # "tempfile", and kept no claim
            lead = [s for s in cand.spans[:1] if not any(_overlap(s, t) for t in own)]
            cand.spans = lead + own + [s for s in cand.spans[1:] if not any(_overlap(s, t) for t in own)]
            cand.score *= ENTRY_BOOST
    relevant = [c for c in merged.values() if c.score >= MIN_SCORE]
    want = 1 if quick else need + 1
    if collector.has_web and len(relevant) < want:
        hit_lists = await asyncio.gather(*(collector.web_hits(q.text) for q in queries))
        chosen: list[SearchHit] = []
        seen: set[str] = set()
        for rank in range(max((len(h) for h in hit_lists), default=0)):
            for hits in hit_lists:
                if rank < len(hits) and hits[rank].url not in seen:
                    seen.add(hits[rank].url)
                    chosen.append(hits[rank])
        if quick:
            # One entry: read hits in order and stop at the first that answers (at most three tries).
            for hit in chosen[:3]:
                found = _relevant(await collector.read_web(hit.url, hit.title), qterms, merged, aspect)
                if found is not None:
                    relevant.append(found)
                    break
        else:
            chosen = chosen[: want - len(relevant) + 1]
            docs = await asyncio.gather(*(collector.read_web(h.url, h.title) for h in chosen))
            relevant += [c for c in (_relevant(d, qterms, merged, aspect) for d in docs) if c is not None]

    # Novelty: a document read in an earlier round counts a little less, so among similar passages
    # a new one is read first and successive rounds widen coverage instead of re-reading.
    def ranked(c: Candidate) -> float:
        return c.score * (KNOWN_FACTOR if collector.is_known(c.doc) else 1.0)

    if fx.section:
        # A question about one named section reads that section: the documents that have it first.
        named = [
            c
            for c in relevant
            if c.doc.section_span(fx.section) is not None
            and (not fx.document or c.doc.title.casefold() == fx.document.casefold())
        ]
        relevant = named or relevant
    if quick:
        relevant.sort(key=lambda c: (RANK.get(c.doc.quality, 3), -ranked(c), c.doc.url))
        return relevant
    relevant.sort(key=lambda c: (-ranked(c), RANK.get(c.doc.quality, 3), c.doc.url))
    return widen_first(relevant, need + 1, collector.is_known)


def widen_first(ranked: list[Candidate], take: int, known: Callable[[Doc], bool]) -> list[Candidate]:
    """The first ``take`` candidates include new documents when any are reasonably relevant.

    The best candidate stays first. When it was read before, the other ``take - 1`` slots go to the
    best documents not read before whose score is at least :data:`NEW_SHARE` of the best (known ones
    follow, for the extraction round that tops up the source count) — so each round reads something
    new next to what it already knows, and stops widening when nothing new is close enough.
    """
    if len(ranked) <= 1 or take <= 1:
        return ranked
    top = ranked[0].score
    fresh = [c for c in ranked[1:] if not known(c.doc) and c.score >= NEW_SHARE * top]
    head = [ranked[0], *fresh[: take - 1 if known(ranked[0].doc) else 0]]
    return head + [c for c in ranked if all(c is not h for h in head)]


def _one_per_text(merged: dict[str, Candidate], collector: Collector) -> dict[str, Candidate]:
    """One candidate per distinct text: a corpus often holds the same section under two names.

    The one read before wins (so a twin never comes back as a "new" source), else the first URL.
    """
    groups: dict[str, list[Candidate]] = {}
    for cand in merged.values():
        groups.setdefault(cand.doc.snapshot_ref.rsplit("/", 1)[-1], []).append(cand)
    out: dict[str, Candidate] = {}
    for group in groups.values():
        group.sort(key=lambda c: (not collector.is_known(c.doc), c.doc.url))
        keep = group[0]
        for twin in group[1:]:
            keep.spans += [s for s in twin.spans if s not in keep.spans] if twin.doc.text == keep.doc.text else []
            keep.score = max(keep.score, twin.score)
        out[keep.doc.snapshot_ref] = keep
    return out


def _rescore(cand: Candidate, qterms: list[list[str]], aspect: str, weights: dict[str, float] | None = None) -> None:
    """The document's own best passages for the question (and aspect) first; title and aspect weigh in."""
    reserve: list[tuple[int, int]] = []
    spans, score = best_spans(cand.doc, qterms, aspect=aspect, weights=weights, reserve=reserve)
    # The index's best passage stays first: it was ranked against the whole corpus (what `search`
    # shows, section titles included), while best_spans ranks within this one document only.
    lead = cand.spans[:1]
    spans = lead + [s for s in spans if not any(_overlap(s, t) for t in lead)]
    cand.spans = spans + [s for s in cand.spans if not any(_overlap(s, t) for t in spans)]
    cand.reserve = [s for s in reserve if not any(_overlap(s, t) for t in cand.spans)]
    if not cand.spans:
        cand.score = 0.0
        return
    subject = qterms[0] if qterms else []
    first = cand.doc.text[cand.spans[0][0] : cand.spans[0][1]]
    boost = 1.0 + TITLE_WEIGHT * title_score(content_terms(cand.doc.title), qterms) ** 2
    cand.score = max(cand.score, score) * boost * (1.0 + aspect_bonus(aspect, first, subject))


def _entry_spans(doc: Doc, heads: set[str], literals: frozenset[str] = frozenset()) -> list[tuple[int, int]]:
    """The reference entries of ``doc`` whose name is one of the question's heads ("mkstemp(…)"
    for the head "mkstemp"), each from its signature line; at most two."""
    if not heads and not literals:
        return []
    found = entry_heads(doc.text)
    out: list[tuple[int, int]] = []
    said: set[str] = set()
    for i, (at, name) in enumerate(found):
        if set(content_terms(name)) & heads and len(content_terms(name)) == 1:
            end = found[i + 1][0] if i + 1 < len(found) else len(doc.text)
            # A reference page repeats an inherited method's entry word for word under each
            # subclass (Thread's run() under Timer): read once, it leaves a slot for the passage
            # that answers ("There are two ways to specify the activity: … or by overriding the
            # run() method in a subclass.").
            body = opening(doc.text[at : min(end, at + PASSAGE_CHARS)])
            if body in said:
                continue
            said.add(body)
            out.append((at, min(end, at + PASSAGE_CHARS)))
    # an option's entry whose long name is the asked name ("‘-m’ ‘--mirror’ Turn on options suitable
    # for mirroring.": asked "What does --mirror do?", search ranked five passages that mention
    # mirroring above it, and the extractor read a usage tip instead)
    for entry in _options_of(doc.text):
        if len(out) < 2 and any(n in literals or (n.startswith("--") and _names_only(n, heads)) for n in entry.names):
            out.append((entry.start, min(entry.end, entry.start + PASSAGE_CHARS)))
    # a definition list's item for the name ("- choices -- A container of values …") is its entry too
    for start, end, name in definition_items(doc.text):
        if len(out) < 2 and _one_asked_name(name, heads):
            out.append((start, end))
    # and so is what a reference page says happens when the parameter is set ("If order is true, rich
    # comparison dunder methods are added."), inside a long entry that search ranks low for one word
    for setting in PARAMETER_SET.finditer(doc.text):
        if len(out) < 2 and _one_asked_name(setting.group(1), heads):
            out.append((setting.start(), min(len(doc.text), setting.start() + PARAMETER_CHARS)))
    return out[:2]


def _own_section_opening(doc: Doc, heads: set[str]) -> list[tuple[int, int]]:
    """The opening passage of the section whose heading is the asked name ("# __slots__" for
    "What is the definition of __slots__?"), at most one.

    Why: a section named for a thing opens by saying what it is ("*__slots__* allow us to
    explicitly declare data members…"), and its later passages repeat the name more often (the
    notes on using it, the errors it raises), so they ranked first and the definition was never
    read: "TypeError will be raised if nonempty __slots__ are defined…" was quoted as what
    __slots__ is.
    """
    if not heads:
        return []
    for section in doc.sections():
        named = set(content_terms(bare_heading(section.title)))
        if named and named <= heads and section.end > section.start:
            return [(section.start, min(section.end, section.start + PASSAGE_CHARS))]
    return []


@functools.lru_cache(maxsize=16)
def _options_of(text: str) -> list[OptionEntry]:
    """A document's option entries, parsed once: every question of a round reads the same manuals,
    and a manual of options (wget's, 200 KB) was cut into lines again for each."""
    return option_entries(text)


def _names_only(option: str, heads: set[str]) -> bool:
    """An option's long name made of the question's heads alone ("--after-context" of "What does grep
    --after-context do?"; "--mirror")."""
    named = set(terms(option.lstrip("-")))
    return bool(named) and named <= heads


def _one_asked_name(name: str, heads: set[str]) -> bool:
    """A one-word name the question asks about; its plain terms, not content terms ("choices" and
    "order" are frame words elsewhere but names here)."""
    named = terms(name)
    return len(named) == 1 and named[0] in heads


PARAMETER_CHARS = 300


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _relevant(
    doc: Doc | None, qterms: list[list[str]], merged: dict[str, Candidate], aspect: str = ""
) -> Candidate | None:
    if doc is None or doc.snapshot_ref in merged:
        return None
    spans, score = best_spans(doc, qterms, aspect=aspect)
    return Candidate(doc, spans, score) if spans and score >= MIN_SCORE else None


def section_spans(doc: Doc, heading: str) -> list[tuple[int, int]]:
    """The named section of ``doc``, whole, in passage-sized pieces.

    Why from the start: a manual's section states what it is about first; its best-matching
    passages for the heading's words are often a cross-reference ("see Section 2.7.3, …").
    Why whole: the point a section ends on (the command that shows the result of what it just
    explained) is as much one of its key points as its opening; reading only its first passages
    dropped every sentence after a long table.
    """
    span = doc.section_span(heading) if heading else None
    if span is None:
        return []
    out: list[tuple[int, int]] = []
    pos, end = span
    while pos < end and len(out) < SECTION_SPANS:
        _, e = widen(doc.text, pos, min(end, pos + PASSAGE_CHARS))
        e = min(max(e, pos + 1), end)
        out.append((pos, e))
        pos = e
    return out


def _passages(
    cands: list[Candidate], start: int, section: str = "", known: frozenset[str] = frozenset()
) -> tuple[list[PassageIn], dict[str, Doc]]:
    passages: list[PassageIn] = []
    by_pid: dict[str, Doc] = {}
    n = start
    for cand in cands:
        for s, e in section_spans(cand.doc, section) or _spans_to_read(cand, known):
            n += 1
            pid = f"P{n}"
            s, e = widen(cand.doc.text, announcing_start(cand.doc.text, s), min(e, s + PASSAGE_CHARS))
            e = entry_end(cand.doc.text, s, e)
            e = announced_end(cand.doc.text, s, e)
            text = cand.doc.text[s:e]
            heading = section_at(cand.doc.sections(), s).title if cand.doc.sections() else ""
            passages.append(
                PassageIn(
                    pid,
                    cand.doc.title,
                    text,
                    cand.doc.quality,
                    normalize_url(cand.doc.url),
                    heading,
                    option=cand.doc.option_at(s),
                )
            )
            by_pid[pid] = cand.doc
    return passages, by_pid


def _spans_to_read(cand: Candidate, known: frozenset[str]) -> list[tuple[int, int]]:
    """The document's best passages; where they hold quotes earlier rounds took, also its next-best
    passages that hold none (at most one more per passage already quoted).

    Why: a question asked again, or a new question on a facet already answered ("What does a typical
    example of committing or rolling back transactions look like?"), ranks the same passages first,
    and the extractor quoted again what the wiki already had: the sqlite3 research asked about
    transactions four times and never read ``close()`` ("Any pending transaction is not committed
    implicitly") or the context-manager entry two passages further down (docs/evidence.md, "Finding
    passages"). A round should add what the wiki does not hold yet.
    """
    spans = cand.spans[:SPANS_READ]
    further = cand.spans[SPANS_READ:] + cand.reserve
    if not known or not further:
        return spans
    spent = sum(1 for s, e in spans if _holds_known(cand.doc.text[s:e], known))
    fresh = [(s, e) for s, e in further if not _holds_known(cand.doc.text[s:e], known)]
    return spans + fresh[:spent]


def _holds_known(text: str, known: frozenset[str]) -> bool:
    """Whether a passage holds a sentence earlier rounds quoted (quotes are whitespace-collapsed)."""
    flat = " ".join(text.split())
    return any(q in flat for q in known if q)


_BOUNDARY = re.compile(r"[.!?。！？]\s|\n\s*\n")
_LAST_ENTRY = re.compile(
    r"\n[ \t]*(?:async\s+)?[A-Za-z_][\w.]*\([^()\n]*\)" + BOUND_METHOD_TAIL + r"[ \t]*\n[^\n]*\S[^\n]*$"
)
_NEXT_ENTRY = re.compile(r"\n[ \t]*(?:async\s+)?[A-Za-z_][\w.]*\(|\n[ \t]*\|?[ \t]*-{5,}|\n\S")
ENTRY_REACH = 600  # characters a passage may grow to finish the reference entry it ends in


def entry_end(text: str, start: int, end: int) -> int:
    """A passage that ends inside a reference entry's first lines ("RLock(*args, **kwargs)\n
    Factory function that returns a new reentrant lock.") goes on to the entry's end (the next
    signature, or an outdented line), within :data:`ENTRY_REACH`.

    Why: the entry's next sentences are what it says about the member (evidence/extract_task.py,
    "carried on"); cut after its first sentence, the answer is one line away from the passage.
    """
    tail = text[max(start, end - 300) : end]
    if not _LAST_ENTRY.search(tail):
        return end
    stop = _NEXT_ENTRY.search(text, end, min(len(text), end + ENTRY_REACH))
    limit = stop.start() if stop is not None else min(len(text), end + ENTRY_REACH)
    cuts = [m.start() + 1 for m in _BOUNDARY.finditer(text, end, limit)]
    return max([end, *cuts[-1:]]) if stop is not None else (cuts[-1] if cuts else end)


_ANNOUNCES = re.compile(r"(?:[:：]|\bas follows\.?|如下[。.]?)\s*$", re.I)
ANNOUNCED_REACH = 300  # characters a passage may grow to take in the block its last sentence announces


def announced_end(text: str, start: int, end: int) -> int:
    """A passage whose last sentence announces what follows ("you can display log from the last
    boot as:") goes on to the end of the next block ("$ journalctl -b"), within :data:`ANNOUNCED_REACH`.

    Why: cut at the colon, the sentence is quoted without what it announces (the extractor joins a
    lead-in with its command or list only when both are in the passage), and reads as nothing.
    """
    if not _ANNOUNCES.search(text[start:end]):
        return end
    found = re.search(r"\S", text[end : end + ANNOUNCED_REACH])
    if found is None:
        return end
    begin = end + found.start()
    if _ITEM.match(text, begin) and text[start:end].rstrip().endswith((":", "：")):
        return _list_end(text, begin, end)
    stop = text.find("\n\n", begin, begin + ANNOUNCED_REACH)
    return stop if stop != -1 else end


_ITEM = re.compile(r"[ \t]*(?:[-*•+]|\d+[.)])\s")  # a line that opens a list item
LIST_REACH = 1500  # characters a passage may grow to take in a list its last sentence announces


def _list_end(text: str, begin: int, fallback: int) -> int:
    """The end of the last whole item, within :data:`LIST_REACH`, of the list starting at ``begin``
    (``fallback`` when not even its first item fits).

    Why whole items and a longer reach than a block's: "the following are disallowed or not performed:"
    announces fourteen items of a line or two each; they answer "what does a restricted shell
    forbid?", and a passage cut at the colon quoted the announcement alone. An item goes on over
    indented lines, and blank lines between items; an unindented line that opens no item ends it.
    """
    limit = begin + LIST_REACH
    whole = fallback
    line_end = pos = begin
    while pos < len(text):
        nl = text.find("\n", pos)
        next_end = len(text) if nl == -1 else nl
        line = text[pos:next_end]
        if pos > begin:
            if not line.strip():
                pos = next_end + 1
                continue
            if _ITEM.match(line):
                whole = line_end  # the item before this one is whole
            elif not line[:1].isspace():
                break  # prose after the list
        if next_end > limit:
            return whole
        line_end = next_end
        pos = next_end + 1
    return line_end


def announcing_start(text: str, start: int) -> int:
    """A passage that opens just after a paragraph announcing it ("Once a connection has been
    established, create a Cursor object and call its execute() method to perform SQL queries:" /
    "cu = cx.cursor()") starts with that paragraph, within :data:`ANNOUNCED_REACH`.

    Why: the example is what the index ranks first for "cursor", and the sentence that says what it
    does stood one line outside the passage (the mirror of :func:`announced_end`)."""
    before = text[max(0, start - ANNOUNCED_REACH) : start]
    stripped = before.rstrip()
    if not stripped.endswith((":", "：")) or not before[len(stripped) :].count("\n"):
        return start
    breaks = list(re.finditer(r"\n[ \t]*\n", stripped))
    return start - len(before) + (breaks[-1].end() if breaks else 0)


def widen(text: str, start: int, end: int, reach: int = 240) -> tuple[int, int]:
    """Move a passage's edges out to sentence boundaries (within ``reach``), so quotes start cleanly.

    When no boundary is within reach outside an edge, the edge moves *in* to the nearest boundary
    instead: a passage that began inside a long sentence quoted "rnel module support (DKMS) is…".
    """
    if start > 0:
        window = text[max(0, start - reach) : start]
        cut = [m.end() for m in _BOUNDARY.finditer(window)]
        if cut:
            start = max(0, start - reach) + cut[-1]
        else:
            inside = _BOUNDARY.search(text, start, min(end, start + reach))
            start = inside.end() if inside is not None else start
    if end < len(text):
        m = _BOUNDARY.search(text, end, min(len(text), end + reach))
        if m is not None:
            end = m.start() + 1
        else:
            before = [b.start() + 1 for b in _BOUNDARY.finditer(text, max(start, end - reach), end)]
            # A table has neither sentence ends nor blank lines: its rows end at line breaks, and a
            # passage cut inside one quoted "52 | code page 1252, …" (the row was "CP1252 | …").
            line = text.find("\n", end, min(len(text), end + reach))
            end = before[-1] if before else (line + 1 if line >= 0 else end)
    return start, end


def own_literals(literals: list[str], subject_literals: frozenset[str]) -> list[str]:
    """The names a question asks about beyond the research's subject.

    Why: in a research on "running tasks in parallel with concurrent.futures", every question says
    "concurrent.futures", and the reference page's entries ("Submits a callable to be executed with
    the given arguments.") never repeat it: required as a name the sentence must write, it left the
    question about submitting callables without an answer. The subject's own names are what the
    whole research is about, as its words are (evidence/sharpen.py); a question about the subject
    alone still needs them.
    """
    return [x for x in literals if x.casefold() not in subject_literals]


def verify_claims(claims: list[ClaimOut], by_pid: dict[str, Doc]) -> tuple[list[KeptClaim], list[str]]:
    """Keep claims whose every quote names a known passage and occurs verbatim in its snapshot.

    Returns the kept claims and, per dropped claim, the first quote that failed.
    """
    kept: list[KeptClaim] = []
    failed: list[str] = []
    for claim in claims:
        docs = [by_pid.get(q.passage_id) for q in claim.quotes]
        bad = [
            q.snippet
            for q, doc in zip(claim.quotes, docs, strict=True)
            if doc is None or not quote_in_text(q.snippet, doc.text)
        ]
        if bad or any(d is None for d in docs):
            failed.append((bad or [q.snippet for q in claim.quotes])[0])
            continue
        kept.append(KeptClaim(claim, [d for d in docs if d is not None]))
    return kept, failed


async def research_kq(
    runtime: Runtime,
    kq_id: str,
    kq_text: str,
    candidates: list[Candidate],
    *,
    query_terms: list[list[str]] | None = None,
    language: str,
    mode: str,
    depth: str,
    sharp: Sharpened | None = None,
    known_quotes: frozenset[str] = frozenset(),
    furniture: frozenset[str] = frozenset(),
    topic_terms: frozenset[str] = frozenset(),
    facet_terms: frozenset[str] = frozenset(),
    subject: frozenset[str] = frozenset(),
    subject_literals: frozenset[str] = frozenset(),
) -> KQResult:
    """Extraction rounds over the candidates until the depth's source count is met (at most two rounds)."""
    quick = mode == "quick"
    need = 1 if quick else DEPTH_NEED[depth]
    fx = focus(kq_text)
    cap = 2 if quick else MAX_CLAIMS[depth]
    if fx.section and not quick:
        cap = max(cap, KEY_POINTS_CLAIMS)  # a section's points are many short facts (table rows)
    result = KQResult(kq_id, cap=cap)
    queue = diversify(list(candidates), need + 1) if depth == "thorough" and not quick else list(candidates)
    task = ExtractClaimsTask()
    pid_start = 0
    for round_no in range(2):
        take = 1 if quick else (need + 1 if round_no == 0 else need)
        batch, queue = queue[:take], queue[take:]
        if not batch:
            break
        result.docs_read += [c.doc for c in batch]
        passages, by_pid = _passages(batch, pid_start, fx.section, known_quotes)
        pid_start += len(passages)
        inputs = ExtractInputs(
            language=language,
            kq_id=kq_id,
            kq_text=kq_text,
            passages=passages,
            mode=mode,
            max_claims=cap,
            want_refute=depth == "thorough" or (not quick and any(c.angle == "refute" for c in batch)),
            query_variants=list(query_terms or []),
            aspect=fx.aspect,
            heads=sharp.heads if sharp is not None else fx.heads,
            min_head_hits=sharp.min_head_hits if sharp is not None else 1,
            fallback_heads=sharp.fallback_heads if sharp is not None else None,
            fallback_min_hits=sharp.fallback_min_hits if sharp is not None else 1,
            known_quotes=known_quotes,
            furniture=furniture,
            min_sources=need,
            literals=own_literals(fx.literals, subject_literals)
            if sharp is not None and sharp.specific_query
            else fx.literals,
            topic_terms=topic_terms,
            facet_terms=facet_terms,
            subject=subject,
        )
        try:
            output = await runtime.run(task, inputs)
        except ModelOutputInvalid as exc:  # one question's unusable answer does not sink the dimension
            result.notes.append(f"extraction skipped: {exc.message}")
            continue
        _apply_ratings(output.ratings, by_pid)
        kept, failed = verify_claims(_without_furniture(output.claims, furniture), by_pid)
        if failed and runtime.heeds_feedback:
            inputs.failed_quotes = failed
            try:
                retry = await runtime.run(task, inputs)
            except ModelOutputInvalid as exc:
                result.notes.append(f"re-extraction skipped: {exc.message}")
            else:
                again, failed = verify_claims(_without_furniture(retry.claims, furniture), by_pid)
                known = {_key(k) for k in kept}
                kept += [k for k in again if _key(k) not in known]
        result.dropped += len(failed)
        result.dropped_quotes += failed
        result.kept += kept
        sources = {normalize_url(d.url) for k in result.kept for d in k.docs}
        if len(sources) >= need:
            break
        if quick and result.kept:
            break
    return result


def _without_furniture(claims: list[ClaimOut], furniture: frozenset[str]) -> list[ClaimOut]:
    """The claims none of whose quotes is page furniture (text/furniture.py): a model may pick the
    line every generated page carries as readily as the offline extractor did."""
    return [c for c in claims if not any(is_furniture(q.snippet, furniture) for q in c.quotes)]


def diversify(cands: list[Candidate], take: int) -> list[Candidate]:
    """Thorough depth: the first ``take`` candidates span at least two source types when any exist.

    A source type is the document kind (web, corpus, raw) with its quality class.
    """
    if len(cands) <= 1:
        return cands
    first = cands[0]
    kind = (first.doc.kind, first.doc.quality)
    other = next((c for c in cands[1:] if (c.doc.kind, c.doc.quality) != kind), None)
    if other is None or cands.index(other) < take:
        return cands
    rest = [c for c in cands if c is not first and c is not other]
    return [first, other, *rest]


def _key(kept: KeptClaim) -> tuple[str, ...]:
    return tuple(" ".join(q.snippet.split()) for q in kept.claim.quotes)


def _apply_ratings(ratings: list[SourceRating], by_pid: dict[str, Doc]) -> None:
    for rating in ratings:
        doc = by_pid.get(rating.passage_id)
        if doc is not None and not doc.rated:
            doc.quality = refine(doc.quality, rating.quality, doc.kind)
            doc.rated = True
