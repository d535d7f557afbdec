"""The standing as plain terminal text: a line per rule and a summary table.

Both are pure functions of the result model, so the live line printed when a rule's
last case finishes and the table printed at the end can never disagree.
"""

from __future__ import annotations

from conformance._escape import printable
from conformance.report._model import RuleResult
from conformance.report._standing import StandingReport

__all__ = ["rule_line", "terminal_table"]


def _conforming(rule: RuleResult) -> str:
    conforming = sum(1 for clause in rule.clauses if clause.standing == "conforms")
    return f"{conforming}/{len(rule.clauses)}"


def rule_line(rule: RuleResult) -> str:
    """``RT-TOOL-6   untested   3/6 clauses conform``."""
    return printable(f"{rule.id:<11} {rule.standing:<17} {_conforming(rule)} clauses conform")


def terminal_table(report: StandingReport) -> str:
    """A table of rules (id, level, standing, conforming clauses) and the family tallies."""
    rows = [("Rule", "Level", "Standing", "Clauses")]
    rows += [(rule.id, rule.level, rule.standing, _conforming(rule)) for rule in report.rules]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = [
        "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    tallies = ", ".join(f"{t.family} {t.message}" for t in report.tallies())
    lines.append(f"conforming: {tallies or 'no rule selected'}")
    status = report.hunt_status()
    if status == "failed" and report.hunt is not None:
        lines.append(
            f"hunt: stopped on an error after {report.hunt.examples} examples "
            "(see the errors of its checks)"
        )
    elif status == "failed":
        lines.append("hunt: did not complete (see the errors of its checks)")
    elif status == "skipped":
        lines.append("hunt: nothing to search (its checks are untested or not applicable)")
    elif status == "off":
        lines.append("hunt: did not run (clauses only the hunt covers stay untested)")
    if report.run.only:
        lines.append(f"partial run: only {', '.join(report.run.only)}")
    shard = report.run.shard
    if shard is not None:
        left = ", ".join(shard.left) or "nothing"
        lines.append(f"shard {shard.index}/{shard.count}: left to the other shards: {left}")
    return "\n".join(printable(line) for line in lines)
