"""``autodidact serve`` as a user runs it: its help, a one-line refusal, and a real server on 127.0.0.1."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def _run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "autodidact", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "COLUMNS": "250"},  # rich wraps help at the terminal width
    )


def test_help_explains_the_command() -> None:
    proc = _run("serve", "--help")
    assert proc.returncode == 0
    for words in (
        "--port",
        "--host",
        "127.0.0.1",
        "termination condition",
        "per-session token",
        "autodidact serve --kb",
    ):
        assert words in proc.stdout, words


def test_a_file_as_the_knowledge_base_is_refused_in_one_line(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x", "utf-8")
    proc = _run("serve", "--kb", str(target))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "is a file" in proc.stderr
    empty_host = _run("serve", "--kb", str(tmp_path), "--host", " ")
    assert empty_host.returncode != 0 and empty_host.stderr.strip().splitlines()[0] == "error: --host is empty"


def test_the_server_answers_on_loopback_and_refuses_a_foreign_host(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "autodidact", "serve", "--kb", str(tmp_path / "kb"), "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/", timeout=10)
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.communicate()[1]
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.2)
        assert answer.status_code == 200 and "No research here yet" in answer.text
        foreign = httpx.get(f"http://127.0.0.1:{port}/", headers={"host": "attacker.example"}, timeout=10)
        assert foreign.status_code == 400
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=60)
    assert f"serving {tmp_path / 'kb'} at http://127.0.0.1:{port}/" in stderr
