"""``autodidact worker``: take report dimensions and research questions from the team backend's queue.

Thin on purpose: read the server's URL, call :func:`autodidact.report.workers.work`, print one line
per job. The design (queue table, leases, what a killed worker leaves) is in docs/team.md.
"""

from __future__ import annotations

import os

import typer

from autodidact.cli.common import console


def register(app: typer.Typer) -> None:
    """Add ``worker``."""

    @app.command("worker")
    def worker_cmd(
        database: str | None = typer.Option(
            None,
            "--database",
            metavar="URL",
            help="The team's PostgreSQL server, postgresql://user@host:5432/db (default: $AUTODIDACT_DATABASE_URL). "
            "Keep the password out of the command line: PGPASSWORD or ~/.pgpass.",
        ),
        lease: float = typer.Option(
            60.0,
            "--lease",
            min=2.0,
            metavar="SECONDS",
            help="How long a claimed job stays this worker's without a heartbeat; a killed worker's "
            "job goes to another worker after this long.",
        ),
        idle_exit: float | None = typer.Option(
            None, "--idle-exit", metavar="SECONDS", help="Stop after this long with nothing to do (default: never)."
        ),
        max_jobs: int | None = typer.Option(None, "--max-jobs", min=1, help="Stop after this many jobs."),
    ) -> None:
        """Work on report dimensions and research questions from the team queue, on this machine, until stopped.

        Each claimed dimension's evidence is gathered into its report folder, each research
        question researched in its knowledge base (the folder must be reachable here: a shared file
        system), with the engine the run was started with; the `report --workers` or `research
        --workers` run that queued it checks the result and goes on. Run as many workers as you
        like, on as many machines; a worker killed mid-job loses nothing: its lease runs out and
        another worker redoes that job.

        Example: AUTODIDACT_DATABASE_URL=postgresql://me@db.example/team autodidact worker --idle-exit 600
        """
        from autodidact.config import DATABASE_URL_VAR, secret
        from autodidact.errors import InputError
        from autodidact.report.workers import work
        from autodidact.store.pg import check_url, mask_url

        url = database or secret(DATABASE_URL_VAR)
        if not url:
            raise InputError(
                "no database for the worker",
                hint=f"pass --database postgresql://user@host/db or set {DATABASE_URL_VAR}",
            )
        check_url(url)
        # The report folders' indexes live on the same server: the gathering reads them through it.
        os.environ[DATABASE_URL_VAR] = url
        console.print(
            f"worker: taking report dimensions and research questions from {mask_url(url)}",
            soft_wrap=True,
            markup=False,
        )
        done = work(
            url,
            lease=lease,
            idle_exit=idle_exit,
            max_jobs=max_jobs,
            say=lambda line: console.print(f"worker: {line}", soft_wrap=True, markup=False),
        )
        console.print(f"worker: stopped after {done} job(s)", markup=False)
