"""References a reader can use: a clean title, where the source really is, its snapshot, who cites it.

Why: a reference is how a reader checks a sentence. "5 [1]. Data Structures¶" or a
``https://autodidact.invalid/…`` link helps no one. Each reference gets:

- the document's title, without Sphinx's "¶", section numbering or citation marks;
- its author and date when the source has them;
- its original location (the path of a local document relative to its corpus, or the real URL;
  a placeholder ``.invalid`` URL is never shown as a link);
- a link to the snapshot in the report folder;
- links back to the report sections that cite it.

The same entries are written as BibTeX (``references.bib``) and CSL-JSON (``references.json``), for
reference managers (docs/writing.md, "References").
"""

from __future__ import annotations

import re

from autodidact.evidence.models import Source
from autodidact.jsontypes import JSONObject
from autodidact.report.artifacts import CitationEntry
from autodidact.sources.snapshots import is_local_url, location
from autodidact.text.sections import SEPARATOR, bare_heading

_MARKS = re.compile(r"\s*(?:\\?\[\d+\\?\])+\s*|¶")
_LEADING_NUMBER = re.compile(r"^\s*\d+(?:\.\d+)*\.?\s+(?=\S)")


def clean_title(title: str, url: str = "") -> str:
    """The document's title as a reader would write it: the part before ``›``, without "¶",
    citation marks or a leading section number ("5. Data Structures" → "Data Structures")."""
    doc = str(title).split(SEPARATOR.strip())[0]
    text = " ".join(_MARKS.sub(" ", doc).split())
    text = _LEADING_NUMBER.sub("", text).strip(" .:")
    if not text:
        text = bare_heading(str(title)) or location(url) or str(url)
    return text


def enrich(entries: list[CitationEntry], sources: dict[str, Source], accessed: str) -> None:
    """Add ``author``, ``published_at``, ``accessed_at`` and ``location`` to citations.json entries
    (``sources``: the evidence's sources by URL)."""
    for entry in entries:
        src = sources.get(str(entry.get("url")))
        entry["title"] = clean_title(str(entry.get("title", "")), str(entry.get("url", "")))
        entry["author"] = (src.author if src is not None else None) or None
        entry["published_at"] = (src.published_at if src is not None else None) or None
        entry["accessed_at"] = accessed
        entry["location"] = location(str(entry.get("url", "")))


def markdown_lines(entries: list[CitationEntry], cited_in: dict[int, list[tuple[str, str]]], lang: str) -> list[str]:
    """The references list of report.md: one paragraph per entry."""
    zh = lang == "zh"
    lines: list[str] = []
    for entry in entries:
        parts = [f"[{entry['n']}] {_md(entry['title'])}."]
        if entry.get("section"):  # where in the document: a reference is one of its sections
            parts.append(f"章节「{_md(entry['section'])}」。" if zh else f"Section “{_md(entry['section'])}”.")
        who = " ".join(
            x
            for x in (entry.get("author") or "", f"({entry['published_at']})" if entry.get("published_at") else "")
            if x
        )
        if who:
            parts.append(_md(who) + ".")
        url = str(entry.get("url", ""))
        if is_local_url(url):
            parts.append(("本地文档 " if zh else "Local document ") + f"`{entry['location']}`.")
        else:
            parts.append(f"<{url}>.")
        refs = entry.get("snapshot_refs") or []
        if refs:
            parts.append(f"[{'快照' if zh else 'Snapshot'}]({refs[0]})")
        back = cited_in.get(int(entry["n"]), [])
        if back:
            links = ("、" if zh else ", ").join(f"[{_md(name)}](#{anchor})" for name, anchor in back)
            parts.append(("· 引用于：" if zh else "· Cited in: ") + links)
        lines += [" ".join(parts), ""]
    return lines


def anchor(heading: str) -> str:
    """The id markdown renderers (GitHub, markdown-it's anchors) give a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return re.sub(r" ", "-", text)


def _md(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]").replace("*", "\\*")


# -- BibTeX and CSL-JSON --------------------------------------------------------------------------
_BIB_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "%": r"\%", "&": r"\&", "$": r"\$",
                "#": r"\#", "_": r"\_", "^": r"\^{}", "~": r"\~{}"}  # fmt: skip


def _bib(text: str) -> str:
    return "".join(_BIB_SPECIAL.get(ch, ch) for ch in " ".join(str(text).split()))


def bibtex(entries: list[CitationEntry]) -> str:
    """references.bib: one ``@misc`` per reference, keyed ``refN`` like the report's ``[N]``."""
    out: list[str] = []
    for entry in entries:
        fields = [("title", "{" + _bib(entry["title"]) + "}")]
        if author := entry.get("author"):
            fields.append(("author", _bib(author)))
        if entry.get("published_at"):
            fields.append(("year", str(entry["published_at"])[:4]))
        url = str(entry.get("url", ""))
        if entry.get("section"):
            fields.append(("chapter", "{" + _bib(entry["section"]) + "}"))
        if is_local_url(url):
            fields.append(("note", "Local document " + _bib(entry["location"])))
        else:
            fields.append(("howpublished", r"\url{" + url.replace("%", r"\%").replace("#", r"\#") + "}"))
            fields.append(("url", url.replace("%", r"\%").replace("#", r"\#")))
        if entry.get("accessed_at"):
            fields.append(("urldate", str(entry["accessed_at"])))
        body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields)
        out.append(f"@misc{{ref{entry['n']},\n{body}\n}}\n")
    return "\n".join(out)


def _date_parts(value: str) -> JSONObject:
    return {"date-parts": [[int(p) for p in str(value).split("-")[:3] if p.isdigit()]]}


def csl_json(entries: list[CitationEntry]) -> list[JSONObject]:
    """references.json: CSL-JSON items, ids ``refN``."""
    items: list[JSONObject] = []
    for entry in entries:
        url = str(entry.get("url", ""))
        item: JSONObject = {"id": f"ref{entry['n']}", "type": "document" if is_local_url(url) else "webpage",
                                "title": entry["title"]}  # fmt: skip
        if not is_local_url(url):
            item["URL"] = url
        else:
            item["note"] = f"Local document {entry['location']}"
        if entry.get("section"):
            item["section"] = entry["section"]
        if entry.get("author"):
            item["author"] = [{"literal": entry["author"]}]
        if published := entry.get("published_at"):
            item["issued"] = _date_parts(published)
        if entry.get("accessed_at"):
            item["accessed"] = _date_parts(entry["accessed_at"])
        items.append(item)
    return items
