"""The HTTP transport's own connection handling (the deadline backend) still honours the
standard proxy variables, and reuses its connections."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from adapters.http import HttpConnection

HELLO = {"cmd": "hello", "protocol": "rttool-adapter/1"}


@contextmanager
def recording_server() -> Iterator[tuple[str, list[bytes], list[int]]]:
    """Answers every request with ``{}``; records each request line and the number of
    connections it was asked on."""
    lines: list[bytes] = []
    connections: list[int] = []
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    stop = threading.Event()

    def serve(conn: socket.socket) -> None:
        with conn:
            conn.settimeout(30)
            buffer = b""
            while not stop.is_set():
                while b"\r\n\r\n" not in buffer:
                    chunk = conn.recv(65536)
                    if not chunk:
                        return
                    buffer += chunk
                head, _, buffer = buffer.partition(b"\r\n\r\n")
                length = next(
                    (
                        int(line.split(b":")[1])
                        for line in head.split(b"\r\n")
                        if line.lower().startswith(b"content-length:")
                    ),
                    0,
                )
                while len(buffer) < length:
                    buffer += conn.recv(65536)
                buffer = buffer[length:]
                lines.append(head.split(b"\r\n")[0])
                body = json.dumps({}).encode()
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            connections.append(1)
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}", lines, connections
    finally:
        stop.set()
        thread.join(30)
        listener.close()


def test_a_proxy_from_the_environment_carries_the_requests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with recording_server() as (proxy, lines, _):
        monkeypatch.setenv("http_proxy", proxy)
        monkeypatch.delenv("no_proxy", raising=False)
        monkeypatch.delenv("NO_PROXY", raising=False)
        connection = HttpConnection("http://harness.invalid:8765", timeout=30)
        try:
            assert connection.request(HELLO) == {}
        finally:
            connection.close()
    assert lines[0] == b"POST http://harness.invalid:8765/rttool HTTP/1.1"


def test_no_proxy_is_honoured_and_connections_are_reused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with recording_server() as (url, lines, connections):
        monkeypatch.setenv("http_proxy", "http://proxy.invalid:3128")
        monkeypatch.setenv("no_proxy", "127.0.0.1")
        connection = HttpConnection(url, timeout=30)
        try:
            for _ in range(3):
                assert connection.request(HELLO) == {}
        finally:
            connection.close()
    assert lines[:3] == [b"POST /rttool HTTP/1.1"] * 3
    assert len(connections) == 1
