"""Stores that misbehave, on a loopback port, for the example database's tests: a server
answering every request with one fixed reply (the wrong type, an error, bytes that are
not the protocol), one that never answers, one that trickles an endless answer a byte
at a time, and a proxy that relays to a real server with every answer late.  Each
counts the requests it was sent."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

__all__ = ["REPLIES", "FakeStore", "fake_store", "late_proxy", "trickling_store"]

#: What a fake server answers to every request, by how it misbehaves.
REPLIES = {
    "wrong-type": b":1\r\n",  # an integer, where a set or a count of changes is read
    "error": b"-ERR this store refuses everything\r\n",
    "garbage": b"?this is not RESP\r\n",
}


@dataclass
class FakeStore:
    """A running fake: its URL, and the requests it has been sent (reads, not commands:
    a pipeline is one)."""

    url: str
    requests: int = 0
    _sockets: list[socket.socket] = field(default_factory=list)


Answer = Callable[[socket.socket, "FakeStore", threading.Event], None]


def _listening() -> socket.socket:
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.2)
    return server


def _serve(server: socket.socket, store: FakeStore, stop: threading.Event, answer: Answer) -> None:
    while not stop.is_set():
        try:
            client, _ = server.accept()
        except TimeoutError:
            continue
        store._sockets.append(client)
        threading.Thread(target=answer, args=(client, store, stop), daemon=True).start()


@contextmanager
def _running(answer: Answer) -> Iterator[FakeStore]:
    server = _listening()
    store = FakeStore(f"redis://127.0.0.1:{server.getsockname()[1]}/0")
    stop = threading.Event()
    thread = threading.Thread(target=_serve, args=(server, store, stop, answer), daemon=True)
    thread.start()
    try:
        yield store
    finally:
        stop.set()
        thread.join(10)
        for one in [server, *store._sockets]:
            one.close()


def _replying(reply: bytes | None) -> Answer:
    def answer(client: socket.socket, store: FakeStore, stop: threading.Event) -> None:
        client.settimeout(0.2)
        while not stop.is_set():
            try:
                data = client.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            if not data:
                return
            store.requests += 1
            if reply is not None:  # None: read, and never answer
                try:
                    client.sendall(reply)
                except OSError:
                    return

    return answer


@contextmanager
def fake_store(mode: str) -> Iterator[FakeStore]:
    """A server answering every request as ``mode`` says (a key of :data:`REPLIES`), or
    never (``silent``)."""
    with _running(_replying(None if mode == "silent" else REPLIES[mode])) as store:
        yield store


@contextmanager
def late_proxy(upstream: str, delay: float) -> Iterator[FakeStore]:
    """A proxy to the Redis at ``upstream`` (``redis://HOST:PORT/DB``) whose every answer
    comes ``delay`` seconds late."""
    host, _, port = upstream.removeprefix("redis://").partition("/")[0].partition(":")

    def answer(client: socket.socket, store: FakeStore, stop: threading.Event) -> None:
        with socket.create_connection((host, int(port)), timeout=30) as server:
            client.settimeout(0.2)
            while not stop.is_set():
                try:
                    data = client.recv(65536)
                except TimeoutError:
                    continue
                except OSError:
                    return
                if not data:
                    return
                store.requests += 1
                server.sendall(data)
                reply = server.recv(65536)
                time.sleep(delay)
                try:
                    client.sendall(reply)
                except OSError:
                    return

    with _running(answer) as store:
        yield store


@contextmanager
def trickling_store() -> Iterator[FakeStore]:
    """A server that answers the first request with a string of a billion bytes, sent a
    byte every tenth of a second: each read gets something, the answer never ends."""

    def answer(client: socket.socket, store: FakeStore, stop: threading.Event) -> None:
        try:
            client.recv(65536)
            store.requests += 1
            client.sendall(b"$1000000000\r\n")
            while not stop.is_set():
                client.sendall(b"x")
                time.sleep(0.1)
        except OSError:
            return

    with _running(answer) as store:
        yield store
