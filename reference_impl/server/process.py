"""Run the reference server in a child process (for tests, benchmarks and scripts).

:func:`spawn_server` starts ``python -m reference_impl.server --port 0`` on a database
file, waits for its "listening on" line, and returns a :class:`ServerProcess` that knows
the URL and can stop the server cleanly (SIGINT) or kill it outright (SIGKILL).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from adapters.errors import RttoolError

__all__ = ["ServerProcess", "ServerStartFailed", "spawn_server"]

_READY = re.compile(r"listening on (http://\S+) ")


class ServerStartFailed(RttoolError):
    """The server process exited, or said nothing, before it was listening."""


@dataclass
class ServerProcess:
    """A running reference server: its process, base URL and combined output file."""

    process: subprocess.Popen[bytes]
    url: str
    log: Path

    def kill(self) -> None:
        """SIGKILL: the process dies at once, mid-whatever it was doing."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self, timeout: float = 15.0) -> int:
        """Ctrl-C (SIGINT) and wait for a clean shutdown; kill if it does not come."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                return self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        return int(self.process.returncode)

    def output(self) -> str:
        """What the server printed so far."""
        return self.log.read_text("utf-8", errors="replace")

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def spawn_server(
    db: Path,
    *,
    log_dir: Path,
    args: Sequence[str] = ("--log-level", "warning"),
    env: Mapping[str, str] | None = None,
    timeout: float = 30.0,
) -> ServerProcess:
    """Start a server on ``db`` (a free loopback port) and wait until it listens."""
    handle, name = tempfile.mkstemp(dir=log_dir, prefix="server-", suffix=".log")
    os.close(handle)
    log = Path(name)
    command = [sys.executable, "-m", "reference_impl.server", "--port", "0", "--db", str(db)]
    with log.open("wb") as sink:  # the child keeps its own copy of the descriptor
        process = subprocess.Popen(
            [*command, *args],
            stdout=sink,
            stderr=subprocess.STDOUT,
            env=None if env is None else {**os.environ, **env},
        )
    deadline = time.monotonic() + timeout
    while True:
        found = _READY.search(log.read_text("utf-8", errors="replace"))
        if found:
            return ServerProcess(process, found.group(1), log)
        if process.poll() is not None or time.monotonic() > deadline:
            if process.poll() is None:
                process.kill()
                process.wait()
            raise ServerStartFailed(
                "the reference server did not start",
                db=str(db),
                output=log.read_text("utf-8", errors="replace")[-500:],
            )
        time.sleep(0.02)
