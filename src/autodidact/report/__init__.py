"""The report pipeline: plan -> evidence per dimension -> report.md."""
