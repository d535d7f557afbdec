"""Property-based hunting: hypothesis searches an implementation for double delivery,
lost artifacts, leaks, repeated side effects and misreported work, and shrinks what it
finds.

* :mod:`conformance.hunt.strategies` — public strategies for scenarios;
* :func:`hunt` — the search itself: every generated example held to every invariant it
  is given (each rule declares its own in ``conformance/checks/<rule>/invariants.py``;
  the engine gathers them in the hunt's order and makes one case of each, all sharing
  one search per process: ``conformance/engine/``);
* :func:`open_database` — the shared example database (``--example-db``), its keys
  scoped by :func:`example_scope`, its time by :func:`store_seconds`.

A verdict never exceeds its evidence: an invariant that no generated example exercised
is untested, never passed, and a passing hunt never makes a clause conform on its own
(only a hand-written check or an example vector does; see the report model).
"""

from __future__ import annotations

from adapters.codec import to_json
from adapters.scenario import Scenario
from conformance.hunt._charged import breached
from conformance.hunt._database import LOSSES, example_scope, open_database, store_seconds
from conformance.hunt._search import Budget, Finding, HuntOutcome, Tally, hunt

__all__ = [
    "LOSSES",
    "Budget",
    "Finding",
    "HuntOutcome",
    "Tally",
    "breached",
    "example_scope",
    "hunt",
    "open_database",
    "share",
    "steps_summary",
    "store_seconds",
]


def steps_summary(scenario: Scenario) -> str:
    """The scenario's steps on one line: ``start_turn(t1) -> fail_write_back -> ...``."""
    parts = []
    for step in scenario.steps:
        described = to_json(step)
        assert isinstance(described, dict)
        args = [str(v) for k, v in described.items() if k in ("turn", "point", "cause")]
        parts.append(f"{step.op}({', '.join(args)})" if args else step.op)
    return " -> ".join(parts)


def share(examples: int, batch: int, shard: tuple[int, int]) -> int:
    """How many of a search's ``examples`` fall in the batches of ``shard`` (K, N): the
    batches are numbered from 0, ``batch`` examples each (the last one what is left), and
    shard K takes those numbered K-1 modulo N.  The shares of the N shards add up to
    ``examples``."""
    index, count = shard
    batches = -(-examples // batch)
    return sum(
        min(batch, examples - number * batch)
        for number in range(batches)
        if number % count == index - 1
    )
