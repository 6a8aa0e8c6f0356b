"""From a round's evidence to answers: per question, the quotes that answer it, each tied to a raw file.

Why from evidence and not from raw files: the evidence agent already read the sources *for* each
question and quoted what it found; a raw file is a whole page (or section) that says much more than
the question asked. Compiling the quotes per question gives an article the answers, not a chapter's
opening sentences (docs/wiki.md "Answers from evidence").

Two rules keep the wiki true and on topic:

* a quote is written only with a citation to a raw file that holds it: the raw file whose ``来源``
  URL is the claim's source URL and whose body contains the quote (whitespace-normalised), the one
  whose ``关联问题`` holds the question first (:class:`RawLocator`). A claim none of whose quotes has
  such a file is not written, and counted;
* a quote that shares no key term with its question or the topic never enters an article; when the
  question names something beyond the topic's subject ("pinning" in a question about Debian
  package management) the quote must name it too, and a question about the whole subject needs
  more than one of its words (:meth:`QuestionTerms.admits`).
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from autodidact.errors import AutodidactError, InputError
from autodidact.evidence.files import load_evidence
from autodidact.evidence.models import EvidenceFile
from autodidact.jsontypes import JSONObject, JSONValue
from autodidact.kb import KnowledgeBase
from autodidact.sources.passages import entry_heads
from autodidact.sources.rawfiles import SOURCE_LINE, RawFile, list_raw_names, parse_raw_file
from autodidact.sources.snapshots import local_url, normalize_text, normalize_url
from autodidact.store.filememo import FileMemo
from autodidact.text.glossary import english_of
from autodidact.text.keypoints import key_points_heading
from autodidact.text.sections import bare_heading
from autodidact.text.tokens import glued
from autodidact.text.topic import decompose
from autodidact.wiki.common.markdown import has_cjk, normalize_key, split_sentences, tokens
from autodidact.wiki.common.question_frame import aspect_of, key_terms
from autodidact.wiki.common.topics import topic_subject

MAX_QUOTE_CHARS = 500
QUALITY_BONUS = {"高": 0.1, "中": 0.05, "待评估": 0.05, "低": 0.0}

_TEXT_SUFFIXES = {".md", ".txt", ".markdown"}
# raw file → (its name, (URL its header names, lookup key))
_HEADER_URLS: FileMemo[tuple[str, tuple[str, str]]] = FileMemo()


@dataclass(frozen=True)
class Question:
    """One question of a round: its id, its text and the facet of the topic it belongs to (or None)."""

    id: str
    text: str
    facet: str | None = None
    user: bool = False  # the person asked it (``source: user``): it always gets its own block


@dataclass
class Quote:
    """A verbatim passage and the raw files that contain it."""

    text: str
    sources: list[str] = field(default_factory=list)


@dataclass
class Answer:
    """The quotes found for one question this round, in evidence order."""

    question: Question
    quotes: list[Quote] = field(default_factory=list)

    def add(self, text: str, source: str) -> None:
        key = normalize_key(text)
        for quote in self.quotes:
            if normalize_key(quote.text) == key:
                if source not in quote.sources:
                    quote.sources.append(source)
                return
        self.quotes.append(Quote(text, [source]))


@dataclass
class RoundAnswers:
    """What a round's evidence yields: answers per question and what was left out (counted)."""

    answers: list[Answer] = field(default_factory=list)
    unmatched_claims: int = 0
    off_topic_quotes: int = 0
    fragments: int = 0
    no_question: int = 0


def _prefix_len(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def term_in(term: str, toks: set[str]) -> bool:
    """``term`` occurs among ``toks``: equal, or (Latin words) the same word with another ending.

    ``configure`` / ``configuration``, ``upgrade`` / ``upgrading`` match (shared prefix of at least
    four letters, differing in at most the last two letters of the shorter word); ``apt`` /
    ``aptitude`` do not. CJK bigrams match exactly.
    """
    if term in toks:
        return True
    if len(term) < 4 or has_cjk(term):
        return False
    for tok in toks:
        if len(tok) < 4 or has_cjk(tok):
            continue
        n = _prefix_len(term, tok)
        if n >= 4 and n >= min(len(term), len(tok)) - 2:
            return True
    return False


def _covered(terms: list[str], toks: set[str]) -> int:
    return sum(1 for t in terms if term_in(t, toks))


def _other_language(quote: str, question: str) -> bool:
    """The question is written in Chinese and the quote is not."""
    return not has_cjk(quote) and has_cjk(question)


def _beyond(facet: str, terms: list[str], subject: set[str], topic: str | None) -> list[str]:
    """A facet's terms beyond the research's subject; all of them when it has none of its own (a part
    of the subject: "marshal" of "the pickle, marshal and shelve modules") or when it is the user's
    own question ("What does a restricted shell forbid?", whose answer need not repeat the verb:
    "the following are disallowed"): the evidence found its quotes by searching that very question.

    Why: "free variables and the nearest enclosing scope", in a research on how Python resolves
    variable names, admitted five sentences of ``__slots__`` that say "variable" to its example
    question; the evidence step already reads facets this way (evidence/agent._facet_terms).
    """
    own = [t for t in terms if t not in subject]
    if not own or (topic and _facet_kinds(topic).get(facet) == "question"):
        return terms
    return own


@functools.lru_cache(maxsize=64)
def _facet_kinds(topic: str) -> dict[str, str]:
    """The kind of each facet the topic names, by name (decomposed once per topic)."""
    frame = decompose(topic, "zh" if has_cjk(topic) else "en")
    return {" ".join(f.name.split()): f.kind for f in frame.facets}


@dataclass(frozen=True)
class QuestionTerms:
    """The words a quote is judged by, for one question within one topic."""

    question: list[str]
    distinct: list[str]
    facet: list[str]
    topic: list[str]
    text: str = ""
    # A Chinese question's words as an English manual says them (the glossary's English and the
    # Latin names it writes), beyond the subject's: what an English quote is judged by.
    english: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, question: str, facet: str | None, topic: str | None) -> QuestionTerms:
        q = key_terms(question)
        named = topic_subject(topic) if topic else ""
        subject = set(key_terms(named)) | set(key_terms(glued(named)))  # seams: "工作站邮件" → "站邮"
        english: list[str] = []
        if has_cjk(question):
            said = [*english_of(question), *re.findall(r"[A-Za-z][\w.+-]*", question)]
            named_en = set(key_terms(" ".join([*english_of(named), *re.findall(r"[A-Za-z][\w.+-]*", named)])))
            english = [t for t in key_terms(" ".join(said)) if t not in named_en] or key_terms(" ".join(said))
        return cls(
            question=q,
            distinct=[t for t in q if t not in subject],
            facet=_beyond(facet, key_terms(facet), subject, topic) if facet else [],
            topic=key_terms(topic) if topic else [],
            text=question,
            english=english,
        )

    def admits(self, quote: str) -> bool:
        """True when the quote may enter the question's answer block (see the module docstring).

        A question that asks beyond the topic's subject is answered by a quote naming one of its
        own terms (or the facet's). A question about the subject as a whole needs two of its terms
        (one when it has only one or two): every page of a manual shares the subject's words, so
        one of them alone ("management" in a chapter on keys) does not make an answer.
        """
        toks = set(tokens(quote))
        if key_points_heading(self.text):
            # A section's key points (the evidence agent quoted that section): what it says need
            # not repeat its heading, but it still names something of the topic or the heading.
            # Across languages (a Chinese topic, an English manual) no word can be shared, and the
            # quote came from the named section all the same: it is admitted.
            return _covered(self.question + self.facet + self.topic, toks) > 0 or _other_language(quote, self.text)
        if self.english and _other_language(quote, self.text):
            # 「如何读取和写入文件？」 answered by "write_text(…) Open the file in text mode, write to it,
            # and close the file.": no Chinese word can be shared; the glossary's English can
            return _covered(self.english, toks) > 0
        if self.distinct:
            return _covered(self.distinct, toks) > 0 or (bool(self.facet) and _covered(self.facet, toks) > 0)
        if self.question:
            return _covered(self.question, toks) >= min(2, (len(self.question) + 1) // 2)
        return _covered(self.topic, toks) > 0

    def score(self, quote: str, quality: str = "中") -> float:
        """How well the quote answers: question terms covered, the facet named, the aspect asked shown."""
        toks = set(tokens(quote))
        wanted = self.english if self.english and _other_language(quote, self.text) else self.distinct or self.question
        value = _covered(wanted, toks) / len(wanted) if wanted else 0.0
        if self.distinct and self.question:
            value += 0.25 * _covered(self.question, toks) / len(self.question)
        if self.facet:
            value += 0.5 * _covered(self.facet, toks) / len(self.facet)
        aspect = aspect_of(self.text) if self.text else None
        if aspect is not None and aspect.cues.search(quote):
            value += 0.25
        return round(value + QUALITY_BONUS.get(quality, 0.05), 4)


def is_statement(quote: str) -> bool:
    """A passage that says something by itself: three content words, not cut inside inline code, and
    not a lead-in to code or a list.

    "An example of a coroutine function:" introduces what follows and answers nothing on its own.
    """
    toks = tokens(quote)
    if len(toks) < 3 or quote.count("`") % 2:
        return False  # a quote cut inside inline code is a cut sentence
    return not (quote.rstrip().endswith((":", "：")) and len(toks) < 6)


_EDGE_MARKS = re.compile(r"^(?:[|>#*+-]+\s+|\d+[.)]\s+)+|\s*\|+\s*$")


def tidy(quote: str) -> str:
    """The quote without the table pipes, list and heading marks at its edges (still a substring)."""
    return _EDGE_MARKS.sub("", " ".join(quote.split())).strip()


MAX_LIST_CHARS = 1600  # a list a colon announces, quoted whole (evidence/extract_task.LIST_MAX_CHARS)
_ANNOUNCED_LIST = re.compile(r"[:：]\s+(?:[-*•+]|\d+[.)])\s")


def split_long(quote: str, terms: QuestionTerms) -> list[str]:
    """A long quote (a model may quote a paragraph) becomes its sentences that answer the question.

    A list its first sentence announces stays whole when that sentence answers: cut into sentences,
    the items ("Changing directories with the 'cd' builtin.") name nothing the question asks and
    were dropped, leaving "the following are disallowed:" with nothing after it.
    """
    if len(quote) <= MAX_QUOTE_CHARS:
        return [quote]
    lead = _ANNOUNCED_LIST.search(quote)
    if lead is not None and len(quote) <= MAX_LIST_CHARS and terms.admits(quote[: lead.start() + 1]):
        return [quote]
    return [s for s in split_sentences(quote) if terms.admits(s) and len(s) <= MAX_QUOTE_CHARS]


def _url_key(url: str) -> str:
    try:
        return normalize_url(url)
    except AutodidactError:
        return url.strip()


def _header_url(name: str) -> Callable[[bytes, str], tuple[str, tuple[str, str]]]:
    """The URL a text raw file's header names (its own ``local`` URL without one) and its lookup
    key, with the file's name; remembered per file content."""

    def read(data: bytes, _digest: str) -> tuple[str, tuple[str, str]]:
        head = data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")[:4096]
        found = SOURCE_LINE.search(head)
        url = found.group(1) if found else local_url("raw", name)
        return name, (url, _url_key(url))

    return read


def _local_url(name: str) -> tuple[str, str]:
    """A file without a readable header: its own ``local`` URL and that URL's key."""
    url = local_url("raw", name)
    return url, _url_key(url)


class RawLocator:
    """Finds the raw file that holds a quote from a source URL (CONTRACT: URL equal, body contains it).

    Headers are read once for every file in raw/; bodies are read (and normalised) only for files
    whose URL some claim names.
    """

    def __init__(self, raw_dir: Path) -> None:
        self.raw_dir = raw_dir
        self._by_url: dict[str, list[tuple[str, str]]] = {}
        self._files: dict[str, tuple[RawFile | None, str]] = {}
        names = list_raw_names(raw_dir)
        # The headers of the text files, read once per content; only the files changed since the
        # last pass are looked at (store/filememo.py, pass_over): raw/ grows with the knowledge base.
        text = [n for n in names if os.path.splitext(n)[1].lower() in _TEXT_SUFFIXES]
        headers = {n: found for n, found in _HEADER_URLS.pass_over(raw_dir, text, _header_url, skip=(OSError,))}
        for name in names:
            url, key = headers.get(name) or _local_url(name)
            self._by_url.setdefault(key, []).append((name, url))

    def _load(self, name: str) -> tuple[RawFile | None, str]:
        if name not in self._files:
            try:
                rf: RawFile | None = parse_raw_file(self.raw_dir / name)
            except AutodidactError:
                rf = None
            self._files[name] = (rf, normalize_text(rf.body) if rf else "")
        return self._files[name]

    def section(self, name: str) -> str:
        """The section a raw excerpt holds ("asyncio.locks › class Event" → "class Event"), bare."""
        rf, _ = self._load(name)
        if rf is None or "›" not in rf.title:
            return ""
        return bare_heading(rf.title.rsplit("›", 1)[1].strip())

    def entry(self, name: str, quote: str) -> str:
        """The reference entry whose body holds ``quote`` in raw file ``name`` ("mkstemp" for "The
        return value is a pair (fd, name) …" below "mkstemp(suffix=None, …)"); "" when none."""
        rf, _ = self._load(name)
        words = quote.split()
        if rf is None or not words:
            return ""
        found = re.search(r"\s+".join(re.escape(w) for w in words[:12]), rf.body)
        if found is None:
            return ""
        # up to the quote's first character: an entry's head is a signature line followed by its
        # indented body, and the quote is where that body begins ("setUp(self)" / "Hook method …")
        heads = entry_heads(rf.body[: found.start() + 1])
        return heads[-1][1] if heads else ""

    def quality(self, name: str) -> str:
        """质量评分 of a raw file (unreadable or missing: 待评估)."""
        rf, _ = self._load(name)
        return rf.quality if rf else "待评估"

    def find(self, url: str, quote: str, qid: str) -> str | None:
        """The raw file for ``quote`` read from ``url`` while answering question ``qid`` (None: no such file)."""
        needle = normalize_text(quote)
        if not needle:
            return None
        hits: list[tuple[int, int, int, str]] = []
        for name, written in self._by_url.get(_url_key(url), []):
            rf, body = self._load(name)
            if rf is None or needle not in body:
                continue
            hits.append((qid not in rf.question_ids, written != url, len(body), name))
        return min(hits)[3] if hits else None


def _facet(item: JSONObject) -> str | None:
    value = item.get("facet")
    if isinstance(value, dict):
        value = value.get("name") or value.get("title")
    if isinstance(value, str) and value.strip():
        return " ".join(value.split())
    return None


def read_questions(path: Path) -> list[Question]:
    """The questions of a ``round_N_questions.json`` (id, text, optional facet), in file order."""
    data = _read_json(path)
    items = data.get("questions") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise InputError(f"{path.name}: no 'questions' array", hint="use the round_N_questions.json format")
    out: list[Question] = []
    for n, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise InputError(f"{path.name}: question #{n} is not an object")
        text = " ".join(str(item.get("text") or item.get("question") or "").split())
        user = item.get("source") == "user"
        out.append(Question(id=str(item.get("id") or f"q{n}"), text=text, facet=_facet(item), user=user))
    return out


def _read_json(path: Path) -> JSONValue:
    try:
        data: JSONValue = json.loads(path.read_text("utf-8"))
        return data
    except OSError as exc:
        raise InputError(f"cannot read {path.name}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path.name}: invalid JSON ({exc.msg} at line {exc.lineno})") from None


def collect_answers(
    evidence: EvidenceFile, questions: list[Question], locator: RawLocator, topic: str | None
) -> RoundAnswers:
    """Per question (``kqN`` is the round's question N), the admitted quotes with their raw files."""
    by_kq = {f"kq{i}": q for i, q in enumerate(questions, start=1)}
    urls = {s.id: s.url for s in evidence.sources}
    out = RoundAnswers(answers=[Answer(q) for q in questions])
    slot = {q.id: a for q, a in zip(questions, out.answers, strict=True)}
    terms = {q.id: QuestionTerms.of(q.text, q.facet, topic) for q in questions}
    for claim in evidence.claims:
        question = by_kq.get(claim.answers_key_question or "")
        if question is None:
            out.no_question += 1
            continue
        located = False
        for ev in claim.evidence:
            if ev.quote_type not in ("direct", "numeric"):
                continue
            quote = tidy(ev.snippet)
            name = locator.find(urls.get(ev.source_id, ""), quote, question.id)
            if name is None:
                continue
            located = True
            parts = split_long(quote, terms[question.id])
            if not parts:
                out.off_topic_quotes += 1
            # A key point quoted from the very section the question names is about it, whatever
            # its words ("The wait() method blocks until the flag is true." of "class Event").
            heading = key_points_heading(question.text)
            own_section = bool(heading) and locator.section(name).casefold() == heading.casefold()
            # a quote from the body of the entry the question names is about it ("The return value is
            # a pair (fd, name)" below "mkstemp(…)", asked "What is meant by mkstemp …?")
            entry = locator.entry(name, quote)
            own_entry = bool(entry) and term_in(entry.lower(), set(terms[question.id].distinct))
            for part in parts:
                if not is_statement(part):
                    out.fragments += 1
                elif not (own_section or own_entry) and not terms[question.id].admits(part):
                    out.off_topic_quotes += 1
                else:
                    slot[question.id].add(part, name)
        if not located:
            out.unmatched_claims += 1
    return out


def round_paths(kb: KnowledgeBase, round_n: int) -> tuple[Path, Path]:
    """``(round_N_evidence.json, round_N_questions.json)``."""
    return kb.rounds / f"round_{round_n}_evidence.json", kb.rounds / f"round_{round_n}_questions.json"


def round_answers(
    kb: KnowledgeBase, round_n: int, topic: str | None, locator: RawLocator | None = None
) -> RoundAnswers:
    """Read round N's evidence and questions and collect its answers (no evidence file: no answers)."""
    evidence_path, questions_path = round_paths(kb, round_n)
    if not evidence_path.is_file():
        return RoundAnswers()
    questions = read_questions(questions_path)
    return collect_answers(load_evidence(evidence_path), questions, locator or RawLocator(kb.raw), topic)
