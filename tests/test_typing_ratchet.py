"""``Any`` in the package only goes down (docs/architecture.md, "Typing").

Why a ratchet: mypy --strict accepts ``Any`` wherever it is written, so strict typing alone does
not stop raw JSON from travelling between layers untyped again. These counts are the figures the
code holds today; a change that adds an ``Any`` fails here and has to say why the third-party
boundary forces it (and raise the figure in the same change), while a change that removes some
lowers the figure so it cannot creep back.
"""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "autodidact"
ANY = re.compile(r"\bAny\b")
DICT_ANY = re.compile(r"dict\[str, Any\]")

# Lines of src/autodidact/**/*.py that mention ``Any`` / ``dict[str, Any]`` (grep -c, summed).
MAX_ANY_LINES = 30
MAX_DICT_ANY_LINES = 4


def _lines(pattern: re.Pattern[str]) -> int:
    return sum(
        1
        for path in SRC.rglob("*.py")
        for line in path.read_text(encoding="utf-8").splitlines()
        if pattern.search(line)
    )


def test_any_does_not_rise() -> None:
    found = _lines(ANY)
    assert found <= MAX_ANY_LINES, f"{found} lines mention Any (at most {MAX_ANY_LINES}): type the new data instead"


def test_dict_of_any_does_not_rise() -> None:
    found = _lines(DICT_ANY)
    assert found <= MAX_DICT_ANY_LINES, (
        f"{found} lines mention dict[str, Any] (at most {MAX_DICT_ANY_LINES}): a TypedDict, a model or JSONValue"
    )
