"""Models are replaceable parts: one protocol, many providers, an offline engine."""
