"""The terminal conversation driven through real processes: stdin, a pseudo-terminal, Ctrl+C, a kill."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from autodidact.debate.render import transcript
from autodidact.debate.store import SessionStore

PROMPT = "我发现用AI写代码之后，我反而更累了"
CMD = [sys.executable, "-m", "autodidact"]


def _run(args: list[str], stdin: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CMD, *args], input=stdin, capture_output=True, text=True, timeout=timeout, check=False)


def test_stdin_conversation_pauses_on_eof_and_continues(kb_dir: Path) -> None:
    first = _run(
        ["debate", "start", PROMPT, "--kb", str(kb_dir), "--session-id", "s1"], "你定吧\n我说的是主观感受上的累\n"
    )
    assert first.returncode == 0, first.stderr
    assert first.stdout.count("➤") == 3  # the depth question, then one focus question per answer
    assert "已暂停" in first.stderr and "autodidact debate --kb" in first.stderr
    session = SessionStore(kb_dir / "debates" / "s1").replay()
    assert session is not None and session.state == "PAUSED"
    assert [r.user_answer for r in session.rounds][:2] == ["你定吧", "我说的是主观感受上的累"]
    pending = session.pending_question
    assert pending is not None
    second = _run(["debate", "--kb", str(kb_dir)], "我最没把握的是第②条前提：默认是审查AI代码导致的\n")
    assert second.returncode == 0, second.stderr
    assert pending["question"] in second.stderr  # the briefing repeats the open question, asks nothing new
    resumed = SessionStore(kb_dir / "debates" / "s1").replay()
    assert resumed is not None
    answered = next(r for r in resumed.rounds if r.turn == pending["turn"])
    assert answered.user_answer == "我最没把握的是第②条前提：默认是审查AI代码导致的"


def _read_until(fd: int, needle: str, timeout: float = 60) -> str:
    data = b""
    deadline = time.monotonic() + timeout
    while needle.encode() not in data:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"timed out waiting for {needle!r}; got {data.decode(errors='replace')[-500:]}")
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
    return data.decode("utf-8", errors="replace")


@pytest.mark.skipif(not hasattr(pty, "openpty"), reason="needs a pseudo-terminal")
def test_pseudo_terminal_session_with_ctrl_d(kb_dir: Path) -> None:
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [*CMD, "debate", "start", PROMPT, "--kb", str(kb_dir), "--session-id", "s1", "--depth", "quick"],
        stdin=slave, stdout=slave, stderr=slave, close_fds=True,
    )  # fmt: skip
    os.close(slave)
    try:
        _read_until(master, "为什么问")
        os.write(master, "我说的是主观感受上的累，相比以前自己写代码\n".encode())
        _read_until(master, "关键前提")
        os.write(master, b"\x04")  # Ctrl+D on a terminal: end of input
        rest = _read_until(master, "已暂停")
        assert "autodidact debate" in rest
        assert proc.wait(timeout=30) == 0
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    session = SessionStore(kb_dir / "debates" / "s1").replay()
    assert session is not None and session.state == "PAUSED"
    assert session.rounds[0].user_answer == "我说的是主观感受上的累，相比以前自己写代码"


def test_ctrl_c_pauses_cleanly(kb_dir: Path) -> None:
    proc = subprocess.Popen(
        [*CMD, "debate", "start", PROMPT, "--kb", str(kb_dir), "--session-id", "s1", "--depth", "quick"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    seen = ""
    while "为什么问" not in seen:
        line = proc.stdout.readline()
        assert line, "process ended before asking"
        seen += line
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "已暂停" in err and "Traceback" not in err
    session = SessionStore(kb_dir / "debates" / "s1").replay()
    assert session is not None and session.state == "PAUSED" and session.pending_question is not None


ANSWERS = [
    "你定吧",
    "第一个例子更像我，我说的是主观感受上的累，相比以前自己写代码",
    "我最没把握的是第②条前提：我默认是审查AI代码导致的，没考虑同期任务变多",
    "如果只让AI写测试、主逻辑我自己写，我预测会没那么累",
]


@pytest.mark.parametrize(("crash_after", "resend"), [(1, False), (4, True)])
def test_killing_a_turn_and_recovering_reproduces_the_transcript(
    kb_dir: Path, cli: Any, crash_after: int, resend: bool
) -> None:
    from autodidact.debate.engine import Engine

    whole_dir, folder = kb_dir / "debates" / "whole", kb_dir / "debates" / "killed"
    for path in (whole_dir, folder):
        Engine(path, kb_root=kb_dir).start(PROMPT)
    for text in ANSWERS:
        Engine(whole_dir, kb_root=kb_dir).reply(text)
    for text in ANSWERS[:2]:
        Engine(folder, kb_root=kb_dir).reply(text)
    env = {**os.environ, "AUTODIDACT_DEBATE_CRASH_AFTER": str(crash_after)}
    killed = subprocess.run(
        [*CMD, "debate", "reply", "killed", ANSWERS[2], "--kb", str(kb_dir)],
        capture_output=True, text=True, timeout=60, env=env, check=False,
    )  # fmt: skip
    assert killed.returncode == 137, killed.stderr
    assert cli("session", "check", str(folder)).exit_code == 1  # the torn tail is reported
    recovered = cli("session", "recover", str(folder))
    assert recovered.exit_code == 0 and '"quarantined": "events.jsonl.corrupt-tail-' in recovered.stdout
    if resend:  # the person, unsure whether the answer arrived, sends it again: it is not recorded twice
        again_sent = cli("debate", "reply", "killed", ANSWERS[2], "--kb", str(kb_dir))
        assert again_sent.exit_code == 0 and "➤" in again_sent.stdout
    assert cli("debate", "reply", "killed", ANSWERS[3], "--kb", str(kb_dir)).exit_code == 0  # finishes the cut turn
    whole, again = SessionStore(whole_dir), SessionStore(folder)
    assert transcript(again.events(), "zh") == transcript(whole.events(), "zh")
    assert [e["event_id"][:9] + e["type"] for e in again.events()] == [
        e["event_id"][:9] + e["type"] for e in whole.events()
    ]
    assert cli("session", "check", str(folder)).stdout.count("corrupt-tail") == 1  # quarantine stays visible
    assert cli("debate", "check", str(folder)).exit_code == 0


def test_continuing_in_the_terminal_recovers_a_torn_tail_first(kb_dir: Path, cli: Any) -> None:
    from autodidact.debate.engine import Engine

    folder = kb_dir / "debates" / "s1"
    Engine(folder, kb_root=kb_dir).start(PROMPT, depth="quick")
    with open(folder / "events.jsonl", "ab") as fh:
        fh.write(b'{"schema_version":"0.1","event_id":"ev-000')
    result = cli("debate", "--kb", str(kb_dir), input="我说的是主观感受上的累\n")
    assert result.exit_code == 0, result.output
    assert "recovered s1" in result.output and "corrupt-tail-" in result.output
    session = SessionStore(folder).replay()
    assert session is not None and session.rounds[0].user_answer == "我说的是主观感受上的累"
