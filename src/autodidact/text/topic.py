"""A research topic, read once: its type, its subject, and the facets the user named (docs/questions.md).

Why one module: the questioner asks per facet, the wiki files each answer under its facet's article,
and the audit judges coverage by the subject's terms. When each kept its own topic classifier and
subject extractor they disagreed (one voted on keywords, the other took the first match), and
questions pasted the whole topic into templates ("What is the definition of Debian package
management work: dpkg vs apt?"). :func:`decompose` is the one reading of a topic:

* ``subject`` — what the topic is about ("Debian package management", 「机器学习中的过拟合」);
* ``facets`` — what the user asked about it: an explicit list after a colon ("dpkg vs apt, version
  pinning, and system upgrades"), follow-up question clauses ("… and why does it reject some
  programs?", 「…？如何避免？」), a comparison ("Compare PostgreSQL and SQLite for …"), or, when
  nothing is named, the parts of the subject ("Python generators", "Python coroutines");
* each facet's ``terms`` — the content words that tell its questions and passages apart from the
  rest of the research.

Deterministic rules, no model: the same topic gives the same frame in a clean and a resumed run.
Key terms and the "does this text mention that term" test live here too, because every layer that
asks "is this on topic?" must answer it the same way.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from autodidact.text.tokens import terms as word_terms

TopicType = Literal["概念理解", "技术研究", "行业调研", "创业方案"]
TOPIC_TYPES: tuple[TopicType, ...] = ("概念理解", "技术研究", "行业调研", "创业方案")
TOPIC_TYPE_EN: dict[TopicType, str] = {
    "概念理解": "concept understanding",
    "技术研究": "technical research",
    "行业调研": "industry survey",
    "创业方案": "startup plan",
}
FacetKind = Literal["comparison", "aspect", "part", "question"]
MAX_FACETS = 8

# docs/contracts.md §1.3's keywords, with English equivalents; the type with the most matches wins.
KEYWORDS: dict[TopicType, tuple[str, ...]] = {
    "概念理解": (
        "什么是", "原理", "如何工作", "概念", "理解",
        "what is", "what are", "how does", "how do", "work", "concept", "understand", "principle", "explain",
    ),
    "技术研究": (
        "方案", "技术", "方法", "实现", "架构",
        "approach", "technique", "technology", "method", "implementation", "implement", "architecture",
    ),
    "行业调研": (
        "行业", "市场", "规模", "玩家", "竞争", "调研",
        "industry", "market", "size", "players", "competition", "competitor", "survey",
    ),
    "创业方案": (
        "创业", "机会", "商业模式", "用户", "痛点",
        "startup", "start-up", "opportunity", "business model", "users", "pain point",
    ),
}  # fmt: skip

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RE = re.compile(f"[{_CJK}]")
_TOKEN = re.compile(rf"[{_CJK}]+|[a-z0-9][a-z0-9_+#.]*[a-z0-9+#]|[a-z0-9]")

# --------------------------------------------------------------------------------------------------
# Words: stopwords, stems, key terms (shared with questions.similarity)

EN_STOPWORDS = frozenset(
    """a an the of in on for to and or with by about is are was were be been being do does did doing it its
    this that these those which who whom whose where can could should would will shall may might must there
    their they them as at from into than then so such i you we me my your our us he she his her exactly
    precisely really actually any some one more most very also just not no yes if else between among
    other others each every both all many much way ways kind kinds thing things give explain describe tell
    please used uses using use ones s have has had role play relate related relation relationship
    under over up out off down via through within without across after before during upon onto vs versus""".split()  # noqa: SIM905
)
"""English function words (the similarity of two questions ignores them)."""

ZH_STOP_WORDS: tuple[str, ...] = (
    "哪些", "什么", "有没有", "是否", "可以", "能否", "一下", "具体", "到底", "究竟", "以及", "还有", "其中",
    "之间", "主要", "哪个", "哪种", "怎么样",
)  # fmt: skip
"""Chinese filler words that separate content runs. (「使用」「通过」「进行」 were tried on 2026-12-07:
「邮件客户端使用的端口」 split into mail clients and ports, but a held-out Chinese case's on-topic
citations fell 0.78 → 0.61, so they stay content; docs/eval.md.)"""
ZH_STOP_CHARS = frozenset("的了吗呢吧啊与和及或在是有为对从把被让给向以其之而且也都就还又这那个些种该一请么")
"""Chinese function characters that separate content runs."""

# Question and framing words: never a key term of a topic ("How does X work?" is about X).
_EN_FRAMING = frozenset(
    """what why how when which where who work works working worked function functions operate operates
    compare compared comparing comparison contrast versus vs difference differences differ differs
    definition define defined meaning mean means overview introduction guide understanding understand
    learn learning study research researching concept concepts basics basic principle principles""".split()  # noqa: SIM905
)
_ZH_FRAMING = tuple(
    sorted(
        """是如何工作的 如何工作 怎么工作 工作原理 原理 是什么 什么是 为什么 为何 如何 怎样 怎么 有哪些 有什么
        区别 差异 异同 对比 比较 相比 关系 定义 含义 概念 理解 了解 研究 调研 介绍 详解 入门 深入 中的 之中""".split(),  # noqa: SIM905
        key=len,
        reverse=True,
    )
)
# Words too common to make two texts "about the same thing" (relevance only; see docs/questions.md).
GENERIC_EN = frozenset(
    """system systems management manage managing data method methods process processes tool tools type types
    problem problems issue issues example examples part parts feature features approach approaches technique
    techniques technology application applications program programs information file files support
    thing service services""".split()  # noqa: SIM905
)
GENERIC_ZH = frozenset("系统 管理 方法 问题 数据 工作 技术 方案 工具 信息 文件 功能 应用 程序 服务".split())  # noqa: SIM905


def has_cjk(text: str) -> bool:
    """True when the text contains CJK ideographs."""
    return bool(_CJK_RE.search(text or ""))


def stem(word: str) -> str:
    """A tiny, symmetric English stemmer: enough to equate plural and verb forms.

    A final silent e goes too, so "upgrade", "upgrades", "upgrading" and "upgraded" meet.
    """
    if len(word) <= 3 or not word.isalpha():
        return word
    base = _strip_suffix(word)
    return base[:-1] if len(base) > 3 and base.endswith("e") and not base.endswith("ee") else base


def _strip_suffix(word: str) -> str:
    for suffix, repl in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                return word
            if suffix == "es" and not word.endswith(("ches", "shes", "xes", "sses", "zes")):
                continue
            base = word[: len(word) - len(suffix)] + repl
            if suffix in {"ing", "ed"} and re.search(r"([bdgmnprt])\1$", base):
                base = base[:-1]  # pinning → pin, committed → commit (not install, pass)
            return base
    return word


def _normalize(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text or "").lower().split())


def _zh_runs(run: str) -> list[str]:
    for phrase in _ZH_FRAMING:
        run = run.replace(phrase, " ")
    for word in ZH_STOP_WORDS:
        run = run.replace(word, " ")
    run = "".join(" " if ch in ZH_STOP_CHARS else ch for ch in run)
    return run.split()


def key_terms(text: str, *, generic: bool = True) -> list[str]:
    """The content words of ``text``, in order, each once: Latin words (lower case, unstemmed) and
    Chinese runs between function characters (「版本固定」, 「软件包管理」).

    ``generic=False`` also drops words too common to identify a subject (``system``, 「管理」).
    """
    out: list[str] = []
    seen: set[str] = set()
    for token in _TOKEN.findall(_normalize(text)):
        if _CJK_RE.match(token):
            pieces = _zh_runs(token)
            keys = pieces
        else:
            if token in EN_STOPWORDS or token in _EN_FRAMING or token.isdigit():
                continue
            pieces, keys = [token], [stem(token)]
        for piece, key in zip(pieces, keys, strict=True):
            if key in seen or (
                not generic and (piece in GENERIC_EN or stem(piece) in GENERIC_EN or piece in GENERIC_ZH)
            ):
                continue
            seen.add(key)
            out.append(piece)
    return out


def _distinctive(text: str) -> list[str]:
    """Key terms without the common words, unless the text has nothing else."""
    return key_terms(text, generic=False) or key_terms(text)


def _bigrams(run: str) -> set[str]:
    return {run[i : i + 2] for i in range(len(run) - 1)} if len(run) > 1 else {run}


class _Indexed:
    """A text's Latin stems and CJK bigrams, computed once for many :func:`mentions` tests."""

    def __init__(self, text: str) -> None:
        self.stems: set[str] = set()
        self.bigrams: set[str] = set()
        self.chars: str = ""
        for token in _TOKEN.findall(_normalize(text)):
            if _CJK_RE.match(token):
                self.bigrams |= _bigrams(token)
                self.chars += token + " "
            else:
                self.stems.add(stem(token))
                self.stems.update(stem(p) for p in re.split(r"[._+#]", token) if p)

    def mentions(self, term: str) -> bool:
        term = _normalize(term)
        if not term:
            return False
        if _CJK_RE.match(term):
            if len(term) == 1:
                return term in self.chars
            grams = _bigrams(term)
            return len(grams & self.bigrams) >= max(1, math.ceil(len(grams) / 2))
        return stem(term) in self.stems


def mentions(text: str, term: str) -> bool:
    """Does ``text`` mention ``term``? Latin: the same stem; Chinese: at least half the term's bigrams.

    Half the bigrams lets 「软件包」 mention 「软件包管理」 and 「升级系统」 mention 「系统升级」, while
    「文件系统」 does not mention 「系统升级」.
    """
    return _Indexed(text).mentions(term)


def shares_key_term(text: str, terms: list[str] | tuple[str, ...] | set[str] | frozenset[str]) -> bool:
    """True when ``text`` mentions at least one of ``terms``."""
    indexed = _Indexed(text)
    return any(indexed.mentions(t) for t in terms)


# --------------------------------------------------------------------------------------------------
# Topic type


def detect_topic_type(topic: str) -> tuple[TopicType, bool]:
    """The topic type by keyword votes, and whether any keyword matched (False = unsure → 概念理解)."""
    lowered = topic.lower()
    best: TopicType = "概念理解"
    best_votes = 0
    for kind in TOPIC_TYPES:
        votes = sum(1 for kw in KEYWORDS[kind] if _has_keyword(lowered, kw))
        if votes > best_votes:
            best, best_votes = kind, votes
    return best, best_votes > 0


def topic_type(topic: str) -> TopicType:
    """The topic type alone (docs/contracts.md §1.3)."""
    return detect_topic_type(topic)[0]


def _has_keyword(text: str, keyword: str) -> bool:
    if re.search(r"[a-z]", keyword):
        return re.search(rf"\b{re.escape(keyword)}", text) is not None
    return keyword in text


# --------------------------------------------------------------------------------------------------
# Subject

_EN_PREFIX = re.compile(
    r"^(?:(?:how|why|what|when|where|which)\s+(?:do|does|did|is|are|can|could|should|would|was|were)\s+"
    r"|what\s+(?:is|are)\s+|(?:an?\s+)?(?:introduction|overview|guide)\s+(?:to|of)\s+"
    r"|(?:understanding|understand|explain|explaining|research(?:ing)?\s+(?:on|into)?|study\s+of|learn(?:ing)?"
    r"|about)\s+)",
    re.IGNORECASE,
)
_EN_SUFFIX = re.compile(
    r"\s+(?:work|works|function|operate|behave|mean)(?:\s+(?:in\s+practice|internally|under\s+the\s+hood))?$",
    re.IGNORECASE,
)
_EN_MID_VERB = re.compile(
    r"\s+(?:work|works|function|functions|operate|operates|behave|behaves)(?=\s+(?:on|in|under|with|for|inside|across)\s)",
    re.IGNORECASE,
)
# "How is networking configured on Debian" asks about "networking on Debian": a passive question's
# participle is its frame, like "work" in "How does X work on Y".
_EN_PASSIVE = re.compile(r"^(?:how|why|when|where)\s+(?:is|are|was|were)\s+", re.IGNORECASE)
_EN_PARTICIPLE = re.compile(
    r"\s+(?:\w{2,}ed|built|made|done|run|set|kept|held|written|chosen|given|taken|found|known|shown|drawn)"
    r"(?=\s+(?:on|in|under|with|for|by|inside|across|at|within|from)\s|$)",
    re.IGNORECASE,
)
# 「Debian 如何配置网络」 → 「Debian 网络配置」: the verb after 如何 follows its object as a noun.
ZH_VERBS = (
    r"(?:配置|管理|安装|使用|部署|实现|处理|升级|构建|编译|调试|优化|设置|维护|安排|查看|选择|编写|运行|创建"
    r"|备份|恢复|监控|启动|保护|加密|调度|排查|迁移|测试|分析|记录|转换|编辑|连接|访问|共享|同步|压缩|挂载|打包"
    r"|更新|删除|修改|检查|转发|登录|切换|显示|打印|合并|比较|修复|卸载|导入|导出|搜索|查找|过滤|读取|写入|解析"
    r"|格式化|解压|获得|取得|得到)"
)
# 「如何编写和调试程序」: two verbs joined by 和/与/及/并 share their object (「程序编写和调试」).
_ZH_TASK = re.compile(rf"{ZH_VERBS}(?:和|与|及|并|、){ZH_VERBS}$")
_ZH_HOW_VERB = re.compile(rf"^(.*?)\s*如何({ZH_VERBS}(?:(?:和|与|及|并|、){ZH_VERBS})?)(.+)$")
# 「如何用 date 命令显示和格式化日期时间」: the tool used and the task, 「date 命令 日期时间显示和格式化」
# (a topic that opens with the question; 「在 Debian 上如何用 SSH …」 keeps 「Debian」 as before).
_ZH_HOW_WITH = re.compile(
    rf"^(.*?)\s*(?:如何|怎样|怎么)\s*(?:用|使用|利用|通过)\s*(.+?)\s*({ZH_VERBS}(?:(?:和|与|及|并|、){ZH_VERBS})?)(.+)$"
)
# 「在 Debian 中如何…」: where the task is done (中/里/上) is not the subject's head, 「Debian」 is.
_ZH_WHERE = re.compile(r"^(?:在\s*)?(.+?)\s*(?:中|里|上)\s*((?:如何|怎样|怎么).+)$")
_ZH_HOW_WHERE = re.compile(r"^(?:如何|怎样|怎么)\s*在\s*(.+?)\s*(中|里|上)\s*(.+)$")
_ZH_STRIP = (
    "是如何工作的", "是怎么工作的", "是怎样工作的", "如何工作", "怎么工作", "怎样工作",
    "的工作原理", "工作原理", "的原理", "原理", "是什么", "什么是",
    "深入理解", "理解", "了解", "研究", "调研", "介绍", "关于", "入门", "详解",
)  # fmt: skip
_END_PUNCT = "?？.。!！ "
# 「argparse 是如何解析命令行参数的」: after the subject, 是如何/怎样 + a verb phrase is the question's frame.
_ZH_HOW_FRAME = re.compile(r"^(.+?)\s*(?:是)?(?:如何|怎样|怎么)\S")
# "How does argparse parse command-line arguments": a verb of what the subject does follows it. The
# subject is what comes before the verb ("argparse"), as "work" ends "How does X work".
_EN_DOES_VERB = re.compile(
    r"^(?P<s>.+?)\s+(?:parse|handle|manage|store|compute|resolve|schedule|load|render|cache|route|sort|compile|"
    r"encode|decode|validate|process|send|receive|build|execute|detect|generate|index|search|match|connect|"
    r"authenticate|encrypt|sync|merge|split|choose|select|pick|install|upgrade|update|configure|allocate|"
    r"collect|serialize|deserialize|format|log|dispatch|propagate|raise|catch|clean|free|track|measure|"
    r"decide|find|look\s+up|map|convert|transform|translate|check|verify|read|write|persist|save|restore|"
    r"start|boot|run|spawn|share|exchange|transfer|protect|recover|lock|wait|communicate|interact|"
    r"customi[sz]e|override|implement|intercept|define|create|inspect|extend|modify|restrict|prevent|expose|"
    r"emit|notify|retry|cancel|serve|debug|optimi[sz]e|declare|deploy)\s+\S",
    re.IGNORECASE,
)
_EN_DOES = re.compile(r"^(?:how|why|when|where)\s+(?:do|does|did|can|could|should|would)\s+", re.IGNORECASE)


# "What does X forbid?", "What does apt-get upgrade do?": X and a verb that ends the question (or a
# verb and its particle, "protect against"), with no object after it.
_CLAUSE_WORD = r"(?:when|whenever|if|unless|while|after|before|once|because|where)"
_EN_WHAT_DOES = re.compile(
    r"^what\s+(?:do|does|did)\s+(?P<s>(?!(?:i|we|you|they|one|people)\b)"
    rf"(?:(?!\b{_CLAUSE_WORD}\b).)+?)\s+(?P<v>[a-z]+)"
    rf"(?:\s+(?:against|for|with|to|from|on|in|about|of))?(?P<clause>\s+{_CLAUSE_WORD}\b.+)?$",
    re.IGNORECASE,
)
# "How to configure X", "How to use X": the same task as "How do I configure X".
_EN_HOW_TO = re.compile(r"^how\s+to\s+(?P<verb>[a-z]+)\b\s*(?P<rest>.*)$", re.IGNORECASE)
_EN_USE_VERBS = frozenset({"use", "work"})  # "use X", "work with X": X is what the question is about
_EN_TASK = re.compile(r"^(?:i|we|you|one|people)\s+(?P<verb>[a-z]+)\b\s*(?P<rest>.*)$", re.IGNORECASE)
# run, set, stop: one syllable ending consonant-vowel-consonant doubles its last letter.
_CVC = re.compile(r"^(?:[^aeiou]*[aeiou])([^aeiouwxy])$")


def _gerund(verb: str) -> str:
    """ "coordinate" → "coordinating", "run" → "running", "set" → "setting", "configure" → "configuring"."""
    low = verb.lower()
    if low.endswith("ie"):
        return low[:-2] + "ying"
    if low.endswith("e") and not low.endswith(("ee", "ye", "oe")) and len(low) > 2:
        return low[:-1] + "ing"
    found = _CVC.match(low) if len(low) <= 4 else None
    if low in _STRESSED_LAST:
        found = re.match(r".*[aeiou]([^aeiouwxy])$", low)
    if found:
        return low + found.group(1) + "ing"
    return low + "ing"


# Verbs that end in -ly, which are no adverbs ("How do I apply patches").
_LY_VERBS = frozenset("apply reply supply multiply rely fly ally comply imply rally tally bully".split())  # noqa: SIM905
# Verbs of two syllables stressed on the last, whose final consonant doubles ("controlling"); a
# spelling rule no letter pattern tells ("visiting", "opening" do not double).
_STRESSED_LAST = frozenset(
    """control commit admit refer occur prefer permit submit omit forget begin regret equip patrol compel
    expel propel rebel transmit emit acquit upset rerun outrun unzip""".split()  # noqa: SIM905
)


def _clean(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split()).strip().rstrip(_END_PUNCT) if text else ""


# Words after a verb that make it phrasal or add a place, not an object ("start up", "run on").
_EN_PARTICLES = frozenset(
    {"up", "down", "out", "off", "in", "on", "into", "onto", "under", "over", "with", "without", "from", "to"}
    | {"at", "by", "for", "through", "across", "away", "back", "about", "and", "or"}
)


def _bare_subject(clause: str) -> str:
    """One clause without its question words and framing ("How do X work" → "X")."""
    text = _clean(clause)
    if has_cjk(text):
        before = _ZH_HOW_WHERE.match(text)
        if before:  # 「如何在 Debian 上配置网络」 says the same as 「在 Debian 上如何配置网络」
            text = f"在 {before.group(1)} {before.group(2)} 如何{before.group(3)}"
        where = _ZH_WHERE.match(text)
        if where:
            text = f"{where.group(1)} {where.group(2)}"
        with_tool = _ZH_HOW_WITH.match(text)
        if with_tool and not with_tool.group(1).strip() and with_tool.group(4).strip(" ，,、的"):
            # 「如何用 X 显示…」 once read 「如何用 X 命令显示的定义是什么？」: the tool and the task are the subject
            lead, tool, verb, done_to = (g.strip() for g in with_tool.groups())
            text = f"{lead} {tool} {done_to}{verb}".strip()
        how = _ZH_HOW_VERB.match(text)
        if how and how.group(3).strip(" ，,、的"):
            # 「如何使用 X」 asks about X, as "How do I use X" does; 「如何配置网络」 about 网络配置.
            # 「如何获得 root shell」 asks about the root shell: a verb of getting, like 使用, names no task
            verb = "" if how.group(2) in {"使用", "获得", "取得", "得到"} else how.group(2)
            text = f"{how.group(1)} {how.group(3).strip()}{verb}".strip()
        for phrase in _ZH_STRIP:
            text = text.replace(phrase, "")
        framed = _ZH_HOW_FRAME.match(text)
        if framed and framed.group(1).strip(" ，,、的"):
            text = framed.group(1)
        # 「如何用 gettext 为 C 程序做国际化」 (no verb the patterns above know): the question word is
        # no part of the subject (「如何用 gettext 为 C 程序做国际化的定义是什么？」 was asked)
        text = re.sub(r"^(?:如何|怎样|怎么样|怎么)\s*", "", text.strip())
        text = text.strip(" ，,、的")
    else:
        passive = _EN_PASSIVE.match(text) is not None
        does = _EN_DOES.match(text) is not None
        for _ in range(2):
            text = _EN_PREFIX.sub("", text).strip()
        if passive:
            text = _EN_PARTICIPLE.sub("", text, count=1).strip()
        text = _EN_SUFFIX.sub("", text).strip()
        what_does = _EN_WHAT_DOES.match(_clean(clause))
        if what_does is not None:
            # "What does the Bash restricted shell forbid?": the thing asked about is what does it,
            # never "Bash restricted shell forbid" (the report's goal read "what … forbid is")
            text = what_does.group("s")
        how_to = _EN_HOW_TO.match(_clean(clause))
        task = _EN_TASK.match(text) if does else None
        if how_to is not None:
            task, does = how_to, True
        if task is not None and task.group("verb").lower() in _EN_USE_VERBS and task.group("rest"):
            # "How do I use Python's sqlite3 module": the thing used is the subject, not "using
            # Python's sqlite3 module" ("What is the definition of using …?").
            text = re.sub(r"^with\s+", "", task.group("rest"), flags=re.IGNORECASE)
            task = None
            does = False
        elif task is not None:
            # "How do I coordinate worker threads" asks how a task is done: the task is the subject,
            # "coordinating worker threads", never "I coordinate worker threads".
            rest: str | None = task.group("rest")
            verb_word = task.group("verb")
            adverb = re.match(r"^(?P<verb>[a-z]+)\b\s*(?P<rest>.*)$", rest or "", re.IGNORECASE)
            if verb_word.lower().endswith("ly") and verb_word.lower() not in _LY_VERBS and adverb is not None:
                # "How do I safely create temporary files": the adverb stays, the verb after it is the
                # gerund ("safely creating …", never "safelying create …")
                verb_word, rest = f"{verb_word} {_gerund(adverb.group('verb'))}", adverb.group("rest")
                text = " ".join(p for p in (verb_word, rest) if p)
                rest = None
            both = (
                None
                if rest is None
                else re.match(r"^(?P<join>and|or)\s+(?P<verb>[a-z]+)\b\s*(?P<rest>.*)$", rest, re.I)
            )
            listed = (
                None
                if rest is None
                else re.match(r"^((?:,\s*[a-z]+\s*)+),?\s*(and|or)\s+([a-z]+)\b\s*(.*)$", rest, re.I)
            )
            if both is not None:  # "read and write CSV files": both verbs become gerunds
                rest = " ".join(p for p in (both.group("join"), _gerund(both.group("verb")), both.group("rest")) if p)
            elif listed is not None:
                # "parse, search and modify XML": every verb of the list ("parsing, searching and
                # modifying XML", never "parsing , search and modify XML")
                verbs = [v.strip() for v in listed.group(1).split(",") if v.strip()]
                rest = "".join(f", {_gerund(v)}" for v in verbs) + f" {listed.group(2)} {_gerund(listed.group(3))}"
                rest += f" {listed.group(4)}" if listed.group(4) else ""
            if rest is not None:
                # "make a detached signature with gpg and verify it": the second task's verb is a
                # gerund too ("… and verifying it", never "… and verify it")
                rest = _LATER_VERB.sub(lambda m: f"and {_gerund(m.group(1))} {m.group(2)}", rest)
                text = " ".join(p for p in (_gerund(task.group("verb")), rest) if p).replace(" , ", ", ")
        verb = _EN_DOES_VERB.match(text) if does and task is None else None
        if verb is not None and verb.group("s").lower() not in {"i", "we", "you", "they", "one", "people"}:
            done = text[len(verb.group("s")) :].split()
            enumerated = re.search(r",|\band\b", verb.group("s")) is not None  # the kind-word rule below
            if (
                not enumerated
                and len(done) >= 2
                and done[1].lower() not in _EN_PARTICLES
                and re.fullmatch(r"[A-Za-z-]+", done[1])
            ):
                # "How does Python resolve variable names": what is asked is the resolving of variable
                # names, in Python; "What is the definition of Python?" answers nothing of it.
                text = f"{_gerund(done[0].lower())} {' '.join(done[1:])} in {verb.group('s')}"
            else:
                text = verb.group("s")
        elif does and task is None:
            # "How do the pickle and shelve modules <any verb> …": an enumeration's kind word ends it.
            kind = re.match(rf"^(?P<s>.+?\b(?:{'|'.join(_EN_KIND_WORDS)}))\s+\S", text, re.IGNORECASE)
            if kind is not None and re.search(r",|\band\b", kind.group("s")):
                text = kind.group("s")
        # "networking work on Debian" → "networking on Debian": the verb of "How does X work on Y"
        text = _EN_MID_VERB.sub("", text).strip()
        text = re.sub(r"^(?:the|a|an)\s+", "", text, flags=re.IGNORECASE)
    return text or _clean(clause)


_ACTION_PHRASE = re.compile(r"^[A-Za-z]+ing,?\s+\S", re.I)  # "parsing, searching and modifying XML" too
_LATER_VERB = re.compile(r"\band\s+([a-z]+)\s+(it|them|this|these|that)$")


# Words ending in "ing" that are no verb's form: "string handling" is about strings.
_NOT_GERUND = frozenset(
    {"string", "thing", "nothing", "something", "anything", "everything", "spring", "offspring", "during"}
    | {"ring", "king", "wing", "swing", "morning", "evening", "ceiling", "sibling", "bring", "sing"}
)


def is_action_phrase(term: str) -> bool:
    """ "Implementing Descriptors", "Tracking testing", "capturing output": a task, not a thing to
    define — "What is …?" would misread it (used by the framework's task questions, follow-up
    concepts and the audit's missing concepts)."""
    # "safely creating temporary files": an adverb before the gerund does not make it a thing
    term = re.sub(r"^[a-z]+ly\s+(?=\w+ing\b)", "", term.strip(), flags=re.I)
    first = term.split()[0].rstrip(",").casefold() if term else ""
    return bool(term) and _ACTION_PHRASE.match(term) is not None and first not in _NOT_GERUND


_DOUBLED_KEEP = frozenset("aeiouslfzw")
_E_ENDINGS = re.compile(
    r"(?:[^aeiou][aeiou][cdkmb]|[^aeiou]at|ut|rit|uot|[aiu]r|[^aeiou][iu]l|[^aeiouylrw]l|[aeiou]s|rs|ns|[^aeiou]in"
    r"|ang|[^aeiou]ag|rg|let|v|[^z]z|u)$"
)


def base_of_gerund(word: str) -> str | None:
    """ "opening" → "open", "running" → "run", "parsing" → "parse", "fetching" → "fetch"; None when
    ``word`` is no gerund. English spelling drops a silent e and doubles a final consonant before
    -ing; the endings after which the e was dropped are listed, so a rare verb may come out wrong
    ("inheriting" gives "inherite"), and a word that is no gerund gives None."""
    low = word.lower()
    if not low.endswith("ing") or low in _NOT_GERUND or len(low) < 5:
        return None
    stem_ = word[:-3]
    tail = stem_.lower()
    if len(tail) >= 3 and tail[-1] == tail[-2] and (tail[-1] not in _DOUBLED_KEEP or tail[:-1] in _STRESSED_LAST):
        return stem_[:-1]  # running, setting, committing, debugging, controlling
    if tail.endswith(("ll", "ss", "ff", "zz", "ck", "sh", "ch", "ea", "oa")) or tail in {"add", "read", "load"}:
        return stem_
    if tail == "creat" or _E_ENDINGS.search(tail) or re.search(r"(?:ign|st|expl|sc|ad|impl|depl|sn)or$", tail):
        return stem_ + "e"  # "ignoring" → "ignore" ("monitoring" → "monitor" keeps no e)
    return stem_


def subject_tasks(subject: str) -> list[str]:
    """The tasks a subject written as gerunds names, one per verb: "reading and writing CSV files
    with Python's csv module" → "read CSV files with Python's csv module", "write CSV files with …".

    Why: "What is the definition of reading and writing CSV files …?" asks nothing a manual
    answers; "How do I read CSV files …?" is answered by the reader() entry. Empty when the
    subject is no task."""
    found = re.match(r"^(\w+ing)((?:\s*,\s*\w+ing)*)\s+(?:and|or)\s+(\w+ing)\s+(\S.*)$", subject)
    if found:
        gerunds = [found.group(1), *re.findall(r"\w+ing", found.group(2)), found.group(3)]
        verbs = [base_of_gerund(g) for g in gerunds]
        if all(verbs):
            return [f"{v} {found.group(4)}" for v in verbs if v]
    task = task_question(subject) if is_action_phrase(subject) else None
    return [task] if task else []


# "quoting modes", "logging levels": a gerund before one of these is a modifier, not a task's verb.
CATEGORY_HEADS = frozenset(
    """modes mode levels level strategies strategy rules options settings primitives functions methods
    frameworks tools errors styles types parameters behaviour behavior support mechanisms mechanism api
    apis order policy policies formats techniques systems system data objects classes flag flags argument
    arguments attribute attributes""".split()  # noqa: SIM905
)


def task_question(name: str) -> str | None:
    """ "opening connections" → "open connections", "committing or rolling back transactions" →
    "commit or roll back transactions": a task aspect in the words of "How do I …?"; None when the
    name does not start with a gerund."""
    words = name.split()
    if not is_action_phrase(name) or (len(words) == 2 and words[1].lower() in CATEGORY_HEADS):
        return None
    first = base_of_gerund(words[0])
    if first is None:
        return None
    out = [first]
    for i, word in enumerate(words[1:], start=1):
        # "committing or rolling back": a gerund joined to a gerund is a second verb of the task
        joined = i >= 2 and words[i - 1].lower() in {"and", "or"} and base_of_gerund(words[i - 2]) is not None
        out.append((base_of_gerund(word) if joined else None) or word)
    return " ".join(out)


def subject_of(topic: str) -> str:
    """The thing the topic is about, without question words, framing and the facet list."""
    return decompose(topic).subject


# A kind word that ends an enumeration ("the json, csv and pickle modules", 「pickle、marshal 和 shelve
# 模块」) belongs to every item, not to the last one: each part is "the pickle module".
_EN_KIND_WORDS = {
    "modules": "module", "libraries": "library", "packages": "package", "commands": "command",
    "tools": "tool", "functions": "function", "classes": "class", "statements": "statement",
    "methods": "method", "protocols": "protocol", "formats": "format", "files": "file",
    "utilities": "utility", "services": "service", "daemons": "daemon", "frameworks": "framework",
}  # fmt: skip
_ZH_KIND_WORDS = ("模块", "库", "命令", "工具", "函数", "语句", "协议", "格式", "文件", "服务", "框架", "软件包")


# "log files", "config formats" describe what a text is, not a name it writes: no name before them.
_NAMING_KINDS = {*_EN_KIND_WORDS, *_EN_KIND_WORDS.values()} - {"files", "file", "formats", "format"}
_KIND_WORD = re.compile(r"^(?:" + "|".join(sorted(_NAMING_KINDS, key=len, reverse=True)) + r")$", re.I)
_ZH_NAMED = re.compile(r"([A-Za-z][\w.+-]*)\s*(?:" + "|".join(_ZH_KIND_WORDS) + ")")


def subject_names(subject: str) -> list[str]:
    """The names a subject is about: "sqlite3" of "Python's sqlite3 module", "pickle", "marshal" and
    "shelve" of "the pickle, marshal and shelve modules", 「csv」 of 「Python 的 csv 模块」, or a
    one-word subject itself ("argparse"). Empty when it names nothing (a category: "Python exceptions").

    Why: a page about a module writes its name; a page that never does is about something else,
    however many of the subject's common words ("files", "Python") it shares."""
    if has_cjk(subject):
        named = list(dict.fromkeys(m.group(1) for m in _ZH_NAMED.finditer(subject)))
        # 「find 和 sed」: the tools it lists are what its pages name; so is the tool a task is done
        # with (「datetime 日期和时间处理」 of 「如何用 datetime 处理日期和时间」): named by nothing, the
        # study read typing's and calendar's pages as its own (a fresh-eyes trial: on-topic 0.47)
        return named or subject_tools(subject)
    tools = subject_tools(subject)
    if tools:
        return tools
    words = re.findall(r"[A-Za-z0-9_][\w.+-]*(?:'s)?|,", subject)
    out: list[str] = []
    for i, word in enumerate(words):
        if i == 0 or not _KIND_WORD.match(word) or words[i - 1] == ",":
            continue
        if i >= 2 and words[i - 2].lower() in {"a", "an", "any", "each", "every"}:
            continue  # "a Python class" is any class, not one named Python: its pages need not say "Python"
        j = i - 1  # the name before the kind word, then each one listed before it
        while j >= 0 and words[j] != ",":
            out.append(words[j])
            if j < 2 or words[j - 1].lower() not in {"and", "or", ","}:
                break
            j -= 2
    if not out and len(key_terms(subject)) == 1:
        out = key_terms(subject)
    if not out:
        # "… with Python's multiprocessing", "Python's configparser": the one lower-case word a
        # possessive ends the subject with is what it owns by name (a module, a tool).
        owned = re.search(r"\b[A-Z][\w.+-]*'s\s+([a-z][\w.+-]*)$", subject)
        out = [owned.group(1)] if owned else []
    return [w for w in dict.fromkeys(out) if not w.lower().endswith("'s")]


# "searching files with grep", "making patches with diff and patch", "running external commands in
# Python with subprocess": the lower-case names a task is done with, at the subject's end.
# "with grep", "using diff and patch", "with the date command", "via the rsync and ssh tools",
# "with the ed line editor" ("the" only before a kind word: "working with the filesystem" names no tool)
_NAMES = r"([a-z][\w.+-]*(?:(?:\s*,\s*|\s+and\s+|\s+or\s+)[a-z][\w.+-]*)*)"
_WITH_TOOLS = re.compile(
    rf"\b(?:with|using|via)\s+(?:{_NAMES}|the\s+{_NAMES}\s+(?:(?:line\s+|text\s+|stream\s+)?editor|command|tool|utility|program)s?)\s*$"
)


def subject_tools(subject: str) -> list[str]:
    """The tools a task subject says it is done with: ["grep"] of "searching files with grep",
    ["diff", "patch"] of "making and applying patches with diff and patch"; [] when it names none.

    Why: a corpus of several tools' manuals answers a grep question from find's manual ("For
    '-iname', the match is case-insensitive.") unless the tool's own manual comes first, and before
    this "running external commands … with subprocess" named "external" (the word before
    "commands"). Only lower-case words count: "with Python" names a language, not a page to keep
    to (docs/evidence.md, "Pages that name the subject").
    """
    if has_cjk(subject):
        # 「gzip 文件压缩和解压」, 「date 命令 日期时间显示和格式化」 (a topic asking how to do something
        # with a tool, docs/questions.md): the lower-case name the subject opens with
        # 「find 和 sed」 (the subject of two tasks done each with its tool): every name it lists
        listed = re.split(r"\s*(?:和|与|及|、)\s*", subject.strip())
        if len(listed) >= 2 and all(re.fullmatch(r"[a-z][\w.+-]*", name) for name in listed):
            return list(dict.fromkeys(listed))
        lead = re.match(r"^(?:用|使用|通过|借助)?\s*([a-z][\w.+-]*)\s", subject)
        return [lead.group(1)] if lead else []
    found = _WITH_TOOLS.search(subject)
    if found is None:
        return []
    names = [w for w in re.split(r"\s*,\s*|\s+and\s+|\s+or\s+", found.group(1) or found.group(2)) if w]
    return [] if any(w in EN_STOPWORDS for w in names) else list(dict.fromkeys(names))


def titles_a_tool(title: str, tools: list[str]) -> bool:
    """Whether a document's title names one of the tools: "grep.info" names grep, "diffutils.info"
    names diff (a title word that a tool's name of four letters or more begins)."""
    said = set(word_terms(title))
    wanted = {t for tool in tools for t in word_terms(tool)}
    return bool(said & wanted) or any(len(t) >= 4 and w.startswith(t) for w in said for t in wanted)


def _kind_suffix(parts: list[str]) -> tuple[list[str], str]:
    """``parts`` with an enumeration's shared kind word taken off the last one, and that word."""
    last = parts[-1]
    if has_cjk(last) or any(has_cjk(p) for p in parts):
        for word in _ZH_KIND_WORDS:
            if last.endswith(word) and len(last) > len(word) and all(not p.endswith(word) for p in parts[:-1]):
                return [*parts[:-1], last[: -len(word)].strip()], word
        return parts, ""
    words = last.split()
    if len(words) >= 2 and words[-1].lower() in _EN_KIND_WORDS and all(len(p.split()) <= 2 for p in parts[:-1]):
        return [*parts[:-1], " ".join(words[:-1])], _EN_KIND_WORDS[words[-1].lower()]
    return parts, ""


def subject_parts(subject: str) -> list[str]:
    """Split a compound subject ("Python generators and coroutines") into parts sharing a prefix,
    and an enumeration's kind word ("the json and csv modules") shared by every part."""
    if has_cjk(subject):
        parts = [p.strip() for piece in re.split(r"\s*、\s*", subject) for p in _zh_list_split(piece) if p.strip()]
    else:
        parts = [p.strip() for p in re.split(r",\s*(?:and\s+)?|\s+and\s+|\s*&\s*", subject) if p.strip()]
    if len(parts) < 2 or len(parts) > 4 or is_action_phrase(subject) or _ZH_TASK.search(subject):
        # "setting up locales and keyboard input on Debian" is one task, not two things to compare;
        # so is 「程序编写和调试」 (two verbs sharing one object).
        return [subject]
    parts, kind = _kind_suffix(parts)
    head_words = parts[0].split()
    if has_cjk(parts[0]) and "的" in parts[0][1:-1]:  # 「Python 的生成器和协程」: 「Python 的」 is shared
        parts = _zh_shared_owner(parts)
    elif len(head_words) >= 2:
        prefix = " ".join(head_words[:-1])
        parts = [parts[0]] + [p if len(p.split()) > 1 or p.startswith(prefix) else f"{prefix} {p}" for p in parts[1:]]
    if kind:
        parts = [f"{p} {kind}" if not has_cjk(kind) else _zh_glue(p, kind) for p in parts]
    return parts


def _zh_shared_owner(items: list[str]) -> list[str]:
    """「Python 的列表」与「元组」 → 「Python 的元组」: the owner before the first item's 的 belongs
    to every item that names no owner of its own (parts of a subject, candidates of a comparison)."""
    first = items[0]
    if "的" not in first[1:-1]:
        return items
    owner = first[: first.rindex("的") + 1]
    return [first] + [p if p.startswith(owner) or "的" in p else _zh_glue(owner, p) for p in items[1:]]


def _zh_glue(left: str, right: str) -> str:
    """Two pieces of a Chinese phrase: one space between Latin and Han, none between ideographs."""
    left, right = left.rstrip(), right.lstrip()
    if left and right and has_cjk(left[-1]) != has_cjk(right[0]):
        return f"{left} {right}"
    return left + right


# Words that contain 和 or 与 but are not "and".
_ZH_HE_WORDS = (
    "和平", "和谐", "总和", "温和", "缓和", "柔和", "和解", "调和", "共和", "和声", "参与", "给与", "与其", "与会",
)  # fmt: skip


# A predicate over both sides of 和/与 (between them, into each other) makes the pair one item.
_ZH_RECIPROCAL = re.compile(r"(?:和|与).+?(?:之间|互换|互转|相互|互相)")


_ZH_BARE_TOOL = re.compile(r"(?:用|使用|通过|借助)\s*[A-Za-z][\w.+-]*")


def _zh_list_split(text: str) -> list[str]:
    """Split a Chinese list item on 和 / 与 / 以及 (not inside 和平, 总和 …)."""
    if _ZH_RECIPROCAL.search(text):
        return [text]  # 「在 DOS 与 Unix 换行符之间转换」「TAB 与空格互换」: one relation between both
    guarded = text
    for i, word in enumerate(_ZH_HE_WORDS):
        guarded = guarded.replace(word, f"\x00{i}\x00")
    pieces = re.split(r"\s*(?:以及|和|与)\s*", guarded)
    # 「查看和刷新邮件队列」: a bare verb before 和 shares the object after it; the two are one task.
    # So does a bare tool: 「用 msginit 和 msgmerge 维护 .po 文件」 is one task done with two tools
    # (split, it read 「用 msginit」 and 「msgmerge 维护 .po 文件」).
    joined: list[str] = []
    for piece in pieces:
        if joined and (re.fullmatch(ZH_VERBS, joined[-1].strip()) or _ZH_BARE_TOOL.fullmatch(joined[-1].strip())):
            joined[-1] = _zh_glue(_zh_glue(joined[-1], "和"), piece)
        else:
            joined.append(piece)
    pieces = joined
    out = []
    for piece in pieces:
        for i, word in enumerate(_ZH_HE_WORDS):
            piece = piece.replace(f"\x00{i}\x00", word)
        out.append(piece)
    return out


# --------------------------------------------------------------------------------------------------
# Facets


class Facet(BaseModel):
    """One thing the user asked about within the topic."""

    model_config = ConfigDict(frozen=True)
    name: str = Field(description="a short phrase naming the facet, in the topic's words: 'version pinning'")
    kind: FacetKind = Field(description="comparison | aspect (named after a colon) | part (of the subject) | question")
    terms: list[str] = Field(description="content key terms that tell this facet apart within the research")
    candidates: list[str] = Field(default_factory=list, description="what a comparison compares: ['dpkg', 'apt']")
    context: str | None = Field(None, description="what a comparison is judged for: 'for embedded analytics'")
    question: str | None = Field(None, description="kind question: the user's own question, pronouns resolved")
    members: list[str] = Field(
        default_factory=list,
        description="aspect: the things it names one by one ('Condition', 'Event'; 'protocol versions')",
    )


class TopicFrame(BaseModel):
    """The decomposition of one topic (see :func:`decompose`)."""

    model_config = ConfigDict(frozen=True)
    topic: str
    language: Literal["zh", "en"]
    subject: str
    topic_type: TopicType
    type_sure: bool
    facets: list[Facet]

    @property
    def candidates(self) -> list[str]:
        """Every comparison candidate, in order."""
        out: list[str] = []
        for facet in self.facets:
            out += [c for c in facet.candidates if c not in out]
        return out

    @property
    def explicit(self) -> bool:
        """True when the user named facets (rather than the subject's parts standing in for them)."""
        return any(f.kind != "part" for f in self.facets)

    def facet(self, name: str | None) -> Facet | None:
        """The facet called ``name``, if any."""
        return next((f for f in self.facets if f.name == name), None)

    def key_terms(self) -> list[str]:
        """Distinctive terms of the subject and every facet: what an on-topic text mentions one of.

        A phrase made only of common words ("data management") keeps them: they are all it has.
        """
        out: list[str] = []
        texts = [self.subject] + [f.name for f in self.facets] + self.candidates
        texts += [f.context for f in self.facets if f.context]
        for text in texts:
            out += [t for t in _distinctive(text) if t not in out]
        return out

    def is_relevant(self, text: str, extra: list[str] | tuple[str, ...] = ()) -> bool:
        """Does ``text`` share a distinctive key term with the topic, its facets or ``extra`` texts?

        A topic with no content words at all ("How does it work?") cannot judge: everything passes.
        """
        terms = list(self.key_terms())
        if not terms:
            return True
        for other in extra:
            terms += _distinctive(other)
        return shares_key_term(text, terms)

    def signature(self, text: str) -> frozenset[str]:
        """The facet terms ``text`` mentions: two questions with different signatures ask about different
        facets, however alike their wording ("What is the role of dpkg …" / "… of apt …")."""
        indexed = _Indexed(text)
        found = set()
        for facet in self.facets:
            for term in [*facet.terms, *(t for c in facet.candidates for t in key_terms(c))]:
                if indexed.mentions(term):
                    found.add(stem(_normalize(term)))
        return frozenset(found)

    def facet_for(self, text: str) -> str | None:
        """The facet a question belongs to: the one whose terms it mentions most; None on a tie or no match."""
        indexed = _Indexed(text)
        scores = []
        for facet in self.facets:
            terms = facet.terms + [t for c in facet.candidates for t in key_terms(c) if t not in facet.terms]
            scores.append(sum(1 for t in terms if indexed.mentions(t)))
        best = max(scores, default=0)
        if best == 0 or scores.count(best) > 1:
            return None
        return self.facets[scores.index(best)].name


# English: "dpkg vs apt", "apt versus aptitude", "the difference between apt and apt-get".
_EN_VS = re.compile(r"\s+(?:vs\.?|versus|compared\s+(?:with|to))\s+", re.I)
_EN_INNER_VS = re.compile(r"^(?P<head>[^()]+?)\s*\((?P<inner>[^()]+?\s(?:vs\.?|versus)\s[^()]+)\)\s*$", re.I)
_EN_DIFF = re.compile(
    r"^(?:(?:what\s+(?:is|are)\s+)?(?:the\s+)?(?:differences?|relationship|relation|trade-?offs?)\s+between\s+)"
    r"(?P<items>.+)$",
    re.I,
)
_EN_COMPARE = re.compile(r"^(?:compare|comparing|contrast|contrasting|comparison\s+of)\s+(?P<items>.+)$", re.I)
_EN_DIFFER = re.compile(
    r"^how\s+(?:does|do)\s+(?P<a>.+?)\s+(?:differ\s+from|compare\s+(?:with|to|against))\s+(?P<b>.+)$", re.I
)
_EN_AND_DIFFER = re.compile(
    r"^how\s+(?:does|do)\s+(?P<items>.+?\s+(?:and|&)\s+.+?)\s+(?:differ|compare)(?P<ctx>\s+(?:in|for|when|on|as|under)\s+.+)?$",
    re.I,
)
_EN_CHOOSE = re.compile(
    r"^(?:should\s+(?:i|we|you|one)\s+(?:use|choose|pick)|which\s+is\s+better,?)\s+(?P<items>.+?\s+or\s+.+)$", re.I
)
_EN_CONTEXT = re.compile(r"\s+(?P<ctx>(?:for|in|when|on|as|under)\s+.+)$", re.I)
_EN_ITEMS = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|with|to)\s+", re.I)
# Chinese: 「dpkg 与 apt 的关系」「A 和 B 的区别」「A vs B」「比较 A 和 B」.
_ZH_REL = (
    r"(?:之间)?(?:的)?(?:有什么|有何|有哪些)?(?:关系|区别|差异|异同|对比|比较|不同|优劣|联系)"
    r"(?:是什么|有哪些|在哪里|有什么)?$"
)
_ZH_PAIR = re.compile(rf"^(?P<a>.+?)\s*(?:与|和|跟|同)\s*(?P<b>.+?)\s*{_ZH_REL}")
_ZH_VS = re.compile(r"\s*(?:vs\.?|VS|versus|对比|相比|还是)\s*")
_ZH_COMPARE = re.compile(
    r"^(?:比较|对比)\s*(?P<items>.+?)(?:在(?P<ctx>.+?)(?:中|上|方面|场景下?)(?:的)?(?:表现|差异|优劣)?)?$"
)

# Follow-up question clauses: "…, and why does it …", "… and how can it be …", 「…？如何避免？」.
_WH = r"(?:why|how|what|when|where|which|who)"
_EN_CLAUSE = re.compile(rf"\s*[?;]\s+(?=\S)|\s*,\s*(?:and\s+|but\s+)?(?={_WH}\b)|\s+(?:and|but)\s+(?={_WH}\b)", re.I)
_ZH_WH = r"(?:如何|怎样|怎么|为什么|为何|有哪些|有什么|是否|能否|什么时候|什么情况|什么场景|何时|哪些)"
# 「比较列表和元组，各自在什么情况下使用？」: 各自/分别 + a question is a clause of its own, comma or not.
_ZH_CLAUSE = re.compile(rf"\s*[？?；;]\s*|\s*[，,]\s*(?={_ZH_WH})|\s*[，,]?\s*(?=(?:各自|分别)[^，,？?]*?{_ZH_WH})")
_EN_AUX = r"(?:is|are|was|were|can|could|should|would|will|may|might|must|does|do|did)"
_EN_PRONOUN = re.compile(r"\b(?:it|they|them|this|these)\b", re.I)


def _task_list(subject: str) -> tuple[str, list[str]] | None:
    """("using gpg", ["generating a GnuPG key pair", "exporting and importing public keys", "signing and
    verifying files"]) of "generating a GnuPG key pair, export and import public keys, and sign and
    verify files with gpg"; None unless the subject is such a list of tasks done with named tools.

    Why: with no colon the whole list was the subject, one facet, and every question pasted it
    whole ("What is the definition of generating a GnuPG key pair, export and import public keys,
    and sign and verify files with gpg?"; a fresh-eyes trial's one article, docs/questions.md).
    """
    if not _ACTION_PHRASE.match(subject):
        return None
    tools = _WITH_TOOLS.search(subject)
    if tools is None:
        return None
    items = [p.strip() for p in re.split(r"\s*,\s*(?:and\s+|or\s+)?", subject[: tools.start()].strip()) if p.strip()]
    if len(items) < 2:
        return None
    out = [items[0]]
    for item in items[1:]:
        # "export and import public keys": each verb of the task as its gerund
        verbs = re.match(r"^([a-z]+)(?:\s+(and|or)\s+([a-z]+))?\s+(\S.*)$", item)
        if verbs is None or verbs.group(1) in EN_STOPWORDS or verbs.group(1).endswith("ing"):
            return None
        first, joiner, second, rest = verbs.groups()
        both = f"{_gerund(first)} {joiner} {_gerund(second)}" if second else _gerund(first)
        out.append(f"{both} {rest}")
    return f"using {tools.group(1) or tools.group(2)}", out


def _split_items(text: str) -> list[str]:
    return [p.strip(" .") for p in _EN_ITEMS.split(text) if p and p.strip(" .")]


def _strip_article(text: str) -> str:
    return re.sub(r"^(?:the|a|an)\s+", "", text.strip(), flags=re.I)


def _en_comparison(text: str) -> tuple[list[str], str | None] | None:
    """``(candidates, context)`` when ``text`` compares things, else None."""
    inner = _EN_INNER_VS.match(text)
    if inner:
        # "regular expression syntax (basic vs extended)": each side is a kind of the head ("basic
        # regular expression syntax"); split at the vs, it read "regular expression syntax (basic"
        sides = [_strip_article(p) for p in _EN_VS.split(inner.group("inner")) if p.strip()]
        return ([f"{side} {inner.group('head')}" for side in sides], None) if len(sides) >= 2 else None
    for pattern in (_EN_COMPARE, _EN_DIFF, _EN_CHOOSE):
        found = pattern.match(text)
        if found:
            items, ctx = found.group("items"), None
            tail = _EN_CONTEXT.search(items)
            if tail:
                items, ctx = items[: tail.start()], tail.group("ctx")
            parts = [_strip_article(p) for p in _split_items(items)]
            return (parts, ctx) if len(parts) >= 2 else None
    found = _EN_AND_DIFFER.match(text)
    if found:
        parts = [_strip_article(p) for p in _split_items(found.group("items"))]
        ctx = found.group("ctx").strip() if found.group("ctx") else None
        return (parts, ctx) if len(parts) >= 2 else None
    found = _EN_DIFFER.match(text)
    if found:
        b, ctx = found.group("b"), None
        tail = _EN_CONTEXT.search(b)
        if tail:
            b, ctx = b[: tail.start()], tail.group("ctx")
        return [_strip_article(found.group("a")), _strip_article(b)], ctx
    if _EN_VS.search(text):
        parts = [_strip_article(p) for p in _EN_VS.split(text) if p.strip()]
        ctx = None
        tail = _EN_CONTEXT.search(parts[-1]) if parts else None
        if tail:
            parts[-1], ctx = parts[-1][: tail.start()], tail.group("ctx")
        more = (
            re.match(r"^(?P<name>[A-Z]\w*|[a-z_]+\(\))\s+and\s+(?P<rest>(?:the|its|their)\s+.+)$", parts[-1])
            if parts
            else None
        )
        if more and ctx is None:
            # "NamedTemporaryFile vs TemporaryFile and the delete flag": the flag is what they are
            # compared on, not part of the second side
            parts[-1], ctx = more.group("name"), f"regarding {more.group('rest')}"
        return (parts, ctx) if len(parts) >= 2 else None
    return None


def _zh_comparison(text: str) -> tuple[list[str], str | None] | None:
    found = _ZH_COMPARE.match(text)
    if found:
        items = [p.strip() for p in re.split(r"\s*(?:和|与|跟|同|、|，|,)\s*", found.group("items")) if p.strip()]
        return (items, found.group("ctx")) if len(items) >= 2 else None
    found = _ZH_PAIR.match(text)
    if found:
        return [found.group("a").strip(), found.group("b").strip()], None
    if _ZH_VS.search(text):
        parts = [p.strip() for p in _ZH_VS.split(re.sub(_ZH_REL, "", text)) if p.strip()]
        return (parts, None) if len(parts) >= 2 else None
    return None


def _join(items: list[str], zh: bool) -> str:
    """「A、B 和 C」 / "A, B and C"."""
    if len(items) < 2:
        return "".join(items)
    if zh:
        return "、".join(items[:-1]) + " 和 " + items[-1]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _comparison_name(candidates: list[str], zh: bool) -> str:
    return (" 与 " if zh else " vs ").join(candidates)


def _make(name: str, kind: FacetKind, **extra: object) -> Facet:
    return Facet(name=name, kind=kind, terms=key_terms(name), **extra)


def _en_third_person(verb: str) -> str:
    if verb in {"have"}:
        return "has"
    if re.search(r"(?:s|sh|ch|x|z|o)$", verb):
        return verb + "es"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ies"
    return verb + "s"


def _resolve_pronouns(text: str, subject: str) -> str:
    """A pronoun that stands for the topic's subject, replaced by it: "why does it reject …" → "why does
    Rust's borrow checker reject …". One that a noun before it in the clause can take is left alone:
    "which constructs bind names and make them local" (them = names), "why a class body's scope does
    not extend into its methods" (its = the class body's)."""
    words = text.split()
    out: list[str] = []
    for i, word in enumerate(words):
        bare = word.strip(",.;:?!").lower()
        before = [w.strip(",.;:?!") for w in words[1:i]]
        before = [w for w in before if not re.fullmatch(_EN_AUX, w, re.I)]
        plural_before = bare in {"they", "them", "their", "these"} and any(_plural(w) for w in before)
        owner = any(w.endswith("'s") or w.lower() in {"a", "an"} for w in before)
        singular_before = bare in {"it", "its", "this"} and owner
        if plural_before or singular_before:
            out.append(word)
        elif bare in {"its", "their"}:
            out.append(word.lower().replace(bare, f"{subject}'s"))
        elif bare in {"it", "they", "them", "this", "these"}:
            out.append(word.lower().replace(bare, subject))
        else:
            out.append(word)
    return " ".join(out)


def _en_question_facet(clause: str, subject: str) -> Facet | None:
    """A follow-up clause ("why does it reject some programs") as a facet named by a noun clause
    ("why Rust's borrow checker rejects some programs") whose question is the clause itself."""
    text = _clean(clause)
    if not text:
        return None
    its = re.match(r"^(?P<wh>what|which)\s+(?P<aux>is|are)\s+(?:its|their)\s+(?P<rest>.+)$", text, re.I)
    if its:
        question = f"{its.group('wh')} {its.group('aux')} the {its.group('rest')} of {subject}"
        name = f"{its.group('rest')} of {subject}"
    else:
        to = re.match(rf"^(?P<wh>{_WH})\s+to\s+(?P<rest>.+)$", text, re.I)
        resolved = _resolve_pronouns(text, subject)
        if to:
            rest = _EN_PRONOUN.sub(subject, to.group("rest"))
            name = f"{to.group('wh').lower()} to {rest}"
            question = f"{to.group('wh')} can one {rest}"
        else:
            question = resolved
            inverted = re.match(rf"^(?P<wh>{_WH})\s+(?P<aux>{_EN_AUX})\s+(?P<np>it|they)\b\s*(?P<rest>.*)$", text, re.I)
            if inverted:
                wh, aux, rest = inverted.group("wh").lower(), inverted.group("aux").lower(), inverted.group("rest")
                rest = _EN_PRONOUN.sub(subject, rest)
                if aux in {"does", "do", "did"} and rest:
                    verb, _, tail = rest.partition(" ")
                    verb = _en_third_person(verb) if aux == "does" else verb if aux == "do" else f"did {verb}"
                    name = " ".join(p for p in (wh, subject, verb, tail) if p)
                else:
                    name = " ".join(p for p in (wh, subject, aux, rest) if p)
            else:
                name = resolved[:1].lower() + resolved[1:]
                question = _direct_question(resolved)
    question = question[:1].upper() + question[1:] + "?"
    return _make(name.strip(), "question", question=question)


_EN_MAIN = re.compile(r"^(?P<wh>how|why|when|where)\s+(?P<aux>does|do|did)\s+(?P<rest>.+)$", re.IGNORECASE)


def _en_main_question(clause: str) -> Facet | None:
    """ "How does a Debian system start up under systemd": the subject ("Debian system") is what it
    is about, but what the user asks is how it starts up — a question of its own, asked as written.
    "How does X work" asks nothing beyond X (its frame verb is dropped) and gets no such facet."""
    text = _clean(clause)
    what_does = _EN_WHAT_DOES.match(text)
    if what_does is not None and (
        what_does.group("clause") or what_does.group("v").lower() not in {"do", "mean", "stand", "look"}
    ):
        # "What does a restricted shell forbid?" is the user's own question, asked as written: the
        # subject's frame ("What is the definition of restricted shell?") never asked what it forbids.
        thing, said = what_does.group("s"), _en_third_person(what_does.group("v"))
        tail = text[what_does.end("v") :].strip()
        name = " ".join(p for p in ("what", thing, said, tail) if p)
        return _make(name, "question", question=text[:1].upper() + text[1:] + "?")
    found = _EN_MAIN.match(text)
    verb = _EN_DOES_VERB.match(found.group("rest")) if found else None
    # "How do I sign a file and verify it?" is a task (the subject), not a question about "I …"
    if (
        found is None
        or verb is None
        or verb.group("s").split()[0].lower() in {"i", "we", "you", "they", "one", "people"}
    ):
        return None
    thing = verb.group("s")
    action = found.group("rest")[len(thing) :].strip()
    first, _, tail = action.partition(" ")
    aux = found.group("aux").lower()
    said = _en_third_person(first) if aux == "does" else first if aux == "do" else f"did {first}"
    name = " ".join(p for p in (found.group("wh").lower(), thing, said, tail) if p)
    return _make(name, "question", question=text[:1].upper() + text[1:] + "?")


_ZH_MAIN = re.compile(r"^(?P<lead>.*?)\s*(?:是)?(?P<how>如何|怎样|怎么)(?P<act>.+?)(?:的)?$")


def _zh_main_question(clause: str) -> Facet | None:
    """「sqlite 是如何缓存页面的」 asks how sqlite caches pages: 「sqlite 如何缓存页面？」, a question of its
    own beside the subject, as "How does X <verb> …" is in English. 「…如何工作」 asks nothing more."""
    found = _ZH_MAIN.match(_clean(clause))
    if found is None or not found.group("lead").strip() or any(w in found.group("act") for w in ("工作", "运作")):
        return None
    if re.fullmatch(rf"{ZH_VERBS}(?:(?:和|与|及|并|、){ZH_VERBS})?", found.group("act").strip()):
        return None  # 「Debian 系统的网络如何设置」: a bare verb frames the subject, as 「如何工作」 does
    lead = found.group("lead").strip()
    name = f"{lead}{' ' if re.search(r'[A-Za-z0-9)]$', lead) else ''}{found.group('how')}{found.group('act').strip()}"
    return _make(name, "question", question=f"{name}？")


_EN_MODAL = r"(?:is|are|was|were|can|could|should|would|will|may|might|must|has|have)"
_EN_DETERMINER = r"(?:the|a|an|each|every|its|their|this|these|that|those|one|\S+'s)"
_EN_PRONOUN_SUBJECT = r"(?:each|it|they|we|you|one|i|he|she)"


def _direct_question(clause: str) -> str:
    """The direct question a topic's embedded clause asks: "how shelves deal with mutable entries" →
    "how do shelves deal with mutable entries", "which object types each can handle" → "which object
    types can each handle". Left as written when its subject cannot be told apart."""
    found = re.match(rf"^(?P<wh>{_WH})\s+(?P<rest>.+)$", clause, re.I)
    if not found:
        return clause
    wh, words = found.group("wh"), found.group("rest").split()
    if re.fullmatch(_EN_AUX, words[0], re.I) or words[0].lower() == "to":
        return clause  # already a question ("how can one …", "what is …"), or "how to …"
    at = next((i for i, w in enumerate(words) if re.fullmatch(_EN_MODAL, w, re.I)), None)
    negated = next(
        (i for i, w in enumerate(words[1:-1], start=1) if w.lower() in {"does", "do", "did"} and words[i + 1] == "not"),
        None,
    )
    if negated is not None and (at is None or negated < at):
        at = negated  # "why a class body's scope does not extend …" → "why does a class body's scope not extend …"
    if wh.lower() in {"how", "why", "when", "where"}:
        if at is not None:  # "how shelves are opened" → "how are shelves opened"
            return " ".join([wh, words[at], *words[:at], *words[at + 1 :]])
        if len(words) < 2:
            return clause
        # "how shelves deal with …" (a plural subject) → "how do …"; "how pickle handles …" → "how does
        # pickle handle …" (the first word of -s after a singular subject is its verb).
        if _plural(words[0]):
            return " ".join([wh, "do", *words])
        verb = next((i for i in range(1, min(len(words), 6)) if _third_person(words[i])), None)
        if verb is not None and verb + 1 < len(words) and words[verb + 1].lower() in _BARE_VERBS:
            # "where unit files come from": the -s word is a plural noun, the verb follows it
            return " ".join([wh, "do", *words])
        if verb is None:
            return clause
        return " ".join([wh, "does", *words[:verb], _base_form(words[verb]), *words[verb + 1 :]])
    if (
        wh.lower() in {"what", "which"}
        and at is None
        and len(words) >= 3
        and (re.fullmatch(r"the|a|an|its|their", words[0], re.I) or words[0].lower().endswith(("'s", "’s")))
        and _third_person(words[-1])
    ):
        # "what the @dataclass decorator generates" (what is its object) → "what does the @dataclass
        # decorator generate"; "what grep's exit status means" → "what does grep's exit status mean"
        return " ".join([wh, "does", *words[:-1], _base_form(words[-1])])
    # which/what/who + noun phrase + subject + modal: only a subject that is plainly one ("each",
    # "it", "a shelf") is moved behind the modal; anything longer is left as written.
    if at is None or at < 1:
        return clause
    subject = 1
    if (
        at >= 2
        and re.fullmatch(_EN_DETERMINER, words[at - 2], re.I)
        and not re.fullmatch(_EN_PRONOUN_SUBJECT, words[at - 1], re.I)
    ):
        subject = 2
    if subject == 1 and not re.fullmatch(_EN_PRONOUN_SUBJECT, words[at - 1], re.I):
        return clause
    lead = words[: at - subject]
    if not lead and wh.lower() != "who":
        return clause  # "what each can do": the wh-word is the object; "what can each do"
    return " ".join([wh, *lead, words[at], *words[at - subject : at], *words[at + 1 :]])


# Verbs that follow their plural subject bare ("files come from", "modules work", "threads wait").
_BARE_VERBS = frozenset(
    """come go get work run start stop fit differ relate change happen appear live end begin stay fail
    interact communicate wait share depend exist behave compare load""".split()  # noqa: SIM905
)


def _plural(word: str) -> bool:
    low = word.lower()
    return low.endswith("s") and not low.endswith(("ss", "'s", "us", "is")) and low not in {"this", "its"}


def _third_person(word: str) -> bool:
    low = word.lower()
    return bool(re.fullmatch(r"[a-z]+(?:es|s)", low)) and not low.endswith(("ss", "us", "is", "'s"))


def _base_form(verb: str) -> str:
    """ "handles" → "handle", "passes" → "pass", "carries" → "carry"."""
    low = verb.lower()
    if low == "has":
        return "have"
    if low.endswith("ies") and len(low) > 4:
        return verb[:-3] + "y"
    if re.search(r"(?:ss|sh|ch|x|z|o)es$", low):
        return verb[:-2]
    return verb[:-1]


def _zh_core(subject: str) -> str:
    """「机器学习中的过拟合」 → 「过拟合」: the head of a "context 中的 thing" subject."""
    found = re.match(r"^(.+?)(?:领域中|领域|之中|中|里)的(.+)$", subject)
    return found.group(2).strip() if found else subject


def _zh_question_facet(clause: str, subject: str) -> Facet | None:
    text = _clean(clause).strip("，,：: ")
    if not text:
        return None
    core = _zh_core(subject)
    if re.search(r"它们|它|其", text):
        name = re.sub(r"它们|它|其", core, text)
        question = re.sub(r"它们|它|其", subject, text)
    elif shares_key_term(text, key_terms(subject)):
        name = question = text
    else:
        wh = re.match(r"^(如何|怎样|怎么|怎么样)(.{1,3})$", text)
        if wh:  # 「如何避免」: the object is the subject
            name, question = text + core, text + subject
        else:
            name, question = core + text, subject + text
    return _make(name, "question", question=question + "？")


_PARENS = re.compile(r"[(（][^()（）]{1,200}[)）]")


def _masked(text: str) -> tuple[str, list[str]]:
    """``text`` with each parenthesised group replaced by a placeholder, and the groups: a list's
    separators inside "(uuencode, base64, MIME)" do not separate the list's items."""
    groups: list[str] = []

    def keep(m: re.Match[str]) -> str:
        groups.append(m.group(0))
        return chr(0xE000 + len(groups) - 1)  # one private-use character stands for the group

    return _PARENS.sub(keep, text), groups


def _unmasked(text: str, groups: list[str]) -> str:
    return re.sub("[\ue000-\ue0ff]", lambda m: groups[ord(m.group(0)) - 0xE000], text)


def _zh_list(tail: str) -> list[str]:
    tail, groups = _masked(tail)
    return [_unmasked(item, groups) for item in _zh_list_items(tail)]


def _zh_list_items(tail: str) -> list[str]:
    items: list[str] = []
    for piece in re.split(r"\s*[、，,；;]\s*", tail):
        # 「，以及如何把日志写到文件」: the conjunction joins the item to the list, it is not its first word
        piece = re.sub(rf"^(?:以及|并且|还有|或者)\s*|^(?:并|和|与|及|或)\s*(?={_ZH_WH})", "", piece.strip())
        piece = piece.strip(" 的")
        if not piece:
            continue
        if _zh_comparison(piece) or re.search(_ZH_WH, piece):
            items.append(piece)
        else:
            items += [p.strip(" 的") for p in _zh_list_split(piece) if p.strip(" 的")]
    return items


def _list_facets(tail: str, subject: str, zh: bool) -> list[Facet]:
    """An explicit facet list ("dpkg vs apt, version pinning, and system upgrades")."""
    out: list[Facet] = []
    if zh:
        for item in _zh_list(tail):
            cmp = _zh_comparison(item)
            if cmp:
                out.append(_make(item, "comparison", candidates=cmp[0], context=cmp[1]))
            elif re.match(_ZH_WH, item) or re.match(rf"^(?:它们|它|其)\S*{_ZH_WH}", item):
                facet = _zh_question_facet(item, subject)
                if facet:
                    out.append(facet)
            else:
                out.append(_make(item, "aspect"))
        return out
    masked, groups = _masked(tail)
    items = [p for p in (s.strip() for s in re.split(r"\s*[;,]\s*", masked)) if p]
    items = [re.sub(r"^(?:and|or|as well as)\s+", "", p, flags=re.I) for p in items]
    items, enumerated = _inner_lists(items)
    last = items[-1] if items else ""
    # "signing and verifying files": two verbs of one object are one task (split, it read "signing"
    # and "verifying files")
    shared_object = re.match(r"^\w+ing\s+and\s+\w+ing\s+\S", last, re.I) is not None
    if (
        items
        and not enumerated
        and not shared_object
        and not _en_comparison(last)
        and not re.match(rf"{_WH}\b", last, re.I)
    ):
        # "A and B" alone, or the last of "A, B and C" (a list without the serial comma)
        items = items[:-1] + [p for p in re.split(r"\s+and\s+", last) if p.strip()]
    items = [_unmasked(p, groups) for p in items]
    items = [part for item in items for part in _wh_and_its(item)]
    previous = ""
    for item in items:
        item = item.strip(" .")
        bare = re.match(r"^(\w+ing)\s+(?:it|them)$", item, re.I)
        if bare:
            # "giving a thread its work, starting it": "it" is what the item before acted on
            item = f"{bare.group(1)} {_gerund_object(previous) or subject}"
        previous = item
        cmp = _en_comparison(item)
        if cmp:
            out.append(_make(_strip_article(item), "comparison", candidates=cmp[0], context=cmp[1]))
        elif re.match(rf"{_WH}\b", item, re.I):
            facet = _en_question_facet(item, subject)
            if facet:
                out.append(facet)
        elif item:
            name = _strip_article(item)
            out.append(_make(name, "aspect", members=aspect_members(name)))
    return out


def _wh_and_its(item: str) -> list[str]:
    """ "what the @dataclass decorator generates and its order/frozen/kw_only options" → the question
    clause and "the @dataclass decorator's order/frozen/kw_only options": two facets, the pronoun
    taken by the clause's noun (kept as one, its "its" became the topic's subject and the question
    read "What the @dataclass decorator generates and Python's dataclasses module's … options?")."""
    found = _WH_AND_ITS.match(item.strip())
    if found is None:
        return [item]
    return [found.group("clause"), f"{found.group('np')}'s {found.group('rest')}"]


_WH_AND_ITS = re.compile(
    rf"^(?P<clause>{_WH}\s+(?P<np>(?:the|a|an)\s+\S+(?:\s+\S+)*?)\s+\w+)\s+and\s+(?:its|their)\s+(?P<rest>.+)$",
    re.I,
)


def _gerund_object(item: str) -> str:
    """What a gerund phrase acts on: "giving a thread its work (…)" → "a thread"; "" when none."""
    found = re.match(r"^\w+ing\s+((?:(?:a|an|the)\s+)?[\w.-]+(?:\s+(?!its\b|their\b|with\b|to\b|for\b)[\w.-]+)?)", item)
    return found.group(1).strip() if found else ""


# "sharing state with Value, Array or a Manager", "scheduling jobs with at, cron and anacron": an
# item that ends in a preposition and one name opens a list of its own.
_OPENS_LIST = re.compile(r"\b(?:with|such as|like|including|via|using|through|e\.g\.)\s+(?:an?\s+|the\s+)?\S+$", re.I)


def _inner_lists(items: list[str]) -> tuple[list[str], bool]:
    """``items`` with the names an item's own list goes on with joined back to it, and whether the
    last item is such a list (then its "and" joins names, not two facets).

    Why: split at every comma, "sharing state with Value, Array or a Manager" became a facet
    "sharing state with Value" and a facet "Array or a Manager", and "scheduling jobs with at, cron
    and anacron" three facets, one of them "cron"."""
    out: list[str] = []
    inner = False
    for item in items:
        words = item.split()
        names = [w for w in words if w.lower() not in {"a", "an", "the", "and", "or"}]
        # one or two names ("cron", "Array or a Manager"), not a facet's phrase ("mail data encoding")
        short = (
            0 < len(names) <= 2
            and all(re.fullmatch(r"[\w.+-]+", w) for w in names)
            and not words[0].lower().endswith("ing")
            and not re.match(rf"{_WH}\b", item, re.I)
        )
        opens = _OPENS_LIST.search(out[-1]) if out else None
        if out and short and (inner or (opens is not None and opens.start() > 0)):
            out[-1] = f"{out[-1]}, {item}"
            inner = True
            continue
        out.append(item)
        inner = False
    return out, inner


_EN_MEMBER_SPLIT = re.compile(r"\s+(?:and|or)\s+|\s*/\s*")
_CODE_NAME = re.compile(r"[._]|\(\)|[a-z][A-Z]|^[A-Z][a-z]+$")


def aspect_members(name: str) -> list[str]:
    """The things an aspect names one by one, each a phrase a question can stand on.

    Why: "Condition and Event synchronization" is two things a manual documents in two places;
    asked as one phrase, the search ranks whichever section repeats the most of the words, and the
    other is never read (docs/questions.md, "Members of an aspect"). Shapes read:

    * "A and B X", "A/B X": names written capitalised are the members ("Condition", "Event" of
      "Condition and Event synchronization"); else a one-word A shares B's head ("protocol
      versions", "format versions"), unless A is plural ("daemons and thread timeouts");
    * "X with a/b": the members of X ("thread-safe Queue with task_done/join" → "Queue.task_done",
      "Queue.join" when X ends in a name written as code or capitalised; a name written as code
      stands alone, "setLevel" of "levels with setLevel/basicConfig"; else "eviction in cache");
    * "locks/RLock", "daemon threads and Thread.join timeouts": each side as written.

    A Chinese aspect is split on a slash only: 和 and 与 inside a Chinese phrase are often part of a
    word (「校验和」), and the topic's own list was split on them already.
    """
    text = " ".join(name.split())
    if has_cjk(text):
        sides = [p.strip() for p in re.split(r"\s*/\s*", text) if p.strip()]
        return sides if len(sides) > 1 else []
    aside = _outer_aside(text)
    if aside is not None:
        # "(a target or an overridden run())": the aside's own parentheses are part of it
        text = " ".join((text[: aside[0]] + " " + text[aside[1] :]).split())
        return _aside_members(text, aside[2]) or _slashed_names(text)
    slashed = _slashed_names(text)
    if slashed:
        return slashed
    owner, members = text, []
    with_ = re.match(r"^(?P<owner>.+?)\s+with\s+(?P<rest>.+)$", text, re.I)
    if with_:
        owner = with_.group("owner")
        head = owner.split()[-1]
        named = bool(_CODE_NAME.search(head))
        for part in re.split(r"\s*,\s*|" + _EN_MEMBER_SPLIT.pattern, with_.group("rest")):
            part = _strip_article(part.strip())
            if not part:
                continue
            code = re.fullmatch(r"[A-Za-z_][\w.]*(?:\(\))?", part) and (len(part.split()) == 1)
            if named and code:
                members.append(f"{head}.{part}")
            elif code and _CODE_NAME.search(part):
                members.append(part)  # "levels with setLevel/basicConfig": a name stands alone
            else:
                members.append(f"{part} in {owner}")
        return members
    # "the difference between data and non-data descriptors" is one thing: its "and" joins the two
    # sides of the difference, not two members
    held = re.sub(r"\bbetween\s+(\S+(?:\s+\S+)?)\s+and\s+", lambda m: f"between {m.group(1)}\x00", text)
    sides = [_strip_article(p.strip().replace("\x00", " and ")) for p in _EN_MEMBER_SPLIT.split(held) if p.strip()]
    if len(sides) < 2 or any(len(side) < 2 for side in sides):
        # "keyboard layout for console and X": a one-letter side is no thing a manual titles a
        # section after ("What does X do?"); the aspect is asked whole.
        return []
    last = sides[-1].split()
    if all(re.fullmatch(r"[A-Z][\w.]*", side) for side in [*sides[:-1], last[0]]):
        # "Condition and Event synchronization": names of things (a class, a product) and the kind
        # they share; each name alone is what a manual's section is titled.
        return [*sides[:-1], last[0]]
    if len(last) > 1:
        tail = " ".join(last[1:])
        sides = [
            f"{side} {tail}" if len(side.split()) == 1 and not _plural(side) and side != sides[-1] else side
            for side in sides
        ]
    return sides


def _outer_aside(text: str) -> tuple[int, int, str] | None:
    """The last top-level parenthesised aside with words in it: (start, end, inside). "asdict()" is
    a name written as code, not an aside: "converting instances with asdict() and astuple()" had
    its names stripped to "asdict" and lost them as members."""
    depth, start, found = 0, -1, None
    for i, ch in enumerate(text):
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")" and depth > 0:
            depth -= 1
            if depth == 0 and text[start + 1 : i].strip():
                found = (start, i + 1, text[start + 1 : i])
    return found


# "low-level mkstemp/mkdtemp", "redirecting stdout/stderr": names joined by slashes, no spaces.
_SLASHED = re.compile(r"(?<![\w/])([A-Za-z_][\w.]*(?:\(\))?(?:/[A-Za-z_][\w.]*(?:\(\))?)+)(?![\w/])")


_SETTING_KINDS = frozenset({"options", "flags", "parameters", "arguments", "settings", "attributes"})


def _slashed_names(text: str) -> list[str]:
    """The names of a slash-joined run when the rest of the aspect only qualifies them ("low-level
    mkstemp/mkdtemp (return values, …)" → mkstemp, mkdtemp). A trial's tempfile topic asked the
    whole phrase, and the entries named mkstemp and mkdtemp were never read. A run inside a longer
    phrase ("suffix/prefix/dir" of "choosing the name … with suffix/prefix/dir") is left to the
    other rules."""
    run = _SLASHED.search(text)
    if run is None:
        return []
    names = run.group(1).split("/")
    rest = text[: run.start()].split()
    # only qualifiers before the names; a word after them is their kind ("setuid/setgid/sticky bits"),
    # except a word saying they are settings of what came before ("the @dataclass decorator's
    # order/frozen/kw_only options": the options are order, frozen and kw_only)
    after = text[run.end() :].strip()
    if after.lower() in _SETTING_KINDS and rest and rest[-1].endswith("'s"):
        after = ""
    if after or len(rest) > 2 or any(len(n) < 3 for n in names):
        return []
    if any(w.lower() in {"with", "and", "or"} for w in rest):
        return []
    return names


def _aside_members(owner: str, aside: str) -> list[str]:
    """ "a Process's lifecycle (start, join, terminate or kill, exit code)": the aside lists the
    things the aspect covers, each a member ("Process.join" when the owner is a name written
    capitalised or as code; else "exit code in Process's lifecycle"). An aside that is no list of
    short names ("(including in-memory databases)") names no member.

    Why: asked as one phrase, the lifecycle facet was answered with close() and kill(), and
    join() ("Wait until child process terminates") and exitcode were never read.
    """
    parts = [p.strip() for p in re.split(r"\s*,\s*|\s+(?:and|or)\s+|\s*/\s*", aside) if p.strip()]
    if len(parts) < 2 or any(len(p.split()) > 2 for p in parts):
        return []
    owned = re.search(r"\b([A-Z][\w.]*|[a-z_][\w.]*[._][\w.]*)'s\b", owner)
    name = owned.group(1) if owned else ""
    owner = _strip_article(owner)
    out: list[str] = []
    for part in parts:
        if name and re.fullmatch(r"[A-Za-z_]\w*", part):
            out.append(f"{name}.{part}")
        elif re.fullmatch(r"[a-z]+_[a-z_]+|\w+\(\)", part):
            out.append(part)  # "native_id", "run()": a name written as code is unique on its own
        else:
            out.append(f"{part} in {owner}")
    return out


def _without_runs(terms: list[str], runs: list[str]) -> list[str]:
    """「避免过拟合」 without the subject's 「过拟合」 is 「避免」 (Chinese runs are not split into words)."""
    out: list[str] = []
    for term in terms:
        pieces = [term]
        if has_cjk(term):
            for run in runs:
                if run != term:
                    pieces = [q for p in pieces for q in p.split(run) if q]
        out += [p for p in pieces if p not in out and (len(p) >= 2 or not has_cjk(p))]
    return out or terms


def _distinguish(facets: list[Facet], subject: str) -> list[Facet]:
    """Keep in each facet's ``terms`` only what tells it apart: not the subject's words (every question
    of the research has them), else not the words all facets share ("Python" of two parts)."""
    subject_keys = key_terms(subject)
    subject_terms = {stem(_normalize(t)) for t in subject_keys}
    subject_runs = [t for t in subject_keys if has_cjk(t)]
    facets = [f.model_copy(update={"terms": _without_runs(f.terms, subject_runs)}) for f in facets]
    # Words shared by every facet of one kind: "Python" and "module" of the parts "Python's json
    # module" and "Python's csv module" (aspects named beside them share nothing with them).
    common: dict[str, set[str]] = {}
    for facet in facets:
        stems = {stem(_normalize(t)) for t in facet.terms}
        common[facet.kind] = stems if facet.kind not in common else common[facet.kind] & stems
    same_kind = {kind: sum(1 for f in facets if f.kind == kind) for kind in common}
    out = []
    for facet in facets:
        terms = [t for t in facet.terms if stem(_normalize(t)) not in subject_terms]
        if not terms and same_kind[facet.kind] > 1:
            terms = [t for t in facet.terms if stem(_normalize(t)) not in common[facet.kind]]
        out.append(facet.model_copy(update={"terms": terms or list(facet.terms)}))
    return out


# 「…，并用 sed …」「…，再用 …」: a clause that goes on with another tool.
_ZH_NEXT_TOOL = re.compile(
    r"\s*[，,；;]\s*(?:(?:并且|并|再|然后|同时|最后)?\s*(?=(?:用|使用|利用)\s*[A-Za-z])|(?:并且|并|再|然后|同时|最后)\s*)"
)
_ZH_TOOL_CLAUSE = re.compile(r"^(?:如何|怎样|怎么)?\s*(?:用|使用|利用)\s*([A-Za-z][\w.+-]*)\s*(\S.*)$")


def _zh_tool_tasks(head: str) -> tuple[list[str], list[str]] | None:
    """(tools, tasks) of a Chinese topic that is a chain of tasks each done with its own tool:
    「如何用 find 按名称和修改时间查找文件，并用 sed 批量替换文本」 → (find, sed), (「用 find 按名称和修改
    时间查找文件」, 「用 sed 批量替换文本」). None for anything else.

    Why: read as one question, the topic's 和 split 「按名称和修改时间」 in two and moved its verb to
    the end: a facet 「时间查找文件,并用 sed 批量替换文本修改」, and every question pasted it
    (a fresh-eyes trial; docs/questions.md)."""
    clauses = [c.strip(" ？?。.") for c in _ZH_NEXT_TOOL.split(head.strip(_END_PUNCT)) if c.strip(" ？?。.")]
    if len(clauses) < 2:
        return None
    first = _ZH_TOOL_CLAUSE.match(clauses[0])
    if first is None or not has_cjk(first.group(2)):
        return None
    tools: list[str] = []
    tasks: list[str] = []
    tool = first.group(1)
    for clause in clauses:
        found = _ZH_TOOL_CLAUSE.match(clause)
        # 「…，并设置压缩方式」: a clause without a tool is done with the one before it
        tool, task = (found.group(1), found.group(2)) if found else (tool, clause)
        if not has_cjk(task):
            return None
        tools.append(tool)
        tasks.append(f"用 {tool} {task}")
    return list(dict.fromkeys(tools)), tasks


_ZH_BY_TWO = re.compile(r"^(用\s*[A-Za-z][\w.+-]*\s*)(按|以|根据|通过)(.+?)(?:和|与|及|或)(.+)$")
_ZH_VERB_LIST = re.compile(rf"^(用\s*[A-Za-z][\w.+-]*\s*)({ZH_VERBS}(?:、{ZH_VERBS})*(?:和|与|及|、){ZH_VERBS})(.+)$")
_ZH_LAST_VERB = re.compile(rf"{ZH_VERBS}(?!.*{ZH_VERBS})")


def _zh_task_members(task: str) -> list[str]:
    """「用 find 按名称和修改时间查找文件」 → 「用 find 按名称查找文件」, 「用 find 按修改时间查找文件」: a
    task done by two criteria is two tasks, each looked for on its own (a manual gives each its
    section: "Base Name Patterns", "Age Ranges"); [] for any other task."""
    verbs = _ZH_VERB_LIST.match(task)
    if verbs is not None:
        # 「用 zipfile 创建、读取和解压 ZIP 压缩包」: each verb of the object, on its own
        lead, listed, obj = verbs.groups()
        return [f"{lead}{verb}{obj}" for verb in re.split(r"、|和|与|及", listed) if verb]
    found = _ZH_BY_TWO.match(task)
    if found is None:
        return []
    lead, prep, first, rest = found.groups()
    verb = _ZH_LAST_VERB.search(rest)
    if verb is None or verb.start() == 0:
        return []
    second, tail = rest[: verb.start()], rest[verb.start() :]
    return [f"{lead}{prep}{first}{tail}", f"{lead}{prep}{second}{tail}"]


_ZH_NEXT_TASK = re.compile(r"\s*[，,；;]\s*(?:并且|并|再|然后|同时|最后)\s*")
_ZH_PRONOUN = re.compile(r"(?:它们|它|其)$")


def _zh_chained_tasks(head: str) -> list[str] | None:
    """The tasks of 「如何配置网络，并检查连接」 (「配置网络」, 「检查连接」); None unless the topic is a
    chain of clauses joined by 「，并」「，再」「，然后」 whose first opens with 如何 and a verb.

    Why: read as one question, the verb of the first clause moved behind the whole chain — the
    subject 「网络,并检查连接配置」, pasted into every question. A later clause that is a bare verb
    (「然后恢复」) or ends in a pronoun (「并调试它」) is about the first clause's object."""
    clauses = [c.strip(" ？?。.") for c in _ZH_NEXT_TASK.split(head.strip(_END_PUNCT)) if c.strip(" ？?。.")]
    if len(clauses) < 2:
        return None
    first = re.match(rf"^(?:如何|怎样|怎么)\s*(.*?)({ZH_VERBS})\s*(.+)$", clauses[0])
    if first is None or not all(has_cjk(c) for c in clauses):
        return None
    where, verb, obj = first.groups()
    tasks = [_zh_glue(f"{where}{verb}", obj)]
    for clause in clauses[1:]:
        if re.fullmatch(ZH_VERBS, clause):
            clause = _zh_glue(clause, obj)
        elif _ZH_PRONOUN.search(clause):
            clause = _zh_glue(_ZH_PRONOUN.sub("", clause), obj)
        tasks.append(clause)
    return tasks


def decompose(topic: str, lang: str | None = None) -> TopicFrame:
    """Split ``topic`` into its subject and facets (module docstring; docs/questions.md)."""
    text = _clean(topic)
    zh = has_cjk(text)
    language: Literal["zh", "en"] = "zh" if (lang == "zh" or (lang is None and zh)) else "en"
    kind, sure = detect_topic_type(topic)
    facets: list[Facet] = []
    if kind in {"行业调研", "创业方案"}:
        # A market or a venture is studied as a whole: its framework layers are the facets.
        subject = _bare_subject(text)
        facets = [_make(subject, "part")]
        return TopicFrame(
            topic=topic, language=language, subject=subject, topic_type=kind, type_sure=sure, facets=facets
        )
    head, tail = text, ""
    # a colon, dash or em dash — but not the colon of a URL or of 10:30
    colon = re.search(r"\s*(?:：|:(?=\s)|(?<!\d):(?![\d/]))\s*|\s*—\s*|\s+-\s+", text)
    if colon and colon.start() > 0 and colon.end() < len(text):
        head, tail = text[: colon.start()], text[colon.end() :]
    tool_tasks = _zh_tool_tasks(head) if zh and not tail else None
    chained = _zh_chained_tasks(head) if zh and not tail and tool_tasks is None else None
    if chained is not None:
        # 「如何配置网络，并检查连接？」: the first task's subject, one facet per task
        first_frame = decompose(chained[0], lang)
        return TopicFrame(
            topic=topic,
            language=language,
            subject=first_frame.subject,
            topic_type=kind,
            type_sure=sure,
            facets=[_make(t, "aspect") for t in chained][:MAX_FACETS],
        )
    if tool_tasks is not None:
        # 「如何用 find 按名称查找文件，并用 sed 批量替换文本？」: one task per tool, as after a colon
        tools, task_names = tool_tasks
        return TopicFrame(
            topic=topic,
            language=language,
            subject=_join(tools, zh),
            topic_type=kind,
            type_sure=sure,
            # each task keeps its tool: it is what tells the tasks apart, though the subject names both
            facets=[_make(t, "aspect", members=_zh_task_members(t)) for t in task_names][:MAX_FACETS],
        )
    clauses = [c for c in (_ZH_CLAUSE if zh else _EN_CLAUSE).split(head) if c and c.strip(" ,，")]
    first = clauses[0] if clauses else head
    compare = _zh_comparison if zh else _en_comparison
    comparison = compare(_clean(first)) or compare(_bare_subject(first))
    own: Facet | None = None
    if comparison:
        candidates, context = comparison
        if zh:
            candidates = _zh_shared_owner(candidates)
        subject = _join(candidates, zh)
        facets.append(_make(_comparison_name(candidates, zh), "comparison", candidates=candidates, context=context))
    else:
        subject = _bare_subject(first)
        own = _zh_main_question(first) if zh else _en_main_question(first)
        tasks = None if zh or tail or len(clauses) > 1 else _task_list(subject)
        if tasks is not None:
            # "How do I generate a key pair, export and import keys, and sign and verify files with
            # gpg?": the tasks are the facets and the tool the subject, as after a colon
            subject, items = tasks
            facets += [_make(item, "aspect", members=aspect_members(item)) for item in items]
            own = None
        elif own is not None:
            facets.append(own)
    for clause in clauses[1:]:
        facet = (_zh_question_facet if zh else _en_question_facet)(clause, subject)
        if facet:
            facets.append(facet)
    if tail:
        listed = _list_facets(tail, subject, zh)
        # "How do the pickle, marshal and shelve modules …: a, b and c": the things the subject
        # enumerates are named as surely as the aspects after the colon, so each is a facet too.
        parts = subject_parts(subject) if not comparison else [subject]
        if len(parts) >= 2:
            facets += [_make(part, "part") for part in parts]
        facets += listed
    own_name = own.name if own is not None else None
    if all(f.kind == "question" and f.name == own_name for f in facets):
        # Nothing named beyond the topic's own question: the subject's parts are the facets too.
        facets += [_make(part, "part") for part in subject_parts(subject)]
    unique: list[Facet] = []
    for facet in facets:
        if facet.name and facet.name not in {f.name for f in unique}:
            unique.append(facet)
    return TopicFrame(
        topic=topic,
        language=language,
        subject=subject,
        topic_type=kind,
        type_sure=sure,
        facets=_distinguish(unique[:MAX_FACETS], subject),
    )


__all__ = [
    "EN_STOPWORDS",
    "GENERIC_EN",
    "GENERIC_ZH",
    "KEYWORDS",
    "MAX_FACETS",
    "TOPIC_TYPES",
    "TOPIC_TYPE_EN",
    "ZH_STOP_CHARS",
    "ZH_STOP_WORDS",
    "ZH_VERBS",
    "Facet",
    "FacetKind",
    "TopicFrame",
    "TopicType",
    "aspect_members",
    "base_of_gerund",
    "decompose",
    "detect_topic_type",
    "has_cjk",
    "key_terms",
    "mentions",
    "shares_key_term",
    "stem",
    "subject_names",
    "subject_of",
    "subject_parts",
    "task_question",
    "topic_type",
]
