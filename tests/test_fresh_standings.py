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
    # This session's workers are not the ones whose claims these tests are about.
    monkeypatch.setattr(_standings, "claim_run", lambda shared, name, worker: None)
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


def test_a_second_worker_making_the_same_standing_is_refused(tmp_path: Path) -> None:
    """Two workers of one session each making the same run means the group was split:
    the second one fails, naming the first, rather than run the whole suite again."""
    _standings.claim_run(tmp_path, "langgraph", "gw0")
    _standings.claim_run(tmp_path, "adk", "gw1")  # another standing: its own claim
    with pytest.raises(RuntimeError, match="already made by worker gw0: its tests were split"):
        _standings.claim_run(tmp_path, "langgraph", "gw1")


@pytest.mark.slow  # starts two pytest workers
def test_loadgroup_keeps_a_group_on_one_worker(pytester: pytest.Pytester) -> None:
    """The slow tier's scheduling keeps what it promises: every test of one group runs on
    one worker (a pytest-xdist that loses its groups would spread them)."""
    pytester.makepyfile(
        test_grouped="""
        import pytest

        @pytest.mark.xdist_group("one")
        @pytest.mark.parametrize("i", range(8))
        def test_in_the_group(i):
            pass
        """
    )
    ran = pytester.runpytest_subprocess("-n", "2", "--dist", "loadgroup", "-v", "-p", "xdist")
    ran.assert_outcomes(passed=8)
    # Each result line of a verbose run names its worker: "[gw0] ... PASSED test_..."
    workers = {line.split()[0] for line in ran.outlines if "PASSED test_grouped" in line}
    assert len(workers) == 1 and workers <= {"[gw0]", "[gw1]"}, workers
