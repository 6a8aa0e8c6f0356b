"""`make demo`: the main job on built-in defaults — offline engine, Python's own documentation.

Writes CPython's ``pydoc_data.topics`` as a folder of markdown documents, then runs
``autodidact research "How do Python generators and coroutines work?" --corpus <that folder>`` into
``demo-kb/`` (no key, no network), shows ``autodidact status``, and says where to look.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KB = ROOT / "demo-kb"
TOPIC = "How do Python generators and coroutines work?"
MAX_ROUNDS = "10"  # a cap; the run normally ends earlier, by the termination rules or a stall


def run(*args: str) -> None:
    shown = " ".join(f'"{a}"' if " " in a else a for a in args)
    print(f"\n$ autodidact {shown}", flush=True)
    subprocess.run([sys.executable, "-m", "autodidact", *args], check=True)


def main() -> None:
    sys.path.insert(0, str(ROOT / "src"))
    from autodidact.testing.corpora import write_pydoc_corpus

    if KB.exists():
        shutil.rmtree(KB)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="autodidact-pydoc-") as tmp:
        corpus = Path(tmp) / "python-docs"
        files = write_pydoc_corpus(corpus)
        print(f"corpus: {len(files)} documents from pydoc_data.topics (Python {sys.version.split()[0]})", flush=True)
        run("research", TOPIC, "--kb", str(KB), "--corpus", str(corpus), "--max-rounds", MAX_ROUNDS)
    run("status", "--kb", str(KB))
    print(f"\nDemo finished in {time.monotonic() - started:.0f} s. Where to look:")
    print(f"  wiki:     {KB / 'wiki' / 'INDEX.md'}  (one article per topic, every statement cites raw/)")
    print(f"  summary:  {KB / 'outputs' / 'research_summary.md'}")
    print(f"  rounds:   {KB / 'outputs' / 'rounds'}  (questions, evidence, audit reports per round)")
    print(f"  sources:  {KB / 'raw'}  (readable copies; snapshots in source_cache/)")
    ask = f'autodidact ask "Can a generator be restarted?" --kb {KB.name}'
    print(f"  next:     {ask} && autodidact research --kb {KB.name}")


if __name__ == "__main__":
    main()
