"""Run the autodidact CLI with faults injected into the file-system calls it makes.

Usage: ``python driver.py '<faults json>' ARGS...``. Faults (each optional):

- ``exit_before_replace: N`` — ``os._exit(87)`` at the N-th ``os.replace``, before it happens (the
  temp file is complete and fsynced, the target untouched): a kill -9 inside the atomic write.
- ``exit_after_replace: N`` — ``os._exit(87)`` right after the N-th ``os.replace`` (before the
  folder fsync).
- ``exit_at_fsync: N`` — ``os._exit(87)`` at the N-th ``os.fsync`` (a temp file half-way).
- ``enospc_at_fsync: N`` — the N-th ``os.fsync`` and every later one raise ``OSError(ENOSPC)``
  (where a full disk shows itself with delayed allocation).
- ``enospc_at_link: N`` — the N-th ``os.link`` raises ``OSError(ENOSPC)``.
- ``count_file: PATH`` — write ``{"replace": n, "fsync": n, "link": n}`` there at exit.

Why a driver and not a mock: the code under test runs unmodified in a real child process; only
the operating-system calls misbehave, the way a killed process or a full disk makes them.
"""

from __future__ import annotations

import atexit
import errno
import json
import os
import sys

KILLED = 87


def install(faults: dict[str, int | str]) -> None:
    counts = {"replace": 0, "fsync": 0, "link": 0}
    real_replace, real_fsync, real_link = os.replace, os.fsync, os.link

    def replace(src: object, dst: object, **kw: object) -> None:
        counts["replace"] += 1
        if counts["replace"] == faults.get("exit_before_replace"):
            os._exit(KILLED)
        real_replace(src, dst, **kw)  # type: ignore[arg-type]
        if counts["replace"] == faults.get("exit_after_replace"):
            os._exit(KILLED)

    def fsync(fd: int) -> None:
        counts["fsync"] += 1
        if counts["fsync"] == faults.get("exit_at_fsync"):
            os._exit(KILLED)
        at = faults.get("enospc_at_fsync")
        if isinstance(at, int) and counts["fsync"] >= at:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    def link(src: object, dst: object, **kw: object) -> None:
        counts["link"] += 1
        if counts["link"] == faults.get("enospc_at_link"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_link(src, dst, **kw)  # type: ignore[arg-type]

    os.replace, os.fsync, os.link = replace, fsync, link  # type: ignore[assignment]
    count_file = faults.get("count_file")
    if isinstance(count_file, str):

        def dump() -> None:
            with open(count_file, "w", encoding="utf-8") as fh:
                json.dump(counts, fh)

        atexit.register(dump)


def main() -> None:
    faults = json.loads(sys.argv[1])
    install(faults)
    sys.argv = ["autodidact", *sys.argv[2:]]
    from autodidact.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
