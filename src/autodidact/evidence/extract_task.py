"""Claim extraction for one key question: the model reads passages in data blocks, or the offline
engine selects sentences extractively.

Why passage ids: the model refers to what it read as ``P1``, ``P2``…; the agent maps those ids back
to the stored snapshot it cut them from. So the model can neither invent a source nor point at a
URL or a file: an unknown id is simply dropped. Quotes must be verbatim (``direct``/``numeric``);
the agent checks each one against its snapshot before anything is written.

Offline: every passage is split into sentences (Chinese 。！？ and English), sentences are scored by
BM25 and by how many of the question's terms they cover, and the best ones — spread over distinct
sources first — are quoted verbatim as ``direct``. Claim text is a short template in the output
language around the quote.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Literal

from pydantic import BaseModel, Field

from autodidact.evidence.focus import normalised_for_literals
from autodidact.evidence.prompting import compact, language_line, stable_data_block
from autodidact.evidence.relevance import DEFINITION_BONUS, quotable, sentence_bonus, unquotable_ranges
from autodidact.evidence.textscore import BM25, STOPWORDS, clip, coverage, kept_stopwords, sentence_spans, terms
from autodidact.llm.tasks import Message
from autodidact.sources.options import entry_at, option_entries, option_names
from autodidact.sources.passages import BOUND_METHOD_TAIL
from autodidact.text.admonitions import admonition_spans, in_admonition
from autodidact.text.furniture import is_furniture
from autodidact.text.keypoints import key_points_document, key_points_heading
from autodidact.text.sections import bare_heading
from autodidact.text.tokens import has_cjk

# Contrast and limitation markers. Plain negation ("not") is descriptive far more often than it
# refutes anything, so it does not count.
# Words that state a drawback or a dispute. Concessives ("although", "however", 但是) are not among
# them: "Although aptitude is a very nice tool, you should know…" refutes nothing, and the report
# labelled such sentences "contrary evidence".
_REFUTE_CUES = re.compile(
    r"\b(limitations?|drawbacks?|criticis(?:m|ed)|cannot|deprecated|contrary to|disadvantages?|pitfalls?)\b|"
    r"局限|缺点|不支持|无法|争议|弃用|并非|弊端",
    re.IGNORECASE,
)
_FUTURE_CUES = re.compile(r"\b(will|expected to|forecast|projected|plan(?:s|ned)? to)\b|将会|预计|预期|计划", re.I)
_NORMATIVE = re.compile(r"\b(should|must|ought to)\b|应该|应当|必须", re.IGNORECASE)
_NUMBER = re.compile(r"\d")
_TAG_WORD = re.compile(r"[a-z][a-z0-9]*")


class QuoteOut(BaseModel):
    """A verbatim quote from one passage."""

    passage_id: str = Field(description="id of the passage quoted, e.g. P2")
    snippet: str = Field(min_length=1, description="copied character for character from that passage")
    quote_type: Literal["direct", "numeric"] = Field(description="numeric when the quote is a data point")


class ClaimOut(BaseModel):
    """One claim answering the key question."""

    text: str = Field(min_length=5, max_length=500, description="one verifiable, non-normative statement")
    kind: Literal["factual", "interpretive", "projective"] = Field(
        description="factual needs a primary/secondary source; interpretive needs quotes from two different "
        "passages' sources; projective states its premise in the text"
    )
    polarity: Literal["support", "refute", "neutral"]
    topic_tag: str = Field(pattern=r"^[a-z][a-z0-9_]{0,29}$")
    quotes: list[QuoteOut] = Field(min_length=1, max_length=4)


class SourceRating(BaseModel):
    """The model's view of a passage's source quality."""

    passage_id: str
    quality: Literal["primary", "secondary", "tertiary"]


class ExtractOutput(BaseModel):
    """Claims for one key question; an empty list when the passages do not answer it."""

    claims: list[ClaimOut] = Field(default_factory=list)
    ratings: list[SourceRating] = Field(default_factory=list)


@dataclass
class PassageIn:
    """A passage as the extractor sees it."""

    pid: str
    title: str
    text: str
    quality: str
    source_key: str  # the normalised URL: distinct sources for interpretive claims
    section: str = ""  # the heading of the section the passage starts in ("12.6.1. make")
    # the option lines of the option entry the passage starts inside ("‘-i[SUFFIX]’ ‘--in-place[=SUFFIX]’"),
    # when it starts below them (sources/options.py)
    option: str = ""


@dataclass
class ExtractInputs:
    """One key question and the passages selected for it."""

    language: str
    kq_id: str
    kq_text: str
    passages: list[PassageIn]
    mode: str
    max_claims: int = 3
    want_refute: bool = False
    failed_quotes: list[str] = field(default_factory=list)
    query_variants: list[list[str]] = field(default_factory=list)  # term sets: the question, its translations
    aspect: str = ""  # definition | example | compare | "": what kind of answer the question asks for
    heads: list[str] = field(default_factory=list)  # a sentence matching the question's terms names one of these
    min_head_hits: int = 1  # how many distinct heads it must name (2 for a question about the whole subject)
    # The question's own heads, tried when the sharpened ones (docs/evidence.md) select nothing: a
    # question whose only words beyond the subject are frame-like ("Who is affected by X?") still gets
    # the sentences about X.
    fallback_heads: list[str] | None = None
    fallback_min_hits: int = 1
    # Quotes (whitespace-collapsed) that earlier rounds already hold: after the best sentence per
    # source, unquoted sentences come first, so a round adds to the wiki instead of repeating it.
    known_quotes: frozenset[str] = frozenset()
    # Keys of sentences the corpus repeats on many pages (text/furniture.py): never quoted.
    furniture: frozenset[str] = frozenset()
    min_sources: int = 1  # distinct sources the depth asks for (weaker sentences may fill up to it)
    # Names the question writes as code ("apt-get", "/etc/apt/sources.list"): a quote must name one
    # as written when any sentence does (evidence/focus.py literals()).
    literals: list[str] = field(default_factory=list)
    # The research topic's own terms beyond its subject ("protocol", "version" of "… protocol and
    # format versions"): among a section's key points, the ones that say them come first.
    topic_terms: frozenset[str] = frozenset()
    # The terms of the facet the question was asked for ("free", "variabl", "enclos", "scope"), when
    # the payload names one: narrower than the topic's, they decide which key points bear on it.
    facet_terms: frozenset[str] = frozenset()
    # The research subject's terms ("python", "tempfil", "modul" of "… Python's tempfile module"):
    # every question repeats them, so a sentence need not (see _select).
    subject: frozenset[str] = frozenset()


# Offline, a question extracts a few spare claims: when an earlier question of the same file already
# quoted a sentence, the spare keeps this question answered instead of leaving it a gap.
SPARE_CLAIMS = 2


class ExtractClaimsTask:
    """Extract verifiable claims for one key question."""

    name = "evidence.extract_claims"
    Output = ExtractOutput
    max_tokens = 1800  # a few claims, each with its quotes (docs/models.md, "Output bounds")

    def offline_inputs(self, inputs: ExtractInputs) -> ExtractInputs:
        """The offline engine is asked for ``SPARE_CLAIMS`` more than the question's cap (the file
        takes only the cap; evidence/assemble.py); a model is asked for the cap itself."""
        return replace(inputs, max_claims=inputs.max_claims + SPARE_CLAIMS)

    def shrink(self, inputs: ExtractInputs) -> ExtractInputs | None:
        """One passage fewer (the lowest ranked, last): for a prompt that does not fit the context."""
        return replace(inputs, passages=inputs.passages[:-1]) if len(inputs.passages) > 1 else None

    def build_prompt(self, inputs: ExtractInputs) -> list[Message]:
        """Instructions, the key question, then each passage inside its own data block."""
        system = [
            "You extract evidence for one research key question. Use ONLY the passages given as data. "
            f"Return at most {inputs.max_claims} claims. Each claim is one verifiable statement (never 'should' or "
            "'must'), with quotes copied character for character from the passages, each naming its passage id. "
            "If the passages do not answer the question, return no claims. Rate each passage's source as primary "
            "(official docs, original data, standards, papers), secondary (news, professional analysis) or tertiary "
            "(encyclopedias, forums, blogs).",
            language_line(inputs.language),
        ]
        if inputs.want_refute:
            system.append("Include evidence that contradicts the common answer when the passages contain it.")
        user = [f"Key question {inputs.kq_id}: {inputs.kq_text}"]
        if inputs.failed_quotes:
            user.append(
                "These quotes from your previous answer were NOT found verbatim in the passages; copy exactly or "
                "leave them out: " + compact(inputs.failed_quotes)
            )
        for p in inputs.passages:
            sys_line, block = stable_data_block(p.text, f"passage {p.pid}: {p.title}")
            system.append(sys_line)
            user.append(f"Passage {p.pid}:\n{block}")  # the title is page text too: only inside the block
        return [{"role": "system", "content": "\n".join(system)}, {"role": "user", "content": "\n\n".join(user)}]

    def offline(self, inputs: ExtractInputs) -> ExtractOutput:
        """Extractive selection: best sentences by BM25 and term coverage, distinct sources first."""
        out = self._select(inputs)
        if not out.claims and inputs.fallback_heads is not None and inputs.fallback_heads != inputs.heads:
            out = self._select(
                replace(inputs, heads=list(inputs.fallback_heads), min_head_hits=inputs.fallback_min_hits)
            )
        return out

    def _select(self, inputs: ExtractInputs) -> ExtractOutput:
        if inputs.aspect == "keypoints":
            return self._claims(inputs, key_point_sentences(inputs))
        variants = [v for v in (inputs.query_variants or [terms(inputs.kq_text)]) if v]
        if not variants:
            return ExtractOutput()
        # (pid, sentence, source_key)
        cands = [
            (p.pid, sentence, p.source_key) for p, sentence in quotable_sentences(inputs.passages, inputs.furniture)
        ]
        if not cands:
            return ExtractOutput()
        options, openings = _option_heads(inputs.passages, cands)
        what_option = _WHAT_OPTION.match(inputs.kq_text.strip()) is not None
        named_class = _CLASS_QUESTION.match(inputs.kq_text.strip())
        if named_class:
            # "What does Event do?" asks about the class Event: a passage that never writes the name
            # with its capital is about some other event (a logging filter's "allow every event").
            word = re.compile(rf"(?<![\w.]){re.escape(named_class.group(1))}(?![\w])")
            about_it = {p.pid for p in inputs.passages if word.search(p.text)}
            cands = [c for c in cands if c[0] in about_it]
            if not cands:
                return ExtractOutput()
        lits = [normalised_for_literals(x) for x in inputs.literals]
        if lits:
            # A passage that never writes the name is about something else ("ls -a | list …" for
            # "sources.list"): nothing from it answers the question.
            # A sentence in an option's description names the option its entry is headed by.
            naming = [
                i
                for i, c in enumerate(cands)
                if any(x in normalised_for_literals(c[1]) or _heads_option(options.get(c[:2], ""), x) for x in lits)
            ]
            # A manual names a thing, then goes on about it ("RLock(…) Factory function that returns a
            # new reentrant lock. A reentrant lock must be released by the thread that acquired it."):
            # the few sentences after a naming one, in the same passage, may answer too.
            near = {
                j for i in naming for j in range(i, min(i + 1 + FOLLOWING, len(cands))) if cands[j][0] == cands[i][0]
            }
            named = [c for j, c in enumerate(cands) if j in near]
            if not named:
                # The manual may write the distinctive part alone ("networkd" for
                # "systemd-networkd"): a part of six letters or more, as a whole word.
                parts = [p for x in lits for p in _distinctive_parts(x)]
                named = [c for c in cands if parts and _names_a_part(c[1], parts)]
            if not named:
                # Reference pages document "Thread.join" under "join(self, timeout=None)" inside the
                # class, and the docstring's sentences never repeat the name: a passage that
                # writes the member as a call is about it, and its sentences may answer.
                calls = [x.rsplit(".", 1)[-1] for x in lits if "." in x.strip(".")]
                about = {p.pid for p in inputs.passages if calls and _calls_any(p.text, calls)}
                # "Queue.join": only the passages that also name the owner ("Blocks until all items in
                # the Queue …") — Thread's join() is another method of the same name.
                owners = [x.rsplit(".", 1)[0].rsplit(".", 1)[-1] for x in lits if "." in x.strip(".")]
                about = {
                    p.pid for p in inputs.passages if p.pid in about and _names_a_part(f"{p.title} {p.text}", owners)
                }
                named = [c for c in cands if c[0] in about]
            if not named:
                return ExtractOutput()
            cands = named
        keep = kept_stopwords(variants)
        sent_terms = [terms(_without_xrefs(c[1]), keep=keep) for c in cands]
        for i, c in enumerate(cands):
            # a sentence in an option's description is about the option (sources/options.py)
            said = terms(options.get(c[:2], ""), keep=keep)
            sent_terms[i] += [t for t in dict.fromkeys(said) if t not in sent_terms[i]]
        dedicated = _in_own_section(inputs, keep)
        bm25 = BM25(sent_terms)
        # Modifiers ("Python" of "Python coroutines") count less than the head nouns they modify.
        heads = set(inputs.heads)
        weights = {t: MODIFIER_WEIGHT for v in variants for t in v if heads and t not in heads}
        scored = []
        texts = {p.pid: p.text for p in inputs.passages}
        shows: set[int] = set()
        defined: set[int] = set()  # sentences opening the asked name's reference entry
        option_defined: set[int] = set()  # of them, the first sentences of the asked option's entries
        for i, (pid, sentence, key) in enumerate(cands):
            if not _sentence_like(sentence) and not _first_under_signature(texts.get(pid, ""), sentence):
                continue
            best = 0.0
            for n, v in enumerate(variants):
                # a sentence of a passage that names the asked thing needs one shared word: an entry's
                # signature line shares only the name ("mkstemp(…) User-callable function …"), and the
                # sentences under it are lifted from it (_under_signature); with two needed, "What is
                # meant by mkstemp in Python's tempfile module?" kept no claim at all
                need = 1 if len(set(v)) <= 2 or lits else 2
                if n == 0 and inputs.heads:
                    if len(set(inputs.heads) & set(sent_terms[i])) < inputs.min_head_hits:
                        continue  # only the modifier ("Python" of "Python generators"): not about the subject
                    # Several heads ("generators and coroutines"): each is a subject of its own.
                    need = 1 if len(set(inputs.heads)) > 1 else need
                    # "What is meant by mkstemp in Python's tempfile module?": beyond the research's
                    # subject it asks only about its heads, and an entry's sentence names mkstemp
                    # without repeating "tempfile module" (two shared words kept no claim at all).
                    core = set(v) - inputs.subject
                    if core and core <= set(inputs.heads):
                        need = min(need, len(core))
                if len(set(v) & set(sent_terms[i])) >= need:
                    best = max(best, bm25.score(v, i, weights) * (0.5 + coverage(v, sent_terms[i])))
            if best > 0:
                bonus = sentence_bonus(inputs.aspect, sentence, variants[0])
                if inputs.aspect == "definition" and leads_with(sentence, lits):
                    bonus = max(bonus, DEFINITION_BONUS)
                elif inputs.aspect == "definition" and (
                    _opens_entry(sentence, inputs.heads) or _sets_parameter(sentence, inputs.heads)
                ):
                    bonus = max(bonus, DEFINITION_BONUS)
                    defined.add(i)
                elif (
                    what_option
                    and (pid, sentence) in openings
                    and any(_heads_option(options.get((pid, sentence), ""), x) for x in lits)
                ):
                    # the first sentence of the asked option's own entry ("‘-m’ ‘--mirror’ Turn on options
                    # suitable for mirroring.") defines it; a usage tip elsewhere that names it ("use
                    # ‘--mirror’, which is the shorthand for …") does not, nor do the entry's examples,
                    # which say the tool's name and the option and outscored it ("find /tmp -name \*bar")
                    bonus = max(bonus, DEFINITION_BONUS)
                    defined.add(i)
                    option_defined.add(i)
                if bonus:
                    shows.add(i)
                own = OWN_SECTION_WEIGHT if pid in dedicated else 1.0
                if _names_the_task(options.get((pid, sentence), ""), variants[0]):
                    own *= OPTION_NAMED_WEIGHT
                scored.append((-best * (1.0 + bonus) * own, i, pid, sentence, key))
        if option_defined and scored:
            top = min(x[0] for x in scored)  # scores are negated
            scored = [(top * 1.01, *x[1:]) if x[1] in option_defined else x for x in scored]
        wanted = inputs.heads or variants[0]
        lifts: dict[int, tuple[float, int, str, str, str]] = {}
        under = _under_signature(inputs.passages, cands, scored, wanted)
        if inputs.aspect == "definition":
            defined |= {x[1] for x in under}  # an entry's description is its definition
            shows |= {x[1] for x in under}
        for x in _carried_on(cands, scored, wanted, inputs.known_quotes) + under:
            if x[1] not in lifts or x[0] < lifts[x[1]][0]:  # negated scores: the higher lift wins
                lifts[x[1]] = x
        carried = list(lifts.values())
        lifted = set(lifts)
        if defined:
            # what the entry goes on to say belongs to its definition: it is held to the same cut
            shows |= lifted
        scored = [x for x in scored if x[1] not in lifted] + carried
        scored = _other_entries_down(scored, cands, inputs.heads)
        scored.sort()
        reach: list[tuple[float, int, str, str, str]] = []
        if scored:
            floor = scored[0][0] * 0.45  # scores are negated: keep those at least 45% of the best
            # When some sentence shows the asked aspect (defines X, gives an example), the others must be close.
            strict = scored[0][0] * (0.75 if shows else 0.45)
            # Depth asks for more sources than the strongest passages give: a further source's best
            # sentence may be weaker (down to a quarter of the best), one per source.
            reach = [x for x in scored if scored[0][0] * 0.25 >= x[0] > floor]
            # Sentences no earlier round quoted, close enough to the best: a question asked again (or a
            # new question on ground already covered) adds what is not in the wiki yet. Close enough is
            # a third of the best: what the wiki holds already is the question's best-scored answer
            # (the commit() entry), and what it lacks says less of the question's words ("If there was
            # any exception, a rollback takes place; otherwise we commit.", at 39% of it).
            fresh_floor = scored[0][0] * FRESH_SHARE
            fresh = [x for x in scored if x[0] <= fresh_floor and " ".join(x[3].split()) not in inputs.known_quotes]
            ranked = scored
            scored = [x for x in scored if x[0] <= (floor if x[1] in shows else strict)]
            scored += _each_side(inputs, ranked, scored, sent_terms)
        else:
            fresh = []
        chosen: list[tuple[str, str]] = []
        used_keys: set[str] = set()
        seen_text: set[str] = set()
        # One sentence per source, then unquoted ones (when earlier rounds are known), more sources if
        # depth needs them, then the rest.
        for pass_no in (0, 3, 1, 2):
            pool = reach if pass_no == 1 else (fresh if pass_no == 3 else scored)
            if pass_no == 3 and not inputs.known_quotes:
                continue
            for _, _, pid, sentence, key in pool:
                if len(chosen) >= inputs.max_claims or (pass_no == 1 and len(used_keys) >= inputs.min_sources):
                    break
                norm = " ".join(sentence.split())
                if norm in seen_text or (pass_no in (0, 1) and key in used_keys):
                    continue
                chosen.append((pid, sentence))
                used_keys.add(key)
                seen_text.add(norm)
        return self._claims(inputs, chosen)

    def _claims(self, inputs: ExtractInputs, chosen: list[tuple[str, str]]) -> ExtractOutput:
        """One direct-quote claim per chosen (passage id, sentence)."""
        titles = {p.pid: p.title for p in inputs.passages}
        tag = topic_tag(inputs.kq_text, inputs.kq_id)
        claims = [
            ClaimOut(
                text=claim_text(sentence, titles.get(pid, ""), inputs.language),
                kind="projective" if _FUTURE_CUES.search(sentence) else "factual",
                polarity="refute" if _REFUTE_CUES.search(sentence) else "neutral",
                topic_tag=tag,
                quotes=[QuoteOut(passage_id=pid, snippet=" ".join(sentence.split()), quote_type="direct")],
            )
            for pid, sentence in chosen
        ]
        return ExtractOutput(claims=claims)


MODIFIER_WEIGHT = 0.3
_PART_SPLIT = re.compile(r"[-./_]+")


OWN_SECTION_WEIGHT = 2.0  # a sentence in the section named for what is asked, against one elsewhere
OPTION_NAMED_WEIGHT = 1.5  # a sentence of the option entry whose long name is the question's words


def _in_own_section(inputs: ExtractInputs, keep: frozenset[str]) -> set[str]:
    """The passages that stand in a section named for nothing but what the question asks about.

    Why: "如何用 make 构建？" is answered in "12.6.1. make" ("Make 是一个维护程序组的工具 … make 会读取
    规则文件 Makefile"), which never writes 「构建」, while the Meson section's history of build systems
    says both words and outscores it on the question's terms alone. A manual's section titled by
    the thing is where the thing is explained (docs/evidence.md, "The section named for the question").
    """
    heads = set(inputs.heads or (inputs.query_variants[:1] or [[]])[0])
    asked = heads | {t for x in inputs.literals for t in terms(x, keep=keep)}
    if not asked:
        return set()
    out: set[str] = set()
    for p in inputs.passages:
        named = set(terms(bare_heading(p.section), keep=keep)) if p.section else set()
        if named and named <= asked and named & heads:
            out.add(p.pid)
    return out


def _distinctive_parts(literal: str) -> list[str]:
    """The parts of a joined name that can stand for it: six letters or more, not the first part
    when it is a tool's namespace shared by many names ("systemd-", "apt-")."""
    pieces = [p for p in _PART_SPLIT.split(literal.strip("-./_")) if p]
    if len(pieces) < 2:
        return []
    return [p for p in pieces[1:] if len(p) >= 6 and p.isalpha() and p not in STOPWORDS]


FOLLOWING = 2  # sentences after one that names a literal that may still be about it
# A cross-reference names another section ("(参见第 5.1.1 节 “主机名解析”)", "(see Section 2.7.3,
# Tweaking candidate version)"): the words it names are that section's, not what the sentence says.
_XREF = re.compile(
    r"[(（]\s*(?:参见|请参见|参考|见|see(?:\s+also)?|cf\.?)\s*[^()（）]*[)）]"
    r"|(?:参见|请参见)第\s*[\d.]+\s*[节章][^，。；]*",
    re.I,
)


_QUOTED = r"[\"“`'][^\"”`'\s]{1,40}[\"”`']"  # one quoted name ("generators", `-i`)
# Four or more quoted names in a row, commas between them ("absolute_import", "division",
# "generators", … and "with_statement"): a list of what exists, not a word about any one of them.
_NAME_LIST = re.compile(rf"{_QUOTED}(?:\s*,\s*{_QUOTED}){{2,}}(?:\s*,?\s*(?:and|or)\s+{_QUOTED}|\s*,\s*{_QUOTED})")


def _without_xrefs(sentence: str) -> str:
    """``sentence`` without its cross-references and its lists of quoted names, for matching what it
    says (the quote stays whole).

    Why the lists: the demo's "working mechanism of Python generators" was answered by "The list
    includes "absolute_import", "division", "generators", … and "with_statement"." — the word was
    one item of the __future__ features, and the sentence said nothing about it (docs/evidence.md)."""
    return _NAME_LIST.sub(" ", _XREF.sub(" ", sentence))


# A question about one capitalised name, as the questioner asks about an aspect's member.
_CLASS_QUESTION = re.compile(r"^What does ([A-Z][A-Za-z0-9_]*) do\?$")
FRESH_SHARE = 0.33  # an unquoted sentence on ground earlier rounds covered: this share of the best score
MAX_KNOWN_SKIPPED = 4  # already-quoted sentences an entry's reading may pass over (_carried_on)
FOLLOW_SHARE = 0.6  # what a sentence carrying on a reference entry scores, as a share of the entry's
# A reference entry opens with its signature: "RLock(*args)", "async join(self)" (a coroutine method),
# or, for a property or attribute, with its name alone on a line above its description ("ident" /
# "Thread identifier of this thread …"); a wrapped line ("Thread" / "identifiers may be …") goes on
# in lower case.
_ENTRY = re.compile(r"^(?:async\s+|class\s+)?([A-Za-z_][\w.]*)(?:\(|[ \t]*\n\s*(?=[A-Z]))")


# A definition-list item: "- choices -- A container of values that should be allowed.",
# "nargs: The number of command-line arguments …" (pydoc argument lists, man pages, field lists).
_DEFINITION_ITEM = re.compile(r"^(?:[-*•]\s+)?:?(?:param\s+)?([A-Za-z_][\w.]*)\s*(?:--|—|:)\s+[A-Za-z]")


# "If order is true, rich comparison dunder methods are added.", "If 'suffix' is not None, the file
# name will end with that suffix": a reference page says what a parameter does by what happens when set.
# research._entry_spans finds the same sentences inside a document.
PARAMETER_SET = re.compile(
    r"\bIf ['\"`]?([A-Za-z_][\w.]*)['\"`]?\s+(?:is|are)\s+(?:true|false|given|specified|set|not\s+None|None|passed)\b"
)


def _names_a_head(name: str, heads: list[str] | set[str]) -> bool:
    """Whether the name (an entry's, an item's, a parameter's) is one the question asks about."""
    return bool({t.casefold() for t in terms(name)} & {h.casefold() for h in heads})


def _sets_parameter(sentence: str, heads: list[str]) -> bool:
    """The sentence says what the asked parameter does when it is set (see :data:`PARAMETER_SET`)."""
    found = PARAMETER_SET.match(sentence.strip())
    return found is not None and _names_a_head(found.group(1), heads)


OTHER_ENTRY_SHARE = 0.4  # a sentence opening another member's entry keeps this share of its score


def _other_entries_down(
    scored: list[tuple[float, int, str, str, str]], cands: list[tuple[str, str, str]], heads: list[str]
) -> list[tuple[float, int, str, str, str]]:
    """When the passages hold the entry of a member the question asks about, the sentences that open
    other members' entries score :data:`OTHER_ENTRY_SHARE` of their own.

    Why: asked "How do I start a thread?", the extractor read Thread's ``start()`` entry, and the
    entries next to it, "ident  Thread identifier of this thread or None if it has not been
    started." and "native_id  … or None if it has not been started.", shared "start" and "thread"
    as much: they came first in the answer and in the summary's core finding, before "It arranges
    for the object's run() method to be invoked in a separate thread of control." An entry is about
    its own member (docs/evidence.md, "Reference entries").
    """
    if not heads or not any(_opens_entry(c[1], heads) for c in cands):
        return scored
    out = []
    for x in scored:
        entry = _ENTRY.match(x[3].strip())
        if entry is not None and not _names_a_head(entry.group(1), heads):
            x = (x[0] * OTHER_ENTRY_SHARE, *x[1:])
        out.append(x)
    return out


def _opens_entry(sentence: str, heads: list[str]) -> bool:
    """The sentence opens a reference entry of an asked name ("mkstemp(suffix=None, …) User-callable
    function to create and return a unique temporary file."), or is the name's item in a
    definition list ("- choices -- A container of values that should be allowed."): its first words
    say what the name is."""
    entry = _ENTRY.match(sentence.strip()) or _DEFINITION_ITEM.match(sentence.strip())
    return entry is not None and _names_a_head(entry.group(1), heads)


SIDE_SHARE = 0.25  # a compared side's best sentence is kept down to this share of the best score


def _each_side(
    inputs: ExtractInputs,
    ranked: list[tuple[float, int, str, str, str]],
    kept: list[tuple[float, int, str, str, str]],
    sent_terms: list[list[str]],
) -> list[tuple[float, int, str, str, str]]:
    """For a comparison, the best sentence naming each head that no kept sentence names.

    Why: a comparison is answered by what the documents say of each side. Asked "What are the
    differences between NamedTemporaryFile and TemporaryFile regarding the delete flag?", every
    kept sentence was about NamedTemporaryFile, which the page documents at more length, and
    TemporaryFile's entry ("Create and return a temporary file. … The file has no name") fell
    under the cut at a third of the best score.
    """
    if inputs.aspect != "compare" or len(set(inputs.heads)) < 2 or not ranked:
        return []
    have = {x[1] for x in kept}
    named = {h for x in kept for h in inputs.heads if h in sent_terms[x[1]]}
    out: list[tuple[float, int, str, str, str]] = []
    for head in inputs.heads:
        if head in named:
            continue
        side = next((x for x in ranked if head in sent_terms[x[1]] and x[1] not in have), None)
        if side is not None and side[0] <= ranked[0][0] * SIDE_SHARE:
            out.append(side)
            have.add(side[1])
            named |= {h for h in inputs.heads if h in sent_terms[side[1]]}
    return out


def _carried_on(
    cands: list[tuple[str, str, str]],
    scored: list[tuple[float, int, str, str, str]],
    heads: list[str],
    known: frozenset[str] = frozenset(),
) -> list[tuple[float, int, str, str, str]]:
    """The sentences that go on about a reference entry the question names, scored below it.

    Why: an API reference states a member once, in its signature line, then describes it without
    repeating the name ("RLock(*args, **kwargs) Factory function that returns a new reentrant lock.
    A reentrant lock must be released by the thread that acquired it. Once a thread has acquired a
    reentrant lock, the same thread may acquire it again …"). Term matching finds the first
    sentence only; what makes RLock differ from Lock is in the next ones. A following sentence in
    the same passage counts until the next entry starts.

    Sentences earlier rounds already quoted (``known``) do not count towards :data:`FOLLOWING`: a
    question asked again about the entry ("How does basicConfig work?" after "What is basicConfig?")
    reads on to what the entry says next ("The default behaviour is to create a StreamHandler …")
    instead of finding the same two sentences round after round.
    """
    have = {x[1]: x[0] for x in scored}
    wanted = {h.casefold() for h in heads}
    out: dict[int, tuple[float, int, str, str, str]] = {}
    for score, i, pid, sentence, _key in scored:
        entry = _ENTRY.match(sentence.strip())
        if not entry or not ({t.casefold() for t in terms(entry.group(1))} & wanted):
            continue
        unread = 0
        for j in range(i + 1, min(i + 1 + FOLLOWING + MAX_KNOWN_SKIPPED, len(cands))):
            if unread >= FOLLOWING or cands[j][0] != pid or _ENTRY.match(cands[j][1].strip()):
                break
            if " ".join(cands[j][1].split()) not in known:
                unread += 1
            # scores are negated: a sentence that scored on its own words but less than it carries on
            # the entry is lifted to the entry's share
            if score * FOLLOW_SHARE < have.get(j, 0.0) and _sentence_like(cands[j][1]):
                have[j] = score * FOLLOW_SHARE
                out[j] = (score * FOLLOW_SHARE, j, pid, cands[j][1], cands[j][2])
    return list(out.values())


_SIGNATURE_LINE = re.compile(r"^(?:async\s+)?([A-Za-z_][\w.]*)\([^()]*\)" + BOUND_METHOD_TAIL + r"\s*$")


def _under_signature(
    passages: list[PassageIn],
    cands: list[tuple[str, str, str]],
    scored: list[tuple[float, int, str, str, str]],
    heads: list[str],
) -> list[tuple[float, int, str, str, str]]:
    """The first sentence under a signature or class line that names what the question asks
    about, lifted to a share of the best score.

    Why: pydoc writes an entry's name in its signature line alone ("object.__setattr__(self, name,
    value)", "class ExitStack(_BaseExitStack, …)") and the description under it never repeats it
    ("Called when an attribute assignment is attempted.", "Context manager for dynamic management
    of a stack of exit callbacks."). A signature line is no sentence, so it is never scored, and
    :func:`_carried_on` had nothing to carry on from; the auditing note under the same entry, which
    repeats the name, outranked the description, and a description sharing no word with the
    question was never a candidate at all.
    """
    if not scored:
        return []
    texts = {p.pid: p.text for p in passages}
    wanted = {h.casefold() for h in heads}
    best = min(x[0] for x in scored)  # negated scores, not yet sorted
    have = {x[1]: x[0] for x in scored}
    out = []
    for i, (pid, sentence, key) in enumerate(cands):
        if have.get(i, 0.0) <= best * FOLLOW_SHARE:
            continue  # it scored as well on its own words
        name = _entry_name_above(texts.get(pid, ""), sentence)
        if (
            name
            and _names_a_head(name, wanted)
            and (_sentence_like(sentence) or _first_under_signature(texts.get(pid, ""), sentence))
        ):
            out.append((best * FOLLOW_SHARE, i, pid, sentence, key))
    return out


def _entry_name_above(text: str, sentence: str) -> str:
    """The name of the signature or class line right above ``sentence`` (blank or margin-only lines
    between allowed), or ""."""
    at = text.find(sentence)
    if at <= 0:
        return ""
    lines = text[:at].split("\n")
    if lines[-1].strip(" \t|"):
        return ""  # the sentence does not open its line
    above = [line.strip(" \t|") for line in lines[-4:-1]]
    above = [line for line in above if line]
    if not above:
        return ""
    found = _SIGNATURE_LINE.match(above[-1]) or _CLASS_LINE.match(above[-1])
    return found.group(1) if found else ""


_CLASS_LINE = re.compile(r"^(?:#+\s+)?class\s+([A-Za-z_]\w*)(?:\([^()]*\))?\s*$")


def _first_under_signature(text: str, sentence: str) -> bool:
    """The description line right under a signature ("suppress(*exceptions)" / "Context manager to
    suppress specified exceptions"): pydoc's one-line summary of a class or function has no full
    stop, yet it is what the entry is; a heading never stands under a signature. Another bare
    signature is no description: pydoc lists ``getfloat(…)`` and ``getint(…)`` one under the other,
    and "getint(self, section, option, *, raw=False, vars=None, fallback=<object object at 0x…>)"
    was quoted as an answer about fallbacks."""
    if _BARE_SIGNATURE.fullmatch(sentence.strip()) or _SIGNATURE_LINE.match(" ".join(sentence.split())):
        return False
    return len(sentence.split()) >= 4 and bool(_entry_name_above(text, sentence))


def _calls_any(text: str, names: list[str]) -> bool:
    """Whether ``text`` writes one of ``names`` as a call or signature: ``join(``, ``task_done()``."""
    return any(re.search(rf"(?<![\w.]){re.escape(n)}\(", text, re.I) for n in names if n.isidentifier())


def _names_a_part(sentence: str, parts: list[str]) -> bool:
    low = normalised_for_literals(sentence)
    return any(re.search(rf"(?<![\w-]){re.escape(p)}(?![\w-])", low) for p in parts)


def _option_heads(
    passages: list[PassageIn], cands: list[tuple[str, str, str]]
) -> tuple[dict[tuple[str, str], str], set[tuple[str, str]]]:
    """The option lines above each candidate sentence that lies in a command-line option's
    description ("‘-i[SUFFIX]’ ‘--in-place[=SUFFIX]’"), by (passage id, sentence); and the first
    sentence of each entry, what the entry says the option is ("True if the base of the file name …
    matches shell pattern PATTERN."), where its later sentences give examples.

    Why: the sentence is about that option though it never names it ("If no extension is supplied,
    the original file is overwritten without making a backup."): the option lines' words count as
    its own, and it names the option a question writes as code (docs/evidence.md, "Option entries").
    """
    by_pid = {p.pid: p for p in passages}
    entries = {p.pid: option_entries(p.text) for p in passages}
    out: dict[tuple[str, str], str] = {}
    openings: set[tuple[str, str]] = set()
    opened: set[tuple[str, int]] = set()
    for (pid, sentence, _), at in zip(cands, _offsets(passages, [c[:2] for c in cands]), strict=True):
        if at is None:
            continue
        holding = next((e for e in entries[pid] if e.start <= at < e.end), None)
        if holding is not None and (pid, holding.start) not in opened:
            opened.add((pid, holding.start))
            openings.add((pid, sentence))
        passage = by_pid[pid]
        found = entry_at(entries[pid], at)
        if found is None:
            # a sentence that opens with its entry's option lines ("‘-m’ ‘--mirror’ Turn on options
            # suitable for mirroring.") is that entry's first sentence
            found = next((e for e in entries[pid] if e.start <= at < e.body_start), None)
        if found is not None:
            out[(pid, sentence)] = found.head
        elif passage.option and not any(e.start <= at for e in entries[pid]):
            out[(pid, sentence)] = passage.option  # the passage starts below its entry's option lines
    return out, openings


# "What does find -name do?", 「wget --mirror 是什么？」: a question asking only what an option is or does
_WHAT_OPTION = re.compile(
    r"^what\s+(?:does|is)\s+(?:the\s+)?(?:[\w.+]+\s+)?-{1,2}[A-Za-z][\w-]*(?:\s+option)?(?:\s+do)?\s*\?$"
    r"|^(?:[\w.+]+\s+)?-{1,2}[A-Za-z][\w-]*\s*(?:选项)?\s*(?:是什么|有什么作用|的作用是什么)[？?]$",
    re.I,
)


def _offsets(passages: list[PassageIn], found: list[tuple[str, str]]) -> list[int | None]:
    """Where each (passage id, sentence) of ``found`` — sentences in passage order, as
    :func:`quotable_sentences` gives them — starts in its passage's text (None if it is not there)."""
    texts = {p.pid: p.text for p in passages}
    cursor: dict[str, int] = {}
    out: list[int | None] = []
    for pid, sentence in found:
        at = texts[pid].find(sentence, cursor.get(pid, 0))
        if at >= 0:
            cursor[pid] = at + 1
        out.append(at if at >= 0 else None)
    return out


def _names_the_task(head: str, asked: list[str]) -> bool:
    """Whether an option entry's long name is made of the question's own words: ‘--export’ for "How
    do I export and import public keys?", ‘--ignore-case’ for ignoring case.

    Why: a manual's other entries say those words too ("--export-ssh-key … exports the latest valid
    subkey", "--delete-secret-and-public-key"), and a passage that mentions exporting in passing
    ("you want to export the secret key to another machine") outranked the entry of the command
    that does it (a fresh-eyes trial over GnuPG's manual; docs/evidence.md, "Option entries")."""
    if not head:
        return False
    wanted = set(asked)
    for name in option_names(head):
        said = set(terms(name.lstrip("-")))
        if name.startswith("--") and said and said <= wanted:
            return True
    return False


def _heads_option(head: str, literal: str) -> bool:
    """Whether option lines ("‘-i[SUFFIX]’ ‘--in-place[=SUFFIX]’") name the (normalised) literal "-i"."""
    return bool(head) and literal.startswith("-") and literal in option_names(head)


def quotable_sentences(
    passages: list[PassageIn], furniture: frozenset[str] = frozenset()
) -> list[tuple[PassageIn, str]]:
    """Every sentence of the passages that may be quoted, in order (short or anaphoric ones joined
    to their antecedent; code, tables' separators, similar ranges and page furniture left out)."""
    out: list[tuple[PassageIn, str]] = []
    for p in passages:
        blocked = unquotable_ranges(p.text)
        for s, e in with_antecedents(p.text, sentence_spans(p.text)):
            piece = p.text[s:e]
            if quotable(piece, s, blocked) and not is_furniture(piece, furniture) and not _asks(piece):
                out.append((p, piece))
    return out


def _asks(sentence: str) -> bool:
    """A question, not a statement: grep's FAQ heading "How do I output context around the matching
    lines?" outranked the answers under it (it says every word of the question) and was quoted as the
    answer, its -A and -B entries cut below it. Evidence states; a question asked back states nothing."""
    return sentence.rstrip().endswith(("?", "？"))


TOPIC_SHARE = 0.5  # a key point's weight grows by this for each topic term it says (up to three)


def key_point_sentences(inputs: ExtractInputs) -> list[tuple[str, str]]:
    """The sentences that carry a section's key points: those sharing most terms with the rest of it.

    Why centrality and not the question's words: "What are the key points of “Tweaking candidate
    version”?" is answered by what the section says (Pin-Priority values, /etc/apt/preferences),
    most of which never repeats the heading. A term counts once per sentence it appears in, so a
    sentence about what the section keeps returning to ranks first; the heading's own terms add
    one more; a sentence saying the research topic's own words that the section says rarely weighs
    more (the point the research asks about before the others: "The protocol version of the pickle
    is detected automatically" in a research on protocol versions); each sentence is normalised by
    its length so a long list does not win on size. The section's opening sentence is always kept.
    The chosen sentences keep the section's order (docs/evidence.md, "Key points of a section").
    """
    found = [(p.pid, s) for p, s in quotable_sentences(inputs.passages, inputs.furniture) if _sentence_like(s)]
    cands = [(n, pid, sentence) for n, (pid, sentence) in enumerate(found)]  # (order, pid, sentence)
    if not cands:
        return []
    sent_terms = [set(terms(c[2])) for c in cands]
    df: Counter[str] = Counter(t for ts in sent_terms for t in ts)
    heading = set(inputs.query_variants[0]) if inputs.query_variants else set(terms(inputs.kq_text))
    bearing = _bearing_on_topic(inputs, sent_terms)
    flagged = _flagged(inputs.passages, found)
    scored: list[tuple[float, int]] = []
    for i, ts in enumerate(sent_terms):
        if not ts or (bearing is not None and i not in bearing):
            continue
        shared: float = sum(df[t] - 1 for t in ts) + 2 * len(ts & heading)
        # A line that does not end like a sentence (a "Key: value" record shown as text) is data
        # the section illustrates with, not a point it makes — unless it is a reference-table row.
        sentence = cands[i][2].strip()
        row = _is_fact_row(sentence)
        prose = sentence.endswith(_END_PUNCT) or row
        if not row:  # a table's rows are parallel entries: which of them names a topic word is chance
            # only the topic's words the section says rarely: those it says throughout are its subject
            rare = {t for t in ts & inputs.topic_terms if df[t] <= 2}
            shared *= 1.0 + TOPIC_SHARE * min(len(rare), 3)
        scored.append((-shared / (len(ts) ** 0.5 + 1.0) * (1.0 if prose else 0.5), i))
    scored.sort()
    # The section's opening sentence states what the section is about (a manual's topic sentence:
    # "If finally is present, it specifies a cleanup handler"), so it leads whatever its centrality.
    opening = next((i for _, i in sorted(scored, key=lambda x: x[1]) if cands[i][2].strip().endswith(_END_PUNCT)), None)
    if opening is not None:
        scored = [(-1e9, opening), *[x for x in scored if x[1] != opening]]
    closing = _closing_point(cands, sent_terms, df, inputs.topic_terms | inputs.subject)
    if closing is not None and closing != opening:
        scored = [*scored[:1], (-1e8, closing), *[x for x in scored[1:] if x[1] != closing]]
    seen: set[str] = set()
    picked: list[int] = []
    # Rows of one package table that describe their packages alike ("Shoreline 防火墙, netfilter
    # 配置文件生成器" for shorewall, shorewall-lite, shorewall6…) rank each other up on those shared
    # words and would fill the answer; one of them says it. Rows that do different things ("audit
    # system for partially installed packages", "configure all partially installed packages") stay.
    described: list[set[str]] = []
    # A package catalog (name | popularity | size | description) lists what exists; its rows rank
    # high on the words they share and pushed out the statement after the table ("netfilter 主要的用
    # 户层程序是 iptables(8) … 使用 iptables-save(8) 保存当前状态"). A few rows stand for the table.
    catalog = 0
    deferred: list[int] = []
    for _, i in scored:
        norm = " ".join(cands[i][2].split())
        if norm in seen or norm in inputs.known_quotes:
            continue
        about = _row_description(cands[i][2])
        if about and any(_alike(about, other) for other in described):
            continue
        if _is_catalog_row(cands[i][2]):
            if catalog >= CATALOG_ROWS:
                deferred.append(i)
                continue
            catalog += 1
        seen.add(norm)
        picked.append(i)
        if about:
            described.append(about)
        if len(picked) >= inputs.max_claims:
            break
    picked += deferred[: max(0, inputs.max_claims - len(picked))]
    # The offline engine is asked for SPARE_CLAIMS more than the question keeps, and the file keeps
    # the first ones: in the section's order, the closing advice would always be the one cut, so it
    # takes the place of the last point kept. (Ranking all points first cost the report case the
    # `dpkg --configure -a` row of a table whose rows rank alike; docs/eval.md.) A note the document
    # flags (a warning, a caveat) is often the section's last word too, and is kept the same way.
    order = sorted(picked)
    keep = max(1, inputs.max_claims - SPARE_CLAIMS)
    kept, spare = order[:keep], order[keep:]
    notes = [i for i in picked if i in flagged][:NOTES_KEPT]
    musts = ([closing] if closing is not None else []) + notes
    for must in musts:
        # The closing point takes the last kept point's place; a note takes the place of the
        # lowest-ranked point kept, and only when it ranks above it: the section's order alone
        # cut every note at a section's end, while the rows of a command table rank alike and any
        # of them is worth as much as a note (the report case's `dpkg --configure -a`).
        others = [i for i in kept if i not in musts]
        if not others or must not in spare:
            continue
        victim = max(others, key=picked.index) if must in notes else others[-1]
        if must in notes and picked.index(must) > picked.index(victim):
            continue
        kept = [i for i in kept if i != victim] + [must]
        spare = [victim, *(i for i in spare if i != must)]
    order = sorted(kept) + spare
    return [(cands[i][1], cands[i][2]) for i in order]


NOTES_KEPT = 2  # notes among a section's key points that displace its ordinary points when the answer is full


def _flagged(passages: list[PassageIn], found: list[tuple[str, str]]) -> set[int]:
    """The indices of ``found`` (sentences in passage order) that lie in a note, warning or tip
    the document marks as such (text/admonitions.py): the author's own word that they matter."""
    spans = {p.pid: admonition_spans(p.text) for p in passages}
    notes: set[str] = set()
    for (pid, sentence), at in zip(found, _offsets(passages, found), strict=True):
        if at is not None and spans[pid] and in_admonition(spans[pid], at, at + len(sentence)):
            notes.add(" ".join(sentence.split()))
    # Section passages overlap, and the one that holds a note's label may be the second to hold its
    # text: the sentence is a note wherever it is read.
    return {n for n, (_, sentence) in enumerate(found) if " ".join(sentence.split()) in notes}


def _bearing_on_topic(inputs: ExtractInputs, sent_terms: list[set[str]]) -> set[int] | None:
    """The sentences that say one of the research topic's own words, when the section's heading
    says none of them; None when every sentence may be a key point.

    Why: a section found for a facet by one passage ("Free variables used in the nested function
    can access the local variables…" in "Function definitions") is read from its start, and its
    central sentences are about something else (default parameter values, decorators): quoted as
    key points they filled a wiki article on free variables with off-topic claims. So, when the
    heading says none of the topic's words, a key point must say one of its facet's (the topic's,
    when the question names no facet), unless a quarter of its sentences or more say them
    (`BEARING_SHARE`): then it is about the facet. A section whose heading names the topic or its subject
    ("Resolution of names" in a research on resolving names) is the topic's own, and all its points
    count, whichever facet it was read for: "The global namespace is searched first." says nothing
    of free variables, and answers the topic.
    """
    asked = inputs.facet_terms or inputs.topic_terms
    if not asked:
        return None
    # the section's document counts as its title: "Functions" in "threading" is the threading
    # module's own, and its entries' descriptions never repeat the names they describe
    title = f"{key_points_heading(inputs.kq_text) or ''} {key_points_document(inputs.kq_text) or ''}"
    if _says_any(set(terms(title)), inputs.topic_terms | inputs.subject | asked):
        return None
    # A section that says none of them was chosen for what it says in other words (the Release
    # file section that states the default Pin-Priority for "package management"): all of it counts.
    bearing = {i for i, ts in enumerate(sent_terms) if _says_any(ts, asked)}
    # A section many of whose sentences say the facet's words is about it, whatever its heading.
    return bearing if bearing and len(bearing) < BEARING_SHARE * len(sent_terms) else None


BEARING_SHARE = 0.25  # below this share of its sentences saying the facet's words, a section is not about it


def _says_any(said: set[str], wanted: frozenset[str]) -> bool:
    """Whether ``said`` holds one of ``wanted``, or a word made from one ("pickler" of "pickle",
    which the stemmer keeps apart): a stem of four letters or more that begins another counts."""
    if said & wanted:
        return True
    return any(len(w) >= 4 and s.startswith(w) for s in said for w in wanted)


def _closing_point(
    cands: list[tuple[int, str, str]], sent_terms: list[set[str]], df: Counter[str], topic: frozenset[str]
) -> int | None:
    """The section's last sentence, when it is a statement that says one of the research's words
    (its subject's or its facets') the section says rarely; None otherwise.

    Why: a manual often ends a section with its advice after a list of details ("在 shell 中执行
    “set -x” … 可以让 shell 显示出所有执行的命令。这对调试来说是非常方便的。" after twelve steps of
    how the shell reads a line). The steps share their words and outrank it on centrality, so a
    research on debugging never quoted the one sentence about debugging.
    """
    if not cands or not topic:
        return None
    last = len(cands) - 1
    sentence = cands[last][2].strip()
    if not sentence.endswith(_END_PUNCT) or _LIST_ITEM.match(sentence) or _is_fact_row(sentence):
        return None
    return last if any(df[t] <= 2 for t in sent_terms[last] & topic) else None


_LIST_ITEM = re.compile(r"^(?:[-*•]|\d+[.)])\s")
CATALOG_ROWS = 2  # rows of a package catalog among a section's key points, when it says more
_NUMERIC_CELL = re.compile(r"^[\s\dVI:.,KMGB%-]+$")


def _is_catalog_row(sentence: str) -> bool:
    """A table row with two or more numeric cells beside its name and description ("`iptables` |
    V:315, I:889 | 2408 | netfilter 管理工具…"): an entry of a catalog, not a statement."""
    stripped = sentence.strip()
    if not _is_fact_row(stripped):
        return False
    cells = [c.strip() for c in stripped.strip("|").split("|") if c.strip()]
    return sum(1 for c in cells if _NUMERIC_CELL.match(c)) >= 2


def _row_description(sentence: str) -> set[str]:
    """The terms of a table row's cells after its first (what the named thing is or does)."""
    stripped = sentence.strip()
    if not _is_fact_row(stripped):
        return set()
    cells = [c for c in stripped.strip("|").split("|") if c.strip()]
    return set(terms(" ".join(cells[1:]))) if len(cells) > 1 else set()


def _alike(a: set[str], b: set[str]) -> bool:
    """Two descriptions that share most of their words (Jaccard over 0.6)."""
    return len(a & b) / len(a | b) > 0.6


_LEAD_IN = re.compile(r"^[\s|>*•·-]*(?:the\s+|\d+\.\s+)?", re.I)


def leads_with(sentence: str, names: list[str]) -> bool:
    """The sentence opens with one of the (normalised) names: "apt-get(8) for calling … from
    scripts", "| `dpkg --configure -a` | configure …". In a manual, a sentence or table row whose
    subject is the name says what the name is or does, even without "is a".
    """
    if not names:
        return False
    head = _LEAD_IN.sub("", normalised_for_literals(sentence), count=1)
    return any(head.startswith(n) for n in names)


# A sentence that leans on the one before it ("This is called apt-pinning.", "It is a generator.")
# is quoted together with it: alone it names the term but not what the term is.
_ANAPHOR = re.compile(r"^(?:this|that|these|those|it|they|such|thus|hence|here)\b|^(?:这|此|它|其|该|这些|因此)", re.I)
MERGE_MAX_CHARS = 600
# A list a colon announces ("the following are disallowed or not performed:") is quoted whole up to
# this, its items sentences or not: the items are the answer, the lead-in alone says nothing.
LIST_MAX_CHARS = 1500
STEP_CHARS = 48  # a list item this short is a step of what the lead-in announces, even when it ends like a sentence
# A sentence that announces a list, and the gap before one of the list's items: alone, "the
# relation is as follows." says nothing, and the items ("MSS = MTU - 40") are not sentences.
_LEAD_IN_LIST = re.compile(r"(?:(?:如下|以下|as follows|the following)\s*[.:：。]?|[:：])\s*$", re.I)
_LIST_GAP = re.compile(r"\s*\n\s*(?:(?:[-*•]|\d+[.)])\s+)?")  # a new line, or a list item's marker
_ANNOUNCED = re.compile(r"(?:[:：]|如下|以下|as follows|the following)\s*[.。]?\s*\n", re.I)
_COMMAND_LINE = re.compile(r"\\?[#$]\s+\S")  # "# dpkg-reconfigure locales", "$ ls -a"


def _example_line(piece: str) -> bool:
    """One short line with no sentence of its own: a command or expression shown as an example."""
    return "\n" not in piece.strip() and len(piece.strip()) <= EXAMPLE_CHARS and not piece.rstrip().endswith(_END_PUNCT)


EXAMPLE_CHARS = 160


def _set_off(text: str, lead: int, start: int) -> bool:
    """Whether the line at ``start`` is indented deeper than the line of the sentence at ``lead``:
    an example a colon announces, set off under it ("• To print the date of the day three months
    and one day hence:" / "date --date='3 months 1 day'"). Quoted alone, the lead-in promised an
    answer it did not give."""

    def indent(at: int) -> int:
        line = text[text.rfind("\n", 0, at) + 1 : at]
        return len(line.expandtabs()) if not line.strip() else len(line.expandtabs()) - len(line.expandtabs().lstrip())

    return indent(start) > indent(lead)


def _short(piece: str) -> bool:
    """Too short to stand as a sentence: under six words and under ten ideographs."""
    return len(piece.split()) < 6 and sum(1 for ch in piece if "\u4e00" <= ch <= "\u9fff") < 10


def with_antecedents(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sentence spans, where a short or anaphoric sentence is joined to the sentence just before it,
    and so is a clause a semicolon began ("Not all Python object types are supported; in general,
    only objects whose value is …": alone, the clause reads as a fragment and is never quoted),
    and so are the items of a list a sentence announces when they are not sentences themselves
    ("MSS 和 MTU 的关系如下." with "- 对于 IPv4， MSS = MTU - 40").

    The joined span is still one exact substring of the passage, so the quote check holds.
    """
    out: list[tuple[int, int]] = []
    listing = False  # the last span announces a list ("MSS 和 MTU 的关系如下.") or holds its items
    colon = False  # ... and the announcement ends in a colon: every marked item belongs to it
    for start, end in spans:
        piece = text[start:end]
        if (
            out
            and listing
            # An item that is a sentence stands on its own, unless it is a step of a procedure ("崩溃程序。",
            # "shell 提示符下输入 "ulimit -c unlimited"。") or a colon announced it: alone, neither says much.
            and (
                (colon and not _DEFINITION_ITEM.match(piece))
                or not piece.rstrip().endswith(_END_PUNCT)
                or len(piece.strip()) <= STEP_CHARS
            )
            and end - out[-1][0] <= (LIST_MAX_CHARS if colon else MERGE_MAX_CHARS)
            and (m := _LIST_GAP.fullmatch(text[out[-1][1] : start])) is not None
            and (
                bool(m.group(0).strip())
                or bool(_COMMAND_LINE.match(piece))
                or (_example_line(piece) and _set_off(text, out[-1][0], start))
            )
        ):
            out[-1] = (out[-1][0], end)  # "对于 IPv4， MSS = MTU - 40": the list is what the lead-in says
            continue
        short = _short(piece)
        clause = bool(out) and text[out[-1][0] : out[-1][1]].rstrip().endswith(";") and piece[:1].islower()
        listing = bool(_LEAD_IN_LIST.search(piece))
        # a label ("Keyword Arguments:") heads a definition list whose entries each answer for a name
        colon = listing and piece.rstrip().endswith((":", "：")) and not _short(piece)
        if out and (short or clause or _ANAPHOR.match(piece)) and end - out[-1][0] <= MERGE_MAX_CHARS:
            gap = text[out[-1][1] : start]
            if "\n\n" not in gap and len(gap) <= 3:
                out[-1] = (out[-1][0], end)
                continue
        out.append((start, end))
    return out


# "Package: foo Pin: release a=unstable Pin-Priority: 700": fields of a record, not a statement.
_RECORD_FIELD = re.compile(r"(?:^|\s)[A-Z][A-Za-z-]{1,30}:\s")
# "# apt-get update # apt-get dist-upgrade $ cd foo": a shell transcript flattened into one line.
_PROMPT = re.compile(r"(?:^|\s)\\?[#$]\s+[a-z]")
_QUOTED_ITEM = re.compile(_QUOTED)
_END_PUNCT = tuple('.。!?！？:;；)"”')


def _is_fact_row(text: str) -> bool:
    """A markdown table row of 2–4 cells whose last (or first) filled cell is a phrase of prose (≥ 4 words).

    Reference manuals state many facts only in tables (a command and what it does); such a row is
    quotable as it stands. Header separators, numeric rows and one-word cells are not.
    """
    # (sentence spans start after a row's leading "|", so only the closing one is certain)
    if not text.endswith("|") or text.count("|") < 2 or "---" in text:
        return False
    cells = [c.strip() for c in text.strip("|").split("|")]
    filled = [c for c in cells if c]
    if not 2 <= len(filled) <= 4 or len(cells) > 5:
        return False
    # The prose cell is the last ("`apt-get update` | update the package index") or, in a table of
    # what to do and the tools that do it ("把制表符扩展成空格 | `col -x` | `expand`"), the first.
    return any(_prose_cell(cell) for cell in (filled[-1], filled[0]))


def _prose_cell(cell: str) -> bool:
    plain = re.sub(r"[`*_]", "", cell)
    words = re.findall(r"[A-Za-z]{2,}", plain)
    cjk = sum(1 for ch in plain if "\u4e00" <= ch <= "\u9fff")
    return len(words) >= 4 or cjk >= 6


_PROSE_MARKS = frozenset("`\"'“”‘’，。、：；！？「」《》,.")


# A reference page's entry: the member's signature, then what it does ("join(self)  Blocks until all
# items in the Queue have been gotten and processed.") — lowercase because the name is.
# "join(self) Blocks until …", and a class entry's line with its description ("class ExitStack(…)
# Context manager for dynamic management of a stack of exit callbacks.")
_SIGNATURE = re.compile(
    r"^(?:async\s+)?(?:[a-z_][\w.]*|class\s+[A-Za-z_]\w*)\([^()]*\)" + BOUND_METHOD_TAIL + r"\s+[A-Z]"
)
# A data descriptor's entry: its name alone, then what it is ("exitcode Return exit code of process
# or None if it has yet to stop", "daemon Return whether process is a daemon").
_DESCRIPTOR = re.compile(r"^[a-z_][\w]*\s+[A-Z][a-z]+\s")
# A definition list's entry opens with its lower-case name: "delimiter - specifies a one-character
# string …", "quoting - controls when quotes …", "csv.QUOTE_NONNUMERIC means that quotes are …".
# "choices -- A container …" (a definition list's item); "name - what it does" only when lowercase
# goes on: "configparser - Configuration file parser." is a page's NAME line, no statement.
_LIST_ENTRY = re.compile(r"^[a-z_][\w]*(?:\s+--\s+[A-Za-z]|\s+[-–—:]\s+[a-z]|\.[A-Za-z_][\w.]*\s+[a-z])")


def _says_more(sentence: str) -> bool:
    """Whether a sentence full of quoted names also says something about them: 「网络接口通常由两个服务
    进行初始化：`lo` 接口通常在“`networking.service`”处理…」 is a statement, "the features are
    "absolute_import", "division", "generators" and "nested_scopes"" a list."""
    rest = _QUOTED_ITEM.sub(" ", sentence)
    return sum(1 for ch in rest if "\u4e00" <= ch <= "\u9fff") >= 12 or len(re.findall(r"[A-Za-z]{2,}", rest)) >= 8


def _entry_like(text: str) -> bool:
    """A reference entry — a signature or a descriptor's name — and a description of three words or more."""
    for pattern in (_SIGNATURE, _DESCRIPTOR):
        found = pattern.match(text)
        if found and len(text[found.end() - 1 :].split()) >= 3:
            return True
    return False


# A call signature standing alone: its parameters' names are no statement about them.
_BARE_SIGNATURE = re.compile(r"(?:async\s+)?[A-Za-z_][\w.]*\((?:[^()]|\([^()]*\))*\)")


# A value bound to a name, as pydoc's DATA section and configuration dumps write it.
_ASSIGNMENT = re.compile(r"^[A-Za-z_][\w.]*\s*=\s*\S")

# A word that is a code name: dotted, with an underscore or parentheses, or capitalised inside.
_NAME_WORD = re.compile(r"[\w.]*(?:[._(]|[a-z][A-Z])[\w.,()]*|[A-Z]\w*\([^)]*\)?,?|\w+\),?")


# "default_factory is a 0-argument function called to initialize a field's value.": a sentence whose
# subject is a code name opens in lower case; a fragment cut from a sentence does not open "name is".
_NAMED_SUBJECT = re.compile(r"^([a-z_][\w.]*)\s+(?:is|are)\s+(?:a|an|the|\d)")
_NOT_A_NAME = frozenset(
    {"it", "this", "that", "there", "which", "what", "who", "and", "or", "but", "so", "then", "here"}
)


def _names_its_subject(sentence: str) -> bool:
    found = _NAMED_SUBJECT.match(sentence)
    return found is not None and found.group(1) not in _NOT_A_NAME


def _sentence_like(sentence: str) -> bool:
    """Not a heading or a fragment: ends like a sentence (or is long), has a few words or CJK characters."""
    stripped = sentence.strip()
    if _BARE_SIGNATURE.fullmatch(stripped):
        return False  # "BooleanOptionalAction(option_strings, dest, default=None, …)" says nothing
    if _ASSIGNMENT.match(stripped):
        return False  # pydoc's DATA section ("TMP_MAX = 238328 __all__ = ['NamedTemporaryFile', …")
    tokens = stripped.split()
    if (
        len(tokens) >= 4
        and sum(1 for w in tokens if _NAME_WORD.fullmatch(w)) >= 0.7 * len(tokens)
        and not _entry_like(stripped)
    ):
        # pydoc's class tree ("abc.ABC(builtins.object) AsyncExitStack(_BaseExitStack, …)"); an
        # entry whose long signature is all names ("TemporaryFile(mode='w+b', buffering=-1, …)
        # Create and return a temporary file.") still says something
        return False
    lowered = stripped[:1].isascii() and stripped[:1].islower() and not has_cjk(stripped)
    if (
        lowered
        and not _SIGNATURE.match(stripped)
        and not _LIST_ENTRY.match(stripped)
        and not _entry_like(stripped)
        and not _names_its_subject(stripped)
    ):
        # A fragment (a list item's continuation, a clause cut off its sentence). Chinese has no
        # case: 「netfilter 主要的用户层程序是 iptables(8)」 opens with a name, not a fragment.
        return False
    quoted = _QUOTED_ITEM.findall(stripped)
    if len(quoted) >= 4 and sum(len(q) for q in quoted) > 0.4 * len(stripped) and not _says_more(stripped):
        return False  # an enumeration of names ("absolute_import", "division", ...), not a statement
    if len(_RECORD_FIELD.findall(stripped)) >= 3 or len(_PROMPT.findall(stripped)) >= 2:
        return False  # a configuration record or a shell session shown as text
    if _is_fact_row(stripped):
        return True  # a reference table's row: a name and what it does ("| `dpkg --configure -a` | configure …|")
    # Quotes, inline-code marks and a sentence's own punctuation are prose ("`/etc/nsswitch.conf`" 文件里的
    # "`hosts: files dns`" 这段规定主机名解析顺序。); brackets, operators and pipes are code and tables.
    if "::=" in stripped or sum(ch.isalnum() or ch.isspace() or ch in _PROSE_MARKS for ch in stripped) < 0.8 * len(
        stripped
    ):
        return False  # grammar rules, code, tables
    words = len(stripped.split())
    cjk = sum(1 for ch in stripped if "\u4e00" <= ch <= "\u9fff")
    # A sentence quoted with the list or command it announces ends with that list's last item.
    announced = bool(_ANNOUNCED.search(stripped))
    # A reference entry's one-line description has no full stop in pydoc ("join(self, timeout=None)
    # Wait until child process terminates"): the signature and a few words are a statement.
    entry = _entry_like(stripped)
    return (stripped.endswith(_END_PUNCT) or len(stripped) >= 80 or announced or entry) and (words >= 5 or cjk >= 8)


def claim_text(sentence: str, title: str, language: str) -> str:
    """The offline claim: the quoted sentence, attributed in the output language (5-500 characters)."""
    body = clip(sentence, 380)
    # "Chapter 2. Debian package management" → "Debian package management": a numbered title
    # reads as two sentences once a report puts citation marks after each.
    short = clip(bare_heading(title) or title, 80) if title else ""
    if language == "zh":
        text = f"据《{short}》：{body}" if short else f"据来源：{body}"
    else:
        text = f"According to {short}: {body}" if short else body
    return text if len(text) >= 5 else f"{text} …"


def topic_tag(kq_text: str, kq_id: str) -> str:
    """A snake_case tag from the question's Latin terms, else ``<kq>_topic``."""
    words = [w for w in _TAG_WORD.findall(kq_text.lower()) if len(w) > 2 and w not in _TAG_STOP]
    tag = "_".join(dict.fromkeys(words[:3]))[:30].strip("_")
    return tag if tag and tag[0].isalpha() else f"{kq_id}_topic"


_TAG_STOP = frozenset({"what", "how", "why", "which", "does", "the", "and", "are", "for", "with", "when", "can"})
