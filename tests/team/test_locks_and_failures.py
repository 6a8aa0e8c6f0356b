"""The team backend's locks, a dead server, and doctor (docs/team.md, "Locks" and "Failures")."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from autodidact.testing.pgserver import PgServer, start_server

# Holds a knowledge base's writer lock until its stdin closes: another machine's writer, in effect.
HOLDER = """
import sys
from autodidact.kb import open_kb
with open_kb(sys.argv[1]).lock():
    print("held", flush=True)
    sys.stdin.read()
"""

DOC = "# Pinning\\n\\nThe default Pin-Priority of an archive is 500, said the handbook.\\n"


def _kb(tmp_path: Path, name: str, team_name: str, run_cli, env: dict[str, str]) -> Path:
    done = run_cli("init", name, "--topic", "apt pinning", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    root = tmp_path / name
    with (root / "autodidact.toml").open("a", encoding="utf-8") as fh:
        fh.write(f'\n[store]\nname = "{team_name}"\n')
    return root


def test_two_writers_on_one_knowledge_base_from_two_folders_one_is_refused(
    tmp_path: Path, pg_url: str, team_env, run_cli
) -> None:
    env = team_env(pg_url)
    first = _kb(tmp_path, "alice-kb", "team-kb", run_cli, env)
    other = tmp_path / "bob" / "checkout"  # another person's checkout, another working folder
    other.parent.mkdir()
    shutil.copytree(first, other)
    (tmp_path / "note.md").write_text(DOC.replace("\\n", "\n"), encoding="utf-8")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(first)], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        refused = run_cli("add", str(tmp_path / "note.md"), "--kb", str(other), cwd=other.parent, env=env)
        assert refused.returncode == 3, refused.stderr
        error = [line for line in refused.stderr.splitlines() if line.startswith("error:")]
        assert len(error) == 1 and "knowledge base 'team-kb' in use by autodidact pid" in error[0]
        assert "Traceback" not in refused.stderr and not list((other / "raw").glob("*note*"))
        # Without the server, the two folders would not know of each other: both would write.
        alone = run_cli("add", str(tmp_path / "note.md"), "--kb", str(other), cwd=other.parent, env=team_env(None))
        assert alone.returncode == 0, alone.stderr
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=60)
    after = run_cli("add", str(tmp_path / "note.md"), "--kb", str(first), cwd=tmp_path, env=env)
    assert after.returncode == 0, after.stderr  # the server freed the lock with its holder


def test_a_dead_server_gives_one_clear_line_and_the_knowledge_base_resumes_on_a_new_one(
    tmp_path: Path, team_env, run_cli
) -> None:
    server: PgServer = start_server()
    try:
        url = server.create_database()
        kb = _kb(tmp_path, "kb", "resumable", run_cli, team_env(url))
        (tmp_path / "one.md").write_text("# Pinning\n\nThe default Pin-Priority of an archive is 500.\n", "utf-8")
        (tmp_path / "two.md").write_text("# Upgrades\n\nunattended-upgrades installs security upgrades.\n", "utf-8")
        assert run_cli("add", "one.md", "--kb", "kb", cwd=tmp_path, env=team_env(url)).returncode == 0
    finally:
        server.stop()  # the server dies between two runs of the team
    dead = run_cli("add", "two.md", "--kb", "kb", cwd=tmp_path, env=team_env(url))
    assert dead.returncode == 5, dead.stderr
    lines = dead.stderr.splitlines()
    assert lines[0].startswith("error: cannot reach the PostgreSQL server postgresql://autodidact@/"), lines
    assert lines[1].startswith("hint: ") and "Traceback" not in dead.stderr
    # The files are the truth: a new, empty server is filled from them, and the interrupted add resumes.
    fresh = start_server()
    try:
        url = fresh.create_database()
        resumed = run_cli("add", "two.md", "--kb", "kb", cwd=tmp_path, env=team_env(url))
        assert resumed.returncode == 0, resumed.stderr
        for query, name in (("Pin-Priority archive", "one.md"), ("unattended-upgrades security", "two.md")):
            found = run_cli("search", query, "--kb", "kb", "--json", cwd=tmp_path, env=team_env(url))
            assert found.returncode == 0 and name in found.stdout, found.stderr
        check = run_cli("verify", "--kb", "kb", cwd=tmp_path, env=team_env(url))
        assert check.returncode == 0, check.stdout + check.stderr
    finally:
        fresh.stop()
    assert kb.is_dir()


def test_doctor_names_the_backend_checks_it_and_never_shows_the_password(
    tmp_path: Path, pg_url: str, team_env, run_cli
) -> None:
    with_password = pg_url.replace("postgresql://autodidact@", "postgresql://autodidact:s3cr3t-pw@")
    shown = run_cli("doctor", cwd=tmp_path, env=team_env(with_password))
    text = shown.stdout + shown.stderr
    assert shown.returncode == 0, text
    assert "postgres: postgresql://autodidact:***@" in text and "server answers: PostgreSQL" in text
    assert "s3cr3t-pw" not in text
    down = with_password.replace("host=", "host=/nonexistent")
    failing = run_cli("doctor", cwd=tmp_path, env=team_env(down))
    assert failing.returncode == 1 and "not reachable" in failing.stdout + failing.stderr
    assert "s3cr3t-pw" not in failing.stdout + failing.stderr
    default = run_cli("doctor", cwd=tmp_path, env=team_env(None))
    assert default.returncode == 0 and "sqlite: .autodidact/index.sqlite" in default.stdout + default.stderr
