"""The sections the documents give each facet of a topic: the outline questions are asked from.

Why: a manual's headings are the sub-questions its authors chose to answer ("Tweaking candidate
version", "Automatic download and upgrade of packages"). Framework templates ask every facet the
same abstract layers; the headings of the sections the local index ranks first for a facet name
what the documents actually say about it. The loop's questioner and the report's plan turn each
into a "key points of" question, and the evidence agent reads that section (docs/questions.md,
"Outline questions"; docs/planning.md).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from autodidact.sources.passage_index import Passage, PassageIndex, has_index, open_index
from autodidact.text.furniture import is_furniture
from autodidact.text.glossary import english_groups, english_of
from autodidact.text.sections import SEPARATOR, bare_heading
from autodidact.text.sentences import sentence_spans
from autodidact.text.tokens import has_cjk, shared_cjk_bigrams, stem, term_set, terms
from autodidact.text.tool_sections import in_families, tool_families
from autodidact.text.topic import decompose, is_action_phrase, key_terms, subject_names, subject_tools, titles_a_tool

_PART = re.compile(r"\s*\(\d+/\d+\)$")  # the part counter of a cut section: "Classes (2/3)"
SEARCH_K = 12  # passages read per facet
FAMILY_DEPTH = 8  # a tool's own sections are looked for among this many times SEARCH_K hits
PER_FACET = 6  # headings kept per facet (the questioner asks two unasked ones per round)
FAMILY_EXTRA = 3  # unranked subsections of the facet's own section, asked after those
FAMILY_ORDER = 1_000_000  # the query order given to them: after every ranked hit
SCORE_SHARE = 0.55  # a section ranked below this share of the facet's best passage is not its own
_MARKUP = re.compile(r"^#+ .*$|https?://\S+", re.M)  # headings and addresses: not what a section says
_PAIRED = re.compile(r"[A-Za-z][\w.+-]*\s*(?:与|和|及|或|、|/|\bvs\.?|\band\b|\bor\b)\s*[A-Za-z]", re.I)
_CONJUNCTS = re.compile(r"\s*,\s*|\s+(?:and|or)\s+", re.I)
CHAPTER_SECTIONS = 8  # sections a document has to be a chapter a facet's sections keep to
MIN_TERMS = 8  # distinct words a section says beyond page furniture, to have key points
COMMON_HEADING = 0.02  # share of a corpus's section headings a word may name and still tell sections apart
FACET_DENSITY = 0.02  # share of a one-topic page's terms that are its facet's, when no heading names it


@dataclass(frozen=True)
class OutlineEntry:
    """A section heading the local index ranks first for a facet (``facet`` None: the subject)."""

    facet: str | None
    heading: str
    # The section's document when other documents have a section of the same name ("Description"
    # of every module page): the heading alone would not say which one to read.
    document: str = ""
    number: str = field(default="", compare=False)  # the manual's numbering ("12.1.3"), when it has one


# (facet, rank, section, its document's title, its document's address)
_Ranked = tuple[str | None, float, OutlineEntry, str, str]


def facet_outline(root: Path, topics: list[str], language: str) -> list[OutlineEntry]:
    """Per facet (and per subject), the headings of the best-ranked sections, best first.

    A heading that names nothing beyond the subject ("Chapter 2. Debian package management") is
    the chapter's own introduction: the subject's overview, never a facet's part — and the only
    kind of section the subject's own query keeps (its other hits are what every facet shares).
    A section far below the query's best hit is not about it.
    """
    out: list[OutlineEntry] = []
    if not has_index(root):
        return out
    seen: set[tuple[str, str]] = set()
    with open_index(root) as index:
        for topic in topics:
            # (document, heading) → (its rank for the query, query order, facet): a section several
            # facets find belongs to the one whose words its heading holds — most of them: "Time
            # conversion specifiers" is 「常用转换说明符」's (conversion, specifiers), not 「把日期转换成
            # 自 Epoch 以来的秒数」's (conversion) — else the one it ranks highest for.
            best: dict[tuple[str, str], tuple[float, int, str | None, OutlineEntry]] = {}
            ranked = _ranked_sections(index, topic, language)
            homes = _homes(index, ranked)
            docs: dict[tuple[str, str], str] = {}  # a section's key → its document's title
            for order, (facet, share, entry, doc, _url) in enumerate(ranked):
                if share <= 1.0 and facet in homes and doc not in homes[facet]:
                    continue
                key = (entry.document.casefold(), entry.heading.casefold())
                if key in seen:
                    continue
                if key not in best or share > best[key][0]:
                    best[key] = (share, order, facet, entry)
                    docs[key] = doc
            per_facet: dict[str | None, int] = {}
            extra: dict[str | None, int] = {}
            family = _families(best.values())
            _add_family(index, best, docs, family, term_set(decompose(topic, language).subject))
            # Sections whose heading names their facet first (rank above 1: the best hit alone has 1.0),
            # then the index's order; the facet's own subsections the search did not rank come last,
            # beyond the facet's share (the report's plan takes the first few: they stay the index's).
            ranked_entries = sorted(best.values(), key=lambda b: (b[1] >= FAMILY_ORDER, b[0] <= 1.0, b[1]))
            for _share, order, facet, entry in ranked_entries:
                if order >= FAMILY_ORDER:
                    if extra.get(facet, 0) >= FAMILY_EXTRA:
                        continue
                    extra[facet] = extra.get(facet, 0) + 1
                elif per_facet.get(facet, 0) >= PER_FACET:
                    continue
                else:
                    per_facet[facet] = per_facet.get(facet, 0) + 1
                seen.add((entry.document.casefold(), entry.heading.casefold()))
                out.append(entry)
    return out


_NUMBER = re.compile(r"^\s*((?:\d+\.)+\d*)\.?\s")


def _families(entries: Iterable[tuple[float, int, str | None, OutlineEntry]]) -> dict[str | None, str]:
    """Per facet, the numbering of its best section that names it and has subsections' numbers
    ("12.1" of "12.1. Shell 脚本"): its subsections are the facet's part of the manual.

    Why: "编写可移植的 shell 脚本" kept six sections by the index's order, two of them from other
    chapters (《用于管道命令的小片段脚本》, 《使用 shell 脚本的 GUI 程序》), and never
    《Shell 条件语句》 of 12.1, where the manual says what exit status 0 means in a condition.
    """
    out: dict[str | None, str] = {}
    for share, _order, facet, entry in sorted(entries, key=lambda b: b[1]):
        if facet in out or share <= 1.0 or not entry.number:
            continue
        parts = entry.number.split(".")
        # "12.1.1. POSIX shell 兼容性" is one of 12.1's subsections: the family is 12.1 (a chapter's
        # own number, "12", would be the whole chapter)
        out[facet] = ".".join(parts[:-1]) if len(parts) >= 3 else entry.number
    return out


def _add_family(
    index: PassageIndex,
    best: dict[tuple[str, str], tuple[float, int, str | None, OutlineEntry]],
    docs: dict[tuple[str, str], str],
    family: dict[str | None, str],
    subject: set[str],
) -> None:
    """The subsections of a facet's own section that the search did not rank, when their heading
    says one of the facet's own words ("12.1.3. Shell 条件语句" for 「编写可移植的 shell 脚本」):
    a section that is mostly a list of tests and never repeats 「脚本」 is still the manual's part
    of the facet."""
    english_corpus = _english_corpus(index) if any(f is not None and has_cjk(f) for f in family) else False
    for facet, number in family.items():
        if facet is None:
            continue
        own = term_set(facet) - subject
        english = english_of(facet, general=english_corpus) if has_cjk(facet) else []
        need = _Need.of(facet, english, own | term_set(" ".join(english)), comparison=False)
        titles = {docs[k] for k, b in best.items() if b[2] == facet and _in_family(b[3].number, number)}
        for title in titles:
            for raw, ref in index.sections_of(title):
                found = _NUMBER.match(raw)
                heading = bare_heading(raw)
                key = ("", heading.casefold())
                if not found or key in best or not _in_family(found.group(1).rstrip("."), number):
                    continue
                # named by one of the facet's own words, and saying what the facet needs
                if own & term_set(heading) and need.met(term_set(heading + " " + index.section_text(ref, raw))):
                    entry = OutlineEntry(facet, heading, "", found.group(1).rstrip("."))
                    best[key] = (1.0 + SCORE_SHARE, FAMILY_ORDER + len(best), facet, entry)


def _in_family(number: str, family: str | None) -> bool:
    return bool(number and family and (number == family or number.startswith(family + ".")))


def _homes(index: PassageIndex, ranked: list[_Ranked]) -> dict[str | None, set[str]]:
    """Per facet, the titles of the chapters where a section's heading names it.

    The documents where a section's heading names the facet ("5.6. Netfilter 网络过滤框架" in the
    networking chapter): a section that does not name it is the facet's only when it stands in
    one of them, else any chapter that repeats its words would do (the mail chapter for
    「主机名解析」, kernel modules for 「Netfilter 防火墙」). Only chapters count as homes: where
    every page is one topic (a language reference's "yield", "await"), the facet's matter is
    spread over pages by design.
    """
    homes: dict[str | None, set[str]] = {}
    sections: dict[str, int] = {}  # one count per document, not per hit
    for facet, share, _entry, doc, _url in ranked:
        if share > 1.0 and doc not in sections:
            sections[doc] = index.section_count(doc)
        if share > 1.0 and sections[doc] >= CHAPTER_SECTIONS:
            homes.setdefault(facet, set()).add(doc)
    return homes


def topic_homes(index: PassageIndex, topic: str, language: str) -> frozenset[str]:
    """The addresses of the chapters that treat the topic: where some section's heading names one
    of its facets (empty when no chapter does, or the documents are one-topic pages).

    Why: a question made of the topic's own words ("Debian 系统的网络的定义是什么？") matches every
    chapter that says "Debian 系统" — the package chapter's APT proxy, the archive tools. The
    chapters the outline finds the facets in are where the manual treats the topic; the evidence
    agent reads those first (docs/evidence.md, "Home chapters").
    """
    ranked = _ranked_sections(index, topic, language)
    titles = set().union(*_homes(index, ranked).values())
    return frozenset(url for _f, _s, _e, doc, url in ranked if doc in titles)


def outline_documents(index: PassageIndex, topic: str, language: str) -> set[str]:
    """The titles of the documents in which the outline finds a section of the topic."""
    return {doc for _facet, _share, _entry, doc, _url in _ranked_sections(index, topic, language)}


def _ranked_sections(index: PassageIndex, topic: str, language: str) -> list[_Ranked]:
    """(facet, rank, section, its document's title) of every admissible hit, facet by facet; the
    rank is the hit's share of the facet's best score, plus the number of the facet's words the
    heading names when it names the facet; last, the document's address."""
    frame = decompose(topic, language)
    subject_terms = {t.casefold() for t in key_terms(frame.subject)} | {"chapter", "章"}
    # A part is looked for by its own words ("marshal", not "Python's marshal module": every module
    # page says "Python" and "module"); so is the topic's own question, which holds the whole subject
    # ("how the pickle, marshal and shelve modules persist objects": "persist objects").
    queries: list[tuple[str | None, str]] = [
        (f.name, " ".join(f.terms) if (f.kind == "part" or frame.subject in f.name) and f.terms else f.name)
        for f in frame.facets
    ]
    queries.append((None, frame.subject))
    # What a facet names beyond the words all facets share ("generator" of "Python generators" next
    # to "Python coroutines"): a hit must say it in our own terms, since the index's stemmer files
    # "generic" with "generators".
    kinds = {f.name: f.kind for f in frame.facets}
    # The word every member of an aspect shares ("statement" of "global and nonlocal statements")
    # names what kind of thing they are, not which: it titles no section alone ("Assignment
    # statements" is not the global statement's section).
    kind_words = {
        f.name: set.intersection(*(term_set(m) for m in f.members)) if len(f.members) > 1 else set()
        for f in frame.facets
    }
    named = [term_set(q) for _, q in queries[:-1]]
    # Each thing an aspect names is looked for on its own ("Event" of "Condition and Event
    # synchronization", "Queue task_done"): the manual gives each its own section.
    queries[-1:-1] = [(f.name, m.replace(".", " ")) for f in frame.facets for m in f.members]
    common = set.intersection(*named) if len(named) > 1 else set()
    # "Python's csv module": only the pages that write "csv" are about it; the marshal page's
    # "Functions" repeat "read", "write" and "file" without being the csv module's part.
    names = subject_names(frame.subject)
    # each name on its own: searched together, sed's manual filled all sixty hits of "find sed"
    naming = {h.title for name in names for h in index.search(name, k=60) if h.score > 0}
    # "searching files with grep": grep's own manual, when the corpus has it (find's manual writes
    # "grep" too, and its "Case-insensitive name matching" was read as grep's facet)
    tools = subject_tools(frame.subject)
    naming = {t for t in naming if titles_a_tool(t, tools)} or naming
    # In a manual of many tools whose title names none (coreutils for "the date command"), the
    # tool's own numbered sections and the sections under them (docs/evidence.md, "A tool's own
    # sections"); {} when a document's title names the tool, or no heading does.
    families: dict[str, frozenset[str]] = {}
    if tools and not any(titles_a_tool(t, tools) for t in naming):
        for title in naming or {h.title for h in index.search(" ".join(tools), k=60) if h.score > 0}:
            found = tool_families((s for s, _ in index.sections_of(title)), tools)
            if found:
                families[title] = found
    out: list[_Ranked] = []
    english_corpus = _english_corpus(index) if has_cjk(topic) else False  # only a Chinese facet asks
    shared: dict[str, bool] = {}
    furniture = index.furniture()
    common_heads = _heading_words(index)
    for facet, query in queries:
        # A Chinese facet also finds the words a manual keeps in English ("版本固定" → Pin-Priority).
        english = english_of(query, general=english_corpus) if has_cjk(query) else []
        # (hit, its share of its own query's best score): two queries' scores are not comparable.
        ranked: list[tuple[Passage, float]] = []
        # with the names the facet writes in Latin letters: "replace substitute text" finds ed's
        # "Substitute command" first; "sed replace substitute text" finds sed's "The ‘s’ Command"
        latin = re.findall(r"[A-Za-z][\w.+-]+", query) if english else []
        for text in [query, " ".join([*latin, *english])] if english else [query]:
            # Among the tool's own sections when it has some (below): searched deeper, since dd's
            # "Convert and copy a file" outranks all of date's "Time conversion specifiers".
            hits = index.search(text, k=SEARCH_K * FAMILY_DEPTH if families else SEARCH_K)
            if families:
                # Nor another manual's ("Time Directives" of time's for date). A facet none of the
                # tool's sections answers gets none: the rest of the manual is other tools'
                # ("‘printf’: Format and print data" for date's format strings), and its framework
                # questions still search.
                hits = [h for h in hits if h.title in families and in_families(h.section, families[h.title])]
                hits = hits[:SEARCH_K]
            if hits and hits[0].score > 0:
                ranked += [(h, h.score / hits[0].score) for h in hits]
        if not ranked:
            continue
        own = ((term_set(query) | term_set(" ".join(english))) - common) or term_set(query)
        need = _Need.of(query, english, own, comparison=kinds.get(facet or "") == "comparison")
        if has_cjk(query) and english:
            # one Chinese word, one English word to say: 「修改」 is "modify", "modified" or
            # "modification"; counted word by word, the glossary's synonyms outweighed the rest
            groups = [frozenset(term_set(" ".join(g)) & own) for g in english_groups(query, general=english_corpus)]
            need = replace(need, groups=tuple(g for g in groups if g))
        for hit, share in ranked:
            if naming and hit.title not in naming:
                continue
            heading = bare_heading(hit.section or hit.title)
            named_terms = {t.casefold() for t in key_terms(heading)}
            # A heading that names the facet ("2.7.8. 自动下载和升级软件包" for 系统升级) is the facet's
            # section however BM25 ranks it below a passage that repeats the facet's words — if what
            # it says meets the facet's need below.
            # The subject's own words name no facet: 「网络优化」 names 「MTU 优化」 by 「优化」, not
            # 「网络接口配置」 by the 「网络」 every section of a networking chapter says.
            # A word many headings say (「文件」 of 「转换旧系统文件名的编码」 in 《在文件上使用 GnuPG》)
            # names no facet's section by itself; two of them together do (「网络」「配置」 in
            # 《没有图像界面的现代网络配置》 for 「网络接口配置」).
            # Bigrams across a word's edge are not shared words (「本编」 of 「检查文本编码」 and 「文本编辑器」).
            in_heading = term_set(heading)
            if has_cjk(heading) and has_cjk(query):
                words = shared_cjk_bigrams(query, heading)
                in_heading = {t for t in in_heading if not has_cjk(t) or t in words}
            sharing = _as_written((own - subject_terms) & in_heading, heading, topic)
            with_subject = (own & in_heading) - {"chapter", "章"}
            titled = bool(sharing) and bool(sharing - common_heads or len(with_subject) >= 2) and facet is not None
            if sharing and sharing <= kind_words.get(facet or "", set()):
                titled = False
            if need.paired and len(sharing) == 1 and not has_cjk(next(iter(sharing))):
                titled = False  # 《Unix 文件基础》 names one of 「DOS 与 Unix」 and nothing of the line endings
            if not heading or (share < SCORE_SHARE and not titled):
                continue
            # A heading of nothing but generic words still names a facet that writes them all ("5.
            # Functions" of "defining my own functions"): only one naming nothing is an overview.
            own_words = titled and term_set(heading) <= own
            if (named_terms <= subject_terms and not own_words) != (facet is None):
                continue  # a facet's part, or the subject's own overview: nothing else
            if len(set(terms(_own_text(hit.text, furniture)))) < MIN_TERMS:
                continue  # only a line and what every page says ("Module reference"): no key points
            # A page whose title names the facet (the page "marshal" for "Python's marshal module")
            # is about it in every section, though its description may never repeat the name.
            paged = facet is not None and bool(hit.section) and need.met(term_set(hit.title))
            # A section named for nothing but the name the facet writes ("12.6.1. make" for 「用 make
            # 构建」) is that thing's own, though it never says the facet's other words (「构建」).
            paged = paged or (facet is not None and bool(need.latin) and set() < term_set(heading) <= need.latin)
            # A heading that names two of the facet's words ("Math Library Functions" of "the math
            # library loaded with -l") is its section when the text says all but one of the rest
            # (it writes "preloaded", not "loaded").
            if not paged and not need.met(
                term_set(heading + " " + hit.text), slack=int(titled and len(sharing) >= 2 and not need.cjk)
            ):
                continue
            # Said once in passing ("from __future__ import generators") is not being about it.
            said = Counter(t for t in terms(hit.text) if t in own)
            if not (titled or paged) and sum(said.values()) < 2:
                continue
            # density counts the words that tell the members apart ("global", not the "statement"
            # every member is): the pdb page says "statement" throughout and "global" once
            telling = (own - kind_words.get(facet or "", set())) or own
            if not (titled or paged) and facet is not None and not _dense(index, hit, telling):
                continue
            raw = _PART.sub("", hit.section)
            if raw not in shared:
                shared[raw] = bool(raw) and index.documents_with_section(raw) > 1
            numbered = _NUMBER.match(raw.split(SEPARATOR.strip())[-1]) if raw else None
            entry = OutlineEntry(
                facet, heading, hit.title if shared[raw] else "", numbered.group(1).rstrip(".") if numbered else ""
            )
            out.append((facet, (float(len(sharing)) if titled else 0.0) + share, entry, hit.title, hit.url))
    return out


def _english_corpus(index: PassageIndex) -> bool:
    """Whether the documents are English: fewer than a third of their sections have a Chinese name.

    Why: a Chinese facet reaches an English manual through the glossary's everyday words (「以 UTC
    显示时间」 → display, time); over a Chinese manual, those English words found every section that
    quotes a command line, so they are used only here (docs/text.md, "The glossary")."""
    names = index.section_names()
    return 3 * sum(1 for n in names if has_cjk(n)) < len(names)


def _heading_words(index: PassageIndex) -> set[str]:
    """The Chinese bigrams that name more than COMMON_HEADING of the corpus's sections (「文件」「配置」):
    a heading sharing only one of these with a facet is not that facet's section. Latin words stay: a tool a
    facet names ("shell" of 「编写可移植的 shell 脚本」) names its sections however many there are."""
    names = {bare_heading(s) for s in index.section_names()}
    counts = Counter(t for name in names for t in term_set(name) if has_cjk(t))
    floor = max(COMMON_HEADING * len(names), 3)
    return {t for t, n in counts.items() if n > floor}


_WORD = re.compile(r"[A-Za-z][\w-]*")
# Commands named by an ordinary English word: capitalised at a heading's start, the word is the
# ordinary one ("Top level …", "Time zone", "Last resort"). A tool named by a proper noun ("Git",
# "Make", "Vim") is capitalised in headings as a name, so only these are checked.
WORD_COMMANDS = frozenset(
    "top at time watch find less more head tail sort free last which who split cut file date join test".split()  # noqa: SIM905
)


def _as_written(matched: set[str], heading: str, topic: str) -> set[str]:
    """``matched`` without the short names the topic writes in lower case and the heading only
    capitalised: "inspecting processes with ps and top" names the command ``top``; "Top level
    "Release" file and authenticity" uses the ordinary word, and was filed under it (a blind trial's
    on-topic share 0.57)."""
    out: set[str] = set()
    for term in matched:
        in_topic = [w for w in _WORD.findall(topic) if stem(w.lower()) == term]
        in_heading = [w for w in _WORD.findall(heading) if stem(w.lower()) == term]
        named = bool(in_topic) and all(w.islower() for w in in_topic) and in_topic[0] in WORD_COMMANDS
        if named and in_heading and all(w[0].isupper() for w in in_heading):
            continue
        out.add(term)
    return out


def _dense(index: PassageIndex, hit: Passage, own: set[str]) -> bool:
    """Whether a page that is one topic says the facet's words throughout, not in passing.

    Why: a language reference's page on frame objects says "generator" twice ("if the frame
    belonged to a generator…"), as often as the page on the "yield" statement does in a hit of the
    same size; over the whole page it is 1 term in 90, against 1 in 22. A chapter's sections are
    kept to the facet's home chapters instead (:func:`_homes`).
    """
    if index.section_count(hit.title) >= CHAPTER_SECTIONS:
        return True
    words = terms(index.section_text(hit.snapshot_ref, hit.section))
    return not words or sum(1 for t in words if t in own) / len(words) >= FACET_DENSITY


@dataclass(frozen=True)
class _Need:
    """What a section must say to be a facet's own.

    All of a Latin facet's own words ("exception" and "chain", not "chained comparisons"); one
    candidate of a comparison. A Chinese facet: every Latin word it writes ("MTU" of 「MTU 优化」)
    and half of its bigrams, or half of the English words a manual keeps for it ("版本固定" →
    Pin-Priority, where a translated manual says 「候选版本」). One shared bigram is not enough:
    「优化」 alone files 《通过超级块优化文件系统》 under 「MTU 优化」, 「配置」 《硬盘分区配置》 under
    「网络接口配置」.
    """

    latin: frozenset[str]
    cjk: frozenset[str]
    english: frozenset[str]
    # A Latin facet naming alternatives ("Condition and Event synchronization", "locks/RLock"):
    # all words of any one of them. Empty: all of ``latin``.
    either: tuple[frozenset[str], ...] = ()
    # A Chinese facet that names two things side by side (「DOS 与 Unix」): one of them may go unsaid.
    paired: bool = False
    # The English words of each Chinese word the glossary knows: half of them must be said.
    groups: tuple[frozenset[str], ...] = ()

    @classmethod
    def of(cls, query: str, english: list[str], own: set[str], *, comparison: bool) -> _Need:
        if comparison:
            return cls(frozenset(), frozenset(), frozenset(own))
        if not has_cjk(query):
            pieces = query.split("/") if re.fullmatch(r"[\w.-]+/[\w.-]+", query) else _CONJUNCTS.split(query)
            either = tuple(frozenset(term_set(p) & own) for p in pieces if term_set(p) & own)
            if is_action_phrase(query) and len(own - term_set(query.split()[0])) >= 2:
                # A task's verb is the user's word, not the manual's: "handling exceptions raised by
                # calls" is answered by the section that says exception, raise and call, and no
                # reference page writes "handling".
                own = own - term_set(query.split()[0])
            return cls(frozenset(own), frozenset(), frozenset(), either if len(either) > 1 else ())
        written = term_set(query) & own
        cjk = frozenset(t for t in written if has_cjk(t))
        paired = _PAIRED.search(query) is not None
        return cls(frozenset(written - cjk), cjk, frozenset(term_set(" ".join(english)) & own), paired=paired)

    def met(self, said: set[str], slack: int = 0) -> bool:
        """Whether a section saying ``said`` meets the need; ``slack``: Latin words it may miss."""
        if self.either:
            return any(words <= said for words in self.either)
        missing = max(len(self.latin - said) - slack, 0)
        # A Chinese facet naming two things (「在 DOS 与 Unix 换行符之间转换」) is answered by a section
        # that says one of them and half its own words: the manual's section on line endings writes
        # "MSDOS", never "DOS" alone. A facet naming one thing needs it.
        if missing > (1 if self.paired and self.cjk else 0):
            return False
        if not self.cjk:
            return not self.english or bool(self.english & said)
        # A facet that writes a Latin name ("gdb" of 「用 gdb 调试并获取栈帧」) is told apart by it: one
        # of its bigrams besides is enough, since half of them straddle its words (「试并」「并获」).
        half = 1 if self.latin and not missing else (len(self.cjk) + 1) // 2
        if self.groups:
            english_said = 2 * sum(1 for g in self.groups if g & said) >= len(self.groups)
        else:
            english_said = 2 * len(self.english & said) >= max(len(self.english), 1)
        return len(self.cjk & said) >= half or english_said


def _own_text(text: str, furniture: frozenset[str]) -> str:
    """``text`` without headings, addresses and the sentences the corpus repeats on many pages
    (text/furniture.py)."""
    text = _MARKUP.sub(" ", text)
    return " ".join(text[a:b] for a, b in sentence_spans(text) if not is_furniture(text[a:b], furniture))
