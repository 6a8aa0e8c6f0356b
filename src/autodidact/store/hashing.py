"""Canonical JSON and sha256 helpers: one definition of "the same request" or "the same bytes"."""

from __future__ import annotations

import hashlib
import json


def canonical_json(data: object) -> str:
    """Sorted keys, no spaces, UTF-8 kept: equal data always gives equal text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_text(text: str) -> str:
    """Hex sha256 of UTF-8 text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sha256_bytes(data: bytes) -> str:
    """Hex sha256 of bytes."""
    return hashlib.sha256(data).hexdigest()


def hash_json(data: object) -> str:
    """Hex sha256 of the canonical JSON form of ``data``."""
    return sha256_text(canonical_json(data))
