"""Property-based hunting: hypothesis searches an implementation for double delivery,
lost artifacts, leaks, repeated side effects and misreported work, and shrinks what it
finds.

* :mod:`conformance.hunt.strategies` — public strategies for scenarios;
* :mod:`conformance.hunt.invariants` — every rule's invariants (declared in
  ``conformance/checks/<rule>/invariants.py``, each bound to its clauses and to the
  situation they speak of), in the order the search holds them;
* :func:`hunt_cases` — one case per invariant for the suite; the search itself runs once
  per process and is shared by those cases.

A verdict never exceeds its evidence: an invariant that no generated example exercised
is untested, never passed, and a passing hunt never makes a clause conform on its own
(only a hand-written check or an example vector does; see the report model).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from adapters.codec import to_json
from adapters.scenario import Scenario
from conformance.cases import Case
from conformance.hunt._search import Budget, Finding, HuntOutcome, Tally, hunt
from conformance.hunt.invariants import INVARIANTS
from conformance.report import HUNT_PREFIX
from conformance.toolkit import Breach, CheckContext, Invariant, NotApplicable, Untested

__all__ = [
    "INVARIANTS",
    "Budget",
    "Finding",
    "HuntOutcome",
    "Tally",
    "breached",
    "hunt",
    "hunt_cases",
    "share",
    "steps_summary",
]


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
    def report_dir(self) -> Path | None: ...
    @property
    def shard(self) -> tuple[int, int] | None: ...
    @property
    def example_db(self) -> str | None: ...
    @property
    def spec(self) -> str: ...


def steps_summary(scenario: Scenario) -> str:
    """The scenario's steps on one line: ``start_turn(t1) -> fail_write_back -> ...``."""
    parts = []
    for step in scenario.steps:
        described = to_json(step)
        assert isinstance(described, dict)
        args = [str(v) for k, v in described.items() if k in ("turn", "point", "cause")]
        parts.append(f"{step.op}({', '.join(args)})" if args else step.op)
    return " -> ".join(parts)


@dataclass
class _SharedSearch:
    budget: Budget
    outcome: HuntOutcome | None = None
    invariants: tuple[Invariant, ...] = field(default_factory=tuple)
    failure: Exception | None = None
    #: ``--example-db``, and what tells this implementation's saved examples apart
    example_db: str | None = None
    variant: str = ""

    def run(self, ctx: CheckContext) -> HuntOutcome:
        if self.failure is not None:  # one search per process, even when it failed
            raise self.failure
        if self.outcome is None:
            claimed = [
                i
                for i in INVARIANTS
                if i.not_applicable(ctx.handshake) is None
                and all(getattr(ctx.handshake.capabilities, n, False) is True for n in i.needs)
            ]
            self.invariants = tuple(claimed)
            try:
                self.outcome = hunt(
                    ctx.runner, ctx.handshake, claimed, self._budget(ctx), keep_broken=True
                )
            except Exception as err:
                self.failure = err
                raise
        return self.outcome

    def _budget(self, ctx: CheckContext) -> Budget:
        """The budget, with the example database opened where one was given."""
        if self.example_db is None or self.budget.derandomize:
            return self.budget
        from dataclasses import replace

        from conformance.hunt._database import open_database
        from conformance.rules import load_corpus
        from conformance.shard import corpus_digest

        name = ctx.handshake.implementation.name
        scope = f"rttool:{name}:{self.variant}:{corpus_digest(load_corpus())}:".encode()
        local = self.budget.database
        return replace(self.budget, store=open_database(self.example_db, scope, local))


def _case(invariant: Invariant, shared: _SharedSearch) -> Case:
    def run(ctx: CheckContext) -> None:
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
        if found is None and outcome.broken is not None:
            # The search ended on an example the implementation could not run: what it
            # judged before stands (above), and the example is this error's evidence.
            if outcome.broken_on is not None:
                ctx.evidence.runs.append((outcome.broken_on, outcome.broken.partial_trace))
            raise outcome.broken
        if found is None and outcome.interrupted:
            raise Untested(
                f"the hunt was interrupted after {outcome.examples} examples, "
                f"none of the {tally.judged} judged against it broke it"
            )
        if found is None:
            if tally.judged == 0:  # a search that tried nothing proves nothing
                raise Untested("the hunt generated no example within its budget")
            if tally.exercised == 0:
                raise Untested(
                    f"no generated example reached {invariant.situation} "
                    f"({tally.judged} examples judged)"
                )
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
        # The finding lands on the clauses whose words it breaks, not on every clause
        # the invariant is bound to (the others are untested by it).
        # The search stops looking for an invariant once it is broken: what it says of
        # the other clauses is not known, so the case ends as failed, never concluded.
        if broken == invariant.clauses:
            ctx.fail(message)
        for clause in broken[:-1]:
            ctx.expect(False, message, clause=clause)
        ctx.fail(message, clause=broken[-1])

    return Case(
        id=f"HUNT/{invariant.name}",
        name=f"{HUNT_PREFIX}{invariant.name}",
        kind="hunt",
        clauses=invariant.clauses,
        summary=invariant.judge.__doc__ or invariant.name,
        run=run,
    )


def share(examples: int, batch: int, shard: tuple[int, int]) -> int:
    """How many of a search's ``examples`` fall in the batches of ``shard`` (K, N): the
    batches are numbered from 0, ``batch`` examples each (the last one what is left), and
    shard K takes those numbered K-1 modulo N.  The shares of the N shards add up to
    ``examples``."""
    index, count = shard
    batches = -(-examples // batch)
    return sum(
        min(batch, examples - number * batch)
        for number in range(batches)
        if number % count == index - 1
    )


def breached(invariant: Invariant, reason: str) -> tuple[str, ...]:
    """The clauses a counterexample's ``reason`` is charged to: those a :class:`Breach`
    names (among the invariant's own), else every clause of the invariant."""
    if isinstance(reason, Breach):
        named = tuple(clause for clause in reason.clauses if clause in invariant.clauses)
        if named:
            return named
    return invariant.clauses


def hunt_cases(options: HuntOptions) -> list[Case]:
    """One case per invariant, sharing one search with the options' budget.

    In CI (``CI=true``) the search is reproducible: seeded batch by batch, it judges
    exactly the example count asked for (the time budget only guards against an
    implementation that never finishes), so the same run judges the same examples on a
    busy machine and an idle one.  Elsewhere it spends its time budget, the example count
    being a floor."""
    examples = Budget.examples if options.examples is None else options.examples
    shard = options.shard or (1, 1)
    # A shared example database replays what any run saved: such a search is not
    # reproducible, even in CI, and it is what was asked for.
    reproducible = options.ci and options.example_db is None
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
    variant = options.spec.partition("?")[2]  # a mutant or variant of the reference
    shared = _SharedSearch(budget, example_db=options.example_db, variant=variant)
    return [_case(invariant, shared) for invariant in INVARIANTS]
