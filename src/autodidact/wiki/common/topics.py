"""Which article a raw file belongs to: deterministic grouping by question subject or title.

Why deterministic rules: the offline engine must produce the same wiki from the same files, and a
resumed run must not split a topic differently from a clean run. A raw file names the questions it
answers (``关联问题``); the subject of the first such question ("什么是 Python 生成器？" →
"Python 生成器", "What are the limits of asyncio?" → "asyncio") is the topic. Without a known
question, the raw file's cleaned title is. An existing article whose title or alias has the same
normalised key absorbs the file, so one topic keeps one article.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

from autodidact.text.topic import decompose
from autodidact.wiki.common.articles import Article
from autodidact.wiki.common.markdown import normalize_key

_ZH_PREFIX = re.compile(
    r"^(?:请问|请解释|解释一下|什么是|什么叫|何为|何谓|如何理解|"
    r"(?:在)?(?:什么|哪些|哪种|何种)(?:场景|情况|情形|条件)下?(?:最)?(?:适合|应该|应当|可以)?(?:使用|采用|选择|用)?|"
    r"如何|怎样|怎么|为什么|为何|有哪些|哪些|是否)"
)
_ZH_SUFFIX = re.compile(
    r"(?:是什么意思|是什么|是怎样的|是如何工作的|如何工作|怎么工作|有哪些|有什么|是多少|怎么样|如何|有何区别|有何不同|"
    r"解决了什么问题|解决什么问题|吗|呢)$"
)
_ZH_TAIL_OF = re.compile(
    r"的(?:定义|含义|原理|工作原理|核心组成部分|组成部分|组成|主要变体|变体|优缺点|优势|局限性?|缺点|限制|"
    r"应用场景|适用场景|场景|历史|现状|发展|趋势|区别|对比|实现|用途|作用|特点|规模|市场规模|风险|"
    r"典型示例|典型例子|示例|例子|边界|机制|核心|本质|概念|目标用户|可行性|差异化).*$"
)
_ZH_TRAILING_VERB = re.compile(r"(?:要解决|解决了|解决|适合|适用于|适用|使用|用于|能够|能|可以|会|各方案|方案)$")
_ZH_COMPARE = ("区别", "相比", "对比", "比较", "不同", "差异")
_EN_FRAMES = [
    re.compile(p, re.I)
    for p in (
        r"^what (?:core )?(?:problems?|issues?|pain points?|needs?) (?:does|do|did|can|could|will) (?P<s>.+?) "
        r"(?:solve|address|fix|tackle)$",
        r"^what (?:problems?|issues?|needs?) (?:is|are|were|was|get|gets) (?:solved|addressed|fixed) by (?P<s>.+)$",
        r"^what (?:does|do|would) (?:an? |the )?(?:typical |simple |concrete |real[- ]world )?(?:examples?|use) "
        r"(?:of|for) (?P<s>.+?) look like$",
        r"^what (?:distinguishes|differentiates|separates|sets apart) (?P<s>.+?) (?:from|apart from) .+$",
        r"^how (?:do|does|can|could) (?:the )?(?:\w+ )?(?:approaches|alternatives|solutions|options|tools|methods) "
        r"compare (?:with|to|against) (?P<s>.+)$",
        r"^(?:in|under) (?:which|what) (?:scenarios?|situations?|cases?|contexts?|conditions?) (?:is|are|should|would) "
        r"(?P<s>.+?) (?:the right choice|the best choice|a good (?:choice|fit)|appropriate|useful|(?:be )?used)$",
        r"^when (?:should|would|could|is|are|do|does|to) (?P<s>.+?) (?:be used|used|useful|appropriate|"
        r"the right choice|a good (?:choice|fit)|be chosen|be preferred)$",
        r"^how (?:does|do|did|can|could|should|would|is|are) (?P<s>.+?) (?:really |actually )?(?:work|works|"
        r"function|operate|behave|compare|differ|perform|scale|help|matter)\b.*$",
        r"^why (?:does|do|is|are|should|would) (?P<s>.+?) (?:matter|exist|needed|used|important|useful)\b.*$",
        r"^how (?:feasible|big|large|mature|popular|fast|widespread|reliable) (?:is|are) (?P<s>.+)$",
    )
]
_EN_LEAD = re.compile(
    r"^(?:what|which|who|why|how|when|where)\s+(?:is|are|was|were|do|does|did|can|could|should|would)\s+", re.I
)
_EN_LEAD2 = re.compile(
    r"^(?:what|how|why|explain|describe|define|understand(?:ing)?|research(?:ing)?(?:\s+(?:on|into))?|"
    r"study(?:ing)?(?:\s+of)?|learn(?:ing)?(?:\s+about)?|(?:an?\s+)?(?:introduction|overview|guide)\s+(?:to|of))\s+",
    re.I,
)
_EN_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.I)
_EN_TAIL = re.compile(
    r"\s+(?:work|works|used|use|differ|compare|mean|defined|implemented|do|matter|exist|solve|solves|look like|"
    r"looks like|be used|function|operate|behave)(?:\s+.*)?$",
    re.I,
)
_FRAME_NOUN = (
    r"(?:definitions?|meaning|limitations?|limits|advantages|disadvantages|drawbacks|shortcomings|(?:core )?components|"
    r"(?:working )?mechanisms?|principles?|variants|versions|types|kinds|forms|history|uses|use cases|applications|"
    r"purpose|benefits|risks|(?:future )?trends|size|alternatives|pros and cons|internals|examples?|trade-offs|"
    r"challenges|features|characteristics|role|scope|boundaries|structure|architecture|properties|basics|"
    r"fundamentals|concepts?|goals?|origins?|semantics|behaviou?r|syntax|rules|approach(?:es)?|routes?|users|players|"
    r"(?:pain )?points?|drivers|factors|developments|advances|models?|solutions)"
)
_FRAME_ADJ = (
    r"(?:(?:main|key|core|major|typical|basic|common|primary|important|underlying|essential|general|mainstream|"
    r"technical|target|recent|existing|business|success)\s+)*"
)
_EN_OF = re.compile(
    rf"^(?:the\s+)?{_FRAME_ADJ}{_FRAME_NOUN}(?:\s*(?:,|and|&|or)\s+(?:the\s+)?{_FRAME_ADJ}{_FRAME_NOUN})*"
    r"\s+(?:of|for|to|in|behind)\s+",
    re.I,
)
_EN_CLAUSE = re.compile(r",\s*(?:and|or|but)\s+|;\s*|,\s*(?=(?:what|how|why|when|which|where)\b)", re.I)
_TITLE_SPLIT = re.compile(r"\s+[-|–—·:]\s+|\s*[|｜]\s*")
_ZH_CUT = re.compile(r"如何|怎样|怎么|为什么|为何|是否|能否|有哪些|有什么|有何|是什么|哪些|有多|多少|多大|吗")
_EN_VERBS = frozenset(
    "produce produces handle handles affect affects compare compares differ differs use uses support supports "  # noqa: SIM905
    "improve improves reduce reduces increase increases cause causes relate relates interact interacts perform "
    "performs run runs store stores manage manages implement implements help helps prevent prevents make makes "
    "get gets become becomes have has need needs work works behave behaves solve solves".split()
)


def _zh_strip(text: str) -> str:
    previous = None
    while previous != text:
        previous = text
        text = _ZH_PREFIX.sub("", text).strip()
        text = _ZH_SUFFIX.sub("", text).strip()
    return text


def _zh_subject(question: str) -> str:
    text = _zh_strip(question)
    text = _ZH_TAIL_OF.sub("", text).strip()
    # "X是如何工作的：A、B和C" — the frame closes the first clause, so strip it again after the split
    text = _zh_strip(re.split(r"[，,；;：:]", text)[0].strip())
    cut = _ZH_CUT.search(text)
    if cut and cut.start() >= 2:
        text = text[: cut.start()].strip()
    text = _ZH_TRAILING_VERB.sub("", text).strip()
    if any(word in question for word in _ZH_COMPARE):
        text = re.sub(r"(?:相比|对比|比较)$", "", text).strip()
        for sep in ("与", "和", "跟", "同"):
            if sep in text and len(text.split(sep)[0]) >= 2:
                text = text.split(sep)[0].strip()
                break
    text = text.strip("「」“”\"'《》 的")
    return text if 1 < len(text) <= 40 else ""


def question_subject(question: str) -> str:
    """The thing a question asks about, without its frame; ``""`` when nothing sensible remains.

    "What problem does X solve, and what are its limitations?", "What are the main variants of X?",
    "How does X work?", "What does a typical example of X look like?", "X是什么？", "什么是X？",
    "X的原理是什么？", "X解决了什么问题？" all give X.
    """
    text = " ".join(question.split()).strip().rstrip("?？。.!！ ")
    if re.search(r"[\u4e00-\u9fff]", text):
        return _zh_subject(text)
    text = _EN_CLAUSE.split(text)[0].strip()
    for frame in _EN_FRAMES:
        found = frame.match(text)
        if found:
            text = found.group("s")
            break
    else:
        text = _EN_LEAD.sub("", text)
        text = _EN_LEAD2.sub("", text)
        text = _EN_ARTICLE.sub("", text)
        text = _EN_OF.sub("", text)
        text = _EN_TAIL.sub("", text)
    text = _EN_ARTICLE.sub("", text.strip())
    text = _EN_OF.sub("", text)
    text = _EN_ARTICLE.sub("", text).strip(" \"'`")
    text = re.split(r"[,;:]", text)[0].strip()
    words = text.split()
    for i, word in enumerate(words[1:], start=1):
        if word.casefold() in _EN_VERBS:
            text = " ".join(words[:i])
            break
    return text if 1 < len(text) <= 60 else ""


def topic_subject(topic: str) -> str:
    """A research topic reduced to its subject ("How do X and Y work?" → "X and Y"); the topic when unsure.

    The text layer's topic reader decides (docs/questions.md §1), so the wiki's main article, the
    audit and the questioner name the same subject (「Debian 系统的网络是如何设置的」 had given the
    article 「Debian 系统的网络是」 here).
    """
    subject = decompose(topic).subject if topic.strip() else ""
    return subject or " ".join(topic.split()).strip().rstrip("?？。.!！ ") or topic


def clean_title(title: str) -> str:
    """A page title without its site suffix and quote marks (``The "yield" statement — docs`` → ``The yield
    statement``)."""
    parts = [p.strip() for p in _TITLE_SPLIT.split(title.strip()) if p.strip()]
    best = parts[0] if parts else title.strip()
    if best.count('"') % 2 == 0:
        best = re.sub(r'"([^"\n]*)"', r"\1", best)
    best = " ".join(best.split())
    return best.strip("「」“”\"'《》 ")[:80]


def research_topic(kb_root: Path) -> str | None:
    """The topic recorded in ``outputs/research_state.json``, if any."""
    try:
        data = json.loads((kb_root / "outputs" / "research_state.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    topic = data.get("topic") if isinstance(data, dict) else None
    return topic if isinstance(topic, str) and topic.strip() else None


def load_question_texts(kb_root: Path) -> dict[str, str]:
    """Question id → text from every ``round_N_questions.json`` and ``research_state.json`` (best effort)."""
    found: dict[str, str] = {}

    def take(items: object) -> None:
        if not isinstance(items, list):
            return
        for item in items:
            if isinstance(item, dict):
                qid, text = item.get("id"), item.get("text") or item.get("question")
                if isinstance(qid, str) and isinstance(text, str) and qid not in found:
                    found[qid] = text

    state = kb_root / "outputs" / "research_state.json"
    rounds = kb_root / "outputs" / "rounds"
    paths = sorted(rounds.glob("round_*_questions.json")) if rounds.is_dir() else []
    for path in [*paths, state]:
        try:
            data = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            take(data.get("questions"))
            take(data.get("all_questions_ever"))
            for rnd in data.get("rounds") or []:
                if isinstance(rnd, dict):
                    take(rnd.get("questions"))
    return found


def topic_for(
    title: str, filename: str, question_ids: list[str], questions: dict[str, str], research: str | None = None
) -> tuple[str, list[str]]:
    """``(topic title, question texts)`` for one raw file.

    The subject of the first related question names the article, unless it is the research topic's
    own subject (every source is "about" the topic; one article per source title is more useful).
    Then, and without a known question, the raw file's cleaned title does.
    """
    texts = [questions[q] for q in question_ids if q in questions]
    whole = normalize_key(topic_subject(research)) if research else ""
    for text in texts:
        subject = question_subject(text)
        if subject and normalize_key(subject) != whole:
            return subject, texts
    cleaned = clean_title(title) if title and title != Path(filename).stem else ""
    if cleaned:
        return cleaned, texts
    stem = re.sub(r"^\d{4}-\d{2}-\d{2}_", "", Path(filename).stem)
    return re.sub(r"[-_]+", " ", stem).strip() or Path(filename).stem, texts


def name_keys(art: Article) -> tuple[str, ...]:
    """The normalised names (title, aliases, stem) a :class:`TopicMap` files an article under."""
    return tuple(normalize_key(name) for name in art.names())


class TopicMap:
    """Name → article stem resolution over titles and aliases (case, space and punctuation blind)."""

    def __init__(self) -> None:
        self._by_key: dict[str, str] = {}
        self._stems: set[str] = {"index"}  # wiki/INDEX.md is not an article (case-insensitive file systems)
        self._folded: set[str] = {"index"}

    def add(self, stem: str, names: list[str]) -> None:
        self.add_keys(stem, [normalize_key(name) for name in names])

    def add_keys(self, stem: str, keys: Sequence[str]) -> None:
        """:meth:`add` with the names already normalised (:func:`name_keys`)."""
        self._stems.add(stem)
        self._folded.add(stem.casefold())
        for key in keys:
            if key and key not in self._by_key:
                self._by_key[key] = stem

    def find(self, *names: str) -> str | None:
        for name in names:
            stem = self._by_key.get(normalize_key(name))
            if stem:
                return stem
        return None

    def keys(self) -> set[str]:
        return set(self._by_key)

    def free_stem(self, base: str) -> str:
        """``base``, or ``base-2``, ``base-3``... when another topic already owns the file name."""
        taken = self._folded
        if base.casefold() not in taken:
            return base
        n = 2
        while f"{base}-{n}".casefold() in taken:
            n += 1
        return f"{base}-{n}"
