"""The hunt: one hypothesis search per process, every example held to every invariant.

The search spends its time budget: it runs batch after batch until ``seconds`` have
passed and at least ``examples`` examples were generated (the count is a floor, not a
ceiling).  An invariant found broken is set aside, not the whole search: later batches
go on looking for the others, so one finding never hides another, and a counterexample
saved in the example database is replayed first without ending the search either.

Every example judged counts towards each invariant it was judged against, and towards
those whose situation it *exercised*; the situations of their clauses it reached are
noted (:mod:`conformance.hunt._reached`); the examples hypothesis runs while shrinking a
finding are counted apart, never as generated examples.  Distinct invariants raise
distinct exception types, so hypothesis shrinks each failure on its own.  In CI
(``CI=true``) every batch has a fixed seed: the search is reproducible and keeps no
database.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from adapters.driver import Unsupported
from adapters.errors import ImplementationError
from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.hunt._hypothesis import COUNTED_GUARD_SECONDS, shrinking_bounded, with_database
from conformance.hunt._minimise import MINIMISE_RUNS, minimise
from conformance.hunt._reached import ReachedSituations
from conformance.stopping import stop_requested
from conformance.toolkit.machinery import ClauseSituation, Invariant, ScenarioRunner, Violation

if TYPE_CHECKING:
    from hypothesis.database import ExampleDatabase
    from hypothesis.strategies import SearchStrategy

__all__ = ["Budget", "Finding", "HuntOutcome", "Tally", "hunt"]

#: Where the example floor is not reached in time, the search stops anyway at this many
#: times its time budget: a slow implementation gets more time, never unbounded time.
FLOOR_GRACE = 4.0


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
    #: after hypothesis, each finding's steps, replies and calls that its verdict does not
    #: need are taken out, trying at most this many removals (0: none; a count, so the
    #: same counterexample on any machine: ``conformance/hunt/_minimise.py``)
    minimise: int = MINIMISE_RUNS


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
    #: the situations of each invariant's clauses the generated examples reached (words
    #: by clause id; empty where the search was given no situations to count)
    reached: dict[str, tuple[str, ...]] = field(default_factory=dict)


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
        reached: ReachedSituations | None = None,
    ) -> None:
        self.runner, self.handshake, self.active = runner, handshake, tuple(active)
        self.outcome, self.started, self.deadline = outcome, started, deadline
        self.short_enough = short_enough
        self.reached = reached
        self.clauses = tuple(dict.fromkeys(c for one in self.active for c in one.clauses))
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
            if self.reached is not None:
                self.reached.note(self.clauses, scenario, trace, self.handshake)
        for one in self.active:
            self._judge(one, scenario, trace)

    def _judge(self, one: Invariant, scenario: Scenario, trace: Trace) -> None:
        """Hold an example to one invariant: count it (a generated one, not a shrink),
        and raise the violation it shows, which makes the batch start shrinking."""
        outcome = self.outcome
        if not self.shrinking:
            tally = outcome.tallies.setdefault(one.name, Tally())
            tally.judged += 1
            if one.exercised(scenario, trace, self.handshake):
                tally.exercised += 1
        message = one.judge(scenario, trace, self.handshake)
        if message is None:
            return
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
    situations: Mapping[str, tuple[ClauseSituation, ...]] | None = None,
) -> HuntOutcome:
    """Search for scenarios that break ``invariants``; return the shrunk findings and,
    per invariant, the examples judged and exercised; with ``situations`` (each clause's,
    by clause id), the situations of the invariants' clauses the generated examples
    reached.  ``enough`` ends the search early once what it looks for was found (the
    self-test stops at its mutant's clauses).

    An implementation that cannot run an example ends the search: its error is raised,
    unless ``keep_broken``, where the outcome is returned with the error in ``broken``
    and the example in ``broken_on``, beside everything judged before it."""
    from conformance.hunt.strategies import scenarios

    outcome = HuntOutcome()
    outcome.tallies = {one.name: Tally() for one in invariants}
    database = _database(budget)
    seeds = _batch_seeds(budget)
    generated = scenarios(handshake)
    clock = _Clock.start(budget)
    active = list(invariants)
    reached = ReachedSituations(situations) if situations is not None else None
    while active and outcome.broken is None:
        if enough is not None and enough(outcome):
            break
        window = clock.next_batch(budget, outcome.examples)
        if window is None:
            break
        deadline, size = window
        batch = _Batch(
            runner,
            handshake,
            active,
            outcome,
            clock.started,
            deadline,
            budget.short_enough,
            reached,
        )
        test = _batch_test(batch, generated, size, next(seeds), database, budget.store)
        if _run_batch(test, batch, budget):
            break
        active = [one for one in active if one.name not in outcome.findings]
    if reached is not None:
        outcome.reached = reached.of(dict.fromkeys(c for one in invariants for c in one.clauses))
    _minimise_findings(outcome, runner, handshake, invariants, budget.minimise)
    return _finish(outcome, clock, database, budget, keep_broken=keep_broken)


def _minimise_findings(
    outcome: HuntOutcome,
    runner: ScenarioRunner,
    handshake: Handshake,
    invariants: Sequence[Invariant],
    runs: int,
) -> None:
    """Each finding with the steps, replies and calls its verdict does not need taken
    out, within ``runs`` runs each, counted as shrinks (``conformance/hunt/_minimise.py``).
    A search interrupted, or ended on an implementation it could not drive, keeps its
    findings as they are; a stop during the pass keeps what was taken out so far."""
    if runs <= 0 or outcome.interrupted or outcome.broken is not None:
        return
    by_name = {one.name: one for one in invariants}
    for name, found in sorted(outcome.findings.items()):
        done = minimise(
            found.scenario, found.message, found.trace, by_name[name], runner, handshake, runs
        )
        outcome.shrinks += done.runs
        outcome.findings[name] = Finding(name, done.message, done.scenario, done.trace)
        if done.interrupted:
            outcome.interrupted = True
            return


def _database(budget: Budget) -> ExampleDatabase | None:
    """Where the search saves its findings and replays earlier ones first."""
    from hypothesis.database import DirectoryBasedExampleDatabase, InMemoryExampleDatabase

    if budget.derandomize:
        return None  # a reproducible search replays nothing but its own seeds
    if budget.store is not None:
        return budget.store
    if budget.database:
        from conformance.hunt._database import ScopedDatabase

        # A finding set aside later in the search replays as passing, and hypothesis
        # would delete it: the report directory's database, like a shared one, forgets
        # nothing a run found.
        local = DirectoryBasedExampleDatabase(str(budget.database))
        return ScopedDatabase(local, b"", "dir:.hypothesis")
    return InMemoryExampleDatabase()


def _batch_seeds(budget: Budget) -> Iterator[int | None]:
    """The seed of each batch in turn: none for a search given no seed (a reproducible
    one starts at 0); else, from the search's seed, the batches of this shard (K, N):
    K-1, K-1+N, K-1+2N... of the one unsplit search."""
    base = 0 if budget.derandomize and budget.seed is None else budget.seed
    if base is None:
        return itertools.repeat(None)
    first, stride = budget.shard[0] - 1, budget.shard[1]
    return (base + number for number in itertools.count(first, stride))


@dataclass(frozen=True)
class _Clock:
    """When the search started, when its time budget is spent, and when it stops
    whatever it has generated (:data:`FLOOR_GRACE` times the budget, or, for a search
    bounded by a count, :data:`COUNTED_GUARD_SECONDS` at least)."""

    started: float
    stop_at: float
    give_up_at: float

    @classmethod
    def start(cls, budget: Budget) -> _Clock:
        started = time.monotonic()
        grace = budget.seconds * FLOOR_GRACE
        guard = max(grace, COUNTED_GUARD_SECONDS) if budget.limit is not None else grace
        return cls(started, started + budget.seconds, started + guard)

    def next_batch(self, budget: Budget, examples: int) -> tuple[float, int] | None:
        """The deadline and the size of the next batch, ``examples`` having been
        generated so far; ``None`` when the search is over."""
        now = time.monotonic()
        if budget.limit is not None:
            if examples >= budget.limit or now >= self.give_up_at:
                return None
            return self.give_up_at, min(budget.batch, budget.limit - examples)
        if now >= self.give_up_at or (now >= self.stop_at and examples >= budget.examples):
            return None
        # Within the floor's grace the batch runs to its end; past the budget it stops.
        deadline = self.give_up_at if examples < budget.examples else self.stop_at
        return deadline, budget.batch


def _batch_test(
    batch: _Batch,
    generated: SearchStrategy[Scenario],
    size: int,
    seed: int | None,
    database: ExampleDatabase | None,
    store: ExampleDatabase | None,
) -> Callable[[], None]:
    """One batch as a hypothesis test of ``size`` examples, seeded where ``seed`` is
    given (with the shared ``store`` still its database, where that is the one used)."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as fixed_seed

    test: Callable[[], None] = settings(
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
    if seed is None:
        return test
    test = fixed_seed(seed)(test)
    if database is not None and database is store:
        test = with_database(test, database)
    return test


def _run_batch(test: Callable[[], None], batch: _Batch, budget: Budget) -> bool:
    """Run one batch and keep what it found; whether the search stops there (it was
    interrupted, or the implementation could run nothing)."""
    from hypothesis.errors import Unsatisfiable

    outcome = batch.outcome
    try:
        with shrinking_bounded(budget.shrink_seconds, budget.shrinks):
            test()
    except KeyboardInterrupt:
        # A long hunt stopped by hand keeps what it found: the findings so far are
        # reported (and already saved in the example database), and the run ends
        # as interrupted once every invariant's case has said so.
        outcome.interrupted = True
        _keep_all(outcome, batch.seen.values())  # stopped while shrinking: the best so far
        return True
    except _ShortEnough:
        _keep_all(outcome, batch.seen.values())
    except Unsatisfiable:
        outcome.error = "the implementation could run none of the generated scenarios"
        return True
    except Violation as violation:
        _keep(outcome, violation)
    except BaseExceptionGroup as group:
        found, stopped = _found_in_group(group, batch)
        if not found and not stopped:
            raise
        _keep_all(outcome, found)
        if stopped:
            outcome.interrupted = True
        return stopped
    return False


def _found_in_group(
    group: BaseExceptionGroup[BaseException], batch: _Batch
) -> tuple[list[Violation], bool]:
    """The violations a group of failures holds (the best so far of a batch that was
    short enough), and whether a stop came with them.  A stop that came while hypothesis
    replayed what it found is reported beside the finding, not raised: it still stops
    the hunt."""
    found = _violations(group)
    if group.subgroup(_ShortEnough) is not None:
        found += list(batch.seen.values())
    return found, group.subgroup(KeyboardInterrupt) is not None


def _finish(
    outcome: HuntOutcome,
    clock: _Clock,
    database: ExampleDatabase | None,
    budget: Budget,
    *,
    keep_broken: bool,
) -> HuntOutcome:
    """The outcome, with the time spent and what the shared store replayed; raises the
    implementation's error where it could not be driven, unless ``keep_broken``."""
    outcome.elapsed_s = round(time.monotonic() - clock.started, 3)
    if database is not None and database is budget.store:
        outcome.replayed = getattr(database, "replayed", None)
        outcome.store_lost = int(getattr(database, "loss", 0))
    if outcome.broken is not None and not keep_broken:
        raise outcome.broken
    return outcome


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


def _keep_all(outcome: HuntOutcome, found: Iterable[Violation]) -> None:
    for one in found:
        _keep(outcome, one)
