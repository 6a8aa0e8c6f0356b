"""An article's YAML front matter, read with a YAML parser and written so that one reads it back.

Why a parser: people edit articles in Obsidian, which writes any YAML (``title: >-`` folded text,
``aliases: ['async, await']`` flow lists, keys of its plugins). A hand-written reader misreads
those and then writes YAML that no parser accepts. Why not let the library write it too: compile
must render an unchanged article byte for byte as it was (docs/contracts.md §1.4, idempotence),
and the keys autodidact does not own are the user's. So the four known keys (``title``,
``aliases``, ``sources``, ``updated``) are written in one canonical form, and every other top-level
key is kept as the lines the user wrote, cut out of the text where the parser says the key starts.

Every scalar is read as the string it spells (``updated: 2026-12-02`` is ``"2026-12-02"``, an
alias ``yes`` is ``"yes"``): the parser composes nodes and nothing is converted to dates or
booleans, so a value reads the same as in Obsidian (YAML 1.2), not as YAML 1.1 would type it.
"""

from __future__ import annotations

import functools
import json
import re

import yaml

from autodidact.errors import InputError

KNOWN_KEYS = ("title", "aliases", "sources", "updated")
FrontMatter = dict[str, str | list[str]]

# Characters a YAML double-quoted scalar may not hold as themselves: C1 controls and DEL (not
# printable), NEL, LS and PS (line breaks there), BOM, surrogates and the two non-characters.
_YAML_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]")
_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def split_front_matter(text: str) -> tuple[list[str], str] | None:
    """``(front-matter lines, body)`` when ``text`` opens with a ``---`` block, else None."""
    if not text.startswith("---"):
        return None
    lines = text.splitlines()
    if lines[0].strip() != "---":
        return None
    end = next((i for i in range(1, len(lines)) if lines[i].strip() in {"---", "..."}), None)
    if end is None:
        return None
    return lines[1:end], "\n".join(lines[end + 1 :])


def _string(node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode):
        return "" if node.tag == "tag:yaml.org,2002:null" and node.style is None else str(node.value)
    if isinstance(node, yaml.SequenceNode):
        return ", ".join(_string(n) for n in node.value)
    return yaml.safe_dump(yaml.safe_load(yaml.serialize(node)), allow_unicode=True, default_flow_style=True).strip()


def _strings(node: yaml.Node) -> str | list[str]:
    if isinstance(node, yaml.SequenceNode):
        return [_string(n) for n in node.value]
    return _string(node)


def parse_front_matter(text: str, where: str = "article") -> tuple[FrontMatter, list[str], str]:
    """``(known keys, the lines of every other key, body)``; no front matter gives ``({}, [], text)``.

    Front matter that is not YAML keys is a clear error naming ``where`` and the line: writing the
    article back would otherwise lose or mangle what its author wrote."""
    split = split_front_matter(text)
    if split is None:
        return {}, [], text
    lines, body = split
    try:
        root = yaml.compose("\n".join(lines), Loader=_Loader)
    except yaml.YAMLError as exc:
        # Where the broken construct began (an unclosed "[" is noticed only on a later line), else where it broke.
        mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
        at = f" (line {mark.line + 2})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InputError(
            f"{where}: its front matter is not valid YAML{at}: {problem}",
            hint="fix the lines between the two --- lines (quote a value that holds ': ' or starts with a symbol)",
        ) from None
    if root is None:
        return {}, [], body
    if not isinstance(root, yaml.MappingNode):
        raise InputError(
            f"{where}: its front matter is not YAML keys (line 2)",
            hint="write it as `key: value` lines, e.g. `title: My topic`",
        )
    data: FrontMatter = {}
    starts: list[tuple[int, bool]] = []  # (line where a top-level key starts, whether it is known)
    for key_node, value_node in root.value:
        key = _string(key_node)
        known = key in KNOWN_KEYS
        if known:
            data[key] = _strings(value_node)
        starts.append((key_node.start_mark.line, known))
    return data, _other_keys(lines, root, starts), body


def _other_keys(lines: list[str], root: yaml.MappingNode, starts: list[tuple[int, bool]]) -> list[str]:
    """The lines of the keys autodidact does not own, as written (comments between keys go along)."""
    key_lines = [line for line, _ in starts]
    in_blocks = all(root.value[i][0].start_mark.column == 0 for i in range(len(starts)))
    if root.flow_style or not in_blocks or len(set(key_lines)) != len(key_lines):
        # A flow mapping (``{title: x, tags: [a]}``) or indented keys: the others written out anew.
        others = {_string(k): yaml.safe_load(yaml.serialize(v)) for k, v in root.value if _string(k) not in KNOWN_KEYS}
        if not others:
            return []
        dumped = yaml.safe_dump(others, allow_unicode=True, sort_keys=False, width=1 << 16)
        return dumped.rstrip("\n").split("\n")
    out: list[str] = []
    bounds = [*key_lines, len(lines)]
    for n, (start, known) in enumerate(starts):
        if not known:
            out.extend(lines[start : bounds[n + 1]])
    while out and not out[-1].strip():
        out.pop()
    return out


@functools.lru_cache(maxsize=1 << 14)
def quote(value: str) -> str:
    """``value`` as a YAML double-quoted scalar (JSON's spelling, which YAML reads, where it can).

    JSON quoting keeps the files compile wrote before byte-identical; the few characters YAML
    reads differently inside double quotes are written as ``\\uXXXX`` escapes, which both read."""
    quoted = json.dumps(value, ensure_ascii=False)
    return _YAML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


def render_front_matter(front: FrontMatter, extra: list[str]) -> list[str]:
    """The front matter's lines, ``---`` to ``---``: the known keys, then the other keys as kept."""
    title = front.get("title", "")
    updated = front.get("updated", "")
    aliases = front.get("aliases", [])
    sources = front.get("sources", [])
    lines = ["---", f"title: {quote(str(title))}"]
    lines.append("aliases:" + ("" if aliases else " []"))
    lines.extend(f"  - {quote(a)}" for a in aliases)
    lines.append("sources:" + ("" if sources else " []"))
    lines.extend(f"  - {quote(s)}" for s in sources)
    lines.append(f"updated: {quote(str(updated))}")
    lines.extend(extra)
    lines.append("---")
    return lines
