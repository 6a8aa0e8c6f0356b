"""The user's inbox: ``outputs/user_questions.md`` (待处理 / 已处理) and files dropped into ``raw/``.

Why so careful: people edit this file by hand while a run is going (docs/contracts.md §1.1). The loop
therefore reads it fresh every round, changes only the lines it owns (a pending question moves to
已处理 as ``- ~~text~~ [rN]`` once a round's audit answered it, or as ``- ~~text~~ [rN, partial]``
when it settles not fully answered — docs/loop.md), keeps every other line byte for byte, and
rewrites the file atomically. ``autodidact ask`` and the loop serialise through a small lock file
of their own (not the knowledge base's writer lock, which a running loop holds for hours), and
each re-reads the file under that lock right before writing, so neither loses the other's line.
"""

from __future__ import annotations

import fcntl
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from autodidact.errors import InputError, LockedError
from autodidact.kb import USER_QUESTIONS_TEMPLATE, KnowledgeBase
from autodidact.store import atomic

PENDING = "待处理"
DONE = "已处理"
_HEADING = re.compile(r"^##\s+(.+?)\s*#*\s*$")
_ITEM = re.compile(r"^\s*[-*+]\s+(.*?)\s*$")
_STRUCK = re.compile(r"^~~.*~~")
MAX_QUESTION_CHARS = 2000
LOCK_TIMEOUT = 10.0


@dataclass(frozen=True)
class InboxView:
    """What the file says now: pending question texts and processed lines."""

    pending: list[str]
    done: list[str]


def _section(line: str) -> str | None:
    match = _HEADING.match(line)
    if not match:
        return None
    name = match.group(1)
    if PENDING in name or name.lower().startswith("pending"):
        return PENDING
    if DONE in name or name.lower().startswith(("done", "processed")):
        return DONE
    return "other"


def _read_lines(path: Path) -> list[str]:
    if not path.exists():
        return USER_QUESTIONS_TEMPLATE.splitlines()
    try:
        return path.read_text("utf-8").replace("\r\n", "\n").split("\n")
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text", hint="save user_questions.md as UTF-8") from None


def _pending_items(lines: list[str]) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    section: str | None = None
    for i, line in enumerate(lines):
        heading = _section(line)
        if heading is not None:
            section = heading
            continue
        item = _ITEM.match(line)
        if section == PENDING and item and item.group(1) and not _STRUCK.match(item.group(1)):
            out.append((i, " ".join(item.group(1).split())))
    return out


def read_inbox(path: Path) -> InboxView:
    """Parse the file (missing file = empty inbox)."""
    lines = _read_lines(path)
    done: list[str] = []
    section: str | None = None
    for line in lines:
        heading = _section(line)
        if heading is not None:
            section = heading
            continue
        item = _ITEM.match(line)
        if section == DONE and item and item.group(1):
            done.append(item.group(1))
    return InboxView(pending=[text for _, text in _pending_items(lines)], done=done)


def pending_questions(path: Path) -> list[str]:
    """The 待处理 questions, in file order, without duplicates."""
    seen: list[str] = []
    for text in read_inbox(path).pending:
        if text not in seen:
            seen.append(text)
    return seen


@contextmanager
def inbox_lock(kb: KnowledgeBase, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """The small lock ``ask`` and the loop share around a read-modify-write of the inbox."""
    path = kb.internal / "inbox.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise LockedError(
                        f"{kb.user_questions} is being updated by another process",
                        hint="try again in a moment",
                    ) from None
                time.sleep(0.02)
        yield
    finally:
        os.close(fd)


def _insert_at_section_end(lines: list[str], section: str, new_line: str) -> list[str]:
    """Insert ``new_line`` after the last item of ``section`` (creating the section if absent)."""
    start = next((i for i, line in enumerate(lines) if _section(line) == section), None)
    if start is None:
        body = list(lines)
        while body and not body[-1].strip():
            body.pop()
        return [*body, "", f"## {section}", "", new_line, ""]
    end = len(lines)
    for j in range(start + 1, len(lines)):
        if _section(lines[j]) is not None:
            end = j
            break
    last_item = None
    for j in range(start + 1, end):
        if lines[j].strip():
            last_item = j
    if last_item is None:
        return [*lines[: start + 1], "", new_line, *(lines[start + 1 :] if end > start + 1 else [""])]
    return [*lines[: last_item + 1], new_line, *lines[last_item + 1 :]]


def _write(path: Path, lines: list[str]) -> None:
    text = "\n".join(lines)
    if not text.endswith("\n"):
        text += "\n"
    atomic.write_text(path, text)


def add_question(kb: KnowledgeBase, question: str) -> str:
    """``autodidact ask``: append ``- question`` under 待处理 (atomic; safe while a run is going)."""
    text = " ".join(question.split())
    if not text:
        raise InputError("the question is empty", hint='autodidact ask "What is ...?"')
    if len(text) > MAX_QUESTION_CHARS:
        raise InputError(f"the question is {len(text)} characters long (max {MAX_QUESTION_CHARS})")
    with inbox_lock(kb):
        lines = _read_lines(kb.user_questions)
        if text in [t for _, t in _pending_items(lines)]:
            return text
        _write(kb.user_questions, _insert_at_section_end(lines, PENDING, f"- {text}"))
    return text


def mark_incorporated(kb: KnowledgeBase, questions: list[str], round_n: int) -> list[str]:
    """Move questions from 待处理 to 已处理 as ``- ~~text~~ [rN]``; every other line stays.

    Idempotent: a question no longer pending (moved already, or removed by the person) is left alone.
    Returns the texts moved.
    """
    return settle_questions(kb, dict.fromkeys(questions), round_n)


def settle_questions(kb: KnowledgeBase, outcomes: dict[str, str | None], round_n: int) -> list[str]:
    """Move each question to 已处理: ``- ~~text~~ [rN]`` when answered (outcome ``None``), else
    ``- ~~text~~ [rN, partial]`` / ``[rN, open]`` — settled, but marked as not fully answered.

    Why a mark rather than leaving it pending: a question the sources cannot answer would otherwise
    hold the research open forever (the rule is in docs/loop.md). Idempotent like
    :func:`mark_incorporated`; returns the texts moved.
    """
    wanted = {" ".join(q.split()): note for q, note in outcomes.items() if q.strip()}
    if not wanted:
        return []
    moved: list[str] = []
    with inbox_lock(kb):
        lines = _read_lines(kb.user_questions)
        for text, note in wanted.items():
            match = next((i for i, t in _pending_items(lines) if t == text), None)
            if match is None:
                continue
            del lines[match]
            tag = f"[r{round_n}]" if note is None else f"[r{round_n}, {note}]"
            lines = _insert_at_section_end(lines, DONE, f"- ~~{text}~~ {tag}")
            moved.append(text)
        if moved:
            _write(kb.user_questions, lines)
    return moved
