"""The ASGI app: routes, the refusals as one-line error pages, the host check, and ``serve``.

Why starlette: it is already installed (the MCP SDK runs on it), it is small, and its test client
drives the whole app in-process. Errors map to status codes once, here: a bad argument is 400, a
refused path or request 403, a missing file 404, a busy knowledge base 409.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from autodidact.errors import AutodidactError, InputError, LockedError, NotFoundError, PathSafetyError
from autodidact.webapp import views_debate, views_research, views_wiki
from autodidact.webapp.web import Site

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


def _status_of(exc: Exception) -> int:
    if isinstance(exc, PathSafetyError | PermissionError):
        return 403
    if isinstance(exc, NotFoundError):
        return 404
    if isinstance(exc, LockedError):
        return 409
    if isinstance(exc, InputError):
        return 400
    return 409 if isinstance(exc, AutodidactError) else 500


def _error_page(request: Request, exc: Exception) -> Response:
    """One line saying what was refused or missing (and a hint when there is one)."""
    site: Site = request.app.state.site
    if isinstance(exc, HTTPException):
        code, message, hint = exc.status_code, ("no such page" if exc.status_code == 404 else str(exc.detail)), None
    elif isinstance(exc, AutodidactError):
        code, message, hint = _status_of(exc), " ".join(exc.message.split()), exc.hint
    else:
        code, message, hint = _status_of(exc), " ".join(str(exc).split()), None
    return site.page(request, "error.html.j2", status_code=code, title=f"Error {code}", message=message, hint=hint)


def routes() -> list[Route]:
    """Every page; POST routes change state and are guarded (Origin + session token)."""
    return [
        Route("/", views_research.overview),
        Route("/research", views_research.research_page),
        Route("/research/events", views_research.research_events),
        Route("/research/start", views_research.research_start, methods=["POST"]),
        Route("/research/resume", views_research.research_resume, methods=["POST"]),
        Route("/research/stop", views_research.research_stop, methods=["POST"]),
        Route("/research/ask", views_research.research_ask, methods=["POST"]),
        Route("/wiki", views_wiki.wiki_index),
        Route("/wiki/graph", views_wiki.wiki_graph),
        Route("/wiki/{name}", views_wiki.wiki_article),
        Route("/source/{name}", views_wiki.source),
        Route("/file/{path:path}", views_wiki.kb_text_file),
        Route("/reports", views_wiki.reports),
        Route("/reports/{name}/", views_wiki.report_view),
        Route("/reports/{name}/{path:path}", views_wiki.report_file),
        Route("/debate", views_debate.debates),
        Route("/debate/start", views_debate.debate_start, methods=["POST"]),
        Route("/debate/{session}", views_debate.debate_view),
        Route("/debate/{session}/reply", views_debate.debate_reply, methods=["POST"]),
        Route("/debate/{session}/close", views_debate.debate_close, methods=["POST"]),
    ]


def create_app(root: Path, *, allowed_hosts: list[str] | None = None) -> Starlette:
    """The app for knowledge base ``root`` (which may not exist yet: the Research page starts one).

    ``allowed_hosts`` are the Host headers answered (default: the loopback names), so a page on
    another site cannot reach this one through DNS rebinding.
    """
    site = Site(root.expanduser().resolve())

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        site.research.shutdown()  # a run in progress stops at a safe point and stays resumable

    async def on_error(request: Request, exc: Exception) -> Response:
        return _error_page(request, exc)

    app = Starlette(
        routes=routes(),
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts or LOCAL_HOSTS))],
        exception_handlers={HTTPException: on_error, AutodidactError: on_error, PermissionError: on_error},
        lifespan=lifespan,
    )
    app.state.site = site
    return app


def serve(root: Path, *, host: str = "127.0.0.1", port: int = 8765) -> None:
    """Run the app with uvicorn until Ctrl+C."""
    import uvicorn

    hosts = [*LOCAL_HOSTS, host] if host not in ("0.0.0.0", "::") else ["*"]
    uvicorn.run(create_app(root, allowed_hosts=hosts), host=host, port=port, log_level="warning")
