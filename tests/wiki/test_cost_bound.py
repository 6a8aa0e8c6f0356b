"""Cost bound: what compile and check send to a model does not grow with the wiki (10 → 200 articles)."""

from __future__ import annotations

import json
from pathlib import Path

from autodidact.kb import KnowledgeBase, init_kb
from autodidact.llm.base import Request
from autodidact.llm.runtime import Runtime
from autodidact.testing.scripted import ScriptedModel
from autodidact.wiki.audit.check import check_wiki
from autodidact.wiki.compile.compiler import CompileResult, compile_wiki

from .conftest import add_raw

PROMPT_LIMIT = 12_000  # characters per request, whatever the wiki size


def synthetic_kb(root: Path, n: int) -> KnowledgeBase:
    kb, _ = init_kb(root, topic="synthetic engines", lang="en")
    for k in range(n):
        body = (
            f"Widget{k} engines convert fuel{k} into motion using gear{k} assemblies and careful tuning.\n"
            f"Each widget{k} engine weighs about {k + 10} kilograms and runs on cell{k} batteries for hours.\n"
            f"Engineers service widget{k} units every spring with specialised tool{k} kits and manuals.\n"
        )
        add_raw(kb, f"Widget{k} engine", body, url=f"https://example.org/w{k}")
    compile_wiki(kb, None, None)
    return kb


def size(request: Request) -> int:
    return sum(len(m["content"]) for m in request.messages)


def compile_request_size(kb: KnowledgeBase) -> tuple[int, ScriptedModel]:
    raw: dict[str, str] = {}

    def reply(request: Request) -> str:
        # A draft must cite the new material it merged (else it compiled nothing: docs/models.md).
        new = raw["name"]
        return json.dumps(
            {
                "summary": "Widget3 engines are small. (source: x.md) They run on batteries. (source: x.md)",
                "sections": [
                    {"heading": "Updates", "blocks": [f"- New fact about [[Nowhere]] engines. (source: {new})"]}
                ],
            }
        )

    model = ScriptedModel(fn=reply)
    name = add_raw(
        kb,
        "Widget3 engine",
        "Widget3 engines gained a faster gear3 assembly in the latest revision of the design.\n",
        url="https://example.org/w3-new",
        date="2026-12-03",
    )
    raw["name"] = name
    result = compile_wiki(kb, [name], Runtime(model=model))
    assert result.updated == ["Widget3 engine"]
    return max(size(r) for r in model.requests), model


def check_request_size(kb: KnowledgeBase) -> tuple[int, ScriptedModel]:
    model = ScriptedModel(fn=lambda r: json.dumps({"status": "partial", "answer": "A. B.", "gap": "x", "files": []}))
    check_wiki(kb, [{"id": "q1", "text": "How much does a widget3 engine weigh?"}], 1, Runtime(model=model))
    assert len(model.requests) == 1
    return size(model.requests[0]), model


def test_prompt_size_is_bounded_as_the_wiki_grows(tmp_path: Path) -> None:
    small, large = synthetic_kb(tmp_path / "s", 10), synthetic_kb(tmp_path / "l", 200)
    c_small, m_small = compile_request_size(small)
    c_large, m_large = compile_request_size(large)
    assert len(m_small.requests) == len(m_large.requests) == 1  # one task for the one touched article
    assert c_small < PROMPT_LIMIT and c_large < PROMPT_LIMIT
    assert abs(c_large - c_small) < 200  # same article, same material: the wiki's size does not leak in
    prompt = m_large.requests[0].messages[1]["content"]
    assert "gear3 assembly in the latest revision" in prompt and "widget150" not in prompt.lower()
    q_small, _ = check_request_size(small)
    q_large, qm = check_request_size(large)
    assert q_small < PROMPT_LIMIT and q_large < PROMPT_LIMIT
    assert "widget3" in qm.requests[0].messages[1]["content"].lower()


def test_model_reply_is_applied_without_dangling_links(tmp_path: Path) -> None:
    kb = synthetic_kb(tmp_path / "kb", 5)
    _, model = compile_request_size(kb)
    assert model.requests[0].task == "wiki.compile_article"
    text = (kb.wiki / "widget3-engine.md").read_text("utf-8")
    assert "New fact about Nowhere engines" in text and "[[Nowhere]]" not in text
    assert text.index("Widget3 engines are small") < text.index("## ")


def test_model_verdicts_reach_the_report_and_data_is_delimited(tmp_path: Path) -> None:
    kb = synthetic_kb(tmp_path / "kb", 5)
    seen: list[Request] = []

    def reply(request: Request) -> str:
        seen.append(request)
        return json.dumps(
            {
                "status": "partial",
                "answer": "Widget2 engines weigh 12 kilograms. Servicing is not described. (source: wiki/w2.md)",
                "gap": "service intervals",
                "files": ["wiki/widget2-engine.md"],
            }
        )

    result = check_wiki(
        kb, [{"id": "r2q1", "text": "How heavy is a widget2 engine?"}], 2, Runtime(model=ScriptedModel(fn=reply))
    )
    assert result.report.question_status == {"r2q1": "partial"} and result.report.audit_issues_count >= 1
    text = result.path.read_text("utf-8")
    assert "  - gap: service intervals" in text and "weigh 12 kilograms" in text
    user = seen[0].messages[1]["content"]
    assert "<<DATA " in user and "<<END " in user and "widget2" in user.lower()
    assert seen[0].task == "wiki.answer_question"
    assert any("service intervals" in d for d in result.report.directions)


def test_a_step_bound_holds_model_calls_to_it_and_compiles_the_rest_offline(tmp_path: Path) -> None:
    """The loop bounds its compile by the round's questions (runtime.step max_calls): twelve added
    files cost at most that many calls, and every file is still compiled."""
    import asyncio

    from autodidact.wiki.compile.compiler import compile_wiki_async

    kb, _ = init_kb(tmp_path / "kb", topic="synthetic engines", lang="en")
    names = [
        add_raw(kb, f"Gadget{k} engine", f"Gadget{k} engines run on cell{k} batteries for many hours.\n",
                url=f"https://example.org/g{k}")
        for k in range(12)
    ]  # fmt: skip

    def reply(request: Request) -> str:
        cited = next(n for n in names if n in request.messages[-1]["content"])
        block = f"- Runs for hours. (source: {cited})"
        return json.dumps({"summary": f"Engines run on batteries. (source: {cited})",
                           "sections": [{"heading": "Notes", "blocks": [block]}]})  # fmt: skip

    model = ScriptedModel(fn=reply)
    runtime = Runtime(model=model)

    async def bounded() -> CompileResult:
        with runtime.step("round 1 compile", max_calls=3):
            return await compile_wiki_async(kb, names, runtime)

    result = asyncio.run(bounded())
    assert len(model.requests) <= 3
    assert sorted(result.compiled) == sorted(names) and not result.failed  # every file compiled
    assert runtime.fallbacks and all(name == "wiki.compile_article" for name, _ in runtime.fallbacks)
