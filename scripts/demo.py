"""`make demo`: the main job on built-in defaults (offline engine, local corpus).

Grows with the project: it initialises a knowledge base and shows the settings in effect;
later issues make it run the research loop over Python's own documentation.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KB = ROOT / "demo-kb"


def run(*args: str) -> None:
    print(f"$ autodidact {' '.join(args)}", flush=True)
    subprocess.run([sys.executable, "-m", "autodidact", *args], check=True)


def main() -> None:
    if KB.exists():
        shutil.rmtree(KB)
    run("init", str(KB), "--topic", "How do Python generators and coroutines work?", "--lang", "en")
    print(f"\nDemo knowledge base: {KB}")


if __name__ == "__main__":
    main()
