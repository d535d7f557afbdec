"""The clauses a hunt finding is charged to (shared by the hunt's cases and the pass
that minimises a finding, which must leave them as they were)."""

from __future__ import annotations

from conformance.toolkit.machinery import Breach, Invariant

__all__ = ["breached"]


def breached(invariant: Invariant, reason: str) -> tuple[str, ...]:
    """The clauses a counterexample's ``reason`` is charged to: those a :class:`Breach`
    names (among the invariant's own), else every clause of the invariant."""
    if isinstance(reason, Breach):
        named = tuple(clause for clause in reason.clauses if clause in invariant.clauses)
        if named:
            return named
    return invariant.clauses
