"""What a key question is about: its content terms, the aspect it asks for, and its gap phrase.

Why: the offline engine retrieves by term overlap, so the words it matches decide what it reads.
"What does a typical example of X look like?" is about X; "typical", "look", "example" are the
question's frame and match every page that happens to use them. Conversely, "for", "while",
"with" are English function words but the *subject* of "Compare the for statement and the while
statement" — dropping them as stopwords makes that question unanswerable. A question the loop
re-asks carries its gap ("… (missing: a definition of X)"): that phrase says what was not found,
so its content words join the query. A Chinese question over an English corpus gets English terms
from a small glossary of technical words, not only from the Latin words it happens to contain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

from autodidact.evidence.textscore import STOPWORDS, terms
from autodidact.text.glossary import english_of
from autodidact.text.keypoints import key_points_document, key_points_heading
from autodidact.text.topic import CATEGORY_HEADS

# Question-frame vocabulary: words that say what kind of answer is wanted, not what it is about.
_EN_FRAME = frozenset(
    """
    what how why which who whom whose when where does do did is are was were be can could would should might must
    work works working worked happen happens get gets make makes explain explained describe described example
    examples difference differences differ differs way ways thing things main key important common best good role
    purpose exactly definition definitions define defined distinguish distinguishes distinguished closely related
    concept concepts core component components mechanism mechanisms variant variants typical look looks like problem
    problems solve solves solved solving limitation limitations scenario scenarios right choice choices alternative
    alternatives approach approaches compare compared comparison advantage advantages disadvantage disadvantages
    drawback drawbacks benefit benefits tradeoff tradeoffs challenge challenges overview basic basics principle
    principles aspect aspects detail details general generally really actually practice practical tell know
    understand understanding simple concrete relate relates interact interacts behave behaves have has kind kinds
    type types mean means meant meaning use uses used using need needs there their they them it its the a an of to
    and or vs versus between point points under up out off down via through within without across during upon onto
    """.split()  # noqa: SIM905
)
_EN_FRAME_TERMS = frozenset(_EN_FRAME | {t for w in _EN_FRAME for t in terms(w)})  # stemmed forms too
_ZH_FRAME_WORDS = """
    是什么 有哪些 有什么 为什么 怎么样 什么是 什么 如何 哪些 主要 核心 机制 区别 典型
    例子 示例 定义 组成部分 组成 工作原理 原理 变体 解决了 解决 问题 局限性 局限 场景
    适合 使用 替代方案 替代 方案 相比 相近概念 概念 有何 怎样 优劣 对比 比较 为何 是否
    有没有 怎么 哪种 何种 一个 可以 作用 用途 特点 优势 缺点 不足 方法有 吗 呢 的 了
    与 和 及 是 在 中 对 各 如何工作 它们 它 其 要点 边界 主流 技术方案 技术路线 路线 前沿 进展
    工程实践 挑战 趋势 未来 最适合 场景下
""".split()  # noqa: SIM905
_ZH_FRAME_RE = re.compile("|".join(re.escape(w) for w in sorted(_ZH_FRAME_WORDS, key=len, reverse=True)))
# Language keywords that collide with English stopwords: content when they are the subject.
KEYWORDS = frozenset(
    """
    for while with if else elif in is not and or as from import return try except finally raise yield
    await async def class lambda del global nonlocal assert break continue pass match case
    """.split()  # noqa: SIM905
)
_STRUCTURE = r"(?:statements?|loops?|clauses?|keywords?|expressions?|blocks?|operators?|syntax|stmts?|语句|循环|关键字)"
_KEYWORD_AS_SUBJECT = re.compile(
    r"[\"'`“‘«]\s*(\w+)\s*[\"'`”’»]"  # quoted or backticked: "for", `with`
    rf"|\b(\w+)\s+{_STRUCTURE}"  # followed by a structure noun: for statement, while loops
    r"|\b(?:async|await)\b",  # never English function words
    re.IGNORECASE,
)
_GAP = re.compile(r"[(（]\s*(?:missing|gap|缺少|缺失|尚缺|未覆盖)\s*[:：]\s*([^)）]*)[)）]", re.IGNORECASE)
_META = re.compile(r"[(（]\s*(?:re-asked|重问|再问|source|来源)\s*[:：][^)）]*[)）]", re.IGNORECASE)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
# "opening connections (including in-memory databases)": an aside qualifies the phrase before it; its
# words still search, but its head ("database") and its names ("in-memory") are not what is asked.
_ASIDE = re.compile(r"\s*[(（][^()（）]+[)）]")

ASPECTS: list[tuple[str, re.Pattern[str]]] = [
    ("keypoints", re.compile(r"key points of|》\s*的要点", re.I)),  # text/keypoints.py
    ("example", re.compile(r"\bexamples?\b|\blook like\b|\bsample\b|示例|例子|举例|案例", re.I)),
    ("limitations", re.compile(r"limitation|drawback|disadvantage|downside|pitfall|shortcoming|局限|缺点|不足", re.I)),
    (
        "purpose",
        re.compile(r"\bproblems?\b.*\bsolv|\bsolves?\b|\bpurpose\b|\bwhy (?:use|do|does)\b|解决|用途|作用", re.I),
    ),
    ("use-cases", re.compile(r"scenario|\bwhen should\b|use cases?|right choice|suitable|场景|适合|适用", re.I)),
    (
        "compare",
        re.compile(r"distinguish|differ|compare|comparison|\bversus\b|\bvs\b|alternative|区别|不同|相比|对比", re.I),
    ),
    ("variants", re.compile(r"\bvariants?\b|\btypes of\b|\bkinds of\b|\bforms of\b|变体|类型|种类", re.I)),
    ("mechanism", re.compile(r"mechanism|components?|internals|\bhow (?:do|does) .+ work\b|原理|机制|如何工作", re.I)),
    # "Where do unit files come from?", "Which file configures apt-pinning?": the answer is a place.
    ("location", re.compile(r"^where\b|\bwhich (?:file|directory|folder|path)s?\b|在哪|哪个(?:文件|目录)|位于", re.I)),
    (
        "definition",
        # "What does default_factory do?" asks what the name is for, as "What is …?" does
        re.compile(
            r"\bdefinitions?\b|\bdefine\b|^what (?:is|are)\b|^what (?:does|do) [\w.()@-]+ do\b|\bmeaning of\b"
            r"|定义|什么是|是什么",
            re.I,
        ),
    ),
]


@dataclass
class Focus:
    """A key question reduced to what retrieval should match."""

    question: str  # the question without gap and meta parentheses
    gap: str  # the gap phrase ("a definition of Python generators"), or ""
    aspect: str  # example | compare | definition | ""
    terms: list[str]  # stemmed content terms of question and gap (keywords kept when they are the subject)
    words: list[str] = field(default_factory=list)  # surface content words, for an index query
    english: list[str] = field(default_factory=list)  # English words for a Chinese question (Latin + glossary)
    heads: list[str] = field(default_factory=list)  # head-noun terms ("generator" of "Python generators")
    subjects: list[list[str]] = field(default_factory=list)  # term sets matched on their own (see subjects())
    literals: list[str] = field(default_factory=list)  # names asked verbatim: apt-get, sources.list (literals())
    section: str = ""  # the heading a "key points of" question names (aspect "keypoints")
    document: str = ""  # the document it names that section in, when other documents share the heading

    def query(self) -> str:
        """An index query of content words (question order, gap words last)."""
        return " ".join(self.words)


def subject_keywords(text: str) -> set[str]:
    """Stopword-colliding language keywords that the text uses as its subject."""
    found: set[str] = set()
    for m in _KEYWORD_AS_SUBJECT.finditer(text):
        word = (m.group(1) or m.group(2) or m.group(0)).lower()
        if word in KEYWORDS:
            found.add(word)
    return found


# "What is meant by choices in argparse?", "What is the definition of types in argparse?": the one
# word a defining frame asks about is its subject, even when it is also frame vocabulary ("choice"
# of "the right choice", "types of"); dropped, the question asked only about argparse.
_OBJECT_END = r"\s*(?:\b(?:in|of|for|within|used)\b|[?,])"
_FRAMED_OBJECT = (
    re.compile(r"\b(?:meant by|definitions? of|role of|purpose of)\s+([A-Za-z_][\w-]*)" + _OBJECT_END, re.I),
)


def framed_object(text: str) -> set[str]:
    """The terms of the word a defining frame asks about (see :data:`_FRAMED_OBJECT`)."""
    for frame in _FRAMED_OBJECT:
        match = frame.search(text)
        if match is not None:
            word = match.group(1).lower()
            return set() if word in STOPWORDS or word in _DEFINING_WORDS else set(terms(word))
    return set()


_DEFINING_WORDS = frozenset({"definition", "definitions", "meaning", "role", "purpose"})


def content_terms(text: str, keep: set[str] | None = None) -> list[str]:
    """Stemmed content terms: frame words removed, subject keywords kept (see :func:`subject_keywords`)."""
    keep = subject_keywords(text) if keep is None else keep
    if _CJK.search(text):
        text = _ZH_FRAME_RE.sub(" ", text)
        # A Latin word in a Chinese question is a name ("如何用 make 构建", "apt 的 pin"): the frame is
        # the Chinese words around it, so the English frame list ("make", "type", "use") does not apply.
        keep = set(keep) | {t for t in terms(re.sub(r"[^\x00-\x7f]+", " ", text))}
    out = [t for t in terms(text, keep=frozenset(keep)) if t not in _EN_FRAME_TERMS or t in keep]
    return list(dict.fromkeys(out))


def _surface_words(text: str, keep: set[str]) -> list[str]:
    cjk = bool(_CJK.search(text))
    if cjk:
        text = _ZH_FRAME_RE.sub(" ", text)
    words: list[str] = []
    for w in re.findall(r"[\u3400-\u4dbf\u4e00-\u9fff]+|[A-Za-z][A-Za-z0-9_.+#-]*[A-Za-z0-9_+#]|[A-Za-z0-9]+", text):
        low = w.lower()
        named = cjk and not _CJK.match(w) and low not in STOPWORDS  # a Latin name in a Chinese question
        content = (
            low in keep or named or (low not in _EN_FRAME and low not in STOPWORDS and (len(w) > 1 or _CJK.match(w)))
        )
        if content and low not in {x.lower() for x in words}:
            words.append(w)
    return words


def english_words(text: str) -> list[str]:
    """Latin words of the text (frame removed) plus glossary translations of its Chinese words."""
    keep = subject_keywords(text)
    latin = [w for w in _surface_words(re.sub(r"[^\x00-\x7f]+", " ", text), keep)]
    for w in english_of(text):
        if w not in latin:
            latin.append(w)
    return latin


_COORD = frozenset({"and", "or", "vs", "versus", "nor"})


def _runs(text: str, keep: set[str]) -> list[tuple[list[str], bool]]:
    """Content-word runs of an English text, each with whether a coordinator ("and", "or", "vs")
    joins it to the run before."""
    out: list[tuple[list[str], bool]] = []
    run: list[str] = []
    coord = False
    for word in re.findall(r"[A-Za-z][A-Za-z0-9_]*|[,;:]", text):
        if word in ",;:":  # "reader objects, dialects": a list's items are runs of their own
            if run:
                out.append((run, coord))
                run, coord = [], False
            continue
        st = content_terms(word, keep)
        if st:
            run += [t for t in st if t not in run]
            continue
        if run:
            out.append((run, coord))
            run, coord = [], False
        coord = coord or word.lower() in _COORD
    if run:
        out.append((run, coord))
    return out


def phrases(text: str, keep: set[str]) -> list[list[str]]:
    """The content-word runs of an English question ("for statement", "while statement")."""
    return [run for run, _ in _runs(text, keep)]


def subjects(text: str, keep: set[str]) -> list[list[str]]:
    """The separate subjects a question asks about, each matched on its own by retrieval.

    Coordinated runs ("the for statement and the while statement", "generators and coroutines")
    each become a subject, and so does each one's head noun; a single run of several words
    ("Python coroutines") gives its head ("coroutine"). Runs in another relation ("methods of a
    generator iterator") stay together: neither alone is the subject.
    """
    runs = _runs(text, keep)
    if len(runs) == 1:
        run = runs[0][0]
        return [[run[-1]]] if len(run) > 1 else []
    if len(runs) > 1 and all(coord for _, coord in runs[1:]):
        out = [run for run, _ in runs]
        heads = [run[-1] for run in out]
        if len(set(heads)) < len(heads):  # "for statement and while statement": the head is shared, not a subject
            return out
        return out + [[h] for h in heads if [h] not in out]
    return []


_DO_QUESTION = re.compile(r"^(?:how|why|where|when|what|which)\s+(?:do|does|did)\s+(?P<rest>.+)$", re.I)
_PRONOUN = frozenset({"i", "we", "you", "one", "they", "it", "he", "she"})
_PARTICLES = frozenset({"from", "up", "down", "out", "off", "in", "on", "to", "into", "at", "over", "under", "with"})


_TASK_QUESTION = re.compile(
    r"^(?:how|why|where|when|what|which)\s+(?:do|does|did|can|could|should|would|will|may|might|must)\s+"
    r"(?:i|we|you|one|they)\s+(?P<verb>[A-Za-z]+)\s+(?:the|a|an|my|our|your|its|their|this|that)\b",
    re.I,
)


# Verbs that say what a person does with a thing without naming an act of the manual's own.
_GENERIC_VERBS = frozenset(
    """
    set get make create give put take find change handle pass add keep choose pick deal turn let bring apply
    provide specify define obtain determine adjust modify control manage
    """.split()  # noqa: SIM905
)


def _task_verb(question: str, keep: set[str]) -> str | None:
    """The verb of a task question whose object is a phrase of its own: "How do I set the thread
    stack size?" asks about the stack size; "set" is what the person does with it, and a sentence
    that only says "set" ("Get the trace function as set by settrace()") does not answer it."""
    found = _TASK_QUESTION.match(question.strip())
    if found is None or found.group("verb").lower() not in _GENERIC_VERBS:
        return None  # "How do I sniff a file's format?": a verb that names the act is what is asked
    verb = content_terms(found.group("verb"), keep)
    return verb[0] if len(verb) == 1 else None


def _verb_after_noun(question: str, keep: set[str]) -> tuple[str, str] | None:
    """(the noun, the verb) when a do-question's first content run ends with its verb: "Where does
    unit file come from" → (file, come). A pronoun subject ("How do I open connections") leaves the
    run as it is: there the run is the verb and its object."""
    found = _DO_QUESTION.match(question.strip())
    if found is None or re.search(r"\bdo\W*$", found.group("rest"), re.I):
        return None  # "What does Queue.task_done do?": the verb is "do", the run is its subject
    first = re.findall(r"[A-Za-z][A-Za-z0-9_]*", found.group("rest"))
    if not first or first[0].lower() in _PRONOUN:
        return None
    runs = _runs(found.group("rest"), keep)
    if not runs or len(runs[0][0]) < 2:
        return None
    run = runs[0][0]
    # Its verb is followed by a particle or ends the question ("come from", "start up", "fail"):
    # "… of Python generators and coroutines look like" ends its run at a noun, followed by "and".
    words = [w.lower() for w in first]
    at = next((i for i, w in enumerate(words) if content_terms(w, keep)[-1:] == [run[-1]]), None)
    if at is None or (at + 1 < len(words) and words[at + 1] not in _PARTICLES):
        return None
    return run[-2], run[-1]


_CATEGORY_TERMS = frozenset(t for w in CATEGORY_HEADS for t in terms(w))


def head_terms(text: str, keep: set[str]) -> list[str]:
    """The last term of each content-word run (English noun heads).

    "Python generators and coroutines" → generator, coroutin: a sentence that only says "Python"
    does not answer a question about Python generators. A category word ("modes" of "quoting
    modes", "levels", "options") names no thing of its own: the word before it is a head too, since
    "csv.QUOTE_MINIMAL means only when required" never says "mode".
    """
    out: list[str] = []
    for run in phrases(text, keep):
        if len(run) > 1 and run[-1] in _CATEGORY_TERMS:
            out.append(run[-2])
        out.append(run[-1])
    return list(dict.fromkeys(out))


# A name written the way a manual writes it: "apt-get", "/etc/apt/sources.list", "Pin-Priority",
# "__next__", "os.path" — letters joined by "-", ".", "/" or "_" (or a leading "/" or "--").
_LITERAL = re.compile(
    r"(?<![\w./-])(?:--?|/)?[A-Za-z0-9]+(?:[-./_]+[A-Za-z0-9]+)+|(?<![\w-])--[A-Za-z][\w-]*|(?<!\w)_{1,2}[A-Za-z]\w*"
    # a single-dash option of two letters or more, as find writes its tests ("-name", "-mtime", "-np")
    r"|(?<![\w-])-[A-Za-z][A-Za-z0-9]+\b(?![-./])"
)
_NOT_LITERAL = frozenset({"e.g", "i.e", "etc", "vs", "a.k.a", "cf"})
# An English compound ("low-level", "read-only", "built-in", "non-blocking", "multi-threaded") is
# no name: required as written, "low-level mkstemp/mkdtemp" kept no claim on a page that says "low-
# and high-level interfaces". Lower-case compounds opening with one of these words are not literals;
# names keep theirs ("apt-get", "ssh-agent", "systemd-networkd", "Pre-Depends").
_COMPOUND_OPENERS = frozenset(
    """low high non multi read write built well self single thread case user real run long short full half
    semi cross co sub in out up down off open fine time zero one two first top end all so command""".split()  # noqa: SIM905
)
_LITERAL_MARKS = re.compile(r"[`*\"'“”‘’]")


_SLASHED = re.compile(r"(?<![\w/.])[A-Za-z_]\w*(?:/[A-Za-z_]\w*)+(?![\w/.])")


def literals(text: str) -> list[str]:
    """The code-like names a question asks about, to be matched as written.

    Why: tokenising "apt-get" gives "apt" + "get" (a frame word), so "What is apt-get?" would match
    any sentence saying "apt"; "sources.list" would match "list". A name with a joiner is one name.
    """
    out: list[str] = []
    for m in _LITERAL.finditer(_LITERAL_MARKS.sub("", text)):
        word = m.group(0).rstrip(".")
        if word.casefold() in _NOT_LITERAL or not re.search(r"[A-Za-z]", word):
            continue
        if re.fullmatch(r"[a-z]+(?:-[a-z]+)+", word) and word.split("-", 1)[0] in _COMPOUND_OPENERS:
            continue  # an English compound, not a name
        for name in _alternatives(word):
            if name.casefold() not in {o.casefold() for o in out}:
                out.append(name)
    return out


def _alternatives(word: str) -> list[str]:
    """A slash between two words is "or" ("locks/RLock", "task_done/join"), not a path: each side
    that is a name of its own (a joiner or an inner capital) is a literal; plain words are not.
    A path (``/etc/hosts``, ``apt/sources.list``) has a leading slash or a dotted last part."""
    if word.startswith(("/", "-")) or "/" not in word or "." in word.rsplit("/", 1)[-1]:
        return [word]
    sides = [s for s in word.split("/") if s]
    return [s for s in sides if re.search(r"[-._]|[a-z][A-Z]|^[A-Z]{2,}[a-z]", s)]


def normalised_for_literals(text: str) -> str:
    """Case-folded text without markdown and quotation marks, for :func:`literals` matching."""
    return _LITERAL_MARKS.sub("", text).casefold()


def split_gap(text: str) -> tuple[str, str]:
    """(question without meta parentheses, gap phrase or "")."""
    m = _GAP.search(text)
    gap = m.group(1).strip() if m else ""
    question = _META.sub(" ", _GAP.sub(" ", text))
    return " ".join(question.split()), gap


def aspect_of(text: str) -> str:
    """The aspect asked beyond the subject: example, compare or definition (first match), else ""."""
    return next((name for name, pat in ASPECTS if pat.search(text.strip())), "")


def focus(text: str) -> Focus:
    """The :class:`Focus` of one key question."""
    question, gap = split_gap(text)
    keep = subject_keywords(question) | subject_keywords(gap) | framed_object(question)
    q_terms = content_terms(question, keep)
    g_terms = [t for t in content_terms(gap, keep) if t not in q_terms]
    all_terms = q_terms + g_terms
    if not all_terms:  # a question made only of frame words: fall back to its plain terms
        all_terms = terms(question) or terms(text)
    words = _surface_words(question, keep)
    low = {w.lower() for w in words}
    words += [w for w in _surface_words(gap, keep) if w.lower() not in low]
    english = english_words(question + " " + gap) if _CJK.search(question + gap) else []
    cjk = bool(_CJK.search(question))
    bare = _ASIDE.sub("", question)
    heads = [] if cjk else [t for t in head_terms(bare, keep) if t in all_terms]
    verb = None if cjk else _verb_after_noun(bare, keep)
    if verb is not None:  # "Where does unit file come from": "come" ends the run, "file" heads it
        noun, verb_term = verb
        heads = [noun if t == verb_term else t for t in heads]
    if not cjk:
        # "mkstemp/mkdtemp", "suffix/prefix/dir": names joined by a slash are alternatives, each a
        # head of its own (the run's last word alone made mkstemp a modifier of mkdtemp)
        for pair in _SLASHED.finditer(bare):
            heads += [t for side in pair.group(0).split("/") for t in terms(side) if t in all_terms and t not in heads]
    task = None if cjk else _task_verb(bare, keep)
    if task is not None and len(heads) > 1:
        heads = [t for t in heads if t != task]
    runs = [] if cjk else [[t for t in r if t in all_terms] for r in subjects(bare, keep)]
    runs = [r for r in runs if r]
    section = key_points_heading(question)
    return Focus(
        question,
        gap,
        aspect_of(question) or aspect_of(gap),
        all_terms,
        words,
        english,
        heads,
        runs,
        [] if section else literals(bare),
        section,
        key_points_document(question),
    )


def closed_compounds(question: str) -> list[str]:
    """Two adjacent content words of an English question, written closed as code and manuals write
    them: "exit code" → ``exitcod`` (the ``exitcode`` attribute), "file name" → ``filenam``.

    Why: "What is meant by exit code?" never met "exitcode  Return exit code of process", whose
    name is one token; every passage that said "exit" and "code" apart outranked it.
    """
    bare, _gap = split_gap(question)
    if _CJK.search(bare):
        return []
    words = re.findall(r"[A-Za-z]+|[^A-Za-z\s]", bare)
    out: list[str] = []
    for a, b in pairwise(words):
        if a.isalpha() and b.isalpha() and content_terms(a, set()) and content_terms(b, set()):
            joined = terms((a + b).lower())
            if joined and joined[0] not in out:
                out.append(joined[0])
    return out
