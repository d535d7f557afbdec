"""A sample of what the hunt generates, drawn with a fixed seed.

The hunt draws new scenarios on every run (a fixed sequence with ``CI=true``), so no
list can hold them all; a sample shows their shape.  Each sample is held, in a run, to
every invariant the handshake allows: those invariants' clauses are the sample's.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from adapters.codec import to_json
from adapters.handshake import Handshake
from adapters.scenario import Scenario

__all__ = ["DEFAULT_SAMPLES", "DEFAULT_SEED", "hunt_clauses", "hunt_samples"]

DEFAULT_SAMPLES = 10
DEFAULT_SEED = 0
_STORAGE = "HYPOTHESIS_STORAGE_DIRECTORY"


def hunt_clauses(handshake: Handshake) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The clauses a hunt scenario serves for ``handshake``, and the observations the
    invariants behind them need."""
    from conformance.engine import load_suite

    applying = [
        invariant
        for invariant in load_suite().invariants
        if invariant.not_applicable(handshake) is None
        and all(getattr(handshake.capabilities, n, False) is True for n in invariant.needs)
    ]
    clauses = tuple(dict.fromkeys(c for invariant in applying for c in invariant.clauses))
    observes = tuple(dict.fromkeys(n for invariant in applying for n in invariant.needs))
    return clauses, observes


@contextmanager
def _scratch_storage() -> Iterator[None]:
    """Hypothesis caches what it learns in a directory, by default ``.hypothesis`` in the
    working directory: listing scenarios writes nothing there.  A directory the user
    chose (``HYPOTHESIS_STORAGE_DIRECTORY``) is left alone."""
    if os.environ.get(_STORAGE):
        yield
        return
    from hypothesis.configuration import set_hypothesis_home_dir

    with tempfile.TemporaryDirectory(prefix="rttool-hunt-sample-") as scratch:
        set_hypothesis_home_dir(scratch)
        try:
            yield
        finally:
            set_hypothesis_home_dir(None)  # decided again, as before, on next use


def hunt_samples(handshake: Handshake, count: int, seed: int) -> list[Scenario]:
    """Up to ``count`` distinct scenarios the hunt's strategy draws for ``handshake`` with
    ``seed`` (the same ones every time for one version of hypothesis)."""
    if count < 1:
        return []
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as fixed_seed

    from conformance.hunt.strategies import scenarios

    drawn: dict[str, Scenario] = {}

    @fixed_seed(seed)
    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=(Phase.generate,),
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
    )
    @given(scenarios(handshake))
    def draw(scenario: Scenario) -> None:
        # Repeats are dropped: a sample of distinct shapes says more.
        drawn.setdefault(json.dumps(to_json(scenario), sort_keys=True), scenario)

    with _scratch_storage():
        draw()
    kept = list(drawn.values())[:count]
    return [
        replace(scenario, id=f"hunt-sample-{number:02d}") for number, scenario in enumerate(kept, 1)
    ]
