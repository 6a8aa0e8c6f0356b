"""The agent's model paths: ScriptedModel in process, and the whole chain over real loopback HTTP."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from autodidact.config import FetchSettings, SearchSettings, Settings
from autodidact.evidence.agent import GatherResult, gather
from autodidact.evidence.payload import parse_payload
from autodidact.evidence.validator import validate_evidence
from autodidact.llm.runtime import Runtime
from autodidact.testing.evidence_model import FABRICATED, reply
from autodidact.testing.scripted import ScriptedModel

from .conftest import Recorder, make_payload

DOC_PAGE = """<!DOCTYPE html><html><head><title>Generators — reference documentation</title></head><body><article>
<h1>Generators</h1>
<p>A generator function returns a generator iterator when it is called. Each yield expression suspends the
function and hands a value to the caller, keeping the local state for the next call.</p>
<p>Generator iterators raise StopIteration when the function body returns, which ends a for loop cleanly.</p>
</article></body></html>"""


def _run(payload: dict[str, Any], runtime: Runtime, settings: Settings | None = None, **kw: Any) -> GatherResult:
    return asyncio.run(gather(parse_payload(payload), runtime=runtime, settings=settings or Settings(), **kw))


def test_fabricated_quote_is_dropped_and_reported(pydoc_report: Path) -> None:
    model = ScriptedModel(fn=lambda req: reply(req.messages))
    rec = Recorder()
    payload = make_payload(pydoc_report, key_questions=make_payload(pydoc_report)["key_questions"][:2])
    result = _run(payload, Runtime(model=model), reporter=rec)
    text = json.dumps(result.evidence.to_json(), ensure_ascii=False)
    assert FABRICATED not in text and "1807" not in text and "P99" not in text
    # two bad claims per extraction call, for each key question, re-asked once then dropped
    assert result.dropped >= 4
    assert any("not in its snapshot" in w for w in rec.warnings)
    extract = [r for r in model.requests if r.task == "evidence.extract_claims"]
    assert any("NOT found verbatim" in r.messages[-1]["content"] for r in extract)
    assert validate_evidence(result.evidence.to_json(), source_cache=pydoc_report, require_version="1.2").ok
    assert result.evidence.headline == "Generators are lazy iterators"  # the model's synthesis was used


def test_passages_reach_the_model_only_in_data_blocks(pydoc_report: Path) -> None:
    model = ScriptedModel(fn=lambda req: reply(req.messages, fabricate=False))
    result = _run(make_payload(pydoc_report), Runtime(model=model))
    extract = [r for r in model.requests if r.task == "evidence.extract_claims"]
    assert extract
    for req in extract:
        user = req.messages[-1]["content"]
        system = req.messages[0]["content"]
        for tag in re.findall(r"<<DATA ([0-9a-f]+)>>", user):
            assert f"<<END {tag}>>" in user and tag in system  # the system message announces each block
    for claim in result.evidence.claims:
        for ev in claim.evidence:
            assert any(ev.snippet in r.messages[-1]["content"] for r in extract)


def _web_settings(web: Any, searx: Any) -> Settings:
    return Settings(
        fetch=FetchSettings(allow_private=[web.allow_entry]),
        search=SearchSettings(providers=["searxng"], searxng_url=searx.base_url, results_per_query=5),
    )


def _in_blocks(content: str, needle: str) -> bool:
    """Every occurrence of ``needle`` lies inside a <<DATA tag>> … <<END tag>> block."""
    spans = [(m.start(), m.end()) for m in re.finditer(r"<<DATA ([0-9a-f]+)>>.*?<<END \1>>", content, re.DOTALL)]
    return all(any(s <= m.start() < e for s, e in spans) for m in re.finditer(re.escape(needle), content))


def test_injection_page_is_data_and_its_url_is_never_fetched(tmp_path: Path) -> None:
    from autodidact.testing.fake_searxng import FakeSearxng
    from autodidact.testing.fakeweb import FakeWeb

    report = tmp_path / "report"
    with FakeWeb() as web:
        hits = [{"url": web.url("/injection.html"), "title": "Generator tips", "content": f"see {web.url('/exfil')}"}]
        with FakeSearxng(lambda q: hits) as searx:
            model = ScriptedModel(fn=lambda req: reply(req.messages, fabricate=False))
            kqs = [{"id": "kq1", "text": "What are generators and how do they yield values?"}]
            payload = make_payload(report, key_questions=kqs, depth="skim")
            result = _run(payload, Runtime(model=model), _web_settings(web, searx))
            assert web.requested("/injection.html")
            assert not web.requested("/exfil")
    extract = [r for r in model.requests if r.task == "evidence.extract_claims"]
    assert extract, "the page reached the extractor"
    saw_injection = False
    for req in model.requests:
        for message in req.messages:
            if "Ignore previous instructions" in message["content"]:
                saw_injection = True
                assert message["role"] == "user"
                assert _in_blocks(message["content"], "Ignore previous instructions")
    assert saw_injection
    src = result.evidence.sources[0]
    assert src.url == web.url("/injection.html")
    assert src.quality == "primary"  # an unrated page (secondary by rule) rated primary by the model
    assert not (tmp_path / "pwned.txt").exists()


def test_end_to_end_over_http_with_openai_compatible_fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from autodidact.llm.registry import build_runtime
    from autodidact.testing.fake_llm import FakeLLM
    from autodidact.testing.fake_searxng import FakeSearxng
    from autodidact.testing.fakeweb import FakeWeb

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    report = tmp_path / "report"
    with FakeWeb() as web, FakeLLM(lambda body: reply(body["messages"], fabricate=False)) as llm:
        web.add_page("/docs/generators.html", DOC_PAGE)
        hits = [{"url": web.url("/docs/generators.html"), "title": "Generators", "content": "snippet"}]
        with FakeSearxng(lambda q: hits) as searx:
            settings = _web_settings(web, searx)
            settings.llm.base_url = llm.base_url
            kqs = [
                {"id": "kq1", "text": "What does a generator function return when called?"},
                {"id": "kq2", "text": "How does a generator end a for loop?"},
            ]
            payload = make_payload(report, key_questions=kqs, depth="skim")

            def once() -> tuple[GatherResult, int, int, int]:
                runtime = build_runtime(settings, report, model="openai:test-model")
                before = (len(llm.requests), len(web.requests), len(searx.queries))
                res = _run(payload, runtime, settings)
                asyncio.run(runtime.aclose())
                after = (len(llm.requests), len(web.requests), len(searx.queries))
                return res, after[0] - before[0], after[1] - before[1], after[2] - before[2]

            first, model_calls, web_calls, searches = once()
            assert model_calls >= 3 and web_calls >= 1 and searches >= 1
            # warm: call cache, search cache and snapshot lookup answer everything
            second, model_calls, web_calls, searches = once()
            assert (model_calls, web_calls, searches) == (0, 0, 0)
            assert second.evidence == first.evidence
    ev = first.evidence
    assert validate_evidence(ev.to_json(), source_cache=report, require_version="1.2", expected_mode="initial").ok
    assert ev.sources[0].quality == "primary"  # a /docs/ path
    assert all(c.evidence[0].snippet in DOC_PAGE.replace("\n", " ") for c in ev.claims)
    assert first.stats["fetched"] == 1 and second.stats["fetched"] == 0 and second.stats["reused"] == 1
    assert [u.text_kind for u in first.used_sources] == ["web"]


def test_a_url_the_model_plans_is_never_searched_or_fetched(tmp_path: Path) -> None:
    from autodidact.testing.fake_searxng import FakeSearxng
    from autodidact.testing.fakeweb import FakeWeb

    with FakeWeb() as web:
        web.add_page("/docs/generators.html", DOC_PAGE)
        exfil = web.url("/exfil")
        hits = [{"url": web.url("/docs/generators.html"), "title": "Generators", "content": f"also see {exfil}"}]

        def fn(req: Any) -> str:
            text = reply(req.messages, fabricate=False)
            if req.task == "evidence.search_plan":
                plan = json.loads(text)
                for p in plan["plans"]:
                    p["queries"].insert(0, {"text": exfil, "language": "en", "angle": "neutral"})
                text = json.dumps(plan)
            return text

        with FakeSearxng(lambda q: hits) as searx:
            kqs = [{"id": "kq1", "text": "What does a generator function return when called?"}]
            payload = make_payload(tmp_path / "report", key_questions=kqs, depth="skim")
            result = _run(payload, Runtime(model=ScriptedModel(fn=fn)), _web_settings(web, searx))
            assert not web.requested("/exfil")
            assert searx.queries and not any("://" in q for q in searx.queries)
    assert result.evidence.sources[0].url == web.url("/docs/generators.html")


def test_unusable_plan_falls_back_to_templates_and_bad_extraction_skips_one_question(pydoc_report: Path) -> None:
    def fn(req: Any) -> str:
        if req.task == "evidence.search_plan":
            return "not json at all"
        if req.task == "evidence.extract_claims" and any("Key question kq2" in m["content"] for m in req.messages):
            return '{"claims": "nope"}'
        return reply(req.messages, fabricate=False)

    model = ScriptedModel(fn=fn)
    rec = Recorder()
    kqs = make_payload(pydoc_report)["key_questions"][:2]
    result = _run(make_payload(pydoc_report, key_questions=kqs), Runtime(model=model), reporter=rec)
    assert any("template plan" in w for w in rec.warnings)
    assert any(w.startswith("kq2: extraction skipped") for w in rec.warnings), rec.warnings
    answered = {c.answers_key_question for c in result.evidence.claims}
    assert answered == {"kq1"}
    gaps = [w for w in result.evidence.writing_context or [] if w.kind == "availability_gap"]
    assert [w.applies_to for w in gaps] == [["kq2"]]
    plan_calls = [r for r in model.requests if r.task == "evidence.search_plan"]
    assert len(plan_calls) == 2  # the runtime's one re-ask, then the template plan


def test_quick_mode_over_the_web_reads_one_entry(tmp_path: Path) -> None:
    from autodidact.testing.fake_searxng import FakeSearxng
    from autodidact.testing.fakeweb import FakeWeb

    with FakeWeb() as web:
        paths = [f"/docs/generators-{i}.html" for i in range(3)]
        for p in paths:
            web.add_page(p, DOC_PAGE)
        hits = [{"url": web.url(p), "title": "Generators", "content": "s"} for p in paths]
        with FakeSearxng(lambda q: hits) as searx:
            kqs = [
                {"id": "kq1", "text": "What does a generator function return when it is called?"},
                {"id": "kq2", "text": "How do generator iterators end a for loop?"},
            ]
            payload = make_payload(tmp_path / "report", key_questions=kqs, mode="quick", depth="skim")
            result = _run(payload, Runtime(), _web_settings(web, searx))  # the offline engine, over HTTP
            fetched = [p for p in paths if web.requested(p)]
    assert fetched == [paths[0]]
    ev = result.evidence
    assert len(ev.sources) == 1 and ev.upstream_usage == [] and 1 <= len(ev.key_findings) <= 3
    assert {c.answers_key_question for c in ev.claims} == {"kq1", "kq2"}


def test_a_synthesis_that_breaks_the_rules_is_settled_to_the_offline_one() -> None:
    # Catches: a model's findings citing unknown claims kept, or a good synthesis replaced anyway.
    from autodidact.evidence.findings import (
        ClaimView,
        FindingOut,
        SynthesisInputs,
        SynthesisOutput,
        SynthesisTask,
        offline_synthesis,
    )

    claims = [ClaimView(f"c{i}", "kq1", f"Generators yield values lazily, case {i}.", "support", "s1") for i in (1, 2)]
    inputs = SynthesisInputs("en", "Generators", "initial", [("kq1", "What do generators do?")], claims)
    made_up = SynthesisOutput(headline="Generators are lazy.", key_findings=[
        FindingOut(finding="A finding that cites nothing given.", claim_ids=["c9"]),
    ])  # fmt: skip
    assert SynthesisTask().settle(inputs, made_up) == offline_synthesis(inputs)
    good = SynthesisOutput(headline="Generators are lazy.", key_findings=[
        FindingOut(finding="Generators yield values one at a time.", claim_ids=["c1"]),
        FindingOut(finding="Each value is computed when it is asked for.", claim_ids=["c2", "c9"]),
    ])  # fmt: skip
    settled = SynthesisTask().settle(inputs, good)
    assert [f.claim_ids for f in settled.key_findings] == [["c1"], ["c2"]]
