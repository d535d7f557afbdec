"""``rttool expectations update``: an expectations file listing what fails now.

Every failing clause of the report is covered: by an entry the existing file already
has (its reason and issue are kept), or by a new clause entry (a new check entry where
the file already tracks that clause check by check).  Entries whose target passes now
are stale and dropped; entries naming nothing in the report are dropped; entries outside
the run's ``--only`` selection, and entries not exercised, are kept as they are.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

import yaml

from conformance.report._expectations import Expectation, Expectations
from conformance.report._gate import missing_target, proves_fixed, selected_by_run
from conformance.report._standing import StandingReport
from conformance.report._values import FAILING, LEVELS, Level, one_line

__all__ = ["ExpectationsUpdate", "update_expectations"]


@dataclass(frozen=True, kw_only=True)
class ExpectationsUpdate:
    """The new file's text and what changed: entries kept, added and dropped."""

    text: str
    kept: tuple[Expectation, ...]
    added: tuple[Expectation, ...]
    dropped: tuple[tuple[Expectation, str], ...]


def _failing_checks(report: StandingReport, entry: Expectation) -> list[str]:
    rule = report.rule(entry.rule)
    if rule is None:
        return []
    return [
        clause.check_id(check)
        for clause, check in rule.checks()
        if check.outcome in ("failed", "error")
        and entry.covers(rule.id, clause.id, clause.check_id(check))
    ]


def _passing(report: StandingReport, entry: Expectation) -> bool:
    """Whether a check under ``entry`` passed in a way that shows a fix (not the hunt)."""
    rule = report.rule(entry.rule)
    return rule is not None and any(
        proves_fixed(check) and entry.covers(rule.id, clause.id, clause.check_id(check))
        for clause, check in rule.checks()
    )


def _order(report: StandingReport, entry: Expectation) -> tuple[int, int, int]:
    """Where ``entry`` sits in the report: rule, clause and check position."""
    for rule_index, rule in enumerate(report.rules):
        if rule.id != entry.rule:
            continue
        for clause_index, clause in enumerate(rule.clauses):
            if clause.id != entry.clause:
                continue
            for check_index, check in enumerate(clause.checks):
                if clause.check_id(check) == entry.target:
                    return rule_index, clause_index, check_index
            return rule_index, clause_index, -1
        return rule_index, -1, -1
    return len(report.rules), 0, 0


def _render(report: StandingReport, entries: list[Expectation], new: set[str]) -> str:
    impl = report.implementation
    # json.dumps keeps the implementation's strings on one comment line, in ASCII.
    lines = [
        f"# Known failures of {json.dumps(impl.name)} {json.dumps(impl.version)}, for "
        "`rttool run --expectations`.",
        "# Written by `rttool expectations update` from the run of "
        f"{json.dumps(report.run.started_at or 'unrecorded time')}.",
        "# Every entry needs a reason. An entry whose target passes again is stale and fails",
        "# the gate: delete it when the fix lands. The hunt's findings are listed check by",
        "# check (::hunt-...); a run that does not find them again only notes it, since a",
        "# search that finds nothing proves no fix. Entries marked 'new' carry the failure",
        "# message as their reason; replace it with why the failure is expected.",
    ]
    if not entries:
        return "\n".join([*lines, "expectations: []", ""])
    lines.append("expectations:")
    for entry in entries:
        fields: dict[str, str] = {entry.scope: entry.target, "reason": one_line(entry.reason)}
        if entry.issue:
            fields["issue"] = one_line(entry.issue)
        dumped = yaml.safe_dump([fields], allow_unicode=True, sort_keys=False, width=10**6)
        if entry.target in new:
            lines.append("  # new")
        lines += ["  " + line for line in dumped.splitlines()]
    return "\n".join(lines) + "\n"


def update_expectations(
    report: StandingReport,
    existing: Expectations | None = None,
    levels: Iterable[Level] | None = None,
) -> ExpectationsUpdate:
    """The expectations file ``report`` calls for, keeping what ``existing`` says."""
    chosen = set(levels) if levels is not None else set(LEVELS)
    kept: list[Expectation] = []
    carried: list[Expectation] = []
    dropped: list[tuple[Expectation, str]] = []
    for entry in existing.entries if existing is not None else ():
        if not selected_by_run(report, entry):
            carried.append(entry)
        elif (missing := missing_target(report, entry)) is not None:
            dropped.append((entry, missing))
        elif _failing_checks(report, entry) or not _passing(report, entry):
            kept.append(entry)
        else:
            dropped.append((entry, "passes now (stale)"))
    covered = {check for entry in kept for check in _failing_checks(report, entry)}
    added: list[Expectation] = []
    for rule in report.rules:
        if rule.level not in chosen:
            continue
        for clause in rule.clauses:
            if clause.standing not in FAILING:
                continue
            failing = [
                check
                for check in clause.checks
                if check.outcome in ("failed", "error") and clause.check_id(check) not in covered
            ]
            if not failing:
                continue
            by_check = any(entry.clause == clause.id and entry.scope == "check" for entry in kept)
            # A clause only the hunt fails is listed check by check: a run without the
            # hunt, or with a smaller budget, then leaves the entry unexercised, not stale.
            if by_check or all(check.kind == "hunt" for check in failing):
                added += [
                    Expectation(
                        scope="check",
                        target=clause.check_id(check),
                        reason=check.message or f"{check.name} fails",
                    )
                    for check in failing
                ]
            else:
                first = failing[0]
                added.append(
                    Expectation(
                        scope="clause",
                        target=clause.id,
                        reason=first.message or f"{first.name} fails",
                    )
                )
    entries = sorted(kept + added, key=lambda entry: _order(report, entry)) + carried
    text = _render(report, entries, {entry.target for entry in added})
    return ExpectationsUpdate(
        text=text, kept=tuple(kept + carried), added=tuple(added), dropped=tuple(dropped)
    )
