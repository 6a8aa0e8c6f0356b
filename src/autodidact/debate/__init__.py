"""Socratic idea-debate sessions (seed 002, docs/seeds.md) on an event-sourced store."""
