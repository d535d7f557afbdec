"""What a run's or a merge's report directory may hold, and what the swap keeps.

The swap replaces the report's own entries and nothing else: an entry of a report name
that is not what a report writes there (a folder where a file goes, a FIFO, a link) is
refused in one line before anything runs, the current directory is never a report
directory, a FIFO left where the staging directory goes is removed without being opened,
the old folder's permission bits survive, and a reader that goes away never changes a
command's exit code.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conformance.cli._report_dir import staging_for, swap_in
from tests.conformance._support import rttool

RUN = ("run", "--only", "RT-TOOL-1#c1", "--no-hunt", "-q")


@pytest.mark.parametrize(
    "plant",
    ["folder-for-a-file", "fifo-for-a-file", "link-for-a-file", "link-for-a-folder"],
)
def test_an_entry_the_report_would_replace_wrongly_is_refused(tmp_path: Path, plant: str) -> None:
    target = tmp_path / "reports"
    target.mkdir()
    kept = target / "report.html"
    if plant == "folder-for-a-file":
        kept.mkdir()
        (kept / "mine.txt").write_text("keep", "utf-8")
    elif plant == "fifo-for-a-file":
        os.mkfifo(kept)
    elif plant == "link-for-a-file":
        (tmp_path / "elsewhere.html").write_text("keep", "utf-8")
        kept.symlink_to(tmp_path / "elsewhere.html")
    else:
        (tmp_path / "mine").mkdir()
        (tmp_path / "mine" / "precious").write_text("keep", "utf-8")
        kept = target / "evidence"
        kept.symlink_to(tmp_path / "mine")
    done = rttool(*RUN, "--report-dir", str(target), cwd=tmp_path, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert os.path.lexists(kept)
    assert not (target / "standing.json").exists()
    if plant == "folder-for-a-file":
        assert (kept / "mine.txt").read_text("utf-8") == "keep"
    if plant == "link-for-a-folder":
        assert (tmp_path / "mine" / "precious").read_text("utf-8") == "keep"


@pytest.mark.parametrize("plant", ["file-for-the-folder", "fifo-for-a-file"])
def test_a_refused_report_directory_starts_no_implementation(tmp_path: Path, plant: str) -> None:
    """The report directory given is refused before an implementation over stdio is
    started: a harness is not started (nor its model paid for) for a run that cannot
    write its report."""
    marker = tmp_path / "started"
    harness = tmp_path / "harness.py"
    harness.write_text(f"open({str(marker)!r}, 'w').close()\n", "utf-8")
    target = tmp_path / "reports"
    if plant == "file-for-the-folder":
        target.write_text("not a folder", "utf-8")
    else:
        target.mkdir()
        os.mkfifo(target / "standing.json")
    impl = f"stdio:{sys.executable} {harness}"
    done = rttool(*RUN, "--impl", impl, "--report-dir", str(target), cwd=tmp_path, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "cannot use the report directory" in done.stderr
    assert not marker.exists(), "the implementation was started"


@pytest.mark.parametrize("given", ["", "."])
def test_the_current_directory_is_never_a_report_directory(tmp_path: Path, given: str) -> None:
    (tmp_path / "evidence").mkdir()
    (tmp_path / "evidence" / "fixture.json").write_text("{}", "utf-8")
    done = rttool(*RUN, "--report-dir", given, cwd=tmp_path, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "current directory" in done.stderr
    assert (tmp_path / "evidence" / "fixture.json").read_text("utf-8") == "{}"


def test_a_fifo_where_the_staging_directory_goes_is_removed_unopened(tmp_path: Path) -> None:
    target = tmp_path / "reports"
    os.mkfifo(tmp_path / ".reports.rttool-next")
    made: list[Path] = []
    # Opening the FIFO would block for ever: the call runs aside, and must end.
    worker = threading.Thread(target=lambda: made.append(staging_for(target)), daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "staging_for blocked on the FIFO"
    assert made and made[0].is_dir() and not stat.S_ISFIFO(os.lstat(made[0]).st_mode)


def test_the_swapped_in_folder_keeps_the_old_ones_permissions(tmp_path: Path) -> None:
    target = tmp_path / "reports"
    target.mkdir()
    os.chmod(target, 0o700)
    staging = staging_for(target)
    (staging / "standing.json").write_text("{}", "utf-8")
    swap_in(staging, target)
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o700


def test_a_reader_gone_away_keeps_a_failing_commands_exit_code(tmp_path: Path) -> None:
    """``rttool report gate FAILING | true``: the gate still fails."""
    target = tmp_path / "reports"
    done = rttool(
        "run",
        "--mutant",
        "result-missing-error-key",
        *RUN[1:],
        "--report-dir",
        str(target),
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    gate = subprocess.Popen(
        [sys.executable, "-m", "conformance.cli", "report", "gate", str(target / "standing.json")],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert gate.stdout is not None
    gate.stdout.close()  # the reader goes away before a line is read
    _, errors = gate.communicate(timeout=120)
    assert gate.returncode == 1, errors
    assert b"Traceback" not in errors


def test_a_run_starts_from_a_copy_of_the_example_database(tmp_path: Path) -> None:
    target = tmp_path / "reports"
    (target / ".hypothesis" / "key").mkdir(parents=True)
    (target / ".hypothesis" / "key" / "one").write_bytes(b"old")
    staging = staging_for(target)
    # the run's hunt starts from a copy of what earlier runs saved, and saves there
    assert (staging / ".hypothesis" / "key" / "one").read_bytes() == b"old"
    (staging / ".hypothesis" / "key" / "two").write_bytes(b"new")
    (staging / "standing.json").write_text("{}", "utf-8")
    swap_in(staging, target)
    assert sorted(p.name for p in (target / ".hypothesis" / "key").iterdir()) == ["one", "two"]


def test_a_database_nested_past_its_depth_is_not_walked(tmp_path: Path) -> None:
    target = tmp_path / "reports"
    deep = target / ".hypothesis"
    for _ in range(60):  # deep enough to show the walk stops; a test tree cleans up
        deep = deep / "a"
    os.makedirs(deep)
    (deep / "leaf").write_bytes(b"x")
    (target / ".hypothesis" / "key").mkdir()
    (target / ".hypothesis" / "key" / "one").write_bytes(b"kept")
    staging = staging_for(target)
    assert not any((staging / ".hypothesis").rglob("leaf"))
    assert (staging / ".hypothesis" / "key" / "one").read_bytes() == b"kept"


def test_a_run_without_the_hunt_keeps_the_example_database(tmp_path: Path) -> None:
    target = tmp_path / "reports"
    (target / ".hypothesis" / "key").mkdir(parents=True)
    (target / ".hypothesis" / "key" / "example").write_bytes(b"kept")
    staging = staging_for(target)
    (staging / "standing.json").write_text("{}", "utf-8")
    swap_in(staging, target)
    assert (target / ".hypothesis" / "key" / "example").read_bytes() == b"kept"


def test_links_in_the_example_database_are_never_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "f").write_bytes(b"theirs")
    target = tmp_path / "reports"
    (target / ".hypothesis").mkdir(parents=True)
    (target / ".hypothesis" / "x").symlink_to(outside)
    (target / ".hypothesis" / "y").symlink_to(outside / "f")
    staging = staging_for(target)
    (staging / "standing.json").write_text("{}", "utf-8")
    swap_in(staging, target)
    assert sorted(p.name for p in outside.iterdir()) == ["f"]
    assert (outside / "f").read_bytes() == b"theirs"
    assert not (staging.exists() and any(staging.rglob("f")))
