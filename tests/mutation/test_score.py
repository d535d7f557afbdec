"""The score's arithmetic and the timing figures."""

from __future__ import annotations

import pytest

from mutation._execute import Outcome, Status
from mutation._score import Score, score, timing, wilson_interval


def _outcomes(*statuses: Status, seconds: float = 2.0) -> list[Outcome]:
    return [Outcome(f"id{n}", status, None, seconds, "") for n, status in enumerate(statuses)]


def test_crashes_and_timeouts_count_as_killed_invalid_counts_nowhere() -> None:
    result = score(
        _outcomes(
            Status.KILLED,
            Status.KILLED,
            Status.CRASHED,
            Status.TIMEOUT,
            Status.SURVIVED,
            Status.INVALID,
        )
    )
    assert result == Score(killed=2, crashed=1, timeout=1, survived=1, invalid=1)
    assert (result.detected, result.run) == (4, 5)
    assert result.ratio == pytest.approx(0.8)


def test_nothing_run_has_no_ratio() -> None:
    result = score(_outcomes(Status.INVALID))
    assert (result.run, result.ratio, result.interval()) == (0, None, None)


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [(0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (45, 50, 0.7864, 0.9565)],
)
def test_wilson_interval(successes: int, trials: int, low: float, high: float) -> None:
    assert wilson_interval(successes, trials) == pytest.approx((low, high), abs=1e-4)


def test_an_interval_needs_trials() -> None:
    with pytest.raises(ValueError):
        wilson_interval(0, 0)


def test_timing_leaves_out_mutants_that_never_ran() -> None:
    ran = _outcomes(Status.KILLED, Status.SURVIVED, Status.KILLED, seconds=3.0)
    never = _outcomes(Status.INVALID, Status.INVALID, seconds=0.0)
    figures = timing([*ran, *never], total_s=20.04, baseline_s=2.5, jobs=2)
    assert (figures.median_s, figures.max_s, figures.total_s, figures.jobs) == (3.0, 3.0, 20.0, 2)
    assert timing([], 1.0, 1.0, 1).median_s is None


def test_conforming_variants_count_in_the_score_and_not_in_the_rule_ratio() -> None:
    outcomes = _outcomes(Status.KILLED, Status.SURVIVED, Status.SURVIVED, Status.KILLED)
    result = score(outcomes, conforming={"id2", "id3"})
    assert (result.conforming, result.conforming_killed) == (2, 1)
    assert result.ratio == pytest.approx(0.5)
    assert result.rule_ratio == pytest.approx(0.5)  # "id0" killed, "id1" survived
    assert score(outcomes[:1], conforming={"id0"}).rule_ratio is None


def test_mutants_only_the_hunt_killed_are_counted() -> None:
    outcomes = [
        Outcome("a", Status.KILLED, 1, 1.0, "", hunt_only=True),
        Outcome("b", Status.KILLED, 1, 1.0, ""),
        Outcome("c", Status.SURVIVED, 0, 1.0, ""),
    ]
    assert score(outcomes).hunt_only == 1
