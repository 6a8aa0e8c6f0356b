"""Research planning: plan.json (seed 004, docs/seeds.md)."""
