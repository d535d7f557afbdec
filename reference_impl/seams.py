"""Seams for testing: make a write-back fail, cut a run at a named point, fail a ledger read,
say how many clients wait on the runtime together.

Nothing is armed in production, and every seam is then a no-op.  The adapter harness
arms them on a scenario's instructions; nothing else does.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

__all__ = [
    "POINTS",
    "RESUMABLE",
    "Arm",
    "Interruption",
    "ProcessKilled",
    "Seams",
    "WriteBackFailed",
    "waiters_together",
    "waiting_together",
]

#: Causes after which a run resumes on its own (the guide: soft timeout, gateway timeout,
#: resumable transport error).
RESUMABLE = frozenset({"time_limit", "gateway_timeout", "transport_error"})
POINTS = (
    "during_model_call",
    "before_tool_body",
    "after_tool_body",
    "after_tool_done",
    "during_write_back",
)


class Interruption(Exception):
    """A run was cut off at ``point`` by ``cause`` (a time limit, a dropped connection...)."""

    def __init__(self, cause: str, point: str) -> None:
        super().__init__(f"run cut off: cause={cause} point={point}")
        self.cause = cause
        self.point = point


class ProcessKilled(BaseException):
    """The process dies here.  A ``BaseException`` so that no ``except Exception`` handler
    can tidy up after it; open transactions roll back as they would on a real kill."""


class WriteBackFailed(Exception):
    """A write-back failed after taking the held list (armed by a test)."""


@dataclass
class Arm:
    """One armed interruption."""

    point: str
    cause: str
    tool: str | None = None
    remaining: int = 1


class Seams:
    """The armed seams of one runtime (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._arms: list[Arm] = []
        self._failing_write_backs = 0
        self._failing_ledger_reads = 0

    def arm(self, point: str, cause: str, tool: str | None = None, occurrence: int = 1) -> None:
        """Cut the run that reaches ``point`` (for ``tool``, when given) for the
        ``occurrence``-th time from now."""
        if point not in POINTS:
            raise ValueError(f"unknown interruption point {point!r}")
        with self._lock:
            self._arms.append(Arm(point, cause, tool, occurrence))

    def fail_write_backs(self, count: int) -> None:
        """Make the next ``count`` write-backs fail after their take."""
        with self._lock:
            self._failing_write_backs += count

    def fail_ledger_reads(self, count: int) -> None:
        """Make the next ``count`` ledger reads fail."""
        with self._lock:
            self._failing_ledger_reads += count

    def checkpoint(self, point: str, tool: str | None = None) -> None:
        """Raise the first armed interruption matching ``point``/``tool``, if any."""
        fired: Arm | None = None
        with self._lock:
            for arm in [a for a in self._arms if a.point == point and a.tool in (None, tool)]:
                arm.remaining -= 1
                if arm.remaining <= 0 and fired is None:
                    fired = arm
            if fired is None:
                return
            self._arms.remove(fired)
            arm = fired
        if arm.cause == "crash":
            raise ProcessKilled(point)
        raise Interruption(arm.cause, point)

    def write_back(self) -> None:
        """Raise :class:`WriteBackFailed` when a failure is armed."""
        with self._lock:
            if self._failing_write_backs <= 0:
                return
            self._failing_write_backs -= 1
        raise WriteBackFailed("write-back failed (armed)")

    def ledger_read(self) -> None:
        """Raise ``OSError`` when a ledger read failure is armed."""
        with self._lock:
            if self._failing_ledger_reads <= 0:
                return
            self._failing_ledger_reads -= 1
        raise OSError("ledger read failed (armed)")


# How many clients the current thread waits on the runtime together with (itself
# included): set by the harness around a scenario's ``Wait(clients=N)``, 1 elsewhere.
_TOGETHER = threading.local()


@contextmanager
def waiting_together(count: int) -> Iterator[None]:
    """Within the block, this thread is one of ``count`` clients waiting on the runtime
    at once.  Nothing in the runtime reads it; a mutant that races two waiters
    (``reference_impl/mutants/_continuation.py``) holds each until all have looked, so
    its race shows however slowly a busy machine schedules the second."""
    _TOGETHER.count = count
    try:
        yield
    finally:
        _TOGETHER.count = 1


def waiters_together() -> int:
    """How many clients this thread waits on the runtime together with (1: alone)."""
    count: int = getattr(_TOGETHER, "count", 1)
    return count
