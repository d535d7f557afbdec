"""The hunt: one hypothesis search per process, every example held to every invariant.

The search spends its time budget: it runs batch after batch until ``seconds`` have
passed and at least ``examples`` examples were generated (the count is a floor, not a
ceiling).  An invariant found broken is set aside, not the whole search: later batches
go on looking for the others, so one finding never hides another, and a counterexample
saved in the example database is replayed first without ending the search either.

Every example judged counts towards each invariant it was judged against, and towards
those whose situation it *exercised*; the examples hypothesis runs while shrinking a
finding are counted apart, never as generated examples.  Distinct invariants raise
distinct exception types, so hypothesis shrinks each failure on its own.  In CI
(``CI=true``) every batch has a fixed seed: the search is reproducible and keeps no
database.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from adapters.driver import Unsupported
from adapters.errors import ImplementationError
from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.stopping import stop_requested
from conformance.toolkit import Invariant, ScenarioRunner, Violation

if TYPE_CHECKING:
    from hypothesis.database import ExampleDatabase

__all__ = ["Budget", "Finding", "HuntOutcome", "Tally", "hunt"]

#: Where the example floor is not reached in time, the search stops anyway at this many
#: times its time budget: a slow implementation gets more time, never unbounded time.
FLOOR_GRACE = 4.0
#: A search bounded by a count (of examples, of shrinks) is reproducible only if time
#: never cuts it first: its time bounds are then at least this long, a guard against an
#: implementation that never finishes (each request has its own timeout besides), never
#: a budget a slow implementation on a busy machine could run out of.
COUNTED_GUARD_SECONDS = 1800.0


@dataclass(frozen=True)
class Budget:
    """How much searching to do: ``seconds`` bound the search, which goes on until they
    are spent and at least ``examples`` examples were generated (but never past
    :data:`FLOOR_GRACE` times ``seconds``)."""

    examples: int = 150
    seconds: float = 20.0
    seed: int | None = None
    derandomize: bool = False
    database: Path | None = None
    batch: int = 25
    #: stop after this many generated examples whatever the time: a reproducible search
    #: (CI, the self-test) judges the same examples on a busy machine as on an idle one,
    #: and ``seconds`` only guards against an implementation that never finishes
    limit: int | None = None
    #: time allowed for shrinking each finding (hypothesis's own bound is 300 s)
    shrink_seconds: float = 4.0
    #: where set, shrinking is bounded by this many shrinks rather than by time, so that
    #: a reproducible search shrinks to the same counterexample on any machine
    shrinks: int | None = None
    #: where set, a counterexample of at most this many steps is short enough: it is kept
    #: as found (or as far as shrinking got) and not shrunk further.  Hypothesis bounds
    #: the shrinks that succeed, not the attempts, each of which is a scenario drawn and
    #: run: shrinking a ten-step example to four can cost a thousand runs
    short_enough: int | None = None
    #: ``(K, N)``: this search is shard K (from 1) of N, and runs batches K-1, K-1+N,
    #: K-1+2N...: each shard its own seeds, together the batches of one unsplit search
    shard: tuple[int, int] = (1, 1)
    #: an opened example database (``--example-db``) used instead of ``database``; it
    #: counts what it replayed (``conformance/hunt/_database.py``)
    store: ExampleDatabase | None = None


@dataclass(frozen=True)
class Finding:
    """A shrunk counterexample to one invariant."""

    invariant: str
    message: str
    scenario: Scenario
    trace: Trace


@dataclass
class Tally:
    """For one invariant: generated examples judged against it, and how many of them
    exercised it (the situation its clauses speak of occurred)."""

    judged: int = 0
    exercised: int = 0


@dataclass
class HuntOutcome:
    """What a hunt tried and what it found."""

    #: examples generated (or replayed from the database) and judged; never shrink steps
    examples: int = 0
    #: examples run while shrinking findings
    shrinks: int = 0
    elapsed_s: float = 0.0
    findings: dict[str, Finding] = field(default_factory=dict)
    tallies: dict[str, Tally] = field(default_factory=dict)
    error: str | None = None
    #: when the first violation turned up: (examples run, seconds), before any shrinking
    first_failure: tuple[int, float] | None = None
    #: per invariant, when its first violation turned up
    found_at: dict[str, tuple[int, float]] = field(default_factory=dict)
    #: the implementation could not be driven: the search stopped there
    broken: ImplementationError | None = None
    #: saved examples fetched from ``--example-db`` to be replayed (``None``: none given)
    replayed: int | None = None
    #: the shared example database failed and local storage took its place: why, as a
    #: key of ``conformance.hunt.LOSSES`` (0: it did not)
    store_lost: int = 0
    #: the search was interrupted (Ctrl-C, a cancelled CI job): it stopped there, with
    #: what it had found
    interrupted: bool = False
    #: the example it could not run (its partial trace is the error's)
    broken_on: Scenario | None = None


class _ShortEnough(BaseException):
    """Raised through hypothesis (which lets what is not an ``Exception`` pass) once a
    counterexample is short enough: the search keeps it and shrinks no further."""


class _Batch:
    """One hypothesis run: judges examples against the active invariants, and knows
    when it has started shrinking (everything after its first violation)."""

    def __init__(
        self,
        runner: ScenarioRunner,
        handshake: Handshake,
        active: Sequence[Invariant],
        outcome: HuntOutcome,
        started: float,
        deadline: float,
        short_enough: int | None = None,
    ) -> None:
        self.runner, self.handshake, self.active = runner, handshake, tuple(active)
        self.outcome, self.started, self.deadline = outcome, started, deadline
        self.short_enough = short_enough
        self.shrinking = False
        #: per invariant, the last violation raised (shrinking makes each smaller)
        self.seen: dict[str, Violation] = {}

    def check(self, scenario: Scenario) -> None:
        if stop_requested():  # a stop whose KeyboardInterrupt was dropped on its way
            raise KeyboardInterrupt
        outcome = self.outcome
        if outcome.broken is not None:
            return  # nothing more can be learnt; returning keeps hypothesis from shrinking
        if not self.shrinking and time.monotonic() > self.deadline:
            return  # the budget is spent: the rest of this batch costs generation only
        try:
            trace = self.runner.run(scenario)
        except ImplementationError as err:
            outcome.broken, outcome.broken_on = err, scenario
            return
        if isinstance(trace, Unsupported):
            from hypothesis import reject

            reject()
            return
        if self.shrinking:
            outcome.shrinks += 1
        else:
            outcome.examples += 1
        for one in self.active:
            if not self.shrinking:
                tally = outcome.tallies.setdefault(one.name, Tally())
                tally.judged += 1
                if one.exercised(scenario, trace, self.handshake):
                    tally.exercised += 1
            message = one.judge(scenario, trace, self.handshake)
            if message is not None:
                if not self.shrinking:
                    moment = (outcome.examples, round(time.monotonic() - self.started, 3))
                    outcome.first_failure = outcome.first_failure or moment
                    outcome.found_at.setdefault(one.name, moment)
                self.shrinking = True
                violation = one.violation(message, scenario, trace)
                self.seen[one.name] = violation  # the smallest so far, should shrinking stop
                if self.short_enough is not None and len(scenario.steps) <= self.short_enough:
                    raise _ShortEnough
                raise violation


def hunt(
    runner: ScenarioRunner,
    handshake: Handshake,
    invariants: Sequence[Invariant],
    budget: Budget,
    *,
    enough: Callable[[HuntOutcome], bool] | None = None,
    keep_broken: bool = False,
) -> HuntOutcome:
    """Search for scenarios that break ``invariants``; return the shrunk findings and,
    per invariant, the examples judged and exercised.  ``enough`` ends the search early
    once what it looks for was found (the self-test stops at its mutant's clauses).

    An implementation that cannot run an example ends the search: its error is raised,
    unless ``keep_broken``, where the outcome is returned with the error in ``broken``
    and the example in ``broken_on``, beside everything judged before it."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as fixed_seed
    from hypothesis.database import DirectoryBasedExampleDatabase, InMemoryExampleDatabase
    from hypothesis.errors import Unsatisfiable

    from conformance.hunt.strategies import scenarios

    outcome = HuntOutcome()
    outcome.tallies = {one.name: Tally() for one in invariants}
    # A reproducible search keeps no database: it replays nothing but its own seeds.
    database = (
        None
        if budget.derandomize
        else budget.store
        if budget.store is not None
        else DirectoryBasedExampleDatabase(str(budget.database))
        if budget.database
        else InMemoryExampleDatabase()
    )
    base_seed = 0 if budget.derandomize and budget.seed is None else budget.seed
    generated = scenarios(handshake)
    started = time.monotonic()
    stop_at = started + budget.seconds
    grace = budget.seconds * FLOOR_GRACE
    give_up_at = started + (
        max(grace, COUNTED_GUARD_SECONDS) if budget.limit is not None else grace
    )
    active = list(invariants)
    number, stride = budget.shard[0] - 1, budget.shard[1]
    while active and outcome.broken is None:
        if enough is not None and enough(outcome):
            break
        now = time.monotonic()
        if budget.limit is not None:
            if outcome.examples >= budget.limit or now >= give_up_at:
                break
            deadline, size = give_up_at, min(budget.batch, budget.limit - outcome.examples)
        else:
            if now >= give_up_at or (now >= stop_at and outcome.examples >= budget.examples):
                break
            # Within the floor's grace the batch runs to its end; past the budget it stops.
            deadline = give_up_at if outcome.examples < budget.examples else stop_at
            size = budget.batch
        batch = _Batch(runner, handshake, active, outcome, started, deadline, budget.short_enough)
        test = settings(
            max_examples=size,
            deadline=None,
            database=database,
            derandomize=False,
            print_blob=False,
            # findings are saved and reported by the suite, not printed here
            verbosity=Verbosity.quiet,
            suppress_health_check=list(HealthCheck),
            # one bug per batch: what follows the first violation is shrinking, and the
            # invariant it broke is set aside before the next batch looks for the others
            report_multiple_bugs=False,
            phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
        )(given(generated)(batch.check))
        if base_seed is not None:
            test = fixed_seed(base_seed + number)(test)
            if database is not None and database is budget.store:
                # hypothesis's seed turns the database off; a shared one was asked for.
                chosen = getattr(test, "_hypothesis_internal_use_settings")  # noqa: B009
                setattr(  # noqa: B010
                    test, "_hypothesis_internal_use_settings", settings(chosen, database=database)
                )
        number += stride
        try:
            with _shrinking_bounded(budget.shrink_seconds, budget.shrinks):
                test()
        except KeyboardInterrupt:
            # A long hunt stopped by hand keeps what it found: the findings so far are
            # reported (and already saved in the example database), and the run ends
            # as interrupted once every invariant's case has said so.
            outcome.interrupted = True
            for best in batch.seen.values():  # stopped while shrinking: the best so far
                _keep(outcome, best)
            break
        except _ShortEnough:
            for best in batch.seen.values():
                _keep(outcome, best)
        except Unsatisfiable:
            outcome.error = "the implementation could run none of the generated scenarios"
            break
        except Violation as violation:
            _keep(outcome, violation)
        except BaseExceptionGroup as group:
            found = _violations(group)
            if group.subgroup(_ShortEnough) is not None:
                found += list(batch.seen.values())
            # A stop that came while hypothesis replayed what it found is reported beside
            # the finding, not raised: it still stops the hunt.
            stopped = group.subgroup(KeyboardInterrupt) is not None
            if not found and not stopped:
                raise
            for member in found:
                _keep(outcome, member)
            if stopped:
                outcome.interrupted = True
                break
        active = [one for one in active if one.name not in outcome.findings]
    outcome.elapsed_s = round(time.monotonic() - started, 3)
    if database is not None and database is budget.store:
        outcome.replayed = getattr(database, "replayed", None)
        outcome.store_lost = int(getattr(database, "loss", 0))
    if outcome.broken is not None and not keep_broken:
        raise outcome.broken
    return outcome


@contextmanager
def _shrinking_bounded(seconds: float, shrinks: int | None) -> Iterator[None]:
    """Bound how long hypothesis shrinks, for this search only: by time, or, where
    ``shrinks`` is given, by a count of shrinks (with a time bound of at least
    :data:`COUNTED_GUARD_SECONDS`, only against a shrink that never ends), which makes the
    result the same however busy the machine is.

    Hypothesis keeps both bounds in module constants of its engine; they are set here
    and restored after.  Should a later hypothesis drop one, that bound is simply its
    own again.
    """
    from hypothesis.internal.conjecture import engine

    guard = max(seconds * 10, COUNTED_GUARD_SECONDS)
    wanted = {"MAX_SHRINKING_SECONDS": seconds if shrinks is None else guard}
    if shrinks is not None:
        wanted["MAX_SHRINKS"] = shrinks
    previous = {name: getattr(engine, name) for name in wanted if hasattr(engine, name)}
    for name in previous:
        setattr(engine, name, wanted[name])
    try:
        yield
    finally:
        for name, value in previous.items():
            setattr(engine, name, value)


def _violations(group: BaseExceptionGroup[BaseException]) -> list[Violation]:
    found: list[Violation] = []
    for member in group.exceptions:
        if isinstance(member, Violation):
            found.append(member)
        elif isinstance(member, BaseExceptionGroup):
            found += _violations(member)
    return found


def _keep(outcome: HuntOutcome, found: Violation) -> None:
    outcome.findings.setdefault(
        found.invariant, Finding(found.invariant, found.message, found.scenario, found.trace)
    )
