"""Source quality by rule: primary, secondary or tertiary from the domain and document type.

Why rules first: quality decides whether a factual claim is admissible (V040), so it must not
depend on a model being present. The rules follow the evidence schema's definitions — official
documentation, standards, government and academic originals are primary; news, professional
analysis and encyclopedias secondary; forums, Q&A sites, blogs and social media tertiary. A page
no rule knows is secondary until rated. A raw file in a knowledge base keeps the rating its header
gives (高/中/低). A model may refine the rating (``refine``) by one class at most, and never for a
local corpus of official documentation.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from autodidact.sources.snapshots import is_local_url

# (host suffix, quality, reason). First match wins.
DOMAIN_RULES: tuple[tuple[str, str, str], ...] = (
    ("docs.python.org", "primary", "official Python documentation"),
    ("peps.python.org", "primary", "Python Enhancement Proposal (the specification)"),
    ("python.org", "primary", "official Python site"),
    ("rfc-editor.org", "primary", "RFC text (standard)"),
    ("ietf.org", "primary", "IETF standards body"),
    ("w3.org", "primary", "W3C standards body"),
    ("whatwg.org", "primary", "WHATWG living standard"),
    ("iso.org", "primary", "ISO standards body"),
    ("sec.gov", "primary", "regulatory filing"),
    ("gov", "primary", "government domain"),
    ("gov.cn", "primary", "government domain"),
    ("gov.uk", "primary", "government domain"),
    ("int", "primary", "international organisation"),
    ("edu", "primary", "academic institution"),
    ("edu.cn", "primary", "academic institution"),
    ("ac.uk", "primary", "academic institution"),
    ("ac.cn", "primary", "academic institution"),
    ("arxiv.org", "primary", "original paper (preprint)"),
    ("doi.org", "primary", "original paper"),
    ("developer.mozilla.org", "primary", "reference documentation"),
    ("readthedocs.io", "primary", "project documentation"),
    ("reuters.com", "secondary", "news agency"),
    ("apnews.com", "secondary", "news agency"),
    ("bloomberg.com", "secondary", "financial news"),
    ("ft.com", "secondary", "newspaper"),
    ("nytimes.com", "secondary", "newspaper"),
    ("bbc.co.uk", "secondary", "broadcaster"),
    ("bbc.com", "secondary", "broadcaster"),
    ("xinhuanet.com", "secondary", "news agency"),
    ("people.com.cn", "secondary", "newspaper"),
    ("caixin.com", "secondary", "financial news"),
    ("lwn.net", "secondary", "professional technical reporting"),
    ("wikipedia.org", "secondary", "encyclopedia (summarises primary sources)"),
    ("baike.baidu.com", "secondary", "encyclopedia (summarises primary sources)"),
    ("britannica.com", "secondary", "encyclopedia"),
    ("zhihu.com", "tertiary", "Q&A community"),
    ("stackoverflow.com", "tertiary", "Q&A forum"),
    ("stackexchange.com", "tertiary", "Q&A forum"),
    ("reddit.com", "tertiary", "forum"),
    ("news.ycombinator.com", "tertiary", "forum"),
    ("medium.com", "tertiary", "blog platform"),
    ("substack.com", "tertiary", "newsletter/blog"),
    ("csdn.net", "tertiary", "blog platform"),
    ("jianshu.com", "tertiary", "blog platform"),
    ("weibo.com", "tertiary", "social media"),
    ("twitter.com", "tertiary", "social media"),
    ("x.com", "tertiary", "social media"),
)

_PATH_HINTS: tuple[tuple[str, str, str], ...] = (
    ("/docs/", "primary", "documentation path"),
    ("/documentation/", "primary", "documentation path"),
    ("/reference/", "primary", "reference documentation path"),
    ("/spec", "primary", "specification path"),
    ("/standard", "primary", "standard path"),
    ("/news/", "secondary", "news path"),
    ("/blog/", "tertiary", "blog path"),
    ("/forum", "tertiary", "forum path"),
    ("/wiki/", "tertiary", "wiki path"),
)

RANK = {"primary": 0, "secondary": 1, "tertiary": 2}
RAW_RATINGS = {"高": "primary", "中": "secondary", "低": "tertiary"}


def from_raw_rating(rating: str | None) -> str | None:
    """The class of a raw file's header rating (高/中/低), or None for 待评估 and anything else."""
    return RAW_RATINGS.get((rating or "").strip())


def classify(url: str, kind: str = "web", title: str = "", media_type: str | None = None) -> tuple[str, str]:
    """(quality, reason) for a source by its URL, kind (web|corpus|raw), title and media type."""
    if is_local_url(url):
        path = urlsplit(url).path
        if kind == "corpus" or path.startswith("/corpus/"):
            return "primary", "local corpus of official documentation"
        return "secondary", "document added to the knowledge base by a person"
    try:
        parts = urlsplit(url)
    except ValueError:
        return "tertiary", "unparseable URL"
    host = (parts.hostname or "").lower().rstrip(".")
    for suffix, quality, reason in DOMAIN_RULES:
        if host == suffix or host.endswith("." + suffix):
            return quality, reason
    path = parts.path.lower()
    if media_type == "application/pdf" or path.endswith(".pdf"):
        return "secondary", "published PDF document (report or paper)"
    for hint, quality, reason in _PATH_HINTS:
        if hint in path:
            return quality, reason
    low = title.lower()
    if any(w in low for w in ("documentation", "reference manual", "specification", "官方文档", "白皮书")):
        return "primary", "official documentation by title"
    if any(w in low for w in ("blog", "forum", "博客", "论坛")):
        return "tertiary", "blog or forum by title"
    return "secondary", "no rule matched: an unrated web page, treated as secondary"


def refine(rule_quality: str, model_quality: str | None, kind: str) -> str:
    """Combine the rule with a model's rating: the model may move a web source by one class at most."""
    if model_quality not in RANK or kind == "corpus":
        return rule_quality
    diff = RANK[model_quality] - RANK[rule_quality]
    step = max(-1, min(1, diff))
    names = sorted(RANK, key=RANK.__getitem__)
    return names[RANK[rule_quality] + step]
