"""The usage ledger ``.autodidact/usage_ledger.jsonl``: one line per model call, and its totals.

Why a ledger and not a counter: a research run spans processes (crash, resume, several rounds), so
spending must be durable and attributable — per task and per model — to answer "what did this
cost and which step spent it". A cached call is recorded with ``cached: true`` and zero tokens and
cost, because nothing was spent. Cost is estimated from ``[llm] prices`` (USD per 1M tokens);
an unpriced model costs 0 and says so in ``autodidact usage``.

Each line is written with one ``write`` and flushed to the operating system, so it survives the
process being killed at any point; it is not fsynced per call (that alone doubled the layer's
overhead on fast local servers), so a power cut may lose the last few lines — the reader
tolerates a torn last line.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from autodidact.jsontypes import JSONMapping, JSONObject, JSONValue
from autodidact.llm.base import Usage
from autodidact.store import jsonl


@dataclass(frozen=True)
class LedgerEntry:
    """One call as recorded in the ledger."""

    task: str
    provider: str
    model: str
    input_tokens: int
    output_tokens: int
    cached: bool
    cost_usd: float
    seconds: float
    priced: bool = True
    ts: str = ""
    # "ok"; "failed" or "timeout" (an attempt that gave no reply: its prompt may still have been
    # processed); "fallback" (no call: the offline engine did the step, ``note`` says why);
    # "dropped" (no call: ``dropped`` items of a reply were not written, ``note`` says why)
    outcome: str = "ok"
    note: str = ""
    dropped: int = 0

    def to_json(self) -> JSONObject:
        """Every field, in declaration order (the order of a ledger line's keys)."""
        return {
            "task": self.task, "provider": self.provider, "model": self.model,
            "input_tokens": self.input_tokens, "output_tokens": self.output_tokens, "cached": self.cached,
            "cost_usd": self.cost_usd, "seconds": self.seconds, "priced": self.priced, "ts": self.ts,
            "outcome": self.outcome, "note": self.note, "dropped": self.dropped,
        }  # fmt: skip


def price_for(prices: dict[str, tuple[float, float]], provider: str, model: str) -> tuple[float, float] | None:
    """USD per 1M (input, output) tokens for ``provider:model`` or ``model``; None if unpriced."""
    for key in (f"{provider}:{model}", model):
        if key in prices:
            pin, pout = prices[key]
            return float(pin), float(pout)
    return None


def cost_of(usage: Usage, price: tuple[float, float] | None) -> float:
    """Estimated USD for a usage at a price (0 when unpriced)."""
    if price is None:
        return 0.0
    return (usage.input_tokens * price[0] + usage.output_tokens * price[1]) / 1_000_000


class UsageBucket(TypedDict):
    """Calls, tokens, cost and seconds of a set of ledger records (overall, one task, one model)."""

    calls: int
    cached_calls: int
    failed_calls: int
    fallbacks: int
    dropped: int
    input_tokens: int
    output_tokens: int
    cost_usd: float
    seconds: float


class UsageTotals(UsageBucket):
    """What ``Runtime.usage_totals()``, ``autodidact usage`` and ``status`` show: overall and broken down."""

    by_task: dict[str, UsageBucket]
    by_model: dict[str, UsageBucket]
    unpriced_models: list[str]


def _bucket() -> UsageBucket:
    return {
        "calls": 0, "cached_calls": 0, "failed_calls": 0, "fallbacks": 0, "dropped": 0,
        "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0, "seconds": 0.0,
    }  # fmt: skip


def _number(value: JSONValue) -> int | float | str:
    """A ledger line's count or amount, as ``int()``/``float()`` read it (a line of an older or
    foreign writer may hold it as a string)."""
    if isinstance(value, int | float | str):
        return value
    raise TypeError(f"a ledger number is {value!r}")


def _add(bucket: UsageBucket, entry: JSONMapping) -> None:
    outcome = str(entry.get("outcome", "ok"))
    if outcome == "fallback":
        bucket["fallbacks"] += 1
        return
    if outcome == "dropped":
        bucket["dropped"] += int(_number(entry.get("dropped", 1)))
        return
    bucket["calls"] += 1
    bucket["failed_calls"] += 1 if outcome != "ok" else 0
    bucket["cached_calls"] += 1 if entry.get("cached") else 0
    bucket["input_tokens"] += int(_number(entry.get("input_tokens", 0)))
    bucket["output_tokens"] += int(_number(entry.get("output_tokens", 0)))
    bucket["cost_usd"] = round(bucket["cost_usd"] + float(_number(entry.get("cost_usd", 0.0))), 9)
    bucket["seconds"] = round(bucket["seconds"] + float(_number(entry.get("seconds", 0.0))), 6)


class Totals:
    """Running totals overall, by task and by ``provider:model``."""

    def __init__(self) -> None:
        self.overall = _bucket()
        self.by_task: dict[str, UsageBucket] = {}
        self.by_model: dict[str, UsageBucket] = {}
        self.unpriced: set[str] = set()

    def add(self, entry: JSONMapping) -> None:
        """Count one ledger line (as written, or read back from the file)."""
        _add(self.overall, entry)
        _add(self.by_task.setdefault(str(entry.get("task", "")), _bucket()), entry)
        model_key = f"{entry.get('provider', '')}:{entry.get('model', '')}"
        _add(self.by_model.setdefault(model_key, _bucket()), entry)
        if not entry.get("priced", True) and not entry.get("cached"):
            self.unpriced.add(model_key)

    def as_dict(self) -> UsageTotals:
        """Plain data for JSON output and ``Runtime.usage_totals()``."""
        return {
            **self.overall,
            "by_task": {k: v.copy() for k, v in sorted(self.by_task.items())},
            "by_model": {k: v.copy() for k, v in sorted(self.by_model.items())},
            "unpriced_models": sorted(self.unpriced),
        }


class Ledger:
    """Appends entries to the JSONL file (when a path is given) and keeps this run's totals."""

    def __init__(self, path: Path | None) -> None:
        self.path = Path(path) if path is not None else None
        self.run_totals = Totals()
        self._fd: int | None = None

    def record(self, entry: LedgerEntry) -> None:
        """Append one call (a single ``write`` on an O_APPEND descriptor) and count it."""
        data = entry.to_json()
        if data["outcome"] == "ok":
            data.pop("outcome")  # the common case stays as short as the lines older versions wrote
        if not data["note"]:
            data.pop("note")
        if not data["dropped"]:
            data.pop("dropped")
        if not data["ts"]:
            data["ts"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        if self.path is not None:
            if self._fd is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                jsonl.seal_torn_tail(self.path)  # else a torn tail and our first line fuse into corruption
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            line = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
            os.write(self._fd, line.encode("utf-8"))
        self.run_totals.add(data)

    def close(self) -> None:
        """Release the file descriptor (reopened on the next record)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __del__(self) -> None:
        try:
            self.close()
        except OSError:
            pass


def read_totals(path: Path) -> UsageTotals:
    """Totals over every call ever recorded in a ledger file (empty totals if it does not exist)."""
    totals = Totals()
    for record in jsonl.read(Path(path)):
        totals.add(record)
    return totals.as_dict()
