"""Start-up time of the command line (issue 18 benchmark).

What a person waits for before anything happens: ``autodidact --help`` and ``autodidact status`` in
a knowledge base that has two research rounds behind it (so status prints its table), each measured
as a fresh ``python -m autodidact`` process against the reference ``python -c pass`` with the same
interpreter. Target: each ≤ 5× the reference.

A two-command typer app (same typer, same rich; its ``status`` takes ``--kb PATH`` and ``--json`` and
prints a rich table, as ours does) is measured in the same rounds: the floor the framework sets.
``autodidact`` divided by it is what this program adds on top (target ≤ 1.5 for both), the part a
change here can regress while the framework keeps the 5× target out of reach.

All processes run alternately, round by round, in a rotating order, so each sees the same load
from whatever else runs on the machine; the figures are medians. Every process reads cached
bytecode (``PYTHONPYCACHEPREFIX`` in a temporary folder, filled by an untimed first run), as an
installed package does.

Run: ``.venv/bin/python bench/startup.py [ROUNDS]`` (default 15).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 5.0
OVER_FLOOR = 1.5

BARE_APP = '''
from pathlib import Path

import typer

app = typer.Typer(name="bare", help="A two-command app: the floor typer itself sets.", add_completion=False)


@app.callback()
def root() -> None:
    """Bare app."""


@app.command("status")
def status(
    kb: Path | None = typer.Option(None, "--kb", help="Folder.", file_okay=False),
    as_json: bool = typer.Option(False, "--json", help="JSON."),
) -> None:
    """Print a line and a small table with rich, as status does."""
    from rich.console import Console
    from rich.table import Table

    table = Table()
    for name in ("round", "questions", "decision"):
        table.add_column(name)
    table.add_row("1", "5", "continue")
    console = Console(highlight=False)
    console.print(f"[bold]{kb}[/bold] {as_json}")
    console.print(table)


@app.command("init")
def init(directory: Path = typer.Argument(Path("."), help="Folder.")) -> None:
    """Do nothing."""


app()
'''


def bench(name: str, value: float, target: str, ok: bool) -> None:
    print("BENCH " + json.dumps({"name": name, "value": round(value, 3), "target": target, "ok": ok}))


def main(rounds: int) -> int:
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp_name:
        tmp = Path(tmp_name)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPATH=str(ROOT / "src"), PYTHONPYCACHEPREFIX=str(tmp / "pycache"), COLUMNS="100")
        for var in [v for v in env if v.startswith("AUTODIDACT_")]:
            del env[var]
        env["AUTODIDACT_HOME"] = str(tmp / "home")
        corpus = tmp / "corpus"
        corpus.mkdir()
        (corpus / "generators.md").write_text(
            "# Generators\n\nA generator function uses yield to produce values lazily; calling it returns a "
            "generator iterator.\n\n## Sending values\n\nThe send method resumes the generator with a value.\n",
            "utf-8",
        )
        kb = tmp / "kb"
        topic = "How do Python generators work?"
        subprocess.run(
            [sys.executable, "-m", "autodidact", "research", topic, "--kb", str(kb), "--corpus", str(corpus),
             "--max-rounds", "2"],
            env=env, cwd=tmp, check=True, capture_output=True,
        )  # fmt: skip
        bare = tmp / "bare.py"
        bare.write_text(BARE_APP, "utf-8")
        py = sys.executable
        commands = {
            "python -c pass": [py, "-c", "pass"],
            "import typer": [py, "-c", "import typer"],
            "bare typer --help": [py, str(bare), "--help"],
            "bare typer status": [py, str(bare), "status", "--kb", str(kb)],
            "autodidact --help": [py, "-m", "autodidact", "--help"],
            "autodidact status": [py, "-m", "autodidact", "status"],
        }

        def run(name: str) -> float:
            started = time.perf_counter()
            proc = subprocess.run(commands[name], env=env, cwd=kb, capture_output=True, check=False)
            elapsed = time.perf_counter() - started
            if proc.returncode != 0:
                raise SystemExit(f"{name} failed: {proc.stderr.decode(errors='replace')[-300:]}")
            return elapsed

        names = list(commands)
        for name in names:  # untimed: writes the bytecode cache, warms the OS caches
            run(name)
        times: dict[str, list[float]] = {name: [] for name in names}
        for r in range(rounds):
            shift = r % len(names)
            for name in names[shift:] + names[:shift]:
                times[name].append(run(name))
        median = {name: statistics.median(values) for name, values in times.items()}

    base = median["python -c pass"]
    print(f"{rounds} rounds, alternating; medians, and ratio to python -c pass:")
    for name in names:
        print(f"  {name:20} {median[name] * 1000:7.1f} ms  ×{median[name] / base:5.2f}")
    help_ratio = median["autodidact --help"] / base
    status_ratio = median["autodidact status"] / base
    bench("startup.help_over_python_c_pass", help_ratio, f"<= {TARGET:g}", help_ratio <= TARGET)
    bench("startup.status_over_python_c_pass", status_ratio, f"<= {TARGET:g}", status_ratio <= TARGET)
    help_floor = median["autodidact --help"] / median["bare typer --help"]
    status_floor = median["autodidact status"] / median["bare typer status"]
    bench("startup.help_over_bare_typer_help", help_floor, f"<= {OVER_FLOOR:g}", help_floor <= OVER_FLOOR)
    bench("startup.status_over_bare_typer_command", status_floor, f"<= {OVER_FLOOR:g}", status_floor <= OVER_FLOOR)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 15))
