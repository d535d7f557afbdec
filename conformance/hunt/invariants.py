"""Invariants the hunt holds every generated scenario to, each bound to the clauses it
judges and to the situation those clauses speak of.

A failure lands on the clauses of the invariant that caught it.  Each judge returns
``None`` when the trace satisfies it, else a one-line reason; each invariant also says
whether a trace *exercised* it, and a hunt that never exercised an invariant reports it
untested.  The search holds each example to the invariants in this order and reports
the first that fails, so an invariant that names a cause comes before those that only
see its effect: artifacts moved under `metadata` are also "lost" from the messages'
toolArtifacts, and the turn result no longer aggregates them, but the finding belongs
to no-metadata-leak.
"""

from __future__ import annotations

from conformance.hunt._artifacts import ARTIFACT_INVARIANTS
from conformance.hunt._calls import CALL_INVARIANTS
from conformance.hunt._durable import DURABLE_INVARIANTS
from conformance.hunt._invariant import Invariant, Situation, Verdict, Violation, invariant

__all__ = ["INVARIANTS", "Invariant", "Situation", "Verdict", "Violation", "invariant"]

INVARIANTS: tuple[Invariant, ...] = (
    *ARTIFACT_INVARIANTS,
    *CALL_INVARIANTS,
    *DURABLE_INVARIANTS,
)
