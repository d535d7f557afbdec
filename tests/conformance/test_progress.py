"""Long commands say how far they are, on standard error only: a live bar on a terminal,
plain lines in a log (or when ``CI`` is set), and never a word of it in a report or on
standard output."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from conformance import _progress
from conformance._progress import Progress
from conformance.cli import main


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_off_a_terminal_progress_is_a_plain_line_per_tenth_and_none_between() -> None:
    said = io.StringIO()
    with Progress("rttool run", 20, "cases", stream=said) as shown:
        for done in range(20):
            if done == 9:
                shown.tally("hunt: 150 examples")
            shown.advance(failed=done in (3, 4))
    lines = said.getvalue().splitlines()
    assert len(lines) == 10
    assert lines[0] == "rttool run: 2 of 20 cases done"
    assert lines[4] == "rttool run: 10 of 20 cases done, 2 failed; hunt: 150 examples"
    assert lines[-1] == "rttool run: 20 of 20 cases done, 2 failed; hunt: 150 examples"
    assert "\x1b" not in said.getvalue()


def test_an_unfinished_run_says_where_it_stopped() -> None:
    said = io.StringIO()
    with Progress("rttool selftest", 30, "mutants", stream=said) as shown:
        shown.advance()
    assert said.getvalue() == "rttool selftest: 1 of 30 mutants done\n"


def test_a_bar_is_drawn_only_on_a_terminal_and_never_under_ci(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr("sys.stdout", _Terminal())
    assert _progress.live(_Terminal())
    assert not _progress.live(io.StringIO())
    monkeypatch.setattr("sys.stdout", io.StringIO())
    assert not _progress.live(_Terminal())  # standard output goes to a file
    monkeypatch.setattr("sys.stdout", _Terminal())
    monkeypatch.setenv("CI", "true")
    assert not _progress.live(_Terminal())


def test_the_bar_says_the_count_and_the_failures() -> None:
    said = _Terminal()
    with Progress("rttool run", 4, "cases", stream=said, bar=True) as shown:
        shown.advance(failed=True, note="RT-TOOL-9#c4/x")
    drawn = said.getvalue()
    assert "1/4" in drawn and "1 failed" in drawn


def test_a_run_says_its_progress_on_standard_error_and_nowhere_else(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report_dir = tmp_path / "reports"
    args = ["run", "--impl", "reference", "--only", "RT-TOOL-1", "--no-hunt"]
    assert main([*args, "--report-dir", str(report_dir)]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert lines, captured.err
    assert all(line.startswith("rttool run: ") for line in lines), lines
    total = lines[-1].split(" of ")[1].split()[0]
    assert lines[-1] == f"rttool run: {total} of {total} cases done"
    assert "cases done" not in captured.out
    for path in report_dir.rglob("*"):
        if path.is_file():
            assert b"cases done" not in path.read_bytes(), path.name


def test_a_quiet_run_says_no_progress(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["run", "--impl", "reference", "--only", "RT-TOOL-1#c1", "--no-hunt", "-q"]
    assert main([*args, "--report-dir", str(tmp_path)]) == 0
    assert "cases done" not in capsys.readouterr().err


def test_the_selftest_says_its_progress_on_standard_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["selftest", "--only", "result-missing-error-key", "--no-variants"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "rttool selftest: 1 of 1 mutants and variants done\n"
    assert "done" not in captured.out.replace("killed", "")
