"""Stdio transport: ``stdio:COMMAND``, a harness process speaking JSON lines.

The command is split like a shell would (``shlex``) but run without a shell.  Each
request is one line of JSON on the process's stdin; its reply is the next line on its
stdout.  Lines that are blank (only whitespace) are ignored, so a stray ``print()`` or
CRLF line ends do no harm; any other line that is not a JSON object is an error.  The
process's stderr is read continuously into a bounded buffer, so a chatty harness never
blocks on it, and what it said last is attached to :class:`~adapters.errors.Crashed`.

One process serves every request and scenario.  When a request fails in a way that
leaves the stream in an unknown state (a timeout, a reply that is not JSON, a line
too long, the process exiting), the process is ended and the next request starts a
fresh one; so does a request that finds the process gone.  The process is started in
a process group of its own, and ending it ends the whole group, so a harness that
is a wrapper (``npm run``, ``sh -c``) leaves nothing behind.  POSIX only.
"""

from __future__ import annotations

import contextlib
import shlex
import signal
import sys
import threading
import time

from adapters._child import ChildGone, ChildProcess, EarlyReply, LineTooLong, NoAnswer
from adapters._messages import decode_reply, encode_request, excerpt
from adapters.errors import (
    BadJson,
    Crashed,
    ImplementationError,
    SpecError,
    TimedOut,
    Unreachable,
)
from adapters.protocol import Message

__all__ = ["MAX_LINE_BYTES", "STDERR_TAIL_BYTES", "StdioConnection"]

#: A reply line longer than this is refused; more than this is never held in memory.
MAX_LINE_BYTES = 32 * 1024 * 1024
#: How much of the harness's stderr is kept (the newest bytes).
STDERR_TAIL_BYTES = 64 * 1024
#: How long ``close`` lets the process exit on its own after ``bye`` and end of input.
_EXIT_GRACE = 2.0
#: ``bye`` at close is a courtesy; it never holds up the end of a run for long.
_BYE_TIMEOUT = 2.0
_BYE = encode_request({"cmd": "bye"}) + b"\n"


def _exit_details(code: int) -> dict[str, object]:
    if code < 0:
        try:
            return {"signal": signal.Signals(-code).name}
        except ValueError:
            return {"signal": -code}
    return {"exit_code": code}


class StdioConnection:
    """A connection to a harness process speaking JSON lines on stdin and stdout.

    ``timeout`` is the default time a request waits for its reply; a request's own
    ``timeout=`` replaces it.  The process is started by the first request.  Not
    meant for concurrent use; a lock keeps concurrent requests from interleaving.
    """

    def __init__(
        self,
        spec: str,
        command: str,
        *,
        timeout: float,
        max_line_bytes: int = MAX_LINE_BYTES,
        stderr_tail_bytes: int = STDERR_TAIL_BYTES,
    ) -> None:
        try:
            argv = shlex.split(command)
        except ValueError as err:
            raise SpecError("stdio command does not parse", spec=spec, reason=str(err)) from err
        if not argv:
            raise SpecError("stdio spec needs a command", spec=spec)
        if argv[0] in ("python", "python3"):
            # A bare interpreter name means the one running the suite, as inside an
            # activated virtual environment, whatever `python` is first on PATH.
            argv[0] = sys.executable
        self.spec = spec
        self.argv: tuple[str, ...] = tuple(argv)
        self._timeout = timeout
        self._max_line = max_line_bytes
        self._stderr_bytes = stderr_tail_bytes
        self._child: ChildProcess | None = None
        self._lock = threading.Lock()
        #: How many processes this connection has started (a restart adds one).
        self.starts = 0

    @property
    def pid(self) -> int | None:
        """The process id of the running harness process, if there is one."""
        return None if self._child is None else self._child.pid

    def request(self, message: Message, *, timeout: float | None = None) -> Message:
        """Write ``message`` as one line and read one reply line (raises an ImplementationError)."""
        payload = encode_request(message) + b"\n"
        limit = self._timeout if timeout is None else timeout
        where: dict[str, object] = {"impl": self.spec, "request": str(message.get("cmd"))}
        with self._lock:
            child = self._ready_child(where)
            try:
                line = child.exchange(payload, time.monotonic() + limit)
            except ChildGone as err:
                code = self._end_child()
                raise Crashed(
                    "harness process exited before answering",
                    **where,
                    **_exit_details(code),
                    stderr=child.stderr_text(),
                ) from err
            except NoAnswer as err:
                self._end_child()
                raise TimedOut(
                    "harness did not answer in time; its process was ended", **where, timeout=limit
                ) from err
            except LineTooLong as err:
                self._end_child()
                raise ImplementationError(
                    "reply too large; the harness process was ended", **where, limit=self._max_line
                ) from err
            except EarlyReply as err:
                self._end_child()
                raise ImplementationError(
                    "harness answered before reading the whole request",
                    **where,
                    start=excerpt(err.line),
                ) from err
            try:
                return decode_reply(line, impl=self.spec, request=where["request"])
            except BadJson:
                # Whatever it wrote next would be taken for the next reply: start afresh.
                self._end_child()
                raise

    def close(self) -> None:
        """Say ``bye``, close the process's input, let it exit; end it if it does not."""
        with self._lock:
            child, self._child = self._child, None
            if child is None:
                return
            # Closing must never fail a run; the process is ended below either way.
            with contextlib.suppress(ChildGone, NoAnswer, LineTooLong, EarlyReply):
                child.exchange(_BYE, time.monotonic() + min(self._timeout, _BYE_TIMEOUT))
            child.shutdown(grace=_EXIT_GRACE)

    def __enter__(self) -> StdioConnection:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _ready_child(self, where: dict[str, object]) -> ChildProcess:
        child = self._child
        if child is not None:
            try:
                stray = child.unsolicited()
            except (ChildGone, LineTooLong):
                # It died (or went mad) since its last reply: start a fresh one.
                self._end_child()
                child = None
            else:
                if stray is not None:
                    self._end_child()
                    raise ImplementationError(
                        "harness wrote a line nobody asked for; its process was ended",
                        **where,
                        start=excerpt(stray),
                    )
        if child is None:
            try:
                child = ChildProcess(
                    self.argv, max_line_bytes=self._max_line, stderr_tail_bytes=self._stderr_bytes
                )
            except OSError as err:
                raise Unreachable(
                    "cannot start the harness command",
                    impl=self.spec,
                    command=self.argv[0],
                    reason=str(err)[:200],
                ) from err
            self._child = child
            self.starts += 1
        return child

    def _end_child(self) -> int:
        child, self._child = self._child, None
        assert child is not None
        return child.kill()
