"""Loopback model servers: OpenAI ``/v1/chat/completions`` and Anthropic ``/v1/messages`` shapes.

Why real HTTP: the official SDKs (which use their own ``httpx2`` stack) must run for real in tests
and benchmarks — request building, response parsing, status-code exceptions, headers such as
``Retry-After`` — so the adapters are tested against bytes, not mocks. The server runs in a thread
on 127.0.0.1 with a random port, answers from a queue or a function, can add latency, injects
faults (429 with Retry-After, 500, hang, invalid body, context-length, 401), reports usage tokens
and records every request (path, headers, JSON body, arrival time).

Example::

    with FakeLLM(["{\"ok\": true}", Fault.status(429, retry_after=1)]) as fake:
        client = openai.OpenAI(base_url=fake.base_url, api_key="x")
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from autodidact.jsontypes import JSONObject, JSONValue


@dataclass(frozen=True)
class Fault:
    """An injected failure. Build with the class methods."""

    kind: str  # "status" | "hang" | "invalid_body" | "context" | "auth"
    status: int = 500
    retry_after: float | None = None
    message: str = "injected fault"

    @classmethod
    def http(cls, status: int, *, retry_after: float | None = None, message: str = "injected fault") -> Fault:
        return cls("status", status=status, retry_after=retry_after, message=message)

    @classmethod
    def rate_limit(cls, retry_after: float | None = 1.0) -> Fault:
        return cls("status", status=429, retry_after=retry_after, message="Rate limit reached; slow down")

    @classmethod
    def server_error(cls) -> Fault:
        return cls("status", status=500, message="The server had an error while processing your request")

    @classmethod
    def hang(cls) -> Fault:
        return cls("hang")

    @classmethod
    def invalid_body(cls) -> Fault:
        return cls("invalid_body", status=200)

    @classmethod
    def context_length(cls) -> Fault:
        return cls("context", status=400)

    @classmethod
    def unauthorized(cls, status: int = 401) -> Fault:
        return cls("auth", status=status)

    @classmethod
    def refusal(cls, message: str = "I'm sorry, but I can't help with that.") -> Fault:
        """HTTP 200 with a refusal: OpenAI's ``message.refusal`` / Anthropic's ``stop_reason: refusal``."""
        return cls("refusal", status=200, message=message)


def think(reply: str, reasoning: str = "Let me think about the schema first. {not json}") -> str:
    """A reply wrapped the way reasoning models send it."""
    return f"<think>\n{reasoning}\n</think>\n{reply}"


@dataclass
class Recorded:
    """One request as the server saw it."""

    path: str
    headers: dict[str, str]
    body: JSONObject
    at: float

    @property
    def messages(self) -> list[JSONValue]:
        messages = self.body.get("messages", [])
        return list(messages) if isinstance(messages, list) else []


@dataclass(frozen=True)
class Cut:
    """A reply the server stopped at its token limit (``finish_reason: "length"``)."""

    text: str


Reply = str | Fault | Cut | JSONObject


@dataclass
class _State:
    queue: deque[Reply] = field(default_factory=deque)
    fn: Callable[[JSONObject], Reply] | None = None
    latency: float = 0.0
    api_key: str | None = None
    usage: tuple[int, int] | None = None
    requests: list[Recorded] = field(default_factory=list)
    reported: list[tuple[int, int]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    stopping: threading.Event = field(default_factory=threading.Event)
    in_flight: int = 0
    peak_in_flight: int = 0
    chunk_delay: float = 0.0  # seconds between streamed chunks (a slow model)
    streams: list[tuple[int, int]] = field(default_factory=list)  # (chunks sent, chunks in the reply)


def _count_tokens(text: str) -> int:
    return max(1, len(text) // 4)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server
    _headers_buffer: list[bytes]  # BaseHTTPRequestHandler's own, undeclared in the standard library's stubs

    def log_message(self, format: str, *args: object) -> None:  # silence the default stderr log
        pass

    def setup(self) -> None:
        super().setup()
        # Headers and body go out in one write with Nagle off: otherwise delayed ACKs add ~40 ms a call.
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self._headers_buffer.append(b"\r\n" + payload)
        self.flush_headers()

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            self._send(200, json.dumps({"object": "list", "data": [{"id": "fake-model", "object": "model"}]}).encode())
        else:
            self._send(404, b'{"error": {"message": "not found"}}')

    def do_POST(self) -> None:
        state = self.server.state
        with state.lock:
            state.in_flight += 1
            state.peak_in_flight = max(state.peak_in_flight, state.in_flight)
        try:
            self._post()
        finally:
            with state.lock:
                state.in_flight -= 1

    def _post(self) -> None:
        state = self.server.state
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            parsed: JSONValue = json.loads(raw or b"{}")
        except ValueError:
            parsed = None
        body: JSONObject = parsed if isinstance(parsed, dict) else {"_unparsed": raw.decode("utf-8", "replace")}
        anthropic = self.path.rstrip("/").endswith("/messages")
        with state.lock:
            state.requests.append(
                Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body, time.time())
            )
            reply: Reply | None
            if state.fn is not None:
                reply = None
            elif state.queue:
                reply = state.queue.popleft()
            else:
                reply = Fault.http(500, message="fake server: no scripted reply left")
        if reply is None:
            assert state.fn is not None
            reply = state.fn(body)
        if state.latency and state.stopping.wait(state.latency):
            return
        presented = self.headers.get("x-api-key") or (self.headers.get("Authorization") or "").removeprefix("Bearer ")
        if state.api_key is not None and presented != state.api_key:
            reply = Fault.unauthorized()
        if isinstance(reply, Fault):
            self._fault(reply, anthropic, presented)
        elif isinstance(reply, dict):
            self._send(200, json.dumps(reply).encode())
        elif isinstance(reply, Cut):
            self._answer(reply.text, body, anthropic, finish="length")
        else:
            self._answer(str(reply), body, anthropic)

    def _stream(self, text: str, body: JSONObject, finish: str, usage: tuple[int, int]) -> None:
        """Server-sent events as OpenAI streams them, one chunk per 8 characters; stops when the client
        goes away (as llama.cpp's server does), recording how far it got."""
        state = self.server.state
        pieces = [text[i : i + 8] for i in range(0, len(text), 8)] or [""]
        model = str(body.get("model", "fake-model"))

        def event(delta: JSONObject, reason: str | None, extra: JSONObject | None = None) -> bytes:
            data: JSONObject = {
                "id": "chatcmpl-s",
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": reason}],
            }
            data.update(extra or {})
            return b"data: " + json.dumps(data, ensure_ascii=False).encode("utf-8") + b"\n\n"

        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        sent = 0
        try:
            for n, piece in enumerate(pieces):
                if state.chunk_delay and state.stopping.wait(state.chunk_delay):
                    break
                last = n == len(pieces) - 1
                self.wfile.write(event({"content": piece}, finish if last else None))
                self.wfile.flush()
                sent += 1
            if sent == len(pieces):
                options = body.get("stream_options")
                if isinstance(options, dict) and options.get("include_usage"):
                    tokens = {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": sum(usage)}
                    self.wfile.write(b"data: " + json.dumps({"id": "chatcmpl-s", "object": "chat.completion.chunk",
                                     "model": model, "choices": [], "usage": tokens}).encode() + b"\n\n")  # fmt: skip
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
        except OSError:
            pass  # the client closed the stream: generation stops here
        with state.lock:
            state.streams.append((sent, len(pieces)))

    def _answer(self, text: str, body: JSONObject, anthropic: bool, finish: str = "stop") -> None:
        state = self.server.state
        if state.usage is not None:
            tokens_in, tokens_out = state.usage
        else:
            tokens_in = _count_tokens(
                json.dumps(body.get("messages", []), ensure_ascii=False) + str(body.get("system", ""))
            )
            tokens_out = _count_tokens(text)
        if body.get("stream") and not anthropic:
            self._stream(text, body, finish, (tokens_in, tokens_out))
            with state.lock:
                if state.streams and state.streams[-1][0] == state.streams[-1][1]:
                    state.reported.append((tokens_in, tokens_out))
            return
        with state.lock:
            state.reported.append((tokens_in, tokens_out))
        model = str(body.get("model", "fake-model"))
        if anthropic:
            payload: JSONObject = {
                "id": f"msg_{len(state.requests)}",
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [{"type": "text", "text": text}],
                "stop_reason": "max_tokens" if finish == "length" else "end_turn",
                "stop_sequence": None,
                "usage": {"input_tokens": tokens_in, "output_tokens": tokens_out},
            }
        else:
            payload = {
                "id": f"chatcmpl-{len(state.requests)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}],
                "usage": {
                    "prompt_tokens": tokens_in,
                    "completion_tokens": tokens_out,
                    "total_tokens": tokens_in + tokens_out,
                },
            }
        self._send(200, json.dumps(payload, ensure_ascii=False).encode("utf-8"))

    def _fault(self, fault: Fault, anthropic: bool, presented: str) -> None:
        if fault.kind == "hang":
            self.server.state.stopping.wait(600)
            return
        if fault.kind == "refusal":
            self._refuse(fault.message, anthropic)
            return
        if fault.kind == "invalid_body":
            self._send(200, b'{"id": "broken", "choices": [ {not json')
            return
        headers: dict[str, str] = {}
        if fault.kind == "auth":
            # Like real servers, echo the presented key: the client must never repeat this text.
            status, etype, code = fault.status, "authentication_error", "invalid_api_key"
            message = f"Incorrect API key provided: {presented}"
        elif fault.kind == "context":
            status, etype, code = 400, "invalid_request_error", "context_length_exceeded"
            message = (
                "prompt is too long: 250000 tokens > 200000 maximum"
                if anthropic
                else "This model's maximum context length is 8192 tokens. However, your messages resulted in "
                "9000 tokens."
            )
        else:
            status, code = fault.status, None
            etype = "rate_limit_error" if status == 429 else "api_error"
            message = fault.message
            if fault.retry_after is not None:
                headers["Retry-After"] = f"{fault.retry_after:g}"
        if anthropic:
            payload: JSONObject = {"type": "error", "error": {"type": etype, "message": message}}
        else:
            payload = {"error": {"message": message, "type": etype, "code": code, "param": None}}
        self._send(status, json.dumps(payload).encode(), headers)

    def _refuse(self, text: str, anthropic: bool) -> None:
        if anthropic:
            payload: JSONObject = {
                "id": "msg_refusal",
                "type": "message",
                "role": "assistant",
                "model": "fake-model",
                "content": [{"type": "text", "text": text}],
                "stop_reason": "refusal",
                "stop_sequence": None,
                "usage": {"input_tokens": 1, "output_tokens": 1},
            }
        else:
            payload = {
                "id": "chatcmpl-refusal",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": "fake-model",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": None, "refusal": text},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }
        with self.server.state.lock:
            self.server.state.reported.append((1, 1))
        self._send(200, json.dumps(payload).encode())


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64

    def __init__(self, state: _State) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.state = state


class FakeLLM:
    """A loopback OpenAI- and Anthropic-shaped model server.

    ``replies``: a list of replies (str = the reply text, :class:`Fault`, or a dict sent as the raw
    JSON body) served in order, or a function of the request body returning one reply.
    ``api_key``: when set, any other presented key gets a 401. ``usage``: fixed (input, output)
    tokens to report; by default ~len/4 of the prompt and reply. ``latency``: seconds per reply.
    """

    def __init__(
        self,
        replies: list[Reply] | Callable[[JSONObject], Reply] | None = None,
        *,
        latency: float = 0.0,
        api_key: str | None = None,
        usage: tuple[int, int] | None = None,
    ) -> None:
        self.state = _State(latency=latency, api_key=api_key, usage=usage)
        if callable(replies):
            self.state.fn = replies
        elif replies is not None:
            self.state.queue.extend(replies)
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> FakeLLM:
        self._server = _Server(self.state)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.state.stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeLLM:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- addresses ------------------------------------------------------------------------------
    @property
    def port(self) -> int:
        assert self._server is not None, "start the server first"
        return int(self._server.server_address[1])

    @property
    def root_url(self) -> str:
        """``http://127.0.0.1:PORT`` (the Anthropic SDK's base URL)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1`` (the OpenAI SDK's base URL)."""
        return f"{self.root_url}/v1"

    # -- scripting and inspection ---------------------------------------------------------------
    def enqueue(self, *replies: Reply) -> None:
        with self.state.lock:
            self.state.queue.extend(replies)

    def set_latency(self, seconds: float) -> None:
        self.state.latency = seconds

    def set_chunk_delay(self, seconds: float) -> None:
        """Seconds between streamed chunks: a slow model whose stream a client may abandon."""
        self.state.chunk_delay = seconds

    @property
    def streams(self) -> list[tuple[int, int]]:
        """(chunks sent, chunks in the reply) per streamed reply: fewer sent = the client went away."""
        with self.state.lock:
            return list(self.state.streams)

    @property
    def requests(self) -> list[Recorded]:
        with self.state.lock:
            return list(self.state.requests)

    @property
    def reported_usage(self) -> tuple[int, int]:
        """Sum of (input, output) tokens reported in successful replies."""
        with self.state.lock:
            return (sum(r[0] for r in self.state.reported), sum(r[1] for r in self.state.reported))

    @property
    def peak_in_flight(self) -> int:
        """The most requests the server was handling at once."""
        return self.state.peak_in_flight

    def reset(self) -> None:
        with self.state.lock:
            self.state.requests.clear()
            self.state.reported.clear()
            self.state.queue.clear()
