"""What the hunt relies on of hypothesis beyond its public API
(``conformance/hunt/_hypothesis.py``) works with the hypothesis installed: a count of
shrinks bounds shrinking, and so does a time bound; the hunt sets its count on the
engine; a seeded search still reads the shared example database.

A reproducible search's counterexample, and so every committed standing, depends on the
count: run this file before raising the bound on ``hypothesis`` in ``pyproject.toml``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest
from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis import strategies as st
from hypothesis.database import InMemoryExampleDatabase
from hypothesis.internal.conjecture import engine

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.hunt import Budget, hunt
from conformance.hunt._hypothesis import (
    COUNTED_GUARD_SECONDS,
    SHRINK_BOUNDS,
    shrinking_bounded,
    with_database,
)
from conformance.toolkit import invariant
from tests.conformance._support import reference_driver

#: Every value from here on fails: shrinking a large one to it takes many shrinks, each
#: a smaller failing value.
LEAST_FAILING = 1000


def _shrunk(seconds: float, shrinks: int | None) -> tuple[int, int]:
    """A seeded search failing on every value of :data:`LEAST_FAILING` or more, its
    shrinking bounded as the hunt bounds it: how many shrinks succeeded (each failing
    value smaller than every one before it), and the value it reported."""
    failing: list[int] = []

    @seed(7)
    @settings(
        max_examples=100,
        database=None,
        deadline=None,
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        phases=(Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
    )
    @given(st.integers(min_value=0, max_value=2**40))
    def search(value: int) -> None:
        if value >= LEAST_FAILING:
            failing.append(value)
            raise AssertionError(value)

    with shrinking_bounded(seconds, shrinks), pytest.raises(AssertionError):
        search()
    smaller = sum(1 for i in range(1, len(failing)) if failing[i] < min(failing[:i]))
    return smaller, min(failing)


def test_the_engine_keeps_the_bounds_the_hunt_sets() -> None:
    """Where a bound is gone, the hunt leaves it to hypothesis and stays silent: this is
    where its loss is noticed."""
    assert all(isinstance(getattr(engine, name, None), int | float) for name in SHRINK_BOUNDS)


@pytest.mark.parametrize("shrinks", [1, 3])
def test_a_count_of_shrinks_stops_shrinking_at_it(shrinks: int) -> None:
    """At most that many smaller values, and never the least (hypothesis counts the
    shrinks of its own choice sequence, which some releases make without changing the
    value: 6.170 makes exactly ``shrinks`` smaller values, 6.100 one fewer)."""
    succeeded, reported = _shrunk(60.0, shrinks)
    assert succeeded <= shrinks
    assert reported > LEAST_FAILING


def test_without_a_count_the_same_search_shrinks_to_the_least_failing_value() -> None:
    """The count above is what stopped it: unbounded, the same search goes on."""
    succeeded, reported = _shrunk(60.0, None)
    assert succeeded > 3 and reported == LEAST_FAILING


def test_a_search_given_no_time_to_shrink_hardly_starts() -> None:
    """The time bound (the hunt's where it counts no shrinks) is the engine's too: with
    none at all, shrinking stops at its first attempt, whatever the machine."""
    assert _shrunk(0.0, None)[0] <= 1


def test_the_bounds_are_the_engines_own_again_after_a_search() -> None:
    before = [getattr(engine, name) for name in SHRINK_BOUNDS]
    with shrinking_bounded(4.0, 5):
        assert engine.MAX_SHRINKS == 5
        assert engine.MAX_SHRINKING_SECONDS == COUNTED_GUARD_SECONDS
    with shrinking_bounded(4.0, None):
        assert before[0] == engine.MAX_SHRINKS
        assert engine.MAX_SHRINKING_SECONDS == 4.0
    assert [getattr(engine, name) for name in SHRINK_BOUNDS] == before


def test_a_hunt_sets_its_count_of_shrinks_on_the_engine() -> None:
    """The hunt's own search runs under its budget's count (seen from inside an
    invariant), and leaves the engine as it found it."""
    seen: list[int] = []

    def judge(made: Scenario, trace: Trace, handshake: Handshake) -> str | None:
        seen.append(engine.MAX_SHRINKS)
        return None

    def exercised(made: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return True

    watching = invariant("watching", ("RT-TOOL-1#c1",), judge, "any", exercised)
    before = engine.MAX_SHRINKS
    driver = reference_driver()
    budget = Budget(seed=3, limit=5, seconds=600, shrinks=7)
    hunt(driver, driver.handshake(), [watching], budget)
    assert seen and set(seen) == {7}
    assert before == engine.MAX_SHRINKS


class _Counting(InMemoryExampleDatabase):
    """A database that counts the keys hypothesis looks up in it."""

    def __init__(self) -> None:
        super().__init__()
        self.fetched = 0

    def fetch(self, key: bytes) -> Iterable[bytes]:
        self.fetched += 1
        return super().fetch(key)


def _seeded(database: _Counting) -> Callable[[], None]:
    @settings(database=database, max_examples=5, phases=(Phase.reuse, Phase.generate))
    @given(st.integers())
    def passes(value: int) -> None:
        pass

    return seed(1)(passes)


def test_a_seeded_search_reads_the_shared_database_once_given_it_again() -> None:
    """Hypothesis's seed turns the database off (the first run reads nothing);
    :func:`with_database` sets it again, as the hunt does for ``--example-db``."""
    alone, given_again = _Counting(), _Counting()
    _seeded(alone)()
    with_database(_seeded(given_again), given_again)()
    assert alone.fetched == 0
    assert given_again.fetched > 0
