"""The standing result model: what a run found, rule by rule, clause by clause.

Every class is a frozen, keyword-only dataclass.  Standings are never set by hand: a
clause's standing is derived from its checks and a rule's from its clauses by the two
pure functions :func:`clause_standing` and :func:`rule_standing`, so a report cannot
claim more than its checks show.  Every string is kept on one line (see ``_values``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from conformance.report._values import (
    CHECK_KINDS,
    FAULTS,
    LEVELS,
    OUTCOMES,
    SKIP_KINDS,
    CheckKind,
    Fault,
    Level,
    Outcome,
    SkipKind,
    Standing,
    bad,
    choice,
    normalise_strings,
    seconds,
)

__all__ = [
    "CheckCounts",
    "CheckResult",
    "ClauseResult",
    "Evidence",
    "FailedExpectation",
    "HuntFigures",
    "RuleResult",
    "StandingCounts",
    "clause_standing",
    "rule_standing",
    "unreached_situations",
]


@dataclass(frozen=True, kw_only=True)
class Evidence:
    """Files that show what happened, as paths relative to the report directory.

    ``error`` is the record of an error: the implementation's message, the step it
    failed on and, for an in-process harness, its traceback, beside the scenario
    (``rttool replay`` runs it again); the trace of an error holds the steps answered
    before it."""

    scenario: str | None = None
    trace: str | None = None
    counterexample: str | None = None
    error: str | None = None

    def __post_init__(self) -> None:
        normalise_strings(self)

    def items(self) -> tuple[tuple[str, str], ...]:
        """``(label, path)`` for every piece of evidence present, in a fixed order."""
        found = (
            ("counterexample", self.counterexample),
            ("error", self.error),
            ("scenario", self.scenario),
            ("trace", self.trace),
        )
        return tuple((label, path) for label, path in found if path)


@dataclass(frozen=True, kw_only=True)
class FailedExpectation:
    """One expectation of a failed check that did not hold.

    ``message`` says what was observed and what the clause requires; ``pointer`` is the
    JSON pointer of what was observed in the trace of ``scenario`` (the scenario id);
    ``reading`` names the entry of ``docs/interpretations.md`` the expectation relies on;
    ``expected`` and ``got``, where the check compared a value with the one the clause
    requires, are both values as one line of JSON.
    """

    message: str
    scenario: str | None = None
    pointer: str | None = None
    reading: str | None = None
    expected: str | None = None
    got: str | None = None

    def __post_init__(self) -> None:
        normalise_strings(self)
        if not self.message:
            raise bad("a failed expectation needs a message", field="message")

    def line(self) -> str:
        """The failure on one line: the message, then where it was observed."""
        if self.pointer is None:
            return self.message
        scenario = f" of {self.scenario}" if self.scenario else ""
        return f"{self.message} (at {self.pointer}{scenario})"


@dataclass(frozen=True, kw_only=True)
class HuntFigures:
    """What the hunt did for one invariant: generated examples ``judged`` against it, and
    how many of them ``exercised`` it (the situation its clauses speak of occurred)."""

    judged: int
    exercised: int

    def __post_init__(self) -> None:
        for name in ("judged", "exercised"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise bad(f"{name} is an integer >= 0", field=name, value=value)
        if self.exercised > self.judged:
            raise bad("an invariant was exercised by more examples than were judged")


@dataclass(frozen=True, kw_only=True)
class CheckResult:
    """One check's outcome.

    ``skip_kind`` is set exactly when the check was skipped, and says whether it could
    not be tried (``untested``) or does not apply (``not-applicable``).  ``fault`` is set
    exactly when the check errored, and says whose fault that was.  ``duration_s`` is
    ``None`` in a reproducible report.
    """

    name: str
    outcome: Outcome
    message: str = ""
    skip_kind: SkipKind | None = None
    fault: Fault | None = None
    duration_s: float | None = 0.0
    evidence: Evidence = field(default_factory=Evidence)
    kind: CheckKind = "check"
    #: every expectation that failed, most specific first (a failed check only)
    failures: tuple[FailedExpectation, ...] = ()
    #: what the hunt did for this invariant (a hunt check only)
    hunt: HuntFigures | None = None
    #: the situations of its clause (:attr:`ClauseResult.situations`) its traces reached
    reached: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        normalise_strings(self)
        if not self.name:
            raise bad("a check needs a name", field="name")
        choice(self.outcome, OUTCOMES, "outcome")
        choice(self.kind, CHECK_KINDS, "kind")
        if (self.outcome == "skipped") != (self.skip_kind is not None):
            raise bad(
                "skip_kind is set exactly when the outcome is skipped",
                check=self.name,
                outcome=self.outcome,
                skip_kind=self.skip_kind,
            )
        if self.skip_kind is not None:
            choice(self.skip_kind, SKIP_KINDS, "skip_kind")
        if (self.outcome == "error") != (self.fault is not None):
            raise bad(
                "fault is set exactly when the outcome is error",
                check=self.name,
                outcome=self.outcome,
                fault=self.fault,
            )
        if self.fault is not None:
            choice(self.fault, FAULTS, "fault")
        if self.duration_s is not None:
            seconds(self.duration_s, "duration_s")
        if self.failures and self.outcome != "failed":
            raise bad("only a failed check lists failed expectations", check=self.name)
        if self.hunt is not None and self.kind != "hunt":
            raise bad("only a hunt check carries hunt figures", check=self.name)
        if len(set(self.reached)) != len(self.reached):
            raise bad("a reached situation repeats", check=self.name)


@dataclass(frozen=True, kw_only=True)
class CheckCounts:
    """How a clause's checks came out; ``untested`` and ``not_applicable`` count skips."""

    passed: int = 0
    failed: int = 0
    error: int = 0
    untested: int = 0
    not_applicable: int = 0

    @classmethod
    def of(cls, checks: Iterable[CheckResult]) -> CheckCounts:
        """Tally ``checks``."""
        tally = dict.fromkeys(("passed", "failed", "error", "untested", "not_applicable"), 0)
        for check in checks:
            key = check.outcome if check.outcome != "skipped" else str(check.skip_kind)
            tally[key.replace("-", "_")] += 1
        return cls(**tally)


@dataclass(frozen=True, kw_only=True)
class StandingCounts:
    """How many rules (or clauses) have each standing."""

    conforms: int = 0
    does_not_conform: int = 0
    untested: int = 0
    not_applicable: int = 0
    error: int = 0

    @classmethod
    def of(cls, standings: Iterable[Standing]) -> StandingCounts:
        """Tally ``standings``."""
        tally = dict.fromkeys(
            ("conforms", "does_not_conform", "untested", "not_applicable", "error"), 0
        )
        for standing in standings:
            tally[standing.replace("-", "_")] += 1
        return cls(**tally)

    def get(self, standing: Standing) -> int:
        """The count for ``standing``."""
        count: int = getattr(self, standing.replace("-", "_"))
        return count


#: The kinds of check whose pass is evidence that a clause is met: something exercised
#: the clause and it held.  A hunt that passed proves only that no generated example
#: broke its invariant, so it never makes a clause conform on its own.
EVIDENCE_KINDS: frozenset[CheckKind] = frozenset({"check", "vector"})


def unreached_situations(
    checks: Iterable[CheckResult], situations: Iterable[str]
) -> tuple[str, ...]:
    """The ``situations`` that no case reached where it counts: a passing hand-written
    check or example vector (what makes a clause conform), or a failing case (what
    makes it fail, and a failure shows the situation it was seen in was reached)."""
    reached = {
        situation
        for check in checks
        if check.outcome == "failed" or (check.outcome == "passed" and check.kind in EVIDENCE_KINDS)
        for situation in check.reached
    }
    return tuple(situation for situation in situations if situation not in reached)


def clause_standing(checks: Iterable[CheckResult], situations: Iterable[str] = ()) -> Standing:
    """A clause's standing from its checks: a verdict never exceeds its evidence.

    Any failure wins, then any error; a clause whose every check is skipped as not
    applicable is not applicable; a clause conforms only when a hand-written check or an
    example vector of it passed (a passing hunt alone leaves it untested), and only when
    such passing checks reached every one of the clause's ``situations`` (the situations
    its text names): a clause whose checks passed without reaching one of them is
    untested, and its :attr:`ClauseResult.unreached` say which.
    """
    checks = tuple(checks)
    outcomes = {check.outcome for check in checks}
    if "failed" in outcomes:
        return "does-not-conform"
    if "error" in outcomes:
        return "error"
    if checks and all(check.skip_kind == "not-applicable" for check in checks):
        return "not-applicable"
    if not any(check.outcome == "passed" and check.kind in EVIDENCE_KINDS for check in checks):
        return "untested"
    if unreached_situations(checks, situations):
        return "untested"
    return "conforms"


def rule_standing(standings: Iterable[Standing]) -> Standing:
    """A rule's standing from its clauses' standings.

    A rule without clauses is untested: nothing was established about it.
    """
    found = tuple(standings)
    if not found:
        return "untested"
    if "does-not-conform" in found:
        return "does-not-conform"
    if "error" in found:
        return "error"
    if all(standing == "not-applicable" for standing in found):
        return "not-applicable"
    if "untested" in found:
        return "untested"
    return "conforms"


@dataclass(frozen=True, kw_only=True)
class ClauseResult:
    """One numbered clause of a rule (``RT-TOOL-7#c4``, cited ``RT-TOOL-7 ¶4``).

    ``situations`` are the situations its text names (``the tool's artifacts port not
    exposed``), each of which a passing check must have reached for it to conform;
    ``unreached`` those none did (derived, like its standing)."""

    id: str
    rule: str
    number: int
    text: str
    checks: tuple[CheckResult, ...] = ()
    situations: tuple[str, ...] = ()
    standing: Standing = field(init=False)
    counts: CheckCounts = field(init=False)
    unreached: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        normalise_strings(self)
        if isinstance(self.number, bool) or self.number < 1:
            raise bad("a clause number is an integer >= 1", clause=self.id, number=self.number)
        if self.id != f"{self.rule}#c{self.number}":
            raise bad(
                "a clause id is RULE#cNUMBER", clause=self.id, rule=self.rule, number=self.number
            )
        names = [check.name for check in self.checks]
        if len(set(names)) != len(names):
            raise bad("check names repeat within a clause", clause=self.id)
        if len(set(self.situations)) != len(self.situations):
            raise bad("a situation repeats within a clause", clause=self.id)
        for check in self.checks:
            stray = [s for s in check.reached if s not in self.situations]
            if stray:
                raise bad(
                    "a check reached a situation its clause does not name", situation=stray[0]
                )
        object.__setattr__(self, "standing", clause_standing(self.checks, self.situations))
        object.__setattr__(self, "counts", CheckCounts.of(self.checks))
        object.__setattr__(self, "unreached", unreached_situations(self.checks, self.situations))

    @property
    def citation(self) -> str:
        """How the specification cites the clause: ``RT-TOOL-7 ¶4``."""
        return f"{self.rule} ¶{self.number}"

    def check_id(self, check: CheckResult) -> str:
        """The id an expectations file uses for ``check``: ``RT-TOOL-9#c2::name``."""
        return f"{self.id}::{check.name}"


@dataclass(frozen=True, kw_only=True)
class RuleResult:
    """One rule and its clauses; ``source`` is a URL or a plain-text reference."""

    id: str
    title: str
    family: str
    level: Level
    profiles: tuple[str, ...] = ()
    source: str = ""
    clauses: tuple[ClauseResult, ...] = ()
    standing: Standing = field(init=False)
    counts: StandingCounts = field(init=False)

    def __post_init__(self) -> None:
        normalise_strings(self)
        if not self.id or "#" in self.id or "::" in self.id:
            raise bad("a rule id is non-empty and has neither '#' nor '::'", rule=self.id)
        choice(self.level, LEVELS, "level")
        numbers = [clause.number for clause in self.clauses]
        if len(set(numbers)) != len(numbers):
            raise bad("clause numbers repeat within a rule", rule=self.id)
        for clause in self.clauses:
            if clause.rule != self.id:
                raise bad("a clause belongs to another rule", rule=self.id, clause=clause.id)
        standings = [clause.standing for clause in self.clauses]
        object.__setattr__(self, "standing", rule_standing(standings))
        object.__setattr__(self, "counts", StandingCounts.of(standings))

    def checks(self) -> Iterator[tuple[ClauseResult, CheckResult]]:
        """Every ``(clause, check)`` of the rule, in order."""
        for clause in self.clauses:
            for check in clause.checks:
                yield clause, check
