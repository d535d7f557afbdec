"""One stop path: SIGTERM stops a run exactly as SIGINT (Ctrl-C) does.

Within :class:`StopSignals`, either signal raises ``KeyboardInterrupt`` in the main
thread, which the suite already treats as the one way to stop: the case in flight ends,
every case that did not run is an error, and the report is written whole.  The block
remembers which signal came, so the run exits as a shell reports that signal: 130 for
SIGINT, 143 for SIGTERM.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType, TracebackType

__all__ = ["StopSignals"]

_STOPPING = (signal.SIGINT, signal.SIGTERM)


class StopSignals:
    """A block in which SIGINT and SIGTERM both stop the run; :attr:`exit_code` is the
    code the run ends with once stopped."""

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
