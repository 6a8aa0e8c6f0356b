"""Independent review isolation, the deterministic divergence judgement, and model turns held to the rules."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from autodidact.debate import review
from autodidact.debate.checker import check_session
from autodidact.debate.engine import Engine
from autodidact.debate.review import ReviewOutput, assess
from autodidact.llm.runtime import Runtime
from autodidact.testing.scripted import ScriptedModel

PROMPT = "Remote work makes people less creative because they miss chance encounters"
GOOD_TURN = {
    "response": "(no response)",
    "contribution": "A candidate reading: ideas proposed per meeting.",
    "source": "suggestion",
    "question": "Which reading fits your case?",
    "why": "It fixes what to observe.",
}


def _data(request: Any) -> dict[str, Any]:
    text = request.messages[-1]["content"]
    body = re.search(r"<<DATA \w+>> \([^)]*\)\n(.*)\n<<END \w+>>", text, re.S)
    assert body is not None
    return json.loads(body.group(1))


def _model(turn_replies: list[dict[str, Any]] | None = None) -> ScriptedModel:
    turns = list(turn_replies or [])

    def fn(request: Any) -> str:
        if request.task == "debate.role_turn":
            return json.dumps(turns.pop(0) if turns else GOOD_TURN)
        if request.task == "debate.mode":
            return json.dumps({"mode": "examine", "basis": "because they miss"})
        if request.task == "debate.signals":
            allowed = re.search(r"question: ([A-Z_, ]+)\.", request.messages[0]["content"])
            assert allowed is not None
            return json.dumps({"signals": [allowed.group(1).split(", ")[0]], "dont_know": False})
        if request.task == "debate.review":
            data = _data(request)
            if data["perspective"] == "premise_evidence_examiner":
                return json.dumps({"verdict": "SUPPORTED", "load_bearing_premises": ["encounters drive ideas"],
                                   "strongest_counterexample": "COUNTER-FROM-REVIEW-1", "searched_scope": "input",
                                   "discriminating_evidence": "office days", "change_condition": "no drop",
                                   "limitations": ""})  # fmt: skip
            return json.dumps({"verdict": "CHALLENGED", "load_bearing_premises": ["budget stayed the same"],
                               "strongest_counterexample": "budget cuts", "searched_scope": "input",
                               "discriminating_evidence": "budget data", "change_condition": "cuts in both",
                               "limitations": ""})  # fmt: skip
        raise AssertionError(f"unexpected task {request.task}")

    return ScriptedModel(fn=fn)


def test_review_calls_see_only_the_whitelisted_input(tmp_path: Path) -> None:
    model = _model()
    folder = tmp_path / "debates" / "s1"
    runtime = Runtime(model=model)
    Engine(folder, runtime=runtime).start(PROMPT, depth="standard")
    answers = [
        "I mean ideas proposed in meetings",
        "The weakest premise is that encounters drive ideas",
        "MARKER-P3 if hybrid teams propose more ideas the claim holds",
        "MARKER-P4 budget cuts could explain it too",
    ]
    for answer in answers:
        Engine(folder, runtime=runtime).reply(answer)
    reviews = [r for r in model.requests if r.task == "debate.review"]
    assert len(reviews) == 2
    for request in reviews:
        data = _data(request)
        assert set(data) == set(review.WHITELIST)
        whole = json.dumps([m["content"] for m in request.messages], ensure_ascii=False)
        assert data["proposition"].startswith(PROMPT)
        assert "MARKER-P3" not in whole and "MARKER-P4" not in whole  # other answers never reach a reviewer
        assert "counterexample check before converging" not in whole  # nor the moderator's leaning
    assert "COUNTER-FROM-REVIEW-1" not in json.dumps([m["content"] for m in reviews[1].messages])
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text("utf-8").splitlines()]
    returned = [e for e in events if e["type"] == "REVIEW_RETURNED"]
    assert [e["execution_kind"] for e in returned] == ["INDEPENDENT_AGENT", "INDEPENDENT_AGENT"]
    assessed = next(e for e in events if e["type"] == "DISAGREEMENT_ASSESSED")
    assert assessed["payload"]["divergence"] == "HIGH_DIVERGENCE"
    assert not any(e["type"] == "DEGRADED_REVIEW" for e in events)
    turn = next(e for e in events if e["type"] == "ROLE_RESPONSE" and e["execution_kind"] == "INDEPENDENT_AGENT")
    assert turn["payload"]["label"].endswith("independent agent review")
    mode_reason = next(e for e in events if e["payload"].get("field") == "mode_reason")["payload"]["value"]
    assert "because they miss" in mode_reason  # the model judged the mode, the reason quotes the prompt
    assert check_session(folder)["ok"]


def _out(verdict: str, premises: list[str], counter: str) -> ReviewOutput:
    return ReviewOutput(verdict=verdict, load_bearing_premises=premises, strongest_counterexample=counter,  # type: ignore[arg-type]
                        searched_scope="s", discriminating_evidence="d", change_condition="c")  # fmt: skip


def test_divergence_is_decided_by_the_program() -> None:
    same = [_out("BOUNDED", ["a", "b"], "NONE_FOUND"), _out("BOUNDED", ["A.", "b"], "none found")]
    assert assess(same, degraded=False)[0] == "LOW_DIVERGENCE"
    assert assess(same, degraded=True)[0] != "LOW_DIVERGENCE"  # a self-check never reaches LOW
    assert assess([same[0], _out("CHALLENGED", ["a", "b"], "NONE_FOUND")], degraded=False)[0] == "HIGH_DIVERGENCE"
    assert assess([same[0], _out("BOUNDED", ["x", "y"], "NONE_FOUND")], degraded=False)[0] == "HIGH_DIVERGENCE"
    assert assess([same[0], _out("BOUNDED", ["a", "b"], "a storm")], degraded=False)[0] == "HIGH_DIVERGENCE"


def test_offline_review_is_labelled_a_self_check(tmp_path: Path) -> None:
    folder = tmp_path / "debates" / "s1"
    Engine(folder).start(PROMPT, depth="quick")
    Engine(folder).reply("review it: independent review please")
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text("utf-8").splitlines()]
    degraded = next(e for e in events if e["type"] == "DEGRADED_REVIEW")
    assert degraded["execution_kind"] == "SELF_CHECK" and "self-check" in degraded["payload"]["label"]
    assessed = next(e for e in events if e["type"] == "DISAGREEMENT_ASSESSED")
    assert assessed["payload"]["divergence"] != "LOW_DIVERGENCE"
    turn = [e for e in events if e["type"] == "ROLE_RESPONSE"][-1]
    assert turn["payload"]["label"].endswith("perspective self-check (not an independent review)")
    assert check_session(folder)["ok"]


def test_a_model_turn_that_breaks_the_rules_is_reasked_once(tmp_path: Path) -> None:
    broken = {**GOOD_TURN, "question": "Is it A? Or is it B?"}
    model = _model([broken, GOOD_TURN])
    folder = tmp_path / "debates" / "s1"
    Engine(folder, runtime=Runtime(model=model)).start(PROMPT, depth="standard")
    turns = [r for r in model.requests if r.task == "debate.role_turn"]
    assert len(turns) == 2
    assert "broke these rules" in turns[1].messages[-1]["content"]
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text("utf-8").splitlines()]
    response = next(e for e in events if e["type"] == "ROLE_RESPONSE")
    assert response["payload"]["producer"] == "model" and response["payload"]["reasked"] is True
    asked = next(e for e in events if e["type"] == "QUESTION_ASKED")
    assert asked["payload"]["question"] == GOOD_TURN["question"]


def test_a_model_turn_broken_twice_falls_back_to_the_offline_turn(tmp_path: Path) -> None:
    broken = {**GOOD_TURN, "question": "Tell me about A as well as B?"}
    model = _model([broken, broken])
    folder = tmp_path / "debates" / "s1"
    Engine(folder, runtime=Runtime(model=model)).start(PROMPT, depth="standard")
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text("utf-8").splitlines()]
    response = next(e for e in events if e["type"] == "ROLE_RESPONSE")
    assert response["payload"]["producer"] == "offline-fallback"
    asked = next(e for e in events if e["type"] == "QUESTION_ASKED")
    assert "as well as" not in asked["payload"]["question"] and asked["payload"]["question"].count("?") == 1
    assert check_session(folder)["ok"]
