"""The request loops: a harness served as JSON lines on stdio, or behind HTTP.

Both loops answer every line or body with exactly one JSON reply, whatever happens:
a request that is not JSON gets an error reply, and so does a harness that raises.
Logs go to standard error.  Over stdio, anything the runtime itself prints to standard
output while a request is handled is sent to standard error instead, because one stray
line on standard output would break the protocol.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import IO, Any

from adapters.protocol import Harness

__all__ = ["MAX_REQUEST_BYTES", "http_server", "main", "serve_stdio"]

log = logging.getLogger("adapters.kit")

#: The largest request body the HTTP loop reads (a scenario is far smaller).
MAX_REQUEST_BYTES = 16 * 1024 * 1024


def _reply_to(harness: Harness, data: str | bytes) -> tuple[str | None, dict[str, Any]]:
    """The request's ``cmd`` (when it has one) and the harness's reply."""
    try:
        message = json.loads(data)
    except (ValueError, RecursionError) as err:
        return None, _bad_json(f"request is not JSON: {err}")
    if not isinstance(message, dict):
        return None, _bad_json("request is not a JSON object")
    try:
        reply = dict(harness.request(message))
    except Exception as err:  # a harness not built on the kit may raise: answer anyway
        log.exception("the harness raised")
        reply = {"error": {"message": f"{type(err).__name__}: {err}"[:2000], "code": "harness"}}
    cmd = message.get("cmd")
    return (cmd if isinstance(cmd, str) else None), reply


def _bad_json(message: str) -> dict[str, Any]:
    return {"error": {"message": message[:300], "code": "bad_json"}}


def _encode(reply: dict[str, Any]) -> str:
    try:
        return json.dumps(reply, allow_nan=False)
    except (TypeError, ValueError) as err:
        log.error("the harness replied with something that is not JSON: %s", err)
        return json.dumps({"error": {"message": f"reply is not JSON: {err}"[:300]}})


@contextlib.contextmanager
def _stdout_to_stderr() -> Iterator[IO[str]]:
    """Point file descriptor 1 at standard error; yield a stream on the real stdout."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    real = os.fdopen(saved, "w", encoding="utf-8", closefd=True)
    previous, sys.stdout = sys.stdout, sys.stderr
    try:
        yield real
    finally:
        sys.stdout = previous
        os.dup2(real.fileno(), 1)
        real.close()


def serve_stdio(
    harness: Harness, stdin: IO[str] | None = None, stdout: IO[str] | None = None
) -> None:
    """Answer one request per line of ``stdin`` until it ends (or after ``bye``).

    With the default streams, the process's standard output carries replies only.
    """
    if stdout is None:
        with _stdout_to_stderr() as real:
            _loop(harness, stdin or sys.stdin, real)
    else:
        _loop(harness, stdin or sys.stdin, stdout)


def _loop(harness: Harness, stdin: IO[str], stdout: IO[str]) -> None:
    for line in stdin:
        if not line.strip():
            continue
        cmd, reply = _reply_to(harness, line)
        stdout.write(_encode(reply) + "\n")
        stdout.flush()
        if cmd == "bye":
            return


def http_server(
    harness: Harness, host: str = "127.0.0.1", port: int = 8765, path: str = "/rttool"
) -> HTTPServer:
    """An HTTP server answering ``POST path`` with the harness (``port`` 0: any free port).

    Requests are answered one at a time, as the protocol sends them.
    """
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            if self.path.split("?")[0].rstrip("/") != path.rstrip("/"):
                self._send(404, {"error": {"message": f"no harness at {self.path[:100]}"}})
                return
            declared = self.headers.get("Content-Length") or "0"
            if not declared.isdigit():
                self._send(400, {"error": {"message": "bad Content-Length", "code": "bad_json"}})
                return
            size = int(declared)
            if size > MAX_REQUEST_BYTES:
                self._send(413, {"error": {"message": "request too large"}})
                return
            body = self.rfile.read(size)
            with lock:
                _, reply = _reply_to(harness, body)
            self._send(200, reply)

        def _send(self, status: int, reply: dict[str, Any]) -> None:
            data = _encode(reply).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            log.debug("http: " + format, *args)

    return HTTPServer((host, port), Handler)


def main(factory: Callable[[], Harness], argv: Sequence[str] | None = None) -> int:
    """Serve the harness ``factory`` makes: on stdio, or with ``--http HOST:PORT``."""
    parser = argparse.ArgumentParser(description="Serve an rttool-adapter/1 harness.")
    parser.add_argument("--http", metavar="HOST:PORT", help="serve over HTTP instead of stdio")
    parser.add_argument("--path", default="/rttool", help="the HTTP path (default /rttool)")
    parser.add_argument("--log-level", default="WARNING", help="logging level on stderr")
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=args.log_level.upper())
    harness = factory()
    if args.http is None:
        serve_stdio(harness)
        return 0
    host, _, port = args.http.rpartition(":")
    if not port.isdigit():
        parser.error("--http takes HOST:PORT")
    server = http_server(harness, host or "127.0.0.1", int(port), args.path)
    bound_host, bound_port = server.server_address[:2]
    sys.stderr.write(f"serving on http://{bound_host!s}:{bound_port}{args.path}\n")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
