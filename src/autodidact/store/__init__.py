"""File mechanics with no domain knowledge: atomic writes, the lock, JSONL, hashing, paths."""
