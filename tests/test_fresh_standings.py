"""The slow tests that read what the suite says of a published implementation share one
run of it per session (``tests/_standings.py``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conformance.publish import Checkout, Committed
from tests import _standings


def _counting(
    monkeypatch: pytest.MonkeyPatch, outcome: Exception | None = None
) -> list[tuple[str, Path]]:
    runs: list[tuple[str, Path]] = []

    def make_standing(
        entry: Committed, checkout: Checkout, folder: Path, *, quiet: bool
    ) -> subprocess.CompletedProcess[str]:
        runs.append((entry.name, folder))
        if outcome is not None:
            raise outcome
        return subprocess.CompletedProcess(["rttool"], 0, "", "")

    monkeypatch.setattr(_standings, "make_standing", make_standing)
    monkeypatch.setattr(_standings, "slow_only", lambda what: None)
    return runs


def test_each_implementation_is_run_once_however_many_tests_read_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    runs = _counting(monkeypatch)
    fresh = _standings.make_fresh_standings(tmp_path_factory)
    first, again, other = fresh("reference"), fresh("reference"), fresh("toy")
    assert [name for name, _ in runs] == ["reference", "toy"]
    assert first is again and first.folder == runs[0][1]
    assert other.folder != first.folder


def test_a_run_that_failed_fails_each_reader_without_running_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    runs = _counting(monkeypatch, subprocess.TimeoutExpired(["rttool"], 900))
    fresh = _standings.make_fresh_standings(tmp_path_factory)
    for _ in range(2):
        with pytest.raises(subprocess.TimeoutExpired):
            fresh("reference")
    assert len(runs) == 1


def test_the_whole_suite_run_is_refused_in_a_fast_test(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    fresh = _standings.make_fresh_standings(tmp_path_factory)
    with pytest.raises(pytest.fail.Exception, match="runs only in a test marked"):
        fresh("reference")
