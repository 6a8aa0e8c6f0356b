"""Citation numbering: ``[N]`` by first appearance, one entry per number, nothing orphaned.

Why a small class: report.md is written top to bottom, and every factual sentence is a claim (or a
key finding built on claims) from a validated evidence file. Asking the :class:`Citer` for a
claim's markers at the moment the sentence is written numbers sources in order of first
appearance, and records which claims and snapshots each number stands for, so
``citations.json`` (docs/contracts.md §2) has exactly the numbers the text uses. Two dimensions citing the
same URL share one number.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import cast

from autodidact.evidence.models import Claim, EvidenceFile, Source
from autodidact.evidence.prose import plain
from autodidact.jsontypes import JSONMapping
from autodidact.report.artifacts import CitationEntry, CitationsFile
from autodidact.report.quoted_markdown import inline
from autodidact.sources.snapshots import normalize_url
from autodidact.text.sections import SEPARATOR, label

FINAL_PUNCT = re.compile(r"[\s.。!！;；]+$")  # dropped before the markers (prose.json checks match it)


# (snapshot_ref, quote) → the heading of the section the quote stands in ("" when unknown).
SectionOf = Callable[[str, str], str]
# A report's validated evidence, by dimension id (report/pipeline.py reads and validates the files).
Evidences = dict[str, EvidenceFile]


class Citer:
    """Hands out ``[N]`` markers for claims and collects the citation entries.

    With ``section_of``, a reference is one *section* of a source ("Chapter 2 › 2.7.3. Tweaking
    candidate version"), not the whole document: a reader of a report built on one 40-page chapter
    got one "[1]" for sixty claims and no way to find any of them (docs/contracts.md, "Report outputs").
    """

    def __init__(self, evidences: Evidences, section_of: SectionOf | None = None) -> None:
        self.section_of = section_of
        self.claims: dict[str, Claim] = {}
        self.sources: dict[tuple[str, str], Source] = {}
        for dim_id, ev in evidences.items():
            for src in ev.sources:
                self.sources[(dim_id, src.id)] = src
            for claim in ev.claims:
                self.claims[claim.id] = claim
        self.entries: list[CitationEntry] = []
        self._by_key: dict[str, CitationEntry] = {}

    def _entry(self, dim_id: str, source_id: str, section: str = "") -> CitationEntry:
        src = self.sources[(dim_id, source_id)]
        if " ".join(section.split()) == " ".join(src.title.split(SEPARATOR)[0].split()):
            section = ""  # the document's opening, under its own title: the document itself
        try:
            key = normalize_url(src.url)
        except Exception:  # a URL the validator accepted but normalisation refuses: keep it distinct
            key = src.url
        key = f"{key}#{section}" if section else key
        entry = self._by_key.get(key)
        if entry is None:
            title = src.title or src.url
            if section:
                # the source's title names the section its first claim stood in: name this one's
                title = label(title.split(SEPARATOR)[0], section)
            entry = {
                "n": len(self.entries) + 1,
                "source_id": source_id,
                "url": src.url,
                "title": title,
                "claim_ids": [],
                "snapshot_refs": [],
            }
            if section:
                entry["section"] = section
            self.entries.append(entry)
            self._by_key[key] = entry
        return entry

    def numbers(self, claim_ids: list[str]) -> list[int]:
        """The citation numbers for these claims (registering them), in first-use order."""
        out: list[int] = []
        for cid in claim_ids:
            claim = self.claims.get(cid)
            if claim is None:
                continue
            dim_id = cid.split(".")[0]
            for item in claim.evidence:
                ref = item.snapshot_ref
                section = self.section_of(ref, item.snippet) if self.section_of and ref else ""
                entry = self._entry(dim_id, item.source_id, section)
                if cid not in entry["claim_ids"]:
                    entry["claim_ids"].append(cid)
                if ref and ref not in entry["snapshot_refs"]:
                    entry["snapshot_refs"].append(ref)
                if entry["n"] not in out:
                    out.append(entry["n"])
        return out

    def marks(self, claim_ids: list[str]) -> str:
        """``[1][3]`` for these claims ('' when none resolve)."""
        return "".join(f"[{n}]" for n in self.numbers(claim_ids))

    def sentence(self, text: str, claim_ids: list[str], lang: str) -> str:
        """``text`` with its markers before the full stop; inner sentences carry them too. A claim's
        attribution ("According to X:") is left out: the marker names the source."""
        marks = self.marks(claim_ids)
        body = FINAL_PUNCT.sub("", inline(plain(text)))
        if not marks:
            return body + ("。" if lang == "zh" else ".")
        if lang == "zh":
            body = re.sub(r"。(?=\S)", f"{marks}。", body)
            return f"{body}{marks}。"
        body = re.sub(r"(?<=[a-z0-9)\]\"'])\. (?=[A-Z])", f" {marks}. ", body)
        return f"{body} {marks}."

    def as_json(self) -> CitationsFile:
        """``{"citations": [...]}`` for citations.json."""
        return {"citations": self.entries}


CITE_RE = re.compile(r"\[(\d+)\]")


def check_citations(markdown: str, citations: CitationsFile | JSONMapping) -> list[str]:
    """Problems between the text and citations.json: unresolved, orphaned, or out of first-use order.

    ``citations`` is the file as written, or as ``verify`` read it back (raw JSON: an entry without
    its number fails here as it always has, and ``verify`` reports the file)."""
    entries = cast("list[CitationEntry]", citations.get("citations", []))
    numbers = [e["n"] for e in entries]
    body = markdown
    used_order: list[int] = []
    for match in CITE_RE.finditer(body):
        n = int(match.group(1))
        if n not in used_order:
            used_order.append(n)
    problems = []
    for n in used_order:
        if n not in numbers:
            problems.append(f"[{n}] has no citation entry")
    for n in numbers:
        if n not in used_order:
            problems.append(f"citation {n} is never used")
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append("citation numbers are not 1..N")
    if used_order != sorted(used_order):
        problems.append("citations are not numbered by first appearance")
    return problems
