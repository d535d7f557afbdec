"""No worker outlives the run: ``rttool run -n 2`` and ``rttool selftest``, stopped by a
Ctrl-C (SIGINT to the whole process group, as a terminal sends it) or by SIGTERM (to
rttool alone, as a CI job is cancelled), leave no process behind; and SIGTERM's exit
code is the one the docs give."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance._workers import Shared, in_workers
from conformance.stopping import StopSignals

ROOT = Path(__file__).resolve().parents[2]


def _table() -> dict[str, int]:
    return {}


def _signals(table: dict[str, int], item: int) -> tuple[bool, bool]:
    del table, item
    return (
        signal.getsignal(signal.SIGINT) is signal.default_int_handler,
        signal.getsignal(signal.SIGTERM) is signal.SIG_DFL,
    )


def test_a_worker_leaves_stopping_to_the_process_that_started_it() -> None:
    """A forked worker does not inherit the run's stop handler (which would turn its
    parent's SIGTERM into an exception its pool catches, the worker living on): both
    signals have their defaults, and SIGTERM ends it."""
    with StopSignals():
        found = list(in_workers(_signals, [1, 2], Shared(_table), workers=2))
    assert found == [(True, True), (True, True)]


def test_the_docs_give_sigterms_exit_code() -> None:
    """143 for SIGTERM, 129 for SIGHUP, 130 for Ctrl-C: the code and every page that says
    so agree."""
    stopped = StopSignals()
    stopped.received = signal.SIGTERM
    assert stopped.exit_code == 143
    stopped.received = signal.SIGHUP
    assert stopped.exit_code == 129
    assert StopSignals().exit_code == 130
    running = " ".join((ROOT / "docs" / "running-the-suite.md").read_text("utf-8").split())
    assert "130 (143 where SIGTERM stopped it, 129 where SIGHUP did)" in running
    assert "**143** it was stopped by SIGTERM" in running and "**129** by SIGHUP" in running
    ci = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    assert "A cancelled job (SIGTERM) ends the run as Ctrl-C does, with exit 143" in ci
    assert "(exit 130)" not in ci


def _alive_in_group(group: int) -> list[int]:
    """The processes of process group ``group`` that have not ended (zombies excluded)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text(encoding="utf-8")
        except OSError:
            continue
        state, _, pgrp = stat[stat.rindex(")") + 2 :].split()[:3]
        if int(pgrp) == group and state not in ("Z", "X"):
            alive.append(int(entry.name))
    return alive


def _stopped_with_workers(argv: list[str], cwd: Path, stop: signal.Signals, to_group: bool):  # type: ignore[no-untyped-def]
    """Start ``argv`` in a session of its own, wait until it has two workers besides
    itself, stop it, and return (its exit code, the processes of its group still alive,
    its error output)."""
    environ = {**os.environ, "PYTHONHASHSEED": "0"}
    # Error output to a file: a worker left behind holding a pipe would keep a reader
    # of it waiting.
    errors = cwd / "stderr.txt"
    with errors.open("wb") as written:
        child = subprocess.Popen(
            argv,
            cwd=cwd,
            env=environ,
            stdout=subprocess.DEVNULL,
            stderr=written,
            start_new_session=True,
        )
    try:
        guard = time.monotonic() + 240  # not a measurement: only against a run never started
        while len(_alive_in_group(child.pid)) < 3 and child.poll() is None:
            if time.monotonic() > guard:
                pytest.fail("the run never had two workers")
            time.sleep(0.1)
        assert child.poll() is None, "the run ended before it could be stopped"
        time.sleep(1)  # the workers busy with their cases
        if to_group:
            os.killpg(child.pid, stop)
        else:
            child.send_signal(stop)
        child.wait(timeout=240)
        return child.returncode, _alive_in_group(child.pid), errors.read_text(encoding="utf-8")
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
        for pid in _alive_in_group(child.pid):
            os.kill(pid, signal.SIGKILL)


_STOPS = [(signal.SIGINT, True, 130), (signal.SIGTERM, False, 143)]


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(("stop", "to_group", "code"), _STOPS, ids=["ctrl-c", "sigterm"])
def test_an_interrupted_run_in_two_workers_leaves_no_process(
    tmp_path: Path, stop: signal.Signals, to_group: bool, code: int
) -> None:
    argv = [sys.executable, "-m", "conformance.cli", "run", "-n", "2", "-q"]
    argv += ["--only", "RT-TOOL-10", "--hunt-seconds", "300", "--report-dir", "out"]
    ended, alive, err = _stopped_with_workers(argv, tmp_path, stop, to_group)
    assert (ended, alive) == (code, []), err
    assert (tmp_path / "out" / "standing.json").is_file()


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(("stop", "to_group", "code"), _STOPS, ids=["ctrl-c", "sigterm"])
def test_an_interrupted_selftest_leaves_no_process(
    tmp_path: Path, stop: signal.Signals, to_group: bool, code: int
) -> None:
    argv = [sys.executable, "-m", "conformance.cli", "selftest", "--no-variants"]
    ended, alive, err = _stopped_with_workers(argv, tmp_path, stop, to_group)
    assert (ended, alive) == (code, []), err
    assert err.strip().endswith("rttool: interrupted")
