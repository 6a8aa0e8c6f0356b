"""A throwaway PostgreSQL server for tests and benchmarks: ``initdb`` + ``postgres`` on a unix socket.

Why real: the team backend's locks, queue leases and ranking are the server's own behaviour, so
tests run against Debian's ``postgresql`` package (installed by ``.ci/run``), never a mock. The
cluster lives in a fresh folder under the system temp dir and listens on a unix socket only (no
TCP port to collide with a parallel run). ``initdb`` refuses to run as root, so as root the
server runs as ``nobody`` through ``runuser`` (docs/team.md, "Tests").
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from autodidact.store.atomic import pid_alive

PG_ROOTS = ("/usr/lib/postgresql",)
SUPERUSER = "autodidact"
OWNER = "nobody"


def find_bin_dir() -> Path | None:
    """The newest installed PostgreSQL's ``bin`` folder (with ``initdb`` and ``postgres``), or None."""
    found: list[tuple[int, Path]] = []
    for root in PG_ROOTS:
        base = Path(root)
        if not base.is_dir():
            continue
        for version in base.iterdir():
            bin_dir = version / "bin"
            if (bin_dir / "initdb").is_file() and (bin_dir / "postgres").is_file() and version.name.isdigit():
                found.append((int(version.name), bin_dir))
    if found:
        return max(found)[1]
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb and shutil.which("postgres") else None


def missing_reason() -> str | None:
    """Why a server cannot be started here (for a skip), or None when it can."""
    if find_bin_dir() is None:
        return "PostgreSQL binaries (initdb, postgres) are not installed: apt-get install postgresql"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed: pip install 'autodidact[postgres]'"
    if os.geteuid() == 0 and (shutil.which("runuser") is None or _owner() is None):
        return "running as root without runuser or a 'nobody' user (initdb refuses root)"
    return None


def _owner() -> tuple[int, int] | None:
    """(uid, gid) of ``nobody``, who runs the server when we are root."""
    import pwd

    try:
        entry = pwd.getpwnam(OWNER)
    except KeyError:
        return None
    return entry.pw_uid, entry.pw_gid


@dataclass
class PgServer:
    """A running cluster; :meth:`url` names a database on it, :meth:`stop` ends it."""

    folder: Path
    bin_dir: Path
    process: subprocess.Popen[bytes]
    port: int = 5432

    def url(self, database: str = "postgres") -> str:
        """A libpq URL for ``database`` over the cluster's unix socket."""
        return f"postgresql://{SUPERUSER}@/{database}?host={self.folder}&port={self.port}"

    def create_database(self, prefix: str = "t") -> str:
        """A new, empty database; returns its URL (each test gets its own tables)."""
        import psycopg

        name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"'.encode())
        return self.url(name)

    def stop(self) -> None:
        """Fast shutdown (clients are disconnected), then remove the folder.

        The signal goes to the postmaster itself (its pid is the first line of ``postmaster.pid``):
        under ``runuser`` the process we started is runuser, which does not pass SIGINT on, and a
        server it left behind kept running after the tests, its folder deleted under it."""
        postmaster = self._postmaster_pid()
        for pid in (postmaster, self.process.pid):
            if pid is not None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGINT)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)
        deadline = time.monotonic() + 60
        while postmaster is not None and pid_alive(postmaster) and time.monotonic() < deadline:
            time.sleep(0.1)
        if postmaster is not None and pid_alive(postmaster):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(postmaster, signal.SIGKILL)
        shutil.rmtree(self.folder, ignore_errors=True)

    def _postmaster_pid(self) -> int | None:
        try:
            first = (self.folder / "data" / "postmaster.pid").read_text("utf-8").split("\n", 1)[0]
        except OSError:
            return None
        return int(first) if first.strip().isdigit() else None


def _as_owner(argv: list[str]) -> list[str]:
    """Run as ``nobody`` when we are root (initdb and postgres refuse root)."""
    return ["runuser", "-u", OWNER, "--", *argv] if os.geteuid() == 0 else argv


def start_server(timeout: float = 120.0) -> PgServer:
    """initdb into a fresh temp folder, start ``postgres`` on a socket there, wait until it accepts."""
    bin_dir = find_bin_dir()
    if bin_dir is None:
        raise RuntimeError(missing_reason() or "PostgreSQL is not installed")
    folder = Path(tempfile.mkdtemp(prefix="autodidact-pg-"))
    data = folder / "data"
    owner = _owner() if os.geteuid() == 0 else None
    if owner is not None:
        os.chown(folder, *owner)
    log = folder / "initdb.log"
    with open(log, "wb") as out:
        subprocess.run(
            _as_owner([str(bin_dir / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8",
                       "--locale=C.UTF-8", "--no-sync"]),
            stdout=out, stderr=subprocess.STDOUT, check=True, cwd=folder,
        )  # fmt: skip
    options = [
        "-c", "listen_addresses=", "-c", f"unix_socket_directories={folder}", "-c", "fsync=off",
        "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=100",
        "-c", "shared_buffers=32MB",
    ]  # fmt: skip
    server_log = open(folder / "server.log", "wb")  # noqa: SIM115 — the server writes it until stopped
    process = subprocess.Popen(
        _as_owner([str(bin_dir / "postgres"), "-D", str(data), *options]),
        stdout=server_log, stderr=subprocess.STDOUT, cwd=folder, start_new_session=True,
    )  # fmt: skip
    server_log.close()
    server = PgServer(folder=folder, bin_dir=bin_dir, process=process)
    deadline = time.monotonic() + timeout
    import psycopg

    while True:
        if process.poll() is not None:
            text = (folder / "server.log").read_text(errors="replace")[-2000:]
            shutil.rmtree(folder, ignore_errors=True)
            raise RuntimeError(f"postgres exited at start:\n{text}")
        with contextlib.suppress(psycopg.OperationalError):
            psycopg.connect(server.url(), connect_timeout=5).close()
            return server
        if time.monotonic() > deadline:
            server.stop()
            raise RuntimeError("postgres did not accept connections in time")
        time.sleep(0.2)
