"""Files are written with the mode the umask gives, as other tools write them (issue 13 item 10).

Before: every atomically written file was 0600 (mkstemp's mode), whatever the umask.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "fchmod"), reason="POSIX file modes")


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_init_and_add_follow_the_umask(tmp_path: Path, umask: int) -> None:
    doc = tmp_path / "note.md"
    doc.write_text("# Note\n\nCoroutines suspend at await points.\n", "utf-8")
    kb = tmp_path / "kb"
    script = (
        "import os, sys\n"
        f"os.umask({umask})\n"
        "from autodidact.cli import app\n"
        "sys.argv = ['autodidact', *sys.argv[1:]]\n"
        "app()\n"
    )
    for args in (["init", str(kb)], ["add", str(doc), "--kb", str(kb)]):
        done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
    written = [kb / "CLAUDE.md", kb / "wiki" / "INDEX.md", *sorted((kb / "raw").glob("*.md"))]
    assert len(written) >= 3
    for path in written:
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask, path
