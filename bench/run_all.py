"""`make bench`: run every bench/*.py, collect its BENCH lines, print one table, write results.md.

Each benchmark prints human-readable lines plus, per measured ratio, a line
``BENCH {"name": ..., "value": ..., "target": "<= 1.2", "ok": true}``. This runner does not time
anything itself: the ratios are measured inside each script, in one run.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run_one(script: Path) -> tuple[list[dict[str, object]], str]:
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=900, cwd=HERE.parent, check=False
    )
    rows: list[dict[str, object]] = []
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH "):
            try:
                rows.append(json.loads(line[len("BENCH ") :]))
            except ValueError:
                continue
    status = f"exit {proc.returncode}, {time.monotonic() - started:.0f}s"
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [""]
        status += f": {tail[0][:120]}"
    return rows, status


def main() -> int:
    scripts = sorted(p for p in HERE.glob("*.py") if p.name != "run_all.py" and not p.name.startswith("_"))
    lines = ["| benchmark | metric | value | target | holds |", "|---|---|---|---|---|"]
    failures = 0
    for script in scripts:
        print(f"running {script.name} ...", flush=True)
        rows, status = run_one(script)
        if not rows:
            lines.append(f"| {script.stem} | (no result: {status}) | | | no |")
            failures += 1
        for row in rows:
            ok = bool(row.get("ok"))
            failures += 0 if ok else 1
            value = row.get("value")
            shown = f"{value:.3f}" if isinstance(value, int | float) else str(value)
            lines.append(
                f"| {script.stem} | {row.get('name')} | {shown} | {row.get('target')} | {'yes' if ok else 'no'} |"
            )
    table = "\n".join(lines)
    print("\n" + table)
    (HERE / "results.md").write_text("# Benchmark results\n\nWritten by `make bench`.\n\n" + table + "\n", "utf-8")
    print(f"\nwritten to {HERE / 'results.md'}")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
