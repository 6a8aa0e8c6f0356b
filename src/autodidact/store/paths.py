"""Slugs and path safety: nothing is written outside its folder, and CJK names survive.

Why: topic names, raw file names, session ids and report folders all come from user input or
model output. A slug keeps letters of every script (so ``生成器`` stays readable), drops path
separators, ``..``, control characters and Windows-reserved names, and every join is checked to
stay under its root.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from autodidact.errors import PathSafetyError

_RESERVED = {
    "con", "prn", "aux", "nul",
    *(f"com{i}" for i in range(1, 10)),
    *(f"lpt{i}" for i in range(1, 10)),
}  # fmt: skip
_SEPARATORS = re.compile(r"[\s/\\:*?\"<>|_\-\.,;!'`~@#$%^&()\[\]{}+=，。、；：？！「」『』“”‘’（）【】《》·…]+")


def slugify(text: str, max_len: int = 60, fallback: str = "untitled") -> str:
    """A file-name-safe slug that keeps CJK and other letters; lowercase ASCII; ``-`` joins words."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    text = _SEPARATORS.sub("-", text.lower()).strip("-")
    kept = "".join(ch for ch in text if ch == "-" or ch.isalnum())
    kept = re.sub(r"-{2,}", "-", kept).strip("-")
    if len(kept) > max_len:
        kept = kept[:max_len].rstrip("-")
    if not kept or kept.split(".")[0] in _RESERVED:
        kept = fallback if not kept else f"{kept}-file"
    return kept


def safe_join(root: Path, *parts: str) -> Path:
    """Join ``parts`` under ``root`` or raise :class:`PathSafetyError` if the result escapes it."""
    root_resolved = Path(root).resolve()
    for part in parts:
        if "\x00" in part:
            raise PathSafetyError(f"path part {part!r} contains a NUL byte")
    candidate = root_resolved.joinpath(*parts).resolve()
    if candidate != root_resolved and root_resolved not in candidate.parents:
        raise PathSafetyError(
            f"path {'/'.join(parts)!r} escapes {root}",
            hint="use a plain name without '..' or an absolute path",
        )
    return candidate


MAX_NAME_BYTES = 200


def safe_name(name: str, what: str = "name") -> str:
    """Accept ``name`` as a single path component (ids, session names) or raise."""
    if (
        not name
        or name in {".", ".."}
        or "/" in name
        or "\\" in name
        or any(unicodedata.category(ch)[0] == "C" for ch in name)
    ):
        raise PathSafetyError(f"invalid {what} {name!r}", hint="use letters, digits, '-' or '_'")
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:  # the file system refuses longer names (with a suffix)
        raise PathSafetyError(
            f"{what} {name[:40]!r}... is longer than {MAX_NAME_BYTES} bytes", hint="use a shorter one"
        )
    return name
