"""Budget caps that stop a run *before* the call that would pass them.

Why before, and why reserve: a cap checked after the call has already been passed. Each call's
cost is estimated up front — input tokens from the prompt length, output tokens at the request's
``max_tokens`` — and reserved while the call is in flight, so concurrent calls cannot together
slip past the cap. When the call returns, the reservation is replaced by the server-reported usage.
The caps cover one run (one ``Runtime``); the exception leaves every finished step on disk, so
re-running with a higher cap resumes. On the team backend a second guard (``shared``, the team's
caps over the server's ledger: llm/pgcache.py) reserves the same estimate after the run's own.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Protocol

from autodidact.config import BudgetSettings
from autodidact.errors import BudgetExceeded


class SharedBudget(Protocol):
    """Caps shared with other processes: reserve an estimate (or raise BudgetExceeded), release it."""

    def reserve(self, tokens: int, cost: float, *, task: str) -> int: ...

    def release(self, hold: int) -> None: ...

    def close(self) -> None: ...


@dataclass
class Reservation:
    """What one in-flight call is assumed to spend (``hold``: its reservation in the shared budget)."""

    tokens: int
    cost: float
    hold: int | None = None


class BudgetGuard:
    """Tracks spent and reserved tokens/cost against ``max_tokens`` and ``max_cost``."""

    def __init__(self, budget: BudgetSettings | None, shared: SharedBudget | None = None) -> None:
        self.budget = budget or BudgetSettings()
        self.shared = shared
        self.spent_tokens = 0
        self.spent_cost = 0.0
        self._reserved_tokens = 0
        self._reserved_cost = 0.0
        self._lock = threading.Lock()

    @property
    def limited(self) -> bool:
        """True when a token or cost cap is set."""
        return self.budget.max_tokens is not None or self.budget.max_cost is not None

    def reserve(self, tokens: int, cost: float, *, task: str) -> Reservation:
        """Reserve an estimate, or raise :class:`BudgetExceeded` if it would pass a cap."""
        with self._lock:
            cap_tokens = self.budget.max_tokens
            if cap_tokens is not None and self.spent_tokens + self._reserved_tokens + tokens > cap_tokens:
                raise BudgetExceeded(
                    f"budget: the next model call (task {task}, up to ~{tokens} tokens) would pass "
                    f"--max-tokens {cap_tokens} ({self.spent_tokens} spent so far); stopped before it",
                    hint="re-run with a higher --max-tokens (or AUTODIDACT_MAX_TOKENS); finished steps are kept. "
                    "Each call reserves its full output cap ([llm] max_tokens) until it returns",
                )
            cap_cost = self.budget.max_cost
            if cap_cost is not None and self.spent_cost + self._reserved_cost + cost > cap_cost:
                raise BudgetExceeded(
                    f"budget: the next model call (task {task}, up to ~${cost:.4f}) would pass "
                    f"--max-cost {cap_cost:g} USD (${self.spent_cost:.4f} spent so far); stopped before it",
                    hint="re-run with a higher --max-cost (or AUTODIDACT_MAX_COST); finished steps are kept",
                )
            self._reserved_tokens += tokens
            self._reserved_cost += cost
        if self.shared is None:
            return Reservation(tokens, cost)
        try:
            hold = self.shared.reserve(tokens, cost, task=task)
        except BaseException:
            self.settle(Reservation(tokens, cost), 0, 0.0)
            raise
        return Reservation(tokens, cost, hold)

    def settle(self, reservation: Reservation, tokens: int, cost: float) -> None:
        """Replace a reservation by what the call actually spent (0/0 if it failed). The caller has
        recorded the call in the ledger first, so the shared budget never misses it in between."""
        with self._lock:
            self._reserved_tokens -= reservation.tokens
            self._reserved_cost -= reservation.cost
            self.spent_tokens += tokens
            self.spent_cost += cost
        if reservation.hold is not None and self.shared is not None:
            self.shared.release(reservation.hold)
