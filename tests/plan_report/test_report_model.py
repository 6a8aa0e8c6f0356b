"""Model-path report runs (ScriptedModel): resume redoes no finished dimension; quick mode; CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from autodidact.config import Settings
from autodidact.evidence.validator import validate_evidence
from autodidact.llm.base import Request
from autodidact.llm.runtime import Runtime
from autodidact.plan.offline import offline_plan
from autodidact.report.pipeline import NullReporter, run_report_sync
from autodidact.sources.snapshots import SnapshotStore
from autodidact.testing.corpora import write_pydoc_corpus
from autodidact.testing.evidence_model import reply as evidence_reply
from autodidact.testing.scripted import ScriptedModel

REQUEST = "The history of Python exception handling"


def _model() -> ScriptedModel:
    def answer(request: Request) -> str:
        if request.task == "plan.create":
            return json.dumps(offline_plan(REQUEST, "en").to_json())
        return evidence_reply(list(request.messages), fabricate=False)

    return ScriptedModel(fn=answer)


@pytest.fixture(scope="module")
def full_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    full = tmp_path_factory.mktemp("pydoc_full")
    write_pydoc_corpus(full)
    return full


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory: pytest.TempPathFactory, full_corpus: Path) -> Path:
    full = full_corpus
    small = tmp_path_factory.mktemp("pydoc_small")
    files = sorted(full.glob("*.md"))
    topical = [p for p in files if any(w in p.name for w in ("except", "try", "raise", "finally", "assert"))]
    for path in [*files[:30], *topical]:
        (small / path.name).write_bytes(path.read_bytes())
    return small


class Killed(Exception):
    """Stands for the process being killed right after a dimension finished."""


class StopAfterFirst(NullReporter):
    def __init__(self) -> None:
        self.done: list[str] = []

    def dimension_done(self, dim_id: str, stats: dict[str, Any]) -> None:
        self.done.append(dim_id)
        raise Killed(dim_id)


def _prompts(model: ScriptedModel) -> list[str]:
    return ["\n".join(m["content"] for m in r.messages) for r in model.requests]


def test_rerun_after_interruption_makes_no_model_call_for_finished_dimensions(
    tmp_path: Path, small_corpus: Path
) -> None:
    out = tmp_path / "rep"
    kwargs: dict[str, Any] = {"report_dir": out, "settings": Settings(), "corpus": [small_corpus]}
    first_model = _model()
    stopper = StopAfterFirst()
    with pytest.raises(Killed):
        run_report_sync(REQUEST, runtime=Runtime(first_model), reporter=stopper, **kwargs)
    finished = stopper.done[0]
    plan = json.loads((out / "plan.json").read_text(encoding="utf-8"))
    dims = {d["id"]: d for d in plan["dimensions"]}
    assert dims[finished]["status"] == "done"
    finished_questions = dims[finished]["key_questions"]
    assert any(q in p for p in _prompts(first_model) for q in finished_questions)

    second_model = _model()
    result = run_report_sync(REQUEST, runtime=Runtime(second_model), reporter=NullReporter(), **kwargs)
    assert not result.failed
    assert finished in result.reused and finished not in result.ran
    tasks = [r.task for r in second_model.requests]
    assert "plan.create" not in tasks  # the valid plan.json is reused
    assert second_model.requests, "the unfinished dimensions still needed the model"
    # No evidence work is redone for the finished dimension (writing the report's prose is new work:
    # the first run was killed before it).
    for request, prompt in zip(second_model.requests, _prompts(second_model), strict=True):
        if request.task != "report.write_section":
            assert not any(q in prompt for q in finished_questions)
    downstream = json.loads((out / "sub_reports" / f"{result.ran[0]}.evidence.json").read_text(encoding="utf-8"))
    assert {u["dimension_id"] for u in downstream["upstream_usage"]} <= {finished}

    third_model = _model()
    again = run_report_sync(REQUEST, runtime=Runtime(third_model), reporter=NullReporter(), **kwargs)
    assert again.ran == [] and third_model.requests == []


def test_quick_mode_writes_quick_evidence_without_upstream(tmp_path: Path, full_corpus: Path) -> None:
    out = tmp_path / "quick"
    result = run_report_sync(
        REQUEST, report_dir=out, runtime=Runtime(), settings=Settings(), corpus=[full_corpus], mode="quick"
    )
    assert not result.failed
    for path in (out / "sub_reports").glob("*.evidence.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["mode"] == "quick" and data["upstream_usage"] == []
        assert 1 <= len(data["key_findings"]) <= 3
    # the timeline type's mandatory elements, in the sections that fit them
    text = (out / "report.md").read_text(encoding="utf-8")
    timeline = text.split("\n## Timeline\n", 1)[1].split("\n## ", 1)[0]
    assert "**Timeline table (date, event, source)**" in timeline
    rows = [line for line in timeline.splitlines() if line.startswith("| ") and "---" not in line][1:]
    if rows:  # every dated row cites its claim
        assert all(re.search(r"\[\d+\] \|$", row) for row in rows)
    else:  # quick evidence may hold no dated claim: the gap is said, not filled
        assert "No dated event was found in the gathered evidence." in timeline
    phases = text.split("\n## Phases and turning points\n", 1)[1].split("\n## ", 1)[0]
    assert "**Phase summary**" in phases


def test_cli_report_runs_and_refuses_another_request_in_the_same_folder(
    tmp_path: Path, small_corpus: Path, cli: Any
) -> None:
    out = tmp_path / "cli"
    result = cli("report", REQUEST, "--report-dir", str(out), "--corpus", str(small_corpus), "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["ok"] and summary["citations"] >= 1
    assert (out / "report.html").is_file() and (out / "citations.json").is_file()
    other = cli("report", "Something else entirely", "--report-dir", str(out))
    assert other.exit_code == 2 and "different request" in other.output
    assert cli("report", REQUEST, "--report-dir", str(out), "--mode", "fast").exit_code == 2


def test_report_in_a_knowledge_base_is_self_contained(tmp_path: Path, small_corpus: Path, cli: Any) -> None:
    import shutil

    from autodidact.kb import init_kb
    from autodidact.sources.ingest import add_paths

    kb, _ = init_kb(tmp_path / "kb", topic="Python", lang="en")
    add_paths(kb, [p for p in sorted(small_corpus.glob("*.md")) if "except" in p.name or "try" in p.name])
    result = cli("report", "How does Python exception handling work?", "--kb", str(kb.root))
    assert result.exit_code == 0, result.output
    folders = list((kb.root / "reports").iterdir())
    assert len(folders) == 1 and re.match(r"^\d{4}-\d{2}-\d{2}_how-does-python-exception", folders[0].name)
    moved = tmp_path / "elsewhere"
    shutil.copytree(folders[0], moved)
    shutil.rmtree(kb.root)  # the report must not need the knowledge base any more
    citations = json.loads((moved / "citations.json").read_text(encoding="utf-8"))["citations"]
    store = SnapshotStore.for_folder(moved)
    assert citations
    for entry in citations:
        for ref in entry["snapshot_refs"]:
            store.verify(ref, url=entry["url"])
    for path in (moved / "sub_reports").glob("*.evidence.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        report = validate_evidence(data, source_cache=moved / "source_cache", expected_mode=data["mode"])
        assert report.ok, report.errors


def test_cli_with_a_model_server_caches_calls_in_the_report_folder(
    tmp_path: Path, small_corpus: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from autodidact.testing.fake_llm import FakeLLM

    def answer(body: dict[str, Any]) -> str:
        if body["messages"][0]["content"].startswith("You are a research planner"):
            return json.dumps(offline_plan(REQUEST, "en").to_json())
        return evidence_reply(body["messages"], fabricate=False)

    out = tmp_path / "rep"
    with FakeLLM(answer) as fake:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
        monkeypatch.setenv("AUTODIDACT_BASE_URL", fake.base_url)
        args = ("report", REQUEST, "--report-dir", str(out), "--corpus", str(small_corpus), "--model", "openai:fake")
        first = cli(*args)
        assert first.exit_code == 0, first.output
        calls = len(fake.requests)
        assert calls > 3
        plan = json.loads((out / "plan.json").read_text(encoding="utf-8"))
        last = plan["execution_order"][-1]
        (out / "sub_reports" / f"{last}.evidence.json").unlink()
        second = cli(*args, "--json")
        assert second.exit_code == 0, second.output
        assert json.loads(second.stdout)["dimensions_run"] == [last]
        assert len(fake.requests) == calls  # the redone dimension's calls came from the report's call cache
    assert (out / ".autodidact" / "usage_ledger.jsonl").is_file()
    assert "sk-test-not-real" not in (out / ".autodidact" / "usage_ledger.jsonl").read_text(encoding="utf-8")


PAGES = {
    "definition": "Python generators are defined as functions that contain a yield expression. The language "
    "reference defines a generator iterator as the object such a function returns. Generator expressions are a "
    "related variant of generators with a compact syntax.",
    "mechanism": "When a generator function is called, Python generators work step by step: the body runs until "
    "the next yield expression, and the generator is suspended with its local state kept. Calling next() resumes "
    "the generator from the point where it was suspended. The rules that govern generators raise StopIteration "
    "when the function returns.",
    "usage": "Python generators are used in loops to produce values lazily, one at a time. A common pattern uses "
    "generators to read large files line by line. The documentation warns about a common mistake: a generator "
    "can be consumed only once.",
    "limits": "Python generators have limitations: a generator cannot be restarted once it is exhausted. A "
    "documented restriction is that a running generator cannot be resumed from inside itself. Iterator classes "
    "are an alternative to generators when the state must be reset.",
}


def test_web_sources_are_snapshotted_into_the_report_folder(tmp_path: Path, cli: Any) -> None:
    from autodidact.testing.fake_searxng import FakeSearxng
    from autodidact.testing.fakeweb import FakeWeb

    with FakeWeb() as web:
        rows = []
        for name, text in PAGES.items():
            web.add_page(f"/{name}.html", f"<html><head><title>Generators: {name}</title></head><body><article>"
                         f"<h1>Generators {name}</h1><p>{text}</p></article></body></html>", "text/html")  # fmt: skip
            rows.append({"url": web.url(f"/{name}.html"), "title": f"Generators: {name}", "content": "snippet"})
        with FakeSearxng(lambda query: rows) as searx:
            settings = Settings.model_validate(
                {
                    "fetch": {"allow_private": [web.allow_entry], "respect_robots": False},
                    "search": {"providers": ["searxng"], "searxng_url": searx.base_url, "results_per_query": 4},
                }
            )
            out = tmp_path / "web"
            result = run_report_sync(
                "How do Python generators work?", report_dir=out, runtime=Runtime(), settings=settings
            )
    assert not result.failed, result.failed
    citations = json.loads((out / "citations.json").read_text(encoding="utf-8"))["citations"]
    web_cites = [c for c in citations if c["url"].startswith(web.base_url)]
    assert web_cites, citations
    store = SnapshotStore.for_folder(out)
    for entry in web_cites:
        for ref in entry["snapshot_refs"]:
            store.verify(ref, url=entry["url"])
    assert "snippet" not in (out / "report.md").read_text(encoding="utf-8").split("## References")[0]


def test_report_reuses_a_plan_written_by_plan_create(tmp_path: Path, small_corpus: Path, cli: Any) -> None:
    out = tmp_path / "rep"
    assert cli("plan", "create", REQUEST, "--report-dir", str(out)).exit_code == 0
    plan = json.loads((out / "plan.json").read_text(encoding="utf-8"))
    plan["research_goal"] = "A goal edited by a person before the run."
    (out / "plan.json").write_text(json.dumps(plan, ensure_ascii=False), encoding="utf-8")
    result = cli("report", REQUEST, "--report-dir", str(out), "--corpus", str(small_corpus))
    assert result.exit_code == 0, result.output
    after = json.loads((out / "plan.json").read_text(encoding="utf-8"))
    assert after["research_goal"] == plan["research_goal"]
    assert "A goal edited by a person before the run." in (out / "report.md").read_text(encoding="utf-8")
    # a plan broken by hand stops the run with its rule code instead of being replaced
    after["dimensions"][0]["key_questions"] = ["only one?"]
    (out / "plan.json").write_text(json.dumps(after, ensure_ascii=False), encoding="utf-8")
    broken = cli("report", REQUEST, "--report-dir", str(out))
    assert broken.exit_code != 0 and "P004" in broken.output


def test_report_ends_with_a_few_lines_for_people_and_json_only_when_asked(
    tmp_path: Path, small_corpus: Path, cli: Any
) -> None:
    out = tmp_path / "rep"
    result = cli("report", REQUEST, "--report-dir", str(out), "--corpus", str(small_corpus), "--mode", "quick")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"report: {out / 'report.md'}" and len(lines) <= 4
    assert "{" not in result.stdout  # no JSON dump at the end
    assert "dimensions:" in lines[-1] and "citation" in lines[-1]
    again = cli("report", REQUEST, "--report-dir", str(out), "--mode", "quick", "--json")
    summary = json.loads(again.stdout)
    assert summary["ok"] and summary["dimensions_run"] == [] and summary["dimensions_reused"]
