"""The gate: does a run pass, given the levels that count and the failures expected?

Truth table, per failing (failed or errored) check of a rule at a gated level:

=========================  =====================  ==========================
check                      listed (rule, clause    not listed
                           or check entry)
=========================  =====================  ==========================
fails or errors            expected: passes       unexpected: gate fails
=========================  =====================  ==========================

and per expectation entry whose target is at a gated level: no failing check under the
target but at least one passing hand-written check or vector makes the entry **stale**
and fails the gate (a fix is never hidden); otherwise it is *unexercised* (a note, not a
failure).  A passing hunt check never makes an entry stale: a search that found nothing
within its budget is no proof of a fix.  An entry naming something the report lacks is
an error, unless the run was limited with ``--only`` and the entry lies outside that
selection, or it names a hunt check (``...::hunt-<invariant>``) of a run without the
hunt.  Untested and not-applicable clauses never fail the gate.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from adapters.errors import RttoolError
from conformance.report._errors import ExpectationsError, Problem
from conformance.report._expectations import Expectation, Expectations
from conformance.report._model import CheckResult, RuleResult
from conformance.report._standing import StandingReport
from conformance.report._values import HUNT_PREFIX, LEVELS, Level

__all__ = [
    "FindingKind",
    "GateFinding",
    "GateResult",
    "gate",
    "missing_target",
    "proves_fixed",
    "resolve_expectations",
    "selected_by_run",
]

FindingKind = Literal["unexpected", "expected", "stale", "unexercised"]


@dataclass(frozen=True, kw_only=True)
class GateFinding:
    """One line of the gate's verdict."""

    kind: FindingKind
    target: str
    level: Level
    detail: str
    where: str | None = None

    def __str__(self) -> str:
        if self.kind == "unexpected":
            return f"unexpected failure: {self.target} [{self.level}]: {self.detail}"
        if self.kind == "expected":
            return f"expected failure: {self.target} [{self.level}] ({self.where}: {self.detail})"
        if self.kind == "stale":
            return f"stale expectation at {self.where}: {self.target} passes now; delete the entry"
        return f"expectation at {self.where} not exercised: {self.target} ({self.detail})"


@dataclass(frozen=True, kw_only=True)
class GateResult:
    """The gate's verdict: ``exit_code`` 0 (pass) or 1 (something gated fails)."""

    levels: tuple[Level, ...]
    gated_rules: int
    #: the rules the report holds at any level (a shard may hold none of its own)
    reported_rules: int = 1
    unexpected: tuple[GateFinding, ...] = ()
    expected: tuple[GateFinding, ...] = ()
    stale: tuple[GateFinding, ...] = ()
    unexercised: tuple[GateFinding, ...] = ()
    implementation_faults: int = 0
    suite_faults: int = 0

    @property
    def passed(self) -> bool:
        """No unexpected failure and no stale expectation, and some rule gated where the
        report holds any: a gate of nothing (levels no rule of the report is at, a
        handshake claiming none) passes nothing.  A report of no rule (a shard left none
        of its own) gates nothing and fails nothing."""
        gated_something = self.gated_rules > 0 or self.reported_rules == 0
        return gated_something and not self.unexpected and not self.stale

    @property
    def exit_code(self) -> int:
        """0 when :attr:`passed`, else 1."""
        return 0 if self.passed else 1

    def reasons(self) -> tuple[str, ...]:
        """Every finding as one line: failures and stale entries first."""
        lines = [
            str(finding)
            for group in (self.unexpected, self.stale, self.expected, self.unexercised)
            for finding in group
        ]
        if self.gated_rules == 0:
            lines.append(
                "no rule in the report is at a gated level: "
                + (", ".join(self.levels) or "none")
                + ": a gate of nothing passes nothing"
            )
        return tuple(lines)


def proves_fixed(check: CheckResult) -> bool:
    """Whether ``check`` passing shows that an expected failure is gone: a hand-written
    check or a vector that passed; never the hunt, which may just not have found it."""
    return check.outcome == "passed" and check.kind != "hunt"


def _hunt_check_of_unhunted_run(report: StandingReport, entry: Expectation) -> bool:
    name = entry.target.partition("::")[2]
    return entry.scope == "check" and report.hunt is None and name.startswith(HUNT_PREFIX)


def selected_by_run(report: StandingReport, entry: Expectation) -> bool:
    """Whether ``entry`` lies inside the run's ``--only`` selection (everything if none).

    A rule entry is inside only when the whole rule ran: with ``--only RT-TOOL-7#c3``
    the rule's other clauses did not run, so ``rule: RT-TOOL-7`` can be neither
    confirmed nor called stale, and is left alone."""
    if not report.run.only:
        return True
    for chosen in report.run.only:
        rule, _, clause = chosen.partition("#")
        if not clause:
            if entry.rule == rule:
                return True
        elif entry.scope != "rule" and entry.clause == chosen:
            return True
    return False


def missing_target(report: StandingReport, entry: Expectation) -> str | None:
    """Why ``entry`` names nothing in ``report``, or ``None`` if its target is present."""
    rule = report.rule(entry.rule)
    if rule is None:
        return f"rule {entry.rule} is not in the report"
    if entry.scope == "rule":
        return None
    clause = report.clause(entry.clause or "")
    if clause is None:
        numbers = ", ".join(str(item.number) for item in rule.clauses) or "none"
        return f"clause {entry.target} is not in the report ({rule.id} has clauses {numbers})"
    if (
        entry.scope == "check"
        and report.check(entry.target) is None
        and not _hunt_check_of_unhunted_run(report, entry)
    ):
        names = ", ".join(check.name for check in clause.checks[:8]) or "none"
        return f"check {entry.target} is not in the report ({clause.id} has checks {names})"
    return None


def resolve_expectations(
    report: StandingReport, expectations: Expectations
) -> tuple[Expectation, ...]:
    """The entries that apply to ``report``; raises if any names something absent."""
    problems: list[Problem] = []
    applicable: list[Expectation] = []
    for entry in expectations.entries:
        if not selected_by_run(report, entry):
            continue
        missing = missing_target(report, entry)
        if missing is not None:
            problems.append(Problem(expectations.source, entry.line, missing))
        else:
            applicable.append(entry)
    if problems:
        raise ExpectationsError(problems)
    return tuple(applicable)


def _covering(
    entries: tuple[Expectation, ...], rule: str, clause: str, check: str
) -> Expectation | None:
    return next((entry for entry in entries if entry.covers(rule, clause, check)), None)


def _describe(check: CheckResult) -> str:
    if check.outcome == "error":
        return f"error ({check.fault} fault): {check.message or 'no message'}"
    return check.message or "failed without a message"


def _failures(
    gated: list[RuleResult], entries: tuple[Expectation, ...], source: Expectations
) -> tuple[list[GateFinding], list[GateFinding]]:
    """Every failing check of the gated rules, as (unexpected, expected) findings."""
    unexpected: list[GateFinding] = []
    expected: list[GateFinding] = []
    for rule in gated:
        for clause, check in rule.checks():
            if check.outcome not in ("failed", "error"):
                continue
            check_id = clause.check_id(check)
            entry = _covering(entries, rule.id, clause.id, check_id)
            if entry is None:
                finding = GateFinding(
                    kind="unexpected", target=check_id, level=rule.level, detail=_describe(check)
                )
                unexpected.append(finding)
            else:
                finding = GateFinding(
                    kind="expected",
                    target=check_id,
                    level=rule.level,
                    detail=entry.reason,
                    where=source.where(entry),
                )
                expected.append(finding)
    return unexpected, expected


def _entry_finding(
    report: StandingReport, rule: RuleResult, entry: Expectation, source: Expectations
) -> GateFinding | None:
    """A stale or unexercised finding for ``entry``, or ``None`` while its target fails."""
    covered = [
        check
        for clause, check in rule.checks()
        if entry.covers(rule.id, clause.id, clause.check_id(check))
    ]
    if any(check.outcome in ("failed", "error") for check in covered):
        return None
    stale = any(proves_fixed(check) for check in covered)
    if stale:
        detail = entry.reason
    elif any(check.outcome == "passed" for check in covered):
        detail = "the hunt did not find it this run, which proves no fix"
    elif not covered and _hunt_check_of_unhunted_run(report, entry):
        detail = "the hunt did not run"
    else:
        detail = "no check under it passed or failed"
    return GateFinding(
        kind="stale" if stale else "unexercised",
        target=f"{entry.scope} {entry.target}",
        level=rule.level,
        detail=detail,
        where=source.where(entry),
    )


def gate(
    report: StandingReport,
    levels: Iterable[Level] | None = None,
    expectations: Expectations | None = None,
) -> GateResult:
    """Judge ``report``: every rule at ``levels`` (default: every level) must conform or
    fail only as ``expectations`` declare, and no expectation may be stale."""
    chosen = tuple(dict.fromkeys(levels)) if levels is not None else LEVELS
    for level in chosen:
        if level not in LEVELS:
            raise RttoolError("unknown level", level=level, known=",".join(LEVELS))
    source = expectations or Expectations(source="(none)")
    entries = resolve_expectations(report, source)
    # A rule entry of a rule the run covered only in part still excuses the failures it
    # covers; it is just never judged stale (see selected_by_run).
    partial = tuple(
        entry
        for entry in source.entries
        if entry.scope == "rule"
        and report.rule(entry.rule) is not None
        and not selected_by_run(report, entry)
    )
    gated = [rule for rule in report.rules if rule.level in chosen]
    unexpected, expected = _failures(gated, entries + partial, source)
    gated_by_id = {rule.id: rule for rule in gated}
    notes = [
        _entry_finding(report, gated_by_id[entry.rule], entry, source)
        for entry in entries
        if entry.rule in gated_by_id
    ]
    faults = [
        check.fault for rule in gated for _, check in rule.checks() if check.fault is not None
    ]
    return GateResult(
        levels=chosen,
        gated_rules=len(gated),
        reported_rules=len(report.rules),
        unexpected=tuple(unexpected),
        expected=tuple(expected),
        stale=tuple(note for note in notes if note is not None and note.kind == "stale"),
        unexercised=tuple(
            note for note in notes if note is not None and note.kind == "unexercised"
        ),
        implementation_faults=faults.count("implementation"),
        suite_faults=faults.count("suite"),
    )
