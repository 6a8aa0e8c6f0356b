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
from pathlib import Path
from typing import Any

from autodidact.wiki.markdown import normalize_key

_ZH_PREFIX = re.compile(
    r"^(?:请问|请解释|解释一下|什么是|什么叫|何为|何谓|如何理解|如何|怎样|怎么|为什么|为何|有哪些|哪些|是否)"
)
_ZH_SUFFIX = re.compile(
    r"(?:是什么意思|是什么|是怎样的|是如何工作的|如何工作|怎么工作|有哪些|有什么|是多少|怎么样|如何|吗|呢)$"
)
_ZH_TAIL_OF = re.compile(
    r"的(?:定义|含义|原理|工作原理|核心组成部分|组成部分|组成|主要变体|变体|优缺点|优势|局限性?|缺点|限制|"
    r"应用场景|适用场景|场景|历史|现状|发展|趋势|区别|对比|实现|用途|作用|特点|规模|市场规模|风险).*$"
)
_EN_LEAD = re.compile(
    r"^(?:what|which|who|why|how|when|where)\s+(?:is|are|was|were|do|does|did|can|could|should|would)\s+", re.I
)
_EN_LEAD2 = re.compile(r"^(?:what|how|why|explain|describe|define)\s+", re.I)
_EN_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.I)
_EN_TAIL = re.compile(
    r"\s+(?:work|works|used|use|differ|compare|mean|defined|implemented|do|matter|exist)(?:\s+.*)?$", re.I
)
_EN_OF = re.compile(
    r"^(?:the\s+)?(?:main\s+|key\s+|core\s+)?(?:definition|limitations?|limits|advantages|disadvantages|"
    r"drawbacks|components|variants|types|history|uses|use cases|applications|purpose|benefits|risks|"
    r"trends|size|alternatives|pros and cons|mechanism|internals)\s+(?:of|for|to)\s+",
    re.I,
)
_TITLE_SPLIT = re.compile(r"\s+[-|–—·:]\s+|\s*[|｜]\s*")
_ZH_CUT = re.compile(r"如何|怎样|怎么|为什么|为何|是否|能否|有哪些|有什么|是什么|哪些|有多|多少|多大|吗")
_EN_VERBS = frozenset(
    "produce produces handle handles affect affects compare compares differ differs use uses support supports "  # noqa: SIM905
    "improve improves reduce reduces increase increases cause causes relate relates interact interacts perform "
    "performs run runs store stores manage manages implement implements help helps prevent prevents make makes "
    "get gets become becomes have has need needs work works behave behaves".split()
)


def question_subject(question: str) -> str:
    """The thing a question asks about; ``""`` when nothing sensible remains."""
    text = question.strip().rstrip("?？。.!！ ")
    if re.search(r"[\u4e00-\u9fff]", text):
        text = _ZH_PREFIX.sub("", text).strip()
        previous = None
        while previous != text:
            previous = text
            text = _ZH_SUFFIX.sub("", text).strip()
        text = _ZH_TAIL_OF.sub("", text).strip()
        text = re.split(r"[，,；;：:]", text)[0].strip()
        cut = _ZH_CUT.search(text)
        if cut and cut.start() >= 2:
            text = text[: cut.start()].strip()
        for sep in ("与", "和", "跟"):
            if sep in text and len(text.split(sep)[0]) >= 2 and "区别" in question:
                text = text.split(sep)[0].strip()
        text = text.strip("「」“”\"'《》 ")
        return text if 1 < len(text) <= 40 else ""
    text = _EN_LEAD.sub("", text)
    text = _EN_LEAD2.sub("", text)
    text = _EN_ARTICLE.sub("", text)
    text = _EN_OF.sub("", text)
    text = _EN_TAIL.sub("", text)
    text = _EN_ARTICLE.sub("", text).strip(" \"'`")
    text = re.split(r"[,;:]", text)[0].strip()
    words = text.split()
    for i, word in enumerate(words[1:], start=1):
        if word.casefold() in _EN_VERBS:
            text = " ".join(words[:i])
            break
    return text if 1 < len(text) <= 60 else ""


def clean_title(title: str) -> str:
    """A page title without its site suffix (``Generators — Python docs`` → ``Generators``)."""
    parts = [p.strip() for p in _TITLE_SPLIT.split(title.strip()) if p.strip()]
    best = parts[0] if parts else title.strip()
    return best.strip("「」“”\"'《》 ")[:80]


def load_question_texts(kb_root: Path) -> dict[str, str]:
    """Question id → text from every ``round_N_questions.json`` and ``research_state.json`` (best effort)."""
    found: dict[str, str] = {}

    def take(items: Any) -> None:
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


def topic_for(title: str, filename: str, question_ids: list[str], questions: dict[str, str]) -> tuple[str, list[str]]:
    """``(topic title, question texts)`` for one raw file."""
    texts = [questions[q] for q in question_ids if q in questions]
    for text in texts:
        subject = question_subject(text)
        if subject:
            return subject, texts
    cleaned = clean_title(title) if title and title != Path(filename).stem else ""
    if cleaned:
        return cleaned, texts
    stem = re.sub(r"^\d{4}-\d{2}-\d{2}_", "", Path(filename).stem)
    return re.sub(r"[-_]+", " ", stem).strip() or Path(filename).stem, texts


class TopicMap:
    """Name → article stem resolution over titles and aliases (case, space and punctuation blind)."""

    def __init__(self) -> None:
        self._by_key: dict[str, str] = {}
        self._stems: set[str] = {"index"}  # wiki/INDEX.md is not an article (case-insensitive file systems)
        self._folded: set[str] = {"index"}

    def add(self, stem: str, names: list[str]) -> None:
        self._stems.add(stem)
        self._folded.add(stem.casefold())
        for name in names:
            key = normalize_key(name)
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
