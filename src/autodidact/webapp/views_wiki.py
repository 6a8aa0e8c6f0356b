"""The wiki (INDEX, articles, link graph), the cited sources with their quote marked, and the reports.

Why every file goes through :func:`~autodidact.webapp.safety.kb_file` or the API's ``inside``: a
name in a URL is input from whoever can reach the port, and only the knowledge base is served.
"""

from __future__ import annotations

from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from autodidact.api.knowledge import list_articles, list_reports, read_article, read_report
from autodidact.errors import NotFoundError
from autodidact.kb import is_kb
from autodidact.webapp.charts import link_graph
from autodidact.webapp.render import highlight, report_html, snapshot_of, wiki_html
from autodidact.webapp.safety import kb_file
from autodidact.webapp.web import Site

MAX_SHOWN_BYTES = 2_000_000


def _need_kb(site: Site) -> None:
    if not is_kb(site.root):
        raise NotFoundError("there is no research here yet", hint="start one on the Research page")


async def wiki_index(request: Request) -> Response:
    """``wiki/INDEX.md`` rendered, with the article list beside it."""
    site: Site = request.app.state.site
    _need_kb(site)
    articles = await run_in_threadpool(list_articles, kb=site.root)
    try:
        index = wiki_html(await run_in_threadpool(read_article, "INDEX", kb=site.root))
    except NotFoundError:
        index = ""
    return site.page(request, "wiki.html.j2", title="Wiki", body=index, articles=articles)


async def wiki_article(request: Request) -> Response:
    """One article; its ``[[links]]`` lead to articles and its citations to the quoted source passage."""
    site: Site = request.app.state.site
    _need_kb(site)
    name = request.path_params["name"]
    if name == "INDEX":
        return RedirectResponse("/wiki", status_code=307)
    text = await run_in_threadpool(read_article, name, kb=site.root)  # the API's refusals and "no such article"
    kb_file(site.root, f"wiki/{name.removesuffix('.md')}.md")  # and no symlink, even one that stays inside
    return site.page(request, "article.html.j2", title=name, body=wiki_html(text), name=name)


async def wiki_graph(request: Request) -> Response:
    """Which articles link to which, as an SVG circle of links."""
    from autodidact.wiki.common.markdown import wikilinks

    site: Site = request.app.state.site
    _need_kb(site)
    articles = await run_in_threadpool(list_articles, kb=site.root)
    names = {a.name for a in articles}
    lower = {a.name.casefold(): a.name for a in articles}
    edges: list[tuple[str, str]] = []
    for article in articles:
        text = await run_in_threadpool(read_article, article.name, kb=site.root)
        for target in wikilinks(text):
            resolved = target if target in names else lower.get(target.casefold())
            if resolved and (article.name, resolved) not in edges:
                edges.append((article.name, resolved))
    svg = link_graph([(a.name, a.title) for a in articles], edges)
    return site.page(request, "graph.html.j2", title="Link graph", svg=svg, edges=edges)


def _show_file(site: Site, request: Request, relative: str, *, title: str, back: str | None = None) -> Response:
    path = kb_file(site.root, relative)
    passage = request.query_params.get("q")
    with path.open("rb") as handle:  # a huge file is shown in part, not read whole
        data = handle.read(MAX_SHOWN_BYTES)
    text = data.decode("utf-8", errors="replace")
    marked = highlight(text, passage)
    snapshot = snapshot_of(text) if relative.startswith("raw/") else None
    snapshot_href = None
    if snapshot:
        snapshot_href = f"/file/{quote(snapshot)}" + (f"?q={quote(passage)}" if passage else "")
    return site.page(
        request, "source.html.j2", title=title, relative=relative, body=marked.html, found=marked.found,
        passage=passage, snapshot_href=snapshot_href, back=back,
    )  # fmt: skip


async def source(request: Request) -> Response:
    """A raw source file (``raw/<name>``), the passage in ``?q=`` marked and scrolled to."""
    site: Site = request.app.state.site
    name = request.path_params["name"]
    if "/" in name:
        raise PermissionError(f"source {name!r} must be one file name in raw/")
    return _show_file(site, request, f"raw/{name}", title=name)


async def kb_text_file(request: Request) -> Response:
    """A text file of the knowledge base (a snapshot in ``source_cache/``), the passage marked."""
    site: Site = request.app.state.site
    relative = request.path_params["path"]
    return _show_file(site, request, relative, title=relative)


async def reports(request: Request) -> Response:
    """The reports of this knowledge base."""
    site: Site = request.app.state.site
    _need_kb(site)
    names = await run_in_threadpool(list_reports, kb=site.root)
    return site.page(request, "reports.html.j2", title="Reports", names=names)


async def report_view(request: Request) -> Response:
    """A report with ``[N]`` linked to its reference and each reference linked back."""
    site: Site = request.app.state.site
    _need_kb(site)
    name = request.path_params["name"]
    kb_file(site.root, f"reports/{name}/report.md")  # no hidden folder, no symlink on the way
    text = await run_in_threadpool(read_report, name, kb=site.root)
    return site.page(request, "report.html.j2", title=name, body=report_html(text), name=name)


async def report_file(request: Request) -> Response:
    """A file of a report's folder (its snapshots), served as text with the passage marked."""
    site: Site = request.app.state.site
    name, relative = request.path_params["name"], request.path_params["path"]
    return _show_file(site, request, f"reports/{name}/{relative}", title=relative, back=f"/reports/{quote(name)}/")
