"""What the hunt relies on of hypothesis beyond its public API, in one place.

A reproducible search (CI, the self-test, the committed standings) must shrink to the
same counterexample on any machine, so it bounds shrinking by a count rather than by
time; and a seeded search given a shared example database must still use it.
Hypothesis offers neither as a setting:

* the shrink bounds are module constants of its engine
  (``hypothesis.internal.conjecture.engine``: ``MAX_SHRINKS``, a count of successful
  shrinks, and ``MAX_SHRINKING_SECONDS``), set by :func:`shrinking_bounded` for one
  search and restored after;
* ``@seed`` turns a test's database off; :func:`with_database` sets it again on the
  settings hypothesis keeps on the test (``_hypothesis_internal_use_settings``).

Either can change in any release.  The ``hypothesis`` requirement in ``pyproject.toml``
is bounded to the versions tested; before raising the bound, run
``tests/conformance/test_hunt_hypothesis.py``, which fails where either stops working.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hypothesis.database import ExampleDatabase

__all__ = ["COUNTED_GUARD_SECONDS", "SHRINK_BOUNDS", "shrinking_bounded", "with_database"]

#: A search bounded by a count (of examples, of shrinks) is reproducible only if time
#: never cuts it first: its time bounds are then at least this long, a guard against an
#: implementation that never finishes (each request has its own timeout besides), never
#: a budget a slow implementation on a busy machine could run out of.
COUNTED_GUARD_SECONDS = 1800.0
#: The constants of hypothesis's engine that :func:`shrinking_bounded` sets.
SHRINK_BOUNDS = ("MAX_SHRINKS", "MAX_SHRINKING_SECONDS")


@contextmanager
def shrinking_bounded(seconds: float, shrinks: int | None) -> Iterator[None]:
    """Bound how long hypothesis shrinks, for this search only: by time, or, where
    ``shrinks`` is given, by a count of shrinks (with a time bound of at least
    :data:`COUNTED_GUARD_SECONDS`, only against a shrink that never ends), which makes the
    result the same however busy the machine is.

    Hypothesis keeps both bounds in module constants of its engine; they are set here
    and restored after.  Should a later hypothesis drop one, that bound is simply its
    own again (the version bound and the test named above keep that from passing
    unnoticed).
    """
    from hypothesis.internal.conjecture import engine

    guard = max(seconds * 10, COUNTED_GUARD_SECONDS)
    wanted = {"MAX_SHRINKING_SECONDS": seconds if shrinks is None else guard}
    if shrinks is not None:
        wanted["MAX_SHRINKS"] = shrinks
    previous = {name: getattr(engine, name) for name in wanted if hasattr(engine, name)}
    for name in previous:
        setattr(engine, name, wanted[name])
    try:
        yield
    finally:
        for name, value in previous.items():
            setattr(engine, name, value)


def with_database(test: Callable[[], None], database: ExampleDatabase) -> Callable[[], None]:
    """``test``, seeded, with ``database`` as its example database again (hypothesis's
    ``@seed`` turns the database off; a shared one was asked for)."""
    from hypothesis import settings

    chosen = getattr(test, "_hypothesis_internal_use_settings")  # noqa: B009
    setattr(test, "_hypothesis_internal_use_settings", settings(chosen, database=database))  # noqa: B010
    return test
