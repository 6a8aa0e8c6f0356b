"""The call cache: keys, the background writer, deletes, and durability at exit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from autodidact.llm.base import Completion, Request, Usage
from autodidact.llm.cache import CallCache, request_key


def _req(text: str, **kw: object) -> Request:
    return Request(messages=[{"role": "user", "content": text}], schema={"type": "object"}, **kw)  # type: ignore[arg-type]


def test_key_covers_every_field_the_server_sees() -> None:
    base = request_key("openai", "m", _req("hi"))
    assert base == request_key("openai", "m", _req("hi"))
    assert base.startswith("sha256:")
    different = {
        request_key("deepseek", "m", _req("hi")),
        request_key("openai", "m2", _req("hi")),
        request_key("openai", "m", _req("hi!")),
        request_key("openai", "m", _req("hi", temperature=0.5)),
        request_key("openai", "m", _req("hi", max_tokens=10)),
        request_key("openai", "m", Request(messages=[{"role": "user", "content": "hi"}], schema=None)),
    }
    assert base not in different and len(different) == 6
    assert request_key("openai", "m", _req("hi", task="other")) == base  # the task name is not sent


def test_pending_writes_are_served_then_committed(tmp_path: Path) -> None:
    db = tmp_path / "index.sqlite"
    cache = CallCache(db)
    cache.put("k1", "openai", "m", "t", Completion("一", Usage(3, 4), "m", "stop"))
    hit = cache.get("k1")
    assert hit is not None and hit.text == "一" and hit.usage == Usage(3, 4)
    cache.flush()
    other = CallCache(db)  # a separate connection sees the committed row
    assert other.get("k1") == Completion("一", Usage(3, 4), "m", "stop")
    cache.delete("k1")
    assert cache.get("k1") is None
    cache.flush()
    assert other.get("k1") is None
    assert cache.count() == 0
    cache.close()
    other.close()


def test_shared_instance_per_file(tmp_path: Path) -> None:
    a = CallCache.shared(tmp_path / "x" / ".." / "index.sqlite")
    b = CallCache.shared(tmp_path / "index.sqlite")
    assert a is b
    assert CallCache.shared(tmp_path / "other.sqlite") is not a


def test_writes_are_committed_at_interpreter_exit(tmp_path: Path) -> None:
    db = tmp_path / "index.sqlite"
    script = (
        "from pathlib import Path\n"
        "from autodidact.llm.cache import CallCache\n"
        "from autodidact.llm.base import Completion, Usage\n"
        f"c = CallCache(Path({str(db)!r}))\n"
        "for i in range(50):\n"
        "    c.put(f'k{i}', 'p', 'm', 't', Completion(f'reply {i}', Usage(1, 1)))\n"
        # no close(), no flush(): the atexit hook must commit
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
    cache = CallCache(db)
    assert cache.count() == 50
    hit = cache.get("k49")
    assert hit is not None and hit.text == "reply 49"
    cache.close()


def test_the_writer_thread_ends_when_idle_and_restarts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from autodidact.llm import cache as cache_module

    monkeypatch.setattr(cache_module, "WRITER_IDLE_SECONDS", 0.05)
    cache = CallCache(tmp_path / "index.sqlite")
    cache.put("a", "p", "m", "t", Completion("1"))
    cache.flush()
    deadline = time.monotonic() + 5
    while cache._writer is not None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert cache._writer is None
    cache.put("b", "p", "m", "t", Completion("2"))
    assert cache.count() == 2
    cache.close()
