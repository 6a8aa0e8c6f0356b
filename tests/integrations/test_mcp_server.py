"""``autodidact mcp`` through the official SDK's own client: stdio (a real subprocess), and HTTP on 127.0.0.1.

Nothing is mocked: the client spawns ``python -m autodidact mcp --kb TMP`` and speaks MCP to it; a
research runs in the server's background and the test polls its progress with generous limits.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult

from autodidact.mcp.uris import article_uri

ROOT = Path(__file__).resolve().parents[2]
SRC = str(ROOT / "src")
POLL_LIMIT = 300.0  # seconds: a loaded machine is slow, a hung research is not


def _env() -> dict[str, str]:
    env = {"PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env["AUTODIDACT_HOME"] = os.environ["AUTODIDACT_HOME"]  # the test's isolated home (conftest)
    return env


def _stdio(kb: Path) -> Client:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "autodidact", "mcp", "--kb", str(kb)], env=_env(), cwd=str(kb.parent)
    )
    return Client(params, read_timeout_seconds=POLL_LIMIT)


def _run(kb: Path, scenario: Callable[[Client], Awaitable[None]]) -> None:
    async def main() -> None:
        async with _stdio(kb) as client:
            await scenario(client)

    asyncio.run(main())


def _text(result: CallToolResult) -> str:
    first = result.content[0]
    assert first.type == "text"
    return first.text


async def _ok(client: Client, tool: str, args: dict[str, Any] | None = None) -> Any:
    result = await client.call_tool(tool, args or {})
    assert not result.is_error, _text(result)
    text = _text(result)
    return json.loads(text) if text[:1] in "{[" else text


async def _error(client: Client, tool: str, args: dict[str, Any]) -> str:
    result = await client.call_tool(tool, args)
    assert result.is_error, f"{tool}({args}) did not fail: {_text(result)[:200]}"
    text = _text(result)
    assert "Traceback" not in text
    return text


async def _until_done(client: Client) -> dict[str, Any]:
    deadline = time.monotonic() + POLL_LIMIT
    while True:
        progress = await _ok(client, "research_progress")
        if progress["job"]["state"] != "running":
            return dict(progress)
        assert time.monotonic() < deadline, f"research still running after {POLL_LIMIT}s: {progress}"
        await asyncio.sleep(0.3)


def _kb_with_docs(tmp_path: Path, name: str, text: str) -> Path:
    kb = tmp_path / "kb"
    (kb / "docs").mkdir(parents=True)
    (kb / "docs" / name).write_text(text, encoding="utf-8")
    return kb


def test_a_research_runs_in_the_background_and_its_results_are_tools_and_resources(
    tmp_path: Path, generators_text: str
) -> None:
    kb = _kb_with_docs(tmp_path, "generators.md", generators_text)

    async def scenario(client: Client) -> None:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert {"research_start", "research_progress", "status", "ask", "search", "read_article", "read_summary",
                "report", "debate_start", "debate_reply"} <= names  # fmt: skip
        started = await _ok(
            client, "research_start", {"topic": "How do Python generators work?", "corpus": ["docs"], "max_rounds": 2}
        )
        assert started["state"] in {"running", "finished"}
        done = await _until_done(client)
        job = done["job"]
        assert job["state"] == "finished", job
        assert job["result"]["rounds"] == 2 and job["round"] == 2
        assert job["questions"] and job["questions_done"] == job["questions"]
        assert done["status"]["rounds_completed"] == 2

        hits = (await _ok(client, "search", {"query": "StopIteration", "k": 3}))["hits"]
        assert hits and "StopIteration" in hits[0]["text"] and hits[0]["source"]
        articles = (await _ok(client, "list_articles"))["articles"]
        assert articles
        article = await _ok(client, "read_article", {"name": articles[0]["name"]})
        assert "generator" in article.lower()
        assert articles[0]["name"] in await _ok(client, "read_article", {"name": "INDEX"})
        assert "generator" in (await _ok(client, "read_summary")).lower()
        added = await _ok(client, "ask", {"question": "Can a generator be restarted?"})
        assert added == {"added": "Can a generator be restarted?", "pending_user_questions": 1}
        assert (await _ok(client, "status"))["counts"]["pending_user_questions"] == 1

        listed = {str(r.uri) for r in (await client.list_resources()).resources}
        assert {"autodidact://wiki/INDEX", "autodidact://summary", article_uri(articles[0]["name"])} <= listed
        read = await client.read_resource(article_uri(articles[0]["name"]))
        assert read.contents[0].text == article  # type: ignore[union-attr]
        state = await client.read_resource("autodidact://status")
        assert json.loads(state.contents[0].text)["rounds_completed"] == 2  # type: ignore[union-attr]

        # the question re-opens the research: resumed in the background, the question is answered
        await _ok(client, "research_start", {})
        resumed = await _until_done(client)
        assert resumed["job"]["state"] == "finished" and resumed["status"]["rounds_completed"] == 3
        assert resumed["status"]["pending_user_questions"] == 0

    _run(kb, scenario)


def test_every_tool_refuses_bad_input_with_a_clear_error_and_no_path_leaves_the_kb(
    tmp_path: Path, generators_text: str
) -> None:
    kb = _kb_with_docs(tmp_path, "generators.md", generators_text)
    outside = tmp_path / "outside.md"
    outside.write_text("# outside\n\nsecret text\n", encoding="utf-8")

    async def scenario(client: Client) -> None:
        assert "not a knowledge base" in await _error(client, "research_start", {})
        assert "topic is empty" in await _error(client, "research_start", {"topic": "   "})
        for corpus in (["../outside.md"], [str(outside)], ["~/x"]):
            message = await _error(client, "research_start", {"topic": "generators", "corpus": corpus})
            assert "corpus" in message or "escapes" in message
        assert "max_rounds" in await _error(client, "research_start", {"topic": "generators", "max_rounds": 0})
        assert "not a knowledge base" in await _error(client, "search", {"query": "yield"})  # none yet

        await _ok(client, "research_start", {"topic": "How do Python generators work?", "corpus": ["docs"]})
        assert (await _until_done(client))["job"]["state"] == "finished"
        (kb / "wiki" / "leak.md").symlink_to(outside)
        for name in ("../CLAUDE", "/etc/passwd", "leak", "..", "a/b", "x\x00y"):
            message = await _error(client, "read_article", {"name": name})
            assert "invalid" in message or "escapes" in message or "leads out" in message, message
        assert "no wiki article" in await _error(client, "read_article", {"name": "no-such-article"})
        assert "k" in await _error(client, "search", {"query": "yield", "k": 0})
        assert "query" in await _error(client, "search", {"query": ""})
        assert "mode" in await _error(client, "report", {"request": "generators", "mode": "fast"})
        assert "no debate session" in await _error(client, "debate_reply", {"session_id": "nope", "answer": "hi"})
        assert "session id" in await _error(client, "debate_reply", {"session_id": "../x", "answer": "hi"})
        assert "depth" in await _error(client, "debate_start", {"prompt": "an idea", "depth": "deeper"})
        for uri in ("autodidact://wiki/..%2FCLAUDE", "autodidact://wiki/leak", "autodidact://reports/..%2Foutputs"):
            with pytest.raises(MCPError):
                await client.read_resource(uri)
        assert "secret text" not in json.dumps((await _ok(client, "search", {"query": "secret text"}))["hits"])

    _run(kb, scenario)


def test_chinese_research_report_and_debate(tmp_path: Path, apt_zh_text: str) -> None:
    kb = _kb_with_docs(tmp_path, "apt.md", apt_zh_text)

    async def scenario(client: Client) -> None:
        topic = "APT 如何管理软件包的依赖和版本？"
        await _ok(client, "research_start", {"topic": topic, "corpus": ["docs"], "max_rounds": 1})
        assert (await _until_done(client))["job"]["state"] == "finished"
        hits = (await _ok(client, "search", {"query": "优先级", "k": 3}))["hits"]
        assert hits and "优先级" in hits[0]["text"]
        articles = (await _ok(client, "list_articles"))["articles"]
        chinese = [a for a in articles if any("\u4e00" <= ch <= "\u9fff" for ch in a["name"] + a["title"])]
        assert chinese, articles
        read = await client.read_resource(chinese[0]["uri"])
        assert read.contents[0].text == await _ok(client, "read_article", {"name": chinese[0]["name"]})  # type: ignore[union-attr]

        made = await _ok(client, "report", {"request": "APT 如何固定软件包的版本？", "mode": "quick"})
        assert made["ok"] and made["report_dir"].startswith("reports/") and "[1]" in made["report"]
        report = await client.read_resource(made["uri"])
        assert report.contents[0].text.startswith(made["report"][:200])  # type: ignore[union-attr]

        turn = await _ok(client, "debate_start", {"prompt": "我发现用AI写代码之后反而更累了", "depth": "quick"})
        assert turn["question"] and turn["turn"] and turn["session_id"]
        answer = {"session_id": turn["session_id"], "answer": "我说的是认知上的疲劳", "turn": turn["turn"]}
        nxt = await _ok(client, "debate_reply", answer)
        assert nxt["question"] and nxt["turn"] != turn["turn"]
        stale = await _error(
            client, "debate_reply", {"session_id": turn["session_id"], "answer": "再说一次", "turn": turn["turn"]}
        )
        assert "open" in stale
        closed = await _ok(client, "debate_close", {"session_id": turn["session_id"]})
        assert closed["state"] == "CLOSED" and closed["summaries"][0].startswith("debates/")

    _run(kb, scenario)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_streamable_http_on_localhost(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "autodidact", "mcp", "--kb", str(kb), "--http", "--port", str(port)],
        env={**os.environ, **_env()}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip

    async def main() -> dict[str, Any]:
        deadline = time.monotonic() + POLL_LIMIT
        while True:
            try:
                async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=POLL_LIMIT) as client:
                    turn: dict[str, Any] = await _ok(client, "debate_start", {"prompt": "Remote work slows juniors"})
                    return turn
            except Exception:  # not up yet: connection refused, or the handshake failed
                if server.poll() is not None or time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.5)

    try:
        turn = asyncio.run(main())
        assert turn["question"] and (kb / "debates" / turn["session_id"] / "events.jsonl").is_file()
    finally:
        server.terminate()
        server.wait(timeout=60)


def test_help_explains_the_command() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "autodidact", "mcp", "--help"],
        env={**os.environ, **_env()}, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0
    assert "claude mcp add autodidact" in proc.stdout and "--http" in proc.stdout and "research_start" in proc.stdout


def test_a_file_as_the_knowledge_base_is_refused_in_one_line(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x", "utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "autodidact", "mcp", "--kb", str(target)],
        env={**os.environ, **_env()}, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stderr.strip()
