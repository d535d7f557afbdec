"""The hunt: one hypothesis search per process, every example held to every invariant.

Distinct invariants raise distinct exception types, so hypothesis shrinks each failure
on its own and reports them together.  The search runs in batches until its example
budget or its time budget is spent, or something is found.  In CI (``CI=true``) it is
derandomized and reproducible; the example database lives under the report directory.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from adapters.driver import Unsupported
from adapters.errors import ImplementationError
from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.checks._context import ScenarioRunner
from conformance.hunt.invariants import Invariant, Violation
from conformance.hunt.strategies import scenarios

__all__ = ["Budget", "Finding", "HuntOutcome", "hunt"]


@dataclass(frozen=True)
class Budget:
    """How much searching to do."""

    examples: int = 150
    seconds: float = 20.0
    seed: int | None = None
    derandomize: bool = False
    database: Path | None = None
    batch: int = 50
    #: time allowed for shrinking each search's failures (hypothesis's own bound is 300 s)
    shrink_seconds: float = 4.0


@dataclass(frozen=True)
class Finding:
    """A shrunk counterexample to one invariant."""

    invariant: str
    message: str
    scenario: Scenario
    trace: Trace


@dataclass
class HuntOutcome:
    """What a hunt tried and what it found."""

    examples: int = 0
    elapsed_s: float = 0.0
    findings: dict[str, Finding] = field(default_factory=dict)
    error: str | None = None
    #: when the first violation turned up: (examples run, seconds), before any shrinking
    first_failure: tuple[int, float] | None = None
    #: the implementation could not be driven: the search stopped there
    broken: ImplementationError | None = None


class _Rejected(Exception):
    pass


def hunt(
    runner: ScenarioRunner, handshake: Handshake, invariants: Sequence[Invariant], budget: Budget
) -> HuntOutcome:
    """Search for scenarios that break ``invariants``; return the shrunk findings."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as fixed_seed
    from hypothesis.database import DirectoryBasedExampleDatabase, InMemoryExampleDatabase
    from hypothesis.errors import Unsatisfiable

    outcome = HuntOutcome()
    # A derandomized search is reproducible by construction and keeps no database.
    database = (
        None
        if budget.derandomize
        else DirectoryBasedExampleDatabase(str(budget.database))
        if budget.database
        else InMemoryExampleDatabase()
    )
    started = time.monotonic()

    def check(scenario: Scenario) -> None:
        if outcome.broken is not None:
            return  # nothing more can be learnt; returning keeps hypothesis from shrinking
        outcome.examples += 1
        try:
            trace = runner.run(scenario)
        except ImplementationError as err:
            outcome.broken = err
            return
        if isinstance(trace, Unsupported):
            from hypothesis import reject

            reject()
            return
        for invariant in invariants:
            message = invariant.judge(scenario, trace, handshake)
            if message is not None:
                if outcome.first_failure is None:
                    outcome.first_failure = (outcome.examples, round(time.monotonic() - started, 3))
                raise invariant.violation(message, scenario, trace)

    batch = 0
    while outcome.examples < budget.examples and not outcome.findings and not outcome.broken:
        if time.monotonic() - started > budget.seconds:
            break
        # A derandomized search repeats itself batch after batch: it runs as one batch.
        size = (
            budget.examples
            if budget.derandomize
            else min(budget.batch, budget.examples - outcome.examples)
        )
        test = settings(
            max_examples=size,
            deadline=None,
            database=database,
            derandomize=budget.derandomize,
            print_blob=False,
            # findings are saved and reported by the suite, not printed here
            verbosity=Verbosity.quiet,
            suppress_health_check=list(HealthCheck),
            report_multiple_bugs=True,
            phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
        )(given(scenarios(handshake))(check))
        if budget.seed is not None and not budget.derandomize:
            test = fixed_seed(budget.seed + batch)(test)
        batch += 1
        try:
            with _shrinking_bounded(budget.shrink_seconds):
                test()
        except Unsatisfiable:
            outcome.error = "the implementation could run none of the generated scenarios"
            break
        except Violation as violation:
            _keep(outcome, violation)
        except BaseExceptionGroup as group:
            for member in _violations(group):
                _keep(outcome, member)
            if not outcome.findings:
                raise
        if budget.derandomize:
            break
    outcome.elapsed_s = round(time.monotonic() - started, 3)
    if outcome.broken is not None:
        raise outcome.broken
    return outcome


@contextmanager
def _shrinking_bounded(seconds: float) -> Iterator[None]:
    """Bound the time hypothesis spends shrinking, for this search only.

    Hypothesis keeps the bound in a module constant of its engine; it is set here and
    restored after.  Should a later hypothesis drop the constant, shrinking is simply
    unbounded again.
    """
    from hypothesis.internal.conjecture import engine

    previous = getattr(engine, "MAX_SHRINKING_SECONDS", None)
    if previous is None:
        yield
        return
    engine.MAX_SHRINKING_SECONDS = seconds  # type: ignore[assignment]
    try:
        yield
    finally:
        engine.MAX_SHRINKING_SECONDS = previous


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
