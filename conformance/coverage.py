"""What the suite binds: verdict stages and the clauses its cases cover (for the linter)."""

from __future__ import annotations

from conformance.rules import KNOWN_VERDICTS, LintPolicy

__all__ = ["covered_clauses", "suite_policy"]


def covered_clauses() -> frozenset[str]:
    """Every clause id some check, vector binding or hunt invariant covers."""
    from conformance.checks import all_checks
    from conformance.hunt import INVARIANTS
    from conformance.vectors import BINDINGS

    covered = {clause for check in all_checks() for clause in check.clauses}
    covered |= {clause for binding in BINDINGS for clause in binding.clauses}
    covered |= {clause for invariant in INVARIANTS for clause in invariant.clauses}
    return frozenset(covered)


def suite_policy() -> LintPolicy:
    """Lint against the suite itself: an example whose verdict has no stage is an error,
    a clause no case covers is a warning."""
    from conformance.vectors import bound_pairs

    return LintPolicy(verdicts=KNOWN_VERDICTS, bound=bound_pairs(), covered=covered_clauses())
