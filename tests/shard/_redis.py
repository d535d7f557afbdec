"""A real Redis server for a test: Debian's ``redis-server``, on a free loopback port, in
a temporary directory, stopped when the test ends (skipped where it is not installed)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

__all__ = ["RedisServer", "redis_server"]

#: where Debian puts it; ``.ci/run`` installs it
DEBIAN_PATH = Path("/usr/bin/redis-server")


@dataclass
class RedisServer:
    """A running server: its URL, and a way to stop it before the test ends."""

    url: str
    process: subprocess.Popen[bytes]

    def commands(self) -> int:
        """How many commands the server has processed."""
        from redis import Redis

        client = Redis.from_url(self.url, socket_timeout=2.0)
        try:
            return int(client.info("stats")["total_commands_processed"])
        finally:
            client.close()

    def keys(self) -> list[bytes]:
        """Every key the server holds."""
        from redis import Redis

        client = Redis.from_url(self.url, socket_timeout=2.0)
        try:
            return sorted(key for key in client.keys("*") if isinstance(key, bytes))
        finally:
            client.close()

    def stop(self) -> None:
        """Stop the server (the test goes on without it)."""
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


def _binary() -> str:
    found = shutil.which("redis-server") or (str(DEBIAN_PATH) if DEBIAN_PATH.exists() else None)
    if found is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def redis_server(directory: Path, *, password: str | None = None) -> Iterator[RedisServer]:
    """Start a server that keeps nothing on disk (asking for ``password``, where given,
    which its URL then carries), and stop it at the end."""
    from redis import Redis
    from redis.exceptions import ConnectionError as RedisConnectionError

    port = _free_port()
    argv = [_binary(), "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    argv += ["--appendonly", "no", "--dir", str(directory)]
    argv += ["--requirepass", password] if password else []
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    userinfo = f":{password}@" if password else ""
    server = RedisServer(f"redis://{userinfo}127.0.0.1:{port}/0", process)
    try:
        client = Redis(host="127.0.0.1", port=port, password=password, socket_timeout=2.0)
        for _ in range(200):  # it starts in milliseconds; a busy machine may take seconds
            try:
                client.ping()
                break
            except RedisConnectionError:
                if process.poll() is not None:
                    pytest.fail(f"redis-server exited at start with {process.returncode}")
                time.sleep(0.05)
        client.close()
        yield server
    finally:
        server.stop()
