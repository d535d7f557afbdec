"""Running the self-test's mutants and variants side by side, in warm worker processes.

Each mutant and each legal variant is judged on its own, against a runtime built
afresh, so they can run in parallel.  A worker started from scratch would import the
suite and the reference runtime and load the corpus and every case again: seconds each,
for every worker.  So where the platform can ``fork``, the workers are forked from the
process that has already done all that, and inherit what it holds (the cases, which are
functions and closures and could not be sent to a worker anyway).  Where it cannot, or
where forking would be unsafe (another thread is running), each worker is spawned and
builds what it needs itself with ``prepare``, the way a fresh process would.
"""

from __future__ import annotations

import functools
import multiprocessing
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import BaseContext
from typing import Any, Generic, TypeVar, cast

__all__ = ["Shared", "in_workers", "start_method"]

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")


class Shared(Generic[S]):
    """What every task needs: ``value`` when the caller already holds it (a forked worker
    inherits it), and ``prepare``, a picklable function that builds it in a fresh
    process."""

    def __init__(self, prepare: Callable[[], S], value: S | None = None) -> None:
        self.prepare = prepare
        self.value = value

    def get(self) -> S:
        """The value, built on first use when it was not given."""
        if self.value is None:
            self.value = self.prepare()
        return self.value


# The worker's copy of what its tasks share: set once by the pool's initializer, in the
# worker process only (the parent never sets it).
_WORKER_SHARED: list[object] = []


def start_method() -> str:
    """``fork`` where the platform offers it and no other thread is running (a fork
    copies only the calling thread, and a lock another one held would stay locked),
    else ``spawn``."""
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _adopt(shared: Shared[Any], forked: bool) -> None:
    _WORKER_SHARED[:] = [shared.get() if forked else shared.prepare()]


def _call(task: Callable[[object, object], object], item: object) -> object:
    return task(_WORKER_SHARED[0], item)


def in_workers(
    task: Callable[[S, T], R], items: Sequence[T], shared: Shared[S], *, workers: int = 2
) -> Iterator[R]:
    """``task(shared value, item)`` for every item, ``workers`` at a time, yielded in the
    order of ``items`` as each is ready.  With one worker or one item, everything runs
    in this process.  ``task`` and the items and results must be picklable; the shared
    value need not be where the workers are forked."""
    if workers <= 1 or len(items) <= 1:
        value = shared.get()
        for item in items:
            yield task(value, item)
        return
    method = start_method()
    context: BaseContext = multiprocessing.get_context(method)
    forked = method == "fork"
    if forked:
        shared.get()  # built once, here, and inherited by every worker
        # What this process has buffered but not written would be written again by each
        # worker as it exits.
        sys.stdout.flush()
        sys.stderr.flush()
    # A spawned worker is sent only how to build the shared value: the value itself may
    # hold what cannot be pickled.
    adopt = functools.partial(_adopt, shared if forked else Shared(shared.prepare), forked)
    calls: list[Callable[[object, object], object]] = [task] * len(items)  # type: ignore[list-item]
    with ProcessPoolExecutor(
        max_workers=min(workers, len(items)), mp_context=context, initializer=adopt
    ) as pool:
        for result in pool.map(_call, calls, items):
            yield cast(R, result)
