"""``outputs/research_summary.md``: the closing summary of seed 001's 收尾流程 (docs/seeds.md, docs/loop.md).

Why from the answers: a person reads the summary to learn what the research found out, so its
core findings are the research's answers to its questions — per question, the question and the
best sentences of its cited answer from the audits (which answer each question from the wiki,
citing the articles) — not the opening sentences of articles. Its open questions are every
question the last audit left partial or open, plus the user's own questions that were not fully
answered: nothing the research could not answer is hidden. The overview states how the run really
stopped (termination rules met, stalled, or max_rounds). Everything is read from files, so the
summary is the same however the run got there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from autodidact.kb import KnowledgeBase
from autodidact.loop.audit_answers import AuditedQuestion, read_audited_questions
from autodidact.loop.inbox import read_inbox
from autodidact.loop.state import ResearchState
from autodidact.sources.rawfiles import list_raw_files
from autodidact.store import atomic
from autodidact.text.keypoints import is_further, key_points_document, key_points_heading
from autodidact.text.sentences import join_sentences
from autodidact.wiki.common.markdown import (
    CITATION_RE,
    citations,
    render_citation,
    split_sentences,
    strip_citations,
    strip_emphasis,
    tokens,
)
from autodidact.wiki.compile.answers import QuestionTerms

MAX_FINDINGS = 5
MIN_FINDINGS = 3
MAX_FINDING_SENTENCES = 3
ALIKE = 0.6  # two sentences sharing more than this share of their words say the same thing
STATUS_RANK = {"resolved": 0, "partial": 1}
_LINK = re.compile(r"\[\[([^\]|#]+)(?:[|#][^\]]*)?\]\]")
# The audit's "not yet covered" note, from its lead to the end of the answer it closes.
_NOT_COVERED = re.compile(r"(?:Not yet covered|Still missing|尚缺|仍缺)\s*[:：].*$", re.I | re.S)
_SETTLED = re.compile(r"^~~(.+?)~~\s*\[r(\d+),\s*(partial|open)\]\s*$")


@dataclass(frozen=True)
class _Asked:
    """A question with the audit that last judged it."""

    item: AuditedQuestion
    round: int
    order: int
    by_user: bool


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()


def _audits(kb: KnowledgeBase, state: ResearchState) -> list[tuple[int, list[AuditedQuestion] | None]]:
    """Each round's audited questions, newest round first (``None``: report missing or unreadable)."""
    out: list[tuple[int, list[AuditedQuestion] | None]] = []
    for record in reversed(state.rounds):
        items = None
        if record.check_report:
            items = read_audited_questions(kb.root / record.check_report, record.check_report)
        out.append((record.round, items))
    return out


def _last_audit(state: ResearchState, audit: list[AuditedQuestion] | None) -> list[AuditedQuestion]:
    """The last round's questions as its audit judged them; the statuses recorded in the state
    stand in when the report cannot be read back."""
    if audit is not None:
        return audit
    if not state.rounds:
        return []
    return [
        AuditedQuestion(qid=q.id, status=q.status or "open", question=q.text, answer="", gap="")
        for q in state.rounds[-1].questions
    ]


def _asked(state: ResearchState, audits: list[tuple[int, list[AuditedQuestion] | None]]) -> list[_Asked]:
    """Every audited question once, as its newest audit judged it."""
    users = {_key(q.text) for r in state.rounds for q in r.questions if q.source == "user"}
    seen: set[str] = set()
    out: list[_Asked] = []
    for round_n, items in audits:
        for order, item in enumerate(items or []):
            key = _key(item.question)
            if not key or key in seen:
                continue
            seen.add(key)
            out.append(_Asked(item, round_n, order, key in users))
    return out


def answer_sentences(answer: str) -> tuple[list[str], list[str]]:
    """An audit answer's own sentences (its "not yet covered" note dropped) and the files it cites."""
    cited = citations(answer)
    # Each quote ends at its citation: a quote with no closing full stop ("… date --date='2 days
    # ago'（来源：…）The string …") was glued to the next one, and read as one sentence it could
    # repeat a sentence already shown without being seen as alike (docs/loop.md, "The closing summary").
    pieces = CITATION_RE.sub("\x00", answer).split("\x00")
    # The "not yet covered" note ends its answer, and may hold a 「；」 that would split it: 「尚缺：程序做
    # 国际化；用 gettext 为 C 程序做国际化的组成与工作原理。」 left its second half as a "finding".
    pieces = [_NOT_COVERED.sub("", piece) for piece in pieces]
    sentences = [s for piece in pieces for s in split_sentences(piece.strip())]
    return sentences, cited


_QID_ROUND = re.compile(r"^r(\d+)q\d+$")


def _asked_round(entry: _Asked) -> int:
    """The round a question was first asked in (its id ``r3q2``), else the round of its audit."""
    match = _QID_ROUND.match(entry.item.qid or "")
    return int(match.group(1)) if match else entry.round


def findings(asked: list[_Asked], topic: str | None = None) -> list[tuple[_Asked, list[str], list[str]]]:
    """Up to :data:`MAX_FINDINGS` answered questions with their best unrepeated sentences.

    The user's own questions first; then the questions about the topic before those about a source's
    sections ("What are the key points of “class Logger”?" is resolved by any sentence of that
    section, so it would always win, and a reader came for the topic's facets); then the questions
    asked earliest (round 1 asks what the topic and each facet is; later rounds fill in mechanisms,
    examples, limitations — a reader wants what each facet is before what problems it solves);
    then resolved before partial, then the report's order. Of
    each answer only its best sentences (the audit lists them best first) are candidates; an answer
    none of whose sentences names what the question asks beyond the topic's subject is no finding
    (an answer to "What is propagation …?" that only says what basicConfig does); one
    already shown under an earlier finding is not repeated, nor one sharing most of its words with
    a shown one, and a question left with nothing new to say is skipped (its answer is above)."""
    ranked = sorted(
        (a for a in asked if a.item.status in STATUS_RANK and a.item.answer),
        key=lambda a: (
            not a.by_user,
            bool(key_points_heading(a.item.question)),
            _asked_round(a),
            STATUS_RANK[a.item.status],
            a.order,
        ),
    )
    shown: set[str] = set()
    said: list[set[str]] = []
    out: list[tuple[_Asked, list[str], list[str]]] = []
    for entry in ranked:
        sentences, cited = answer_sentences(entry.item.answer)
        if topic and not any(QuestionTerms.of(entry.item.question, None, topic).admits(s) for s in sentences):
            continue
        fresh: list[str] = []
        for sentence in sentences:
            words = set(tokens(sentence))
            # "setLevel(self, level) Set the logging level of this logger." and "… of this handler.":
            # one of them says it (a reference page repeats a member's docstring per class).
            alike = any(len(words & other) > ALIKE * len(words | other) for other in said if words | other)
            # one that holds a shown one whole is the splitter's miss ("… TestSuite instance. __main__
            # _log async_case …": no capital after the stop), and showed that sentence twice in a row
            alike = alike or any(len(seen) > 40 and seen in _key(sentence) for seen in shown)
            if _key(sentence) not in shown and not alike and len(fresh) < MAX_FINDING_SENTENCES:
                fresh.append(sentence)
                said.append(words)
                shown.add(_key(sentence))  # an answer that says a thing twice shows it once
        if not fresh:
            continue
        out.append((entry, fresh, cited))
        if len(out) == MAX_FINDINGS:
            break
    return out


def _plain(text: str) -> str:
    return " ".join(strip_emphasis(strip_citations(text)).replace("`", "").split()).casefold()


def _holding(cited: list[str], sentences: list[str], texts: dict[str, str]) -> list[str]:
    """The cited articles that hold one of the sentences shown: an audit answer cites every article
    it read, and a finding showing two of its sentences cited an article holding neither (a
    fresh-eyes trial: "How do I find elements with XPath?" cited reading-attributes.md). All of
    them when none can be told (an article not in wiki/ any more)."""
    shown = [_plain(s) for s in sentences]
    holding = [name for name in cited if name in texts and any(s in texts[name] for s in shown)]
    if not all(any(s in texts.get(name, "") for name in holding) for s in shown):
        return cited  # a sentence no article is seen to hold: every article the answer read stays
    return holding


def _why_stopped(state: ResearchState, zh: bool) -> str:
    if not state.rounds:
        return "尚未完成任何一轮" if zh else "no round yet"
    check = state.rounds[-1].termination_check
    if check.decision == "continue":  # stopped at the start of a run by the cap
        return f"达到最大轮次 {state.max_rounds}" if zh else f"max_rounds {state.max_rounds} reached"
    return check.reason


def _open_lines(kb: KnowledgeBase, last: list[AuditedQuestion], zh: bool, earlier: list[_Asked]) -> list[str]:
    """Every partial/open question of the last audit, then the earlier rounds' questions no answer
    was found for, then the user's not fully answered ones.

    Why the earlier ones: each round's audit judges that round's questions, so a question of round 1
    nothing answered ("What is the definition of assertions in unittest?") vanished from the list
    once a later round asked others — the run's largest gap hidden behind its last round's
    partly answered template questions (a fresh-eyes trial). ``earlier``: every question once, as
    its newest audit judged it."""
    sep = "：" if zh else ": "
    lines: list[str] = []
    listed: set[str] = set()
    for item in last:
        if item.status not in {"partial", "open"}:
            continue
        listed.add(_key(item.question))
        head = f"- {item.qid}{sep}{item.question}" if item.qid else f"- {item.question}"
        if item.status == "partial":
            missing = f"；尚缺：{item.gap}" if zh and item.gap else (f"; missing: {item.gap}" if item.gap else "")
            note = f"（部分回答{missing}）" if zh else f" (partly answered{missing})"
        elif is_further(item.question):
            # read a second time, the section gave nothing its first answer had not: no gap to fill
            note = "（该章节没有首次回答之外的要点）" if zh else " (the section says nothing its first answer did not)"
        else:
            note = "（未找到答案）" if zh else " (no answer found)"
        lines.append(head + note)
    partly = 0
    for entry in earlier:
        item = entry.item
        if _key(item.question) in listed or entry.by_user or item.status not in {"partial", "open"}:
            continue
        if item.status == "partial" or is_further(item.question):
            partly += 1
            continue
        listed.add(_key(item.question))
        head = f"- {item.qid}{sep}{item.question}" if item.qid else f"- {item.question}"
        lines.append(
            head + (f"（第 {entry.round} 轮：未找到答案）" if zh else f" (round {entry.round}: no answer found)")
        )
    if partly:
        lines.append(
            f"- 更早各轮还有 {partly} 个部分回答的问题（outputs/rounds/round_N_check.md）"
            if zh
            else f"- {partly} more question(s) of earlier rounds were partly answered (outputs/rounds/round_N_check.md)"
        )
    view = read_inbox(kb.user_questions)
    for text in view.pending:
        if _key(text) not in listed:
            listed.add(_key(text))
            lines.append(f"- {text}（你的问题，仍待处理）" if zh else f"- {text} (your question, still pending)")
    for line in view.done:
        match = _SETTLED.match(line)
        if match and _key(match.group(1)) not in listed:
            listed.add(_key(match.group(1)))
            text, n, status = match.group(1), match.group(2), match.group(3)
            word = ("部分回答" if status == "partial" else "未找到答案") if zh else status
            lines.append(
                f"- {text}（你的问题，第 {n} 轮：{word}）" if zh else f"- {text} (your question, round {n}: {word})"
            )
    return lines


def _sources_line(raw_paths: list[Path]) -> str:
    """ "8 raw files from 1 document (raw/)": a raw file is a section of a document (docs/sections.md),
    so "Sources: 8" over one manual page read as eight sources (a trial's complaint).

    Each file is parsed through the raw reader, once per content (docs/architecture.md, "Incremental
    rounds"): the summary is written every round, and parsing every raw file again made it the
    largest part of a round that grows with raw/ (issue 18)."""
    from autodidact.errors import AutodidactError
    from autodidact.sources.rawfiles import raw_reader

    documents: set[str] = set()
    by_folder: dict[Path, list[Path]] = {}
    for path in raw_paths:
        by_folder.setdefault(path.parent, []).append(path)
    for folder, paths in by_folder.items():
        with raw_reader(folder) as read:
            for path in paths:
                try:
                    documents.add(read(path.name).url or path.name)
                except (AutodidactError, OSError, UnicodeDecodeError):
                    documents.add(path.name)  # a person's own file the reader cannot parse is its own source
    files = f"{len(raw_paths)} raw file" + ("" if len(raw_paths) == 1 else "s")
    docs = f"{len(documents)} document" + ("" if len(documents) == 1 else "s")
    return f"{files} from {docs} (raw/)"


def render_summary(kb: KnowledgeBase, state: ResearchState, language: str) -> str:
    """The summary text (seed 001, docs/seeds.md format; English knowledge bases get the same structure in English)."""
    from autodidact.wiki.common.articles import load_wiki

    zh = language == "zh"
    articles = load_wiki(kb.wiki)
    raw_paths = list_raw_files(kb.raw)
    raw_count = len(raw_paths)
    reason = _why_stopped(state, zh)
    topics = [state.topic, *[e.topic for e in state.topic_extensions]]
    lines = [f"# 研究摘要：{state.topic}" if zh else f"# Research summary: {state.topic}", ""]
    lines += ["## 研究概况" if zh else "## Overview"]
    if zh:
        lines += [
            f"- 研究轮次：{len(state.rounds)} 轮",
            f"- 检索文章：{raw_count} 篇（raw/）",
            f"- 知识主题：{len(articles)} 个（wiki/）",
            f"- 终止原因：{reason}",
        ]
        if len(topics) > 1:
            lines.append(f"- 扩展课题：{'；'.join(topics[1:])}")
    else:
        lines += [
            f"- Rounds: {len(state.rounds)}",
            f"- Sources: {_sources_line(raw_paths)}",
            f"- Topics: {len(articles)} (wiki/)",
            f"- Why it stopped: {reason}",
        ]
        if len(topics) > 1:
            lines.append(f"- Extended topics: {'; '.join(topics[1:])}")
    audits = _audits(kb, state)
    last = _last_audit(state, audits[0][1] if audits else None)
    lines += ["", "## 核心发现" if zh else "## Core findings", ""]
    asked = _asked(state, audits)
    found = findings(asked, state.topic)
    if not found:
        lines.append("（尚无问题得到有出处的回答）" if zh else "(no question has a cited answer yet)")
    # only the articles the findings cite: the summary is written every round, and the whole wiki's
    # plain text each time would grow the round with the wiki (issue 18)
    wanted = {name for _entry, _sentences, cited in found for name in cited}
    texts = {f"wiki/{a.filename}": _plain(a.text()) for a in articles if f"wiki/{a.filename}" in wanted}
    for i, (entry, sentences, cited) in enumerate(found, start=1):
        cited = _holding(cited, sentences, texts)
        body = join_sentences(list(sentences), zh)
        if entry.item.status == "partial":
            body += "（部分回答）" if zh else " (partly answered)"
        cite = render_citation(cited, "zh" if zh else "en") if cited else ""
        lines.append(f"{i}. **{finding_label(entry.item.question)}** {body}{'' if zh else ' '}{cite}".rstrip())
    if 0 < len(found) < MIN_FINDINGS:
        lines.append("")
        lines.append("（有出处的回答较少，核心发现不足 3 条）" if zh else "(few questions have cited answers yet)")
    lines += ["", "## 未解决问题" if zh else "## Open questions", ""]
    lines += _open_lines(kb, last, zh, asked) or ["- 无" if zh else "- none"]
    lines += ["", "## 知识图谱" if zh else "## Topic graph", ""]
    titles = {a.stem: a.title for a in articles}
    stems = {a.title: a.stem for a in articles}
    for art in sorted(articles, key=lambda a: a.title):
        links: list[str] = []
        for target in _LINK.findall(art.text()):
            stem = target.strip() if target.strip() in titles else stems.get(target.strip(), target.strip())
            if stem not in links and stem != art.stem:
                links.append(stem)
        shown = [_wikilink(t, titles) for t in links]
        arrow = "、".join(shown) if zh else ", ".join(shown)
        head = _wikilink(art.stem, titles)
        lines.append(f"- {head} → {arrow}" if links else f"- {head}")
    if not articles:
        lines.append("- 无" if zh else "- none")
    return "\n".join(lines) + "\n"


def _wikilink(stem: str, titles: dict[str, str]) -> str:
    """``[[file|Title]]``: Obsidian resolves a link by file name (a title such as "第 1 章
    GNU/Linux 教程" names no file, and its slash reads as a folder); the reader sees the title."""
    title = titles.get(stem)
    return f"[[{stem}|{title}]]" if title and title != stem else f"[[{stem}]]"


def write_summary(kb: KnowledgeBase, state: ResearchState, language: str) -> str:
    """Write the summary atomically; returns its path relative to the knowledge base."""
    atomic.write_text(kb.summary_file, render_summary(kb, state, language))
    return "outputs/research_summary.md"


def finding_label(question: str) -> str:
    """What a finding is headed by: the question, or the section a key-points question read
    ("class Formatter (logging)", not "What are the key points of “class Formatter” in “logging”?"):
    a list of findings headed "What are the key points of …?" reads as questions, not answers."""
    heading = key_points_heading(question)
    if not heading:
        return question
    document = key_points_document(question)
    return f"{heading} ({document})" if document else heading
