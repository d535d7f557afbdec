"""A whole run: the planned cases executed against one implementation, in this process
or in worker processes, and the standing built from their outcomes.

``rttool run`` calls :func:`run_suite` directly; the pytest plugin runs the same cases
through the same :class:`~conformance.engine.Session` and builds the standing with the
same :func:`~conformance.engine.build_report`.  Every case planned ends in the standing:
one that never ran (the run was interrupted, stopped at its first failure, or its
worker died) is reported so, never left out.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Protocol

from adapters.handshake import Handshake
from conformance._workers import Shared, WorkerPool
from conformance.engine._case import Case
from conformance.engine._options import RunOptions
from conformance.engine._outcome import CaseOutcome
from conformance.engine._session import Session
from conformance.engine._standing import (
    Tally,
    build_report,
    charged,
    rule_result,
    selected_clause,
)
from conformance.engine._suite import RunPlan, Suite
from conformance.report import RuleResult, StandingReport

__all__ = [
    "EXITFIRST_NOT_RUN",
    "NOT_RUN",
    "Listener",
    "RuleLines",
    "RunResult",
    "run_suite",
]

#: What a case that never reported says, in a run that ended before it did.
NOT_RUN = "not run: the session ended before this case reported an outcome"
#: What a case says that a run stopped at its first failure did not run.
EXITFIRST_NOT_RUN = "untested: not run: the run stopped at its first failing case (--exitfirst)"


class Listener(Protocol):
    """What a run says as it goes (progress, a line per rule): told the cases planned,
    then each outcome as it is known."""

    def planned(self, cases: Sequence[Case]) -> None:
        """The run executes ``cases``."""

    def finished(self, case: Case, outcome: CaseOutcome) -> None:
        """``case`` ended with ``outcome``."""


@dataclass(frozen=True)
class RunResult:
    """What a run found: the standing, every outcome by case id, and whether it was
    interrupted (the standing is then whole, its unrun cases errors)."""

    report: StandingReport
    tally: Tally
    handshake: Handshake
    interrupted: bool = False
    #: the hunt was interrupted and ended early with what it had found
    hunt_interrupted: bool = False


@dataclass
class _Outcomes:
    """The outcomes so far, and who hears of each."""

    listeners: Sequence[Listener]
    by_id: dict[str, CaseOutcome] = field(default_factory=dict)

    def record(self, case: Case, outcome: CaseOutcome) -> None:
        if case.id in self.by_id:
            return
        self.by_id[case.id] = outcome
        for listener in self.listeners:
            listener.finished(case, outcome)


def run_suite(
    suite: Suite,
    plan: RunPlan,
    options: RunOptions,
    handshake: Handshake,
    *,
    listeners: Sequence[Listener] = (),
) -> RunResult:
    """Execute ``plan`` against the implementation ``options`` name (whose ``handshake``
    the caller has taken, on a connection of its own it has closed), then build the
    standing.  A Ctrl-C (or SIGTERM within :class:`~conformance.stopping.StopSignals`)
    ends the run early with every case that did not run an error; the standing is built
    all the same, and ``interrupted`` says so."""
    started = time.time()
    outcomes = _Outcomes(listeners)
    for listener in listeners:
        listener.planned(plan.cases)
    interrupted = False
    stopped = False
    try:
        if options.workers > 1 and len(plan.cases) > 1:
            stopped = _in_workers(suite, plan, options, outcomes)
        else:
            stopped = _here(suite, plan, options, outcomes)
    except KeyboardInterrupt:
        interrupted = True
    for case in plan.cases:
        if case.id not in outcomes.by_id:
            outcomes.record(case, _unrun(case, exitfirst=stopped and not interrupted))
    tally = Tally(
        options=options,
        corpus=suite.corpus,
        cases=plan.cases,
        outcomes=outcomes.by_id,
        situations=suite.situations,
        started=started,
        shard=plan.shard,
    )
    report = build_report(
        tally, handshake, duration_s=time.time() - started, levels=options.gate or handshake.levels
    )
    hunt_interrupted = any(
        o.hunt is not None and o.hunt.interrupted for o in outcomes.by_id.values()
    )
    return RunResult(report, tally, handshake, interrupted, hunt_interrupted)


def _unrun(case: Case, *, exitfirst: bool) -> CaseOutcome:
    if exitfirst:  # nothing was tried, so nothing is in error
        return CaseOutcome(
            case_id=case.id, outcome="skipped", skip_kind="untested", message=EXITFIRST_NOT_RUN
        )
    return CaseOutcome(case_id=case.id, outcome="error", message=NOT_RUN, fault="suite")


def _ends_run(options: RunOptions, suite: Suite, case: Case, outcome: CaseOutcome) -> bool:
    """Whether ``--exitfirst`` stops the run at ``outcome``: an error, or a failure that
    lands as a failure on a clause of the case the run reports on.  A failure the
    standing reads as untested on every such clause (no situation its words name was
    reached, a channel's clause blocked it) is no finding: stopping there would end the
    run with nothing failed, and the cases after it, which might fail, never run."""
    if not options.exitfirst or outcome.outcome not in ("failed", "error"):
        return False
    if outcome.outcome == "error":
        return True
    situations = suite.situations
    return any(
        charged(outcome, clause, tuple(s.words for s in situations.get(clause, ()))).outcome
        == "failed"
        for clause in case.clauses
        if selected_clause(options, clause, clause.split("#")[0])
    )


def _here(suite: Suite, plan: RunPlan, options: RunOptions, outcomes: _Outcomes) -> bool:
    """Every case in this process, in order; ``True`` when ``--exitfirst`` stopped it."""
    session = Session(options, suite.corpus, suite.situations)
    try:
        for case in plan.cases:
            outcome = session.execute(case)
            outcomes.record(case, outcome)
            if _ends_run(options, suite, case, outcome):
                return True
    finally:
        session.close()
    return False


@dataclass
class _Worker:
    """What a worker process holds: the cases by id, and its own session (opened on its
    first case, so that every process has a connection of its own)."""

    options: RunOptions
    suite: Suite
    cases: dict[str, Case]
    session: Session | None = None

    def execute(self, case_ids: tuple[str, ...]) -> tuple[CaseOutcome, ...]:
        if self.session is None:
            self.session = Session(self.options, self.suite.corpus, self.suite.situations)
        return tuple(self.session.execute(self.cases[case_id]) for case_id in case_ids)


def _execute(worker: _Worker, case_ids: tuple[str, ...]) -> tuple[CaseOutcome, ...]:
    return worker.execute(case_ids)


def _prepared(options: RunOptions) -> Callable[[], _Worker]:
    """How a spawned worker builds what a forked one inherits: the same plan, again."""
    from functools import partial

    return partial(_spawned_worker, options)


def _spawned_worker(options: RunOptions) -> _Worker:
    from conformance.engine._suite import load_suite

    suite = load_suite()
    plan = suite.plan(options)
    return _Worker(options, suite, {case.id: case for case in plan.cases})


def _jobs(cases: Sequence[Case]) -> list[tuple[str, ...]]:
    """The cases in jobs: the hunt's together (its cases share one search per process),
    every other case a job of its own."""
    hunted = tuple(case.id for case in cases if case.kind == "hunt")
    jobs: list[tuple[str, ...]] = [(case.id,) for case in cases if case.kind != "hunt"]
    return [*jobs, hunted] if hunted else jobs


def _in_workers(suite: Suite, plan: RunPlan, options: RunOptions, outcomes: _Outcomes) -> bool:
    """Every case in ``options.workers`` processes; ``True`` when ``--exitfirst`` stopped
    it.  A worker that died leaves its cases, and every case not yet run, in error."""
    by_id = {case.id: case for case in plan.cases}
    worker = _Worker(options, suite, by_id)
    jobs = _jobs(plan.cases)
    # No more workers than cases: a worker with nothing to run is a process for nothing.
    workers = min(options.workers, len(plan.cases))
    with WorkerPool(_execute, Shared(_prepared(options), worker), workers=workers) as pool:
        for index, future in pool.completed(jobs):
            try:
                found = future.result()
            except BrokenProcessPool:
                for case_id in jobs[index]:
                    died = "a worker process ended before this case reported an outcome"
                    dead = CaseOutcome(
                        case_id=case_id, outcome="error", message=died, fault="suite"
                    )
                    outcomes.record(by_id[case_id], dead)
                continue
            for outcome in found:
                outcomes.record(by_id[outcome.case_id], outcome)
                if _ends_run(options, suite, by_id[outcome.case_id], outcome):
                    return True
    return False


class RuleLines:
    """A listener saying each rule's standing on one line as soon as its last case
    ended, in corpus order (a rule's line waits for the rules before it)."""

    def __init__(
        self, options: RunOptions, suite: Suite, say: Callable[[RuleResult], None]
    ) -> None:
        self._options = options
        self._suite = suite
        self._say = say
        self._cases: Sequence[Case] = ()
        self._outcomes: dict[str, CaseOutcome] = {}
        self._pending: dict[str, int] = {}
        self._counted: dict[str, tuple[str, ...]] = {}
        self._order: list[str] = []
        self._printed = 0

    def planned(self, cases: Sequence[Case]) -> None:
        self._cases = cases
        # The rules each case counts towards: those with a clause of the case that the
        # run selected (a hunt case also bound to an unselected rule does not count there).
        for case in cases:
            counted = tuple(
                rule
                for rule in case.rules
                if any(
                    selected_clause(self._options, clause, rule)
                    for clause in case.clauses
                    if clause.startswith(f"{rule}#")
                )
            )
            self._counted[case.id] = counted
            for rule in counted:
                self._pending[rule] = self._pending.get(rule, 0) + 1
        corpus = self._suite.corpus
        self._order = [rule.id for rule in corpus.rules if rule.id in self._pending]

    def finished(self, case: Case, outcome: CaseOutcome) -> None:
        self._outcomes[case.id] = outcome
        for rule in self._counted.get(case.id, ()):
            self._pending[rule] -= 1
        while self._printed < len(self._order) and not self._pending[self._order[self._printed]]:
            tally = Tally(
                options=self._options,
                corpus=self._suite.corpus,
                cases=self._cases,
                outcomes=self._outcomes,
                situations=self._suite.situations,
                started=0.0,
            )
            result = rule_result(tally, self._order[self._printed])
            self._printed += 1
            if result is not None:
                self._say(result)
