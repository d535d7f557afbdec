"""Fixtures: the guide's toy harness over every transport, and a real HTTP server."""

from __future__ import annotations

import shlex
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest

from adapters import Connection, connect
from adapters.http import HttpConnection
from tests.adapters import toy

HERE = Path(__file__).parent
TOY_STDIO = HERE / "toy_stdio.py"
MISBEHAVING = HERE / "misbehaving.py"
TRANSPORTS = ("inprocess", "stdio", "http")

OpenToy = Callable[..., Connection]


def stdio_spec(*argv: str) -> str:
    """A ``stdio:`` spec running this Python on ``argv``."""
    return "stdio:" + shlex.join([sys.executable, *argv])


@pytest.fixture(scope="session")
def toy_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The guide's harness, written to a file of its own."""
    return toy.write_toy(tmp_path_factory.mktemp("toy"))


def open_toy_over(transport: str, toy_file: Path, **options: str) -> Connection:
    """A connection to the guide's toy, bent by ``options``, over ``transport``."""
    options = {"source": str(toy_file), **options}
    if transport == "inprocess":
        return connect("python:tests.adapters.toy:create?" + urlencode(options))
    if transport == "stdio":
        return connect(stdio_spec(str(TOY_STDIO), *(f"{k}={v}" for k, v in options.items())))
    app = toy.wsgi_app({"": toy.create(**options)})
    return HttpConnection("http://toy.test", timeout=10, transport=httpx.WSGITransport(app=app))


@pytest.fixture(params=TRANSPORTS)
def open_toy(request: pytest.FixtureRequest, toy_path: Path) -> Iterator[OpenToy]:
    """Opens connections to the toy over one transport; closes them afterwards."""
    opened: list[Connection] = []

    def open_(**options: str) -> Connection:
        connection = open_toy_over(request.param, toy_path, **options)
        opened.append(connection)
        return connection

    yield open_
    for connection in opened:
        connection.close()


@contextmanager
def serve(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn on a free loopback port, in a thread; yields the base URL."""
    import uvicorn

    # proto must be IPPROTO_TCP: asyncio sets TCP_NODELAY on accepted connections only then,
    # and without it every reply waits out a delayed ACK (about 40 ms a request).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app, log_level="warning", lifespan="off", http="h11", ws="none", loop="asyncio"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 120  # generous: a busy machine starts slowly
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.01)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()
