"""Reading a proposition: what kind of statement it is, its parts, and the term that decides it.

Why: a partner that misreads the proposition asks about the wrong thing. "Remote work makes junior
engineers learn slower" is a causal claim: remote work (the cause) makes junior engineers (who)
learn slower (the effect). The effect decides the claim, so the questions must be about learning
speed, not about the word "junior". The offline reader works by rules over both languages. It
handles the usual shapes of a one-line proposition (causal verbs, comparisons, plans, questions)
and falls back to an observation (docs/debate.md, "Reading the proposition").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

Kind = Literal["causal", "comparison", "plan", "question", "observation"]

_EN_CAUSAL = re.compile(
    r"^(?P<cause>.+?)\s+(?P<verb>makes?|made(?!\s+(?:in|at|on|by|during|after|before|for|with|from|under|over)\b)|"
    r"causes?|caused(?!\s+by\b)|leads? to|led to|results? in|increases?|reduces?|"
    r"decreases?|improves?|hurts?|harms?|slows?(?: down)?|speeds? up|boosts?|lowers?|raises?|drives?|"
    r"prevents?|helps?|undermines?|damages?|kills?|"
    # the past tense of a change one thing made in another: "Switching the warehouse to LED lighting cut
    # the number of picking errors" (a trial read it as an observation about "Switching"). Verbs that are
    # often intransitive ("Sales increased after …") count only before an object's determiner.
    r"cut|reduced|lowered|raised|boosted|halved|harmed|damaged|prevented|undermined|"
    r"(?:increased|decreased|improved|doubled|slowed(?: down)?|sped up|helped|hurt|killed|drove)"
    r"(?=\s+(?:the|our|my|their|his|her|its|a|an|how|every|each|all)\b)|"
    # "Putting our dog on a fixed feeding schedule stopped him from begging" (a trial read an observation
    # about "schedule"): verbs that end or fix something, before an object
    r"(?:stopped|ended|fixed|solved|eliminated|cured|shortened|lengthened|kept)"
    r"(?=\s+(?:the|our|my|their|his|her|its|a|an|him|them|us|me|it|every|each|all)\b))\s+(?P<rest>.+)$",
    re.IGNORECASE,
)
# A pronoun is no cause: "I cut sugar and my sleep improved" says what I did, not that "I" cut sugar.
_EN_PAST_CAUSAL = re.compile(
    r"^(?:cut|reduced|lowered|raised|boosted|halved|harmed|damaged|prevented|undermined|increased|decreased|"
    r"improved|doubled|slowed(?: down)?|sped up|helped|hurt|killed|drove|stopped|ended|fixed|solved|eliminated|"
    r"cured|shortened|lengthened|kept)$",
    re.I,
)
_EN_PRONOUN = frozenset({"i", "we", "you", "they", "he", "she", "it", "someone", "somebody", "people"})
_EN_BECAUSE = re.compile(
    r"^(?P<rest>.+?)\s+(?:because(?: of)?|due to|thanks to|as a result of|since)\s+(?P<cause>.+)$", re.I
)
_EN_HEDGE = re.compile(
    r"^(?:(?:i (?:really |honestly )?(?:think|believe|feel|suspect|guess|reckon)|i'?m (?:convinced|sure)|"
    r"it seems|in my experience|honestly|frankly|clearly|i'?ve (?:noticed|seen|found)|"
    r"i (?:notice|noticed|find|found))(?: that)?,?|"
    r"maybe|perhaps)\s+",
    re.I,
)
# "Skipping breakfast is why I crash", "X is the main reason (that) Y": the cause comes first.
_EN_IS_WHY = re.compile(
    r"^(?P<cause>.+?)\s+(?:is|are|was|were)\s+(?:(?:the|a|one) (?:\w+ )?reasons? (?:why|that)|why|the reason)\s+"
    r"(?P<rest>.+)$",
    re.IGNORECASE,
)
# Verbs that only say "this brought that about": what follows is the outcome itself ("caused the rise
# in signups" claims the rise in signups), unlike "reduces bugs", whose verb says which way it goes.
_EN_OUTCOME_VERB = re.compile(r"^(?:causes?|caused|leads? to|led to|results? in|resulted in)$", re.I)
# A change named by a noun keeps what changed: "the rise in signups", "a drop of 20%" are one part.
_EN_CHANGE_NOUN = re.compile(
    r"\b(?:rise|increase|drop|decline|fall|growth|spike|jump|surge|dip|change|reduction|improvement|loss|"
    r"gain|decrease|boost|slowdown|shift)s?$",
    re.I,
)
# "Since we moved standup to 10am, fewer people miss it": a cause said first, as a time.
_EN_SINCE = re.compile(r"^(?:ever )?since (?P<cause>[^,]+),\s*(?P<rest>.+)$", re.I)
# A leading scope: "For an early-stage startup, Postgres is…", "In winter, …".
# A number's thousands comma ("8,000 miles") is no end of the scope.
_EN_LEAD_SCOPE = re.compile(
    r"^(?P<scope>(?:for|in|at|during|among|on|when|while)\s+(?:[^,]|,(?=\d{3}))+),\s+(?P<rest>.+)$", re.I
)
# A decision put as a question — "Should I sign him up for …?", 「要不要给他报…？」 — is a plan to weigh.
_EN_DECIDE = re.compile(r"^(?:should|shall)\s+(?:i|we)\s+(?P<plan>.+?)\??$", re.I)
# Other ways a decision is asked: "Should my daughter learn Python or C first?", "Which should I learn
# first, Python or C?", "Is it better to rent or to buy?", "Do we hire or train someone?", and the bare
# "Python or C first?". They weigh options for a goal; read as why-questions, they got premises about
# "what it asks about really happens … for one main reason" (a trial's decision question).
_EN_DECIDE_ASKED = re.compile(
    r"^(?:should|shall)\s+(?P<should>.+?)\??$|"
    r"^which\b[^?]{0,40}?\b(?:should|shall|do|would|to)\s+(?:i|we)\s+(?P<which>[^?]+?)\??$|"
    r"^(?:is it|would it be|will it be)\s+(?:better|wiser|smarter|worth it|best)\s+to\s+"
    r"(?P<better>[^?]+\bor\b[^?]+?)\??$|"
    r"^(?:do|did|can|could|would) (?:i|we) (?P<either>[^?]+\bor\b[^?]+?)\?$",
    re.I,
)
_EN_BARE_OPTIONS = re.compile(r"^(?P<options>[^?,;]+?\s+or\s+[^?,;]+?)\?$", re.I)
_ZH_DECIDE = re.compile(
    r"^(?:.{0,40}?[，,：:])?(?:我|我们)?(?:(?:正|还|一直)?在)?(?:考虑|琢磨|犹豫|想)?(?:到底)?(?:要不要|该不该|应不应该|是否应该|是否要)(?P<plan>.+?)[？?]?$"
)
# 「我应该先学Python还是C？」「先学Python还是先学C？」「租房还是买房好？」: options weighed for a goal.
# 「是X还是Y」 asks which cause (「不确定是浇水太多还是光照不够」) and is read before this.
_ZH_DECIDE_OPTIONS = re.compile(
    r"^(?:(?P<who>[^，,。]{0,12}?)(?:应该|应当|该|要|得))?(?:到底|究竟)?(?P<plan>(?!是)[^，,。]{1,30}还是[^，,。]{1,30}?)"
    r"(?:好|更好|比较好|合适|更合适)?(?:呢|吧|啊)?[？?]$"
)
_ZH_DECIDE_WORD = re.compile(r"应该|应当|该|先|哪个|选|好呢|更好|合适|值得|要不要|好[？?]$")
# Bare verbs a comparative adverb follows ("learn slower", "ship faster"): part of the effect.
_EN_VERBS = frozenset(
    [
        "learn",
        "learns",
        "work",
        "works",
        "run",
        "runs",
        "grow",
        "grows",
        "move",
        "moves",
        "think",
        "thinks",
        "write",
        "writes",
        "ship",
        "ships",
        "change",
        "changes",
        "respond",
        "responds",
        "perform",
        "performs",
        "code",
        "codes",
        "read",
        "reads",
        "sleep",
        "sleeps",
        "focus",
        "focuses",
        "feel",
        "feels",
        "get",
        "gets",
        "become",
        "becomes",
        "improve",
        "improves",
        "progress",
        "progresses",
        "develop",
        "develops",
        "recover",
        "recovers",
        "decide",
        "decides",
        "communicate",
        "communicates",
        "collaborate",
        "collaborates",
        "deliver",
        "delivers",
        "adapt",
        "adapts",
        "age",
        "ages",
        "heal",
        "heals",
    ]
)
_EN_COMPARISON = re.compile(
    r"^(?P<subject>.+?)\s+(?:is|are|was|were|gets?|runs?|works?|feels?)?\s*(?:an?\s+)?"
    r"(?P<effect>(?:more|less)\s+\w+|\w+er|worse)(?:\s+\w+){0,2}?\s+than\s+(?P<baseline>.+)$",
    re.IGNORECASE,
)
# "An e-bike beats the bus for getting to work": a comparison by its verb.
_EN_BEATS = re.compile(
    r"^(?P<subject>.+?)\s+(?P<verb>beats?|outperforms?|outdoes|trumps?|wins? over)\s+(?P<baseline>.+)$", re.I
)
# What a comparison is about when it follows the baseline: "… than co-op games at keeping nights calm".
_EN_CRITERION = re.compile(r"\s+((?:at|for|in|on|when it comes to)\s+\w+ing\b.*)$", re.I)
# A baseline that is the past: "than before", "than last year" — a change observed, not a comparison.
_EN_PAST = re.compile(
    r"^(?:before|it used to be|they used to|last (?:year|month|week)|(?:a few |ten |five )?years ago)\b", re.I
)
# Words that make a phrase a clause, not a scope ("in our region have mostly stopped covering…").
_EN_FINITE = re.compile(
    r"\b(?:is|are|was|were|have|has|had|do|does|did|will|would|can|could|should|may|might|must)\b|\b\w{3,}ed\b", re.I
)
_EN_AUX_QUESTION = re.compile(r"^(?:does|do|did|is|are|was|were|can|could|will|would|should)\s+(?P<rest>.+)$", re.I)
_EN_VS = re.compile(r"^(?P<subject>.+?)\s+(?:vs\.?|versus|or)\s+(?P<baseline>.+?)(?:[:,]\s*(?P<effect>.+))?$", re.I)
_EN_PLAN = re.compile(
    r"^(?:i|we)\s+(?:will|should|plan to|want to|am going to|are going to|intend to|could|need to|have to|must|"
    r"ought to|are gonna|am gonna)\s+|^(?:i'?m|we'?re) (?:going to|gonna|planning to)\s+|^let'?s\s+|"
    # a decision not yet taken: "We're considering moving the shop …", "I'm thinking about switching …"
    r"^(?:i'?m|we'?re|i am|we are|i'?ve been|we'?ve been)\s+(?:(?:seriously|now|still)\s+)?"
    r"(?:considering|thinking (?:of|about)|weighing|debating)\s+(?:whether (?:to|we should|i should)\s+)?|"
    r"^(?:i|we)\s+(?:consider|am considering|are considering)\s+|"
    r"^(?:should|shall)\s+(?:i|we)\s+",
    re.IGNORECASE,
)
# A sentence that opens with what to do: a plan, the way a revised decision is often written.
_EN_IMPERATIVE = re.compile(
    r"^(?:ask|propose|try|switch|move|start|stop|take|accept|decline|turn down|join|leave|quit|buy|rent|sell|"
    r"hire|replace|drop|keep|run|book|sign up|apply|request|negotiate|trial|pilot)\s+(?:for\s+|to\s+)?"
    r"(?:a|an|the|my|our|it|them|with|on|up|out)\b",
    re.I,
)
# "When X, Y." / "If X, Y." / "Whenever X, Y.": a condition and what follows from it.
_EN_CONDITION = re.compile(
    r"^(?:when|whenever|if|on days when|in weeks when)\s+(?P<cause>[^,?]+),\s*(?P<rest>[^?]+)$", re.I
)
# A change proposed and judged: "replacing X with Y would be better", "switching to Z would save time".
_EN_CHANGE_WOULD = re.compile(
    r"^(?:replacing|switching|moving|changing|dropping|cutting|adding|using|introducing|turning|swapping|"
    r"making|having|letting|giving)\b.+\bwould\b",
    re.I,
)
_EN_QUESTION = re.compile(
    r"^(?:what|why|how|when|where|which|who|is|are|does|do|did|can|could|should|would|will)\b", re.I
)
_EN_COMPARATIVE = re.compile(r"\b(?:more|less)\s+\w+\b|\b\w{3,}er\b|\b(?:better|worse|faster|slower)\b", re.I)
_EN_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*")
# "-er" words that are nouns or fixed words, not comparatives.
_NOT_COMPARATIVE = frozenset(
    [
        "engineer",
        "engineers",
        "developer",
        "developers",
        "manager",
        "managers",
        "number",
        "user",
        "users",
        "paper",
        "water",
        "order",
        "other",
        "over",
        "under",
        "never",
        "after",
        "ever",
        "however",
        "whether",
        "either",
        "neither",
        "together",
        "computer",
        "server",
        "layer",
        "later",
    ]
)

_ZH_CAUSAL = re.compile(
    r"^(?P<cause>.+?)(?P<verb>会让|会使|使得|导致|造成|让|使|令|有助于|阻碍|提高了?|降低了?|加快了?|减慢了?|"
    # 「把仓库的灯换成LED减少了拣货错误」: a change one thing made in another, said in the past
    r"减少了|增加了|改善了|缓解了|加重了|拉低了|拉高了|减轻了)(?P<rest>.+)$"
)
_ZH_PAST_CHANGE = frozenset({"减少了", "增加了", "改善了", "缓解了", "加重了", "拉低了", "拉高了", "减轻了"})
_ZH_BECAUSE = re.compile(
    r"^(?:因为|由于)(?P<cause>.+?)[，,](?:所以)?(?P<rest>.+)$|^(?P<rest2>.+?)是因为(?P<cause2>.+)$"
)
# 「更…」 marks the effect when present (「比开空调取暖更省钱」); else the last few characters.
_ZH_COMPARISON = re.compile(
    r"^(?P<subject>.+?)比(?P<baseline>.+?)(?P<effect>更.+)$|^(?P<subject2>.+?)比(?P<baseline2>.+?)(?P<effect2>[^，。]{1,6})$"
)
# 「比以前多了」: a change observed over time, not a comparison of two things.
_ZH_PAST = re.compile(r"^(?P<subject>.+?)比(?P<when>以前|过去|从前|原来|去年|上个月|前几年|几年前)(?P<effect>.+)$")
_ZH_SINCE = re.compile(
    r"^(?:自从(?P<cause>[^，,]+?)(?:以后|之后|以来|后)?|(?P<cause2>[^，,]{2,}?)(?:以后|之后))[，,](?P<rest>.+)$"
)
_ZH_REASON = re.compile(r"^(?P<cause>.+?)是(?P<rest>.+?)的(?:主要|根本|真正|直接)?原因$")
# 「我们在考虑明年把店搬到…」: a decision weighed, not yet taken, is a plan too (a trial read it as an
# observation and asked which reading of 「奶茶店从商场搬到大学…」 was meant).
_ZH_PLAN = re.compile(
    r"^(?:我|我们)(?:(?:正|还|一直)?在)?(?:考虑|琢磨|盘算|犹豫)?(?:打算|计划|准备|想要|想|要|应该|需要|得|必须|决定)"
    r"|^(?:我|我们)(?:(?:正|还|一直)?在)?(?:考虑|琢磨|盘算|犹豫)(?:着|一下)?"
)
# An opinion frame before the proposition itself: 「我觉得我们应该…」 is a plan.
_ZH_HEDGE = re.compile(r"^(?:我(?:觉得|认为|感觉|相信|猜|估计|发现|注意到)|在我看来|说实话|其实)[，,]?")
_ZH_QUESTION = re.compile(r"[？?]$|^(?:为什么|怎么|如何|是否|是不是|能不能|要不要)|(?:吗|呢)[？?]?$")
# Where the effect starts inside "初级工程师学得更慢": the verb before 得, or a degree word.
_ZH_EFFECT_START = re.compile(r"[\u4e00-\u9fff]得|更|越来越|变得|变|不再|很难|难以|容易|最后都|总是|老是|都会")


@dataclass(frozen=True)
class Proposition:
    """A proposition read into its parts (any part may be empty)."""

    text: str
    kind: Kind
    subject: str = ""  # who or what it is about ("junior engineers")
    effect: str = ""  # the property or effect claimed ("learn slower")
    cause: str = ""  # the cause, for a causal claim ("remote work")
    baseline: str = ""  # what it is compared with, for a comparison
    scope: str = ""  # where or when it holds, when stated ("in the first year")
    mechanism: str = ""  # how the cause works, when stated ("because they miss chance encounters")

    @property
    def key_term(self) -> str:
        """The part that decides the proposition: its effect, else its subject, else the text."""
        return self.effect or self.subject or self.text


def what_changed(p: Proposition) -> str:
    """The thing a past-tense causal claim says was changed ("cut the number of picking errors" → "the
    number of picking errors", 「减少了拣货错误」 → 「拣货错误」): what a question asks about. "the change
    in “cut the number of picking errors” really happened" read wrong in a trial. Else the key term."""
    if p.kind == "causal":
        verb = re.match(r"^(\S+(?:\s+(?:down|up))?)\s+(.+)$", p.effect)
        if verb and _EN_PAST_CAUSAL.match(verb.group(1)):
            # "stopped him from begging at the table", "kept the kids from fighting": what stopped is the
            # begging, not "him from begging"
            held = re.match(r"^(?:\S+\s+){1,3}?from\s+(.+)$", verb.group(2))
            if held and verb.group(1).lower() in {"stopped", "kept", "prevented"}:
                return held.group(1)
            return verb.group(2)
        for past in _ZH_PAST_CHANGE:
            if p.effect.startswith(past) and len(p.effect) > len(past) + 1:
                return p.effect[len(past) :]
    return p.key_term


def read(text: str, lang: str) -> Proposition:
    """The proposition's kind and parts, by rules (``lang`` is "zh" or "en")."""
    clean = " ".join(text.strip().split())
    if lang == "zh":
        return _read_zh(clean)
    return _read_en(clean)


def _strip(part: str) -> str:
    return part.strip(" .,:;!?\"'“”，。").strip()


def _scope_en(rest: str) -> tuple[str, str]:
    """Split a trailing scope ("in the first year", "at small companies") off a part."""
    # The last such phrase: "the buses on our line are late on rainy Mondays" is scoped by "on rainy
    # Mondays"; "on our line" belongs to who it is about. "in the first year of their career" is one.
    found = [
        m
        for m in re.finditer(r"\s+(?=(?:in|at|during|for|among|within|on|when|while|after|before|from)\s)", rest, re.I)
        if not _EN_CHANGE_NOUN.search(rest[: m.start()])  # "the rise in signups" is one part
    ]
    m = found[-1] if found and not _EN_FINITE.search(rest[found[-1].end() :]) else None
    if m and len(rest[: m.start()].split()) >= 1:
        head, scope = rest[: m.start()], _strip(rest[m.end() :])
        # "right after the billing run": the word that says how close belongs to the scope, not the effect
        close = re.search(r"\s+(right|just|shortly|soon|immediately|straight|long)$", head, re.I)
        if close and len(head[: close.start()].split()) >= 1:
            head, scope = head[: close.start()], f"{close.group(1)} {scope}"
        return head, scope
    return rest, ""


def _read_en(text: str) -> Proposition:
    body = _EN_HEDGE.sub("", text.rstrip(".!"), count=1)
    there = re.match(r"^there (?:are|is|were|was|have been|has been)\s+(?P<rest>.+)$", body, re.I)
    if there and not text.endswith("?"):
        # "There are fewer code review comments on Fridays": an observation of what there is, no subject
        rest, scope = _scope_en(there.group("rest"))
        return Proposition(text, "observation", effect=_strip(rest), scope=scope)
    unsure = _EN_UNSURE.match(text.strip())
    if unsure and not _EN_WHICH_CAUSE.match(body):
        asked = _strip(unsure.group("claim"))
        claim = _read_en(asked)
        return Proposition(text, "question", subject=claim.subject, effect=claim.effect or asked,
                           cause=claim.cause, baseline=claim.baseline, scope=claim.scope)  # fmt: skip
    which = _EN_WHICH_CAUSE.match(body)
    if which:
        return Proposition(text, "question", effect=_strip(which.group("seen")), cause=_strip(which.group("causes")))
    cond = _EN_CONDITION.match(body)
    if cond and not text.endswith("?"):
        # "When I meal-prep on Sunday, I order less takeout during the week" states a claim: "when"
        # opens its condition, not a question (a trial's claim was read as one)
        return _cause_first(text, cond.group("cause"), cond.group("rest"), "")
    decide = _EN_DECIDE.match(body)
    if decide:
        return Proposition(text, "plan", effect=_strip(decide.group("plan")))
    weighed = _EN_DECIDE_ASKED.match(body)
    bare = _EN_BARE_OPTIONS.match(body) if not _EN_QUESTION.match(body) else None
    if weighed or (bare and len(body.split()) <= 10 and not _EN_CAUSAL.match(body)):
        if weighed and weighed.group("should"):
            # "Should my daughter learn …": the question's own order reads right ("my daughter learn …" did not)
            return Proposition(text, "plan", effect=_strip(_lower_first(body)))
        named = weighed.group("which", "better", "either") if weighed else (bare.group("options"),) if bare else ()
        return Proposition(text, "plan", effect=_strip(next((g for g in named if g), body)))
    if text.endswith("?") or _EN_QUESTION.match(text):
        inner = _EN_AUX_QUESTION.match(body.rstrip("?"))
        if inner:  # "Does X make kids better at Y?" asks whether a claim holds: read the claim
            claim = _read_en(_strip(inner.group("rest")))
            if claim.kind in {"causal", "comparison"} or claim.effect:
                return Proposition(text, "question", subject=claim.subject, effect=claim.effect, cause=claim.cause,
                                   baseline=claim.baseline, scope=claim.scope)  # fmt: skip
        return Proposition(text, "question", subject=_strip(_topic_words(body)))
    if _EN_PLAN.match(body):
        return Proposition(text, "plan", effect=_strip(_EN_PLAN.sub("", body, count=1)))
    if _EN_IMPERATIVE.match(body):
        # "ask for a 6-month tech-lead trial without direct reports": a revised plan written as what to do
        return Proposition(text, "plan", effect=_strip(body))
    lead = _EN_LEAD_SCOPE.match(body)
    lead_scope = ""
    if lead:
        body, lead_scope = lead.group("rest"), lead.group("scope")
    if _EN_CHANGE_WOULD.match(body):
        # "replacing the Monday meeting with a written update would be better": a change proposed and
        # judged against the current way — a plan, not an observation of "would be"
        return Proposition(text, "plan", effect=_strip(body), scope=lead_scope)
    m = _EN_IS_WHY.match(body)
    if m:
        return _cause_first(text, m.group("cause"), m.group("rest"), lead_scope)
    reason = re.match(r"^(?P<main>.+?),\s+because\s+(?P<why>.+)$", body, re.I)
    if reason:
        # "Our kids fight less on days when they play outside, because the running burns off …": the
        # reason after a comma is how the claim works (its mechanism), not its cause
        found = _with_reason(_read_en(reason.group("main")), _EN_WHEN, text, reason.group("why"))
        if found is not None:
            return found
    since = _EN_SINCE.match(body)
    if since:
        return _cause_first(text, since.group("cause"), since.group("rest"), lead_scope)
    each = _EN_EACH_TIME.match(body)
    if each:
        # "Our hens lay fewer eggs every winter we leave the coop unlit" reads like 「每次X，Y」: Y follows each
        # time X happens (a trial read "an observation about our hens lay: fewer eggs every winter we …")
        main = _read_en(each.group("main"))
        if main.kind == "observation" and main.effect and not main.scope:
            every = _strip(each.group("every"))
            scope = every if re.match(r"every (?!time)", every, re.I) else lead_scope
            return Proposition(text, "causal", subject=_lower_first(main.subject), effect=main.effect,
                               cause=_strip(each.group("cause")), scope=scope)  # fmt: skip
    m = _EN_CAUSAL.match(body)
    if m and _EN_PAST_CAUSAL.match(m.group("verb")) and m.group("cause").lower() in _EN_PRONOUN:
        m = None
    if m:
        rest, mechanism = _mechanism_en(m.group("rest"))
        rest, scope = _scope_en(rest)
        if m.group("verb").lower() in {"stopped", "kept", "prevented"} and scope.lower().startswith("from "):
            rest, scope = f"{rest} {scope}", ""  # "stopped her from peeing": what stopped, not where
        subject, effect = _split_effect_en(rest)
        if effect and _is_comparative(effect.split()[-1]) and _EN_CRITERION.match(" " + scope):
            effect, scope = f"{effect} {scope}", ""  # "better at planning homework": what it is better at
        if _EN_OUTCOME_VERB.match(m.group("verb")):
            effect, subject = rest, ""  # "caused the rise in signups": the outcome, not "caused the rise"
        elif m.group("verb").lower().rstrip("s") not in {"make", "made"}:
            # "X reduces bugs", "X slows teams down more than …": the verb says what changes and how;
            # a comparative inside its object ("more than it improves quality") is not the effect.
            effect, subject = f"{m.group('verb').lower()} {rest}".strip(), ""
        return Proposition(text, "causal", subject=subject, effect=_strip(effect), cause=_strip(m.group("cause")),
                           scope=scope, mechanism=mechanism)  # fmt: skip
    m = _EN_BECAUSE.match(body)
    if m:
        rest, scope = _scope_en(m.group("rest"))
        subject, effect = _split_effect_en(rest)
        return Proposition(text, "causal", subject=subject if effect else "", effect=effect or _strip(rest),
                           cause=_strip(m.group("cause")), scope=scope or lead_scope)  # fmt: skip
    m = _EN_MORE_WHERE.match(body)
    if m:
        # "Our choir drifts flat in the Thursday rehearsals much more than on Sunday mornings" compares two
        # conditions on what happens: a trial read it as an observation whose key term was "much more than"
        who, effect = _who_and_verb(m.group("head"))
        if effect:
            return Proposition(text, "comparison", subject=_strip(_NO_PREP.sub("", m.group("where"))),
                               effect=_strip(effect), baseline=_strip(_NO_PREP.sub("", m.group("base"))),
                               scope=f"for {_lower_first(who)}" if who else lead_scope)  # fmt: skip
    m = _EN_COMPARISON.match(body)
    if m and _is_comparative(m.group("effect")):
        baseline, effect = m.group("baseline"), m.group("effect")
        criterion = _EN_CRITERION.search(baseline)
        if criterion:
            baseline, effect = baseline[: criterion.start()], f"{effect} {criterion.group(1)}"
        baseline, scope = _scope_en(baseline)
        if _EN_PAST.match(baseline):
            return Proposition(text, "observation", subject=_strip(m.group("subject")),
                               effect=_strip(f"{effect} than {baseline}"), scope=scope or lead_scope)  # fmt: skip
        subject = m.group("subject")
        passive = re.search(r"\s+((?:gets?|got|are|is|were|was)\s+\w+ed(?:\s+(?:with|by|in)(?:\s+far)?)?)$", subject)
        if passive:  # "Decisions … get reversed more often": what happens more often is the effect
            subject, effect = subject[: passive.start()], f"{passive.group(1)} {effect}"
        return Proposition(text, "comparison", subject=_strip(subject), effect=_strip(effect),
                           baseline=_strip(baseline), scope=scope or lead_scope)  # fmt: skip
    m = _EN_BEATS.match(body)
    if m:
        baseline, effect = m.group("baseline"), m.group("verb").lower()
        criterion = _EN_CRITERION.search(baseline)
        if criterion:
            baseline, effect = baseline[: criterion.start()], f"{effect} {m.group('baseline')}"
        return Proposition(text, "comparison", subject=_strip(m.group("subject")), effect=_strip(effect),
                           baseline=_strip(baseline), scope=lead_scope)  # fmt: skip
    m = _EN_VS.match(body)
    if (m and " vs" in f" {body.lower()}") or (m and " versus " in body.lower()):
        return Proposition(text, "comparison", subject=_strip(m.group("subject")), baseline=_strip(m.group("baseline")),
                           effect=_strip(m.group("effect") or ""))  # fmt: skip
    rest, scope = _scope_en(body)
    subject, effect = _split_effect_en(rest)
    return Proposition(text, "observation", subject=subject, effect=effect, scope=scope or lead_scope)


_PREPS = r"(?:in|on|at|during|after|before|when|while|with|without|under)"
_EN_MORE_WHERE = re.compile(
    rf"^(?P<head>.+?)\s+(?P<where>{_PREPS}\s+.+?)\s+(?:(?:much|far|a lot|way|even)\s+)?(?:more|less)"
    rf"(?:\s+(?:often|badly|strongly|easily))?\s+than\s+(?P<base>{_PREPS}\s+.+)$",
    re.I,
)
# "in the Thursday rehearsals" and "on Sunday mornings" name the two sides; "when …" keeps its word.
_NO_PREP = re.compile(r"^(?:in|on|at|during)\s+", re.I)


def _who_and_verb(head: str) -> tuple[str, str]:
    """("Our community choir drifts flat") → ("Our community choir", "drifts flat"): who it is about and
    what they do; the verb is the first word after the subject that reads as one ("drifts", "fight")."""
    words = head.split()
    for i in range(1, len(words)):
        word, before = words[i], words[i - 1].lower()
        if (
            re.fullmatch(r"[a-z]{3,}s", word) and not word.endswith(("ss", "us", "is"))
            and before not in _EN_NOT_VERB
            and (not before.endswith("s") or before.endswith(("ss", "us")))  # "choir drifts", "bus runs"
        ):  # fmt: skip
            return " ".join(words[:i]), " ".join(words[i:])
    return _split_effect_en(head)


def _cause_first(text: str, cause: str, rest: str, lead_scope: str) -> Proposition:
    """A causal claim whose cause is said first ("X is why Y", "Since X, Y"): Y read into its parts."""
    rest, scope = _scope_en(rest)
    subject, effect = _split_effect_en(rest)
    return Proposition(text, "causal", subject=subject if effect else "", effect=_strip(effect or rest),
                       cause=_strip(cause), scope=scope or lead_scope)  # fmt: skip


def _mechanism_en(rest: str) -> tuple[str, str]:
    """Split a "because …" clause off the effect: it is the proposed mechanism, a premise to test."""
    m = re.search(r"\s+(?:because|since|as|by)\s+(.+)$", rest, re.I)
    if m and m.start() > 0:
        return rest[: m.start()], _strip(m.group(1))
    return rest, ""


def _is_comparative(word: str) -> bool:
    low = word.lower()
    if low == "worse":
        return True
    # A capitalised "-er" word is a name ("December", "Docker"), not a comparative.
    if word[:1].isupper() and not word.isupper() and low.endswith("er") and low not in {"better", "faster"}:
        return False
    return low.startswith(("more ", "less ")) or (low.endswith("er") and low not in _NOT_COMPARATIVE)


def _split_effect_en(rest: str) -> tuple[str, str]:
    """("junior engineers learn slower") → ("junior engineers", "learn slower"): the effect is the
    comparative with the verb before it; without one, the text after the first verb-like word."""
    words = rest.split()
    for i, word in enumerate(words):
        bare = re.sub(r"[^A-Za-z]", "", word)
        if (bare and i > 0 and _is_comparative(bare)) or word.lower() in {"more", "less"}:
            start = i
            if i >= 1 and words[i - 1].lower() in {"much", "far"}:
                start = i - 1
            if start >= 1 and words[start - 1].lower() in _EN_VERBS:
                start -= 1
            elif start >= 2 and _verb_after(words[start - 2], words[start - 1]):
                start -= 1  # "Our hens lay fewer eggs": the verb goes with the effect (a trial's read "hens lay:")
            subject = " ".join(words[:start]) if start > 0 else ""
            effect = " ".join(words[start:])
            hedged = re.search(r"\s+(?:seems?|seemed|appears?|appeared|tends?|tended) to (\w+)$", subject, re.I)
            if hedged:  # "my sourdough seems to rise faster": the verb belongs to the effect, the hedge to no part
                subject, effect = subject[: hedged.start()], f"{hedged.group(1)} {effect}"
            subject = re.sub(r"\s+(?:seems?|seemed|appears?|appeared|tends?|tended) to$", "", subject, flags=re.I)
            return _strip(subject), _strip(effect)
    m = re.search(r"\b(is|are|was|were|become|becomes|feel|feels|seem|seems|get|gets|has|have)\b", rest, re.I)
    if m and m.start() > 0:
        return _strip(rest[: m.start()]), _strip(rest[m.start() :])
    # "Our support tickets spike every month": after a plural noun, the first word that is no function
    # word is the verb, and what happens is the effect (a trial read it "about Our support", and asked
    # which reading of "support" was meant)
    for i in range(2, len(words)):
        before, word = words[i - 1], words[i]
        if (
            re.fullmatch(r"[a-z]+s", before) and not before.endswith("ss")
            and re.fullmatch(r"[a-z]+", word) and word not in _EN_NOT_VERB
            and not word.endswith(("ly", "s", "ed"))  # a plural subject's verb is bare: "tickets spike"
        ):  # fmt: skip
            return _strip(" ".join(words[:i])), _strip(" ".join(words[i:]))
    return _strip(rest), ""


def _verb_after(before: str, word: str) -> bool:
    """Whether ``word`` is the verb of the noun ``before``: a bare word after a plural noun ("hens
    lay", "plants give") or a word in -s after a singular one ("bread rises")."""
    if not re.fullmatch(r"[a-z]+", word) or word in _EN_NOT_VERB or before.lower() in _EN_NOT_VERB:
        return False
    if re.fullmatch(r"[a-z]+s", before) and not before.endswith(("ss", "us", "is")):
        return not word.endswith(("ly", "s", "ed"))
    return (
        re.fullmatch(r"[A-Za-z]+", before) is not None
        and len(word) > 3
        and word.endswith("s")
        and not word.endswith(("ss", "us", "is"))
        and word not in {"does", "has", "was", "goes"}
    )


# Words that follow a plural noun without being its verb ("tickets on Mondays", "kids of friends").
_EN_NOT_VERB = frozenset(
    [
        "a", "an", "the", "of", "on", "in", "at", "for", "to", "from", "with", "by", "and", "or", "but", "as",
        "than", "that", "which", "who", "whose", "this", "these", "those", "my", "our", "your", "their", "his",
        "her", "its", "all", "each", "every", "some", "any", "many", "much", "more", "most", "few", "less",
        "least", "no", "not", "very", "so", "too", "also", "only", "just", "even", "still", "really",
    ]
)  # fmt: skip


def _as_question(text: str) -> str:
    """The person's question as they asked it, ending in its question mark."""
    flat = " ".join(text.split()).rstrip("?？. ")
    return _lower_first(flat) + "?" if flat else text


def _topic_words(question: str) -> str:
    words = [w for w in _EN_WORD.findall(question) if len(w) > 2]
    return " ".join(words[1:]) if len(words) > 1 else question


# 「对零基础的成年人来说，…」: who or where the claim holds, said first.
# 「在我们小区，…」: a place said before a comma is the scope too, with or without 中/里/上.
_ZH_LEAD_SCOPE = re.compile(
    r"^(?:(?:对于?|在)(?P<scope>[^，,]{1,20}?)(?:来说|而言|中|里|上)|在(?P<place>[^，,]{1,12}))[，,]\s*(?P<rest>.+)$"
)
# 「加班越多，团队的线上故障反而越多」: the more of one, the more of the other — a causal claim.
_ZH_THE_MORE = re.compile(r"^(?P<cause>[^，,]+?越[^，,]{1,4})[，,]\s*(?P<rest>.+越.+)$")
_ZH_CAUSE_TAIL = re.compile(r"(?:总是|总|都|也|会|就)$")


def _read_zh(text: str) -> Proposition:
    found = _read_zh_body(text)
    if found.cause and not re.search(re.escape(found.cause) + r"(?:的时候|以后|之后|后|时)?[，,]", text):
        # 「熬夜会让我…」: the 会 before a verb is no part of the cause; one that ends a clause is a
        # noun's last character (「开完周一早会，…」), and stays
        found = replace(found, cause=_ZH_CAUSE_TAIL.sub("", found.cause) or found.cause)
    return found


# 「…发黄，我不确定是浇水太多还是光照不够」, "…, and I'm not sure whether it's X or Y": a pattern and
# the candidate causes the person weighs — a question about which cause, not an observation.
_ZH_WHICH_CAUSE = re.compile(
    r"^(?P<seen>.+?)[，,]\s*(?:我)?(?:不确定|不知道|说不清|搞不清)(?:是|到底是)?(?P<causes>.+还是.+)$"
)
# "I'm not sure whether the discount actually keeps members, or just pays people who would renew
# anyway": a question whether a claim holds, with its rival; the claim is read for its parts.
_EN_UNSURE = re.compile(
    r"^(?:i'?m|i am) (?:not (?:really |quite )?sure|unsure|not certain|wondering) (?:whether|if) (?P<claim>.+?)"
    r"(?:,?\s+or (?:whether |if )?(?P<rival>.+))?[.?]?$",
    re.I,
)
_ZH_UNSURE = re.compile(
    r"^(?:我)?(?:不太确定|不大确定|不确定|拿不准|说不准|不知道)[：:，,]?(?P<claim>.+?)(?:[，,]\s*还是(?P<rival>.+))?[。？?]?$"
)
_EN_WHICH_CAUSE = re.compile(
    r"^(?P<seen>.+?),?\s+(?:and|but)?\s*i'?m not sure (?:whether|if) (?:it'?s|it is)\s+(?P<causes>.+?\s+or\s+.+)$", re.I
)


def _read_zh_body(text: str) -> Proposition:
    body = _ZH_HEDGE.sub("", text.rstrip("。！!"), count=1)
    decide = _ZH_DECIDE.match(body)
    if decide:
        return Proposition(text, "plan", effect=_strip(decide.group("plan")))
    unsure = _ZH_UNSURE.match(body)
    if unsure and not _ZH_WHICH_CAUSE.match(body):
        # 「每天喝咖啡是不是让我下午更困」 asks whether 「每天喝咖啡让我下午更困」 holds
        asked = re.sub(r"(?:到底|究竟)?(?:是不是|会不会|有没有|能不能)", "", _strip(unsure.group("claim")))
        asked = re.sub(r"[，,]\s*(?=让|使|会让|导致)", "", asked)
        doubted = _read_zh_body(asked)
        if doubted.cause and not doubted.effect:  # 「…让我没那么焦虑」: what the cause does is the effect
            doubted = replace(doubted, subject="", effect=doubted.subject)
        return Proposition(text, "question", subject=doubted.subject, effect=doubted.effect or asked,
                           cause=doubted.cause, baseline=doubted.baseline, scope=doubted.scope)  # fmt: skip
    which = _ZH_WHICH_CAUSE.match(body)
    if which:
        return Proposition(text, "question", effect=_strip(which.group("seen")), cause=_strip(which.group("causes")))
    options = _ZH_DECIDE_OPTIONS.match(body)
    if options and _ZH_DECIDE_WORD.search(body) and not re.search(r"原因|因为|导致|不确定|不知道", body):
        who = options.group("who") or ""
        who = "" if who in _ZH_PRONOUN or re.fullmatch(r"(?:我|我们)(?:到底|究竟)?", who) else who
        return Proposition(text, "plan", effect=_strip(who + options.group("plan")))
    reason = re.match(r"^(?P<main>.+?)[，,](?:这是)?因为(?P<why>.+)$", body)
    if reason and not _ZH_QUESTION.search(text):
        # 「…的日子，第二天空腹血糖明显更低，因为饭后走动让肌肉…」: the reason is the mechanism
        found = _with_reason(_read_zh_body(reason.group("main")), _ZH_WHEN, text, reason.group("why"))
        if found is not None:
            return found
    lead = _ZH_LEAD_SCOPE.match(body)
    if lead and not _ZH_QUESTION.search(text):
        inner = _read_zh_body(lead.group("rest"))
        return replace(inner, text=text, scope=lead.group("scope") or lead.group("place"))
    more = _ZH_THE_MORE.match(body)
    if more and not _ZH_QUESTION.search(text):
        rest = more.group("rest")
        cut = re.search(r"(?:反而|也|就)?越", rest)
        subject, effect = (rest[: cut.start()], rest[cut.start() :]) if cut and cut.start() > 0 else ("", rest)
        return Proposition(text, "causal", subject=subject, effect=effect, cause=more.group("cause"))
    if _ZH_QUESTION.search(text):
        asked = re.sub(r"^(?:为什么|怎么|如何|是否)", "", body.rstrip("？?吗呢"))
        claim = _read_zh_body(asked) if asked and not _ZH_QUESTION.search(asked) else None
        if claim is not None and claim.kind in {"causal", "comparison"}:  # 「X会让Y下降吗？」 asks about a claim
            return Proposition(text, "question", subject=claim.subject, effect=claim.effect, cause=claim.cause,
                               baseline=claim.baseline)  # fmt: skip
        return Proposition(text, "question", subject=asked)
    if _ZH_PLAN.match(body):
        return Proposition(text, "plan", effect=_ZH_PLAN.sub("", body, count=1))
    every = _ZH_EVERY.match(body)
    if every:
        # 「每次开完周一早会，我一上午都没什么产出」: a pattern tied to a repeated event, as "whenever X, Y" is
        # in English — the event is the cause, and what follows it is the effect
        subject, effect = _split_effect_zh(every.group("rest"))
        return Proposition(text, "causal", subject=subject if effect else "", effect=effect or every.group("rest"),
                           cause=every.group("cause"))  # fmt: skip
    then = _ZH_THEN.match(body)
    if then:
        # 「晚饭后带狗多遛半小时，它夜里就不怎么叫了」: the clause with 就 is what follows from the first
        subject, effect = then.group("subject") or "", then.group("effect")
        return Proposition(text, "causal", subject=subject.strip(), effect=effect, cause=then.group("cause"))
    since = _ZH_SINCE.match(body)
    why = re.search(r"[，,](?:因为|由于)(.+)$", since.group("rest")) if since else None
    if since and (since.group("cause") or why):
        # 「自从换了新的排班，客户投诉更高了」: what came after the change, said as its effect; a bare
        # 「用AI写代码之后，我反而更累了」 is an observation of a change, unless a reason says why
        rest, mechanism = since.group("rest"), ""
        if why:  # 「…交流明显变少了，因为大家不再需要代收快递」: the reason is a proposed mechanism
            rest, mechanism = rest[: why.start()], why.group(1)
        subject, effect = _split_effect_zh(rest)
        return Proposition(text, "causal", subject=subject if effect else "", effect=effect or rest,
                           cause=since.group("cause") or since.group("cause2"), mechanism=mechanism)  # fmt: skip
    m = _ZH_REASON.match(body)
    if m:
        subject, effect = _split_effect_zh(m.group("rest"))
        return Proposition(text, "causal", subject=subject if effect else "", effect=effect or m.group("rest"),
                           cause=m.group("cause"))  # fmt: skip
    m = _ZH_BECAUSE.match(body)
    if m:
        cause = m.group("cause") or m.group("cause2") or ""
        rest = m.group("rest") or m.group("rest2") or ""
        subject, effect = _split_effect_zh(rest)
        return Proposition(text, "causal", subject=subject, effect=effect, cause=cause.strip("，, "))
    m = _ZH_CAUSAL.match(body)
    if m:
        verb, rest = m.group("verb"), m.group("rest")
        if m.group("cause") in _ZH_PRONOUN and verb in _ZH_PAST_CHANGE:
            # 「我减少了喝咖啡」 says what I did: the pronoun is no cause
            return Proposition(text, "observation", subject=m.group("cause"), effect=verb + rest)
        if verb.startswith(("提高", "降低", "加快", "减慢", "有助于", "阻碍")) or verb in _ZH_PAST_CHANGE:
            return Proposition(text, "causal", effect=verb + rest, cause=m.group("cause"))
        if verb in {"导致", "造成"}:  # what follows is the outcome itself
            return Proposition(text, "causal", effect=rest, cause=m.group("cause"))
        subject, effect = _split_effect_zh(rest)
        return Proposition(text, "causal", subject=subject, effect=effect, cause=m.group("cause"))
    past = _ZH_PAST.match(body)
    if past:
        return Proposition(text, "observation", subject=past.group("subject").strip(),
                           effect=f"比{past.group('when')}{past.group('effect')}")  # fmt: skip
    m = _ZH_COMPARISON.match(body)
    if m:
        # 「坐高铁其实比坐飞机…」: 其实 says how sure the person is, not what is compared
        subject = re.sub(r"(?:其实|实际上|确实|真的|明显)+$", "", (m.group("subject") or m.group("subject2")).strip())
        baseline = (m.group("baseline") or m.group("baseline2")).strip()
        effect = (m.group("effect") or m.group("effect2")).strip()
        split = _zh_compared(body[body.index("比") + 1 :])
        if split is not None:
            baseline, effect = split
        measure = re.search(r"(?:看书|学习|工作|做事)?(?:效率|速度|成本|质量|效果|价格|成绩|体验|产出)$", subject)
        if measure and len(effect) <= 3:
            # 「在图书馆看书效率比在家高」: the places are compared; 「高」 is said of the efficiency
            subject, effect = subject[: measure.start()] or subject, measure.group(0) + effect
        verb = re.search(r"[\u4e00-\u9fff]得$", baseline)
        if verb and len(baseline) > 2:
            # 「…比在平板上看PDF记得更牢」: 「记得」 is how the effect is said, not part of the baseline
            baseline, effect = baseline[: verb.start()], verb.group(0) + effect
        lead = re.match(r"^(?P<scope>[^，,]{2,20}(?:的时候|时|期间|以后|之后|里|中))[，,](?P<rest>.+)$", subject)
        scope = ""
        if lead:  # 「备考的时候，用纸质书复习…」: when it holds, not what is compared
            subject, scope = lead.group("rest"), lead.group("scope")
        return Proposition(text, "comparison", subject=subject, baseline=baseline, effect=effect, scope=scope)
    tied = _ZH_WHEN.match(body)
    if tied:  # 「把周报改成三句话之后，按时交的人明显多了」: what was seen after the change is the effect
        return Proposition(text, "observation", effect=tied.group("effect"), scope=tied.group("cause"))
    subject, effect = _split_effect_zh(body)
    return Proposition(text, "observation", subject=subject, effect=effect)


# What a comparison says of its two sides: a degree word (「更」「还要」) or a predicate. One character
# counts only at the clause's end or before 了/得/些/点/多/很, so 「坐高铁」 is not cut at 「高」.
_ZH_DEGREE = re.compile(r"更加|更|还要|还|要|稍微|略|远远|明显|反而")
_ZH_PREDICATE = re.compile(
    r"方便|划算|便宜|省钱|省事|省时|省心|适合|有效|管用|容易|困难|舒服|健康|安全|稳定|重要|有用|靠谱|值得|轻松|"
    r"简单|复杂|清楚|专注|高效|低效|实惠|合算|麻烦|辛苦|开心|自在|灵活|可靠|好用|难用|贵|"
    r"(?:[快慢高低好差多少大小强弱累难好])(?=$|[了得些点多很太])"
)


def _zh_compared(after: str) -> tuple[str, str] | None:
    """Baseline and effect of the clause after 比, or None when no predicate marks where B ends.

    A lazy pattern split 「租房比买房划算」 as 「买」 against 「房划算」: the end of the baseline is where
    the first thing said *of* it begins, and Chinese marks that with a degree word or a predicate.
    A trial's 「…比在家高，可在咖啡馆反而是最低的」 had the next clause read as the baseline.
    """
    clause = re.split(r"[，,。；;！!？?]", after, maxsplit=1)[0]
    for pattern in (_ZH_DEGREE, _ZH_PREDICATE):
        hit = next((h for h in pattern.finditer(clause) if h.start() >= 1), None)
        if hit is not None:
            return clause[: hit.start()].strip(), clause[hit.start() :].strip()
    return None


# "… on days when they play outside", 「散步二十分钟的日子，…」: the condition the claim ties the effect to.
_EN_WHEN = re.compile(
    r"^(?P<effect>.+?)\s+(?:(?:on|in) (?:the )?(?:days|nights|weeks|months)\s+(?:when|that)|whenever|when|after)\s+"
    r"(?P<cause>.+)$",
    re.I,
)
# "Y whenever X", "Y every time X", "Y every winter (that) we X": Y follows each time X happens; X is a
# clause (a person or a thing doing something), not "every winter" alone.
_EN_EACH_TIME = re.compile(
    r"^(?P<main>.+?)\s+(?P<every>whenever|every time|each time|every (?:winter|summer|spring|autumn|fall|year|"
    r"season|month|week|day|night|morning|evening|weekend))\s+(?:that\s+)?"
    r"(?P<cause>(?:we|i|they|you|he|she|it|the|our|my|their|his|her|someone|people)\b.{3,})$",
    re.I,
)
# 「每次/每当X（以后），Y」: Y follows each time X happens.
_ZH_EVERY = re.compile(
    r"^(?:每次|每当|每回|每逢|只要)(?P<cause>[^，,。]{2,30}?)(?:的时候|以后|之后|后|时)?[，,](?P<rest>[^。]{2,})$"
)
# 「A，（它/我）就B」: A, and then B follows — a condition and its consequence.
_ZH_THEN = re.compile(r"^(?P<cause>[^，,。]{2,40})[，,](?P<subject>[^，,。就]{0,6})就(?P<effect>[^，,。]{2,40})$")
_ZH_WHEN = re.compile(r"^(?P<cause>[^，,]+?)(?:的日子|的时候|那天|的那几天|以后|之后)[，,](?P<effect>.+)$")


def _with_reason(main: Proposition, when: re.Pattern[str], text: str, why: str) -> Proposition | None:
    """The claim of the main clause with ``why`` as its mechanism; None when it states no claim."""
    why = _strip(why)
    if main.kind in {"causal", "comparison"}:
        return replace(main, text=text, mechanism=why)
    tied = when.match(main.text)
    if tied is None:
        return None
    effect = _strip(tied.group("effect"))
    return Proposition(text, "causal", effect=effect, cause=_strip(tied.group("cause")), mechanism=why)


def _split_effect_zh(rest: str) -> tuple[str, str]:
    """("初级工程师学得更慢") → ("初级工程师", "学得更慢")."""
    m = _ZH_EFFECT_START.search(rest)
    if m and m.start() > 0:
        start = m.start()
        if m.group(0) in {"变", "变得"}:
            # 「交流明显变少了」: what changes is 交流, graded by an adverb — the effect keeps the noun
            adverb = re.search(r"(?:明显|显著|逐渐|慢慢|大大|一下子)$", rest[:start])
            start = max(0, adverb.start() - 2) if adverb else start
        elif m.group(0) in {"更", "越来越"}:
            # 「注意力消耗更大」「孩子近视越来越早」: a degree word grades the word before it — the effect
            # is 「消耗更大」「近视越来越早」, not 「更大」「越来越早」. A time before it (「我第二天更累」)
            # is taken whole: two characters back cut it in half (「二天更累」).
            when = _ZH_WHEN_WORD.search(rest[:start])
            start = when.start() if when else max(0, start - 2)
        # 「同事们晚上反而走得更晚了」: an adverb before the effect grades it, and belongs to it
        adverb = _ZH_ADVERB_TAIL.search(rest[:start])
        if adverb and adverb.start() > 0:
            start = adverb.start()
        return rest[:start], rest[start:]
    # No mark of the effect: the predicate starts at a negation or a word that quantifies it
    # (「我一上午都没什么产出」「整个团队的产出都不高」). A thing owned before it (「…的产出」) is what is
    # said to be low, and belongs with the predicate, so the effect names it.
    m = _ZH_PREDICATE_START.search(rest)
    if m and m.start() > 0 and rest[: m.start()] not in _ZH_PRONOUN:
        # 「让我没那么焦虑」: after a pronoun the whole clause is the effect ("I am less anxious")
        start = m.start()
        owned = re.search(r"的([\u4e00-\u9fff]{1,4})$", rest[:start])
        if owned:
            start = owned.start(1)
        return rest[:start], rest[start:]
    return rest, ""


# Where a predicate starts when nothing marks the effect: 都/全/几乎/基本 before a negation or 很,
# or a negation itself (「没什么产出」「不高」), never a first character.
_ZH_PREDICATE_START = re.compile(
    r"(?:都|全都|几乎|基本上?)?(?:没(?:有|什么)?|不(?:太|怎么|大)?|很|几乎没|特别|非常|挺|格外|相当|总是)"
)

_ZH_WHEN_WORD = re.compile(r"(?:第?[一二三四五六七八九十两几\d]*[天周月年]|上午|下午|晚上|早上|夜里|周末|平时)$")
_ZH_PRONOUN = frozenset({"我", "我们", "你", "你们", "他", "她", "它", "他们", "她们", "大家"})
_ZH_ADVERB_TAIL = re.compile(r"(?:反而|却|竟然|居然|反倒|明显|一直|总是|经常|往往)+$")


# "X makes me sleep worse": the effect is stated with its subject, "I sleep worse", not "me sleep worse".
_NOMINATIVE = {"me": "I", "us": "we", "him": "he", "her": "she", "them": "they"}


def plain_reading(p: Proposition, lang: str) -> str:
    """The proposition stated back in plain words, so the person can correct a misreading."""
    if lang == "zh":
        if p.kind == "causal":
            who = f"对「{p.subject}」来说，" if p.subject else ""
            claim = f"{who}「{p.cause}」导致「{p.effect or p.text}」"
            return (
                f"我的理解：这是一个因果主张——{claim}。关键在于「{what_changed(p)}」是否真的变了、又是不是因为「{p.cause}」。"
                if what_changed(p) != p.key_term
                else f"我的理解：这是一个因果主张——{claim}。关键在于「{p.key_term}」。"
            )
        if p.kind == "comparison":
            where = f"对「{p.scope}」来说，" if p.scope else ""
            claim = f"{where}「{p.subject}」与「{p.baseline}」相比，「{p.effect or '差异'}」"
            return f"我的理解：这是一个比较——{claim}。关键在于「{p.key_term}」。"
        if p.kind == "plan" and "还是" in p.effect:
            return f"我的理解：这是一个在几个选项之间的选择——{p.effect}。"
        if p.kind == "plan":
            return f"我的理解：这是一个打算——{p.effect or p.text}。"
        if p.kind == "question" and "还是" in p.cause:
            first, _, second = p.cause.partition("还是")
            return f"我的理解：这是一个问题——「{p.subject}{p.effect}」是因为「{first}」还是「{second}」（或别的原因）。"
        if p.kind == "question" and p.cause:
            return f"我的理解：这是一个问题——「{p.cause}」是否、又为什么会让「{p.subject}{p.effect}」。"
        if p.kind == "question":
            return f"我的理解：这是一个问题，关于「{p.subject or p.text}」。"
        if p.scope and p.effect and not p.subject:
            # 「孩子开始练琴以后，数学作业写得更快了」 was said back as 「关于「<the whole sentence>」：<effect>」
            return f"我的理解：这是一个观察——在「{p.scope}」这个条件下，「{p.effect}」。关键在于「{p.key_term}」。"
        return f"我的理解：这是一个观察，关于「{p.subject or p.text}」{('：' + p.effect) if p.effect else ''}。"
    if p.kind == "causal":
        scope = f" ({p.scope})" if p.scope else ""
        who = _NOMINATIVE.get(p.subject.lower(), p.subject)
        return (
            f"How I read it: a causal claim. Cause: {p.cause}. Effect: {who + ' ' if who else ''}"
            f"{p.effect or p.text}{scope}."
            + (f" Proposed mechanism: {p.mechanism}." if p.mechanism else "")
            + (
                f" What decides it: whether “{changed}” really changed, and whether {_lower_first(p.cause)} is why."
                if (changed := what_changed(p)) != p.key_term
                else f" What decides it: whether “{p.key_term}” really holds, and whether "
                f"{_lower_first(p.cause)} is why."
            )
        )
    if p.kind == "comparison":
        return (
            f"How I read it: a comparison — {p.subject} against {p.baseline}"
            + (f", on “{p.effect}”" if p.effect else "")
            + (f", {_lower_first(p.scope)}" if p.scope else "")
            + f". What decides it is “{p.key_term}”."
        )
    if p.kind == "plan" and re.search(r"\S\s+or\s+\S", p.effect):
        return f"How I read it: a choice between options — {p.effect}."
    if p.kind == "plan":
        return f"How I read it: a plan — {p.effect or p.text}."
    if p.kind == "question" and re.search(r"\s+or\s+", p.cause):
        first, second = re.split(r"\s+or\s+", p.cause, maxsplit=1)
        return f'How I read it: a question — is "{p.effect}" due to {first} or to {second} (or something else)?'
    if p.kind == "question" and p.cause:
        if p.subject:
            # "Does X make pupils write longer essays?": "X leads to pupils write …" read wrong (a trial)
            return f"How I read it: a question — whether, and why, {p.cause} makes {p.subject} {p.effect}."
        return f"How I read it: a question — whether, and why, {p.cause} leads to {p.effect}."
    if p.kind == "question":
        return f"How I read it: a question — {_as_question(p.text)}"
    if not p.subject and p.effect:
        return f"How I read it: an observation — {p.effect}" + (f" {p.scope}." if p.scope else ".")
    when = f" {p.scope}" if p.scope and p.effect else ""  # "on rainy days" is the point of the observation
    # "about our support tickets": a sentence's capital is no name, mid-sentence
    about = _lower_first(p.subject) if p.subject else p.text
    return f"How I read it: an observation about {about}" + (f": {p.effect}{when}." if p.effect else ".")


def _lower_first(text: str) -> str:
    """The text with its first letter lower-cased, unless it is "I" or part of a name or acronym."""
    first = text.split(" ", 1)[0]
    if first == "I" or first.startswith("I'") or (len(first) > 1 and first[1:2].isupper()):
        return text
    return text[:1].lower() + text[1:]
