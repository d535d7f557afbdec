"""The situations DR-2's clauses name, and the reading of a trace's runs and cuts that
the other DR rules' situations share (:data:`RESUMING`, :func:`cut_by`,
:func:`runs_by_turn`)."""

from __future__ import annotations

from itertools import pairwise

from adapters.handshake import Handshake
from adapters.scenario import Interrupt, Scenario
from adapters.trace import RunRecord, Trace
from conformance.toolkit import ClauseSituation, Situation, mapping, situation

__all__ = ["RESUMING", "SITUATIONS", "WITHOUT_SITUATIONS", "cut_by", "runs_by_turn"]

#: The run causes of a run that resumed its turn after an interruption.
RESUMING = ("auto_continue", "continue")


def cut_by(scenario: Scenario, run: RunRecord) -> str | None:
    """The cause that cut ``run`` short, of those the scenario armed: the one its
    interruption names, else, where the scenario armed cuts of one cause only, that one;
    ``None`` for a run not cut, or cut by a cause the scenario never armed."""
    if run.end not in ("interrupted", "crashed"):
        return None
    armed = {step.cause for step in scenario.steps if isinstance(step, Interrupt)}
    named = mapping(run.interruption).get("cause")
    if isinstance(named, str):
        return named if named in armed else None
    return armed.pop() if len(armed) == 1 else None


def runs_by_turn(trace: Trace) -> dict[tuple[str, str], list[RunRecord]]:
    """Each turn's runs in order, by (conversation, turn label)."""
    found: dict[tuple[str, str], list[RunRecord]] = {}
    for run in trace.runs():
        found.setdefault((run.conversation, run.turn), []).append(run)
    return found


def _resumed_after(cause: str) -> Situation:
    """A run resumed its turn (on its own or by Continue) right after a run of the turn
    that ``cause`` cut, on a harness that can cut by ``cause``."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        if cause not in handshake.capabilities.interrupt_causes:
            return False
        return any(
            later.cause in RESUMING and cut_by(scenario, earlier) == cause
            for runs in runs_by_turn(trace).values()
            for earlier, later in pairwise(runs)
        )

    return reached


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "after a soft timeout, a gateway timeout or a resumable transport error"
    situation(
        "DR-2#c1",
        "a run resumed after a soft timeout (its time limit)",
        _resumed_after("time_limit"),
    ),
    situation(
        "DR-2#c1", "a run resumed after a gateway timeout", _resumed_after("gateway_timeout")
    ),
    situation(
        "DR-2#c1",
        "a run resumed after a resumable transport error",
        _resumed_after("transport_error"),
    ),
)

WITHOUT_SITUATIONS: dict[str, str] = {
    "DR-2#c2": (
        "one behaviour for every completed call alike (named, with a short result); the "
        "text names no circumstance to tell apart"
    ),
    "DR-2#c3": (
        "one behaviour for every interrupted call alike (named as of unknown outcome); the "
        "text names no circumstance to tell apart"
    ),
    "DR-2#c4": "one behaviour in one circumstance: a resume whose journal is empty",
    "DR-2#c5": (
        "one behaviour in one circumstance, a ledger read that fails when a run resumes, "
        "which every case of the clause plays"
    ),
}
