"""Each mutant's suite run forked from a warm parent instead of started afresh.

The warm parent is a child program of the suite (``python -P -m
conformance.cli.mutant_server``): it imports the suite and loads its cases once, and forks
once per mutant, the fork importing the runtime from the mutant's copy.  The driver
imports nothing of the project, so it speaks to that program through its standard input
and output, a JSON line each way.  Each job has a parent of its own.  Where the parent
cannot start (no ``fork`` on this platform) or stops answering, the mutant runs in a
fresh process as before, so a broken parent costs speed, never an outcome.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import sys
import threading
from pathlib import Path
from typing import Protocol

__all__ = ["SERVER_COMMAND", "ForkPlace", "WarmParent", "WarmPool"]

#: the warm parent, run with the current interpreter
SERVER_COMMAND = ("-P", "-m", "conformance.cli.mutant_server")
# Loading the suite takes a few seconds; a parent silent for this long is not starting.
_START_TIMEOUT_S = 300.0
# Beyond the mutant's own limit, how long the parent may take to answer (the kill and
# the reply): a parent silent for longer is abandoned.
_REPLY_GRACE_S = 60.0
# A reply is one short JSON object.
_MAX_REPLY_CHARS = 1000


class ForkPlace(Protocol):
    """Where a fork runs a mutant: a workspace of ``mutation/_execute.py`` is one, which
    hands itself to :meth:`WarmParent.run` (so that this module needs nothing of that
    one, which imports it)."""

    #: the folder holding the mutant's copy of the package, first on the import path
    source: Path
    #: the fork's working directory and temporary files
    scratch: Path
    #: the workspace itself, where the fork's error output goes (``stderr.txt``)
    root: Path


class WarmParent:
    """One warm parent process, serving one job's mutants one at a time."""

    def __init__(self, env: dict[str, str], cwd: Path) -> None:
        self._env = env
        self._cwd = cwd
        self._process: subprocess.Popen[str] | None = None
        self.broken = False

    def _start(self) -> subprocess.Popen[str] | None:
        if self._process is not None and self._process.poll() is None:
            return self._process
        if self.broken:
            return None
        process = subprocess.Popen(
            [sys.executable, *SERVER_COMMAND],
            cwd=self._cwd,
            env=self._env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,  # out of the terminal's Ctrl-C, as the spawned runs are
        )
        ready = _read_line(process, _START_TIMEOUT_S)
        if ready is None or ready.get("ready") is not True:
            _stop(process)
            self.broken = True
            return None
        self._process = process
        return process

    def run(
        self, space: ForkPlace, argv: list[str], timeout: float, reach: Path | None = None
    ) -> tuple[int | None, bool] | None:
        """Run ``rttool argv`` in a fork with ``space``'s copy first on the import path
        (and write the map of which rules' cases run each line to ``reach``, if given).

        Returns (exit code, whether it timed out), or ``None`` when the parent could not
        run it (the caller then runs the mutant in a fresh process)."""
        process = self._start()
        if process is None or process.stdin is None:
            return None
        request = {
            "source": str(space.source),
            "scratch": str(space.scratch),
            "stderr": str(space.root / "stderr.txt"),
            "argv": argv,
            "timeout": timeout,
            **({"reach": str(reach)} if reach is not None else {}),
        }
        try:
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
        except OSError:
            self.close()
            return None
        reply = _read_line(process, timeout + _REPLY_GRACE_S)
        code, timed_out = (reply or {}).get("exit_code"), (reply or {}).get("timed_out")
        if reply is None or not isinstance(timed_out, bool):
            self.close()  # the next mutant starts a new parent
            return None
        return (code if isinstance(code, int) else None), timed_out

    def close(self) -> None:
        """End the parent (its standard input closes, and it exits)."""
        if self._process is not None:
            _stop(self._process)
            self._process = None


class WarmPool:
    """A warm parent per job thread, started on the thread's first mutant."""

    def __init__(self, env: dict[str, str], cwd: Path) -> None:
        self._env = env
        self._cwd = cwd
        self._local = threading.local()
        self._all: list[WarmParent] = []
        self._lock = threading.Lock()

    def parent(self) -> WarmParent:
        """This thread's parent."""
        found: WarmParent | None = getattr(self._local, "parent", None)
        if found is None:
            found = WarmParent(self._env, self._cwd)
            self._local.parent = found
            with self._lock:
                self._all.append(found)
        return found

    def close(self) -> None:
        """End every parent."""
        with self._lock:
            for parent in self._all:
                parent.close()
            self._all.clear()


def _read_line(process: subprocess.Popen[str], timeout: float) -> dict[str, object] | None:
    """The next JSON line the parent writes within ``timeout`` seconds, else ``None``."""
    if process.stdout is None:
        return None
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    if not ready:
        return None
    line = process.stdout.readline(_MAX_REPLY_CHARS)
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _stop(process: subprocess.Popen[str]) -> None:
    with contextlib.suppress(OSError):
        if process.stdin is not None:
            process.stdin.close()
    try:
        process.wait(timeout=_REPLY_GRACE_S)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, 9)
        process.wait()
    if process.stdout is not None:
        process.stdout.close()
