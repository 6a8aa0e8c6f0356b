"""The session checker (docs/contracts.md §4.3): one rule id per protocol point, checked from the event log.

Why from events and in order: several rules are about *when* something happened (an evaluative
question before the gate opened, a question after two stalled rounds without a checkpoint, research
before confirmation). Walking the log and applying each event to a fresh projection sees the state
exactly as it was at each moment. The engine runs its own sessions through this checker in tests.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from autodidact.debate import gaps, gates, summaries
from autodidact.debate.events import EventLine
from autodidact.debate.projection import apply
from autodidact.debate.roles import ROLES, SOURCE_LABELS, VALID_LABEL_SUFFIXES, role_matches
from autodidact.debate.session import MATURITY_ORDER, Session, approval_of, json_int
from autodidact.debate.store import SessionStore
from autodidact.debate.templates import sentence_count, without_quotes
from autodidact.debate.turns import BUNDLING_WORDS, BUNDLING_WORDS_EN

RULES: dict[str, str] = {
    "DC01": "a focus question has exactly one question mark",
    "DC02": "a focus question bundles nothing (以及/另外/顺便)",
    "DC03": "every substantive round has the person's own answer; the program never answers for them",
    "DC04": "role and question type match (one to one)",
    "DC05": "configuration questions only from the moderator",
    "DC06": "maturity history starts at RAW and climbs one level at a time",
    "DC07": "no evaluative (P3) question on a RAW idea before two development signals",
    "DC08": "two rounds without a new signal are followed by a CHECKPOINT with a stop reason (S1)",
    "DC09": "a checkpoint or summary never claims a proposition proven",
    "DC10": "a rejected gap stays in open_questions",
    "DC11": "budget exhaustion is recorded; no round beyond the depth's limit",
    "DC12": "CONTEXT/BOUNDARY/CHALLENGE evidence is never VERIFIED",
    "DC13": "no gap executed without CONFIRMED by a user event for its current fingerprint",
    "DC14": "every turn keeps the skeleton: short response, label, sourced contribution, reason",
    "DC15": "no substantive question before the depth is confirmed",
    "DC16": "every checkpoint records a stop reason",
    "DC17": "a question answered in this stage is never asked again (the person's answer closed it)",
}
STOP_REASONS = {"USER_CLOSED", "CHECKPOINT_REACHED", "NO_PROGRESS", "BUDGET_EXHAUSTED", "PAUSED", "USER_SWITCHED_MODE"}


class ViolationJSON(TypedDict):
    """One broken rule as ``debate check`` prints it."""

    rule: str
    message: str
    seq: int | None


class CheckResult(TypedDict):
    """``debate check --json``: the session's violations and the rules they refer to."""

    ok: bool
    session: str
    violations: list[ViolationJSON]
    rules: dict[str, str]


@dataclass(frozen=True)
class Violation:
    rule: str
    message: str
    seq: int | None = None

    def to_json(self) -> ViolationJSON:
        return {"rule": self.rule, "message": self.message, "seq": self.seq}


def _question_rules(question: str, seq: int | None) -> list[Violation]:
    out = []
    marks = question.count("?") + question.count("？")
    if marks != 1:
        out.append(Violation("DC01", f"focus question has {marks} question marks: {question[:80]!r}", seq))
    # the person's words quoted in the question bundle nothing ("You answered this with 'Not really,
    # and by the way my …'" was flagged)
    low = without_quotes(question).lower()
    for word in (*BUNDLING_WORDS, *BUNDLING_WORDS_EN):
        if word in low:
            out.append(Violation("DC02", f"focus question bundles with {word!r}: {question[:80]!r}", seq))
    return out


def _on_event(session: Session | None, event: EventLine, out: list[Violation]) -> None:
    """Rules judged against the state just before ``event`` is applied."""
    kind, p, seq = event["type"], event["payload"], event["seq"]
    if session is None:
        return
    if kind == "SELECTION_REASON" and "field" not in p and p.get("turn") is not None:
        round_kind = p.get("kind", "SUBSTANTIVE")
        role, qtype = p.get("role", ""), p.get("question_type", "")
        # strings in every log the projection accepts (a selected turn's round needs both)
        role, qtype = (role if isinstance(role, str) else ""), (qtype if isinstance(qtype, str) else "")
        if not role_matches(role, qtype):
            out.append(Violation("DC04", f"role {role} asked a {qtype} question", seq))
        if (qtype == "CONFIGURATION") != (role == "moderator") or (round_kind == "CONFIGURATION") != (
            role == "moderator"
        ):
            out.append(Violation("DC05", f"{round_kind} question of type {qtype} from {role}", seq))
        if round_kind == "CONFIGURATION":
            return
        if session.execution.depth is None:
            out.append(Violation("DC15", "substantive question before the depth was confirmed", seq))
        idea = session.idea()
        if p.get("trigger") == "P3" and not gates.evaluative_allowed(session, idea):
            count = gates.development_count(session, idea.idea_id)
            out.append(Violation("DC07", f"P3 question on a RAW idea after {count} development signals", seq))
        if gates.no_progress_streak(session) >= 2:
            out.append(Violation("DC08", "a new question after two rounds without a signal and no checkpoint", seq))
        budget = session.execution.budget
        if budget is not None and session.execution.usage.rounds >= budget.max_rounds:
            out.append(Violation("DC11", f"round beyond the limit of {budget.max_rounds}", seq))
    elif kind == "QUESTION_ASKED":
        asked = " ".join(str(p.get("question", "")).split())
        for r in session.rounds:
            if (
                r.question_type != "CONFIGURATION"
                and r.user_answer is not None
                and r.answer_command is None  # a command ("review it") does not answer the question
                and r.stage == session.stage
                and " ".join((r.question or "").split()) == asked
            ):
                out.append(Violation("DC17", f"re-asked a question answered in turn {r.turn}: {asked[:80]!r}", seq))
                break
    elif kind == "PROGRESS_SIGNAL" and p.get("signal") not in gates.SIGNALS:
        out.append(Violation("DC08", f"unknown progress signal {p.get('signal')!r} (it would count as progress)", seq))
    elif kind == "CHECKPOINT":
        if p.get("stop_reason") not in STOP_REASONS:
            out.append(Violation("DC16", f"checkpoint without a valid stop reason ({p.get('stop_reason')!r})", seq))
        word = summaries.claims_proven(json.dumps(p.get("summary") or {}, ensure_ascii=False))
        if word:
            out.append(Violation("DC09", f"checkpoint summary claims proof ({word!r})", seq))
    elif kind == "GAP_CONFIRMED" and (event["execution_kind"] != "USER" or event["actor"] != "user"):
        out.append(Violation("DC13", f"gap {p.get('gap_id')} confirmed by {event['actor']}, not by the person", seq))
    elif kind == "EVIDENCE_IMPORTED":
        try:
            gap = session.gap(str(p.get("gap_id")))
        except Exception:
            out.append(Violation("DC13", f"evidence imported for unknown gap {p.get('gap_id')!r}", seq))
            return
        approval = gap.get("approval") or {}
        if not isinstance(approval, dict):
            raise AttributeError(f"gap approval is not an object: {approval!r}")
        current = gaps.gap_fingerprint(gap)
        if approval.get("status") != "CONFIRMED" or approval.get("confirmed_by") != "USER":
            out.append(Violation("DC13", f"gap {gap['gap_id']} executed while {approval.get('status')}", seq))
        elif approval.get("scope_fingerprint") != current or p.get("scope_fingerprint") not in (None, current):
            out.append(Violation("DC13", f"gap {gap['gap_id']} executed on a stale fingerprint", seq))


def _final_rules(session: Session, events: list[EventLine], out: list[Violation]) -> None:
    by_id = {e["event_id"]: e for e in events}
    pending_turn = (session.pending_question or {}).get("turn")
    for item in session.rounds:
        if item.question is not None:
            for v in _question_rules(item.question, None):
                out.append(Violation(v.rule, f"turn {item.turn}: {v.message}"))
            label_ok = (item.label or "").endswith(VALID_LABEL_SUFFIXES) or (
                item.role == "moderator" and item.label in {ROLES["moderator"].name_zh, ROLES["moderator"].name_en}
            )
            problems = []
            if not label_ok:
                problems.append(f"label {item.label!r}")
            response = (item.response or "").strip()
            if not response or (response not in {"跳过回应", "(no response)"} and sentence_count(response) > 2):
                problems.append("response missing or longer than two sentences")
            if not (item.contribution or "").strip() or item.source_label not in SOURCE_LABELS:
                problems.append("no sourced contribution (N1)")
            if not (item.why or "").strip():
                problems.append("no reason for the question")
            if problems:
                out.append(Violation("DC14", f"turn {item.turn}: " + "; ".join(problems)))
        if item.kind == "CONFIGURATION":
            continue
        if item.user_answer is None:
            if item.turn != pending_turn and not item.unanswered_reason and item is not session.rounds[-1]:
                out.append(Violation("DC03", f"turn {item.turn} was never answered"))
            continue
        if not str(item.user_answer).strip():
            out.append(Violation("DC03", f"turn {item.turn}: the answer is empty, so it is not the person's input"))
            continue
        source = by_id.get(item.answer_event_id or "")
        if (
            source is None
            or source["type"] != "USER_INPUT"
            or source["actor"] != "user"
            or source["execution_kind"] != "USER"
            or source["payload"].get("text") != item.user_answer
        ):
            out.append(Violation("DC03", f"turn {item.turn}: the answer is not the person's verbatim input"))
    for idea in session.ideas:
        history = idea.maturity_history
        steps = [MATURITY_ORDER.index(h) if h in MATURITY_ORDER else -9 for h in history]
        if not history or history[0] != "RAW" or any(b - a != 1 for a, b in itertools.pairwise(steps)):
            out.append(Violation("DC06", f"idea {idea.idea_id} maturity history {history}"))
        for version in idea.versions:
            for link in version.evidence_links:
                if link.get("alignment") == "VERIFIED" and (
                    link.get("relation") in gaps.NEVER_VERIFIED
                    or not link.get("verbatim_quote")
                    or not link.get("location")
                ):
                    out.append(
                        Violation(
                            "DC12", f"idea {idea.idea_id} v{version.version}: {link.get('relation')} link VERIFIED"
                        )
                    )
    for gap in session.gap_requests:
        if approval_of(gap).get("status") == "REJECTED" and gap.get("question") not in session.open_questions:
            out.append(Violation("DC10", f"rejected gap {gap['gap_id']} missing from open_questions"))
    budget = session.execution.budget
    substantive = session.substantive_rounds
    if budget is not None and session.execution.usage.rounds >= budget.max_rounds and substantive:
        last = substantive[-1]
        recorded = any(
            c.get("stop_reason") in {"BUDGET_EXHAUSTED", "USER_CLOSED", "CHECKPOINT_REACHED", "NO_PROGRESS"}
            and json_int(c.get("last_turn") or 0) >= last.turn
            for c in session.checkpoints
        )
        if last.user_answer is not None and not recorded:
            out.append(Violation("DC11", f"budget of {budget.max_rounds} rounds used up without a checkpoint"))


def check_events(events: list[EventLine], summaries_dir: Path | None = None) -> list[Violation]:
    """Every violation in a log (and, when given, the summary files)."""
    out: list[Violation] = []
    session: Session | None = None
    for event in events:
        _on_event(session, event, out)
        session = apply(session, event)
    if session is not None:
        _final_rules(session, events, out)
    if summaries_dir is not None and summaries_dir.is_dir():
        for path in sorted(summaries_dir.glob("*.md")):
            word = summaries.claims_proven(path.read_text("utf-8"))
            if word:
                out.append(Violation("DC09", f"{path.name} claims proof ({word!r})"))
    return out


def check_session(folder: Path) -> CheckResult:
    """The checker's JSON result for a session folder."""
    store = SessionStore(folder)
    store.require()
    violations = check_events(store.events(), store.summaries)
    return {
        "ok": not violations,
        "session": folder.name,
        "violations": [v.to_json() for v in violations],
        "rules": RULES,
    }
