"""Research from the page: start, watch the event stream, ask into the loop, stop at a safe point, resume."""

from __future__ import annotations

import json
import time
from pathlib import Path

from starlette.testclient import TestClient

from autodidact.api import status

from .conftest import GENERATORS_MD, ORIGIN, client_for, error_of, token_of

WAIT_SECONDS = 300.0


def _events(client: TestClient) -> list[dict[str, object]]:
    """Reads the stream to its end (it ends when the run does) and returns every event."""
    with client.stream("GET", "/research/events") as answer:
        assert answer.headers["content-type"].startswith("text/event-stream")
        lines = [line for line in answer.iter_lines() if line.startswith("data: ")]
    return [json.loads(line[len("data: ") :]) for line in lines]


def _wait_until_not_running(client: TestClient) -> dict[str, object]:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        events = _events(client)
        if events and events[-1]["state"] != "running":
            return events[-1]
    raise AssertionError("the research did not end in time")


def _corpus(kb: Path, documents: int = 1) -> None:
    (kb / "docs").mkdir(parents=True)
    for i in range(documents):
        (kb / "docs" / f"generators-{i}.md").write_text(
            GENERATORS_MD.replace("# Python", f"# Part {i}: Python"), "utf-8"
        )


def test_a_research_started_from_the_page_streams_its_progress_and_fills_the_overview(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    _corpus(kb)
    with client_for(kb) as client:
        assert _events(client) == [{"state": "idle", "recent": []}]
        token = token_of(client)
        started = client.post(
            "/research/start",
            data={"token": token, "topic": "How do Python generators work?", "corpus": "docs", "max_rounds": "2"},
            headers={"origin": ORIGIN},
            follow_redirects=False,
        )
        assert started.status_code == 303 and started.headers["location"] == "/research"
        again = client.post("/research/start", data={"token": token, "topic": "again"}, headers={"origin": ORIGIN})
        assert again.status_code in (400, 303)  # refused while running (or the run already ended)
        if again.status_code == 400:
            assert error_of(again.text) == "a research is already running on this knowledge base"
        last = _wait_until_not_running(client)
        assert last["state"] == "finished", last
        assert any("round 1" in line for line in last["recent"])  # type: ignore[attr-defined]
        assert last["result"]["rounds"] == 2  # type: ignore[index]
        page = client.get("/research").text
        assert 'id="state">finished' in page and "round 1" in page
        overview = client.get("/").text
        assert "How do Python generators work?" in overview and "terminated" in overview
        asked = client.post(
            "/research/ask",
            data={"token": token, "question": "Can a generator be restarted?"},
            headers={"origin": ORIGIN},
        )
        assert asked.status_code == 200 and "Recorded" in asked.text
    assert status(kb=kb).pending_user_questions == 1


def test_a_running_research_stops_at_a_safe_point_and_resumes_from_the_page(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    _corpus(kb, documents=12)
    with client_for(kb) as client:
        token = token_of(client)
        client.post(
            "/research/start",
            data={"token": token, "topic": "How do Python generators work?", "corpus": "docs", "max_rounds": "4"},
            headers={"origin": ORIGIN},
        )
        stopped = client.post("/research/stop", data={"token": token}, headers={"origin": ORIGIN})
        assert stopped.status_code == 200, error_of(stopped.text)
        last = _wait_until_not_running(client)
        assert last["state"] == "stopped", last
        assert status(kb=kb).status != "terminated"
        resumed = client.post("/research/resume", data={"token": token}, headers={"origin": ORIGIN})
        assert resumed.status_code == 200
        assert _wait_until_not_running(client)["state"] == "finished"
    assert status(kb=kb).status == "terminated"
