"""The knowledge base as an Obsidian vault: keep snapshots and internals out of search and the graph.

Why: a knowledge base is a folder of markdown, so people open it in Obsidian. Most of its files are
hash-named snapshots in ``source_cache/`` (the verbatim text every quote is checked against), which
would flood search, the quick switcher and the graph. Obsidian's own setting for that is the
"Excluded files" list, ``userIgnoreFilters`` in ``.obsidian/app.json``. The folder stays
untouched on disk; only Obsidian's view of it narrows.

The file belongs to the person as soon as it exists: a missing filter is added to their list,
every other setting is kept, and a file that is not a JSON object is left alone.
"""

from __future__ import annotations

import json
from pathlib import Path

from autodidact.store import atomic

APP_JSON = Path(".obsidian") / "app.json"
# Path prefixes Obsidian excludes; the ``/…/`` entry is a regular expression (Obsidian reads filters
# between slashes as one) for the snapshot folders of reports kept inside the knowledge base.
IGNORE_FILTERS = ("source_cache/", ".autodidact/", r"/(^|\/)source_cache\//")


def ensure_vault_settings(root: Path) -> str | None:
    """Make ``.obsidian/app.json`` exclude the snapshots and internals; the path when it changed.

    A new file holds just the filters; an existing one gets the missing filters appended to its
    ``userIgnoreFilters`` (its other keys and filters kept). A file that does not parse as a JSON
    object is the person's to fix, not ours to replace: it is left as it is (None)."""
    path = root / APP_JSON
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        data: dict[str, object] = {"userIgnoreFilters": list(IGNORE_FILTERS)}
        created = atomic.create_exclusive(path, (json.dumps(data, indent=2) + "\n").encode("utf-8"))
        return APP_JSON.as_posix() if created else None
    except (OSError, UnicodeDecodeError):
        return None
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError:
        return None
    if not isinstance(loaded, dict):
        return None
    filters = loaded.get("userIgnoreFilters")
    if filters is None:
        filters = []
    if not isinstance(filters, list):
        return None
    missing = [f for f in IGNORE_FILTERS if f not in filters]
    if not missing:
        return None
    loaded["userIgnoreFilters"] = [*filters, *missing]
    atomic.write_text(path, json.dumps(loaded, indent=2, ensure_ascii=False) + "\n")
    return APP_JSON.as_posix()
