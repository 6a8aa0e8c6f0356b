"""A scripted model that answers every task of a research round, reading only its request.

Served by :class:`autodidact.testing.fake_llm.FakeLLM`, it lets the real CLI run a whole round on
the model path (``--model openai:fake``) over loopback: questions, search plan, claim extraction,
synthesis, article compilation and the audit's per-question verdicts. Faults are injected by
wrapping :func:`reply` (see the tests). The task is read from the request's JSON-schema name.
"""

from __future__ import annotations

import json
import re
from typing import Any

from autodidact.testing.evidence_model import reply as evidence_reply

BLOCK = re.compile(r"<<DATA ([0-9a-f]+)>> \(([^\n]*)\)\n(.*?)\n<<END \1>>", re.DOTALL)

QUESTIONS = [
    ("What is a Python generator?", "L1", "framework"),
    ("How does the yield expression suspend a generator?", "L2", "framework"),
    ("What does the send method of a generator do?", "L2", "framework"),
    ("When should a generator expression be preferred over a list?", "L4", "framework"),
    ("What are the limitations of Python generators?", "L3", "framework"),
    ("How does yield from delegate to a subgenerator?", "L2", "framework"),
]


def task_of(body: dict[str, Any]) -> str:
    fmt = body.get("response_format") or {}
    return str((fmt.get("json_schema") or {}).get("name", ""))


def blocks(text: str) -> dict[str, str]:
    """Data blocks of a message: label → content."""
    return {label: content for _tag, label, content in BLOCK.findall(text)}


def reply(body: dict[str, Any]) -> str:
    """A valid answer for the request's task."""
    messages = body.get("messages", [])
    task = task_of(body)
    if task.startswith("questions"):
        cands = [
            {"text": t, "layer": layer, "priority": "low", "source": src, "rationale": "framework slot"}
            for t, layer, src in QUESTIONS
        ]
        return json.dumps({"candidates": cands})
    if task.startswith("evidence"):
        return evidence_reply(messages, fabricate=False)
    if task == "wiki_compile_article":
        from autodidact.wiki.compile.compile_task import ArticleInputs, offline_merge

        found = blocks(messages[-1]["content"])
        current = json.loads(found.get("current article", "{}"))
        material = json.loads(found.get("new material", "[]"))
        title = current.get("title", "Article")
        inputs = ArticleInputs(
            title=title,
            lang="en",
            summary=current.get("summary", ""),
            sections=current.get("sections", []),
            material=material,
        )
        return offline_merge(inputs).model_dump_json()
    if task == "wiki_answer_question":
        return json.dumps({"status": "open", "answer": "", "gap": "", "files": []})
    raise AssertionError(f"unexpected task {task!r}")
