"""The suite: every case, its id and its order, for every consumer.

:func:`load_suite` gathers what the rule packages declare (:mod:`._packages`) into one
:class:`Suite`: the checks (rule by rule, each package's ``CHECKS`` order), the example
vectors (corpus order), and the hunt's invariants (by rank).  :meth:`Suite.cases` answers
"which cases, in which order, with which ids"; :meth:`Suite.plan` adds what one run asks
for (the selection, the cases run first, the shard).  Reports list cases in this order.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from adapters.errors import SuiteError
from conformance.engine._case import Case, Selection, check_selection, hunt_case_id
from conformance.engine._hunt_cases import HuntOptions, hunt_cases
from conformance.engine._options import RunOptions
from conformance.engine._packages import RulePackage, hunt_order, rule_packages
from conformance.engine._shard import ShardPlan, shard_cases
from conformance.engine._vectors import rule_vector_cases
from conformance.rules import Corpus, load_corpus
from conformance.toolkit.machinery import (
    Binding,
    ClauseSituation,
    Invariant,
    Stage,
    validate_bindings,
)

__all__ = ["RunPlan", "Suite", "first_ordered", "load_suite"]


@dataclass(frozen=True)
class RunPlan:
    """The cases one run executes, in order, and the shard it is (if it is one)."""

    cases: tuple[Case, ...]
    shard: ShardPlan | None = None


@dataclass(frozen=True)
class Suite:
    """Every case of the suite over one corpus, and what the rule packages declare."""

    corpus: Corpus
    packages: tuple[RulePackage, ...]
    checks: tuple[Case, ...]
    vectors: tuple[Case, ...]
    #: every invariant, in the hunt's order
    invariants: tuple[Invariant, ...]

    @classmethod
    def over(cls, corpus: Corpus) -> Suite:
        """The suite judging ``corpus``; raises :class:`SuiteError` when a check or a
        binding cites a clause the corpus lacks, or an example no binding can run."""
        packages = rule_packages()
        checks = tuple(one for package in packages for one in package.checks)
        clause_ids = frozenset(clause.id for clause in corpus.clauses)
        validate_bindings(checks, clause_ids)
        bindings = tuple(b for package in packages for b in package.bindings)
        stages = {key: stage for p in packages for key, stage in p.stages.items()}
        vectors = tuple(
            case
            for rule in corpus.rules
            for case in rule_vector_cases(rule, bindings, stages, clause_ids)
        )
        return cls(
            corpus,
            packages,
            tuple(Case.of(one) for one in checks),
            vectors,
            hunt_order(packages),
        )

    @functools.cached_property
    def bindings(self) -> tuple[Binding, ...]:
        """Every vector binding, rule by rule."""
        return tuple(binding for package in self.packages for binding in package.bindings)

    @functools.cached_property
    def stages(self) -> Mapping[tuple[str, str], Stage]:
        """(rule id, verdict) -> the stage its examples are observed at."""
        return MappingProxyType(
            {key: stage for package in self.packages for key, stage in package.stages.items()}
        )

    @functools.cached_property
    def situations(self) -> Mapping[str, tuple[ClauseSituation, ...]]:
        """Clause id -> the situations its words name, in declaration order."""
        found: dict[str, list[ClauseSituation]] = {}
        for package in self.packages:
            for one in package.situations:
                found.setdefault(one.clause, []).append(one)
        return MappingProxyType({clause: tuple(listed) for clause, listed in found.items()})

    @functools.cached_property
    def without_situations(self) -> Mapping[str, str]:
        """Clause id -> why its words name no situation the suite tells apart."""
        return MappingProxyType(
            {c: why for package in self.packages for c, why in package.without_situations.items()}
        )

    @property
    def hunt_ids(self) -> tuple[str, ...]:
        """The id of every hunt case, in the hunt's order."""
        return tuple(hunt_case_id(one.name) for one in self.invariants)

    def cases(
        self, selection: Selection | None = None, hunt: HuntOptions | None = None
    ) -> list[Case]:
        """Every selected case (every case, without a ``selection``): checks, then vectors,
        then (with the run options the hunt reads) one case per invariant, all sharing one
        search."""
        found = [*self.checks, *self.vectors]
        if hunt is not None:
            found += hunt_cases(self.invariants, hunt, self.situations)
        chosen = selection or Selection()
        return [case for case in found if chosen.admits(case, self.corpus)]

    def plan(self, options: RunOptions, *, flags: Mapping[str, str] | None = None) -> RunPlan:
        """What one run executes: the cases ``options`` select, those named by ``first``
        first, this shard's share.  ``flags`` names the options as the user typed them
        (``only``, ``levels``, ``first``), so that a message points at the right one.

        Raises :class:`SuiteError` for a selection that names nothing or leaves no case.
        """
        said = {"only": "--only", "levels": "--level", "first": "--first"} | dict(flags or {})
        check_selection(
            self.corpus,
            options.only,
            options.levels,
            only_flag=said["only"],
            level_flag=said["levels"],
        )
        selection = Selection(only=options.only, levels=options.levels)
        chosen = self.cases(selection, options if options.hunt else None)
        cases, shard = shard_cases(self.corpus, chosen, options.shard)
        if options.first:
            cases = first_ordered(cases, options.first)
            if shard is None:
                _check_first(cases, options.first, said["first"])
        if not cases and shard is not None:
            raise SuiteError(
                f"shard {shard.index}/{shard.count} has no case to run: the selection has "
                "fewer rules than there are shards and no hunt"
            )
        if not cases:
            raise SuiteError("the selection leaves no case to run")
        return RunPlan(tuple(cases), shard)


@functools.cache
def load_suite() -> Suite:
    """The suite over the corpus in ``rules/`` (loaded once per process)."""
    return Suite.over(load_corpus())


def first_ordered(cases: Sequence[Case], first: Sequence[str]) -> list[Case]:
    """``cases`` with those named by ``first`` (case ids, clause ids or rule ids) moved
    to the front, in the order ``first`` names them; the rest keep their order after
    them, and the hunt's cases stay last (its one search is the longest case)."""

    def rank(case: Case) -> int:
        if case.kind == "hunt":
            return len(first) + 1
        return next(
            (
                index
                for index, wanted in enumerate(first)
                if wanted == case.id or wanted in case.clauses or wanted in case.rules
            ),
            len(first),
        )

    return sorted(cases, key=rank)  # stable: the rest keep their order


def _check_first(cases: Sequence[Case], first: Sequence[str], flag: str) -> None:
    """Refuse a ``first`` that names no rule, clause or case of the selection."""
    from conformance._escape import printable

    for wanted in first:
        if not any(wanted == c.id or wanted in c.clauses or wanted in c.rules for c in cases):
            raise SuiteError(
                f"{flag} {printable(wanted)[:200]} names no rule, clause or case of the selection"
            )
