"""``rttool report merge``: shards of one run become the standing an unsplit run writes,
and anything else is refused with one line."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from conformance.report import (
    HuntFigures,
    HuntSummary,
    ShardHunt,
    ShardInfo,
    StandingReport,
    reproducible,
    to_json,
)
from conformance.shard import Merged, MergeRefused, Share
from conformance.shard import merge_standings as merged_by
from tests.conformance._support import rttool
from tests.report.sample import sample_report


def _mine(rules: list[str], index: int, count: int) -> tuple[str, ...]:
    """The split these tests make: rule n to shard n % count + 1."""
    return tuple(rule for n, rule in enumerate(rules) if n % count == index - 1)


def _split(report: StandingReport, count: int = 2) -> list[StandingReport]:
    """``report`` cut into ``count`` shard standings, as shards of its run would write."""
    rules = [rule.id for rule in report.rules]
    hunts = {
        check.name: ShardHunt(clause=clause.id, check=check)
        for _, clause, check in report.checks()
        if check.kind == "hunt"
    }
    shards = []
    for index in range(1, count + 1):
        mine = _mine(rules, index, count)
        left = tuple(rule for rule in rules if rule not in mine)
        # Every shard judged every invariant; the first found what the run found, the
        # others' share of the hunt judged no example.
        shown = tuple(
            one
            if index == 1
            else replace(one, check=replace(one.check, hunt=HuntFigures(judged=0, exercised=0)))
            for one in hunts.values()
        )
        info = ShardInfo(
            index=index,
            count=count,
            corpus="c0ffee",
            build="b0ffee",
            rules=mine,
            left=left,
            hunt=shown,
        )
        hunt = (
            report.hunt
            if index == 1
            else replace(report.hunt, examples=0, counterexamples=0, shrinks=0)
        )  # type: ignore[type-var]
        shards.append(
            replace(
                report,
                run=replace(report.run, shard=info),
                rules=tuple(rule for rule in report.rules if rule.id in mine),
                hunt=hunt,
            )
        )
    return shards


def _planned(source: str, report: StandingReport) -> Share:
    """The share ``_split`` gives a shard: what a merge of these tests recomputes."""
    del source
    info = report.run.shard
    assert info is not None
    whole = sample_report()
    rules = [rule.id for rule in whole.rules]
    mine = _mine(rules, info.index, info.count)
    hunts = [(check.name, clause.id) for _, clause, check in whole.checks() if check.kind == "hunt"]
    clauses: dict[str, tuple[str, ...]] = {}
    for name, clause in hunts:
        clauses[name] = (*clauses.get(name, ()), clause)
    assert whole.hunt is not None
    return Share(
        rules=mine,
        left=tuple(rule for rule in rules if rule not in mine),
        reported=mine,
        hunt=tuple(clauses),
        hunt_clauses=clauses,
        examples_at_most=whole.hunt.examples,
    )


def merge_standings(shards: list[tuple[str, StandingReport]]) -> Merged:
    """The merge, recomputing each share as ``_split`` makes it."""
    return merged_by(shards, planner=_planned)


def test_shards_merge_into_the_unsplit_standing() -> None:
    whole = reproducible(sample_report())
    shards = [reproducible(shard) for shard in _split(sample_report(), 3)]
    merged = merge_standings([(f"s{n}", shard) for n, shard in enumerate(shards)])
    assert to_json(merged.report) == to_json(whole)


def test_the_order_of_the_shards_does_not_matter() -> None:
    shards = _split(sample_report(), 3)
    forward = merge_standings([(str(n), s) for n, s in enumerate(shards)]).report
    backward = merge_standings([(str(n), s) for n, s in enumerate(reversed(shards))]).report
    assert to_json(forward) == to_json(backward)


def _implementation(report: StandingReport, **changes: object) -> StandingReport:
    return replace(report, implementation=replace(report.implementation, **changes))


def _shard(report: StandingReport, **changes: object) -> StandingReport:
    assert report.run.shard is not None
    return replace(report, run=replace(report.run, shard=replace(report.run.shard, **changes)))


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda r: _implementation(r, name="other-runtime"), "of different implementations"),
        (lambda r: _implementation(r, version="9.9"), "of different implementation versions"),
        (
            lambda r: replace(r, suite=replace(r.suite, version="0.0.9")),
            "of different suite versions",
        ),
        (lambda r: _shard(r, corpus="deadbeef"), "over different rule corpora"),
        (lambda r: replace(r, run=replace(r.run, seed=7)), "with different seeds"),
        (
            lambda r: replace(r, run=replace(r.run, only=("RT-TOOL-7",))),
            "with different selections",
        ),
        (reproducible, "one is reproducible and one is not"),
        (
            lambda r: replace(
                r, hunt=HuntSummary(budget_s=99.0, elapsed_s=1.0, examples=1, counterexamples=0)
            ),
            "different hunt budgets",
        ),
        (lambda r: _shard(r, index=1), "a shard is given twice"),
        (lambda r: _shard(r, count=3), "shards of runs split differently"),
        (lambda r: replace(r, run=replace(r.run, shard=None)), "not the standing of a shard"),
    ],
)
def test_standings_that_are_not_one_runs_shards_are_refused(change, said: str) -> None:  # type: ignore[no-untyped-def]
    first, second = _split(sample_report())
    with pytest.raises(MergeRefused, match=said):
        merge_standings([("a.json", first), ("b.json", change(second))])


def _options(report: StandingReport, **changes: object) -> StandingReport:
    assert report.run.shard is not None
    options = replace(report.run.shard.options, **changes)
    return _shard(report, options=options)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda r: _options(r, examples=500), "with different hunt options"),
        (lambda r: _options(r, hunt_seconds=60.0), "with different hunt options"),
        (lambda r: _options(r, timeout=5.0), "with different timeouts"),
        (lambda r: _options(r, exitfirst=True), "one stopped at its first failure"),
        (lambda r: _options(r, levels=("core",)), "with different level selections"),
        (lambda r: _shard(r, build="0ther"), "of different suite builds"),
    ],
)
def test_shards_run_with_other_options_or_another_build_are_refused(change, said: str) -> None:  # type: ignore[no-untyped-def]
    """Shards of different --examples, --hunt-seconds, --timeout, -x or levels, and two
    commits sharing one version number, are not one run's."""
    first, second = _split(sample_report())
    with pytest.raises(MergeRefused, match=said):
        merge_standings([("a.json", first), ("b.json", change(second))])


def _moved_to_left(report: StandingReport) -> StandingReport:
    """``report`` with its first rule moved from ``run.shard.rules`` to ``left``, and
    dropped from the standing: a failing rule made to vanish."""
    info = report.run.shard
    assert info is not None
    gone = info.rules[0]
    changed = _shard(report, rules=info.rules[1:], left=(gone, *info.left))
    return replace(changed, rules=tuple(rule for rule in report.rules if rule.id != gone))


def _claims_every_rule(report: StandingReport) -> StandingReport:
    info = report.run.shard
    assert info is not None
    return _shard(report, rules=tuple(sorted(info.rules + info.left)), left=())


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (_moved_to_left, "leaves RT-TOOL-1 to the others, but the split gives it to this"),
        (_claims_every_rule, "shard 1/2 claims DR-2, which the split gives to another shard"),
        (
            lambda r: replace(r, rules=r.rules[1:]),
            "a shard's standing reports other rules than the split gives it",
        ),
        (
            lambda r: _shard(r, hunt=()),
            "a shard's hunt judged other invariants than the run's",
        ),
    ],
)
def test_a_shard_whose_share_is_not_the_splits_is_refused(change, said: str) -> None:  # type: ignore[no-untyped-def]
    """The merge recomputes each share: a rule a shard moved to ``left`` (and so out of
    the merged standing), a shard claiming every rule, a standing that drops a rule it
    owns or the hunt it judged, are each refused rather than merged without them."""
    first, second = _split(sample_report())
    with pytest.raises(MergeRefused, match=said):
        merge_standings([("a.json", change(first)), ("b.json", second)])


def _hunt_of(report: StandingReport, **changes: object) -> StandingReport:
    """``report`` with its shard's first hunt figures changed."""
    info = report.run.shard
    assert info is not None and info.hunt
    first = info.hunt[0]
    if "clause" in changes:
        changed = replace(first, clause=changes["clause"])
    else:
        changed = replace(first, check=replace(first.check, hunt=HuntFigures(**changes)))  # type: ignore[arg-type]
    return _shard(report, hunt=(changed, *info.hunt[1:]))


def _searched(report: StandingReport, examples: int) -> StandingReport:
    assert report.hunt is not None
    return replace(report, hunt=replace(report.hunt, examples=examples))


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            lambda r: _hunt_of(r, judged=10**6, exercised=10**6),
            "hunt figures count more examples than its search judged",
        ),
        (
            lambda r: _hunt_of(r, clause="RT-TOOL-1/p9"),
            "judged an invariant on a clause not its own",
        ),
        (
            lambda r: _searched(r, 10**6),
            "judged more examples than its share of the count",
        ),
    ],
)
def test_a_shard_whose_hunt_figures_its_standing_contradicts_is_refused(change, said: str) -> None:  # type: ignore[no-untyped-def]
    """The merge sums the shards' hunt figures: a shard claiming more examples than its
    search judged, figures on a clause the invariant does not hold, or a counted search
    beyond its share would pass an invariant no example exercised."""
    first, second = _split(sample_report())
    merge_standings([("a.json", first), ("b.json", second)])  # as split, it merges
    with pytest.raises(MergeRefused, match=said):
        merge_standings([("a.json", change(first)), ("b.json", second)])


def test_a_rule_claimed_by_two_shards_is_refused_whatever_the_planner() -> None:
    """Even a planner that believed every record would not let two shards own a rule."""
    first, second = _split(sample_report())
    assert first.run.shard is not None and second.run.shard is not None
    taken = first.run.shard.rules[0]
    both = _shard(
        second,
        rules=(*second.run.shard.rules, taken),
        left=tuple(rule for rule in second.run.shard.left if rule != taken),
    )

    def believing(source: str, report: StandingReport) -> Share:
        info = report.run.shard
        assert info is not None
        names = tuple(one.check.name for one in info.hunt)
        reported = tuple(rule.id for rule in report.rules)
        return Share(rules=info.rules, left=info.left, reported=reported, hunt=names)

    with pytest.raises(MergeRefused, match="two shards ran one rule: rule=RT-TOOL-1"):
        merged_by([("a.json", first), ("b.json", both)], planner=believing)


def test_a_missing_shard_is_refused() -> None:
    first, _ = _split(sample_report())
    with pytest.raises(MergeRefused, match="shards are missing: missing=2/2"):
        merge_standings([("a.json", first)])


def test_the_command_refuses_in_one_line(tmp_path: Path) -> None:
    first, second = _split(sample_report())
    for name, report in (("a", first), ("b", _implementation(second, name="other"))):
        (tmp_path / name).mkdir()
        (tmp_path / name / "standing.json").write_text(to_json(report), encoding="utf-8")
    done = rttool("report", "merge", "a", "b", "--out", "merged", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "of different implementations" in done.stderr
    assert not (tmp_path / "merged").exists()


@pytest.mark.slow
def test_four_shards_merged_equal_one_run(tmp_path: Path) -> None:
    """The reference runtime run whole, and in four shards merged: the same bytes."""
    common = ["run", "-q", "--reproducible", "--examples", "100", "--seed", "3"]
    ci = {"CI": "true"}
    whole = rttool(*common, "--report-dir", "whole", cwd=tmp_path, env=ci)
    assert whole.returncode == 0, whole.stderr
    for index in range(1, 5):
        part = rttool(
            *common, "--shard", f"{index}/4", "--report-dir", f"s{index}", cwd=tmp_path, env=ci
        )
        assert part.returncode == 0, part.stderr
        shard = (tmp_path / f"s{index}" / "standing.json").read_text(encoding="utf-8")
        assert f'"index": {index}' in shard and '"count": 4' in shard
    merged = rttool("report", "merge", "s1", "s2", "s3", "s4", "--out", "merged", cwd=tmp_path)
    assert merged.returncode == 0, merged.stderr
    for name in ("standing.json", "STANDING.md"):
        expected = (tmp_path / "whole" / name).read_bytes()
        assert (tmp_path / "merged" / name).read_bytes() == expected, name


def test_a_shards_reports_say_which_shard_it_is_and_what_it_left(tmp_path: Path) -> None:
    from conformance.report import terminal_table, write_reports

    shard = _split(sample_report())[1]
    assert shard.run.shard is not None and shard.run.shard.left
    write_reports(shard, tmp_path, ("markdown",))
    said = (tmp_path / "STANDING.md").read_text(encoding="utf-8")
    assert "shard 2 of 2" in said and shard.run.shard.left[0] in said
    assert f"shard 2/2: left to the other shards: {shard.run.shard.left[0]}" in terminal_table(
        shard
    )
