"""Candidate questions from every input, before filtering (the offline twin of the model's proposal).

Why separate from filtering: a model proposes candidates in its own words, the offline engine
builds them from templates; either way the *same* deterministic filters (dedup, coverage,
searchability, ordering) run afterwards in :mod:`autodidact.questions.generate`, so the rules of
seed 000 step 4–5 (docs/seeds.md) hold for both engines.

Sources, in the seed's priority order: user questions (verbatim, high) → the audit's
建议下一轮重点方向 (high) → other gaps, partial answers and missing sources (medium) → new raw
files' concepts (medium) → the framework (cold start: L1/L2; later: every layer, low). The framework
is asked per facet of the topic; a facet no question has asked yet has its first question raised to
high priority in every round (the user named it), so no named facet waits behind the audit's list.
"""

from __future__ import annotations

import re
from collections import Counter

from autodidact.questions.facets import asked_facets, frame_of, frames
from autodidact.questions.framework import MEMBER_TEMPLATES, TOPIC_TYPE_EN, framework_questions, tidy
from autodidact.questions.models import Candidate, QuestionerInputs, RawDigest
from autodidact.text.keypoints import further_key_points_question, is_further, key_points_question
from autodidact.text.topic import is_action_phrase, subject_of

_CONCEPT = re.compile(
    r"\[\[([^\]|#]+)(?:[|#][^\]]*)?\]\]|「([^」]+)」|“([^”]+)”|《([^》]+)》|\"([^\"]{2,60})\"|`([^`]{2,60})`"
    r"|\*\*([^*]{2,60})\*\*|‘([^’]{2,60})’"
)
_SOURCE_CUE = re.compile(r"来源|出处|引用|佐证|citation|source|evidence|unsupported|无依据|缺乏支撑", re.I)
_CONFLICT_CUE = re.compile(r"矛盾|冲突|不一致|待核实|contradict|conflict|inconsistent|disagree", re.I)
_PARTIAL = re.compile(r"^(.+?[?？])\s*[（(]\s*(?:missing|尚缺)\s*[:：]\s*(.+?)\s*[)）]$", re.I)
_FIRST_CLAUSE = re.compile(r"^(?:What is (.+?), and .+\?|(.+?)\s*是什么？.+？)$")
_FOCUS_TAIL = re.compile(r"(?:, in particular .*|（重点：.*）)$")
_LIST_MARK = re.compile(r"^\s*(?:[-*+•]|\d+[.)、]|[（(]?\d+[)）])\s*")


def concept_of(item: str) -> str | None:
    """The first marked concept in a finding: ``[[X]]``, 「X」, “X”, ``X``, **X** …"""
    match = _CONCEPT.search(item)
    if not match:
        return None
    value = next(g for g in match.groups() if g)
    value = value.strip().strip("：:，,。.")
    return value or None


def what_is(concept: str) -> str:
    """ "What is X?" / "What are X?": a concept whose last word is a plain plural noun takes "are"
    ("What are async generators?"); names, files and calls keep "is" ("What is Kubernetes?",
    "What is nsswitch.conf?", "What is send()?")."""
    last = concept.split()[-1] if concept.split() else ""
    plural = (
        len(last) > 3
        and last.isalpha()
        and last.islower()
        and last.endswith("s")
        and not last.endswith(("ss", "us", "is"))
        and not re.search(r"[-._/()\d`]", concept)
    )
    return f"What {'are' if plural else 'is'} {concept}?"


def _clean(item: str) -> str:
    item = _LIST_MARK.sub("", item.strip())
    return " ".join(item.split())


def audit_question(item: str, language: str, *, concept_only: bool = False) -> str | None:
    """Turn one audit finding or direction into a searchable question (seed 000, docs/seeds.md source A).

    ``concept_only``: findings (as opposed to directions) are descriptions; only those naming a
    marked concept become questions — the checker already turned the rest into directions.
    """
    item = _clean(item)
    if not item or item in {"无", "none", "None"}:
        return None
    zh = language == "zh"
    partial = _PARTIAL.match(item)
    if partial:  # "<question> (missing: <gap>)": the same question again (a re-ask; the gap is the why)
        question = partial.group(1).strip()
        body = _FOCUS_TAIL.sub("", question.rstrip("?？ "))
        return body + ("？" if question.endswith("？") else "?")
    first = _FIRST_CLAUSE.match(item)
    if first:  # "What is X, and how does it relate to Y?" → "What is X?" (the concept is the question)
        if first.group(1):
            return f"What is {first.group(1).strip()}?"
        return f"{first.group(2).strip()}是什么？"
    if item.endswith(("?", "？")) and len(item) >= 6:
        return item
    concept = concept_of(item)
    if concept_only and not concept:
        return None
    if concept:
        if _CONFLICT_CUE.search(item):
            return f"关于{concept}，哪种说法正确？" if zh else f"What is the correct account of {concept}?"
        if _SOURCE_CUE.search(item):
            return f"{concept}有哪些权威来源？" if zh else f"What do authoritative sources say about {concept}?"
        return f"{concept}是什么？" if zh else what_is(concept)
    body = item.rstrip("。.;；")
    if len(body) > 80:
        body = body[:80].rstrip()
    return f"关于「{body}」有哪些具体事实？" if zh else f"What do sources say about {body}?"


def _terms(raw: RawDigest) -> list[str]:
    """Concepts a contributed file introduces: its headings and its marked terms, most frequent first."""
    found: Counter[str] = Counter()
    for line in raw.body.splitlines():
        heading = re.match(r"^#{2,4}\s+(.+?)\s*#*$", line)
        if heading:
            found[heading.group(1).strip()] += 2
    for match in _CONCEPT.finditer(raw.body):
        value = next(g for g in match.groups() if g).strip()
        # a quoted sentence ("Test failed.", a message in a code example) is no concept to ask about
        if 2 <= len(value) <= 60 and not value.endswith((".", "!", "?", "。", "！", "？", ",", "，")):
            found[value] += 1
    return [term for term, _ in sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))][:3]


FOLLOW_UPS = 4  # follow-up concepts per round from the sections the last round quoted
_NOT_A_CONCEPT = re.compile(r"[\\*_{}<>=$]|^[-.~]|/$|^\d|https?:|\s{2,}")


def followup_concepts(excerpts: list[RawDigest], asked: list[str]) -> list[str]:
    """Terms the quoted sections mark (``apt-cache policy``, **Pin-Priority**), most frequent first.

    Why: the framework asks the same layers of every facet; the material the round actually quoted
    names the specific commands, settings and terms that answer the topic. Headings are left out
    (they name sections, not concepts), and so are paths, code, numbers and terms already asked.
    """
    seen = " ".join(asked).casefold()
    found: Counter[str] = Counter()
    for raw in excerpts:
        for match in _CONCEPT.finditer(raw.body):
            value = next(g for g in match.groups() if g).strip().strip(".,:;`*").strip()
            if not 2 <= len(value) <= 40 or len(value.split()) > 4 or _NOT_A_CONCEPT.search(value):
                continue
            if is_action_phrase(value):
                continue  # "Implementing Descriptors" is a section's task, not a thing: "What is …?" misreads it
            if value.casefold() in seen:
                continue
            found[value] += 1
    ranked = sorted(found.items(), key=lambda kv: (-kv[1], kv[0].casefold()))
    out: list[str] = []
    for term, count in ranked:
        if count < 2 or any(term.casefold() == o.casefold() for o in out):
            continue
        out.append(term)
    return out[:FOLLOW_UPS]


def raw_questions(raw: RawDigest, language: str) -> list[str]:
    """Questions about the new topics a contributed raw file brings in (seed 000, docs/seeds.md source C)."""
    zh = language == "zh"
    terms = _terms(raw)
    if terms:
        return [f"{t}是什么？" if zh else what_is(t) for t in terms]
    title = raw.title.strip() or raw.filename
    return [f"《{title}》的要点是什么？" if zh else f"What are the key points of “{title}”?"]


def offline_candidates(inputs: QuestionerInputs) -> list[Candidate]:
    """Every candidate the inputs yield, in priority order (user, audit, raw, framework)."""
    lang = inputs.language
    zh = lang == "zh"
    out: list[Candidate] = []
    for text in inputs.user_questions:
        out.append(
            Candidate(
                text=text,
                layer="用户问题" if zh else "user",
                priority="high",
                source="user",
                rationale="用户在 user_questions.md 中插入的问题" if zh else "asked by the user in user_questions.md",
            )
        )
    report = inputs.check_report or ("上一轮审计报告" if zh else "the last check report")
    for item in inputs.directions:
        q = audit_question(_subject_for_topic(item, inputs), lang)
        if q:
            why = f"{report} 建议下一轮重点方向：{_clean(item)}" if zh else f"{report} suggests next: {_clean(item)}"
            out.append(Candidate(text=q, layer=_audit_layer(lang), priority="high", source="audit", rationale=why))
    findings = [("知识漏洞", "gap", g) for g in inputs.gaps]
    findings += [("partial", "partial answer", p) for p in inputs.partial]
    findings += [("来源缺失", "missing source", m) for m in inputs.missing_sources]
    for label_zh, label_en, item in findings:
        q = audit_question(_subject_for_topic(item, inputs), lang, concept_only=True)
        if q:
            why = f"{report} {label_zh}：{_clean(item)}" if zh else f"{report} {label_en}: {_clean(item)}"
            out.append(Candidate(text=q, layer=_audit_layer(lang), priority="medium", source="audit", rationale=why))
    for raw in inputs.new_raw_files:
        for q in raw_questions(raw, lang):
            why = f"新增素材 raw/{raw.filename} 引入的概念" if zh else f"a concept introduced by raw/{raw.filename}"
            out.append(Candidate(text=q, layer=_raw_layer(lang), priority="medium", source="raw", rationale=why))
    asked = [h.text for h in inputs.history]
    for concept in followup_concepts(inputs.quoted_excerpts, asked):
        q = f"{concept}是什么？" if zh else what_is(concept)
        why = "上一轮引用的章节中标出的概念" if zh else "a term marked in a section the last round quoted"
        out.append(Candidate(text=q, layer=_raw_layer(lang), priority="medium", source="raw", rationale=why))
    out.extend(outline_candidates(inputs))
    out.extend(entry_candidates(inputs))
    out.extend(framework_candidates(inputs))
    return out


ENTRIES_PER_FACET = 2  # entry questions per facet per round: the rest wait for later rounds


def entry_question(name: str, language: str, place: str = "") -> str:
    """What a reference entry is asked: "What does TestCase.assertRaises do?", "What does sub do in
    re?", 「wget --mirror 是什么？」."""
    if language == "zh":
        # as the round writes it (tidy): 「--mirror 是什么？」, 「re 中的 sub 是什么？」
        return tidy(MEMBER_TEMPLATES["zh"][0].format(m=f"{place} 中的 {name}" if place else name), "zh")
    question = MEMBER_TEMPLATES["en"][0].format(m=name)
    return f"{question[:-1]} in {place}?" if place else question


def entry_candidates(inputs: QuestionerInputs) -> list[Candidate]:
    """The reference entries the documents give each facet, not yet asked, in turn across facets.

    Why: a facet such as "assertions" or "mirroring a site" is answered by entries (assertRaises,
    ‘--mirror’) that no template names and no section's key points reach (docs/questions.md,
    "Entry questions")."""
    zh = inputs.language == "zh"
    asked = {" ".join(h.text.split()).casefold() for h in inputs.history}
    # a member the topic names is asked by the framework already ("What does setUp do?")
    members = {m.casefold() for frame in frames(inputs) for f in frame.facets for m in f.members}
    per_facet: dict[str, list[str]] = {}
    for entry in inputs.entries:
        if entry.name.rsplit(".", 1)[-1].casefold() in members:
            continue
        q = entry_question(entry.name, inputs.language, entry.place)
        queue = per_facet.setdefault(entry.facet, [])
        if q.casefold() not in asked and q not in queue and len(queue) < ENTRIES_PER_FACET:
            queue.append(q)
    out: list[Candidate] = []
    for depth in range(ENTRIES_PER_FACET):
        for facet, queue in per_facet.items():
            if depth < len(queue):
                why = f"文档为方面「{facet}」列出的条目" if zh else f"an entry the documents list for “{facet}”"
                out.append(_from_documents(queue[depth], inputs.language, why, facet))
    return out


def _from_documents(text: str, language: str, why: str, facet: str | None) -> Candidate:
    """A question the documents themselves suggest for a facet (a section's key points, an entry)."""
    return Candidate(text=text, layer=_raw_layer(language), priority="medium", source="raw", rationale=why, facet=facet)


OUTLINE_PER_FACET = 2  # outline questions per facet per round: the rest wait for later rounds


def outline_candidates(inputs: QuestionerInputs) -> list[Candidate]:
    """The documents' own sections per facet, not yet asked, taken round-robin across facets.

    Why round-robin: one facet's sections must not crowd out another's (the Chinese Debian run
    asked every follow-up about 「dpkg 与 apt」 and none about 升级). See docs/questions.md.
    """
    zh = inputs.language == "zh"
    asked = {" ".join(h.text.split()).casefold() for h in inputs.history}
    per_facet: dict[str | None, list[str]] = {}
    again: dict[str | None, list[str]] = {}
    for entry in inputs.outline:
        q = key_points_question(entry.heading, inputs.language, entry.document)
        if q.casefold() in asked:
            # Asked once: its section may say more than one answer shows (docs/questions.md).
            more = further_key_points_question(entry.heading, inputs.language, entry.document)
            if more.casefold() not in asked:
                again.setdefault(entry.facet, []).append(more)
            continue
        queue = per_facet.setdefault(entry.facet, [])
        if len(queue) < OUTLINE_PER_FACET:
            queue.append(q)
    # A facet whose sections were all asked reads its best ones again, best first.
    for facet, texts in again.items():
        if not per_facet.get(facet):
            per_facet[facet] = texts[:OUTLINE_PER_FACET]
    out: list[Candidate] = []
    for depth in range(OUTLINE_PER_FACET):
        for facet, queue in per_facet.items():
            if depth >= len(queue):
                continue
            where = f"「{facet}」" if zh and facet else (f"“{facet}”" if facet else "")
            if zh:
                why = f"文档中与方面{where}最相关的章节" if facet else "文档中与主题最相关的章节"
            else:
                why = (
                    f"a section the documents give the facet {where}"
                    if facet
                    else "a section the documents give the subject"
                )
            if is_further(queue[depth]):
                why += (
                    "（重新提问：再读这一章节，一次回答容不下它的全部要点）"
                    if zh
                    else " (re-asked: read again, one answer holds fewer points than the section makes)"
                )
            out.append(_from_documents(queue[depth], inputs.language, why, facet))
    return out


def _subject_for_topic(item: str, inputs: QuestionerInputs) -> str:
    """An auditor may paste the whole topic sentence into a template; put the subject in its place."""
    for topic in [inputs.topic, *inputs.extension_topics]:
        whole = " ".join(topic.split()).rstrip("?？.。!！ ")
        subject = subject_of(topic)
        if whole and whole != subject and whole in item:
            item = item.replace(whole, subject)
    return item


def _audit_layer(language: str) -> str:
    return "审计补充" if language == "zh" else "audit"


def _raw_layer(language: str) -> str:
    return "新素材" if language == "zh" else "new-material"


def framework_candidates(inputs: QuestionerInputs, *, fill_in: bool = False) -> list[Candidate]:
    """Cold start: L1/L2 (L2/L3 with --background). Later: every layer as low-priority fill-in.

    Every candidate carries its facet; the first question of a facet never asked is high.
    ``fill_in``: everything else is low (the framework only tops up a model's proposal).
    """
    zh = inputs.language == "zh"
    out: list[Candidate] = []
    asked = asked_facets(frames(inputs), inputs.history)
    topics = [(inputs.topic, inputs.cold_start)] + [(t, True) for t in inputs.extension_topics]
    for topic, cold in topics:
        frame = frame_of(topic, inputs.language)
        basics = (2, 3) if inputs.background else (1, 2)
        levels = basics + tuple(lv for lv in (1, 2, 3, 4) if lv not in basics and not (inputs.background and lv == 1))
        kind = frame.topic_type if zh else TOPIC_TYPE_EN[frame.topic_type]
        note = "" if frame.type_sure else ("（类型不确定，默认概念理解）" if zh else " (type unsure: default)")
        for fq in framework_questions(frame, inputs.language, frame.topic_type, levels):
            in_basics = fq.level in basics
            priority = ("high" if fq.level == min(basics) else "medium") if cold and in_basics else "low"
            if fill_in:
                priority = "low"
            first_of_facet = fq.primary and fq.facet is not None and fq.facet not in asked
            if first_of_facet:
                priority = "high"
            slot = f"{kind} {fq.layer}{note}"
            if fq.facet is not None:
                slot += f"，方面「{fq.facet}」" if zh else f", facet “{fq.facet}”"
            if first_of_facet and not cold:
                slot += "（此前未问及）" if zh else " (not asked before)"
            why = (
                f"框架{'冷启动' if cold else '补充'}：{slot}"
                if zh
                else f"framework {'cold start' if cold else 'fill-in'}: {slot}"
            )
            out.append(
                Candidate(
                    text=fq.text, layer=fq.layer, priority=priority, source="framework", rationale=why, facet=fq.facet
                )
            )
    return out
