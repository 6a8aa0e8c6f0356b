"""Budget caps that stop a run *before* the call that would pass them.

Why before, and why reserve: a cap checked after the call has already been passed. Each call's
cost is estimated up front — input tokens from the prompt length, output tokens at the request's
``max_tokens`` — and reserved while the call is in flight, so concurrent calls cannot together
slip past the cap. When the call returns, the reservation is replaced by the server-reported usage.
The caps cover one run (one ``Runtime``); the exception leaves every finished step on disk, so
re-running with a higher cap resumes.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from autodidact.config import BudgetSettings
from autodidact.errors import BudgetExceeded


@dataclass
class Reservation:
    """What one in-flight call is assumed to spend."""

    tokens: int
    cost: float


class BudgetGuard:
    """Tracks spent and reserved tokens/cost against ``max_tokens`` and ``max_cost``."""

    def __init__(self, budget: BudgetSettings | None) -> None:
        self.budget = budget or BudgetSettings()
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
            return Reservation(tokens, cost)

    def settle(self, reservation: Reservation, tokens: int, cost: float) -> None:
        """Replace a reservation by what the call actually spent (0/0 if it failed)."""
        with self._lock:
            self._reserved_tokens -= reservation.tokens
            self._reserved_cost -= reservation.cost
            self.spent_tokens += tokens
            self.spent_cost += cost
