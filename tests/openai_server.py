"""A real loopback HTTP server speaking the OpenAI chat-completions API, for tests and bench.

It also speaks Ollama's native ``/api/chat`` (JSON or NDJSON stream, ``format: "json"``) and
answers ``/api/show``, so ``ollama_chat/<model>`` runs end to end against it
(:attr:`OpenAIServer.ollama_base`).

It records every request (body and headers) and answers from a script: a list of replies
used in order (then the default handler). A reply is a dict with any of ``content`` (text),
``status`` (HTTP status), ``error`` (message for a non-200), ``delay`` (seconds before
answering), ``headers``, ``chunk`` (characters per streamed chunk) and ``chunk_delay``
(seconds between streamed chunks); or a callable ``reply(request) -> dict``.

Use the ``openai_server`` fixture (import it into a test module) or :func:`start` directly.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

Reply = dict | Callable[[dict], dict]


@dataclass
class Received:
    """One request as the server saw it."""

    path: str
    headers: dict[str, str]
    body: dict

    @property
    def text(self) -> str:
        """All message contents joined: what the model was given to read."""
        return "\n".join(str(m.get("content", "")) for m in self.body.get("messages", []))


@dataclass
class OpenAIServer:
    """State shared with the handler threads."""

    host: str = "127.0.0.1"
    port: int = 0
    requests: list[Received] = field(default_factory=list)
    script: list[Reply] = field(default_factory=list)
    default: Reply = field(default_factory=lambda: {"content": "ok"})
    lock: threading.Lock = field(default_factory=threading.Lock)
    httpd: ThreadingHTTPServer | None = None
    in_flight: int = 0
    max_in_flight: int = 0  # the most requests the server was handling at one time

    @property
    def base_url(self) -> str:
        """The ``api_base`` to hand to litellm."""
        return f"http://{self.host}:{self.port}/v1"

    @property
    def ollama_base(self) -> str:
        """The ``api_base`` for ``ollama_chat/<model>`` (Ollama's own root, no ``/v1``)."""
        return f"http://{self.host}:{self.port}"

    def next_reply(self, req: Received) -> dict:
        with self.lock:
            self.requests.append(req)
            reply = self.script.pop(0) if self.script else self.default
        return reply(req.body) if callable(reply) else dict(reply)

    def stop(self) -> None:
        if self.httpd:
            self.httpd.shutdown()
            self.httpd.server_close()


def _completion(body: dict, content: str) -> dict:
    return {
        "id": "chatcmpl-local",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "local"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def _pieces(content: str, size: int) -> list[str]:
    return [content[i : i + size] for i in range(0, len(content), size)] or [""]


def _ollama_message(body: dict, content: str, *, done: bool) -> dict:
    """One object of Ollama's ``/api/chat`` reply (a whole reply, or one NDJSON chunk)."""
    out = {
        "model": body.get("model", "local"),
        "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "message": {"role": "assistant", "content": content},
        "done": done,
    }
    if done:
        out |= {"done_reason": "stop", "prompt_eval_count": 1, "eval_count": 1}
    return out


def _handler(server: OpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out as two writes: without this, Nagle plus delayed ACK add
        # ~40 ms to every keep-alive reply and would distort timings.
        disable_nagle_algorithm = True

        def log_message(self, *args) -> None:  # keep test output clean
            pass

        def _send(self, status: int, payload: dict, headers: dict | None = None) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._send(200, {"object": "list", "data": [{"id": "local", "object": "model"}]})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b"{}"
            try:
                body = json.loads(raw)
            except ValueError:
                body = {}
            if self.path.startswith("/api/show"):  # model details litellm may look up
                self._send(200, {"modelfile": "", "template": "", "model_info": {}})
                return
            req = Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            reply = server.next_reply(req)
            with server.lock:
                server.in_flight += 1
                server.max_in_flight = max(server.max_in_flight, server.in_flight)
            try:
                self._answer(body, reply)
            finally:
                with server.lock:
                    server.in_flight -= 1

        def _answer(self, body: dict, reply: dict) -> None:
            if reply.get("delay"):
                time.sleep(reply["delay"])
            status = reply.get("status", 200)
            if status != 200:
                err = {"message": reply.get("error", "error"), "type": "error", "code": status}
                self._send(status, {"error": err}, reply.get("headers"))
                return
            content = reply.get("content", "")
            size, pause = reply.get("chunk", 4), reply.get("chunk_delay", 0.0)
            ollama = self.path.startswith("/api/chat")
            if ollama and body.get("stream"):
                self._ollama_stream(body, content, size, pause)
            elif ollama:
                self._send(200, _ollama_message(body, content, done=True))
            elif body.get("stream"):
                self._stream(body, content, size, pause)
            else:
                self._send(200, _completion(body, content), reply.get("headers"))

        def _ollama_stream(self, body: dict, content: str, size: int, pause: float) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            self.send_header("Connection", "close")
            self.end_headers()
            for piece in _pieces(content, size):
                line = _ollama_message(body, piece, done=False)
                self.wfile.write((json.dumps(line) + "\n").encode())
                self.wfile.flush()
                time.sleep(pause)
            end = _ollama_message(body, "", done=True)
            self.wfile.write((json.dumps(end) + "\n").encode())
            self.wfile.flush()
            self.close_connection = True

        def _stream(self, body: dict, content: str, size: int, pause: float) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            for i, piece in enumerate(_pieces(content, size)):
                if i:
                    time.sleep(pause)
                chunk = {
                    "id": "chatcmpl-local",
                    "object": "chat.completion.chunk",
                    "created": int(time.time()),
                    "model": body.get("model", "local"),
                    "choices": [
                        {
                            "index": 0,
                            "delta": ({"role": "assistant"} if i == 0 else {}) | {"content": piece},
                            "finish_reason": None,
                        }
                    ],
                }
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.flush()
            end = {
                "id": "chatcmpl-local",
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": body.get("model", "local"),
                "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
            }
            self.wfile.write(f"data: {json.dumps(end)}\n\ndata: [DONE]\n\n".encode())
            self.wfile.flush()
            self.close_connection = True

    return Handler


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        # A client that timed out hangs up mid-reply: expected in timeout tests, not an error.
        import sys

        if not isinstance(sys.exc_info()[1], BrokenPipeError | ConnectionResetError):
            super().handle_error(request, client_address)


def start(default: Reply | None = None) -> OpenAIServer:
    """Start a server on a free loopback port in a daemon thread."""
    server = OpenAIServer()
    if default is not None:
        server.default = default
    httpd = _QuietServer(("127.0.0.1", 0), _handler(server))
    server.httpd = httpd
    server.port = httpd.server_address[1]
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:
    """A running local OpenAI-compatible server, stopped after the test."""
    server = start()
    try:
        yield server
    finally:
        server.stop()


_BLOCK = re.compile(r"<<<(\w+)([^\n]*)>>>\n(.*?)\n<<<END \1>>>", re.DOTALL)


def blocks(text: str) -> list[tuple[str, str, str]]:
    """(kind, header attributes, body) of each delimited block in a prompt."""
    return [(m.group(1), m.group(2), m.group(3)) for m in _BLOCK.finditer(text)]


def practice_folder(folder: Path, note: tuple[str, str], questions: str, card: str) -> Path:
    """Make ``folder`` with one note and a practice card whose upstream is that note.

    Args:
        folder: The folder to make (its parent must exist).
        note: The note's file name and text.
        questions: The card's numbered questions (and answers), after its title.
        card: The card's file name.
    """
    folder.mkdir()
    (folder / note[0]).write_text(note[1])
    (folder / card).write_text(
        f"---\nupstream:\n  - {note[0]}\nkind: practice\n---\n# Card\n\n{questions}"
    )
    return folder


def grading_reply(verdict: str | dict[int, str] = "Correct", evidence: str | None = None) -> Reply:
    """A reply that grades what the request holds, like a well-behaved model would.

    It reads the ANSWER blocks of the last user message, gives each ``verdict`` (one for all,
    or per question number) and quotes as evidence the first sentence of the first NOTE,
    PASSAGE or KEY block it was sent (or ``evidence`` verbatim when given).
    """

    def reply(body: dict) -> dict:
        user = next(m for m in body.get("messages", []) if m.get("role") == "user")["content"]
        found = blocks(user)
        numbers = [
            int(re.search(r'number="(\d+)"', h).group(1)) for k, h, _ in found if k == "ANSWER"
        ]
        source = next((b for k, _, b in found if k in ("NOTE", "PASSAGE", "KEY")), "")
        quote = evidence if evidence is not None else re.split(r"(?<=[.!?])\s", source.strip())[0]
        grades = [
            {
                "number": n,
                "verdict": verdict if isinstance(verdict, str) else verdict.get(n, "Partial"),
                "reason": "The answer matches the notes.",
                "evidence": quote[:120],
            }
            for n in numbers
        ]
        return {"content": json.dumps({"grades": grades})}

    return reply


def key_reply(key: dict[int, str]) -> Reply:
    """A reply that drafts ``key`` as an answer key, in the JSON shape the drafter asks for."""

    def reply(body: dict) -> dict:
        return {
            "content": json.dumps({"key": [{"number": n, "answer": a} for n, a in key.items()]})
        }

    return reply


@pytest.fixture
def no_model_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No model configured from the environment: the offline path unless a test sets one."""
    for name in ("BASEHALF_MODEL", "BASEHALF_API_BASE", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def main() -> None:
    """Serve from the command line (the bench runs it as its own process, like a real server).

    Prints ``PORT`` on its first line, then serves grading replies after ``--delay`` seconds.
    """
    import argparse
    import signal

    ap = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    ap.add_argument("--delay", type=float, default=0.2)
    args = ap.parse_args()
    stop = {signal.SIGINT, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, stop)  # the server threads inherit the mask
    server = start(lambda body: grading_reply()(body) | {"delay": args.delay})
    print(server.port, flush=True)
    signal.sigwait(stop)
    server.stop()


if __name__ == "__main__":
    main()
