"""Which of a person's raw files a research topic is about (docs/loop.md, "A person's documents").

Why: a file a person drops into ``raw/`` is compiled whole into an article of its own, and its
questions ("What are the key points of “abc”?") join the round. That is right for a note about
the topic; for a folder of twenty-three module pages added before asking about unittest, it made
an article per page, and 75–85% of the wiki's citations quoted pages the topic never named. The
other files stay what a corpus is: indexed and searched, quoted when they answer a question.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from autodidact.sources.outline import outline_documents
from autodidact.sources.passage_index import has_index, open_index
from autodidact.sources.rawfiles import parse_raw_file
from autodidact.text.glossary import english_of
from autodidact.text.sections import bare_heading, split_sections
from autodidact.text.tokens import has_cjk, term_set
from autodidact.text.topic import decompose, subject_names

COMMON_SHARE = 1 / 3
MAX_HEADINGS = 400  # sections read per file: a manual's table of contents, not every entry


def files_about(root: Path, raw: Path, names: list[str], topics: list[str], language: str) -> list[str]:
    """The ``names`` (files in ``raw``) that the topics are about, in the given order.

    A file is about a topic when its title or a heading names one of the topic's words (the tools,
    modules or things it asks about: "unittest.mock" for a topic on unittest, "sed.info" for 「用
    sed 批量替换文本」, a note's "## Async generators" for a topic on generators), or when the
    outline finds a facet's section in it. With no topic every file is.
    """
    if not names or not any(t.strip() for t in topics):
        return list(names)
    titles: dict[str, str] = {}
    words: dict[str, set[str]] = {}  # a file's title and heading words
    headings: dict[str, list[set[str]]] = {}  # each heading's words
    for name in names:
        try:
            rf = parse_raw_file(raw / name)
        except Exception:  # unreadable: compiling it reports why, as it always did
            titles[name], words[name], headings[name] = "", set(), []
            continue
        titles[name] = rf.title
        heads = [bare_heading(sec.title) for sec in split_sections(rf.body, rf.title)[:MAX_HEADINGS]]
        headings[name] = [term_set(h) for h in [rf.title, *heads]]
        words[name] = {t for t in term_set(" ".join([rf.title, *heads])) if not t.isdigit()}
    wanted: set[str] = set()
    named: set[str] = set()  # the words of the modules, tools or things the topics name
    facets: list[set[str]] = []  # each facet's words
    for topic in topics:
        wanted |= term_set(topic)
        frame = decompose(topic, language)
        named |= term_set(" ".join(subject_names(frame.subject)))
        facets += [term_set(f.name) for f in frame.facets if term_set(f.name)]
        if has_cjk(topic):
            wanted |= term_set(" ".join(english_of(topic, general=False)))
    found: set[str] = set()
    if has_index(root):
        with open_index(root) as index:
            for topic in topics:
                found |= outline_documents(index, topic, language)
    # a word most files' titles or headings say ("info" of "sed.info", pydoc's "DESCRIPTION",
    # "chapter") tells what kind of document a file is, not what it is about
    counts = Counter(t for name in names for t in words[name])
    common = {t for t, n in counts.items() if len(names) > 3 and n > COMMON_SHARE * len(names)}
    # A topic that names its module or tool is about the files that name it: by its other words,
    # "parsing files and strings" made urllib.parse's and html.parser's pages articles of a topic on
    # xml.etree.ElementTree. One that names nothing a file's title does not say them all is about
    # the files its words name.
    # A heading that says all of a facet's words ("## Skipping tests") is about it either way — one
    # heading: diffutils' manual has "show", "context" and "lines" among its hundred headings, and
    # became an article of a topic on grep's "showing context lines".
    named -= common
    if named:
        wanted = named
    return [
        name
        for name in names
        if (words[name] - common) & wanted
        or titles[name] in found
        or any(f <= heading for f in facets for heading in headings[name])
    ]
