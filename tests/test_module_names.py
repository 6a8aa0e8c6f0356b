"""Two modules of the package share a file name only when the name means the same role in each
(docs/architecture.md, "Module names").

Why: ``store/index.py`` (the derived SQLite file) beside ``sources/index.py`` (the passage
index), or ``llm/tokens.py`` (token estimates) beside ``text/tokens.py`` (words), made a reader
open both to learn which one an import meant. A new module that reuses a name for something else
fails here; one that plays the same role (a package's ``models``) is added below with that role.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "autodidact"

# Names more than one package uses, each for the same role in its package.
SAME_ROLE = {
    "__init__.py": "a package",
    "base.py": "the package's interface (a Protocol and what it returns)",
    "jobs.py": "the one background research a front end runs",
    "models.py": "the package's file formats as pydantic models",
    "offline.py": "the package's work done without a model",
    "progress.py": "the progress protocol, and the loop's events extending it",
    "registry.py": "the table of provider names the package accepts",
    "render.py": "turning the package's data into what a person reads",
}


def test_a_shared_module_name_means_one_role() -> None:
    packages: dict[str, list[str]] = defaultdict(list)
    for path in SRC.rglob("*.py"):
        packages[path.name].append(str(path.parent.relative_to(SRC)))
    shared = {name: sorted(where) for name, where in packages.items() if len(where) > 1}
    unexplained = {name: where for name, where in shared.items() if name not in SAME_ROLE}
    assert not unexplained, f"same module name in several packages, meaning different things: {unexplained}"
    assert set(SAME_ROLE) <= set(shared), "a listed name is no longer shared: drop it from SAME_ROLE"
