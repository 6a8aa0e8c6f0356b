"""The report's prose: which claims each block holds, and who writes it (a model or the offline writer).

Why blocks: a report answers its key questions one by one, so a block is one question's claims
(plus a dimension's summary block). Each block is written once, by ``report.write_section`` when a
model runs and by the offline writer otherwise; every model sentence passes ``prose.admit`` (ids
given, quotes cover it) before it is kept, and a block where none survives is written offline, so a
weak model degrades to fewer model sentences, never to an uncited one (docs/writing.md).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections import Counter
from collections.abc import Mapping

from autodidact.evidence.models import Claim, EvidenceFile
from autodidact.evidence.prose import (
    JUDGED_UNSUPPORTED,
    Sentence,
    Written,
    admit,
    offline_sentences,
    plain,
    quotes_of,
)
from autodidact.evidence.write_task import ClaimIn, JudgeInputs, JudgeSupportTask, WriteInputs, WriteSectionTask, parts
from autodidact.llm.ledger import LedgerEntry
from autodidact.llm.runtime import Runtime
from autodidact.plan.models import Dimension, Plan
from autodidact.report.artifacts import ProseBlock, ProseFile, ProseSentence
from autodidact.report.citations import Evidences
from autodidact.text.support import DEFAULT_SUPPORT

BlockKey = tuple[str, str]  # (dimension id, "kq1" … | "other" | "summary")
PRO_PER_BLOCK = 6
CON_PER_BLOCK = 3
SUMMARY_SENTENCES = 3


def block_claims(dim: Dimension, ev: EvidenceFile) -> dict[BlockKey, list[Claim]]:
    """Each block's claims in reading order: a question's supporting claims, then its refuting ones;
    the claims answering no question; the summary (the first claim of each key finding)."""
    out: dict[BlockKey, list[Claim]] = {}
    claims = ev.claims
    kq_ids = [f"kq{i + 1}" for i in range(len(dim.key_questions))]
    for kq in [*kq_ids, None]:
        mine = [c for c in claims if c.answers_key_question == kq]
        pro = [c for c in mine if c.polarity != "refute"][:PRO_PER_BLOCK]
        con = [c for c in mine if c.polarity == "refute"][:CON_PER_BLOCK]
        if pro or con:
            out[(dim.id, kq or "other")] = pro + con
    by_id = {c.id: c for c in claims}
    firsts: list[Claim] = []
    for finding in ev.key_findings:
        first = next((by_id[i] for i in finding.claim_ids if i in by_id), None)
        if first is not None and first not in firsts:
            firsts.append(first)
    if firsts:
        out[(dim.id, "summary")] = firsts
    return out


def block_goal(dim: Dimension, key: str, lang: str) -> str:
    """What a block must answer: its key question, or the dimension's main answers."""
    if key.startswith("kq"):
        return dim.key_questions[int(key[2:]) - 1]
    if key == "summary":
        if lang == "zh":
            return f"{dim.name}：最主要的回答（至多三句）"
        return f"{dim.name}: the main answers, in at most three sentences"
    return f"{dim.name}：其他发现" if lang == "zh" else f"{dim.name}: other findings"


def offline_block(claims: list[Claim], key: str) -> Written:
    """The offline writer's block."""
    sentences = offline_sentences(claims)
    return Written(sentences[:SUMMARY_SENTENCES] if key == "summary" else sentences)


async def write_prose(
    plan: Plan,
    evidences: Evidences,
    runtime: Runtime,
    threshold: float = DEFAULT_SUPPORT,
    *,
    check: bool = False,
    previous: ProseFile | None = None,
) -> dict[BlockKey, Written]:
    """Every block of the report, written by the model where it runs (offline blocks otherwise).

    ``previous`` is the last run's prose.json: a block whose claims are unchanged keeps its
    sentences, so re-running a finished report makes no model call."""
    blocks: dict[BlockKey, tuple[Dimension, list[Claim]]] = {}
    for dim in plan.dimensions:
        ev = evidences.get(dim.id)
        if ev is not None:
            for key, claims in block_claims(dim, ev).items():
                blocks[key] = (dim, claims)
    if not runtime.writes_prose:  # the offline writer: one plain sentence per claim
        return {key: offline_block(claims, key[1]) for key, (_, claims) in blocks.items()}
    done = _reusable(previous, {k: c for k, (_, c) in blocks.items()}, threshold, check)
    keys = [k for k in blocks if k not in done]
    with runtime.step("report prose"):
        lang = plan.language
        written = await asyncio.gather(
            *(_model_block(blocks[k][0], k[1], blocks[k][1], evidences, runtime, lang, threshold, check) for k in keys)
        )
    _ledger_drops(runtime, written)
    return {**done, **dict(zip(keys, written, strict=True))}


def _ledger_drops(runtime: Runtime, written: list[Written]) -> None:
    """The dropped sentences go to the usage ledger too (``autodidact usage`` counts them)."""
    dropped: Counter[str] = Counter()
    for block in written:
        dropped.update(block.dropped)
    model = runtime.model
    if model is None or not dropped:
        return
    note = "; ".join(f"{n} {reason}" for reason, n in dropped.most_common())
    runtime.ledger.record(
        LedgerEntry("report.write_section", model.provider, model.name, 0, 0, False, 0.0, 0.0,
                    outcome="dropped", note=note, dropped=sum(dropped.values()))
    )  # fmt: skip


def _block_print(claims: list[Claim]) -> str:
    return hashlib.sha256(
        json.dumps([[c.id, _fingerprint(c), c.text] for c in claims], ensure_ascii=False).encode()
    ).hexdigest()[:16]


def _reusable(
    previous: ProseFile | None,
    blocks: Mapping[BlockKey, list[Claim]],
    threshold: float,
    check: bool,
) -> dict[BlockKey, Written]:
    """The blocks of the last run's prose.json written by the model on the same claims, same rules."""
    if not previous or previous.get("support_threshold") != threshold or bool(previous.get("check_support")) != check:
        return {}
    prints = previous.get("blocks", {})
    out: dict[BlockKey, Written] = {}
    for key, claims in blocks.items():
        name = f"{key[0]}/{key[1]}"
        entry = prints.get(name)
        if not isinstance(entry, dict) or entry.get("print") != _block_print(claims) or entry.get("engine") != "model":
            continue
        sentences = [
            Sentence(str(r["text"]), tuple(str(i) for i in r["claim_ids"]))
            for r in previous.get("sentences", [])
            if r.get("block") == name
        ]
        out[key] = Written(sentences, Counter(entry.get("dropped", {})), engine="model")
    return out


async def _model_block(
    dim: Dimension,
    key: str,
    claims: list[Claim],
    evidences: Evidences,
    runtime: Runtime,
    lang: str,
    threshold: float,
    check: bool,
) -> Written:
    sources = {s.id: s.title or s.url for s in evidences[dim.id].sources}
    views = [
        ClaimIn(
            id=c.id,
            text=plain(c.text),
            quote=" … ".join(quotes_of(c))[:600],
            source=sources.get(c.evidence[0].source_id, ""),
        )
        for c in claims
    ]
    quoted = {c.id: quotes_of(c) for c in claims}
    task = WriteSectionTask()
    total = Written([], Counter(), engine="model")
    offline_parts = 0
    chunks = parts(views)
    for part in chunks:
        inputs = WriteInputs(lang, block_goal(dim, key, lang), part)
        output = await runtime.run(task, inputs)
        if output == task.offline(inputs):  # the runtime fell back (budget, timeout, invalid reply)
            offline_parts += 1
        given = {c.id: quoted[c.id] for c in part}
        kept = admit(((s.text, s.claim_ids) for s in output.sentences), given, threshold)
        if check and kept.sentences:
            kept.sentences = await _judged(kept, given, runtime, lang)
        total.sentences += kept.sentences
        total.dropped.update(kept.dropped)
    if key == "summary":
        total.sentences = total.sentences[:SUMMARY_SENTENCES]
    if offline_parts == len(chunks):
        total.engine = "offline"  # said truthfully in the footer and prose.json
    if not total.sentences:  # nothing the model wrote held: the offline writer does this block
        fallback = offline_block(claims, key)
        fallback.dropped = total.dropped
        return fallback
    return total


async def _judged(kept: Written, quotes: Mapping[str, list[str]], runtime: Runtime, lang: str) -> list[Sentence]:
    """The kept sentences a second model call also judges supported; the others counted as dropped."""
    items = [(s.text, [q for i in s.claim_ids for q in quotes[i]]) for s in kept.sentences]
    verdicts = (await runtime.run(JudgeSupportTask(), JudgeInputs(lang, items))).verdicts
    refused = {v.index for v in verdicts if not v.supported}
    kept.dropped[JUDGED_UNSUPPORTED] += len(refused & set(range(len(items))))
    return [s for i, s in enumerate(kept.sentences) if i not in refused]


# -- prose.json: what verify re-proves --------------------------------------------------------
PROSE_VERSION = 1
_INNER_END = re.compile(r"(?<=[a-z0-9)\]\"'])\. (?=[A-Z])|。")


def _fingerprint(claim: Claim) -> str:
    """A claim's quotes and sources, hashed: a sentence whose claim changed no longer proves."""
    basis = json.dumps([[e.source_id, e.snippet, e.snapshot_ref] for e in claim.evidence], ensure_ascii=False)
    return hashlib.sha256(basis.encode("utf-8")).hexdigest()[:16]


def prose_record(
    prose: Mapping[BlockKey, Written],
    evidences: Evidences,
    threshold: float,
    plan: Plan | None = None,
    check: bool = False,
    report_md: str | None = None,
) -> ProseFile:
    """Every written sentence with its block, claim ids, the claims' fingerprints and its engine;
    per block the fingerprint of its claims (what a re-run may reuse); and the fingerprint of the
    report.md written with them, so an edit anywhere in it (a sentence's tail, a sentence added)
    is seen by ``verify``."""
    claims = {c.id: c for ev in evidences.values() for c in ev.claims}
    blocks: dict[str, ProseBlock] = {}
    for dim in plan.dimensions if plan is not None else []:
        ev = evidences.get(dim.id)
        for bkey, block in block_claims(dim, ev).items() if ev is not None else []:
            written = prose.get(bkey)
            if written is not None:
                blocks[f"{bkey[0]}/{bkey[1]}"] = {
                    "print": _block_print(block), "engine": written.engine, "dropped": dict(written.dropped),
                }  # fmt: skip
    rows: list[ProseSentence] = []
    for (dim_id, key), written in prose.items():
        for s in written.sentences:
            rows.append({
                "block": f"{dim_id}/{key}", "text": s.text, "claim_ids": list(s.claim_ids), "engine": written.engine,
                "claims": {i: _fingerprint(claims[i]) for i in s.claim_ids if i in claims},
            })  # fmt: skip
    dropped: Counter[str] = Counter()
    for written in prose.values():
        dropped.update(written.dropped)
    record: ProseFile = {
        "version": PROSE_VERSION, "support_threshold": threshold, "check_support": check,
        "sentences": rows, "dropped": dict(dropped), "blocks": blocks,
    }  # fmt: skip
    if report_md is not None:
        record["report_sha256"] = report_fingerprint(report_md)
    return record


def report_fingerprint(report_md: str) -> str:
    """sha256 of report.md's text, line endings made uniform (an editor's CRLF is no edit)."""
    return hashlib.sha256(report_md.replace("\r\n", "\n").encode("utf-8")).hexdigest()


def check_prose(record: ProseFile, evidences: Evidences, report_md: str) -> list[str]:
    """Problems with written prose: a sentence missing from report.md, citing a claim that is gone
    or changed, or no longer supported by its claims' quotes."""
    from autodidact.report.citations import FINAL_PUNCT
    from autodidact.report.quoted_markdown import inline
    from autodidact.text.support import support

    claims = {c.id: c for ev in evidences.values() for c in ev.claims}
    flat = " ".join(report_md.split())
    threshold = float(record.get("support_threshold", DEFAULT_SUPPORT))
    problems: list[str] = []
    written = record.get("report_sha256")
    if isinstance(written, str) and written != report_fingerprint(report_md):
        # The sentence checks below find a changed opening; this finds any change — a tail, a
        # sentence added, a table cell — since prose proved only as written.
        problems.append("report.md changed since it was written: re-run `autodidact report` to prove it again")
    for row in record.get("sentences", []):
        text, ids = str(row.get("text", "")), [str(i) for i in row.get("claim_ids", [])]
        where = f"{row.get('block')}: {text[:60]!r}"
        if not ids:
            problems.append(f"{where} cites no claim")
            continue
        gone = [i for i in ids if i not in claims]
        if gone:
            problems.append(f"{where} cites {', '.join(gone)}, which no evidence file holds")
            continue
        changed = [i for i in ids if row.get("claims", {}).get(i) != _fingerprint(claims[i])]
        if changed:
            problems.append(f"{where} rests on {', '.join(changed)}, whose quotes changed since it was written")
            continue
        # Up to the first inner full stop: the citer puts markers there (citations.Citer.sentence).
        # The citer drops the final punctuation (".", "!", "；"…) before its markers: so does this.
        head = _INNER_END.split(FINAL_PUNCT.sub("", " ".join(inline(plain(text)).split())))[0][:80]
        if head not in flat:
            problems.append(f"{where} is not in report.md (edited after it was written?)")
            continue
        quotes = [q for i in ids for q in quotes_of(claims[i])]
        if row.get("engine") == "model" and quotes and support(text, quotes) < threshold:
            problems.append(f"{where} says more than its claims' quotes")
    return problems
