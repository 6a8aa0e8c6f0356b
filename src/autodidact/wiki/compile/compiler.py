"""``wiki compile``: fold a round's evidence, or raw files, into ``wiki/<topic>.md`` and ``wiki/INDEX.md``.

Two paths (docs/wiki.md):

* **from evidence** (:func:`compile_evidence_async`, what the loop uses): each question of the
  round gets an answer block of the quotes the evidence found for it, under the article of its
  facet. A source compiled before is never skipped; only a quote the block already holds is.
* **from raw files** (:func:`compile_wiki_async`, ``wiki compile --files``): a person's own files
  are read whole and their best statements are merged by topic. A raw file already listed in an
  article's ``sources`` is skipped there.

Why idempotent: a resumed round may compile again. Statements are deduplicated and an article is
rewritten only when its rendered text changes (its ``updated`` date moves only then), so compiling
the same input twice changes no byte. A model, when configured, sees one article at a time.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from autodidact.errors import AutodidactError, InputError, NotFoundError
from autodidact.kb import KnowledgeBase
from autodidact.sources.rawfiles import QUALITY_LINE, RawFile, list_raw_files, parse_raw_file, quality_of
from autodidact.store import atomic
from autodidact.wiki.common.aio import run_blocking
from autodidact.wiki.common.articles import Article, Section, derived_of, render_article, title_keys, wiki_files
from autodidact.wiki.common.markdown import (
    article_stem,
    citations,
    is_answer_paragraph,
    is_auto_summary,
    normalize_key,
    unlink,
)
from autodidact.wiki.common.topics import (
    TopicMap,
    clean_title,
    load_question_texts,
    name_keys,
    research_topic,
    topic_for,
    topic_subject,
)
from autodidact.wiki.compile.answer_prose import AnswerProse, place_answer, record_drops, write_answer
from autodidact.wiki.compile.answers import RawLocator, round_answers
from autodidact.wiki.compile.answers_blocks import (
    Placer,
    answer_summary,
    heading_keys,
    is_generated_summary,
    is_question_heading,
    link_siblings,
    mark_summary,
    merge_answers,
    name_words,
    parse_block,
    quote_key,
    valid_phrasing,
)
from autodidact.wiki.compile.compile_task import (
    ArticleInputs,
    CompileArticleTask,
    Material,
    SectionText,
    SourceMeta,
    make_summary,
)
from autodidact.wiki.compile.edits import WikiEdits
from autodidact.wiki.compile.index_page import index_row, render_index
from autodidact.wiki.compile.linking import mention_names, relink
from autodidact.wiki.compile.selection import select_statements

if TYPE_CHECKING:
    from autodidact.llm.runtime import Runtime

ARTICLE_CHUNK_CHARS = 8000
MATERIAL_CHUNK_CHARS = 6000
MAX_ALIASES = 8


@dataclass
class CompileResult:
    """What a compile did: article titles created and updated, and raw files still 待评估."""

    new: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    pending_quality: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    compiled: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    paths: dict[str, Path] = field(default_factory=dict)
    answered: list[str] = field(default_factory=list)
    answer_keys: set[str] = field(default_factory=set)
    unmatched_claims: int = 0
    off_topic: int = 0
    fragments: int = 0
    duplicates: int = 0
    prose: AnswerProse = field(default_factory=AnswerProse)  # answer paragraphs a model wrote

    @property
    def topics(self) -> list[str]:
        """New and updated article titles (``wiki_topics_updated`` of the research state)."""
        return [*self.new, *self.updated]


def resolve_files(kb: KnowledgeBase, files: list[str] | None) -> list[Path]:
    """The raw files to compile: the named ones (``a.md``, ``raw/a.md`` or a path in raw/), or all of raw/."""
    if files is None:
        return list_raw_files(kb.raw)
    paths: list[Path] = []
    for name in files:
        name = name.strip()
        if not name:
            continue
        candidate = Path(name)
        if not candidate.is_absolute():
            candidate = kb.raw / (name[4:] if name.startswith("raw/") else name)
        if candidate.resolve().parent != kb.raw.resolve():
            raise InputError(f"--files entry {name!r} is not a file in {kb.raw}", hint="name files inside raw/")
        if not candidate.is_file():
            raise NotFoundError(f"raw file {name!r} does not exist in {kb.raw}", hint="list raw/ for the names")
        if candidate not in paths:
            paths.append(candidate)
    return sorted(paths, key=lambda p: p.name)


def compile_wiki(
    kb: KnowledgeBase,
    files: list[str] | None = None,
    runtime: Runtime | None = None,
    *,
    today: str | None = None,
    topic: str | None = None,
) -> CompileResult:
    """Synchronous :func:`compile_wiki_async` (not inside a running event loop)."""
    return run_blocking(lambda: compile_wiki_async(kb, files, runtime, today=today, topic=topic))


async def compile_wiki_async(
    kb: KnowledgeBase,
    files: list[str] | None = None,
    runtime: Runtime | None = None,
    *,
    today: str | None = None,
    topic: str | None = None,
) -> CompileResult:
    """Compile ``files`` (raw file names; None = all of raw/) into the wiki. See the module docstring.

    ``topic`` is the research topic (default: the one in ``research_state.json``); a question whose
    subject is the whole topic does not name an article (the raw file's title does).
    """
    from autodidact.llm.runtime import or_offline

    runtime = or_offline(runtime)
    lang = kb.language()
    day = today or dt.datetime.now(dt.UTC).date().isoformat()
    result = CompileResult()
    edits = WikiEdits(wiki_files(kb.wiki))  # parsed once per content; what is edited is copied first
    articles = edits.articles
    topics = topic_map(articles)
    compiled_sources: set[str] = set()
    for art in articles.values():
        compiled_sources.update(art.sources)
    questions = load_question_texts(kb.root)
    research = topic or research_topic(kb.root)
    raws: list[RawFile] = []
    for path in resolve_files(kb, files):
        if path.name in compiled_sources:  # already in an article: skip without parsing (html/pdf are slow)
            result.skipped.append(path.name)
            if _header_quality(path) == "待评估":
                result.pending_quality.append(path.name)
            continue
        try:
            raws.append(parse_raw_file(path))
        except AutodidactError as exc:  # one unreadable file must not block the round
            result.failed.append(f"{path.name}: {exc.message}")

    groups: dict[str, list[tuple[RawFile, list[Material]]]] = {}
    for rf in raws:
        if rf.quality == "待评估":
            result.pending_quality.append(rf.filename)
        topic, qtexts = topic_for(rf.title, rf.filename, rf.question_ids, questions, research)
        material = select_statements(rf, topic, qtexts, research)
        if not material:
            result.empty.append(rf.filename)
            continue
        cleaned = clean_title(rf.title) if rf.title and rf.title != Path(rf.filename).stem else ""
        stem = topics.find(topic, cleaned) if cleaned else topics.find(topic)
        if stem is None:
            stem = topics.free_stem(article_stem(topic))
            articles[stem] = Article(stem=stem, title=topic)
            topics.add(stem, [topic])
        art = edits.edit(stem)
        fresh = cleaned and normalize_key(cleaned) not in {normalize_key(n) for n in art.names()}
        if fresh and len(art.aliases) < MAX_ALIASES and len(cleaned) <= 60:
            art.aliases.append(cleaned)
            topics.add(stem, [cleaned])
        groups.setdefault(stem, []).append((rf, material))

    task = CompileArticleTask()
    known = topics.keys()

    async def update(stem: str) -> None:
        art = edits.edit(stem)
        material: list[Material] = []
        meta: dict[str, SourceMeta] = {}
        for rf, selected in groups[stem]:
            material.extend(selected)
            meta[rf.filename] = SourceMeta(quality=rf.quality, date=rf.fetched_date)
            if rf.filename not in art.sources:
                art.sources.append(rf.filename)
        meta.update(_source_meta(kb, art, meta))
        for chunk in _chunks(material):
            await _apply(runtime, task, art, chunk, meta, lang)
        art.summary = unlink(art.summary, known)
        for sec in art.sections:
            sec.blocks = [unlink(b, known) for b in sec.blocks]
        art.sources = sorted(set(art.sources))

    # Articles are independent: update them concurrently (the runtime bounds model concurrency).
    await asyncio.gather(*(update(stem) for stem in sorted(groups)))
    result.compiled = sorted(rf.filename for members in groups.values() for rf, _ in members)
    write_back(kb, edits, set(groups), lang, day, result)
    return result


def article_tables(art: Article) -> None:
    """Work out now what a compile's whole-wiki steps take from one parsed article (its topic keys,
    headings, names, INDEX.md line), kept with the parse (``derived_of``): the round that wrote the
    article pays for them, not the next compile, which reads every article of the wiki."""
    derived_of(art, "topic keys", name_keys)
    derived_of(art, "heading keys", heading_keys)
    derived_of(art, "name words", name_words)
    derived_of(art, "resolver keys", title_keys)
    derived_of(art, "mention names", mention_names)
    derived_of(art, "index row", index_row)


def topic_map(articles: dict[str, Article]) -> TopicMap:
    """Every article's names, in the order of ``articles`` (the first article to claim a name keeps it)."""
    topics = TopicMap()
    for art in articles.values():
        topics.add_keys(art.stem, derived_of(art, "topic keys", name_keys))
    return topics


def write_back(
    kb: KnowledgeBase,
    edits: WikiEdits,
    touched: set[str],
    lang: str,
    day: str,
    result: CompileResult,
) -> None:
    """Relink, then write the articles whose text changed (``updated`` moves only then) and INDEX.md."""
    articles = edits.articles
    changed_stems = relink(articles, touched, {s for s in touched if s not in edits.before}, lang, edits.edit)
    for stem in sorted(changed_stems | touched):
        text = render_article(articles[stem])
        if edits.rendered_before(stem) == text:
            continue
        art = edits.edit(stem)  # a parsed article renders as it was read: this one is a copy already
        art.updated = day
        atomic.write_text(kb.wiki / art.filename, render_article(art))
        result.paths[art.title] = kb.wiki / art.filename
        (result.updated if stem in edits.before else result.new).append(art.title)
    index_text = render_index(list(articles.values()), lang)
    index_path = kb.wiki / "INDEX.md"
    current = index_path.read_text("utf-8") if index_path.is_file() else None
    if current != index_text:
        atomic.write_text(index_path, index_text)


def compile_evidence(
    kb: KnowledgeBase,
    round_n: int,
    runtime: Runtime | None = None,
    *,
    today: str | None = None,
    topic: str | None = None,
) -> CompileResult:
    """Synchronous :func:`compile_evidence_async` (not inside a running event loop)."""
    return run_blocking(lambda: compile_evidence_async(kb, round_n, runtime, today=today, topic=topic))


async def compile_evidence_async(
    kb: KnowledgeBase,
    round_n: int,
    runtime: Runtime | None = None,
    *,
    today: str | None = None,
    topic: str | None = None,
) -> CompileResult:
    """Merge round N's evidence into answer blocks (docs/wiki.md "Answers from evidence").

    Input: ``outputs/rounds/round_N_evidence.json`` (claims, ``kqN`` = the round's question N),
    ``round_N_questions.json`` (texts, optional ``facet``) and raw/ (the files that hold the quotes).
    Every question with admitted quotes gets (or extends) its answer block under the article of its
    facet; a source compiled before is never skipped — only quotes already in the block are.
    Idempotent: the same round compiled again changes no byte.
    """
    from autodidact.llm.runtime import or_offline

    runtime = or_offline(runtime)
    lang = kb.language()
    day = today or dt.datetime.now(dt.UTC).date().isoformat()
    research = topic or research_topic(kb.root)
    result = CompileResult()
    locator = RawLocator(kb.raw)
    found = round_answers(kb, round_n, research, locator)
    result.unmatched_claims = found.unmatched_claims
    result.off_topic = found.off_topic_quotes
    result.fragments = found.fragments
    on_disk = wiki_files(kb.wiki)  # parsed once per content; what is edited is copied first
    edits = WikiEdits(on_disk)
    articles = edits.articles
    topics = topic_map(articles)
    placer = Placer(articles, topics, research, lang, edits.edit)
    touched, result.duplicates = merge_answers(found.answers, placer, research, locator.quality, lang)
    result.answered = [a.question.id for a in found.answers if a.quotes]
    result.answer_keys = {quote_key(q.text) for a in found.answers for q in a.quotes}
    result.compiled = sorted({n for a in found.answers for q in a.quotes for n in q.sources})
    hub = topics.find(topic_subject(research)) if research else None
    siblings = touched | ({hub} if hub and touched else set())
    touched |= siblings
    for stem in sorted(touched):
        edits.edit(stem)  # everything below edits the touched articles only
    link_siblings(articles, siblings, lang)
    known = topics.keys()
    if runtime.writes_prose:
        # Each touched block's quotes before this merge, read from the articles as parsed (unedited).
        pristine = {f.stem: f.article for f in on_disk}
        prior = _block_quotes({stem: pristine[stem] for stem in touched if stem in pristine})
        result.prose = await _write_answers(runtime, articles, touched, prior, lang)
    summarised: list[Article] = []
    for stem in sorted(touched):
        art = articles[stem]
        cited = {n for sec in art.body_sections() for b in sec.blocks for n in citations(b)}
        art.sources = sorted(set(art.sources) | cited)
        for sec in art.sections:
            sec.blocks = [unlink(b, known) for b in sec.blocks]
        if is_generated_summary(art):
            summarised.append(art)
    # Each summary is phrased from its own article only, so the articles' calls run concurrently.
    phrased = await asyncio.gather(*(_phrase_summary(runtime, a, answer_summary(a, lang), lang) for a in summarised))
    for art, summary in zip(summarised, phrased, strict=True):
        art.summary = summary
        mark_summary(art)
    write_back(kb, edits, touched, lang, day, result)
    return result


def _block_quotes(articles: dict[str, Article]) -> dict[tuple[str, str], list[str]]:
    """Each question block's quotes, to tell afterwards which blocks a merge changed."""
    return {
        (stem, sec.heading): [it.text for it in parse_block(sec)[1]]
        for stem, art in articles.items()
        for sec in art.body_sections()
        if is_question_heading(sec.heading)
    }


async def _write_answers(
    runtime: Runtime,
    articles: dict[str, Article],
    touched: set[str],
    prior: dict[tuple[str, str], list[str]],
    lang: str,
) -> AnswerProse:
    """With a model, an answer paragraph for every touched block whose quotes changed or that has
    none yet (wiki/compile/answer_prose.py); blocks are independent, so they are written concurrently."""
    todo = [
        sec
        for stem in sorted(touched)
        for sec in articles[stem].body_sections()
        if is_question_heading(sec.heading)
        and (
            prior.get((stem, sec.heading)) != [it.text for it in parse_block(sec)[1]]
            or not any(is_answer_paragraph(b) for b in sec.blocks)
        )
    ]
    total = AnswerProse()
    with runtime.step("wiki answers"):
        done = await asyncio.gather(*(write_answer(runtime, sec, lang) for sec in todo))
    for sec, (paragraph, stats) in zip(todo, done, strict=True):
        if paragraph is not None:
            place_answer(sec, paragraph)
        total.blocks += stats.blocks
        total.sentences += stats.sentences
        total.failed += stats.failed
        total.dropped.update(stats.dropped)
    record_drops(runtime, total)
    return total


async def _phrase_summary(runtime: Runtime, art: Article, offline: str, lang: str) -> str:
    """With a model configured, let it phrase the summary; keep it only if every sentence still cites
    the article's raw files (else the extractive summary stands)."""
    if not runtime.writes_prose or not offline:
        return offline
    inputs = ArticleInputs(
        title=art.title,
        lang=lang,
        summary=offline,
        sections=[SectionText(heading=s.heading, blocks=list(s.blocks)) for s in art.body_sections()],
        source_count=len(art.sources),
    )
    draft = await runtime.run(CompileArticleTask(), inputs)
    phrased = " ".join(draft.summary.split()) if lang != "zh" else "".join(draft.summary.split())
    return phrased if phrased and valid_phrasing(phrased, art) else offline


def _header_quality(path: Path) -> str:
    """质量评分 from a raw file's header without a full parse (html/pdf and headerless files: 待评估)."""
    if path.suffix.lower() not in {".md", ".txt", ".markdown"}:
        return "待评估"
    try:
        head = path.read_text("utf-8", errors="replace")[:2000]
    except OSError:
        return "待评估"
    found = QUALITY_LINE.search(head)
    return quality_of(found.group(1)) if found else "待评估"


def _source_meta(kb: KnowledgeBase, art: Article, known: dict[str, SourceMeta]) -> dict[str, SourceMeta]:
    """Quality and date of the raw files an article already cites (for merge precedence)."""
    out: dict[str, SourceMeta] = {}
    for name in art.sources:
        if name in known:
            continue
        date = re.match(r"^(\d{4}-\d{2}-\d{2})_", name)
        quality = _header_quality(kb.raw / name)
        out[name] = SourceMeta(quality=quality, date=date.group(1) if date else "")
    return out


def _chunks(material: list[Material]) -> list[list[Material]]:
    """Split new material into batches of at most MATERIAL_CHUNK_CHARS (one task call each)."""
    chunks: list[list[Material]] = []
    size = 0
    for item in material:
        if not chunks or size + len(item.text) > MATERIAL_CHUNK_CHARS:
            chunks.append([])
            size = 0
        chunks[-1].append(item)
        size += len(item.text)
    return chunks


def _select_sections(art: Article, material: list[Material]) -> list[Section]:
    """The sections to send: all when short, else those the material targets, then the most related."""
    body = art.body_sections()
    if sum(len(b) for s in body for b in s.blocks) <= ARTICLE_CHUNK_CHARS:
        return body
    wanted = {normalize_key(m.heading) for m in material if m.heading}
    chosen = [s for s in body if normalize_key(s.heading) in wanted or not s.heading]
    names = {n for m in material for n in [m.source]}
    size = sum(len(b) for s in chosen for b in s.blocks)
    for sec in body:
        if sec in chosen:
            continue
        cost = sum(len(b) for b in sec.blocks)
        if size + cost > ARTICLE_CHUNK_CHARS:
            continue
        if any(set(citations(b)) & names for b in sec.blocks) or size + cost <= ARTICLE_CHUNK_CHARS // 2:
            chosen.append(sec)
            size += cost
    return chosen


async def _apply(
    runtime: Runtime,
    task: CompileArticleTask,
    art: Article,
    chunk: list[Material],
    meta: dict[str, SourceMeta],
    lang: str,
) -> None:
    sent = _select_sections(art, chunk)
    sent_ids = {id(s) for s in sent}
    inputs = ArticleInputs(
        title=art.title,
        lang=lang,
        summary=art.summary,
        sections=[SectionText(heading=s.heading, blocks=list(s.blocks)) for s in sent],
        other_headings=[s.heading for s in art.body_sections() if id(s) not in sent_ids],
        material=chunk,
        source_meta={k: v for k, v in meta.items() if k in {m.source for m in chunk} or k in art.sources[:50]},
        source_count=len(art.sources),
    )
    draft = await runtime.run(task, inputs)
    if draft.summary.strip():
        art.summary = draft.summary.strip()
    elif is_auto_summary(art.summary):
        sections = [SectionText(heading=s.heading, blocks=s.blocks) for s in art.body_sections()]
        art.summary = make_summary(art.title, sections, meta, len(art.sources), lang)
    by_key = {normalize_key(s.heading): s for s in art.sections}
    for out in draft.sections:
        blocks = [b.strip() for b in out.blocks if b.strip()]
        target = by_key.get(normalize_key(out.heading))
        if target is None:
            target = Section(out.heading.strip() or "…", [])
            related_at = next((i for i, s in enumerate(art.sections) if s.is_related), len(art.sections))
            art.sections.insert(related_at, target)
            by_key[normalize_key(target.heading)] = target
            target.blocks = blocks
        elif id(target) in sent_ids or not target.blocks:
            target.blocks = blocks
        else:
            target.blocks.extend(b for b in blocks if b not in target.blocks)
