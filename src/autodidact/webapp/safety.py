"""What the web app may serve and which requests may change anything.

Why its own module: every route that names a file goes through :func:`kb_file`, and every
state-changing request through :class:`Guard`, so the two rules are written once and tested once.
A file is served only when each component of its path is a plain name inside the knowledge base
(no ``..``, no hidden folder such as ``.autodidact``, no symlink anywhere on the way). A POST is
accepted only with an ``Origin`` equal to the page's own and a token tied to the browser's session
cookie (double submit, signed with a secret that lives only in this process).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from pathlib import Path
from urllib.parse import urlsplit

from autodidact.errors import InputError, NotFoundError, PathSafetyError

SESSION_COOKIE = "autodidact_session"


def kb_file(root: Path, relative: str) -> Path:
    """``root/relative`` as an existing regular file, or an error that says why not.

    Refused (:class:`PathSafetyError`): an absolute path, ``..``, a hidden component, a symlink at
    any level, or anything that resolves outside ``root``. Missing: :class:`NotFoundError`.
    """
    if not relative:
        raise InputError("the file path is empty")
    if "\x00" in relative or "\\" in relative:
        raise PathSafetyError(f"{relative!r} holds a backslash or a NUL, which no file name here has")
    if relative.startswith("/"):
        raise PathSafetyError(f"{relative!r} is an absolute path", hint="name a file inside the knowledge base")
    parts = relative.split("/")
    for part in parts:
        if part in ("", ".", "..") or part.startswith("."):
            raise PathSafetyError(f"{relative!r} leaves the knowledge base or names a hidden file")
    base = root.resolve()
    current = _walk(base, parts, f"{relative!r}", must_exist=True)
    if not current.resolve().is_relative_to(base):
        raise PathSafetyError(f"{relative!r} leads out of the knowledge base")
    if not current.is_file():
        raise NotFoundError(f"{relative!r} is not a file")
    return current


def kb_folder(root: Path, relative: str) -> Path:
    """A folder inside the knowledge base (a research corpus), with the same refusals as :func:`kb_file`.

    The folder need not exist yet (it is created empty): a research may start before its corpus.
    """
    parts = relative.strip().strip("/").split("/")
    for part in parts:
        if part in ("", ".", "..") or part.startswith(".") or "\\" in part or "\x00" in part:
            raise PathSafetyError(f"corpus folder {relative!r} must be a plain folder inside the knowledge base")
    current = _walk(root.resolve(), parts, f"corpus folder {relative!r}", must_exist=False)
    if current.exists() and not current.is_dir():
        raise InputError(f"corpus {relative!r} is not a folder")
    current.mkdir(parents=True, exist_ok=True)
    return current


def _walk(base: Path, parts: list[str], what: str, *, must_exist: bool) -> Path:
    """``base`` joined with ``parts`` one component at a time, refusing a symlink at any level
    (checked before it is followed); with ``must_exist``, a missing component is NotFoundError."""
    current = base
    for part in parts:
        current = current / part
        if current.is_symlink():
            raise PathSafetyError(f"{what} goes through a symlink, which is never followed")
        if must_exist and not current.exists():
            raise NotFoundError(f"no file {what} in the knowledge base")
    return current


class Guard:
    """Issues session cookies and tokens, and checks Origin + token on every state-changing request."""

    def __init__(self, secret: bytes | None = None) -> None:
        self._secret = secret if secret is not None else secrets.token_bytes(32)

    @staticmethod
    def new_session() -> str:
        """A fresh random session id for the cookie."""
        return secrets.token_urlsafe(24)

    def token_for(self, session: str) -> str:
        """The form token of a session: an HMAC, so it cannot be derived without this process's secret."""
        return hmac.new(self._secret, session.encode(), hashlib.sha256).hexdigest()

    def check(self, *, host: str | None, origin: str | None, session: str | None, token: str | None) -> None:
        """Raise :class:`PermissionError` with a one-line reason unless the request may change state."""
        if not origin:
            raise PermissionError("refused: the request has no Origin header")
        parsed = urlsplit(origin)
        if parsed.scheme not in ("http", "https") or not host or parsed.netloc != host:
            raise PermissionError(f"refused: Origin {origin} is not this server")
        if not session or not token:
            raise PermissionError("refused: the form token is missing (reload the page)")
        if not hmac.compare_digest(self.token_for(session), token):
            raise PermissionError("refused: the form token is wrong (reload the page)")
