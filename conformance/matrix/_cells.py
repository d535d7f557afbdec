"""What each cell and summary line of the matrix says, shared by its Markdown and HTML.

Everything returned here is plain text: implementations' names, specs and profiles come
from their reports and are untrusted, so each renderer escapes every string it is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from conformance.matrix._build import Column, Matrix, Row, heading_anchor
from conformance.report import STANDING_SYMBOLS, Standing, StandingReport, counts_phrase

__all__ = [
    "ABSENT",
    "LEGEND",
    "WORDS",
    "Cell",
    "cell",
    "standing_page_anchor",
    "summary_rows",
]

#: What a cell shows for a rule or clause its report does not have.
ABSENT = "—"
#: The symbols, in the order of the standing rules (worst first), with their meaning.
LEGEND: tuple[tuple[Standing, str], ...] = (
    ("does-not-conform", "does not conform: a check failed"),
    ("error", "error: the implementation could not be driven for a check"),
    ("untested", "untested: nothing was tried (a capability or observation not offered)"),
    ("not-applicable", "not applicable: a profile not claimed"),
    ("conforms", "conforms"),
)


#: A cell's word for each standing, short enough for a narrow column.
WORDS: Mapping[Standing, str] = MappingProxyType(
    {
        "conforms": "conforms",
        "does-not-conform": "fails",
        "error": "error",
        "untested": "untested",
        "not-applicable": "n/a",
    }
)


@dataclass(frozen=True)
class Cell:
    """One cell: the standing (``None`` when absent), its symbol and a one-line detail."""

    standing: Standing | None
    symbol: str
    detail: str


def cell(matrix: Matrix, column: Column, row: Row) -> Cell:
    """What ``column`` records for ``row``."""
    standing = matrix.standing(column, row)
    if standing is None:
        return Cell(None, ABSENT, f"{row.id} is not in this report")
    if row.clause is not None:
        clause = column.report.clause(row.clause.id)
        assert clause is not None
        detail = f"{row.id}: {standing} ({counts_phrase(clause.counts)})"
    else:
        rule = column.report.rule(row.rule.id)
        assert rule is not None
        conforming = rule.counts.conforms
        detail = f"{row.id}: {standing} ({conforming}/{len(rule.clauses)} clauses conform)"
    return Cell(standing, STANDING_SYMBOLS[standing], detail)


def standing_page_anchor(column: Column, row: Row) -> str:
    """The anchor of ``row``'s rule heading in the column's ``STANDING.md``."""
    rule = column.report.rule(row.rule.id) or row.rule
    return heading_anchor(f"{rule.id}: {rule.title}")


def _hunt(report: StandingReport) -> str:
    status = report.hunt_status()
    if report.hunt is not None:
        found = report.hunt.counterexamples
        stopped = ", stopped on an error" if status == "failed" else ""
        return (
            f"{report.hunt.examples} examples, {found} counterexample{'s' * (found != 1)}{stopped}"
        )
    return {
        "failed": "did not complete",
        "skipped": "nothing to search",
        "off": "did not run (standings may change when it does)",
    }.get(status, "ran")


def _run(report: StandingReport) -> str:
    notes = []
    if report.run.only:
        notes.append("partial run: only " + ", ".join(report.run.only))
    if report.run.mutant:
        notes.append(f"mutant {report.run.mutant}")
    return "; ".join(notes) or "complete run"


# Untested is counted apart from failures: neither is a pass, and they mean different things.
_RULE_COUNTS: tuple[tuple[Standing, str], ...] = (
    ("does-not-conform", "rules not conforming"),
    ("error", "rules in error"),
    ("untested", "rules untested"),
    ("not-applicable", "rules not applicable"),
)
_CLAUSE_ORDER: tuple[Standing, ...] = (
    "conforms",
    "does-not-conform",
    "error",
    "untested",
    "not-applicable",
)


def summary_rows(matrix: Matrix) -> list[tuple[str, list[str]]]:
    """The summary table: a label, then one plain-text value per column."""
    reports = [column.report for column in matrix.columns]
    rows: list[tuple[str, list[str]]] = [
        ("Driven as", [r.implementation.spec or "unknown" for r in reports]),
        ("Profiles claimed", [", ".join(r.implementation.profiles) or "none" for r in reports]),
    ]
    for family in matrix.families:
        rows.append((f"{family} rules conforming", [r.tally(family).message for r in reports]))
    for standing, words in _RULE_COUNTS:
        symbol = STANDING_SYMBOLS[standing]
        rows.append((f"{symbol} {words}", [str(r.counts.get(standing)) for r in reports]))
    rows.append(
        (
            "Clauses " + " / ".join(STANDING_SYMBOLS[s] for s in _CLAUSE_ORDER),
            [
                " / ".join(
                    str(sum(c.standing == s for rule in r.rules for c in rule.clauses))
                    for s in _CLAUSE_ORDER
                )
                for r in reports
            ],
        )
    )
    rows.append(("Hunt", [_hunt(r) for r in reports]))
    rows.append(("Run", [_run(r) for r in reports]))
    return rows
