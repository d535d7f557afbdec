"""A run whose terminal goes away keeps its verdict.

What ``rttool run`` says as it goes (a line per rule, the progress, the table at the end)
is a courtesy: a standard output or standard error that is closed (``>&-``), full
(``>/dev/full``) or whose reader went away never decides the exit code or the report.
Each such run leaves the report and the exit code of the same run with ``-q``.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from conformance._progress import Progress
from conformance._terminal import say
from conformance.cli._output import Output, emit
from tests.conformance._support import ROOT


class _Full(io.StringIO):
    """A stream whose device is full: every flush fails, as ``/dev/full`` does."""

    def flush(self) -> None:
        raise OSError(28, "No space left on device")


class _Closed(io.StringIO):
    def write(self, text: str) -> int:
        raise ValueError("I/O operation on closed file.")


@pytest.mark.parametrize("stream", [_Full(), _Closed(), None])
def test_saying_to_a_stream_that_is_gone_is_dropped_not_raised(stream: io.StringIO | None) -> None:
    assert say(stream, "rttool: RT-TOOL-1 conforms\n") is False


def test_saying_to_a_stream_that_works_writes_it() -> None:
    stream = io.StringIO()
    assert say(stream, "line\n") is True
    assert stream.getvalue() == "line\n"


@pytest.mark.parametrize("stream", [_Full(), _Closed()])
def test_progress_on_a_lost_stream_never_raises(stream: io.StringIO) -> None:
    with Progress("rttool run", 3, "cases", stream=stream, bar=False) as shown:
        for _ in range(3):
            shown.advance(failed=True)


class _HungUp(io.StringIO):
    """A terminal that hung up: it still says it is one, and every write fails."""

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(5, "Input/output error")


@pytest.mark.parametrize("hangs_up_after", [0, 1])
def test_a_bar_whose_terminal_hangs_up_ends_and_gives_standard_output_back(
    monkeypatch: pytest.MonkeyPatch, hangs_up_after: int
) -> None:
    monkeypatch.setattr("sys.stdout", io.StringIO())
    before = sys.stdout
    stream = _HungUp() if hangs_up_after == 0 else io.StringIO()
    with Progress("rttool run", 3, "cases", stream=stream, bar=True) as shown:
        monkeypatch.setattr(stream, "write", _HungUp().write)  # it hangs up now
        for _ in range(3):
            shown.advance(failed=True)
            shown.note("RT-TOOL-1#c1")
    assert sys.stdout is before


def test_a_courtesy_emit_to_lost_streams_never_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdout", _Full())
    monkeypatch.setattr("sys.stderr", _Closed())
    emit(Output("the table\n", "rttool: warning: a problem\n"), courtesy=True)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize(
    ("redirect", "said"),
    [(">/dev/full", "No space left on device"), (">&-", "standard output is closed")],
)
def test_a_command_whose_output_cannot_be_written_says_so_in_one_line(
    redirect: str, said: str
) -> None:
    """Where the output is the product (a listing), a full device or a standard output
    closed at the start is an error: one line, exit 2, never a traceback nor the
    interpreter's exit code 120, nor exit 0 with the listing lost."""
    argv = [sys.executable, "-m", "conformance.cli", "rules", "list"]
    done = subprocess.run(
        ["sh", "-c", f'exec "$@" {redirect}', "sh", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [f"rttool: error: cannot write the output: {said}"]


#: how the run's terminal goes away, as a shell writes it
LOST = {
    "stdout-closed": ">&-",
    "stderr-closed": "2>&-",
    "stdout-full": ">/dev/full",
    "stderr-full": "2>/dev/full",
}


def _run(report_dir: Path, *, redirect: str = "", quiet: bool = False) -> int:
    argv = [sys.executable, "-m", "conformance.cli", "run", "--no-hunt", "--reproducible"]
    argv += ["--report-dir", str(report_dir), *(["-q"] if quiet else [])]
    # The redirection is the shell's: a closed descriptor is what the process starts with.
    script = f'exec "$@" {redirect}'
    done = subprocess.run(
        ["sh", "-c", script, "sh", *argv],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=900,
        check=False,
    )
    return done.returncode


def _report(report_dir: Path) -> dict[str, bytes]:
    """The report's timeless files (``--reproducible``), and the names of every format."""
    names = ("standing.json", "STANDING.md", "badge.json")
    return {name: (report_dir / name).read_bytes() for name in names} | {
        "formats": ",".join(sorted(p.name for p in report_dir.iterdir())).encode()
    }


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_lost_terminal_leaves_the_report_and_exit_code_of_a_quiet_run(tmp_path: Path) -> None:
    quiet = _run(tmp_path / "quiet", quiet=True)
    expected = _report(tmp_path / "quiet")
    for name, redirect in LOST.items():
        code = _run(tmp_path / name, redirect=redirect)
        assert code == quiet, f"{name}: exit {code}, a quiet run {quiet}"
        assert (tmp_path / name / "report.html").is_file(), name
        assert _report(tmp_path / name) == expected, f"{name}: another report"
