"""A SearXNG-shaped JSON search API on 127.0.0.1, for tests and the offline demo.

Why: the SearXNG provider must be exercised with a real HTTP client and real bytes, including
the faults a real instance shows (429 rate limits, 5xx, a broken body). ``GET /search?q=…&format=json``
answers ``{"query": q, "results": [{"url", "title", "content"}, …]}``.

``results`` maps a query to its result list, or is a callable ``query -> list[dict]``. Faults:
``failures=[429, 503]`` answers those statuses to the first requests (with ``Retry-After: 0``);
``malformed="not-json" | "no-results" | "bad-shape"`` breaks every answer.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from autodidact.jsontypes import JSONObject

Results = dict[str, list[JSONObject]] | Callable[[str], list[JSONObject]]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    fake: FakeSearxng


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.0"

    def log_message(self, format: str, *args: object) -> None:
        return

    def do_GET(self) -> None:
        status, body, headers = self.server.fake._answer(self.path)
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class FakeSearxng:
    """Loopback SearXNG stand-in with a query log (``.queries``)."""

    def __init__(
        self,
        results: Results | None = None,
        *,
        failures: list[int] | None = None,
        malformed: str | None = None,
    ) -> None:
        self.results: Results = results if results is not None else {}
        self.failures = list(failures or [])
        self.malformed = malformed
        self.queries: list[str] = []
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self.port = 0

    def __enter__(self) -> FakeSearxng:
        server = _Server(("127.0.0.1", 0), _Handler)
        server.fake = self
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        self._server = server
        self.port = server.server_address[1]
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _answer(self, path: str) -> tuple[int, str, dict[str, str]]:
        parts = urlsplit(path)
        params = parse_qs(parts.query)
        query = params.get("q", [""])[0]
        with self._lock:
            self.queries.append(query)
            failure = self.failures.pop(0) if self.failures else None
        if parts.path != "/search":
            return 404, '{"error": "not found"}', {}
        if failure is not None:
            return failure, '{"error": "try later"}', {"Retry-After": "0"}
        if params.get("format", [""])[0] != "json":
            return 403, '{"error": "format not enabled"}', {}
        if self.malformed == "not-json":
            return 200, "<html>this is not json", {}
        if self.malformed == "no-results":
            return 200, json.dumps({"query": query}), {}
        if self.malformed == "bad-shape":
            return 200, json.dumps({"query": query, "results": {"url": "x"}}), {}
        rows = self.results(query) if callable(self.results) else self.results.get(query, [])
        return 200, json.dumps({"query": query, "number_of_results": len(rows), "results": rows}), {}
