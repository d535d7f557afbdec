"""The standings of a split run's shards, merged into the one an unsplit run writes.

Each rule's standing comes whole from the shard that ran it; the hunt, split by examples,
is summed: an invariant's figures are every shard's added up, and it failed where any
shard found it broken (the lowest shard's counterexample is the one kept).  Standings of
different implementations, suite builds, corpora, seeds, options or selections never
merge, and no shard's own claim of what it ran is believed: each share is recomputed
(:mod:`conformance.shard._verify`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from conformance.report import (
    CheckResult,
    ClauseResult,
    HuntFigures,
    HuntSummary,
    RuleResult,
    RunInfo,
    ShardInfo,
    StandingReport,
    is_reproducible,
)
from conformance.rules import rule_sort_key
from conformance.shard._verify import MergeRefused, Planner, recomputed_share, verify_shares

__all__ = ["MergeRefused", "Merged", "merge_standings"]

_JUDGED = re.compile(r"\(\d+ examples judged\)$")


@dataclass(frozen=True)
class Merged:
    """The merged standing, and for each evidence file it names the shard (from 1) whose
    report directory holds it."""

    report: StandingReport
    evidence: dict[str, int]


def merge_standings(
    shards: Sequence[tuple[str, StandingReport]], *, planner: Planner = recomputed_share
) -> Merged:
    """Merge ``(source, standing)`` pairs, the standings of every shard of one run.
    ``planner`` recomputes what each shard must have run (by default the engine's split,
    for shards of this build of rttool).

    Raises :class:`MergeRefused` naming the first source that does not belong.
    """
    infos = _shard_infos(shards)
    first_source, first = shards[0]
    for source, report in shards[1:]:
        _same_run(first_source, first, source, report)
    verify_shares(shards, planner)
    by_index = {info.index: report for info, (_, report) in zip(infos, shards, strict=True)}
    hunts = _merged_hunts(infos)
    owners = {rule: info.index for info in infos for rule in info.rules}
    evidence: dict[str, int] = {}
    rules: list[RuleResult] = []
    for rule_id in sorted(owners, key=rule_sort_key):
        owned = by_index[owners[rule_id]].rule(rule_id)
        if owned is None:
            continue  # the shard selected it but nothing of it was reported
        rule = _with_hunts(owned, hunts)
        rules.append(rule)
        for clause, check in rule.checks():
            hunted = hunts.get((clause.id, check.name)) if check.kind == "hunt" else None
            held = hunted[1] if hunted is not None else owners[rule_id]
            evidence.update((path, held) for _, path in check.evidence.items())
    report = StandingReport(
        implementation=first.implementation,
        suite=first.suite,
        run=_merged_run([report.run for _, report in shards]),
        rules=tuple(rules),
        warnings=tuple(dict.fromkeys(w for _, report in shards for w in report.warnings)),
        hunt=_merged_summary([report.hunt for _, report in shards], hunts),
    )
    return Merged(report, evidence)


def _shard_infos(shards: Sequence[tuple[str, StandingReport]]) -> list[ShardInfo]:
    """Every standing's shard record, checked to make one whole run."""
    if not shards:
        raise MergeRefused("nothing to merge: name the standing.json of every shard")
    infos: list[ShardInfo] = []
    for source, report in shards:
        if report.run.shard is None:
            raise MergeRefused("not the standing of a shard (rttool run --shard)", file=source)
        infos.append(report.run.shard)
    count = infos[0].count
    for (source, _), info in zip(shards, infos, strict=True):
        if info.count != count:
            raise MergeRefused(
                "shards of runs split differently", file=source, count=info.count, expected=count
            )
    indexes = [info.index for info in infos]
    repeated = sorted({index for index in indexes if indexes.count(index) > 1})
    if repeated:
        raise MergeRefused("a shard is given twice", shard=f"{repeated[0]}/{count}")
    missing = sorted(set(range(1, count + 1)) - set(indexes))
    if missing:
        said = ",".join(f"{index}/{count}" for index in missing)
        raise MergeRefused("shards are missing", missing=said)
    return infos


def _same_run(source_a: str, a: StandingReport, source_b: str, b: StandingReport) -> None:
    """Refuse ``b`` unless it is a shard of the same run as ``a``: one line saying why."""
    shard_a, shard_b = a.run.shard, b.run.shard
    assert shard_a is not None and shard_b is not None
    differences = (
        ("of different implementations", a.implementation.name, b.implementation.name),
        (
            "of different implementation versions",
            a.implementation.version,
            b.implementation.version,
        ),
        ("of different implementation specs", a.implementation.spec, b.implementation.spec),
        (
            "of different profiles or capabilities",
            (a.implementation.profiles, a.implementation.capabilities),
            (b.implementation.profiles, b.implementation.capabilities),
        ),
        ("of different suite versions", a.suite.version, b.suite.version),
        ("over different rule corpora", shard_a.corpus, shard_b.corpus),
        ("of different suite builds", shard_a.build, shard_b.build),
        ("with different seeds", a.run.seed, b.run.seed),
        (
            "with different selections",
            (a.run.only, a.run.levels, a.run.mutant),
            (b.run.only, b.run.levels, b.run.mutant),
        ),
        ("with different hunt modes", (a.run.ci, a.run.spec), (b.run.ci, b.run.spec)),
        ("of which one is reproducible and one is not", is_reproducible(a), is_reproducible(b)),
        ("with different hunt budgets", _budget(a), _budget(b)),
        (
            "with different hunt options",
            (shard_a.options.hunt, shard_a.options.examples, shard_a.options.hunt_seconds),
            (shard_b.options.hunt, shard_b.options.examples, shard_b.options.hunt_seconds),
        ),
        ("with different timeouts", shard_a.options.timeout, shard_b.options.timeout),
        (
            "of which one stopped at its first failure (-x) and one did not",
            shard_a.options.exitfirst,
            shard_b.options.exitfirst,
        ),
        ("with different level selections", shard_a.options.levels, shard_b.options.levels),
        (
            "with different rule selections",
            sorted(shard_a.rules + shard_a.left),
            sorted(shard_b.rules + shard_b.left),
        ),
    )
    for why, left, right in differences:
        if left != right:
            raise MergeRefused(f"standings {why} cannot be merged", first=source_a, file=source_b)


def _budget(report: StandingReport) -> float | None:
    return None if report.hunt is None else report.hunt.budget_s


#: An invariant's check on one of its clauses: ``(clause, check name)``.
HuntKey = tuple[str, str]


def _merged_hunts(infos: Sequence[ShardInfo]) -> dict[HuntKey, tuple[CheckResult, int]]:
    """Each invariant's check on each of its clauses over every shard, with the shard its
    evidence is from, and the situations every shard's share of the examples reached."""
    found: dict[HuntKey, list[tuple[CheckResult, int]]] = {}
    for info in infos:
        for one in info.hunt:
            found.setdefault((one.clause, one.check.name), []).append((one.check, info.index))
    merged = {}
    for key, entries in found.items():
        check, index = _merged_hunt(entries)
        reached = tuple(dict.fromkeys(s for one, _ in entries for s in one.reached))
        merged[key] = (replace(check, reached=reached), index)
    return merged


def _merged_hunt(entries: list[tuple[CheckResult, int]]) -> tuple[CheckResult, int]:
    """One invariant's verdict over the shards: a failure anywhere fails it (the lowest
    shard's is kept), then an error; it passed where some shard judged it and the
    examples that exercised it, summed, are not none."""
    entries = sorted(entries, key=lambda entry: entry[1])
    figures = [check.hunt for check, _ in entries if check.hunt is not None]
    summed = (
        HuntFigures(
            judged=sum(f.judged for f in figures), exercised=sum(f.exercised for f in figures)
        )
        if figures
        else None
    )
    durations = [check.duration_s for check, _ in entries]
    duration = None if None in durations else max(d for d in durations if d is not None)
    for wanted in ("failed", "error"):
        for check, index in entries:
            if check.outcome == wanted:
                return replace(check, hunt=summed, duration_s=duration), index
    check, index = entries[0]
    if all(check.skip_kind == "not-applicable" for check, _ in entries):
        return replace(check, hunt=summed, duration_s=duration), index
    passed = next(((c, i) for c, i in entries if c.outcome == "passed"), None)
    if passed is not None and summed is not None and summed.exercised > 0:
        return replace(passed[0], hunt=summed, duration_s=duration), passed[1]
    untested = next((c for c, _ in entries if c.skip_kind == "untested"), check)
    message = untested.message
    if summed is not None:
        message = _JUDGED.sub(f"({summed.judged} examples judged)", message)
    return replace(untested, message=message, hunt=summed, duration_s=duration), index


def _with_hunts(rule: RuleResult, hunts: dict[HuntKey, tuple[CheckResult, int]]) -> RuleResult:
    """``rule`` with each hunt check replaced by its merged verdict, and the situations of
    its clause that some shard's examples reached, in the clause's order."""

    def merged(clause: ClauseResult, check: CheckResult) -> CheckResult:
        found = hunts.get((clause.id, check.name))
        if check.kind != "hunt" or found is None:
            return check
        reached = [s for s in clause.situations if s in found[0].reached]
        return replace(found[0], reached=tuple(reached))

    return replace(
        rule,
        clauses=tuple(
            replace(clause, checks=tuple(merged(clause, check) for check in clause.checks))
            for clause in rule.clauses
        ),
    )


def _merged_run(runs: Sequence[RunInfo]) -> RunInfo:
    """The run as one: it started with its first shard and took as long as its longest."""
    durations = [run.duration_s for run in runs if run.duration_s is not None]
    first = runs[0]
    return replace(
        first,
        started_at=_earliest(runs),
        duration_s=max(durations) if durations else None,
        shard=None,
    )


def _earliest(runs: Sequence[RunInfo]) -> str | None:
    dated = [(run.started, run.started_at) for run in runs if run.started is not None]
    return min(dated)[1] if dated else None


def _merged_summary(
    summaries: Sequence[HuntSummary | None], hunts: dict[HuntKey, tuple[CheckResult, int]]
) -> HuntSummary | None:
    """The hunt as one search: the examples of every shard, each finding once."""
    present = [summary for summary in summaries if summary is not None]
    if not present:
        return None

    def total(values: list[int | None]) -> int | None:
        return None if None in values else sum(v for v in values if v is not None)

    elapsed = [s.elapsed_s for s in present]
    return HuntSummary(
        budget_s=present[0].budget_s,
        elapsed_s=None if None in elapsed else max(e for e in elapsed if e is not None),
        examples=sum(s.examples for s in present),
        counterexamples=len(
            {name for (_, name), (check, _) in hunts.items() if check.outcome == "failed"}
        ),
        shrinks=total([s.shrinks for s in present]),
        replayed=total([s.replayed for s in present]),
    )
