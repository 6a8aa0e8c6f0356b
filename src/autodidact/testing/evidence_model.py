"""A scripted model for the research agent's three tasks and the report's writing tasks (tests and
bench/gather.py), reading only its prompt.

It answers like a careful model: queries for each key question, claims quoting the first sentence
of the first passage verbatim, plus (optionally) a claim with a fabricated quote and one naming an
unknown passage, and findings citing the claim ids it was shown.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

# (pid, tag, title, text): the title travels in the block's label, inside the data markers.
PASSAGE = re.compile(r"Passage (P\d+):\n<<DATA ([0-9a-f]+)>> \(passage P\d+: (.*?)\)\n(.*?)\n<<END \2>>", re.DOTALL)
CLAIM_LINE = re.compile(r"^(d\d+\.c\d+) \[", re.MULTILINE)
WRITE_CLAIM = re.compile(r"^(d\d+\.c\d+) \(.*?\): .*\n  quote: (.*)$", re.MULTILINE)
FABRICATED = "Generators were invented in 1807 by a committee of clockmakers."


def _first_sentence(text: str) -> str:
    for line in text.splitlines():
        line = line.strip()
        if len(line) > 20:
            cut = line.find(". ")
            return line[: cut + 1] if cut > 20 else line
    return text.strip()[:80]


def _content(message: Mapping[str, object]) -> str:
    content = message["content"]
    if not isinstance(content, str):
        raise AssertionError(f"a message's content is not text: {content!r}")
    return content


def reply(messages: Sequence[Mapping[str, object]], *, fabricate: bool = True) -> str:
    """The reply a careful model gives to these chat messages (``Request.messages`` or a request body's)."""
    system = _content(messages[0])
    user = _content(messages[-1])
    if "You plan web and local searches" in system:
        match = re.search(r"Key questions: (\[.*?\])\n", user)
        kqs = json.loads(match.group(1)) if match else []
        plans = [
            {
                "kq_id": kq["id"],
                "queries": [
                    {"text": kq["text"], "language": "en", "angle": "neutral"},
                    {"text": kq["text"] + " problems", "language": "en", "angle": "refute"},
                ],
            }
            for kq in kqs
        ]
        ups = re.findall(r"Upstream (d\d+) \(", user)
        upstream = [
            {
                "dimension_id": d,
                "finding_indexes": [0],
                "scope_changes": [f"Only what {d} established about generators."],
                "skipped_searches": [f"Generator basics already covered by {d}."],
            }
            for d in ups
        ]
        return json.dumps({"plans": plans, "upstream": upstream})
    if "You extract evidence" in system:
        passages = PASSAGE.findall(user)
        if not passages:
            return json.dumps({"claims": []})
        pid, _tag, _title, text = passages[0]
        claims = [
            {
                "text": "The source describes generators as lazily producing values.",
                "kind": "factual",
                "polarity": "neutral",
                "topic_tag": "generator_basics",
                "quotes": [{"passage_id": pid, "snippet": _first_sentence(text), "quote_type": "direct"}],
            }
        ]
        if fabricate:
            claims.append(
                {
                    "text": "Generators date back to 1807.",
                    "kind": "factual",
                    "polarity": "support",
                    "topic_tag": "generator_history",
                    "quotes": [{"passage_id": pid, "snippet": FABRICATED, "quote_type": "direct"}],
                }
            )
            claims.append(
                {
                    "text": "A claim citing a passage that was never shown.",
                    "kind": "factual",
                    "polarity": "neutral",
                    "topic_tag": "ghost",
                    "quotes": [{"passage_id": "P99", "snippet": _first_sentence(text), "quote_type": "direct"}],
                }
            )
        ratings = [{"passage_id": p[0], "quality": "primary"} for p in passages]
        return json.dumps({"claims": claims, "ratings": ratings})
    if "Synthesise" in system:
        ids = CLAIM_LINE.findall(user)
        findings = [
            {"finding": "Generators produce values lazily, one at a time.", "claim_ids": ids[:1]},
            {"finding": "Several sources agree on how generators behave.", "claim_ids": ids},
        ]
        return json.dumps({"headline": "Generators are lazy iterators", "key_findings": findings})
    if "Write a short, readable answer" in system:
        # report.write_section: each claim's quote as a sentence citing it; with ``fabricate`` also
        # one sentence per drop rule (no ids, an id not given, more than the quote says).
        rows = WRITE_CLAIM.findall(user)
        sentences = [{"text": quote.split(" … ")[0], "claim_ids": [cid]} for cid, quote in rows]
        if fabricate and rows:
            sentences += [
                {"text": "Generators are the fastest construct in Python.", "claim_ids": []},
                {"text": rows[0][1].split(" … ")[0], "claim_ids": ["d99.c99"]},
                {"text": FABRICATED, "claim_ids": [rows[0][0]]},
            ]
        return json.dumps({"sentences": sentences})
    if "For each numbered sentence" in system:
        count = len(re.findall(r"^\d+\. sentence: ", user, re.MULTILINE))
        return json.dumps({"verdicts": [{"index": i, "supported": True} for i in range(count)]})
    raise AssertionError("unexpected task prompt: " + system[:80])
