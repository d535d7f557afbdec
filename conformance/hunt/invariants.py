"""The invariants the hunt holds every generated scenario to, in the order it holds them.

Each invariant is declared in the ``invariants`` module of its rule's package
(``conformance/checks/<rule>/invariants.py``; the type is
:class:`conformance.toolkit.Invariant`), bound to the clauses it judges and to the
situation those clauses speak of.  A failure lands on the clauses of the invariant that
caught it.

The search holds each example to the invariants in the order of :data:`ORDER` and
reports the first that fails, so an invariant that names a cause comes before those that
only see its effect: artifacts moved under `metadata` are also "lost" from the messages'
toolArtifacts, and the turn result no longer aggregates them, but the finding belongs to
no-metadata-leak.  The hunt's cases are reported in the same order.
"""

from __future__ import annotations

from adapters.errors import SuiteError
from conformance.checks import rule_modules
from conformance.toolkit import Invariant

__all__ = ["INVARIANTS", "ORDER"]

#: Every invariant's name, in the order the search judges them.
ORDER: tuple[str, ...] = (
    # artifacts: where they go, how often, and what never sees them
    "no-metadata-leak",
    "no-loss",
    "no-loss-across-pause",
    "no-loss-after-failed-write-back",
    "no-double-delivery",
    "held-off-wire",
    "no-prose-leak",
    "shape-and-pairing",
    "held-first",
    "held-within-bound",
    "isolation",
    "aggregation",
    "payload-within-bound",
    "empty-type-refused",
    "late-artifacts-dropped",
    "collection-released",
    # tool calls: the guard, what a pass reports, the shape of every result
    "at-most-once",
    "skipped-only-when-recorded",
    "repeat-re-emitted",
    "unguarded-always-runs",
    "work-reported",
    "result-shape",
    "artifacts-beside-data",
    "arguments-reconciled",
    "failed-carries-none",
    # durable resume
    "hard-block",
    "read-only-never-blocked",
    "fresh-runs-untouched",
    "write-refusal",
    "resume-note",
    "continuation-count",
    "stop-offers-continue",
    "continue-offer",
    "ledger-matches-work",
)


def _ordered() -> tuple[Invariant, ...]:
    """Every rule's invariants in :data:`ORDER`; raises :class:`SuiteError` when an
    invariant is declared but not ordered, ordered but not declared, or declared twice."""
    declared: dict[str, Invariant] = {}
    for module in rule_modules("invariants"):
        for one in module.INVARIANTS:
            if one.name in declared:
                raise SuiteError("two invariants share a name", invariant=one.name)
            declared[one.name] = one
    unordered = sorted(set(declared) - set(ORDER))
    if unordered:
        raise SuiteError("an invariant has no place in the hunt's order", invariant=unordered[0])
    undeclared = sorted(set(ORDER) - set(declared))
    if undeclared:
        raise SuiteError("the hunt's order names no declared invariant", invariant=undeclared[0])
    return tuple(declared[name] for name in ORDER)


INVARIANTS: tuple[Invariant, ...] = _ordered()
