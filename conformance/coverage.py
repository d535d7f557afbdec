"""What the suite binds: verdict stages, the clauses its cases cover (for the linter), and
where each case of a clause is defined (for ``rttool rules show ID --cases``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from conformance.rules import KNOWN_VERDICTS, LintPolicy

if TYPE_CHECKING:
    from conformance.cases import CaseKind
    from conformance.rules import Corpus, Rule

__all__ = [
    "BoundCase",
    "ClauseSituations",
    "clause_cases",
    "clause_situation_notes",
    "covered_clauses",
    "suite_policy",
]

#: What file names are shown relative to: the folder holding the ``conformance`` package
#: (the project's root in a checkout).
_ROOT = Path(__file__).resolve().parent.parent


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


def clause_cases(rule: Rule, corpus: Corpus) -> dict[str, tuple[BoundCase, ...]]:
    """Every case bound to each clause of ``rule``, by clause id, in the order a run
    reports them: checks (each variant), then vectors, then hunt invariants.  Nothing is
    run: the places are read off the functions and declarations.

    Raises :class:`adapters.errors.SuiteError` when an example of ``rule`` has no
    binding that can run it, as a run would.
    """
    from conformance.checks import all_checks
    from conformance.hunt.invariants import INVARIANTS
    from conformance.report import HUNT_PREFIX
    from conformance.toolkit import where_defined
    from conformance.vectors import rule_vector_cases

    found: list[tuple[tuple[str, ...], BoundCase]] = []
    for check in all_checks():
        found.append(
            (check.clauses, BoundCase(check.id, "check", check.name, *_place(check.defined_at)))
        )
    clause_ids = frozenset(clause.id for clause in corpus.clauses)
    for case in rule_vector_cases(rule, clause_ids):
        place = _place(where_defined(case.run))
        found.append((case.clauses, BoundCase(case.id, "vector", case.name, *place)))
    for invariant in INVARIANTS:
        bound = BoundCase(
            f"HUNT/{invariant.name}",
            "hunt",
            f"{HUNT_PREFIX}{invariant.name}",
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


def clause_situation_notes(rule: Rule) -> dict[str, ClauseSituations]:
    """Each clause of ``rule`` with the situations its rule package declares for it, or
    the reason it gives for none (``None`` where the package says neither)."""
    from conformance.situations import clause_situations, clauses_without_situations
    from conformance.toolkit import where_defined

    declared, without = clause_situations(), clauses_without_situations()
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
