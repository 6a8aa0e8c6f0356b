"""Bytes in, immutable snapshots out: the only way any later step reads a source."""
