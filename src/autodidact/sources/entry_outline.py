"""The reference entries the documents give each facet: the functions, methods and options that a
facet's answer needs by name (docs/questions.md, "Entry questions").

Why: a reference manual answers "assertions" with its ``assertEqual`` and ``assertRaises`` entries,
"skipping tests" with ``skip`` and ``skipIf``, "mirroring a site" with ``--mirror``. The outline
(sources/outline.py) asks for the key points of whole sections, and a section such as pydoc's
"class TestCase" holds seventy entries; one answer shows six sentences of it, and the framework's
templates ("What is the definition of assertions?") find sentences that say the facet's word, not
the entries that are the answer. Fresh-eyes trials found plain ``search`` above the loop on such
topics: the entries were in the index, but no question named them. Here each facet gets the
entries, in the sections the search finds for it, whose name says one of the facet's own words
("assert" of assertions, "skip" of skipping) or whose description opens with them ("Continue
getting a partially-downloaded file" for resuming partial downloads); the questioner asks what
each does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from autodidact.sources.options import option_entries
from autodidact.sources.outline import outline_documents
from autodidact.sources.passage_index import PassageIndex, has_index, open_index
from autodidact.sources.passages import entry_heads
from autodidact.text.glossary import english_of
from autodidact.text.sections import SEPARATOR, bare_heading
from autodidact.text.tokens import has_cjk, stem, term_set
from autodidact.text.tool_sections import in_families, tool_families
from autodidact.text.topic import decompose, key_terms, subject_names, subject_tools

SEARCH_K = 16  # passages read per facet query
SECTIONS = 6  # sections per facet query whose entries are read (the best ranked)
PER_FACET = 4  # entries kept per facet
MIN_PREFIX = 4  # a word matches another it begins when it has at least this many letters
DESCRIPTION_CHARS = 240  # how much of an entry's body counts as its description

# A Texinfo definition line ("-- Test: -name pattern", "-- Function: int gpgrt_init (void)"): the
# name is the first word after the category, or the word before "(" of a C prototype.
_TEXINFO_DEF = re.compile(r"^ -- [A-Z][\w ]*: (?P<rest>[^\n]+)\n(?=(?: -- [^\n]+\n)*[ \t]{3,}\S)", re.M)
_MORE_DEFS = re.compile(r"(?: -- [^\n]+\n)*")
_C_NAME = re.compile(r"(?P<name>[A-Za-z_]\w*)\s*\(")
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


@dataclass(frozen=True)
class FacetEntry:
    """One reference entry found for a facet: its name as the question writes it."""

    facet: str
    name: str
    document: str
    # the module a function belongs to, asked as a place ("What does sub do in re?"): written as
    # one dotted name ("concurrent.futures.wait"), a page that writes "wait(" alone never named it
    place: str = ""


@dataclass(frozen=True)
class _Found:
    name: str
    words: frozenset[str]  # the name's words, lower case ("assert", "raises")
    description: str
    option: bool = False  # a command-line option (Info, man page, Texinfo), not a signature


def name_words(name: str) -> frozenset[str]:
    """The words of a code name: ``assertRaises`` → assert, raises; ``--no-parent`` → no, parent;
    ``HTTPServer`` → http, server."""
    words = {w.casefold() for w in _WORD.findall(name.replace("_", " ").replace("-", " "))}
    words.add(name.strip("-").replace("_", "").replace("-", "").casefold())
    return frozenset(words | {stem(w) for w in words})


def _begins(a: str, b: str) -> bool:
    """One word begins the other (assert / assertion, skip / skipping, mirror / mirroring)."""
    short, long = sorted((a, b), key=len)
    return short == long or (len(short) >= MIN_PREFIX and long.startswith(short))


def _said(words: frozenset[str] | set[str], own: set[str]) -> set[str]:
    """The facet's own words that one of ``words`` says."""
    return {o for o in own if any(_begins(o, w) for w in words)}


def section_entries(text: str) -> list[_Found]:
    """The entries of a section's text, in order: signature lines (pydoc), option lines (Info, man
    pages) and Texinfo definition lines, each with the opening of its body."""
    found: list[tuple[int, _Found]] = []
    heads = entry_heads(text)
    for i, (offset, name) in enumerate(heads):
        line_end = text.find("\n", offset + 1)
        limit = heads[i + 1][0] if i + 1 < len(heads) else len(text)
        body = text[line_end:limit] if line_end != -1 else ""
        found.append((offset, _Found(name, name_words(name), _plain(body))))
    for entry in option_entries(text):
        long = [n for n in entry.names if n.startswith("--")]
        name = long[0] if long else entry.names[0] if entry.names else ""
        if name:
            words = frozenset(w for n in entry.names for w in name_words(n))
            found.append((entry.start, _Found(name, words, _plain(text[entry.body_start : entry.end]), True)))
    for match in _TEXINFO_DEF.finditer(text):
        rest = match.group("rest")
        c_name = _C_NAME.search(rest)
        name = c_name.group("name") if c_name else rest.split()[0]
        if name.startswith("-"):
            continue  # an option's definition ("-- Test: -name pattern"): an option entry above
        start = _MORE_DEFS.match(text, match.end())
        body_start = start.end() if start else match.end()  # past the lines defining its siblings
        body_end = text.find("\n\n", body_start)
        body = text[body_start : body_end if body_end != -1 else len(text)]
        found.append((match.start(), _Found(name, name_words(name), _plain(body), name.startswith("-"))))
    return [f for _, f in sorted(found, key=lambda x: x[0])]


def _plain(body: str) -> str:
    """An entry's body as words: pydoc's margin bars and the indentation gone, its opening only."""
    plain = " ".join(body.replace("|", " ").split())[:DESCRIPTION_CHARS]
    first = re.search(r"(?<=[a-z)\]’'])[.;:](?=\s)", plain)  # its first sentence: what the entry is
    return plain[: first.start()] if first else plain


def facet_entries(root: Path, topics: list[str], language: str) -> list[FacetEntry]:
    """Per facet, up to :data:`PER_FACET` entries of the sections the index ranks first for it, best
    first; an entry goes to the first facet that finds it."""
    out: list[FacetEntry] = []
    if not has_index(root):
        return out
    taken: set[str] = set()
    with open_index(root) as index:
        for topic in topics:
            for entry in _topic_entries(index, topic, language):
                if entry.name.casefold() not in taken:
                    taken.add(entry.name.casefold())
                    out.append(entry)
    return out


def _topic_entries(index: PassageIndex, topic: str, language: str) -> list[FacetEntry]:
    frame = decompose(topic, language)
    names = subject_names(frame.subject)
    tools = {t.casefold() for t in [*names, *subject_tools(frame.subject)]}
    subject_words = term_set(frame.subject) | tools
    # Only the subject's own pages when it has some ("socket" and "selectors", not asyncio's, which
    # names sockets throughout), else the pages that name it (sources/outline.py does the same).
    naming = {h.title for name in sorted(tools) for h in index.search(name, k=60) if h.score > 0}
    # A subject that names nothing ("editing a file with the ed line editor"): the documents whose
    # sections the outline gives the facets. Before, any page was read, and a Chinese topic on
    # datetime asked 「typing 中的 create_model 是什么？」 (a fresh-eyes trial).
    allowed = {t for t in naming if _home(t, tools)} or naming or outline_documents(index, topic, language)
    written = [_own(f.name) for f in frame.facets]
    facet_words = [set(w) for w in written]
    common = set.intersection(*facet_words) if len(facet_words) > 1 else set()
    families: dict[str, dict[str, frozenset[str]]] = {}  # per document, each tool's own sections
    out: list[FacetEntry] = []
    for facet, words, as_written in zip(frame.facets, facet_words, written, strict=True):
        # A task's verb stays its own though the subject lists it ("parsing" of "parsing files and
        # strings" under "parsing, searching and modifying XML"): parse() is that task's entry.
        verb = re.match(r"[a-z]+ing\b", facet.name)
        keep = term_set(verb.group(0)) if verb else set()
        # "zip" of 「ZIP 压缩包」 names the subject (zipfile), not an entry of one facet
        own = {
            w
            for w in words - common - (subject_words - keep)
            if not has_cjk(w) and not any(_begins(w, t) for t in tools)
        }
        if not own:
            continue
        # the facet's words together, its members, and each word alone: "mirror" finds the entry
        # ‘--mirror’, which the phrase "mirroring a site" ranks below a dozen passages about sites
        queries = [_english(q) for q in [facet.name, *(m for m in facet.members if m != facet.name)]]
        queries += sorted(as_written[w] for w in own)
        # A facet done with one of the subject's tools (「用 sed 批量替换文本」) reads that tool's pages.
        said = {t for t in tools if re.search(rf"(?<![\w.-]){re.escape(t)}(?![\w-])", facet.name, re.I)}
        pages = {t for t in allowed if _home(t, said)} or allowed if said else allowed
        ranked: dict[str, tuple[int, int, int, int, int, FacetEntry]] = {}
        for query in queries:
            sections: list[tuple[str, str, str]] = []
            for hit in index.search(query, k=SEARCH_K * 4 if pages else SEARCH_K):
                if hit.score <= 0 or (pages and hit.title not in pages):
                    continue
                place = (hit.snapshot_ref, hit.section, hit.title)
                if place not in sections:
                    sections.append(place)
            texts = [(index.section_text(ref, sec), title, sec) for ref, sec, title in sections[:SECTIONS]]
            everything = "\n".join(text for text, _, _ in texts)
            for text, title, section in texts:
                tool = _tool_of(index, title, section, tools, families)
                for found in section_entries(text):
                    if found.name.startswith("_") or found.name.casefold() in tools or len(found.name) < 2:
                        continue
                    if found.option and tool is None and families.get(title):
                        continue  # another program's option in a manual of many (ls's --quote-name in coreutils)
                    by_name = _said(found.words, own)
                    by_text = _said(term_set(found.description), own) if not by_name else set()
                    if not by_name and len(by_text) < min(2, len(own)):
                        continue
                    mentions = len(re.findall(rf"(?<![\w-]){re.escape(found.name)}(?![\w-])", everything))
                    # the subject's own page before a page that names it in passing
                    home = 0 if _home(title, tools) else 1
                    rank = (0 if by_name else 1, home, -len(by_name or by_text), -mentions, len(ranked))
                    name = _qualified(found, title, section, tool)
                    # one entry per name: pydoc prints an inherited setUp() again under each subclass
                    key = found.name.casefold()
                    if key not in ranked or rank < ranked[key][:5]:
                        ranked[key] = (*rank, FacetEntry(facet.name, name, title, _module_of(found, title, section)))
        out.extend(r[5] for r in sorted(ranked.values(), key=lambda r: r[:5])[:PER_FACET])
    return out


def _tool_of(
    index: PassageIndex, title: str, section: str, tools: set[str], families: dict[str, dict[str, frozenset[str]]]
) -> str | None:
    """The subject's tool a section documents: the tool whose page it is ("wget.info"), or whose own
    numbered sections it stands in within a manual of many ("5.3. ‘split’: …" of coreutils)."""
    home = next((t for t in sorted(tools) if _home(title, {t})), None)
    if home is not None:
        return home
    if title not in families:
        headings = [s for s, _ in index.sections_of(title)]
        families[title] = {t: f for t in sorted(tools) if (f := tool_families(headings, [t]))}
    return next((t for t, f in families[title].items() if in_families(section, f)), None)


_CLASS_HEADING = re.compile(r"^class\s+(?P<owner>[A-Za-z_]\w*)")


def _qualified(found: _Found, title: str, section: str, tool: str | None) -> str:
    """The entry's name as a question writes it to say whose it is: "Match.expand" (a method of the
    class its section documents), "split --suffix-length" (an option of the tool); a module's
    function is asked with its module as a place (:func:`_module_of`). Asked bare, "What does expand
    do?" was answered from textwrap's page and "What does --max-line-length do?" from wc's options
    (a fresh-eyes trial)."""
    if found.option:
        return f"{tool} {found.name}" if tool else found.name
    owner = _CLASS_HEADING.match(bare_heading(section.split(SEPARATOR.strip())[-1]).strip()) if section else None
    if owner is not None:
        return found.name if owner.group("owner") == found.name else f"{owner.group('owner')}.{found.name}"
    return found.name


def _module_of(found: _Found, title: str, section: str) -> str:
    """The module page a function entry stands on ("re" for sub() in re's "Functions"); "" for a
    method, an option or a page that is no module's."""
    if found.option or (section and _CLASS_HEADING.match(bare_heading(section.split(SEPARATOR.strip())[-1]).strip())):
        return ""
    module = _SUFFIX.sub("", title.strip())
    return module if re.fullmatch(r"[A-Za-z_][\w.]*", module) and module.casefold() != found.name.casefold() else ""


def _english(query: str) -> str:
    """A Chinese query as the English manual says it: its Latin words and the glossary's English."""
    if not has_cjk(query):
        return query
    return " ".join([*re.findall(r"[A-Za-z][\w.+-]+", query), *english_of(query)])


_SUFFIX = re.compile(r"\.(?:info|txt|html?|md|rst)(?:-\d+)?(?:\.gz)?$")


def _home(title: str, tools: set[str]) -> bool:
    """The document is the subject's own page: its title is one of the names ("socket",
    "wget.info"), not a page that names it among others ("unittest.mock")."""
    return _SUFFIX.sub("", title.casefold().strip()) in tools or any(
        re.fullmatch(rf"{re.escape(t)}\.info(?:-\d+)?(?:\.gz)?", title.casefold().strip()) for t in tools
    )


def _own(name: str) -> dict[str, str]:
    """A facet's words, stem → the word as written, without the generic ones ("file", "data") when
    it says others: a Chinese facet's through the glossary's English (「按修改时间」 → modify,
    modified, modification, time)."""
    text = _english(name)
    words = {stem(w): w for w in key_terms(text) if not has_cjk(w) and term_set(w)}
    specific = {stem(w) for w in key_terms(text, generic=False)}
    return {k: v for k, v in words.items() if k in specific} or words
