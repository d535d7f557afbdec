"""Reproducible reports: the same standing, without what changes from run to run.

A report that is committed to a repository (``reports/reference/``) must not change when
nothing but the clock did: otherwise every run of the suite leaves a modified file
behind.  :func:`reproducible` drops the start time and every duration (the run's, each
check's, the hunt's elapsed time); everything the standing rests on stays.  The other
formats of the same run keep the timings (``rttool run --reproducible`` rewrites only
``standing.json`` and ``STANDING.md``).
"""

from __future__ import annotations

from dataclasses import replace

from conformance.report._model import ClauseResult, RuleResult
from conformance.report._run import RunInfo, ShardInfo
from conformance.report._standing import StandingReport

__all__ = ["is_reproducible", "reproducible"]


def _clause(clause: ClauseResult) -> ClauseResult:
    return replace(clause, checks=tuple(replace(check, duration_s=None) for check in clause.checks))


def _rule(rule: RuleResult) -> RuleResult:
    return replace(rule, clauses=tuple(_clause(clause) for clause in rule.clauses))


def _run(run: RunInfo) -> RunInfo:
    shard: ShardInfo | None = run.shard
    if shard is not None:
        untimed = tuple(
            replace(one, check=replace(one.check, duration_s=None)) for one in shard.hunt
        )
        shard = replace(shard, hunt=untimed)
    return replace(run, started_at=None, duration_s=None, shard=shard)


def reproducible(report: StandingReport) -> StandingReport:
    """``report`` without its start time, its durations and the hunt's count of shrinking
    runs (``None`` in their place)."""
    hunt = report.hunt
    return StandingReport(
        implementation=report.implementation,
        suite=report.suite,
        run=_run(report.run),
        rules=tuple(_rule(rule) for rule in report.rules),
        warnings=report.warnings,
        hunt=None if hunt is None else replace(hunt, elapsed_s=None, shrinks=None),
    )


def is_reproducible(report: StandingReport) -> bool:
    """Whether ``report`` records no start time and no duration at all."""
    run, hunt = report.run, report.hunt
    return (
        run.started_at is None
        and run.duration_s is None
        and (hunt is None or (hunt.elapsed_s is None and hunt.shrinks is None))
        and all(check.duration_s is None for rule in report.rules for _, check in rule.checks())
        and (run.shard is None or all(one.check.duration_s is None for one in run.shard.hunt))
    )
