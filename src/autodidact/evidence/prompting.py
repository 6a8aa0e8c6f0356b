"""Prompt helpers shared by the agent's tasks: data blocks with a stable tag, language lines.

Why a stable tag: ``llm.tasks.data_block`` draws a random tag per call, which makes every request
unique and defeats the call cache (a resumed or repeated run would pay again). Here the tag is a
hash of the label and the text. A page still cannot close the block early: the text is defanged
the same way (``<<END`` → ``<< END``), and forging the tag would need the hash of a text that
contains its own hash.
"""

from __future__ import annotations

import json

from autodidact.llm.tasks import data_block


def stable_data_block(text: str, label: str) -> tuple[str, str]:
    """``(system_line, block)``: :func:`autodidact.llm.tasks.data_block` (one definition)."""
    return data_block(text, label)


def language_line(language: str) -> str:
    """The output-language rule of seed 003 (docs/seeds.md)."""
    if language == "zh":
        return (
            "Write every sentence you author (claim text, findings, headline, scope notes) in Simplified Chinese. "
            "Keep quotes, titles, names, URLs, ids and enum values exactly as they are."
        )
    return (
        "Write every sentence you author (claim text, findings, headline, scope notes) in English. "
        "Keep quotes, titles, names, URLs, ids and enum values exactly as they are."
    )


def compact(data: object) -> str:
    """Compact JSON for prompts."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
