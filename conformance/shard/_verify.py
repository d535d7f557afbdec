"""A merge verifies each shard's share, never believes it.

A shard's standing says which rules it ran and which it left to the others; a standing
can be edited, or written by a shard run with other options.  So the merge recomputes
every shard's share from what its standing records (its options, its corpus, its index)
with the engine's own split (:meth:`conformance.engine.Suite.plan`, deterministic), and
refuses a shard whose record, whose reported rules or whose hunt differ from it, and a
rule claimed by two shards or by none.  Only a shard of this very build of rttool can be
planned again: one of another build is refused, naming both builds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from adapters.errors import RttoolError
from conformance.report import StandingReport

__all__ = ["MergeRefused", "Planner", "Share", "recomputed_share", "verify_shares"]


#: The most characters of a rule or invariant name a refusal shows.
_SHOWN = 100


class MergeRefused(RttoolError):
    """Standings that are not the shards of one run."""


@dataclass(frozen=True)
class Share:
    """What one shard of a run must have run and reported, recomputed: the selected
    rules it runs and those it leaves (in corpus order), the rules of its own its
    standing reports, and the hunt's invariants it judges; ``hunt_clauses`` holds each
    invariant's clauses (a shard's figures name no other), ``examples_at_most`` the most
    examples its share of a search bounded by a count may judge (``None``: unbounded, a
    search that spends its time budget)."""

    rules: tuple[str, ...]
    left: tuple[str, ...]
    reported: tuple[str, ...]
    hunt: tuple[str, ...]
    hunt_clauses: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    examples_at_most: int | None = None


#: How a merge recomputes a shard's share: ``(source, standing) -> Share``, raising
#: :class:`MergeRefused` where it cannot be recomputed.
Planner = Callable[[str, StandingReport], Share]


def recomputed_share(source: str, report: StandingReport) -> Share:
    """The share the engine's split gives the shard whose standing is ``report``,
    planned again from the options, corpus and index it records."""
    from adapters.errors import SuiteError
    from conformance.engine import RunOptions, load_suite, selected_clause, suite_build
    from conformance.hunt import Budget, share

    info = report.run.shard
    assert info is not None
    build = suite_build()
    if info.build != build:
        raise MergeRefused(
            "a shard of another build of rttool cannot be verified: merge with the rttool "
            "that ran the shards",
            file=source,
            build=info.build or "none",
            this=build,
        )
    suite = load_suite()
    if info.corpus != suite.corpus.digest:
        raise MergeRefused(
            "a shard split a rule corpus this rttool does not have",
            file=source,
            corpus=info.corpus,
            this=suite.corpus.digest,
        )
    options = RunOptions(
        only=report.run.only,
        levels=info.options.levels,
        no_hunt=not info.options.hunt,
        shard=(info.index, info.count),
    )
    try:
        plan = suite.plan(options)
    except SuiteError as err:
        raise MergeRefused(f"a shard's run cannot be planned again: {err}", file=source) from err
    assert plan.shard is not None

    def reported(rule_id: str) -> bool:  # as the engine's standing leaves a rule out
        rule = suite.corpus.get(rule_id)
        if rule is None or (options.levels and rule.level not in options.levels):
            return False
        return any(selected_clause(options, clause.id, rule.id) for clause in rule.clauses)

    hunted = [case for case in plan.cases if case.kind == "hunt" and case.clauses]
    # A search bounded by a count judges its share of the examples and no more: in CI
    # (or a reproducible report: no start time) without an example database.
    counted = report.hunt is not None and report.hunt.replayed is None
    counted = counted and (report.run.ci or report.run.started_at is None)
    examples = Budget.examples if info.options.examples is None else info.options.examples
    return Share(
        rules=plan.shard.rules,
        left=plan.shard.left,
        reported=tuple(rule for rule in plan.shard.rules if reported(rule)),
        hunt=tuple(case.name for case in hunted),
        hunt_clauses={case.name: tuple(case.clauses) for case in hunted},
        examples_at_most=share(examples, Budget.batch, (info.index, info.count))
        if counted
        else None,
    )


def _bounded(text: str) -> str:
    """A rule or invariant name as a message shows it: what a standing says is untrusted,
    and a line stays a line."""
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _rules_refused(source: str, named: str, said: Sequence[str], share: Share) -> MergeRefused:
    """Why a shard's recorded rules (``said``) are not its ``share``, in one line."""
    claimed = next((rule for rule in said if rule not in share.rules), None)
    if claimed is not None:
        why = f"shard {named} claims {_bounded(claimed)}, which the split gives to another shard"
    else:
        lacking = next((rule for rule in share.rules if rule not in said), None)
        why = (
            f"shard {named} leaves {lacking} to the others, but the split gives it to this shard"
            if lacking is not None
            else f"shard {named} records a selection other than the split's"
        )
    return MergeRefused(why, file=source)


def _differing(said: Sequence[str], expected: Sequence[str]) -> str:
    """An item of one list that the other lacks."""
    return next(
        (f"{_bounded(item)} (not its)" for item in said if item not in expected),
        next((f"{_bounded(item)} (missing)" for item in expected if item not in said), "repeated"),
    )


def verify_shares(shards: Sequence[tuple[str, StandingReport]], planner: Planner) -> None:
    """Refuse, in one line naming the shard's file, a shard whose recorded share, whose
    reported rules or whose hunt differ from the share ``planner`` recomputes, and a rule
    selected by the run that no shard or two shards ran."""
    owners: dict[str, str] = {}
    selected: set[str] = set()
    for source, report in shards:
        info = report.run.shard
        assert info is not None
        share = planner(source, report)
        named = f"{info.index}/{info.count}"
        if (info.rules, info.left) != (share.rules, share.left):
            raise _rules_refused(source, named, info.rules, share)
        reported = sorted(rule.id for rule in report.rules)
        if reported != sorted(share.reported):
            raise MergeRefused(
                "a shard's standing reports other rules than the split gives it",
                file=source,
                shard=named,
                rule=_differing(reported, share.reported),
            )
        hunted = sorted({one.check.name for one in info.hunt})
        if hunted != sorted(share.hunt):
            raise MergeRefused(
                "a shard's hunt judged other invariants than the run's",
                file=source,
                shard=named,
                invariant=_differing(hunted, share.hunt),
            )
        _verify_hunt_figures(source, named, report, share)
        for rule in info.rules:
            if rule in owners:
                raise MergeRefused(
                    "two shards ran one rule", rule=_bounded(rule), first=owners[rule]
                )
            owners[rule] = source
        selected.update(info.rules, info.left)
    unowned = sorted(selected - set(owners))
    if unowned:
        raise MergeRefused("a selected rule was run by no shard", rule=_bounded(unowned[0]))


def _verify_hunt_figures(source: str, named: str, report: StandingReport, share: Share) -> None:
    """Refuse a shard whose hunt figures its own standing contradicts: an invariant
    judged on a clause not its own, more examples judged for one invariant than the
    shard's search judged in all, or a search bounded by a count that judged more than
    its share."""
    info = report.run.shard
    assert info is not None
    judged_in_all = None if report.hunt is None else report.hunt.examples
    for one in info.hunt:
        clauses = share.hunt_clauses.get(one.check.name)
        if clauses is not None and one.clause not in clauses:
            raise MergeRefused(
                "a shard's hunt judged an invariant on a clause not its own",
                file=source,
                shard=named,
                invariant=_bounded(one.check.name),
                clause=_bounded(one.clause),
            )
        figures = one.check.hunt
        if figures is not None and (judged_in_all is None or figures.judged > judged_in_all):
            raise MergeRefused(
                "a shard's hunt figures count more examples than its search judged",
                file=source,
                shard=named,
                invariant=_bounded(one.check.name),
                judged=figures.judged,
                searched=judged_in_all if judged_in_all is not None else "none",
            )
    bound = share.examples_at_most
    if bound is not None and judged_in_all is not None and judged_in_all > bound:
        raise MergeRefused(
            "a shard's search judged more examples than its share of the count",
            file=source,
            shard=named,
            examples=judged_in_all,
            share=bound,
        )
