"""What every page handler shares: the knowledge base, the templates, the session token, the guard.

Why a small shared object rather than globals: the tests build several apps (English, Chinese,
hostile folders) in one process, each with its own folder, secret and research slot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse

from autodidact.kb import KnowledgeBase
from autodidact.webapp.jobs import ResearchSlot
from autodidact.webapp.safety import SESSION_COOKIE, Guard


def _environment() -> Environment:
    # Autoescape every template: source text is shown as text, never as markup.
    return Environment(
        loader=PackageLoader("autodidact.webapp", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )


@dataclass
class Site:
    """One served knowledge base."""

    root: Path
    guard: Guard = field(default_factory=Guard)
    slot: ResearchSlot | None = None
    env: Environment = field(default_factory=_environment)

    def __post_init__(self) -> None:
        if self.slot is None:
            self.slot = ResearchSlot(self.root)

    @property
    def research(self) -> ResearchSlot:
        """The research slot (always set after construction)."""
        assert self.slot is not None
        return self.slot

    def page(self, request: Request, template: str, status_code: int = 200, **context: object) -> HTMLResponse:
        """Render ``template`` with the session's form token; a first visit gets its session cookie."""
        session = request.cookies.get(SESSION_COOKIE)
        fresh = not session
        if not session:
            session = Guard.new_session()
        # the page's language is the knowledge base's, so a browser picks CJK fonts for a Chinese one
        lang = "zh-CN" if KnowledgeBase(self.root).language() == "zh" else "en"
        html = self.env.get_template(template).render(
            token=self.guard.token_for(session), kb=self.root, path=request.url.path, lang=lang, **context
        )
        response = HTMLResponse(html, status_code=status_code)
        if fresh:
            response.set_cookie(SESSION_COOKIE, session, httponly=True, samesite="strict")
        return response

    async def checked_form(self, request: Request) -> dict[str, str]:
        """The POSTed form after the Origin and token checks (:class:`PermissionError` when refused)."""
        form = await request.form()
        token = form.get("token")
        self.guard.check(
            host=request.headers.get("host"),
            origin=request.headers.get("origin"),
            session=request.cookies.get(SESSION_COOKIE),
            token=token if isinstance(token, str) else None,
        )
        return {key: value for key, value in form.items() if isinstance(value, str)}


def see_other(url: str) -> RedirectResponse:
    """After a POST: go to the page that shows the result (a reload does not post again)."""
    return RedirectResponse(url, status_code=303)
