"""The whole report: who was checked, by what, how, and the standing of every rule."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from adapters.errors import SuiteError
from conformance.report._model import CheckResult, ClauseResult, RuleResult, StandingCounts
from conformance.report._run import HuntSummary, ImplementationInfo, RunInfo, SuiteInfo
from conformance.report._values import one_line

__all__ = ["FamilyTally", "StandingReport"]


@dataclass(frozen=True, kw_only=True)
class FamilyTally:
    """One family's headline: rules conforming out of rules applicable.

    A rule is applicable unless its standing is ``not-applicable``; untested and
    errored rules count as applicable and not conforming.
    """

    family: str
    conforming: int
    applicable: int
    counts: StandingCounts

    @property
    def ratio(self) -> float | None:
        """``conforming / applicable``, or ``None`` when nothing applies."""
        return self.conforming / self.applicable if self.applicable else None

    @property
    def message(self) -> str:
        """The badge text: ``9/10``, or ``n/a`` when nothing applies."""
        return f"{self.conforming}/{self.applicable}" if self.applicable else "n/a"


HuntStatus = Literal["searched", "failed", "skipped", "off"]


@dataclass(frozen=True, kw_only=True)
class StandingReport:
    """An implementation's standing, rule by rule: the ``standing.json`` contract."""

    implementation: ImplementationInfo
    suite: SuiteInfo
    run: RunInfo
    rules: tuple[RuleResult, ...] = ()
    warnings: tuple[str, ...] = ()
    hunt: HuntSummary | None = None
    counts: StandingCounts = field(init=False)

    def __post_init__(self) -> None:
        ids = [rule.id for rule in self.rules]
        if len(set(ids)) != len(ids):
            raise SuiteError("rule ids repeat within a report", rules=",".join(ids))
        cleaned = tuple(one_line(text) for text in self.warnings)
        if cleaned != self.warnings:
            object.__setattr__(self, "warnings", cleaned)
        object.__setattr__(self, "counts", StandingCounts.of(rule.standing for rule in self.rules))

    @property
    def families(self) -> tuple[str, ...]:
        """Every family in the report, in order of first appearance."""
        return tuple(dict.fromkeys(rule.family for rule in self.rules))

    def tally(self, family: str) -> FamilyTally:
        """The headline for ``family`` (zero rules if the family is absent)."""
        rules = [rule for rule in self.rules if rule.family == family]
        return FamilyTally(
            family=family,
            conforming=sum(rule.standing == "conforms" for rule in rules),
            applicable=sum(rule.standing != "not-applicable" for rule in rules),
            counts=StandingCounts.of(rule.standing for rule in rules),
        )

    def hunt_status(self) -> HuntStatus:
        """What became of the property-based hunt: ``failed`` (its checks errored before
        the search ended, whether or not it reports what it judged before), ``searched``
        (it has a summary), ``skipped`` (none of its invariants applied or could be tried),
        or ``off`` (it was not run at all)."""
        hunted = [c for rule in self.rules for _, c in rule.checks() if c.kind == "hunt"]
        if any(c.outcome == "error" for c in hunted):
            return "failed"
        if self.hunt is not None:
            return "searched"
        if not hunted:
            return "off"
        if all(c.outcome == "skipped" for c in hunted):
            return "skipped"
        return "searched"  # judged, though the summary is missing (a hand-made report)

    def tallies(self) -> tuple[FamilyTally, ...]:
        """The headline of every family present."""
        return tuple(self.tally(family) for family in self.families)

    @cached_property
    def _rules_by_id(self) -> dict[str, RuleResult]:
        return {rule.id: rule for rule in self.rules}

    @cached_property
    def _clauses_by_id(self) -> dict[str, ClauseResult]:
        return {clause.id: clause for rule in self.rules for clause in rule.clauses}

    def rule(self, rule_id: str) -> RuleResult | None:
        """The rule ``rule_id``, if the report has it."""
        return self._rules_by_id.get(rule_id)

    def clause(self, clause_id: str) -> ClauseResult | None:
        """The clause ``clause_id`` (``RT-TOOL-7#c4``), if the report has it."""
        return self._clauses_by_id.get(clause_id)

    def check(self, check_id: str) -> tuple[ClauseResult, CheckResult] | None:
        """The check ``check_id`` (``RT-TOOL-9#c2::name``) with its clause, if present."""
        clause_id, separator, name = check_id.partition("::")
        clause = self.clause(clause_id) if separator else None
        if clause is None:
            return None
        for check in clause.checks:
            if check.name == name:
                return clause, check
        return None

    def checks(self) -> Iterator[tuple[RuleResult, ClauseResult, CheckResult]]:
        """Every ``(rule, clause, check)`` in the report, in order."""
        for rule in self.rules:
            for clause, check in rule.checks():
                yield rule, clause, check

    def evidence_paths(self) -> frozenset[str]:
        """Every evidence path any check names."""
        return frozenset(
            path for _, _, check in self.checks() for _, path in check.evidence.items()
        )
