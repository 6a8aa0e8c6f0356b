"""Debates in the browser: start a session, answer turn by turn, read the transcript, close it.

Why :class:`autodidact.api.Debate` and nothing else: the session is the folder's ``events.jsonl``,
the same event store the CLI writes, so a debate begun in the terminal continues here and back.
"""

from __future__ import annotations

from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from autodidact.api.debate import DEPTHS, Debate
from autodidact.errors import InputError
from autodidact.webapp.web import Site, see_other


def _sessions(site: Site) -> list[str]:
    folder = site.root / "debates"
    if not folder.is_dir() or folder.is_symlink():
        return []
    return sorted(
        (p.name for p in folder.iterdir() if p.is_dir() and not p.is_symlink() and (p / "events.jsonl").is_file()),
        reverse=True,
    )


async def debates(request: Request) -> Response:
    """The sessions of this knowledge base and the form to start one."""
    site: Site = request.app.state.site
    return site.page(request, "debates.html.j2", title="Debate", sessions=_sessions(site), depths=DEPTHS)


async def debate_start(request: Request) -> Response:
    """Start a session on an idea; the page of the session shows its first question."""
    site: Site = request.app.state.site
    form = await site.checked_form(request)
    depth = form.get("depth") or None
    if depth is not None and depth not in DEPTHS:
        raise InputError(f"depth {depth!r} is not quick, standard or deep")
    debate = await run_in_threadpool(lambda: Debate.start(form.get("prompt", ""), kb=site.root, depth=depth))
    return see_other(f"/debate/{quote(debate.session_id)}")


def _open(site: Site, session_id: str) -> Debate:
    if session_id.startswith("."):
        raise PermissionError(f"debate {session_id!r}: session names do not start with '.'")
    folder = site.root / "debates" / session_id
    if folder.is_symlink() or (site.root / "debates").is_symlink():
        raise PermissionError(f"debate {session_id!r} is a symlink, which is never followed")
    return Debate(session_id, kb=site.root)


async def debate_view(request: Request) -> Response:
    """The transcript so far and the open question with an answer box."""
    site: Site = request.app.state.site
    session_id = request.path_params["session"]
    debate = _open(site, session_id)
    turn = await run_in_threadpool(debate.current)
    transcript = await run_in_threadpool(debate.transcript)
    return site.page(request, "debate.html.j2", title="Debate", session=session_id, turn=turn, transcript=transcript)


async def debate_reply(request: Request) -> Response:
    """Record an answer to the open turn (refused if the turn has moved on) and show the next one."""
    site: Site = request.app.state.site
    session_id = request.path_params["session"]
    form = await site.checked_form(request)
    debate = _open(site, session_id)
    turn_text = form.get("turn", "").strip()
    if turn_text and not turn_text.isdigit():
        raise InputError(f"turn {turn_text!r} is not a number")
    answer = form.get("answer", "")
    await run_in_threadpool(lambda: debate.reply(answer, turn=int(turn_text) if turn_text else None))
    return see_other(f"/debate/{quote(session_id)}#turn")


async def debate_close(request: Request) -> Response:
    """Close the session (a final checkpoint and its summary)."""
    site: Site = request.app.state.site
    session_id = request.path_params["session"]
    await site.checked_form(request)
    debate = _open(site, session_id)
    await run_in_threadpool(debate.close)
    return see_other(f"/debate/{quote(session_id)}")
