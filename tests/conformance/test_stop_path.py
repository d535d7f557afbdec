"""One stop path, and a report directory that changes in one step.

SIGINT and SIGTERM stop ``rttool run`` the same way (the cases in flight end, the report
is written whole, exit 130 or 143); the new report is built beside the old one and
swapped in, so a kill at any instant leaves one complete report: the old or the new.
An unwritable ``$GITHUB_STEP_SUMMARY`` is a warning, never a change of the exit code.
"""

from __future__ import annotations

import gc
import json
import os
import random
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance.cli import _report_dir
from conformance.cli._report_dir import REPORT_NAMES, staging_for, swap_in
from conformance.engine import load_suite
from conformance.hunt import Budget, hunt
from conformance.stopping import StopSignals, stop_requested
from tests.conformance._support import reference_driver, rttool

INVARIANTS = load_suite().invariants

RUN = ("run", "--no-hunt", "-q")


def _report(directory: Path, marker: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "standing.json").write_text(json.dumps({"marker": marker}), "utf-8")
    (directory / "report.html").write_text(marker, "utf-8")


@pytest.mark.parametrize("can_exchange", [True, False])
def test_a_swap_replaces_the_report_and_keeps_what_is_not_the_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, can_exchange: bool
) -> None:
    if not can_exchange:
        monkeypatch.setattr(_report_dir, "exchange", lambda first, second: False)
    target = tmp_path / "reports"
    _report(target, "old")
    (target / "junit.xml").write_text("old", "utf-8")  # the new report has none
    (target / "notes.txt").write_text("mine", "utf-8")
    staging = staging_for(target)
    _report(staging, "new")
    swap_in(staging, target)
    assert sorted(p.name for p in target.iterdir()) == ["notes.txt", "report.html", "standing.json"]
    assert (target / "report.html").read_text("utf-8") == "new"
    assert (target / "notes.txt").read_text("utf-8") == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports"]


def test_what_a_swap_killed_halfway_left_is_carried_and_cleared(tmp_path: Path) -> None:
    target = tmp_path / "reports"
    _report(target, "new")
    left = tmp_path / ".reports.rttool-next"  # the old report, swapped out, not yet cleared
    _report(left, "old")
    (left / "notes.txt").write_text("mine", "utf-8")
    staging_for(target)
    assert (target / "notes.txt").read_text("utf-8") == "mine"
    assert (target / "report.html").read_text("utf-8") == "new"
    assert not any(left.iterdir())


def test_a_report_renamed_aside_by_a_killed_swap_comes_back(tmp_path: Path) -> None:
    target = tmp_path / "reports"
    _report(tmp_path / ".reports.rttool-old", "old")
    staging_for(target)
    assert (target / "report.html").read_text("utf-8") == "old"


def test_every_name_a_run_writes_is_a_report_name(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = rttool(*RUN, "--only", "RT-TOOL-1", "--report-dir", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert {p.name for p in out.iterdir()} <= REPORT_NAMES
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_both_signals_stop_the_block_alike(number: int) -> None:
    before = signal.getsignal(number)
    with StopSignals() as stop, pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), number)
        time.sleep(5)  # the handler raises at once; the sleep is never waited out
    assert stop.exit_code == 128 + number
    assert signal.getsignal(number) == before


def test_a_stop_dropped_on_its_way_still_stops_the_hunt(monkeypatch: pytest.MonkeyPatch) -> None:
    # A signal whose handler runs inside a garbage-collection callback (hypothesis keeps
    # one) raises where Python drops exceptions: the hunt must stop at its next example
    # all the same, not search on for the rest of its hour.
    dropped: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda raised: dropped.append(raised.exc_value))

    def collecting(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # the handler runs here, and its raise is dropped
                pass

    driver = reference_driver()
    with StopSignals() as stop:
        gc.callbacks.append(collecting)
        try:
            gc.collect()
        finally:
            gc.callbacks.remove(collecting)
        assert [type(raised) for raised in dropped] == [KeyboardInterrupt]
        assert stop_requested()
        outcome = hunt(driver, driver.handshake(), INVARIANTS, Budget(examples=5, seconds=5))
    assert outcome.interrupted and outcome.examples == 0
    assert stop.exit_code == 143
    assert not stop_requested()  # the block is closed: its request is over


def test_an_unwritable_step_summary_keeps_a_failing_runs_exit_code(tmp_path: Path) -> None:
    args = ("--mutant", "result-missing-error-key", "--only", "RT-TOOL-1")
    env = {"GITHUB_STEP_SUMMARY": str(tmp_path)}  # a directory: cannot be appended to
    done = rttool(*RUN, *args, "--report-dir", str(tmp_path / "out"), cwd=tmp_path, env=env)
    assert done.returncode == 1, done.stderr
    assert "warning" in done.stderr and "GITHUB_STEP_SUMMARY" in done.stderr
    assert "Traceback" not in done.stderr


def _complete(out: Path) -> str:
    """The run a complete report in ``out`` belongs to (its start time), after checking
    that every format says the same run."""
    standing = json.loads((out / "standing.json").read_text("utf-8"))
    started = standing["run"]["started_at"]
    suites = ET.parse(out / "junit.xml").getroot()
    assert {s.get("timestamp") for s in suites.iter("testsuite")} == {started}
    assert started in (out / "report.html").read_text("utf-8")
    assert started in (out / "earl.jsonld").read_text("utf-8")
    badge = json.loads((out / "badge.json").read_text("utf-8"))
    family = next(f for f in standing["summary"]["families"] if f["family"] == "RT-TOOL")
    assert badge["message"] == f"{family['conforming']}/{family['applicable']}"
    return str(started)


def _start(out: Path, only: tuple[str, ...]) -> subprocess.Popen[str]:
    selection = [arg for rule in only for arg in ("--only", rule)]
    command = [sys.executable, "-m", "conformance.cli", "run", "--no-hunt", *selection]
    return subprocess.Popen(
        [*command, "--report-dir", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


@pytest.mark.slow
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_ends_the_run_with_its_report_whole(tmp_path: Path, number: int) -> None:
    out = tmp_path / "out"
    child = _start(out, ("RT-TOOL-1", "RT-TOOL-2", "RT-TOOL-3", "DR-1", "DR-2", "DR-5"))
    assert child.stdout is not None
    first = child.stdout.readline()  # the first rule's line: cases are running
    assert first, child.communicate()[1]
    child.send_signal(number)
    _, err = child.communicate(timeout=300)
    assert child.returncode == 128 + number, err
    assert "interrupted" in err and "Traceback" not in err
    _complete(out)
    standing = json.loads((out / "standing.json").read_text("utf-8"))
    assert standing["summary"]["rules"]["error"] >= 1  # the cases that did not run


@pytest.mark.slow
def test_a_kill_at_any_instant_leaves_one_complete_report(tmp_path: Path) -> None:
    """SIGKILL at random instants (seeded): every time, the report directory holds the
    previous complete report or the new one, never a mix and never none."""
    out = tmp_path / "out"
    selections = (("RT-TOOL-1",), ("RT-TOOL-1", "RT-TOOL-2"))
    began = time.monotonic()
    first = _start(out, selections[0])
    first.communicate(timeout=300)
    assert first.returncode == 0
    span = time.monotonic() - began  # how long a run lasts here: the kills fall inside it
    seen = {_complete(out)}
    draw = random.Random(22)
    kills = 0
    for attempt in range(24):
        child = _start(out, selections[attempt % 2])
        if attempt % 6 != 5:  # every sixth run finishes: its report must replace the old
            time.sleep(draw.uniform(0.0, span))
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
                kills += 1
        child.communicate(timeout=300)
        seen.add(_complete(out))
        leftovers = {p.name for p in tmp_path.iterdir()} - {"out", ".out.rttool-next"}
        assert not leftovers
    print(f"kill loop: 24 runs, {kills} killed, {len(seen)} reports seen, every one complete")
    assert kills, "no run was killed before it ended"
    assert len(seen) >= 5  # the first report and the four that finished
