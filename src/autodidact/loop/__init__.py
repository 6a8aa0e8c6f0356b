"""The research loop orchestrator (seed 001)."""
