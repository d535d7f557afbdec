"""A server that answers every HTTP request a byte at a time, each byte well within any
read timeout, so that only a deadline on the whole exchange can end the request."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: The pause between two bytes: far below the read timeouts the tests use.
PAUSE = 0.05


def _serve_one(conn: socket.socket, response: bytes, at_once: int, stop: threading.Event) -> None:
    with conn:
        conn.settimeout(5)
        try:
            request = b""
            while b"\r\n\r\n" not in request:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                request += chunk
            conn.sendall(response[:at_once])
            for index in range(at_once, len(response)):
                if stop.wait(PAUSE):
                    return
                conn.sendall(response[index : index + 1])
        except OSError:
            return  # the client gave up: exactly what it should do


@contextmanager
def trickling(response: bytes, *, at_once: int = 0) -> Iterator[str]:
    """Serve ``response`` to every request: ``at_once`` bytes at once, then the rest a
    byte at a time; yields the base URL."""
    stop = threading.Event()
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    workers: list[threading.Thread] = []

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            worker = threading.Thread(
                target=_serve_one, args=(conn, response, at_once, stop), daemon=True
            )
            worker.start()
            workers.append(worker)

    acceptor = threading.Thread(target=accept, daemon=True)
    acceptor.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        acceptor.join(30)
        listener.close()
        for worker in workers:
            worker.join(30)


def endless_headers() -> bytes:
    """A status line and headers that never end."""
    return b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"a" * 100_000


def endless_body() -> bytes:
    """Complete headers announcing a body that arrives far too slowly."""
    body = b'{"protocol": "' + b"a" * 100_000 + b'"}'
    head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(body)}\r\n\r\n"
    return head.encode() + body


def run_bounded(call: object, *, within: float = 120.0) -> BaseException | None:
    """Run ``call()`` in a thread; return what it raised (``None`` if nothing).  Fails
    the test if it is still running after ``within`` seconds: it would never end."""
    assert callable(call)
    raised: list[BaseException] = []

    def target() -> None:
        try:
            call()
        except BaseException as err:
            raised.append(err)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(within)
    assert not thread.is_alive(), "the request was still running: no deadline cut it"
    return raised[0] if raised else None
