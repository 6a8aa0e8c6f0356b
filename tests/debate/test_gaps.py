"""Evidence gaps: confirm before research, fingerprints, rejection, alignment, and the research agent."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autodidact.debate import gaps
from autodidact.debate.checker import check_session
from autodidact.debate.projection import replay
from autodidact.debate.store import SessionStore
from autodidact.testing.evidence_files import REF, claim, evidence_file, item, source

from .conftest import LogBuilder

PROMPT = "Remote work makes people less creative because they miss chance encounters"
DOC = """# Remote work and new ideas

Chance encounters in the office drive new ideas. A study of remote teams found that people proposed fewer
new ideas in meetings after the move to remote work.

Teams that kept one office day a week proposed more ideas than fully remote teams.
"""


@pytest.fixture
def kb_with_doc(kb_dir: Path, tmp_path: Path) -> Path:
    from autodidact.kb import open_kb
    from autodidact.sources.ingest import add_paths

    doc = tmp_path / "docs" / "remote.md"
    doc.parent.mkdir()
    doc.write_text(DOC, "utf-8")
    report = add_paths(open_kb(kb_dir), [doc])
    assert report.added
    return kb_dir


def _to_gap(debate: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    debate("start", PROMPT, depth="standard")
    debate("reply", "s1", "I mean the number of new ideas proposed in meetings")
    return debate("reply", "s1", "My premise is that chance encounters drive new ideas, but that is unverified")


def _events(kb: Path) -> list[dict[str, Any]]:
    return SessionStore(kb / "debates" / "s1").events()


def test_fingerprint_ignores_whitespace_and_punctuation_but_not_content() -> None:
    a = gaps.fingerprint("Is there evidence?", "the  KB", "research_agent", "quick")
    assert a == gaps.fingerprint("is there evidence", "the KB.", "research_agent", "quick")
    assert a != gaps.fingerprint("Is there evidence?", "the web", "research_agent", "quick")
    assert a != gaps.fingerprint("Is there evidence?", "the KB", "research_agent", "moderate")
    assert gaps.fingerprint("有没有证据？", "知识库 ", "t", "q") == gaps.fingerprint("有没有证据", "知识库。", "t", "q")


def test_nothing_is_dispatched_before_the_confirming_user_event(
    debate: Callable[..., dict[str, Any]], kb_with_doc: Path
) -> None:
    proposed = _to_gap(debate)
    assert proposed["state"] == "WAITING_GAP_CONFIRMATION"
    assert proposed["turn"]["role"] == "moderator" and proposed["turn"]["question_type"] == "CONFIGURATION"
    folder = kb_with_doc / "debates" / "s1"
    assert not (folder / "gaps").exists()
    assert not any(e["type"] == "EVIDENCE_IMPORTED" for e in _events(kb_with_doc))
    first_fp = replay(_events(kb_with_doc)).gap_requests[0]["fingerprint"]  # type: ignore[union-attr]
    changed = debate("reply", "s1", "scope: only the notes in raw")
    assert changed["state"] == "WAITING_GAP_CONFIRMATION" and not (folder / "gaps").exists()
    gap = replay(_events(kb_with_doc)).gap_requests[0]  # type: ignore[union-attr]
    assert gap["scope"] == "only the notes in raw" and gap["fingerprint"] != first_fp
    assert gap["approval"]["status"] == "PENDING"
    after = debate("reply", "s1", "yes")
    events = _events(kb_with_doc)
    confirmed = next(e for e in events if e["type"] == "GAP_CONFIRMED")
    imported = next(e for e in events if e["type"] == "EVIDENCE_IMPORTED")
    assert confirmed["seq"] < imported["seq"] and confirmed["execution_kind"] == "USER"
    assert imported["payload"]["execution_status"] == "DONE"
    assert (folder / "gaps" / "g1" / "evidence.json").is_file()
    links = imported["payload"]["links"]
    assert links and all(link["alignment"] != "VERIFIED" or link["relation"] == "SUPPORT" for link in links)
    assert after["turn"] is not None and "records" in after["turn"]["contribution"]
    assert after["turn"]["citation"].startswith("gaps/g1/evidence.json")
    assert check_session(folder)["ok"]


def test_rejected_gap_stays_an_open_question(debate: Callable[..., dict[str, Any]], kb_with_doc: Path) -> None:
    _to_gap(debate)
    after = debate("reply", "s1", "no, let's keep talking")
    session = replay(_events(kb_with_doc))
    assert session is not None
    gap = session.gap_requests[0]
    assert gap["approval"]["status"] == "REJECTED" and gap["execution_status"] == "NOT_STARTED"
    assert gap["question"] in session.open_questions
    assert after["turn"]["kind"] == "SUBSTANTIVE"
    assert not (kb_with_doc / "debates" / "s1" / "gaps").exists()
    assert check_session(kb_with_doc / "debates" / "s1")["ok"]


def test_a_scope_change_after_confirmation_invalidates_it() -> None:
    b = LogBuilder()
    b.add("USER_INPUT", {"intent": "PROMPT", "text": "x"}, "user", "USER")
    b.add("IDEA_REVISED", {"idea_id": "i1", "proposition": "x"})
    gap = {"gap_id": "g1", "idea_id": "i1", "question": "Is there evidence?", "scope": "the KB",
           "target": gaps.TARGET, "budget": "quick"}  # fmt: skip
    gap["fingerprint"] = gaps.gap_fingerprint(gap)
    b.add("GAP_PROPOSED", {"gap": gap})
    b.add("GAP_CONFIRMED", {"gap_id": "g1", "scope_fingerprint": gap["fingerprint"]}, "user", "USER")
    confirmed = replay(b.events).gap_requests[0]  # type: ignore[union-attr]
    assert gaps.may_dispatch(confirmed)
    b.add("GAP_PROPOSED", {"gap": gaps.with_scope(gap, "the   KB.")})  # same scope after normalisation
    assert replay(b.events).gap_requests[0]["approval"]["status"] == "CONFIRMED"  # type: ignore[union-attr]
    b.add("GAP_PROPOSED", {"gap": gaps.with_scope(gap, "the whole web")})
    stale = replay(b.events).gap_requests[0]  # type: ignore[union-attr]
    assert stale["approval"]["status"] == "INVALIDATED" and not gaps.may_dispatch(stale)
    with pytest.raises(PermissionError):
        gaps.dispatch(stale, lang="en", runtime=None, settings=None, kb_root=None, out_dir=Path("/nonexistent"))


def test_alignment_rule() -> None:
    prop = "chance encounters drive new ideas"
    quote = "In this study, chance encounters drive new ideas in most teams."
    base = {"verbatim_quote": quote, "location": "source_cache/a/b.md", "quote_type": "direct"}
    assert gaps.alignment({**base, "relation": "SUPPORT"}, prop) == "VERIFIED"
    for relation in ("CONTEXT", "BOUNDARY", "CHALLENGE"):
        assert gaps.alignment({**base, "relation": relation}, prop) == "UNRESOLVED"
    cooccur = {**base, "quote": "", "verbatim_quote": "Encounters and new ideas were both measured."}
    assert gaps.alignment({**cooccur, "relation": "SUPPORT"}, prop) == "UNRESOLVED"
    assert gaps.alignment({**base, "relation": "SUPPORT", "location": ""}, prop) == "UNRESOLVED"
    assert gaps.alignment({**base, "relation": "SUPPORT", "quote_type": "paraphrase"}, prop) == "UNRESOLVED"
    found = claim("d1.c1", "A statement.", evidence=[item(quote, snapshot_ref=REF)], polarity="neutral")
    links = gaps.links_from_evidence(evidence_file([found], [source()]), prop)
    assert gaps.links_from_evidence(None, prop) == []  # the research wrote no file
    assert links[0]["relation"] == "CONTEXT" and links[0]["alignment"] == "UNRESOLVED"
    assert "cannot answer" in gaps.impact(links, "en") or "bounds" in gaps.impact(links, "en")
    assert json.dumps(gaps.impact([], "zh"), ensure_ascii=False).count("无法回答") == 1
