"""The hunt's cases: one per invariant, all sharing one search per process.

A verdict never exceeds its evidence: an invariant that no generated example exercised
is untested, never passed, and a passing hunt never makes a clause conform on its own
(only a hand-written check or an example vector does; see the report model).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from adapters.codec import to_json
from conformance.engine._case import Case, hunt_case_id, hunt_case_name
from conformance.engine._example import fail_on
from conformance.hunt import Budget, HuntOutcome, Tally, breached, hunt, share, steps_summary
from conformance.rules import load_corpus
from conformance.toolkit.machinery import (
    CheckContext,
    ClauseSituation,
    Invariant,
    NotApplicable,
    Untested,
)

__all__ = ["HuntOptions", "hunt_cases", "hunt_cases_over"]


class HuntOptions(Protocol):
    """The run options the hunt reads."""

    @property
    def examples(self) -> int | None: ...
    @property
    def hunt_seconds(self) -> float | None: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def ci(self) -> bool: ...
    @property
    def reproducible(self) -> bool: ...
    @property
    def report_dir(self) -> Path | None: ...
    @property
    def shard(self) -> tuple[int, int] | None: ...
    @property
    def example_db(self) -> str | None: ...
    @property
    def spec(self) -> str: ...


@dataclass
class _SharedSearch:
    budget: Budget
    invariants: tuple[Invariant, ...]
    outcome: HuntOutcome | None = None
    failure: Exception | None = None
    #: ``--example-db``
    example_db: str | None = None
    claimed: tuple[Invariant, ...] = field(default_factory=tuple)
    #: each clause's situations, whose reaching the search notes on every example
    situations: Mapping[str, tuple[ClauseSituation, ...]] = field(default_factory=dict)

    def run(self, ctx: CheckContext) -> HuntOutcome:
        if self.failure is not None:  # one search per process, even when it failed
            raise self.failure
        if self.outcome is None:
            claimed = [
                i
                for i in self.invariants
                if i.not_applicable(ctx.handshake) is None
                and all(getattr(ctx.handshake.capabilities, n, False) is True for n in i.needs)
            ]
            self.claimed = tuple(claimed)
            try:
                self.outcome = hunt(
                    ctx.runner,
                    ctx.handshake,
                    claimed,
                    self._budget(ctx),
                    keep_broken=True,
                    situations=self.situations,
                )
            except Exception as err:
                self.failure = err
                raise
        return self.outcome

    def _budget(self, ctx: CheckContext) -> Budget:
        """The budget, with the example database opened where one was given: its keys
        scoped by the implementation's whole handshake (never by its name, which another
        runtime may take, nor by anything of ``--impl``), its time counted in the hunt's."""
        if self.example_db is None or self.budget.derandomize:
            return self.budget
        from conformance.hunt import example_scope, open_database, store_seconds

        scope = example_scope(ctx.handshake, load_corpus().digest)
        seconds = store_seconds(self.budget.seconds)
        store = open_database(self.example_db, scope, self.budget.database, seconds=seconds)
        return replace(self.budget, store=store)


def _judged(invariant: Invariant, shared: _SharedSearch, ctx: CheckContext) -> None:
    """Hold the shared search's outcome to ``invariant``: what the case concludes."""
    reason = invariant.not_applicable(ctx.handshake)
    if reason is not None:
        raise NotApplicable(reason)
    ctx.require(*invariant.needs)
    outcome = shared.run(ctx)
    tally = outcome.tallies.get(invariant.name, Tally())
    ctx.evidence.hunt = {
        "examples": outcome.examples,
        "shrinks": outcome.shrinks,
        "elapsed_s": outcome.elapsed_s,
        "budget_s": shared.budget.seconds,
        "counterexamples": len(outcome.findings),
        "judged": tally.judged,
        "exercised": tally.exercised,
    }
    if outcome.replayed is not None:
        ctx.evidence.hunt["replayed"] = outcome.replayed
        ctx.evidence.hunt["store_lost"] = int(outcome.store_lost)
    if outcome.interrupted:
        ctx.evidence.hunt["interrupted"] = 1
    if outcome.error is not None:
        raise Untested(outcome.error)
    found = outcome.findings.get(invariant.name)
    if found is None:
        # No counterexample to show what it met: the examples judged against it are its
        # evidence of the situations its clauses name.
        ctx.evidence.reached = {
            clause: outcome.reached[clause]
            for clause in invariant.clauses
            if clause in outcome.reached
        }
        _unbroken(outcome, tally, invariant, ctx)
        return
    ctx.evidence.runs.append((found.scenario, found.trace))
    broken = breached(invariant, found.message)
    ctx.evidence.counterexample = {
        "invariant": invariant.name,
        "clauses": list(broken),
        "message": str(found.message),
        "steps": steps_summary(found.scenario),
        "scenario": to_json(found.scenario),
    }
    message = (
        f"{found.message} (minimal scenario, {len(found.scenario.steps)} steps: "
        f"{steps_summary(found.scenario)}; found after {tally.judged} examples, "
        f"{outcome.examples} in all)"  # its time is the hunt summary's, not the verdict's
    )
    # The search stops looking for an invariant once it is broken: the case ends as
    # failed, on the clauses the finding breaks (the one way ``rttool replay`` ends too).
    fail_on(ctx, invariant, found.message, message)


def _unbroken(outcome: HuntOutcome, tally: Tally, invariant: Invariant, ctx: CheckContext) -> None:
    """An invariant the search did not find broken: passed only where examples were
    judged against it and some exercised it."""
    if outcome.broken is not None:
        # The search ended on an example the implementation could not run: what it
        # judged before stands, and the example is this error's evidence.
        if outcome.broken_on is not None:
            ctx.evidence.runs.append((outcome.broken_on, outcome.broken.partial_trace))
        raise outcome.broken
    if outcome.interrupted:
        raise Untested(
            f"the hunt was interrupted after {outcome.examples} examples, "
            f"none of the {tally.judged} judged against it broke it"
        )
    if tally.judged == 0:  # a search that tried nothing proves nothing
        raise Untested("the hunt generated no example within its budget")
    if tally.exercised == 0:
        raise Untested(
            f"no generated example reached {invariant.situation} ({tally.judged} examples judged)"
        )


def _case(invariant: Invariant, shared: _SharedSearch) -> Case:
    def run(ctx: CheckContext) -> None:
        _judged(invariant, shared, ctx)

    return Case(
        id=hunt_case_id(invariant.name),
        name=hunt_case_name(invariant.name),
        kind="hunt",
        clauses=invariant.clauses,
        summary=invariant.judge.__doc__ or invariant.name,
        run=run,
        through=invariant.through,
    )


def hunt_cases(
    invariants: tuple[Invariant, ...],
    options: HuntOptions,
    situations: Mapping[str, tuple[ClauseSituation, ...]] | None = None,
) -> list[Case]:
    """One case per invariant, in the hunt's order, sharing one search with the
    options' budget; the search notes which of ``situations`` (each clause's, by clause
    id) its examples reach, for the cases of the invariants it does not find broken.

    In CI (``CI=true``) and for ``--reproducible`` reports the search is reproducible:
    seeded batch by batch, it judges
    exactly the example count asked for (the time budget only guards against an
    implementation that never finishes), so the same run judges the same examples on a
    busy machine and an idle one.  Elsewhere it spends its time budget, the example count
    being a floor."""
    examples = Budget.examples if options.examples is None else options.examples
    shard = options.shard or (1, 1)
    # A shared example database replays what any run saved: such a search is not
    # reproducible, even in CI, and it is what was asked for.
    reproducible = (options.ci or options.reproducible) and options.example_db is None
    # A shard judges its own batches of the one search: their share of the examples.
    examples = share(examples, Budget.batch, shard)
    budget = Budget(
        examples=examples,
        seconds=Budget.seconds if options.hunt_seconds is None else options.hunt_seconds,
        seed=options.seed,
        derandomize=reproducible,
        # A reproducible search replays nothing an earlier run saved.
        database=(options.report_dir / ".hypothesis")
        if options.report_dir and not reproducible
        else None,
        limit=examples if reproducible else None,
        shrinks=200 if reproducible else None,
        shard=shard,
    )
    shared = _SharedSearch(
        budget, invariants, example_db=options.example_db, situations=situations or {}
    )
    return [_case(invariant, shared) for invariant in invariants]


def hunt_cases_over(
    outcome: HuntOutcome,
    invariants: tuple[Invariant, ...],
    situations: Mapping[str, tuple[ClauseSituation, ...]] | None = None,
) -> list[Case]:
    """One case per invariant over a search already made (the self-test runs its own,
    bounded as a verdict on a mutant needs): each judges ``outcome`` exactly as a run's
    hunt case judges the search it shares, so its failures land where a run's would."""
    shared = _SharedSearch(Budget(), invariants, outcome=outcome, situations=situations or {})
    shared.claimed = invariants
    return [_case(invariant, shared) for invariant in invariants]
