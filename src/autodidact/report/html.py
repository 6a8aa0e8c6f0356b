"""report.html: the report as one self-contained page (inline CSS, no scripts, no remote assets).

Why this way: evidence text is untrusted, so markdown is rendered with raw HTML disabled
(markdown-it-py) and the page shell is a jinja2 template with autoescape. ``[N]`` markers become
links to the numbered references; a reference links to its snapshot inside the report folder for
local documents (portable ``autodidact.invalid`` URLs) and to the web URL otherwise, so the page
works straight from the folder, offline.
"""

from __future__ import annotations

import html
import re

from jinja2 import Environment
from markdown_it import MarkdownIt

from autodidact.report.artifacts import CitationEntry, CitationsFile
from autodidact.report.labels import label
from autodidact.report.references import anchor
from autodidact.sources.snapshots import is_local_url

_TEMPLATE = """<!doctype html>
<html lang="{{ lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }}</title>
<style>
body { font: 16px/1.6 system-ui, -apple-system, "Segoe UI", "Noto Sans CJK SC", "PingFang SC", sans-serif;
       margin: 0; color: #1d1d1f; background: #fafafa; }
main { max-width: 60rem; margin: 0 auto; padding: 2rem 1.5rem 4rem; background: #fff; }
h1 { font-size: 1.8rem; line-height: 1.25; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; margin: 1rem 0; }
th, td { border: 1px solid #ccc; padding: .35rem .5rem; vertical-align: top; text-align: left; }
th { background: #f0f0f0; } a.cite { text-decoration: none; font-size: .8em; vertical-align: super; }
ol.refs li { margin: .3rem 0; word-break: break-word; } code { font-size: .8em; color: #555; }
</style>
</head>
<body><main>
{{ body | safe }}
<h2 id="references">{{ refs_label }}</h2>
<ol class="refs">
{% for c in citations %}<li id="ref-{{ c.n }}" value="{{ c.n }}"><a href="{{ c.href }}">{{ c.title }}</a>
<br><code>{{ c.location or c.url }}</code></li>
{% endfor %}</ol>
</main></body>
</html>
"""

_CITE = re.compile(r"(?<!\\)\[(\d+)\]")
_H2 = re.compile(r"<h2>(.*?)</h2>")
_TAG = re.compile(r"<[^>]+>")


def _href(entry: CitationEntry) -> str:
    url = str(entry.get("url", ""))
    refs = entry.get("snapshot_refs") or []
    if is_local_url(url) and refs:
        return str(refs[0])
    return url if url.startswith(("http://", "https://")) else "#"


def render_html(markdown: str, citations: CitationsFile, *, title: str, lang: str) -> str:
    """The self-contained HTML page for report.md and its citations."""
    heading = f"## {label(lang, 'references')}"
    body_md = markdown.split(f"\n{heading}\n", 1)[0]
    body_md = _CITE.sub(lambda m: f"[\\[{m.group(1)}\\]](#ref-{m.group(1)})", body_md)
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    body = md.render(body_md)
    body = body.replace('<a href="#ref-', '<a class="cite" href="#ref-')
    # Section ids, so the references' "Cited in" links of report.md resolve on the page too.
    body = _H2.sub(lambda m: f'<h2 id="{anchor(html.unescape(_TAG.sub("", m.group(1))))}">{m.group(1)}</h2>', body)
    env = Environment(autoescape=True)
    entries = [dict(entry, href=_href(entry)) for entry in citations.get("citations", [])]
    return env.from_string(_TEMPLATE).render(
        lang=lang, title=title, body=body, citations=entries, refs_label=label(lang, "references")
    )
