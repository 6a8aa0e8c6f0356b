"""Offline over Python's docs: a run stops on a stall, the user's questions are never ignored, and
the closing summary reports the answers and every question left open (docs/loop.md)."""

from __future__ import annotations

import json
import re
import shutil
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from autodidact.config import load_settings
from autodidact.kb import open_kb
from autodidact.llm.runtime import Runtime
from autodidact.loop.inbox import add_question, read_inbox
from autodidact.loop.progress import RecordingReporter
from autodidact.loop.research_summary import finding_label
from autodidact.loop.runner import RunResult, research_sync
from autodidact.loop.state import load_state
from autodidact.loop.status import status_report
from autodidact.loop.user_answers import MAX_USER_QUESTION_ROUNDS
from autodidact.questions.models import RoundQuestions
from autodidact.wiki.audit.report_parser import parse_check_report
from autodidact.wiki.common.markdown import citation_links, citations, split_sentences

from .conftest import TOPIC

CAP = 15
HARD_QUESTION = "Can a generator be restarted after it is exhausted?"


def run(root: Path, topic: str | None = TOPIC, **kwargs: Any) -> tuple[RunResult, RecordingReporter]:
    reporter = RecordingReporter()
    kb = open_kb(root)
    result = research_sync(
        kb, topic=topic, runtime=Runtime(), settings=load_settings(root), reporter=reporter, **kwargs
    )
    return result, reporter


def warnings(reporter: RecordingReporter) -> list[str]:
    return [text for name, text in reporter.events if name == "warning"]


@pytest.fixture(scope="module")
def stalled_kb(tmp_path_factory: pytest.TempPathFactory, indexed_base: Path) -> Iterator[Path]:
    """One run to its end with a cap it should not need (its own isolated home)."""
    root = tmp_path_factory.mktemp("stalled") / "kb"
    shutil.copytree(indexed_base, root)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("AUTODIDACT_HOME", str(tmp_path_factory.mktemp("home")))
        result, _ = run(root, max_rounds=CAP)
    assert result.status == "terminated"
    yield root


def quote_key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()


def evidence_of(root: Path, n: int) -> dict[str, Any]:
    path = root / f"outputs/rounds/round_{n}_evidence.json"
    return json.loads(path.read_text("utf-8")) if path.is_file() else {}


def new_claims_per_kq(root: Path, n: int) -> dict[str, int]:
    """Recomputed here from the evidence files: claims of round n with a quote no earlier round had."""
    seen: set[str] = set()
    for k in range(1, n):
        for claim in evidence_of(root, k).get("claims", []):
            seen |= {quote_key(e["snippet"]) for e in claim["evidence"]}
    out: dict[str, int] = {}
    for claim in evidence_of(root, n).get("claims", []):
        quotes = {quote_key(e["snippet"]) for e in claim["evidence"]}
        if quotes - seen:
            out[claim["answers_key_question"]] = out.get(claim["answers_key_question"], 0) + 1
        seen |= quotes
    return out


def test_a_run_whose_sources_are_exhausted_stops_before_its_cap(stalled_kb: Path) -> None:
    """By its rules or by a stall — never by the cap. Since sections are read a second time
    (docs/questions.md) the rules hold first on this corpus; a stall's own reason is checked when it
    is the one that stops the run (and clause by clause in test_termination.py)."""
    root = stalled_kb
    data = json.loads((root / "outputs/research_state.json").read_text("utf-8"))
    rounds = data["rounds"]
    assert len(rounds) < CAP, "the run went to its cap instead of stopping by its rules or a stall"
    last = rounds[-1]["termination_check"]
    assert last["decision"] == "terminate" and last["stopped_by"] in {"rules", "stalled"}, last["reason"]
    if last["stopped_by"] == "stalled":
        assert last["reason"].startswith("stalled: round")
        assert last["new_claims"] == 0 and last["new_sources"] == 0
    else:
        assert last["reason"].startswith("termination rules met") and last["overlap_ratio"] > 0.7
    assert last["pending_user_questions"] == 0
    assert all(r["termination_check"]["decision"] == "continue" for r in rounds[:-1])
    urls: set[str] = set()
    for record in rounds:
        n, tc = record["round"], record["termination_check"]
        assert tc["new_claims"] == sum(new_claims_per_kq(root, n).values()), f"round {n}"
        round_urls = {s["url"] for s in evidence_of(root, n).get("sources", [])}
        if round_urls - urls or record["new_raw_files"] or record["user_contributed_raw_files"]:
            assert tc["new_sources"] > 0, f"round {n}"
        else:
            assert tc["new_sources"] == 0, f"round {n}"
        urls |= round_urls
    summary = (root / "outputs/research_summary.md").read_text("utf-8")
    assert f"- Why it stopped: {last['reason'].split(':')[0]}" in summary
    report = status_report(open_kb(root))
    assert report["termination"]["would_stop_by"] == last["stopped_by"]
    assert report["rounds"][-1]["stopped_by"] == last["stopped_by"]


def test_a_run_stopped_by_rules_or_stall_does_not_reopen_for_a_higher_cap_alone(
    stalled_kb: Path, tmp_path: Path
) -> None:
    root = tmp_path / "kb"
    shutil.copytree(stalled_kb, root)
    again, _ = run(root, topic=None, max_rounds=CAP + 5)
    assert again.status == "already_complete" and again.stopped_by in {"rules", "stalled"}


def section(summary: str, heading: str) -> list[str]:
    body = summary.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return [line for line in body.splitlines() if line.strip()]


def audit_answers(root: Path) -> dict[str, list[str]]:
    """Question text → every answer any audit gave it (read here from the reports' lines)."""
    out: dict[str, list[str]] = {}
    for path in sorted((root / "outputs/rounds").glob("round_*_check.md")):
        current = None
        for line in path.read_text("utf-8").splitlines():
            head = re.match(r"^- \*\*r\d+q\d+\*\* \[(\w+)\] (.+)$", line)
            if head:
                current = head.group(2)
            elif current and line.startswith("  - answer: "):
                out.setdefault(current, []).append(line.removeprefix("  - answer: "))
    return out


def test_summary_lists_every_partial_or_open_question_of_the_last_audit(stalled_kb: Path) -> None:
    root = stalled_kb
    state = load_state(open_kb(root))
    assert state is not None
    last = state.rounds[-1]
    report = parse_check_report((root / str(last.check_report)).read_text("utf-8"))
    unresolved = [q for q in last.questions if report.question_status.get(q.id) in {"partial", "open"}]
    assert len(unresolved) == report.partial + report.open > 0
    lines = section((root / "outputs/research_summary.md").read_text("utf-8"), "Open questions")
    for q in unresolved:
        assert any(line.startswith(f"- {q.id}: {q.text}") for line in lines), q.id
    partial = [q for q in unresolved if report.question_status[q.id] == "partial"]
    assert all(any(f"- {q.id}: " in line and "partly answered" in line for line in lines) for q in partial)


def test_summary_findings_are_the_answers_to_questions(stalled_kb: Path) -> None:
    root = stalled_kb
    summary = (root / "outputs/research_summary.md").read_text("utf-8")
    findings = section(summary, "Core findings")
    answers = audit_answers(root)
    # a key-points question's finding is headed by the section it read (finding_label)
    labels = {finding_label(q): q for q in answers}
    numbered = [line for line in findings if re.match(r"^\d+\. ", line)]
    assert 3 <= len(numbered) <= 5
    shown: list[str] = []
    for line in numbered:
        match = re.match(r"^\d+\. \*\*(.+?)\*\* (.+) (\(source: \[wiki/.+\))$", line)
        assert match, line
        label, body, citation = match.groups()
        question = labels.get(label, label)
        cited = ",".join(citations(citation))
        assert all(target == f"../{name}" for name, target in citation_links(citation))
        assert question in answers, f"{question!r} is not a question any audit answered"
        body = body.removesuffix(" (partly answered)")
        for sentence in split_sentences(body):
            assert any(sentence in answer for answer in answers[question]), f"{sentence!r} is not in its answer"
            assert not sentence.startswith("Not yet covered")
        assert all((root / name.strip()).is_file() for name in cited.split(","))
        shown.append(body)
    assert len(set(shown)) == len(shown)
    # The first findings answer what round 1 asked (what each facet is), not the last fill-ins.
    state = json.loads((root / "outputs/research_state.json").read_text("utf-8"))
    asked_in = {q["text"]: int(q["id"][1 : q["id"].index("q")]) for q in state["all_questions_ever"]}
    first = re.match(r"^\d+\. \*\*(.+?)\*\*", numbered[0])
    assert first and asked_in[labels.get(first.group(1), first.group(1))] == 1
    resolved = [line for line in numbered if not line.split(" (source:")[0].endswith("(partly answered)")]
    rounds = [
        asked_in[labels.get(m.group(1), m.group(1))]
        for line in resolved
        if (m := re.match(r"^\d+\. \*\*(.+?)\*\*", line))
    ]
    assert rounds == sorted(rounds)  # among fully answered ones, earlier questions first


def test_a_question_asked_after_the_cap_gets_one_more_round(fresh_kb: Callable[[str], Path]) -> None:
    root = fresh_kb("kb")
    first, _ = run(root, max_rounds=1)
    assert first.stopped_by == "max_rounds"
    kb = open_kb(root)
    add_question(kb, HARD_QUESTION)
    result, reporter = run(root, topic=None)  # no --max-rounds: the saved cap (1) is reached
    assert result.rounds == 2 and result.status == "terminated"
    state = load_state(kb)
    assert state is not None and state.max_rounds == 2
    assert any(w.startswith("max_rounds raised from 1 to 2: 1 pending user question(s)") for w in warnings(reporter))
    rq = RoundQuestions.model_validate_json((root / "outputs/rounds/round_2_questions.json").read_text("utf-8"))
    assert rq.questions[0].text == HARD_QUESTION and rq.questions[0].source == "user"


def test_a_partly_answered_question_stays_pending_then_settles(fresh_kb: Callable[[str], Path]) -> None:
    root = fresh_kb("kb")
    run(root, max_rounds=1)
    kb = open_kb(root)
    add_question(kb, HARD_QUESTION)
    outcomes: list[str] = []
    for _ in range(MAX_USER_QUESTION_ROUNDS + 1):
        before = len(load_state(kb).rounds)  # type: ignore[union-attr]
        result, _ = run(root, topic=None)
        n = result.rounds
        assert n == before + 1, "research with a pending question must run one more round"
        rq = RoundQuestions.model_validate_json((root / f"outputs/rounds/round_{n}_questions.json").read_text("utf-8"))
        k, asked = next((k, q) for k, q in enumerate(rq.questions, 1) if q.source == "user")
        assert asked.text == HARD_QUESTION
        status = parse_check_report((root / f"outputs/rounds/round_{n}_check.md").read_text("utf-8")).question_status
        view = read_inbox(kb.user_questions)
        if HARD_QUESTION in view.pending:
            assert status[asked.id] in {"partial", "open"}
            assert new_claims_per_kq(root, n).get(f"kq{k}", 0) > 0, "pending without new evidence for it"
            assert result.termination is not None and result.termination.pending_user_questions == 1
            outcomes.append("pending")
            continue
        tag = f"[r{n}]" if status[asked.id] == "resolved" else f"[r{n}, {status[asked.id]}]"
        assert view.done[-1] == f"~~{HARD_QUESTION}~~ {tag}"
        outcomes.append(tag)
        break
    assert outcomes[0] == "pending", "the question was expected to be only partly answered at first"
    assert outcomes[-1] != "pending" and len(outcomes) <= MAX_USER_QUESTION_ROUNDS
    assert f"- {HARD_QUESTION}" not in (root / "outputs/user_questions.md").read_text("utf-8").split("## 已处理")[0]
    again, _ = run(root, topic=None)
    assert again.status == "already_complete"  # settled: nothing of the user's waits any more
    if outcomes[-1].endswith(("partial]", "open]")):
        summary = (root / "outputs/research_summary.md").read_text("utf-8")
        assert any(HARD_QUESTION in line for line in section(summary, "Open questions"))


def _finding(question: str, answer: str) -> tuple[list[str], list[str]]:
    """The sentences and citations the summary shows for one resolved question."""
    from autodidact.loop.audit_answers import AuditedQuestion
    from autodidact.loop.research_summary import _Asked, findings

    item = AuditedQuestion(qid="r1q1", status="resolved", question=question, answer=answer)
    [(_, sentences, cited)] = findings([_Asked(item, 1, 0, False)])
    return sentences, cited


def test_a_finding_shows_a_sentence_its_answer_repeats_once() -> None:
    answer = (
        "`dpkg` is the lowest level tool. `apt` is the high-level tool. `dpkg` is the lowest level tool. "
        "`apt-get` is meant for scripts. (source: wiki/dpkg-vs-apt.md)"
    )
    sentences, cited = _finding("How do dpkg and apt differ?", answer)
    assert sentences == [
        "`dpkg` is the lowest level tool.",
        "`apt` is the high-level tool.",
        "`apt-get` is meant for scripts.",
    ]
    assert cited == ["wiki/dpkg-vs-apt.md"]


def test_a_quote_without_a_full_stop_ends_at_its_citation() -> None:
    """ "date --date='2 days ago'（来源：…）The string …" was shown as one glued sentence, and a glued
    pair could repeat a sentence already shown (a trial's wget summary said one sentence twice)."""
    answer = (
        "To print the date of the day before yesterday: date --date='2 days ago'（来源：[a.md](../raw/a.md)）"
        "The string 'tomorrow' is worth one day in the future.（来源：[b.md](../raw/b.md)）"
        "To print the date of the day before yesterday: date --date='2 days ago'（来源：[a.md](../raw/a.md)）"
    )
    sentences, cited = _finding("如何显示前天的日期？", answer)
    assert sentences == [
        "To print the date of the day before yesterday: date --date='2 days ago'",
        "The string 'tomorrow' is worth one day in the future.",
    ]
    assert cited == ["a.md", "b.md"]


def test_a_finding_shows_one_of_sentences_that_say_nearly_the_same() -> None:
    """A reference page repeats a member's docstring in every class that has it."""
    answer = (
        "setLevel(self, level) Set the logging level of this logger. "
        "setLevel(self, level) Set the logging level of this handler. "
        "The level is an int or a str naming it. (source: wiki/levels.md)"
    )
    sentences, _cited = _finding("What does setLevel do?", answer)
    assert sentences == [
        "setLevel(self, level) Set the logging level of this logger.",
        "The level is an int or a str naming it.",
    ]


def test_findings_answer_the_topics_facets_before_a_sections_key_points() -> None:
    """A key-points question is resolved by any sentence of its section, so resolved-first ranking
    put "exception(self, msg, …)" above what loggers and handlers are; and an answer that never
    names what it was asked (propagation) is no finding."""
    from autodidact.loop.audit_answers import AuditedQuestion
    from autodidact.loop.research_summary import _Asked, findings

    topic = "How do I configure Python logging: loggers, handlers, propagation?"
    asked = [
        _Asked(
            AuditedQuestion(
                qid="r1q8",
                status="resolved",
                question="What are the key points of “class Logger”?",
                answer="exception(self, msg) Convenience method for logging an ERROR. (source: wiki/loggers.md)",
            ),
            1,
            0,
            False,
        ),
        _Asked(
            AuditedQuestion(
                qid="r1q2",
                status="partial",
                question="What is the definition of loggers in configuring Python logging?",
                answer="Instances of the Logger class represent a single logging channel. (source: wiki/loggers.md)",
            ),
            1,
            1,
            False,
        ),
        _Asked(
            AuditedQuestion(
                qid="r1q5",
                status="partial",
                question="What is the definition of propagation in configuring Python logging?",
                answer="It is a convenience method to configure logging. (source: wiki/basicconfig.md)",
            ),
            1,
            2,
            False,
        ),
    ]
    shown = [entry.item.qid for entry, _, _ in findings(asked, topic)]
    assert shown == ["r1q2", "r1q8"]


class AskingDuringResearch(RecordingReporter):
    """A person who runs ``autodidact ask`` while round 1 researches (its questions already made)."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root

    def step_started(self, round_n: int, step: str) -> None:
        super().step_started(round_n, step)
        if round_n == 1 and step == "research":
            add_question(open_kb(self.root), HARD_QUESTION)


def test_a_question_asked_during_the_last_round_gets_its_round_in_the_same_run(
    fresh_kb: Callable[[str], Path],
) -> None:
    """The cap ended the research with the question pending, and only a second ``research`` gave it
    the round the README promises (a newcomer's trial)."""
    root = fresh_kb("kb")
    reporter = AskingDuringResearch(root)
    result = research_sync(
        open_kb(root), topic=TOPIC, runtime=Runtime(), settings=load_settings(root), reporter=reporter, max_rounds=1
    )
    assert result.rounds == 2 and result.status == "terminated"
    assert any(w.startswith("max_rounds raised from 1 to 2: 1 pending user question(s)") for w in warnings(reporter))
    rq = RoundQuestions.model_validate_json((root / "outputs/rounds/round_2_questions.json").read_text("utf-8"))
    assert rq.questions[0].text == HARD_QUESTION and rq.questions[0].source == "user"


def test_a_section_read_twice_without_more_is_not_listed_as_unanswered(tmp_path: Path) -> None:
    """The demo's summary listed "What are the further key points of “The "yield" statement”? (no
    answer found)": the section had said everything in its first answer, which is no gap."""
    from autodidact.kb import init_kb
    from autodidact.loop.audit_answers import AuditedQuestion
    from autodidact.loop.research_summary import _open_lines

    kb, _ = init_kb(tmp_path / "kb", topic=TOPIC, lang="en")
    last = [
        AuditedQuestion(
            qid="r5q5", status="open", question="What are the further key points of “The yield statement”?"
        ),
        AuditedQuestion(qid="r5q1", status="open", question="When should Python generators be used?"),
    ]
    lines = _open_lines(kb, last, False, [])
    assert lines == [
        "- r5q5: What are the further key points of “The yield statement”?"
        " (the section says nothing its first answer did not)",
        "- r5q1: When should Python generators be used? (no answer found)",
    ]


def test_a_not_covered_note_with_a_semicolon_is_no_finding() -> None:
    """「尚缺：程序做国际化；用 gettext 为 C 程序做国际化的组成与工作原理。」 split at its 「；」, and its second
    half was shown as the answer of a core finding."""
    answer = (
        "The ‘xgettext’ program is used to find and extract all translatable strings."
        "尚缺：程序做国际化；用 gettext 为 C 程序做国际化的组成与工作原理。（来源：wiki/xgettext.md）"
    )
    sentences, cited = _finding("用 gettext 为 C 程序做国际化的核心组成部分和工作原理是什么？", answer)
    assert sentences == ["The ‘xgettext’ program is used to find and extract all translatable strings."]
    assert cited == ["wiki/xgettext.md"]


def test_an_earlier_rounds_unanswered_question_stays_in_the_open_list(tmp_path: Path) -> None:
    """Each audit judges its own round's questions: round 1's unanswered one vanished from the
    summary once round 7 asked others (a fresh-eyes trial over unittest's page)."""
    from autodidact.kb import init_kb
    from autodidact.loop.audit_answers import AuditedQuestion
    from autodidact.loop.research_summary import _Asked, _open_lines

    kb, _ = init_kb(tmp_path / "kb", lang="en")
    last = [AuditedQuestion(qid="r7q1", status="partial", question="When should skipping be used?", answer="", gap="")]
    earlier = [
        _Asked(last[0], 7, 0, False),
        _Asked(AuditedQuestion(qid="r1q3", status="open", question="What are assertions?", answer=""), 1, 2, False),
        _Asked(AuditedQuestion(qid="r1q4", status="partial", question="What does setUp do?", answer=""), 1, 3, False),
        _Asked(AuditedQuestion(qid="r1q5", status="resolved", question="How do I skip tests?", answer=""), 1, 4, False),
    ]
    lines = _open_lines(kb, last, False, earlier)
    assert lines[0].startswith("- r7q1: When should skipping be used? (partly answered")
    assert "- r1q3: What are assertions? (round 1: no answer found)" in lines
    assert not any("setUp" in line or "skip tests" in line for line in lines)
    assert lines[-1].startswith("- 1 more question(s) of earlier rounds were partly answered")


def test_a_sentence_holding_a_shown_one_whole_is_not_shown_again() -> None:
    """pydoc's "… or TestSuite instance. __main__ _log async_case …" has no capital after its stop,
    so it read as one sentence beginning with the one just shown: the finding said it twice."""
    first = "The name may resolve either to a module, a test case class, or a callable object."
    glued = "__main__ _log async_case loader main mock result runner signals suite util loadTestsFromNames(self)"
    answer = f"{first} {first} {glued} Return a suite of all test cases. For use, create an instance of TestSuite."
    sentences, _ = _finding("What is the definition of test cases?", answer)
    assert sentences == [first, "For use, create an instance of TestSuite."]


def test_a_finding_cites_the_articles_that_hold_what_it_shows() -> None:
    """An audit answer cites every article it read; "How do I find elements with XPath?" cited
    reading-attributes.md, which held neither of the sentences shown (a fresh-eyes trial)."""
    from autodidact.loop.research_summary import _holding, _plain

    texts = {
        "wiki/xpath.md": _plain(
            "- findtext(self, path) Find first **matching** element by tag name or path. (source: a.md)"
        ),
        "wiki/attributes.md": _plain("- 'attrib' - a dictionary storing the element's attributes. (source: a.md)"),
    }
    shown = ["findtext(self, path) Find first matching element by tag name or path."]
    assert _holding(["wiki/xpath.md", "wiki/attributes.md"], shown, texts) == ["wiki/xpath.md"]
    # a sentence no article is seen to hold: every article stays cited
    assert _holding(["wiki/xpath.md", "wiki/attributes.md"], [*shown, "Something else."], texts) == [
        "wiki/xpath.md",
        "wiki/attributes.md",
    ]


def test_a_key_points_finding_is_headed_by_its_section() -> None:
    """A summary whose findings were headed "《class Formatter》的要点是什么？" read as a list of
    questions (a fresh-eyes trial); the section read is what the finding is about."""
    assert finding_label("《logging》中《class Formatter》的要点是什么？") == "class Formatter (logging)"
    assert finding_label("What are the further key points of “System wide upgrade”?") == "System wide upgrade"
    assert finding_label("What does skipIf do?") == "What does skipIf do?"
