"""What the suite binds: verdict stages, the clauses its cases cover (for the linter), and
where each case of a clause is defined (for ``rttool rules show ID --cases``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from conformance.engine._case import CaseKind
from conformance.engine._suite import Suite
from conformance.rules import KNOWN_VERDICTS, LintPolicy
from conformance.toolkit.machinery import where_defined

if TYPE_CHECKING:
    from conformance.rules import Rule

__all__ = [
    "BoundCase",
    "ClauseSituations",
    "clause_cases",
    "clause_situation_notes",
    "suite_policy",
]

#: What file names are shown relative to: the folder holding the ``conformance`` package
#: (the project's root in a checkout).
_ROOT = Path(__file__).resolve().parents[2]


def suite_policy() -> LintPolicy:
    """Lint against the suite itself: an example whose verdict has no stage is an error,
    a clause no case covers is a warning.  Read off the rule packages alone, so that a
    corpus the suite could not run is still linted."""
    from conformance.engine._packages import rule_packages

    packages = rule_packages()
    covered = {clause for p in packages for check in p.checks for clause in check.clauses}
    covered |= {clause for p in packages for b in p.bindings for clause in b.clauses}
    covered |= {clause for p in packages for one in p.invariants for clause in one.clauses}
    bound = frozenset(key for package in packages for key in package.stages)
    return LintPolicy(verdicts=KNOWN_VERDICTS, bound=bound, covered=frozenset(covered))


@dataclass(frozen=True)
class BoundCase:
    """A case bound to a clause, and where its code is: ``file`` (relative to the
    project's root when it lies inside it) and ``line``.  A check is found at its
    decorator, a vector at the function that runs it, an invariant at its declaration."""

    id: str
    kind: CaseKind
    name: str
    file: str
    line: int


def _place(site: tuple[str, int] | None) -> tuple[str, int]:
    if site is None or not site[0]:
        return "", 0
    path = Path(site[0]).resolve()
    try:
        return path.relative_to(_ROOT).as_posix(), site[1]
    except ValueError:
        return path.as_posix(), site[1]


def clause_cases(rule: Rule, suite: Suite) -> dict[str, tuple[BoundCase, ...]]:
    """Every case bound to each clause of ``rule``, by clause id, in the order a run
    reports them: checks (each variant), then vectors, then hunt invariants.  Nothing is
    run: the places are read off the functions and declarations."""
    from conformance.engine._case import hunt_case_id, hunt_case_name

    found: list[tuple[tuple[str, ...], BoundCase]] = []
    for package in suite.packages:
        for check in package.checks:
            place = _place(check.defined_at)
            found.append((check.clauses, BoundCase(check.id, "check", check.name, *place)))
    for case in suite.vectors:
        if case.id.startswith(f"{rule.id}#"):  # the vectors of this rule's own examples
            place = _place(where_defined(case.run))
            found.append((case.clauses, BoundCase(case.id, "vector", case.name, *place)))
    for invariant in suite.invariants:
        bound = BoundCase(
            hunt_case_id(invariant.name),
            "hunt",
            hunt_case_name(invariant.name),
            *_place(invariant.declared_at or where_defined(invariant.judge)),
        )
        found.append((invariant.clauses, bound))
    return {
        clause.id: tuple(case for clauses, case in found if clause.id in clauses)
        for clause in rule.clauses
    }


@dataclass(frozen=True)
class ClauseSituations:
    """What a clause's text names: its situations, each as ``(words, file, line)`` of
    the test that tells it was reached, or why it names none (``none_because``)."""

    named: tuple[tuple[str, str, int], ...]
    none_because: str | None


def clause_situation_notes(rule: Rule, suite: Suite) -> dict[str, ClauseSituations]:
    """Each clause of ``rule`` with the situations its rule package declares for it, or
    the reason it gives for none (``None`` where the package says neither)."""
    declared, without = suite.situations, suite.without_situations
    return {
        clause.id: ClauseSituations(
            tuple(
                (one.words, *_place(where_defined(one.reached)))
                for one in declared.get(clause.id, ())
            ),
            without.get(clause.id),
        )
        for clause in rule.clauses
    }
