"""The research loop orchestrator (seed 001, docs/seeds.md)."""
