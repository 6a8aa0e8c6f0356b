"""Research planning: plan.json (seed 004)."""
