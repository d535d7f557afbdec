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
import hmac
import json
import logging
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import IO, Any

from adapters.http import TOKEN_ENV
from adapters.limits import DuplicateKey, TooDeep, loads
from adapters.protocol import Harness

__all__ = ["MAX_REQUEST_BYTES", "http_server", "main", "serve_stdio"]

log = logging.getLogger("adapters.kit")

#: The largest request body the HTTP loop reads (a scenario is far smaller).
MAX_REQUEST_BYTES = 16 * 1024 * 1024
#: How long the HTTP loop waits on a silent client before it gives the request up.
READ_DEADLINE_S = 30.0


def _reply_to(harness: Harness, data: str | bytes) -> tuple[str | None, dict[str, Any]]:
    """The request's ``cmd`` (when it has one) and the harness's reply."""
    try:
        message = loads(data, unique_keys=True)
    except (DuplicateKey, TooDeep) as err:
        return None, _bad_json(f"request is not usable: {err.complaint} at {err.pointer}")
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


def _colliding(value: object) -> str | None:
    """A key that two keys of one object of ``value`` become in JSON (``1`` and ``"1"``,
    which ``json.dumps`` would write twice), or ``None``."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            seen: set[str] = set()
            for key, inner in item.items():
                try:  # the key as json.dumps writes it (1, 1.0 and True become strings)
                    written = json.dumps({key: 0})[1:-4]
                except (TypeError, ValueError):
                    continue  # not a key JSON can hold: encoding says so
                if written in seen:
                    return written
                seen.add(written)
                pending.append(inner)
        elif isinstance(item, list | tuple):
            pending.extend(item)
    return None


def _encode(reply: dict[str, Any]) -> str:
    collision = _colliding(reply)
    if collision is not None:
        message = f"reply is not JSON: two keys of one object are both {collision[:100]}"
        log.error("the harness replied with keys that collide in JSON: %s", collision[:100])
        return json.dumps({"error": {"message": message}})
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
    harness: Harness,
    host: str = "127.0.0.1",
    port: int = 8765,
    path: str = "/rttool",
    *,
    token: str | None = None,
    read_deadline: float = READ_DEADLINE_S,
) -> ThreadingHTTPServer:
    """An HTTP server answering ``POST path`` with the harness (``port`` 0: any free port).

    Each client is served on a thread of its own, so one that sends half a body (and is
    given up after ``read_deadline`` seconds of silence) never holds up the others; the
    harness itself answers one request at a time.  With ``token`` (by default the
    ``RTTOOL_IMPL_TOKEN`` the suite's HTTP transport sends), a request without
    ``Authorization: Bearer TOKEN`` is refused with 401.
    """
    lock = threading.Lock()
    expected = token if token is not None else os.environ.get(TOKEN_ENV) or None

    class Handler(BaseHTTPRequestHandler):
        timeout = read_deadline  # each read from the client waits at most this long

        def do_POST(self) -> None:
            if expected is not None and not hmac.compare_digest(
                self.headers.get("Authorization", "").encode(), f"Bearer {expected}".encode()
            ):
                self._send(401, {"error": {"message": "missing or wrong bearer token"}})
                return
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
            try:
                body = self.rfile.read(size)
            except TimeoutError:
                self.close_connection = True
                return  # the client stopped sending: nothing to answer
            with lock:
                _, reply = _reply_to(harness, body)
            self._send(200, reply)

        def _send(self, status: int, reply: dict[str, Any]) -> None:
            data = _encode(reply).encode("utf-8")
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                # The client hung up before its answer (a suite stopped, a deadline cut
                # the exchange): nobody is left to tell, and the harness serves on.
                self.close_connection = True
                log.debug("http: the client left before its reply was sent")

        def log_message(self, format: str, *args: Any) -> None:
            log.debug("http: " + format, *args)

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    return server


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
