"""One budget for a team: ``[budget] team_max_*`` hold over every process of every member
(llm/pgcache.py ``PgTeamBudget``, docs/team.md "Cache and ledger"), against a real server, with the
real openai SDK talking to a loopback fake model."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from autodidact.config import load_settings
from autodidact.errors import BudgetExceeded, ConfigError
from autodidact.llm.pgcache import PgTeamBudget, team_totals
from autodidact.llm.registry import build_runtime
from autodidact.testing.fake_llm import FakeLLM

GOOD = '{"topic": "generators"}'
CALLS_EACH = 8
PER_CALL = (100, 50)  # tokens the fake reports for every call

# One member's run: up to CALLS_EACH model calls in its own knowledge base, no cap of its own.
SPENDER = """
import sys
from pathlib import Path
from pydantic import BaseModel
from autodidact.config import load_settings
from autodidact.errors import BudgetExceeded
from autodidact.llm.registry import build_runtime
from autodidact.llm.tasks import Message

class Out(BaseModel):
    topic: str

class Ask:
    name = "ask"
    Output = Out
    def build_prompt(self, topic):
        return [Message(role="user", content=f"Topic: {topic}")]
    def offline(self, topic):
        return Out(topic=topic)

root, base, cap, calls = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
flags = {"llm.model": "openai:test-model", "llm.base_url": base, "llm.max_tokens": 100,
         "llm.max_retries": 0, "budget.team_max_tokens": cap}
runtime = build_runtime(load_settings(root, flags), root)
made = 0
try:
    for i in range(calls):
        runtime.run_sync(Ask(), f"{root.name} {i}")
        made += 1
except BudgetExceeded as exc:
    print("stopped:", exc.message, flush=True)
print("made", made, flush=True)
"""

# Holds an estimate of the team budget until killed: a member's call in flight when its machine died.
HOLDER = """
import sys, time
from autodidact.config import BudgetSettings
from autodidact.llm.pgcache import PgTeamBudget
budget = PgTeamBudget(sys.argv[1], BudgetSettings(team_max_tokens=1000))
budget.reserve(800, 0.0, task="slow")
print("held", flush=True)
time.sleep(3600)
"""


def test_two_members_processes_together_stop_at_the_team_cap(tmp_path: Path, pg_url: str, team_env, run_cli) -> None:
    cap = 1000
    with FakeLLM(lambda _body: GOOD, usage=PER_CALL, latency=0.05) as fake:
        env = team_env(pg_url, OPENAI_API_KEY="sk-fake-team-budget")
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", SPENDER, str(tmp_path / name), fake.base_url, str(cap), str(CALLS_EACH)],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for name in ("alice", "bob")
        ]
        outs = [p.communicate(timeout=600) for p in procs]
        requests = len(fake.requests)
    for proc, (out, err) in zip(procs, outs, strict=True):
        assert proc.returncode == 0, err
        assert "stopped: team budget: the next model call (task ask" in out, out  # each alone was under it
    made = [int(out.split("made ")[-1]) for out, _ in outs]
    team = team_totals(pg_url)
    spent = team["input_tokens"] + team["output_tokens"]
    assert spent <= cap  # without the server's budget, each process would have spent 8 × 150
    assert team["calls"] == sum(made) == requests
    assert sum(made) >= cap // sum(PER_CALL) - 1  # the cap was used, not refused from the start
    assert PgTeamBudget(pg_url, load_settings(None, {}).budget).spent() == (spent, 0.0)
    shown = run_cli("usage", "--team", cwd=tmp_path, env=team_env(pg_url, AUTODIDACT_TEAM_MAX_TOKENS=str(cap)))
    assert shown.returncode == 0, shown.stderr
    assert f"team budget: {spent} of team_max_tokens {cap} spent" in shown.stderr
    assert "set [llm] prices" in shown.stderr  # the setting's name is printed, not read as markup


def test_a_killed_members_call_in_flight_stops_holding_the_team_budget(pg_url: str, team_env) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, pg_url], env=team_env(pg_url), stdout=subprocess.PIPE, text=True
    )
    budget = PgTeamBudget(pg_url, load_settings(None, {"budget.team_max_tokens": 1000}).budget)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(BudgetExceeded, match="800 held by calls in flight"):
            budget.reserve(300, 0.0, task="mine")
        hold = budget.reserve(200, 0.0, task="mine")  # what the held estimate leaves
        budget.release(hold)
    finally:
        holder.kill()
        holder.wait(timeout=60)
    # The server ends the killed process's session; its hold goes with it (polled: the server
    # notices the closed connection on its own time).
    for _ in range(600):
        try:
            budget.release(budget.reserve(1000, 0.0, task="mine"))
            break
        except BudgetExceeded:
            time.sleep(0.05)
    else:
        pytest.fail("the killed process's hold was never dropped")
    budget.close()


def test_a_team_cap_without_the_team_backend_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AUTODIDACT_DATABASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake-team-budget")
    settings = load_settings(tmp_path, {"llm.model": "openai:test-model", "budget.team_max_cost": 5})
    with pytest.raises(ConfigError, match="no team backend"):
        build_runtime(settings, tmp_path)
