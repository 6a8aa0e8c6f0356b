"""One writer per report folder: a second report run on a busy folder fails fast and writes nothing."""

from __future__ import annotations

import os
from pathlib import Path

from autodidact.store.lock import WriterLock


def test_second_report_run_on_a_locked_folder_is_refused(tmp_path: Path, cli) -> None:
    report_dir = tmp_path / "rep"
    holder = WriterLock(report_dir / ".autodidact" / "lock")
    holder.acquire()
    try:
        result = cli("report", "Python generators overview", "--report-dir", str(report_dir))
    finally:
        holder.release()
    assert result.exit_code == 3
    assert f"in use by pid {os.getpid()}" in result.output
    assert not (report_dir / "plan.json").exists()
    assert not (report_dir / "request.md").exists()
