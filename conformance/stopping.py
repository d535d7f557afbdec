"""One stop path: SIGTERM, and SIGHUP (the terminal closed), stop a run exactly as SIGINT
(Ctrl-C) does.

Within :class:`StopSignals`, any of them raises ``KeyboardInterrupt`` in the main
thread, which the suite already treats as the one way to stop: the case in flight ends,
every case that did not run is an error, and the report is written whole.  The block
remembers which signal came, so the run exits as a shell reports that signal: 130 for
SIGINT, 143 for SIGTERM, 129 for SIGHUP.

Python runs a signal's handler wherever the main thread happens to be, and an exception
raised where the interpreter ignores exceptions (a garbage-collection callback, a
finaliser) is printed and dropped: the stop would be lost, and an hour-long hunt would
run on.  So the suite's loops also ask :func:`stop_requested` before each case and each
generated example, and stop there.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType, TracebackType

__all__ = ["StopSignals", "stop_requested"]

_STOPPING = (
    signal.SIGINT,
    signal.SIGTERM,
    *((signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ()),
)


class StopSignals:
    """A block in which SIGINT, SIGTERM and SIGHUP stop the run; :attr:`exit_code` is
    the code the run ends with once stopped."""

    def __init__(self) -> None:
        self.received: int | None = None
        self._saved: dict[int, object] = {}

    @property
    def exit_code(self) -> int:
        """128 plus the number of the signal that stopped the run (130 for a Ctrl-C,
        also when the interruption came another way)."""
        return 128 + (self.received or signal.SIGINT)

    def _stop(self, number: int, frame: FrameType | None) -> None:
        del frame
        if self.received is None:
            self.received = number
        raise KeyboardInterrupt

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for number in _STOPPING:
                self._saved[number] = signal.signal(number, self._stop)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        for number, handler in self._saved.items():
            signal.signal(number, handler)  # type: ignore[arg-type]
        self._saved.clear()


def stop_requested() -> bool:
    """Whether a stop signal came within a :class:`StopSignals` block still open: the
    handler in place for SIGINT is that block's, and it has received one.  (The signal
    disposition is the process's own state, so nothing else has to carry the request.)"""
    handler = signal.getsignal(signal.SIGINT)
    block = getattr(handler, "__self__", None)
    return isinstance(block, StopSignals) and block.received is not None
