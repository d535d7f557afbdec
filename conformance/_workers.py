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

import contextlib
import functools
import multiprocessing
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from types import TracebackType
from typing import Any, Generic, TypeVar, cast

__all__ = ["Shared", "WorkerPool", "in_workers", "start_method"]

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


#: How long a worker asked to end (SIGTERM) is waited for before it is killed.
_TERMINATE_WAIT_S = 5.0

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
    # A worker is ended by the process that started it: SIGTERM, whose default is to end
    # the process at once.  A forked worker would inherit the run's stop handler, turn
    # that SIGTERM into an exception its pool catches and hands back, and live on; so
    # both signals get their defaults back (a Ctrl-C, which reaches the whole process
    # group, ends the worker's case as it would anywhere, and the parent ends the
    # worker).  Not ignored: what a worker starts (a stdio harness) would inherit that.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    _end_with_the_parent()
    _WORKER_SHARED[:] = [shared.get() if forked else shared.prepare()]


def _end_with_the_parent() -> None:
    """Have the kernel end this worker when the process that started it dies, however it
    dies (a SIGKILL leaves it no time to end its workers).  Linux only (``prctl``); where
    it is not offered, the parent's own ending of its workers is all there is."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)


def _call(task: Callable[[object, object], object], item: object) -> object:
    return task(_WORKER_SHARED[0], item)


def in_workers(
    task: Callable[[S, T], R], items: Sequence[T], shared: Shared[S], *, workers: int = 2
) -> Iterator[R]:
    """``task(shared value, item)`` for every item, ``workers`` at a time, yielded in the
    order of ``items`` as each is ready.  With one worker or one item, everything runs
    in this process.  ``task`` and the items and results must be picklable; the shared
    value need not be where the workers are forked.  The workers are a
    :class:`WorkerPool`'s: however the iteration ends (its last result, a caller that
    stops early, an interruption), none outlives it."""
    if workers <= 1 or len(items) <= 1:
        value = shared.get()
        for item in items:
            yield task(value, item)
        return
    ready: dict[int, R] = {}
    following = 0
    with WorkerPool(task, shared, workers=min(workers, len(items))) as pool:
        for index, future in pool.completed(items):
            ready[index] = future.result()
            while following in ready:
                yield ready.pop(following)
                following += 1


class WorkerPool(Generic[S, T, R]):
    """``task(shared value, item)`` in ``workers`` processes (forked or spawned as
    :func:`in_workers` does), each result handed back as soon as it is ready.

    Use it as a context manager: leaving the block, however it is left (the caller
    stopped early, an interruption), cancels what has not started and ends every worker
    at once, so that no worker outlives the work it was started for.
    """

    def __init__(self, task: Callable[[S, T], R], shared: Shared[S], *, workers: int = 2) -> None:
        self._task = task
        self._shared = shared
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._before: set[int] = set()

    def __enter__(self) -> WorkerPool[S, T, R]:
        self._before = {child.pid or 0 for child in multiprocessing.active_children()}
        method = start_method()
        forked = method == "fork"
        if forked:
            self._shared.get()
            sys.stdout.flush()
            sys.stderr.flush()
        adopt = functools.partial(
            _adopt, self._shared if forked else Shared(self._shared.prepare), forked
        )
        self._pool = ProcessPoolExecutor(
            max_workers=self._workers,
            mp_context=multiprocessing.get_context(method),
            initializer=adopt,
        )
        return self

    def completed(self, items: Sequence[T]) -> Iterator[tuple[int, Future[R]]]:
        """``(index of the item, its finished future)`` for every item, as each finishes;
        a future's ``result()`` raises what the task raised (a worker that died raises
        :class:`concurrent.futures.process.BrokenProcessPool`)."""
        assert self._pool is not None, "use the pool as a context manager"
        pending: dict[Future[R], int] = {}
        for index, item in enumerate(items):
            submitted = self._pool.submit(_call, self._task, item)  # type: ignore[arg-type]
            pending[cast("Future[R]", submitted)] = index
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=pending.__getitem__):
                yield pending.pop(future), future

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # What is running is not waited for: every worker is ended first (a worker still
        # busy when the block is left too), then the pool, whose own thread ends on
        # seeing its workers gone and is waited for, so that the next pool may fork
        # again (a fork is refused while another thread runs).
        processes = [
            child
            for child in multiprocessing.active_children()
            if (child.pid or 0) not in self._before
        ]
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=_TERMINATE_WAIT_S)
            if process.is_alive():  # it would not end: it is killed, never left behind
                process.kill()
                process.join()
        pool.shutdown(wait=True, cancel_futures=True)
