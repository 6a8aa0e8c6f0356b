"""Socratic idea-debate sessions (seed 002) on an event-sourced store."""
