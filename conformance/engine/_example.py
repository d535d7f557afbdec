"""One example held to one invariant, concluded as the standing concludes a hunt case.

``rttool replay`` judges a saved counterexample again.  What it says of each clause must
be what the standing said: the invariant binds the implementation or not (a collecting
invariant and a runtime that collects nothing), the finding lands on the clauses its
:class:`~conformance.toolkit.machinery.Breach` names, a channel the invariant observes
through that the trace breaks blocks it, and a clause whose situations the trace never
reached is never failed.  So the example is run as a hunt case through :func:`judge`,
and each clause's verdict is :func:`charged` from it, with the same situations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import NoReturn

from adapters.driver import Unsupported
from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.engine._case import Case, hunt_case_id, hunt_case_name, judge
from conformance.engine._outcome import CaseOutcome
from conformance.engine._standing import charged
from conformance.hunt import breached
from conformance.toolkit.machinery import (
    Breach,
    CheckContext,
    ClauseSituation,
    Invariant,
    NotApplicable,
    reached_situations,
)

__all__ = ["ClauseVerdict", "fail_on", "judge_example"]


def fail_on(ctx: CheckContext, invariant: Invariant, message: str, said: str) -> NoReturn:
    """End a hunt case on ``invariant``'s finding ``message`` (said as ``said``): it lands
    on the clauses whose words it breaks, not on every clause the invariant is bound to
    (the others are untested by it).  The case ends as failed, never concluded: what the
    invariant says of its other clauses is not known."""
    broken = breached(invariant, message)
    through = message.through if isinstance(message, Breach) else None
    if broken == invariant.clauses:
        ctx.fail(said, through=through)
    for clause in broken[:-1]:
        ctx.expect(False, said, clause=clause, through=through)
    ctx.fail(said, clause=broken[-1], through=through)


@dataclass(frozen=True)
class ClauseVerdict:
    """How one example stands on one of its invariant's clauses: its outcome there, as the
    standing would land it (``failed``, ``passed``, or skipped with the reason)."""

    clause: str
    outcome: CaseOutcome

    @property
    def failed(self) -> bool:
        """The example fails the clause."""
        return self.outcome.outcome == "failed"


class _Replaying:
    """A runner that answers the one scenario with the trace it already made."""

    def __init__(self, handshake: Handshake, scenario: Scenario, trace: Trace) -> None:
        self._handshake, self._scenario, self._trace = handshake, scenario, trace

    def handshake(self) -> Handshake:
        return self._handshake

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        return self._trace


def judge_example(
    invariant: Invariant,
    scenario: Scenario,
    trace: Trace,
    handshake: Handshake,
    situations: Mapping[str, tuple[ClauseSituation, ...]],
) -> tuple[ClauseVerdict, ...]:
    """How ``trace`` (what ``scenario`` made) stands on each of ``invariant``'s clauses,
    judged as the hunt case of ``invariant`` is and charged as the standing charges it;
    ``situations`` are the suite's, by clause."""

    def run(ctx: CheckContext) -> None:
        reason = invariant.not_applicable(ctx.handshake)
        if reason is not None:
            raise NotApplicable(reason)
        ctx.require(*invariant.needs)
        made = ctx.run(scenario)
        message = invariant.judge(scenario, made, ctx.handshake)
        if message is not None:
            fail_on(ctx, invariant, message, str(message))

    case = Case(
        id=hunt_case_id(invariant.name),
        name=hunt_case_name(invariant.name),
        kind="hunt",
        clauses=invariant.clauses,
        summary=invariant.judge.__doc__ or invariant.name,
        run=run,
        through=invariant.through,
    )
    judged = judge(case, _Replaying(handshake, scenario, trace))
    runs = judged.context.evidence.runs if judged.context is not None else []
    outcome = replace(
        judged.outcome,
        reached={
            clause: reached_situations(situations.get(clause, ()), runs, handshake)
            for clause in invariant.clauses
        },
    )
    return tuple(
        ClauseVerdict(
            clause, charged(outcome, clause, tuple(s.words for s in situations.get(clause, ())))
        )
        for clause in invariant.clauses
    )
