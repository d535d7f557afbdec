"""One harness process for the stdio transport: start it, trade lines under a deadline, end it.

Reading and writing go through one ``selectors`` loop over the process's pipes, so a
deadline holds whatever the process does (stops reading, stops writing, writes
forever) and nothing busy-waits.  Standard error is drained by a thread into a bounded
tail.  POSIX only: the process gets a session (and so a process group) of its own, and
ending it signals the whole group.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Sequence
from typing import IO

__all__ = ["ChildGone", "ChildProcess", "EarlyReply", "LineTooLong", "NoAnswer"]

_CHUNK = 64 * 1024
_TERM_GRACE = 1.0
_STDERR_JOIN = 2.0
_POLL = 0.01


class ChildGone(Exception):
    """The process's stdout reached its end: it exited (or closed it) without answering."""


class NoAnswer(Exception):
    """The deadline passed before a whole reply line arrived."""


class LineTooLong(Exception):
    """A line grew past the limit; reading stopped there."""


class EarlyReply(Exception):
    """A reply line arrived before the request was completely written."""

    def __init__(self, line: bytes) -> None:
        super().__init__("reply before the whole request was read")
        self.line = line


class _StderrTail:
    """Drains a pipe on a thread, keeping only its newest ``limit`` bytes (or a little more).

    The thread owns the pipe and closes it at end of file, so nothing can close it
    under a read in progress.
    """

    def __init__(self, pipe: IO[bytes], limit: int) -> None:
        self._pipe = pipe
        self._limit = limit
        self._chunks: deque[bytes] = deque()
        self._size = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, name="rttool-stderr", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        try:
            fd = self._pipe.fileno()
            while chunk := os.read(fd, _CHUNK):
                with self._lock:
                    self._chunks.append(chunk)
                    self._size += len(chunk)
                    while self._size - len(self._chunks[0]) >= self._limit:
                        self._size -= len(self._chunks.popleft())
        except OSError:
            pass  # the pipe broke: there is nothing more to read
        finally:
            self._pipe.close()

    def text(self) -> str:
        """The newest bytes read so far, decoded leniently."""
        with self._lock:
            data = b"".join(self._chunks)
        return data[-self._limit :].decode("utf-8", errors="replace")

    def join(self, timeout: float) -> None:
        """Wait for the end of the pipe (the process and its group have exited)."""
        self._thread.join(timeout)


class ChildProcess:
    """A started harness process and what it has written but nobody has read yet."""

    def __init__(self, argv: Sequence[str], *, max_line_bytes: int, stderr_tail_bytes: int) -> None:
        # argv is the user's own --impl command, run without a shell.
        self._proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            start_new_session=True,
        )
        stdin, stdout, stderr = self._proc.stdin, self._proc.stdout, self._proc.stderr
        assert stdin is not None and stdout is not None and stderr is not None
        self._stdin, self._stdout = stdin, stdout
        self._in, self._out = stdin.fileno(), stdout.fileno()
        # A process that stops reading must not block a write past the deadline.
        os.set_blocking(self._in, False)
        self._stderr = _StderrTail(stderr, stderr_tail_bytes)
        self._max_line = max_line_bytes
        self._lines: deque[bytes] = deque()  # complete non-blank lines nobody has taken yet
        # The start of the line being read, as read: joined only once it is complete and
        # known to fit, so a line past the limit is never held whole.
        self._partial: list[bytes] = []
        self._partial_size = 0

    @property
    def pid(self) -> int:
        """The process id."""
        return self._proc.pid

    def stderr_text(self) -> str:
        """What the process last wrote on stderr (complete once it has been ended)."""
        return self._stderr.text()

    def exchange(self, payload: bytes, deadline: float) -> bytes:
        """Write ``payload``, then return the next non-blank line (without its newline)."""
        pending = memoryview(payload)
        with selectors.DefaultSelector() as selector:
            selector.register(self._out, selectors.EVENT_READ)
            if pending:
                selector.register(self._in, selectors.EVENT_WRITE)
            while True:
                line = self._take_line()
                if line is not None:
                    if pending:
                        raise EarlyReply(line)
                    return line
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise NoAnswer
                for key, _events in selector.select(remaining):
                    if key.fd == self._in:
                        pending = self._write_some(pending)
                        if not pending:
                            selector.unregister(self._in)
                    elif not self._read_some():
                        raise ChildGone

    def unsolicited(self) -> bytes | None:
        """The start of any non-blank output that arrived since the last reply, without
        waiting; raises :class:`ChildGone` when the process has exited in the meantime."""
        budget = self._max_line  # a process writing blank lines forever cannot hold us here
        with selectors.DefaultSelector() as selector:
            selector.register(self._out, selectors.EVENT_READ)
            while not self._lines and budget > 0 and selector.select(0):
                read = self._read_some()
                if not read:
                    raise ChildGone
                budget -= read
        if self._lines:
            return self._lines[0][:1024]
        start = b"".join(self._partial)[:1024]
        return start if start.strip() else None

    def kill(self) -> int:
        """End the process and its group at once; returns the exit status."""
        self._signal_group(signal.SIGKILL)
        return self._reap()

    def shutdown(self, *, grace: float) -> int:
        """Close the process's input and let it exit; terminate, then kill, if it does not."""
        with contextlib.suppress(OSError):
            self._stdin.close()
        if not self._exited_within(grace):
            self._signal_group(signal.SIGTERM)
            self._exited_within(_TERM_GRACE)
        # Also ends anything the process left behind in its group.
        self._signal_group(signal.SIGKILL)
        return self._reap()

    def _take_line(self) -> bytes | None:
        return self._lines.popleft() if self._lines else None

    def _write_some(self, pending: memoryview) -> memoryview:
        try:
            written = os.write(self._in, pending[:_CHUNK])
        except BlockingIOError:
            return pending
        except BrokenPipeError:
            return pending[len(pending) :]  # it stopped reading; its stdout will say why
        return pending[written:]

    def _read_some(self) -> int:
        """Read what is there (the caller knows it will not block); 0 at end of file."""
        chunk = os.read(self._out, _CHUNK)
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            piece = chunk[start:end]
            if self._partial_size + len(piece) > self._max_line:
                raise LineTooLong
            line = b"".join([*self._partial, piece]) if self._partial else piece
            self._partial.clear()
            self._partial_size = 0
            if line.strip():  # blank lines are ignored
                self._lines.append(line)
            start = end + 1
        if start < len(chunk):
            self._partial.append(chunk[start:])
            self._partial_size += len(chunk) - start
            if self._partial_size > self._max_line:
                raise LineTooLong
        return len(chunk)

    def _exited_within(self, seconds: float) -> bool:
        # Wait without reaping: while the process is unreaped its id (and so its group's
        # id) cannot be reused, so signalling the group afterwards reaches only ours.
        deadline = time.monotonic() + seconds
        while True:
            try:
                state = os.waitid(os.P_PID, self._proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return True
            if state is not None or time.monotonic() >= deadline:
                return state is not None
            time.sleep(_POLL)

    def _signal_group(self, sig: signal.Signals) -> None:
        if self._proc.returncode is not None:
            return  # already reaped: the group id may belong to someone else by now
        try:
            os.killpg(self._proc.pid, sig)
        except OSError:
            with contextlib.suppress(OSError):
                self._proc.send_signal(sig)

    def _reap(self) -> int:
        code = self._proc.wait()
        for pipe in (self._stdin, self._stdout):
            with contextlib.suppress(OSError):
                pipe.close()
        self._stderr.join(_STDERR_JOIN)
        return code
