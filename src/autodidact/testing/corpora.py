"""Real corpora for tests and benchmarks, with no network: Python's docs and Debian's reference.

Why: search quality can only be shown on real text. CPython ships its language reference as
``pydoc_data.topics``; each topic is written out as markdown, one file per section (a topic with
several sections gives several files), so the corpus has well over 150 documents on every
CPython version. Debian's ``debian-reference-zh-cn`` package gives a Chinese HTML corpus; when it
is not installed, :func:`debian_reference_zh` returns None and the tests that need it skip.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

_HEADING_RULE = re.compile(r"^([=\-*~^])\1{2,}\s*$")


def _sections(text: str) -> list[tuple[str, str]]:
    """Split a pydoc topic at its underlined headings into (title, body) pairs."""
    lines = text.split("\n")
    starts = [
        i
        for i in range(len(lines) - 1)
        if lines[i].strip()
        and _HEADING_RULE.match(lines[i + 1].strip())
        and len(lines[i + 1].strip()) >= len(lines[i].strip()) - 1
    ]
    if not starts:
        first = next((ln.strip() for ln in lines if ln.strip()), "untitled")
        return [(first, text)]
    out = []
    for n, begin in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        preface = "\n".join(lines[:begin]).strip() if n == 0 else ""
        body = "\n".join(lines[begin + 2 : end]).strip("\n")
        out.append((lines[begin].strip(), f"{preface}\n\n{body}".strip("\n") if preface else body))
    return out


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:50] or "section"


def write_pydoc_corpus(dest: Path) -> list[Path]:
    """Write every ``pydoc_data.topics`` topic as markdown: ``<topic>.md`` plus ``<topic>--<section>.md``."""
    from pydoc_data.topics import topics

    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for topic in sorted(topics):
        used: set[str] = set()
        for n, (title, body) in enumerate(_sections(topics[topic])):
            name = f"{topic}.md" if n == 0 else f"{topic}--{_slug(title)}.md"
            while name in used:
                name = name.removesuffix(".md") + "-x.md"
            used.add(name)
            path = dest / name
            path.write_text(f"# {title}\n\n{body.strip()}\n", encoding="utf-8")
            written.append(path)
    return written


def debian_reference_zh() -> Path | None:
    """The folder of the installed Simplified Chinese Debian Reference HTML files, or None."""
    candidates: list[Path] = []
    if shutil.which("dpkg"):
        try:
            listing = subprocess.run(
                ["dpkg", "-L", "debian-reference-zh-cn"], capture_output=True, text=True, timeout=20, check=False
            ).stdout
        except (OSError, subprocess.SubprocessError):
            listing = ""
        candidates += [Path(line).parent for line in listing.splitlines() if line.endswith(".zh-cn.html")]
    candidates += [Path("/usr/share/debian-reference"), Path("/usr/share/doc/debian-reference-zh-cn")]
    for folder in candidates:
        if folder.is_dir() and len(list(folder.glob("*.zh-cn.html"))) >= 3:
            return folder
    return None


def debian_reference_zh_files() -> list[Path]:
    """The Chinese chapter HTML files (empty when the package is not installed)."""
    folder = debian_reference_zh()
    return sorted(folder.glob("*.zh-cn.html")) if folder else []


def make_pdf(pages: list[str], *, encrypt: str | None = None) -> bytes:
    """A real PDF (reportlab, a dev dependency) with one line of text per page, optionally encrypted."""
    import io

    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    pdf = canvas.Canvas(buf, encrypt=encrypt)
    for text in pages:
        pdf.drawString(72, 720, text)
        pdf.showPage()
    pdf.save()
    return buf.getvalue()


def write_pydoc_module_corpus(dest: Path, modules: list[str]) -> list[Path]:
    """Write each standard-library module's ``pydoc`` page as plain text, ``<module>.txt``.

    Why: a second real corpus in another shape (man-page style headings, member listings, ``|``
    margins) that ships with every Python, so eval cases can be written on documents the engine was
    never tuned on. A module this Python lacks is skipped, not an error.
    """
    import importlib
    import pydoc

    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        text = pydoc.render_doc(module, renderer=pydoc.plaintext)  # type: ignore[attr-defined]  # not in typeshed
        path = dest / f"{name}.txt"
        path.write_text(text.rstrip() + "\n", encoding="utf-8")
        written.append(path)
    return written


# Two small documents, one per language, for the tests of the adapters (the Python API, the MCP
# server, the web app): a research over either finishes in seconds and quotes something real.
GENERATORS_MD = (
    "# Python generators\n\n"
    "A generator function returns a generator iterator when it is called. "
    "The yield expression suspends the generator and hands a value to the caller.\n\n"
    "## Exhaustion\n\n"
    "An exhausted generator cannot be restarted: calling next on it raises StopIteration.\n"
)
APT_ZH_MD = (
    "# APT 软件包管理\n\n"
    "APT 会自动解析软件包的依赖关系，并从软件源下载需要的软件包。"
    "使用 apt install 命令安装软件包，使用 apt remove 命令删除软件包。\n\n"
    "## 版本固定\n\n"
    "在 preferences 文件中设置 Pin-Priority 可以固定软件包的版本。默认软件源的优先级是 500。\n"
)
