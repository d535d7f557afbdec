"""The self-test's workers: forked from a warm process where that is safe, spawned where
not, and their results in the order of the work either way."""

from __future__ import annotations

import os
import threading

import pytest

from conformance import _workers
from conformance._workers import Shared, in_workers, start_method


def _table() -> dict[str, int]:
    """What a spawned worker builds for itself."""
    return {"a": 1, "b": 2, "c": 3}


def _look_up(table: dict[str, int], key: str) -> tuple[str, int, int]:
    return key, table[key], os.getpid()


def test_forked_workers_inherit_what_this_process_holds() -> None:
    # A value no worker could build (nor be sent: a lambda does not pickle).
    held = {"a": 10, "b": 20, "c": 30, "ignored": (lambda: None)}
    assert start_method() == "fork"
    found = list(in_workers(_look_up, ["c", "a", "b"], Shared(_table, held), workers=2))
    assert [(key, value) for key, value, _ in found] == [("c", 30), ("a", 10), ("b", 20)]
    assert os.getpid() not in {pid for _, _, pid in found}


def test_spawned_workers_build_what_they_need(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_workers, "start_method", lambda: "spawn")
    held = {"a": 10, "b": 20, "c": 30, "ignored": (lambda: None)}
    found = list(in_workers(_look_up, ["b", "c"], Shared(_table, held), workers=2))
    assert [(key, value) for key, value, _ in found] == [("b", 2), ("c", 3)]


def test_one_worker_runs_everything_here() -> None:
    found = list(in_workers(_look_up, ["a", "b"], Shared(_table), workers=1))
    assert found == [("a", 1, os.getpid()), ("b", 2, os.getpid())]


def test_no_fork_while_another_thread_runs() -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert start_method() == "spawn"
    finally:
        stop.set()
        other.join()
    assert start_method() == "fork"


def _sleep_or_say(table: dict[str, int], key: str) -> tuple[str, int]:
    if key == "slow":
        import time

        time.sleep(60)
    return key, os.getpid()


def test_leaving_a_pool_early_ends_every_worker() -> None:
    import multiprocessing

    from conformance._workers import WorkerPool

    with WorkerPool(_sleep_or_say, Shared(_table), workers=2) as pool:
        for _, future in pool.completed(["slow", "quick"]):
            assert future.result()[0] == "quick"  # the slow one is still running
            break
    assert multiprocessing.active_children() == []


def test_a_pool_hands_back_results_as_they_are_ready() -> None:
    from conformance._workers import WorkerPool

    with WorkerPool(_look_up, Shared(_table), workers=2) as pool:
        found = {index: future.result()[:2] for index, future in pool.completed(["a", "c"])}
    assert found == {0: ("a", 1), 1: ("c", 3)}


def test_a_pool_left_leaves_no_thread_behind_so_the_next_one_forks() -> None:
    """The self-test's variants start their pool right after the mutants' pool: were the
    first pool's thread still running, the second would spawn its workers and load the
    suite again in each."""
    found = list(in_workers(_look_up, ["a", "b"], Shared(_table), workers=2))
    assert [key for key, _, _ in found] == ["a", "b"]
    assert threading.active_count() == 1
    assert start_method() == "fork"


_ORPHAN_SCRIPT = """
import os, sys, time
from conformance._workers import Shared, in_workers

def _table():
    return {}

def _pid_then_sleep(shared, item):
    # One write per line: with PYTHONUNBUFFERED a print is two writes, and the two
    # workers' digits and newlines could interleave.
    os.write(1, f"{os.getpid()}\\n".encode())
    time.sleep(120)
    return item

for _ in in_workers(_pid_then_sleep, ["a", "b"], Shared(_table), workers=2):
    pass
"""


def test_workers_end_with_a_parent_killed_outright() -> None:
    """SIGKILL leaves a parent no time to end its workers: the kernel ends them (Linux)."""
    import signal
    import subprocess
    import sys
    import time

    if not sys.platform.startswith("linux"):
        pytest.skip("the parent-death signal is Linux's")
    parent = subprocess.Popen(
        [sys.executable, "-c", _ORPHAN_SCRIPT], stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    try:
        workers = [int(parent.stdout.readline()), int(parent.stdout.readline())]
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=30)
        parent.stdout.close()
    deadline = time.monotonic() + 30
    alive = workers
    while alive and time.monotonic() < deadline:
        alive = [pid for pid in workers if _running(pid)]
        time.sleep(0.1)
    assert alive == [], f"workers outlived their killed parent: {alive}"


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie awaiting its reaper is not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
