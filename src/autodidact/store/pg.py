"""Connections to the team backend's PostgreSQL server, and what every caller needs around them.

Why one module: the URL may carry a password, so it is masked in every message this package makes
(:func:`mask_url`); a server that is down or refuses a statement becomes one :class:`DatabaseError`
line naming the server (masked), never a traceback (docs/team.md, "Failures"). psycopg is an
optional dependency (the ``postgres`` extra): without it, asking for the backend says how to
install it. No domain knowledge here; the index, the locks, the cache and the queue bring their
own tables.
"""

from __future__ import annotations

import hashlib
import os
import socket
from collections.abc import Iterable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from autodidact.errors import DatabaseError, InputError

if TYPE_CHECKING:
    import psycopg

CONNECT_TIMEOUT_SECONDS = 10


def mask_url(url: str) -> str:
    """The URL with any password replaced by ``***`` (what messages, logs and doctor show)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "(unreadable URL)"
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, f"{user}:***@{host}", parts.path, parts.query, parts.fragment))


def check_url(url: str) -> None:
    """Refuse what cannot be a PostgreSQL URL before trying to connect (bad input, exit 2)."""
    scheme = urlsplit(url).scheme if "://" in url else ""
    if scheme not in {"postgresql", "postgres"}:
        raise InputError(
            f"database URL {mask_url(url)!r} is not a postgresql:// URL",
            hint="use postgresql://user@host:5432/dbname (password in PGPASSWORD or ~/.pgpass)",
        )


def _driver() -> None:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise InputError(
            "the PostgreSQL backend needs the psycopg package",
            hint="pip install 'autodidact[postgres]'",
        ) from None


def application_name() -> str:
    """Who holds a connection, as ``pg_stat_activity`` shows it (a refused writer names this)."""
    return f"autodidact pid {os.getpid()} on {socket.gethostname()}"[:63]


def connect(url: str, *, autocommit: bool = True, schema: Iterable[str] = ()) -> psycopg.Connection[tuple[object, ...]]:
    """A new connection (autocommit by default) with each idempotent DDL statement applied.

    Raises :class:`DatabaseError` naming the masked URL when the server cannot be reached."""
    check_url(url)
    _driver()
    import psycopg

    try:
        conn = psycopg.connect(
            url,
            autocommit=autocommit,
            connect_timeout=CONNECT_TIMEOUT_SECONDS,
            application_name=application_name(),
        )
    except psycopg.Error as exc:
        raise unavailable(url, exc) from None
    try:
        for ddl in schema:
            apply_schema(conn, ddl)
    except psycopg.Error as exc:
        conn.close()
        raise failed(url, exc) from None
    return conn


def apply_schema(conn: psycopg.Connection[tuple[object, ...]], ddl: str) -> None:
    """Run one ``CREATE … IF NOT EXISTS`` script, serialised across machines.

    Why the lock: two processes creating the same table at once can both pass ``IF NOT EXISTS`` and
    one then fails on the catalog's unique index; a transaction-level advisory lock orders them."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (advisory_key("schema"),))
        conn.execute(ddl.encode("utf-8"))


def first_line(exc: BaseException) -> str:
    """The first line of a driver error (its detail lines can quote a statement's values)."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def unavailable(url: str, exc: BaseException) -> DatabaseError:
    """The one-line error for a server that cannot be reached."""
    return DatabaseError(
        f"cannot reach the PostgreSQL server {mask_url(url)}: {_without_url(first_line(exc), url)}",
        hint="start the server or fix AUTODIDACT_DATABASE_URL / [store] url; work done so far is kept, "
        "run the same command again to resume",
    )


def failed(url: str, exc: BaseException) -> DatabaseError:
    """The one-line error for a statement the server refused or a connection lost mid-run."""
    return DatabaseError(
        f"the PostgreSQL server {mask_url(url)} failed: {_without_url(first_line(exc), url)}",
        hint="check the server (autodidact doctor); work done so far is kept, run the same command again to resume",
    )


def _without_url(text: str, url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        text = text.replace(parts.password, "***")
    return text


def advisory_key(name: str) -> int:
    """A stable signed 64-bit key for ``pg_advisory_lock`` from a name (the same on every machine)."""
    digest = hashlib.sha256(("autodidact:" + name).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def server_version(url: str) -> str:
    """``PostgreSQL 15.x …`` of the server (doctor's check); raises :class:`DatabaseError`."""
    conn = connect(url)
    try:
        row = conn.execute("SHOW server_version").fetchone()
    finally:
        conn.close()
    return f"PostgreSQL {row[0] if row else '?'}"
