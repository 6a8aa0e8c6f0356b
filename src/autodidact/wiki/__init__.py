"""Wiki compile and check (CONTRACTS §1.4-1.5)."""
