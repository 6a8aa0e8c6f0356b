"""The Python API (``from autodidact import ...``): the README's example runs, results are typed, errors are ours."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import autodidact
from autodidact import Debate, ask, report, research, search, start_research, status
from autodidact.debate.engine import TurnConflict
from autodidact.errors import ConfigError, InputError, LockedError, NotFoundError, PathSafetyError
from autodidact.loop.progress import NullReporter
from autodidact.loop.runner import RunResult
from autodidact.report.pipeline import ReportResult
from autodidact.sources.passage_index import Passage

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def readme_example() -> str:
    """The Python block under the README's "Python API" heading."""
    text = (ROOT / "README.md").read_text("utf-8")
    section = text.split("## Python API", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "README.md has no python block under ## Python API"
    return match.group(1)


def test_the_readme_example_runs_offline_and_prints_what_it_says(tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(readme_example(), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split()[:2] in (["terminated", "2"], ["max_rounds", "2"]), lines[0]
    assert any("yield" in line.lower() for line in lines)  # a search hit quoting the document
    assert "CLOSED" in lines[-1]
    report_md = next(line for line in lines if line.endswith("report.md"))
    assert Path(report_md).is_file() and "[1]" in Path(report_md).read_text("utf-8")
    assert (tmp_path / "gen-kb" / "wiki" / "INDEX.md").is_file()


def test_research_search_ask_status_return_typed_results(tmp_path: Path, english_docs: Path) -> None:
    kb = tmp_path / "kb"
    result = research("How do Python generators work?", kb=kb, corpus=[english_docs], max_rounds=1)
    assert isinstance(result, RunResult) and result.rounds == 1 and result.kb_root == kb.resolve()
    hits = search("StopIteration", kb=kb, k=5)
    assert hits and all(isinstance(h, Passage) for h in hits)
    assert "StopIteration" in hits[0].text
    assert ask("  Can a generator be restarted?  ", kb=kb) == "Can a generator be restarted?"
    now = status(kb=kb)
    assert (now.rounds_completed, now.pending_user_questions, now.topic) == (1, 1, "How do Python generators work?")
    assert now.report["counts"]["wiki_articles"] == now.wiki_articles >= 1
    articles = autodidact.list_articles(kb=kb)
    assert articles and "generator" in autodidact.read_article(articles[0].name, kb=kb).lower()
    assert articles[0].name in autodidact.read_index(kb=kb)


def test_bad_arguments_raise_our_errors_and_create_nothing(tmp_path: Path, english_docs: Path) -> None:
    kb = tmp_path / "new-kb"
    with pytest.raises(InputError, match="topic is empty"):
        research("   ", kb=kb)
    with pytest.raises(ConfigError, match="unknown model provider 'gpt-4o'"):
        research("generators", kb=kb, model="gpt-4o:mini")
    with pytest.raises(NotFoundError, match="corpus path"):
        research("generators", kb=kb, corpus=[tmp_path / "missing"])
    with pytest.raises(InputError, match="max_rounds=0"):
        start_research("generators", kb=kb, max_rounds=0)
    with pytest.raises(InputError, match="mode 'fast'"):
        report("generators", kb=None, report_dir=tmp_path / "rep", mode="fast")
    assert not kb.exists() and not (tmp_path / "rep").exists()
    with pytest.raises(NotFoundError, match="does not exist"):
        search("yield", kb=kb)
    with pytest.raises(InputError, match="query is empty"):
        search(" ", kb=kb)


def test_names_that_would_leave_the_knowledge_base_are_refused(tmp_path: Path, english_docs: Path) -> None:
    kb = tmp_path / "kb"
    research("How do Python generators work?", kb=kb, corpus=[english_docs], max_rounds=1)
    secret = tmp_path / "secret.md"
    secret.write_text("# secret\n", encoding="utf-8")
    (kb / "wiki" / "leak.md").symlink_to(secret)
    for name in ("../CLAUDE", "/etc/passwd", "leak", "..", "wiki/../../secret"):
        with pytest.raises(PathSafetyError):
            autodidact.read_article(name, kb=kb)
    assert "leak" not in [a.name for a in autodidact.list_articles(kb=kb)]
    with pytest.raises(PathSafetyError):
        autodidact.read_report("../outputs", kb=kb)


class _Gate(NullReporter):
    """A reporter whose first round waits until the test opens it (a real reporter the loop calls)."""

    def __init__(self) -> None:
        self.opened = threading.Event()

    def round_started(self, round_n: int, max_rounds: int) -> None:
        self.opened.wait(120)


def test_start_research_runs_in_the_background_and_reports_progress(tmp_path: Path, english_docs: Path) -> None:
    kb = tmp_path / "kb"
    gate = _Gate()  # holds the run at its first round until the checks below are done
    job = start_research("How do Python generators work?", kb=kb, corpus=[english_docs], max_rounds=2, progress=gate)
    seen = job.progress()
    assert seen.state == "running" and seen.kb == kb.resolve()
    with pytest.raises(LockedError, match="being researched"):  # a second start on it is refused at once
        start_research(kb=kb)
    gate.opened.set()
    done = job.wait(timeout=300)
    assert done.state == "finished", done.error
    assert done.result is not None and done.result.rounds == 2
    assert done.round == 2 and done.questions and done.questions_done == done.questions
    assert json.loads(json.dumps(done.as_dict()))["result"]["rounds"] == 2
    assert any("round 2" in line for line in done.recent)


def test_a_stopped_background_research_resumes_where_it_stopped(tmp_path: Path, english_docs: Path) -> None:
    kb = tmp_path / "kb"
    job = start_research("How do Python generators work?", kb=kb, corpus=[english_docs], max_rounds=3)
    job.stop()
    stopped = job.wait(timeout=300)
    assert stopped.state in {"stopped", "finished"}
    if stopped.state == "stopped":
        assert "stopped" in (stopped.error or "")
    resumed = start_research(kb=kb).wait(timeout=300)
    assert resumed.state == "finished", resumed.error
    assert status(kb=kb).rounds_completed >= 1


def test_debate_start_reply_close(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    debate = Debate.start("我发现用AI写代码之后反而更累了", kb=kb, depth="quick")
    first = debate.turn
    assert first is not None and first.question and first.turn is not None and first.state != "CLOSED"
    nxt = debate.reply("我说的是认知上的疲劳", turn=first.turn)
    assert nxt.question and nxt.question != first.question
    with pytest.raises(TurnConflict):  # the turn answered before is no longer open
        Debate(debate.session_id, kb=kb).reply("again", turn=first.turn)
    assert Debate(debate.session_id, kb=kb).current().turn == nxt.turn
    closed = debate.close()
    assert closed.closed and debate.summary_files()
    assert "认知上的疲劳" in debate.transcript()
    with pytest.raises(NotFoundError):
        Debate("no-such-session", kb=kb).reply("hello")
    with pytest.raises(PathSafetyError):
        Debate("../x", kb=kb)


def test_report_names_the_report_it_wrote(tmp_path: Path, english_docs: Path) -> None:
    made = report("How do Python generators work?", report_dir=tmp_path / "rep", corpus=[english_docs], mode="quick")
    assert isinstance(made, ReportResult) and not made.failed
    assert made.report_md == (tmp_path / "rep" / "report.md") and "StopIteration" in made.report_md.read_text("utf-8")


def test_the_api_works_inside_a_running_event_loop(tmp_path: Path, english_docs: Path) -> None:
    import asyncio

    async def in_a_notebook() -> RunResult:
        return research("How do Python generators work?", kb=tmp_path / "kb", corpus=[english_docs], max_rounds=1)

    assert asyncio.run(in_a_notebook()).rounds == 1


def test_importing_autodidact_stays_light_and_report_stays_the_function(tmp_path: Path) -> None:
    code = (
        "import sys, autodidact\n"
        "light = sorted(m for m in sys.modules if m.startswith('autodidact'))\n"
        "import autodidact.report.pipeline\n"
        "from autodidact import report\n"
        "print(light, callable(report) and report.__module__)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "['autodidact'] autodidact.api.report"
    started = time.monotonic()
    assert autodidact.__version__ and time.monotonic() - started < 60
